//! The stages that make a set, and a hunt's progress: which stage is running and how far it
//! has come, with the scan's and the packing's counters and the stop flag. The search and
//! the packer update it, a watcher reads it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// A stage of a hunt, in the order a run goes through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Scanning candidates.
    Scan,
    /// Climbing the pools' finds: the density climb, and the clump climb of white sets.
    Polish,
    /// Measuring the used slots of every pool member.
    Pools,
    /// Giving squares magics chosen for a packed layout's holes (`pack --holes`).
    Holes,
    /// The greedy packing and the annealing.
    Packing,
    /// Checking every occupancy of the set.
    Verification,
    /// Writing the set file.
    Writing,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 7] = [
        Stage::Scan,
        Stage::Polish,
        Stage::Pools,
        Stage::Holes,
        Stage::Packing,
        Stage::Verification,
        Stage::Writing,
    ];

    /// Returns the stage's name as progress lines and `MAGIC_GEN_HOLD_AT` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Scan => "scan",
            Stage::Polish => "polish",
            Stage::Pools => "pools",
            Stage::Holes => "holes",
            Stage::Packing => "packing",
            Stage::Verification => "verification",
            Stage::Writing => "writing",
        }
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
/// use magic_gen::hunt::{run, Hooks};
/// use magic_gen::search::{Options, Progress, SearchState, Stage};
/// use magic_gen::Variant;
///
/// let progress = Progress::default();
/// assert_eq!(progress.stage(), None);
/// let options = Options::for_variant(Variant::Plain);
/// let mut state = SearchState::new(&options)?;
/// let hooks = Hooks { progress: Some(&progress), ..Hooks::default() };
/// run(&mut state, &[], &options.limits, true, hooks)?;
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
    /// ([`PackSettings::short_spans`](crate::pack::PackSettings::short_spans)), which
    /// refits squares and may shorten the table below [`Progress::best_len`].
    pub spans_shortened_after: AtomicBool,
    /// The running stage's place in [`Stage::ALL`] plus one (0: none yet).
    current: AtomicUsize,
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
        let at = Stage::ALL.iter().position(|&s| s == stage).unwrap_or(0);
        self.steps_done.store(0, Ordering::Relaxed);
        self.steps_total.store(total, Ordering::Relaxed);
        self.current.store(at + 1, Ordering::Release);
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
        let at = self.current.load(Ordering::Acquire).checked_sub(1)?;
        Some((
            Stage::ALL[at],
            self.steps_done.load(Ordering::Relaxed),
            self.steps_total.load(Ordering::Relaxed),
        ))
    }
}
