//! One packing's annealing run: the annealer's moves until done or stopped, and the hooks
//! through which a run reports progress, stops and saves checkpoints.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::anneal::Annealer;
use super::checkpoint::{PackCheckpoint, PackKey};
use super::pair::with_helper;
use crate::stages::Stages;

/// Counters of a packing run, for a progress bar: summed over its packings
/// ([`PackSettings::seeds`](super::PackSettings::seeds)).
#[derive(Debug, Default)]
pub struct PackProgress {
    /// Annealing moves made (a resumed run starts at its checkpoint's).
    pub moves: AtomicU64,
    /// Moves of the whole run: 0 until the annealing starts.
    pub total: AtomicU64,
    /// Table length of the best layout met so far.
    pub best: AtomicUsize,
}

/// How often to save a packing, and the function that saves a checkpoint: one
/// [`PackCheckpoint`] per packing, in seed order.
pub type SavePack<'a> = (Duration, &'a mut dyn FnMut(&[PackCheckpoint]));

/// What a packing run reports and saves on the way. None of it changes the result, except
/// that `stop` ends the run early.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use magic_gen::pack::{PackHooks, PackProgress, PackSettings};
/// use magic_gen::hunt::repack;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// // Stopped before its first move (as Ctrl-C would): the greedy layout, and a checkpoint
/// // at move 0 that resumes the run.
/// let (progress, stop) = (PackProgress::default(), AtomicBool::new(true));
/// let mut hooks = PackHooks { progress: Some(&progress), stop: Some(&stop), ..PackHooks::default() };
/// let settings = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let stopped = repack(&set, &settings, &[], &mut hooks)?;
/// assert_eq!(stopped.pack[0].moves, 0);
/// assert_eq!(progress.best.load(Ordering::Relaxed), stopped.report.table_len);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct PackHooks<'a> {
    /// Counters to keep up to date.
    pub progress: Option<&'a PackProgress>,
    /// Set to stop after the current move: the best layout met so far is the result, and
    /// the checkpoint returned with it resumes the run.
    pub stop: Option<&'a AtomicBool>,
    /// How often to save, and the function that saves a checkpoint.
    pub checkpoint: Option<SavePack<'a>>,
    /// Where the stages of a search's finish (polish, pools, packing, verification) are
    /// recorded as they begin, for a progress display.
    pub stages: Option<&'a Stages>,
    /// Threads to run the packings on (0 counts as 1: the calling thread): one per
    /// packing, or two where there are at least two per packing (a helper tries the next
    /// move ahead, see `pair.rs`). Never changes the result.
    pub threads: usize,
}

/// Where a packing's checkpoints go while it runs: how often, and the function given each.
pub(super) type Publish<'p> = (Duration, &'p mut dyn FnMut(PackCheckpoint));

/// Makes the annealer's moves until its run is done or `stop` is set, adding each move to
/// `progress` and handing a checkpoint to `publish` at its intervals and once more at the
/// end (a packing shorter than an interval would otherwise be saved at move 0, and a
/// resume would make its moves again): two at a time with a helper thread if `pair` (the
/// same moves, see `pair.rs`).
pub(super) fn anneal(
    annealer: &mut Annealer,
    key: &PackKey,
    (stop, progress): (Option<&AtomicBool>, Option<&PackProgress>),
    publish: Option<Publish>,
    pair: bool,
) {
    let watch = (stop, progress);
    if pair && !annealer.finished() {
        with_helper(annealer, |annealer, helper| {
            moves(annealer, key, watch, publish, |a| helper.step_two(a));
        });
    } else {
        moves(annealer, key, watch, publish, |a| {
            a.step();
            1
        });
    }
}

/// Makes moves with `step` (which returns how many it made) as [`anneal`] says.
fn moves(
    annealer: &mut Annealer,
    key: &PackKey,
    (stop, progress): (Option<&AtomicBool>, Option<&PackProgress>),
    mut publish: Option<Publish>,
    mut step: impl FnMut(&mut Annealer) -> u64,
) {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut last = Instant::now();
    while !annealer.finished() && !stopped() {
        let made = step(annealer);
        if let Some(p) = progress {
            p.moves.fetch_add(made, Ordering::Relaxed);
            p.best.fetch_min(annealer.best_len, Ordering::Relaxed);
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
