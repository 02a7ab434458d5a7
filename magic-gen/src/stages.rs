//! The stages that make a set, and a hunt's progress: which stage is running and how far it
//! has come, with the scan's and the packing's counters and the stop flag. The search and
//! the packer update it, a watcher reads it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// A stage of a hunt, in the order a run goes through them: what its progress says is
/// running, what a [`Hunt`](crate::hunt::Hunt) lists and its driver runs (each taking what
/// the ones before it made), and where a stop cut it (an outcome's `cut`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Each square's candidate stream scanned (a state's jobs), going on where the state
    /// left it; the state is saved at the hooks' intervals and once it ends.
    Scan,
    /// The finds of the fixed-shift pools climbed as the limits' polish says: the density
    /// climb, the clump climb of white sets, the evolution.
    Polish,
    /// Each square's pool measured as the packer takes it (its used slots): a fixed-shift
    /// state's finds, or a set's magic with those of the other sets given; a fancy or plain
    /// state's best finds laid out back to back (its set, which no packing follows).
    Pools,
    /// A set's rooks packed among themselves and its bishops laid into their holes, each
    /// square with its own magic or one of the first `blocks` blocks of its candidate
    /// stream (seeded by the packing's seed): what the packer's one-square moves cannot do,
    /// a rook that ends the table moved down past the bishops below it. Its progress shows
    /// the stage before it.
    RooksFirst {
        /// Blocks of 4,096 candidates each square draws from (0: its own magic only).
        blocks: u64,
    },
    /// Each square of a set, from the highest end down, given the magic of the first
    /// `blocks` blocks of its candidate stream (or its own) that fits lowest in the slots
    /// the others take: magics chosen for a packed layout's holes (`pack --holes`).
    Holes {
        /// Blocks of 4,096 candidates each square draws from.
        blocks: u64,
    },
    /// The pools packed into one table: the greedy pass, then the annealing the limits'
    /// packing settings ask for, saving its checkpoint at the hooks' intervals.
    Packing,
    /// Every occupancy of every square checked against the slow ray walk.
    Verification,
    /// Writing the set file: no hunt's, a program that writes the set begins it itself.
    Writing,
}

impl Stage {
    /// Returns the stage's name as progress lines, `MAGIC_GEN_HOLD_AT` and a run's report
    /// of the time each stage took spell it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Scan => "scan",
            Stage::Polish => "polish",
            Stage::Pools => "pools",
            Stage::RooksFirst { .. } => "rooks-first",
            Stage::Holes { .. } => "holes",
            Stage::Packing => "packing",
            Stage::Verification => "verification",
            Stage::Writing => "writing",
        }
    }

    /// Returns true for a stage that changes a set's magics: a stop in it leaves no
    /// packing checkpoint (a rerun's packing would start from other magics).
    pub fn changes_magics(self) -> bool {
        matches!(self, Stage::RooksFirst { .. } | Stage::Holes { .. })
    }
}

/// Called as a stage begins, with the stage and the steps it will take (0 if it does not
/// count them), on the thread that runs it.
type OnBegin = Box<dyn Fn(Stage, u64) + Send + Sync>;

/// What a hunt reports as it runs, for a progress display on another thread, and the flag
/// that stops it: the stage running and its steps (climbs of the polish, pools measured),
/// the scan's counters and the packing's. Every stage looks at [`Progress::stop`]: once it
/// is set, each ends in at most milliseconds with what it has.
///
/// ```
/// use std::sync::atomic::Ordering;
/// use magic_gen::hunt::{Hooks, Hunt, Wanted};
/// use magic_gen::hunt::{Progress, Stage};
/// use magic_gen::search::{Options, SearchState};
/// use magic_gen::Variant;
///
/// let progress = Progress::default();
/// assert_eq!(progress.stage(), None);
/// let options = Options::for_variant(Variant::Plain);
/// let mut state = SearchState::new(&options)?;
/// let hooks = Hooks { progress: Some(&progress), ..Hooks::default() };
/// Hunt::search(&mut state, &options.limits, Wanted::Set).run(hooks)?;
/// assert_eq!(progress.jobs_done.load(Ordering::Relaxed), 128);
/// assert!(progress.candidates.load(Ordering::Relaxed) >= 128);
/// // Fancy and plain sets are laid out, not packed: verification is the last stage.
/// assert_eq!(progress.stage(), Some((Stage::Verification, 0, 0)));
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
#[derive(Default)]
pub struct Progress {
    /// Set to stop: the scan's jobs stop after their current block (unfinished ones fall
    /// back: default bits, or the first magic of the whole space), the polish leaves the
    /// finds not yet climbed as scanned, the packing keeps its best layout.
    pub stop: AtomicBool,
    /// Candidate magics the scan tried so far.
    pub candidates: AtomicU64,
    /// Jobs of the scan finished so far.
    pub jobs_done: AtomicUsize,
    /// Jobs of the scan (set when it starts).
    pub jobs: AtomicUsize,
    /// Jobs with at least one valid magic at the bits they ask for.
    pub reached: AtomicUsize,
    /// Candidates of a counted budget over all jobs (set when the scan starts; 0 for a
    /// budget that is not a count, see
    /// [`SearchState::budget_used`](crate::search::SearchState::budget_used)).
    pub budget: AtomicU64,
    /// Of [`Progress::budget`], the candidates used up so far, by earlier runs of a resumed
    /// state too; a job done early counts its whole share.
    pub spent: AtomicU64,
    /// Annealing moves the packing made, summed over its packings (a resumed run starts at
    /// its checkpoint's).
    pub moves: AtomicU64,
    /// Moves of the whole packing: 0 until the annealing starts.
    pub moves_total: AtomicU64,
    /// Table length of the best layout the packing met so far.
    pub best_len: AtomicUsize,
    /// Set when the packing's best layout gets its spans shortened after the annealing
    /// (`--short-spans`), which refits squares and may shorten the table below [`Progress::best_len`].
    pub spans_shortened_after: AtomicBool,
    /// The running stage (none yet before the first).
    current: Mutex<Option<Stage>>,
    steps_done: AtomicU64,
    steps_total: AtomicU64,
    on_begin: Option<OnBegin>,
}

