//! A packing run: the annealer's moves until done or stopped, and the hooks through which
//! it reports progress, stops and saves checkpoints.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::anneal::Annealer;
use super::checkpoint::{PackCheckpoint, PackKey};

/// Counters of a packing run, for a progress bar.
#[derive(Debug, Default)]
pub struct PackProgress {
    /// Annealing moves made (a resumed run starts at its checkpoint's).
    pub moves: AtomicU64,
    /// Moves of the whole run: 0 until the annealing starts.
    pub total: AtomicU64,
    /// Table length of the best layout met so far.
    pub best: AtomicUsize,
}

/// How often to save a packing, and the function that saves a checkpoint.
pub type SavePack<'a> = (Duration, &'a mut dyn FnMut(&PackCheckpoint));

/// What a packing run reports and saves on the way. None of it changes the result, except
/// that `stop` ends the run early.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use magic_gen::search::{repack, PackHooks, PackProgress, PackSettings};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// // Stopped before its first move (as Ctrl-C would): the greedy layout, and a checkpoint
/// // at move 0 that resumes the run.
/// let (progress, stop) = (PackProgress::default(), AtomicBool::new(true));
/// let mut hooks = PackHooks { progress: Some(&progress), stop: Some(&stop), checkpoint: None };
/// let settings = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let stopped = repack(&set, &settings, None, &mut hooks)?;
/// assert_eq!(stopped.pack.unwrap().moves, 0);
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
}

/// Makes the annealer's moves until its run is done or `hooks.stop` is set, keeping
/// `hooks.progress` up to date and handing a checkpoint to `hooks.checkpoint` at its
/// intervals.
pub(super) fn anneal(annealer: &mut Annealer, key: &PackKey, hooks: &mut PackHooks) {
    let report = |a: &Annealer| {
        if let Some(p) = hooks.progress {
            p.moves.store(a.moves, Ordering::Relaxed);
            p.best.store(a.best_len, Ordering::Relaxed);
        }
    };
    report(annealer);
    if let Some(p) = hooks.progress {
        p.total.store(annealer.iterations, Ordering::Relaxed);
    }
    let stopped = || hooks.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut last = Instant::now();
    while !annealer.finished() && !stopped() {
        annealer.step();
        report(annealer);
        if let Some((every, save)) = &mut hooks.checkpoint {
            if last.elapsed() >= *every {
                save(&annealer.checkpoint(key));
                last = Instant::now();
            }
        }
    }
}
