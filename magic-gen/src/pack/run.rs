//! One packing's annealing run: the annealer's moves until done or stopped, and the hooks
//! through which a run reports progress, stops and saves checkpoints.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::anneal::Annealer;
use super::checkpoint::{PackCheckpoint, PackKey};
use super::pair::with_helper;
use crate::stages::Progress;

/// How often to save a packing, and the function that saves a checkpoint: one
/// [`PackCheckpoint`] per packing, in seed order.
pub(crate) type SavePack<'a> = (Duration, &'a mut dyn FnMut(&[PackCheckpoint]));

/// What a packing run reports and saves on the way. None of it changes the result, except
/// that the progress's stop flag ends the run early.
#[derive(Default)]
pub(crate) struct PackHooks<'a> {
    /// The stages and the packing's counters to keep up to date, and the stop flag: once
    /// set, the run stops after the current move, the best layout met so far is the result,
    /// and the checkpoint returned with it resumes the run.
    pub progress: Option<&'a Progress>,
    /// How often to save, and the function that saves a checkpoint.
    pub checkpoint: Option<SavePack<'a>>,
    /// Threads to run the packings on (0 counts as 1: the calling thread): one per
    /// packing, or two where there are at least two per packing (a helper tries the next
    /// move ahead, see `pair.rs`). Never changes the result.
    pub threads: usize,
}

/// The threads a packing makes its moves on. Never changes the result.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum MoveThreads {
    /// One move at a time on the packing's own thread.
    One,
    /// Two at a time: a helper thread tries the next move ahead (the same moves, see
    /// `pair.rs`).
    Two,
}

/// Where a packing's checkpoints go while it runs: how often, and the function given each.
pub(super) type Publish<'p> = (Duration, &'p mut dyn FnMut(PackCheckpoint));

/// Makes the annealer's moves on `threads` until its run is done or `progress`'s stop flag
/// is set, adding each move to `progress` and handing a checkpoint to `publish` at its
/// intervals and once more at the end (a packing shorter than an interval would otherwise
/// be saved at move 0, and a resume would make its moves again).
pub(super) fn anneal(
    annealer: &mut Annealer,
    key: &PackKey,
    progress: Option<&Progress>,
    publish: Option<Publish>,
    threads: MoveThreads,
) {
    if threads == MoveThreads::Two && !annealer.finished() {
        with_helper(annealer, |annealer, helper| {
            moves(annealer, key, progress, publish, |a| helper.step_two(a));
        });
    } else {
        moves(annealer, key, progress, publish, |a| {
            a.step();
            1
        });
    }
}

/// Makes moves with `step` (which returns how many it made) as [`anneal`] says.
fn moves(
    annealer: &mut Annealer,
    key: &PackKey,
    progress: Option<&Progress>,
    mut publish: Option<Publish>,
    mut step: impl FnMut(&mut Annealer) -> u64,
) {
    let stopped = || progress.is_some_and(|p| p.stop.load(Ordering::Relaxed));
    let mut last = Instant::now();
    while !annealer.finished() && !stopped() {
        let made = step(annealer);
        if let Some(p) = progress {
            p.moves.fetch_add(made, Ordering::Relaxed);
            p.best_len.fetch_min(annealer.best_len, Ordering::Relaxed);
        }
        if let Some((every, publish)) = &mut publish {
            if last.elapsed() >= *every {
                publish(annealer.checkpoint(key));
                last = Instant::now();
            }
        }
    }
    if let Some((_, publish)) = &mut publish {
        publish(annealer.checkpoint(key));
    }
}