impl Progress {
    /// Returns a record that calls `on_begin` as each stage begins, with the stage and the
    /// steps it will take (0 if it does not count them), on the thread that runs it.
    pub fn new(on_begin: impl Fn(Stage, u64) + Send + Sync + 'static) -> Progress {
        Progress {
            on_begin: Some(Box::new(on_begin)),
            ..Progress::default()
        }
    }

    /// Records that `stage` begins, with `total` steps to take (0 if it does not count
    /// them), and tells the caller's `on_begin`. The hunt begins each of its stages; a
    /// program that writes the set begins [`Stage::Writing`] itself.
    pub fn begin(&self, stage: Stage, total: u64) {
        {
            let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
            self.steps_done.store(0, Ordering::Relaxed);
            self.steps_total.store(total, Ordering::Relaxed);
            *current = Some(stage);
        }
        if let Some(on_begin) = &self.on_begin {
            on_begin(stage, total);
        }
    }

    /// Counts `steps` more steps of the running stage done.
    pub(crate) fn advance(&self, steps: u64) {
        self.steps_done.fetch_add(steps, Ordering::Relaxed);
    }

    /// Returns the running stage with its steps done and to take (the packing counts its
    /// moves in [`Progress::moves`] instead, the scan its jobs), or `None` before the first.
    pub fn stage(&self) -> Option<(Stage, u64, u64)> {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        Some((
            (*current)?,
            self.steps_done.load(Ordering::Relaxed),
            self.steps_total.load(Ordering::Relaxed),
        ))
    }

    /// Returns the fraction of the running stage done, 0 to 1, where it counts: of the
    /// scan as [`Progress::scan_fraction`] says (`scan_seconds`: its time budget, if any;
    /// `elapsed`: since it began), of the packing's moves once it anneals, of the steps of
    /// any other stage that counts them; `None` for a stage that does not count (the
    /// verification, the writing, the greedy packing).
    pub fn fraction_done(&self, scan_seconds: Option<f64>, elapsed: Duration) -> Option<f64> {
        let (stage, done, total) = self.stage()?;
        let (done, total) = match stage {
            Stage::Scan => return Some(self.scan_fraction(scan_seconds, elapsed)),
            Stage::Packing => (
                self.moves.load(Ordering::Relaxed),
                self.moves_total.load(Ordering::Relaxed),
            ),
            Stage::Verification | Stage::Writing => return None,
            _ => (done, total),
        };
        (total > 0).then(|| (done as f64 / total as f64).min(1.0))
    }

    /// Returns the fraction of the scan done, 0 to 1: of the candidate budget if it is a
    /// count, of the time budget `seconds` (`elapsed` of it) if there is one (whichever is
    /// further: the scan stops at the first spent), else of the jobs (fancy and plain scan
    /// until found).
    pub fn scan_fraction(&self, seconds: Option<f64>, elapsed: Duration) -> f64 {
        let budget = self.budget.load(Ordering::Relaxed);
        let spent = self.spent.load(Ordering::Relaxed);
        let of_budget = (budget > 0).then(|| spent as f64 / budget as f64);
        let of_time = seconds.map(|s| elapsed.as_secs_f64() / s.max(1e-3));
        let fraction = match (of_budget, of_time) {
            (Some(b), Some(t)) => b.max(t),
            (Some(f), None) | (None, Some(f)) => f,
            (None, None) => {
                let total = self.jobs.load(Ordering::Relaxed).max(1);
                self.jobs_done.load(Ordering::Relaxed) as f64 / total as f64
            }
        };
        fraction.clamp(0.0, 1.0)
    }

    /// Returns the steps the running stage has made: the packing's moves, any other
    /// stage's steps (0 before the first stage).
    pub fn steps_done(&self) -> u64 {
        match self.stage() {
            Some((Stage::Packing, ..)) => self.moves.load(Ordering::Relaxed),
            Some((_, done, _)) => done,
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_is_as_far_as_the_further_of_its_budgets() {
        let p = Progress::default();
        p.budget.store(100, Ordering::Relaxed);
        p.spent.store(25, Ordering::Relaxed);
        assert_eq!(p.scan_fraction(None, Duration::ZERO), 0.25);
        assert_eq!(p.scan_fraction(Some(10.0), Duration::from_secs(5)), 0.5);
        // No budget: the jobs done.
        let p = Progress::default();
        p.jobs.store(4, Ordering::Relaxed);
        p.jobs_done.store(1, Ordering::Relaxed);
        assert_eq!(p.scan_fraction(None, Duration::ZERO), 0.25);
        p.begin(Stage::Packing, 0);
        assert_eq!(p.fraction_done(None, Duration::ZERO), None);
        p.moves_total.store(10, Ordering::Relaxed);
        p.moves.store(5, Ordering::Relaxed);
        assert_eq!(p.fraction_done(None, Duration::ZERO), Some(0.5));
        assert_eq!(p.steps_done(), 5);
    }
}
