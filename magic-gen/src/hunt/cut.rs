//! Where a stop cut a hunt short: the first of its stages it left unfinished, with how far
//! that stage came. What a stopped hunt's set header and last message say, and what the
//! saved state finishes.

use crate::pack::PackCheckpoint;
use crate::search::{SearchOutcome, SearchState};

/// The first stage of a hunt ([`crate::hunt::run`]) a stop left unfinished; the stages
/// after it ran on what it had.
///
/// ```
/// use std::sync::atomic::Ordering;
/// use magic_gen::hunt::{run, Hooks, HuntCut};
/// use magic_gen::search::{Options, Progress, SearchState};
/// use magic_gen::Variant;
///
/// let options = Options::for_variant(Variant::Black);
/// let mut state = SearchState::new(&options)?;
/// // Stopped before it starts: no square is scanned, every one falls back.
/// let progress = Progress::default();
/// progress.stop.store(true, Ordering::Relaxed);
/// let hooks = Hooks { progress: Some(&progress), ..Hooks::default() };
/// let outcome = run(&mut state, &[], &options.limits, true, hooks)?;
/// let Some(HuntCut::Scan { open, jobs, .. }) = HuntCut::of(&state, &outcome) else {
///     panic!("the scan was cut");
/// };
/// assert_eq!((open, jobs), (128, 128));
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HuntCut {
    /// The scan: `open` of its `jobs` squares unfinished, which fell back.
    Scan {
        /// Jobs not finished.
        open: usize,
        /// Jobs of the scan.
        jobs: usize,
        /// Candidates spent of a counted budget, and the budget, over all squares (none
        /// for a budget that is not a count).
        budget: Option<(u64, u64)>,
    },
    /// The polish, after `climbed` of its `climbs`: the other finds were packed as
    /// scanned.
    Polish {
        /// Climbs finished.
        climbed: u64,
        /// Climbs asked for.
        climbs: u64,
    },
    /// The packing, after `made` of its `total` moves (0: the greedy layout).
    Packing {
        /// Moves made, over all packings.
        made: u64,
        /// Moves asked for, over all packings.
        total: u64,
    },
}

impl HuntCut {
    /// Returns the first stage the hunt of `state`, which ended with `outcome`, left
    /// unfinished; `None` if every one finished (a stop after the last step).
    pub fn of(state: &SearchState, outcome: &SearchOutcome) -> Option<HuntCut> {
        let open = state.jobs_left();
        if open > 0 {
            return Some(HuntCut::Scan {
                open,
                jobs: state.job_count(),
                budget: state.budget_used(),
            });
        }
        HuntCut::of_finish(outcome)
    }

    /// Returns the first stage after the scan (the polish, then the packing) that the
    /// finish ending with `outcome` left unfinished, as of a merge ([`crate::hunt::finish`]);
    /// `None` if both finished.
    pub fn of_finish(outcome: &SearchOutcome) -> Option<HuntCut> {
        let (climbed, climbs) = outcome.polish;
        let (made, total) = PackCheckpoint::moves_of(&outcome.pack);
        if climbed < climbs {
            Some(HuntCut::Polish { climbed, climbs })
        } else if made < total {
            Some(HuntCut::Packing { made, total })
        } else {
            None
        }
    }
}
