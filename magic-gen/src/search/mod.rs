//! The magic search: seeded, parallel, deterministic, shardable and resumable.
//!
//! Every (piece, square) is a job scanning its own candidate stream (`space.rs`) block by
//! block. Workers (`workers.rs`) take jobs round-robin, one block at a time, so all squares
//! advance together and a time budget is shared fairly. A job's result depends only on
//! which blocks it scanned, never on threads or timing, so the same seed and [`Options`]
//! give the same set; a time budget (or Ctrl-C) only decides when scanning stops. The scan
//! state ([`SearchState`]) is what checkpoints, resumes and shard merges work on;
//! [`finish`] turns it into a verified set, packing fixed-shift pools into one table
//! (`pack.rs`).
//!
//! Inside: `table.rs` is the slot table of the inner loop, `climb.rs` the local-search
//! moves, `options.rs` the one options type.

mod assemble;
mod climb;
mod options;
mod pack;
mod space;
mod state;
mod table;
mod workers;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

use crate::geometry::Piece;
use crate::set::MagicSet;
use crate::verify::Report;

pub use assemble::finish;
pub use climb::DENSITY_PATIENCE;
pub use options::{new_state, Budget, Limits, Options, Scan, DEFAULT_POOL, DEFAULT_SEED};
pub use space::Shard;
pub use state::{merge, Found, Job, SearchState};
pub use workers::{run, Checkpoint};

/// Shared counters a caller can watch (progress bar) and a flag that stops the search.
#[derive(Debug, Default)]
pub struct Progress {
    /// Candidate magics tried so far.
    pub candidates: AtomicU64,
    /// Jobs finished so far.
    pub done: AtomicUsize,
    /// Jobs in the run (set when the search starts).
    pub total: AtomicUsize,
    /// Set to stop: every job stops after its current block; unfinished ones fall back
    /// (default bits, or the first magic of the whole space) when the state is finished.
    pub stop: AtomicBool,
    /// Jobs with at least one valid magic at the bits they ask for.
    pub reached: AtomicUsize,
}

/// A finished search: a verified set, with the targets that did not reach the requested bits.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub set: MagicSet,
    pub report: Report,
    /// Targets that fell back to default bits (time budget spent or stopped).
    pub unmet: Vec<(Piece, u8)>,
}

/// Why a search could not run or did not produce a valid set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchError(pub String);

impl core::fmt::Display for SearchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SearchError {}

/// Searches the set `options` describe: a fresh state scanned within `options.limits`
/// (threads, seconds), then finished (pack seconds), reporting through `progress`.
pub fn search(options: &Options, progress: &Progress) -> Result<SearchOutcome, SearchError> {
    let mut state = new_state(options)?;
    run(&mut state, &options.limits, progress, None);
    finish(&state, &options.limits)
}
