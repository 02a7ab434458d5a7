//! The stages of a hunt as data, and where a stop cut one short.

use crate::search::SearchState;

/// A stage of a hunt: a [`Hunt`](super::Hunt) is a list of them, run in order by one
/// driver ([`Hunt::run`](super::Hunt::run)), each taking what the ones before it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HuntStage {
    /// Each square's candidate stream scanned (a state's jobs), going on where the state
    /// left it; the state is saved at the hooks' intervals and once it ends.
    Scan,
    /// The finds of the fixed-shift pools climbed as the limits' polish says: the density
    /// climb, the clump climb of white sets, the evolution.
    Polish,
    /// Each square's pool measured as the packer takes it: a fixed-shift state's finds, or
    /// a set's magic with those of the other sets given; a fancy or plain state's best
    /// finds laid out back to back (its set, which no packing follows).
    Pools,
    /// A set's rooks packed among themselves and its bishops laid into their holes, each
    /// square with its own magic or one of the first `blocks` blocks of its candidate
    /// stream (seeded by the packing's seed): what the packer's one-square moves cannot do,
    /// a rook that ends the table moved down past the bishops below it.
    RooksFirst {
        /// Blocks of 4,096 candidates each square draws from (0: its own magic only).
        blocks: u64,
    },
    /// Each square of a set, from the highest end down, given the magic of the first
    /// `blocks` blocks of its candidate stream (or its own) that fits lowest in the slots
    /// the others take: magics chosen for the layout's holes.
    Holes {
        /// Blocks of 4,096 candidates each square draws from.
        blocks: u64,
    },
    /// The pools packed into one table: the greedy pass, then the annealing the limits'
    /// packing settings ask for, saving its checkpoint at the hooks' intervals.
    Packing,
    /// Every occupancy of every square checked against the slow ray walk.
    Verification,
}

impl HuntStage {
    /// Returns the stage's name, as a run's report of the time each stage took spells it.
    pub fn name(self) -> &'static str {
        match self {
            HuntStage::Scan => "scan",
            HuntStage::Polish => "polish",
            HuntStage::Pools => "pools",
            HuntStage::RooksFirst { .. } => "rooks-first",
            HuntStage::Holes { .. } => "holes",
            HuntStage::Packing => "packing",
            HuntStage::Verification => "verification",
        }
    }
}

/// The first stage of a hunt a stop left unfinished, with how far it came; the stages
/// after it ran on what it had. What a stopped hunt's set header and last message say.
///
/// ```
/// use std::sync::atomic::Ordering;
/// use magic_gen::hunt::{Cut, Hooks, Hunt, Wanted};
/// use magic_gen::search::{Options, Progress, SearchState};
/// use magic_gen::Variant;
///
/// let options = Options::for_variant(Variant::Black);
/// let mut state = SearchState::new(&options)?;
/// // Stopped before it starts: no square is scanned, every one falls back.
/// let progress = Progress::default();
/// progress.stop.store(true, Ordering::Relaxed);
/// let hooks = Hooks { progress: Some(&progress), ..Hooks::default() };
/// let hunt = Hunt::search(&mut state, &options.limits, Wanted::Set);
/// let Some(Cut::Scan { open, jobs, .. }) = hunt.run(hooks)?.cut else {
///     panic!("the scan was cut");
/// };
/// assert_eq!((open, jobs), (128, 128));
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
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
    /// The rooks-first pass: the holes stage, if any, gave no square a magic.
    RooksFirst,
    /// The holes stage, after `done` of the 128 squares.
    Holes {
        /// Squares given a magic for the holes before the stop.
        done: u64,
    },
    /// The packing, after `made` of its `total` moves (0: the greedy layout).
    Packing {
        /// Moves made, over all packings.
        made: u64,
        /// Moves asked for, over all packings.
        total: u64,
    },
}

impl Cut {
    /// Returns the cut of a scan of `state` that left jobs open, if it did.
    pub(super) fn of_scan(state: &SearchState) -> Option<Cut> {
        let open = state.jobs_left();
        (open > 0).then(|| Cut::Scan {
            open,
            jobs: state.job_count(),
            budget: state.budget_used(),
        })
    }
}
