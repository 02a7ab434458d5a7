//! The magic search: seeded, parallel, deterministic, shardable and resumable.
//!
//! Every (piece, square) is a job scanning its own candidate stream (`space.rs`) block by
//! block. Workers (`workers.rs`) take jobs round-robin, one block at a time, so all squares
//! advance together and a time budget is shared fairly. A job's result depends only on
//! which blocks it scanned, never on threads or timing, so the same seed and [`Options`]
//! give the same set; a time budget (or Ctrl-C) only decides when scanning stops. The scan
//! state ([`SearchState`]) is what checkpoints, resumes and shard merges work on;
//! [`finish`] turns it into a verified set, packing fixed-shift pools into one table
//! (`pack.rs`). The packer checkpoints and resumes too ([`PackCheckpoint`]), in the same
//! state file or, for `magic-gen pack`, in one of its own.
//!
//! Inside, each file depending only on those listed before it: `space.rs` the candidate
//! streams, `table.rs` the slot table of the inner loop, `climb.rs` the local-search moves,
//! `pack_state.rs` the packer's checkpoint, `pack.rs` the packer, `state.rs` the saved
//! state with the settings that shape it,
//! `options.rs` the one options type, `workers.rs` the workers and checkpoints,
//! `assemble.rs` the set assembly.

mod assemble;
mod climb;
mod options;
mod pack;
mod pack_state;
mod space;
mod state;
mod table;
mod workers;

#[cfg(test)]
mod tests;

pub use assemble::{finish, finish_with, polished, repack, FinishError, SearchOutcome};
pub use climb::DENSITY_PATIENCE;
pub use options::{new_state, Limits, Options, SearchError, DEFAULT_POOL, DEFAULT_SEED};
pub use pack::{parse_spread, PackHooks, PackProgress, SavePack};
pub use pack_state::{PackCheckpoint, PackMismatch, PackSquare};
pub use space::Shard;
pub use state::{line_of, merge, Budget, Found, Job, MergeError, Scan, SearchState};
pub use table::white_blocked_slots;
pub use workers::{run, Checkpoint, Progress};

/// Searches the set `options` describe: a fresh state scanned within `options.limits`
/// (threads, seconds), then finished (pack seconds), reporting through `progress`.
pub fn search(options: &Options, progress: &Progress) -> Result<SearchOutcome, SearchError> {
    let mut state = new_state(options)?;
    run(&mut state, &options.limits, progress, None);
    finish(&state, &options.limits)
}
