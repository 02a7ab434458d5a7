//! The searches of an overlay packing's seeds, run to their ends or the stop on threads
//! while the calling thread saves the checkpoint each last published.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;

use crate::stages::Progress;
use crate::threads::each_on_threads;

use super::anneal::Annealing;
use crate::pack::checkpoint::{PackCheckpoint, PackKey};
use crate::pack::run::SavePack;

/// Returns the latest checkpoint in each of `slots`.
fn snapshot(slots: &[Mutex<PackCheckpoint>]) -> Vec<PackCheckpoint> {
    let latest = |s: &Mutex<PackCheckpoint>| s.lock().unwrap_or_else(|e| e.into_inner()).clone();
    slots.iter().map(latest).collect()
}

/// Runs every search of `runs` (one per seed, with its packing's key) to its end or
/// `progress`'s stop on up to `threads` threads, counting its moves and best length in
/// `progress`. With `save`, each search publishes its checkpoint after every move and
/// this thread saves them all at `save`'s intervals and once more at the end. Returns the
/// searches as they ended and the checkpoint of each.
pub(super) fn run_all<'a>(
    runs: Vec<(Annealing<'a>, PackKey)>,
    threads: usize,
    progress: &Progress,
    save: &mut Option<SavePack>,
) -> (Vec<Annealing<'a>>, Vec<PackCheckpoint>) {
    let made = runs.iter().map(|(run, _)| run.made).sum();
    let total = runs.iter().map(|(run, _)| run.moves).sum();
    progress.moves.store(made, Ordering::Relaxed);
    let slots: Vec<Mutex<PackCheckpoint>> = runs
        .iter()
        .map(|(run, key)| Mutex::new(run.checkpoint(key)))
        .collect();
    let queue: Vec<Mutex<Option<(Annealing, PackKey)>>> =
        runs.into_iter().map(|r| Mutex::new(Some(r))).collect();
    let saving = save.is_some();
    let (done, ended) = mpsc::channel::<()>();
    let one = |i: usize| {
        let taken = queue[i].lock().unwrap_or_else(|e| e.into_inner()).take();
        let (mut run, key) = taken.expect("each search runs once");
        let publish = |run: &Annealing| {
            *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = run.checkpoint(&key);
        };
        // The moves are timed from here by a trial of the rate.
        progress.moves_total.store(total, Ordering::Relaxed);
        while !run.finished() && !progress.stop.load(Ordering::Relaxed) {
            run.step();
            progress.moves.fetch_add(1, Ordering::Relaxed);
            progress.best_len.fetch_min(run.best.1, Ordering::Relaxed);
            if saving {
                publish(&run);
            }
        }
        publish(&run);
        Some(run)
    };
    let count = queue.len();
    let searches = std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let searches = each_on_threads(count, threads, one);
            drop(done);
            searches
        });
        if let Some((every, save)) = save {
            // Until the worker ends (or unwinds), when the channel disconnects.
            while let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(*every) {
                save(&snapshot(&slots));
            }
        }
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    let checkpoints = snapshot(&slots);
    if let Some((_, save)) = save {
        save(&checkpoints);
    }
    let searches = searches.into_iter().map(|s| s.expect("every search ends"));
    (searches.collect(), checkpoints)
}
