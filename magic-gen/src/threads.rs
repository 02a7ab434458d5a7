//! Work spread over threads: the polish's jobs and the overlay packer's seeds, each a
//! result that does not depend on how many threads made it.

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
