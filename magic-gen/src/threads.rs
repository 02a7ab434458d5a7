//! Work spread over threads: the polish's jobs and the overlay packer's seeds, each a
//! result that does not depend on how many threads made it; and work run while another
//! thread watches it.

#[cfg(feature = "cli")]
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Returns `f` of each of `0..count`, in order, computed on up to `threads` threads that
/// take the next index as they come free.
pub(crate) fn each_on_threads<T: Clone + Default + Send>(
    count: usize,
    threads: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<T>> = Mutex::new(vec![T::default(); count]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(count.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let value = f(i);
                done.lock().unwrap_or_else(|e| e.into_inner())[i] = value;
            });
        }
    });
    done.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Runs `work` on this thread while `watch` runs on another, until told to end (the flag
/// it is given set, its thread unparked) as `work` returns or unwinds; returns what `work`
/// returns, or passes its panic on.
#[cfg(feature = "cli")]
pub(crate) fn while_watched<T>(
    watch: impl FnOnce(&AtomicBool) + Send,
    work: impl FnOnce() -> T,
) -> T {
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let watcher = s.spawn(|| watch(&done));
        // Ends the watcher however `work` ends: the scope waits for it before a panic of
        // `work` goes on, so a watcher left running would hang the run for good.
        let _ends = EndsWatcher {
            done: &done,
            watcher: watcher.thread().clone(),
        };
        work()
    })
}

/// Tells a watcher to end when dropped, as the work it watches returns or unwinds.
#[cfg(feature = "cli")]
struct EndsWatcher<'a> {
    done: &'a AtomicBool,
    watcher: std::thread::Thread,
}

#[cfg(feature = "cli")]
impl Drop for EndsWatcher<'_> {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Release);
        self.watcher.unpark();
    }
}
