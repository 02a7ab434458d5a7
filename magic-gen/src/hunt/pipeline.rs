//! A hunt's run from its state to a verified set, stage by stage (scan, polish, pools,
//! packing, verification), with the rules that make a stopped, resumed or sharded hunt end
//! as one uninterrupted run does; the finish of a state scanned elsewhere and the repack of
//! a set, its last stages alone; and the hooks through which the three (and a repack's
//! stages, in `repack.rs`) report, save and stop. `magic-gen search` and `merge` are these
//! with a progress display and files around them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::pack::{PackCheckpoint, PackHooks};
use crate::search::finish as finishing;
use crate::search::state::Shard;
use crate::search::{self, Error, Limits, Progress, SearchOutcome, SearchState, Stage};
use crate::set::MagicSet;

/// Saves a hunt's state (none for a repack, which has none) with the packer's checkpoint
/// (empty: none). The first error stops the run as a stop signal does, and is kept in
/// [`SearchOutcome::save_failed`].
type Save<'a> = &'a mut dyn FnMut(Option<&SearchState>, &[PackCheckpoint]) -> Result<(), String>;

/// What a hunt reports to and asks of its caller while it runs: [`run`], [`finish`] and
/// [`repack`] take it.
///
/// ```
/// use std::sync::atomic::Ordering;
/// use std::time::Duration;
/// use magic_gen::hunt::{repack, Hooks};
/// use magic_gen::pack::{PackCheckpoint, PackSettings};
/// use magic_gen::search::{Limits, Progress};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// let pack = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let limits = Limits { pack, ..Limits::default() };
/// // Stopped before its first move (as Ctrl-C would), saving as often as it can: the
/// // greedy layout, and a checkpoint at move 0 that resumes the run.
/// let progress = Progress::default();
/// progress.stop.store(true, Ordering::Relaxed);
/// let mut saved = Vec::new();
/// let mut save = |_: Option<&_>, c: &[PackCheckpoint]| Ok(saved.push(c[0].moves));
/// let hooks = Hooks { progress: Some(&progress), save: Some((Duration::ZERO, &mut save)) };
/// let stopped = repack(&set, &limits, &[], hooks)?;
/// assert_eq!((stopped.pack[0].moves, saved.last()), (0, Some(&0)));
/// assert_eq!(progress.best_len.load(Ordering::Relaxed), stopped.report.table_len);
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
    /// [`SearchOutcome::save_failed`], beside the verified set the run stopped with.
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

    /// Saves `state` with `pack`, unless a save failed before; a failure stops the run.
    pub(super) fn now(&mut self, state: Option<&SearchState>, pack: &[PackCheckpoint]) {
        if self.last(state, pack) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Saves `state` with `pack` once the run has ended, unless a save failed before;
    /// returns whether this one failed (its error kept, the stop flag left alone: there is
    /// nothing left to stop).
    pub(super) fn last(&mut self, state: Option<&SearchState>, pack: &[PackCheckpoint]) -> bool {
        let Some((_, save)) = self.save.as_mut() else {
            return false;
        };
        if self.error.is_some() {
            return false;
        }
        let result = save(state, pack);
        self.error = result.err();
        self.error.is_some()
    }

    /// Returns `outcome` with the first error a save returned, if one did.
    pub(super) fn kept_in(self, mut outcome: SearchOutcome) -> SearchOutcome {
        outcome.save_failed = self.error;
        outcome
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

/// Returns what `pack` returns, given the packer's hooks: `hooks`'s progress, its save
/// with `state` (none for a repack) for the checkpoints, and `threads`; with the first
/// error a save returned, which stopped it.
fn packing(
    hooks: Hooks,
    threads: usize,
    state: Option<&SearchState>,
    pack: impl FnOnce(&mut PackHooks) -> Result<SearchOutcome, Error>,
) -> Result<SearchOutcome, Error> {
    let fallback = Progress::default();
    let progress = hooks.progress.unwrap_or(&fallback);
    let mut saves = Saves::new(hooks.save, &progress.stop);
    let every = saves.every();
    let outcome = {
        let mut save_pack = |c: &[PackCheckpoint]| saves.now(state, c);
        pack(&mut pack_hooks(
            Some(progress),
            every,
            &mut save_pack,
            threads,
        ))?
    };
    Ok(saves.kept_in(outcome))
}

/// Runs the hunt of `state` within `limits`: the scan (resumed where the state left it),
/// then the polish, pools, packing and verification of [`finish`]. The rules that make a
/// stopped and resumed hunt end as one run does: `saved_pack` (saved with the state)
/// resumes the packing unless the scan moved on, which makes it void; the state is saved
/// at `hooks.save`'s intervals, before packing and at the end, with
/// [`SearchOutcome::pack_to_save`]. A shard that writes no set of its own (`own_set` false)
/// packs greedily ([`SearchOutcome::greedy`]): its hunt's set comes from the merge.
///
/// ```
/// use magic_gen::hunt::{run, Hooks};
/// use magic_gen::search::state::{Budget, Shard};
/// use magic_gen::search::{Options, SearchState};
/// use magic_gen::Variant;
///
/// let options = Options::for_variant(Variant::Plain);
/// let mut state = SearchState::new(&options)?;
/// let outcome = run(&mut state, &[], &options.limits, true, Hooks::default())?;
/// assert_eq!(outcome.stages[0].0, "scan");
///
/// // Shard 0 of 2 of a small black hunt, run for a merge: its pools packed greedily.
/// let mut options = Options::for_variant(Variant::Black);
/// options.scan.budget = Budget::Candidates(256);
/// options.scan.shard = Shard { index: 0, count: 2 };
/// let mut state = SearchState::new(&options)?;
/// let outcome = run(&mut state, &[], &options.limits, false, Hooks::default())?;
/// assert!(outcome.greedy && outcome.pack_to_save().is_empty());
/// assert!(magic_gen::verify(&outcome.set).is_ok());
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
pub fn run(
    state: &mut SearchState,
    saved_pack: &[PackCheckpoint],
    limits: &Limits,
    own_set: bool,
    hooks: Hooks,
) -> Result<SearchOutcome, Error> {
    let fallback = Progress::default();
    let progress = hooks.progress.unwrap_or(&fallback);
    let mut saves = Saves::new(hooks.save, &progress.stop);
    let every = saves.every();
    let greedy = state.scan.shard != Shard::WHOLE && !own_set;
    let mut finish_limits = *limits;
    if greedy {
        finish_limits.polish = Default::default();
        finish_limits.pack.iterations = 0;
        finish_limits.pack.seeds = 1;
    }
    let scanned_from = state.jobs.clone();
    let scan_start = Instant::now();
    progress.begin(Stage::Scan, 0);
    {
        let mut save_scan = |st: &SearchState| saves.now(Some(st), &[]);
        let checkpoint = every.map(|every| (every, &mut save_scan as &mut dyn FnMut(&SearchState)));
        search::run(state, limits, progress, checkpoint);
    }
    let scan_time = scan_start.elapsed();
    // A scan that moved on packs other pools: the saved packing is void.
    let resume = if state.jobs == scanned_from {
        saved_pack
    } else {
        &[]
    };
    // Saved before packing, which may take long.
    saves.now(Some(state), resume);
    let result = {
        let state = &*state;
        let mut save_pack = |c: &[PackCheckpoint]| saves.now(Some(state), c);
        let mut hooks = pack_hooks(Some(progress), every, &mut save_pack, limits.threads);
        finishing::finish(state, &finish_limits, resume, &mut hooks)
    };
    let mut outcome = result?;
    outcome.stages.insert(0, ("scan", scan_time));
    outcome.greedy = greedy;
    saves.now(Some(state), outcome.pack_to_save());
    Ok(saves.kept_in(outcome))
}

/// Turns a scan state into a verified set: each job's best find (fancy, plain; jobs
/// without one fall back to default bits, listed as unmet) or the packed pools (fixed
/// shift), polished and packed as `limits` say, on `limits.threads` threads. The packer
/// goes on from `resume` (a checkpoint of the same packing, saved with the state) unless
/// it is empty, and reports and saves through `hooks`. Once the progress's stop flag is
/// set every stage ends in at most milliseconds with what it has: the polish leaves the
/// finds not yet climbed as scanned, the packing keeps its best layout; the set is verified
/// all the same.
///
/// What `magic-gen merge` runs on the merged state of a hunt's shards (the scan is
/// theirs); [`run`] runs it after its scan.
///
/// ```
/// use magic_gen::hunt::{finish, Hooks};
/// use magic_gen::search::{Limits, Options, SearchState};
/// use magic_gen::Variant;
///
/// // Not scanned: every square falls back to the first magic of its stream.
/// let state = SearchState::new(&Options::for_variant(Variant::Plain))?;
/// let outcome = finish(&state, &Limits::default(), &[], Hooks::default())?;
/// assert!(magic_gen::verify(&outcome.set).is_ok());
/// assert!(outcome.pack.is_empty());
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
pub fn finish(
    state: &SearchState,
    limits: &Limits,
    resume: &[PackCheckpoint],
    hooks: Hooks,
) -> Result<SearchOutcome, Error> {
    packing(hooks, limits.threads, Some(state), |hooks| {
        finishing::finish(state, limits, resume, hooks)
    })
}

/// Returns `set` (black or white, already verified) packed again: its own magics and bits,
/// one per square, laid out by the greedy pass and the annealing `limits.pack` asks for on
/// `limits.threads` threads (a set's magics are its own: the scan's seconds and the polish
/// do nothing here), going on from `resume` (a checkpoint of the same packing) unless it is
/// empty, reporting and saving the checkpoint through `hooks` (a repack has no state: its
/// save is given `None`). The way to bring a published set, or one packed by an older
/// version, to this packer; [`Repack`](super::Repack) runs it with other stages before
/// it and other sets' magics.
///
/// ```
/// use magic_gen::hunt::{repack, Hooks};
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::Limits;
///
/// // The published black magics (Annuss and Fiekas), packed again by this packer.
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// let greedy = repack(&set, &Limits::default(), &[], Hooks::default())?;
/// let pack = PackSettings { iterations: 2000, ..PackSettings::default() };
/// let annealed = repack(&set, &Limits { pack, ..Limits::default() }, &[], Hooks::default())?;
/// assert!(annealed.report.table_len < greedy.report.table_len);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn repack(
    set: &MagicSet,
    limits: &Limits,
    resume: &[PackCheckpoint],
    hooks: Hooks,
) -> Result<SearchOutcome, Error> {
    packing(hooks, limits.threads, None, |hooks| {
        finishing::repack(set, &[], &limits.pack, resume, hooks)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::PackSettings;

    /// The published black set, which every test here repacks.
    fn published_black() -> MagicSet {
        crate::pack::test_support::published_set("published-black-87988.txt")
    }

    #[test]
    fn the_first_failed_save_stops_the_run_and_is_kept_in_its_outcome() {
        // Moves that would take hours: only the failed save ends the run this soon.
        let pack = PackSettings {
            iterations: 1_000_000_000,
            ..PackSettings::default()
        };
        let limits = Limits {
            pack,
            ..Limits::default()
        };
        let progress = Progress::default();
        let mut tries = 0;
        let mut save = |_: Option<&SearchState>, _: &[PackCheckpoint]| {
            tries += 1;
            Err(format!("save {tries} failed"))
        };
        let hooks = Hooks {
            progress: Some(&progress),
            save: Some((Duration::ZERO, &mut save)),
        };
        let outcome = repack(&published_black(), &limits, &[], hooks).unwrap();
        assert_eq!(outcome.save_failed.as_deref(), Some("save 1 failed"));
        assert!(progress.stop.load(Ordering::SeqCst));
        assert_eq!(tries, 1, "a save was tried again after one failed");
        assert!(crate::verify(&outcome.set).is_ok());
        let (made, total) = PackCheckpoint::moves_of(&outcome.pack);
        assert!(made < total);
    }

    #[test]
    fn saves_that_succeed_leave_the_run_alone() {
        let pack = PackSettings {
            iterations: 2000,
            ..PackSettings::default()
        };
        let limits = Limits {
            pack,
            ..Limits::default()
        };
        let mut saves = 0;
        let mut save = |_: Option<&SearchState>, _: &[PackCheckpoint]| {
            saves += 1;
            Ok(())
        };
        let progress = Progress::default();
        let hooks = Hooks {
            progress: Some(&progress),
            save: Some((Duration::ZERO, &mut save)),
        };
        let outcome = repack(&published_black(), &limits, &[], hooks).unwrap();
        assert_eq!(outcome.save_failed, None);
        assert!(!progress.stop.load(Ordering::SeqCst));
        assert!(saves > 1);
        assert_eq!(PackCheckpoint::moves_of(&outcome.pack), (2000, 2000));
    }
}
