//! The stages that make a set, and a shared record of which one is running and how far it
//! has come, for a progress display: the search and the packer update it, a watcher reads it.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// A stage of a hunt, in the order a run goes through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Scanning candidates.
    Scan,
    /// Climbing the pools' finds: the density climb, and the clump climb of white sets.
    Polish,
    /// Measuring the used slots of every pool member.
    Pools,
    /// The greedy packing and the annealing.
    Packing,
    /// Checking every occupancy of the set.
    Verification,
    /// Writing the set file.
    Writing,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 6] = [
        Stage::Scan,
        Stage::Polish,
        Stage::Pools,
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
            Stage::Packing => "packing",
            Stage::Verification => "verification",
            Stage::Writing => "writing",
        }
    }
}

/// Called as a stage begins, with the stage and the steps it will take (0 if it does not
/// count them), on the thread that runs it.
type OnBegin = Box<dyn Fn(Stage, u64) + Send + Sync>;

/// Which stage is running and how many of its steps are done (climbs of the polish, pools
/// measured). The packing counts its moves in [`PackProgress`](crate::pack::PackProgress)
/// and the scan in [`Progress`](crate::search::Progress).
///
/// ```
/// use magic_gen::search::{Stage, Stages};
///
/// let stages = Stages::default();
/// assert_eq!(stages.now(), None);
/// stages.begin(Stage::Pools, 128);
/// stages.advance(32);
/// assert_eq!(stages.now(), Some((Stage::Pools, 32, 128)));
/// ```
#[derive(Default)]
pub struct Stages {
    /// The running stage's place in [`Stage::ALL`] plus one (0: none yet).
    current: AtomicUsize,
    done: AtomicU64,
    total: AtomicU64,
    on_begin: Option<OnBegin>,
}

impl Stages {
    /// Returns a record that calls `on_begin` as each stage begins, with the stage and the
    /// steps it will take (0 if it does not count them), on the thread that runs it.
    pub fn new(on_begin: impl Fn(Stage, u64) + Send + Sync + 'static) -> Stages {
        Stages {
            on_begin: Some(Box::new(on_begin)),
            ..Stages::default()
        }
    }

    /// Records that `stage` begins, with `total` steps to take (0 if it does not count
    /// them), and tells the caller's `on_begin`.
    pub fn begin(&self, stage: Stage, total: u64) {
        let at = Stage::ALL.iter().position(|&s| s == stage).unwrap_or(0);
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        self.current.store(at + 1, Ordering::Release);
        if let Some(on_begin) = &self.on_begin {
            on_begin(stage, total);
        }
    }

    /// Counts `steps` more steps of the running stage done.
    pub fn advance(&self, steps: u64) {
        self.done.fetch_add(steps, Ordering::Relaxed);
    }

    /// Returns the running stage with its steps done and to take, or `None` before the
    /// first.
    pub fn now(&self) -> Option<(Stage, u64, u64)> {
        let at = self.current.load(Ordering::Acquire).checked_sub(1)?;
        Some((
            Stage::ALL[at],
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        ))
    }
}
