//! A hunt's run from its state to a verified set, stage by stage (scan, polish, pools,
//! packing, verification), with the rules that make a stopped, resumed or sharded hunt end
//! as one uninterrupted run does. `magic-gen search` is this run with a progress display
//! and files around it.

use std::time::{Duration, Instant};

use crate::pack::{PackCheckpoint, PackHooks, PackProgress};
use crate::search::state::Shard;
use crate::search::{self, Error, Limits, Progress, SearchOutcome, SearchState, Stage, Stages};

/// Saves a hunt's state with the packer's checkpoint (empty: none); an error stops nothing,
/// and the first one is returned at the end.
type Save<'a> = &'a mut dyn FnMut(&SearchState, &[PackCheckpoint]) -> Result<(), String>;

/// What a hunt reports to and asks of its caller while it runs.
///
/// ```
/// use magic_gen::hunt::Hooks;
///
/// // Nothing reported, nothing saved, one thread: what a test or a script needs.
/// let hooks = Hooks::default();
/// assert!(hooks.save.is_none());
/// ```
#[derive(Default)]
pub struct Hooks<'a> {
    /// The scan's counters, and the stop flag every stage looks at.
    pub progress: Option<&'a Progress>,
    /// The packer's counters.
    pub pack_progress: Option<&'a PackProgress>,
    /// Where each stage is recorded as it begins.
    pub stages: Option<&'a Stages>,
    /// How often to save the state, and the function that saves it.
    pub save: Option<(Duration, Save<'a>)>,
}

/// A hunt's run: the verified set and what to save with the state.
///
/// ```
/// use magic_gen::hunt::{run, Hooks};
/// use magic_gen::search::state::{Budget, Shard};
/// use magic_gen::search::{Options, SearchState};
/// use magic_gen::Variant;
///
/// // Shard 0 of 2 of a small black hunt, run for a merge: its pools packed greedily.
/// let mut options = Options::for_variant(Variant::Black);
/// options.scan.budget = Budget::Candidates(256);
/// options.scan.shard = Shard { index: 0, count: 2 };
/// let mut state = SearchState::new(&options)?;
/// let hunted = run(&mut state, &[], &options.limits, false, Hooks::default())?;
/// assert!(hunted.greedy && hunted.saved_pack.is_empty());
/// assert!(magic_gen::verify(&hunted.outcome.set).is_ok());
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
#[derive(Debug)]
pub struct Hunted {
    /// The set, verified, and the time of each stage, the scan's first.
    pub outcome: SearchOutcome,
    /// The packer's checkpoint saved with the state: where a stopped packing stopped, so
    /// that a resume goes on from there; empty if it finished or never began.
    pub saved_pack: Vec<PackCheckpoint>,
    /// Whether this run packed greedily: a shard that writes no set of its own, whose
    /// hunt's set is the merge of every shard's state.
    pub greedy: bool,
}

/// Runs the hunt of `state` within `limits`: the scan (resumed where the state left it),
/// then the polish, pools, packing and verification of [`crate::hunt::finish`]. The rules that
/// make a stopped and resumed hunt end as one run does: `saved_pack` (saved with the state)
/// resumes the packing unless the scan moved on, which makes it void; the state is saved
/// at `hooks.save`'s intervals, before packing and at the end. A shard that writes no set
/// of its own (`own_set` false) packs greedily: its hunt's set comes from the merge.
///
/// ```
/// use magic_gen::hunt::{run, Hooks};
/// use magic_gen::search::{Options, SearchState};
/// use magic_gen::Variant;
///
/// let options = Options::for_variant(Variant::Plain);
/// let mut state = SearchState::new(&options)?;
/// let hunted = run(&mut state, &[], &options.limits, true, Hooks::default())?;
/// assert_eq!(hunted.outcome.stages[0].0, "scan");
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
pub fn run(
    state: &mut SearchState,
    saved_pack: &[PackCheckpoint],
    limits: &Limits,
    own_set: bool,
    hooks: Hooks,
) -> Result<Hunted, Error> {
    let Hooks {
        progress,
        pack_progress,
        stages,
        mut save,
    } = hooks;
    let fallback = Progress::default();
    let progress = progress.unwrap_or(&fallback);
    let greedy = state.scan.shard != Shard::WHOLE && !own_set;
    let mut finish_limits = *limits;
    if greedy {
        finish_limits.polish = Default::default();
        finish_limits.pack.iterations = 0;
        finish_limits.pack.seeds = 1;
    }
    let every = save.as_ref().map(|(every, _)| *every);
    let mut save_error = None;
    let mut save_now = |state: &SearchState, pack: &[PackCheckpoint]| {
        if let Some((_, save)) = save.as_mut() {
            if let Err(e) = save(state, pack) {
                save_error.get_or_insert(e);
            }
        }
    };
    let scanned_from = state.jobs.clone();
    let scan_start = Instant::now();
    if let Some(stages) = stages {
        stages.begin(Stage::Scan, 0);
    }
    {
        let mut save_scan = |st: &SearchState| save_now(st, &[]);
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
    save_now(state, resume);
    let result = {
        let state = &*state;
        let mut save_pack = |c: &[PackCheckpoint]| save_now(state, c);
        let mut pack_hooks = PackHooks {
            progress: pack_progress,
            stop: Some(&progress.stop),
            checkpoint: every
                .map(|every| (every, &mut save_pack as &mut dyn FnMut(&[PackCheckpoint]))),
            stages,
            threads: limits.threads,
        };
        search::finish(state, &finish_limits, resume, &mut pack_hooks)
    };
    let mut outcome = result?;
    outcome.stages.insert(0, ("scan", scan_time));
    // A stopped packing is saved where it stopped, for a resume to go on; a finished one
    // leaves the state as the scan left it, and so does one stopped before its first move
    // (a stop during the scan), whose checkpoint is where a fresh packing starts.
    let (made, total) = PackCheckpoint::moves_of(&outcome.pack);
    let saved_pack = if made > 0 && made < total {
        outcome.pack.clone()
    } else {
        Vec::new()
    };
    save_now(state, &saved_pack);
    if let Some(e) = save_error {
        return Err(Error::Search(e));
    }
    Ok(Hunted {
        outcome,
        saved_pack,
        greedy,
    })
}
