//! The hooks through which a running hunt reports, saves and stops ([`Hooks`]), and the
//! rule for its saves: the first that fails stops the run and none is tried after it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::pack::{PackCheckpoint, PackHooks};
use crate::search::SearchState;
use crate::stages::Progress;

/// Saves a hunt's state (none for a repack, which has none) with the packer's checkpoint
/// (empty: none). The first error stops the run as a stop signal does, and is kept in
/// [`Outcome::save_failed`](super::Outcome::save_failed).
type Save<'a> = &'a mut dyn FnMut(Option<&SearchState>, &[PackCheckpoint]) -> Result<(), String>;

/// What a hunt reports to and asks of its caller while it runs
/// ([`Hunt::run`](super::Hunt::run)).
///
/// ```
/// use std::sync::atomic::Ordering;
/// use std::time::Duration;
/// use magic_gen::hunt::{Hooks, Hunt};
/// use magic_gen::pack::{PackCheckpoint, PackSettings};
/// use magic_gen::hunt::Progress;
/// use magic_gen::search::Limits;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// let report = magic_gen::verify(&set).unwrap().report;
/// let pack = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let limits = Limits { pack, ..Limits::default() };
/// // Stopped before its first move (as Ctrl-C would), saving as often as it can: the
/// // greedy layout, and a checkpoint at move 0 that resumes the run.
/// let progress = Progress::default();
/// progress.stop.store(true, Ordering::Relaxed);
/// let mut saved = Vec::new();
/// let mut save = |_: Option<&_>, c: &[PackCheckpoint]| Ok(saved.push(c[0].moves));
/// let hooks = Hooks { progress: Some(&progress), save: Some((Duration::ZERO, &mut save)) };
/// let stopped = Hunt::repack(&set, &report, &limits).run(hooks)?;
/// assert_eq!((stopped.pack[0].moves, saved.last()), (0, Some(&0)));
/// assert_eq!(progress.best_len.load(Ordering::Relaxed), stopped.packed_len);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct Hooks<'a> {
    /// The stage running and the scan's and packing's counters, for a display; and the
    /// stop flag every stage looks at.
    pub progress: Option<&'a Progress>,
    /// How often to save, and the function that saves the state and the packer's
    /// checkpoint. The first save that fails sets the stop flag, so every stage ends with
    /// what it has as after Ctrl-C (a run that cannot keep its saves should not go on for
    /// hours without them); no save is tried after it, and its error is in the outcome's
    /// [`Outcome::save_failed`](super::Outcome::save_failed), beside the verified set the
    /// run stopped with.
    pub save: Option<(Duration, Save<'a>)>,
}

/// The caller's save function at its interval, the stop flag of the run it saves, and the
/// first error it returned.
pub(super) struct Saves<'a, 's> {
    save: Option<(Duration, Save<'a>)>,
    stop: &'s AtomicBool,
    error: Option<String>,
}

impl<'a, 's> Saves<'a, 's> {
    /// Returns the saves of `save` for the run stopped by `stop`, none failed yet.
    pub(super) fn new(save: Option<(Duration, Save<'a>)>, stop: &'s AtomicBool) -> Saves<'a, 's> {
        Saves {
            save,
            stop,
            error: None,
        }
    }

    /// Returns how often to save, `None` if nothing is saved.
    pub(super) fn every(&self) -> Option<Duration> {
        self.save.as_ref().map(|(every, _)| *every)
    }

    /// Saves `state` with `pack`, unless a save failed before; a failure is kept and stops
    /// the run.
    pub(super) fn now(&mut self, state: Option<&SearchState>, pack: &[PackCheckpoint]) {
        let Some((_, save)) = self.save.as_mut() else {
            return;
        };
        if self.error.is_some() {
            return;
        }
        if let Err(e) = save(state, pack) {
            self.error = Some(e);
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Returns the first error a save returned, if one did.
    pub(super) fn error(self) -> Option<String> {
        self.error
    }
}

/// Returns what the packer of a hunt on `threads` threads is given: `progress`, and `save`
/// at `every` if there is one.
pub(super) fn pack_hooks<'a>(
    progress: Option<&'a Progress>,
    every: Option<Duration>,
    save: &'a mut dyn FnMut(&[PackCheckpoint]),
    threads: usize,
) -> PackHooks<'a> {
    PackHooks {
        progress,
        checkpoint: every.map(|every| (every, save)),
        threads,
    }
}
