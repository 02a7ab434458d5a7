//! Where a stop cut a hunt short, and the file the hunt keeps to go on from there.

use crate::search::SearchState;
use crate::stages::Stage;

/// The first stage of a hunt a stop left unfinished, with how far it came; the stages
/// after it ran on what it had. What a stopped hunt's set header and last message say.
///
/// ```
/// use std::sync::atomic::Ordering;
/// use magic_gen::hunt::{Hooks, Hunt, Stage, Wanted};
/// use magic_gen::hunt::Progress;
/// use magic_gen::search::{Options, SearchState};
/// use magic_gen::Variant;
///
/// let options = Options::for_variant(Variant::Black);
/// let mut state = SearchState::new(&options)?;
/// // Stopped before it starts: no square is scanned, every one falls back.
/// let progress = Progress::default();
/// progress.stop.store(true, Ordering::Relaxed);
/// let hooks = Hooks { progress: Some(&progress), ..Hooks::default() };
/// let hunt = Hunt::search(&mut state, &options.limits, Wanted::Set);
/// let cut = hunt.run(hooks)?.cut;
/// let cut = cut.map(|cut| (cut.stage, cut.made, cut.total));
/// assert_eq!(cut, Some((Stage::Scan, 0, 128)));
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The stage cut.
    pub stage: Stage,
    /// Steps it finished: the scan's jobs (the others fell back, its budget spent is its
    /// state's [`SearchState::budget_used`]), the polish's climbs (the other finds were
    /// packed as scanned), the squares the holes stage gave a magic (none for the
    /// rooks-first pass: the holes stage, if any, gave none), the packing's moves over all
    /// packings (0: the greedy layout).
    pub made: u64,
    /// Steps it was to take, counted as [`Cut::made`] is (0 for the rooks-first pass).
    pub total: u64,
}

impl Cut {
    /// Returns the cut of a scan of `state` that left jobs open, if it did.
    pub(super) fn of_scan(state: &SearchState) -> Option<Cut> {
        let (open, jobs) = (state.jobs_left(), state.job_count());
        (open > 0).then(|| Cut {
            stage: Stage::Scan,
            made: (jobs - open) as u64,
            total: jobs as u64,
        })
    }

    /// Returns `made` of `total` steps of `stage` if that is short of every step.
    pub(super) fn short(stage: Stage, made: u64, total: u64) -> Option<Cut> {
        (made < total).then_some(Cut { stage, made, total })
    }
}

/// The file a hunt keeps to go on from after a stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeps {
    /// A search's state: the scan, and the packing's checkpoint once it packs. A run cut
    /// in any stage goes on from it.
    State,
    /// A set's packing checkpoint. Only the exact packing goes on from it: a stage before
    /// it changes magics, which a rerun chooses anew.
    Checkpoint,
}

impl Keeps {
    /// Returns the name of the file.
    pub fn name(self) -> &'static str {
        match self {
            Keeps::State => "state",
            Keeps::Checkpoint => "checkpoint",
        }
    }

    /// Returns true if a run cut in `stage` goes on from this file.
    pub(super) fn resumes(self, stage: Stage) -> bool {
        match self {
            Keeps::State => true,
            Keeps::Checkpoint => stage == Stage::Packing,
        }
    }
}
