//! The hunt: scan candidate magics, keep pools of the best, pack them into a verified set.
//!
//! Every (piece, square) is a job scanning its own candidate stream block by block.
//! Workers take jobs round-robin, one block at a time, so all squares advance together
//! and a time budget is shared fairly. A job's result depends only on which blocks it
//! scanned, never on threads or timing, so the same seed and [`Options`] give the same set;
//! a time budget (or Ctrl-C) only decides when scanning stops. The scan's [`SearchState`]
//! is what checkpoints, resumes and shard merges work on; [`finish`] turns it into a
//! verified set, packing fixed-shift pools into one table ([`crate::pack`]), which
//! checkpoints and resumes too ([`crate::pack::PackCheckpoint`]).
//!
//! Inside, each file depending only on those listed before it: `candidates.rs` the
//! candidate streams, `table.rs` the slot table of the inner loop (collisions, used slots
//! and span, what a white magic blocks), `slots.rs` the slots a magic uses as the packer
//! takes them, `options.rs` the one options type with the scan's settings and a run's
//! limits, `state.rs` the scan's state, built from the options, and how pools rank their
//! finds, `climb.rs` the local-search moves (the clump climb anneals by the rule in
//! `crate::annealing`, which the packer shares), `workers.rs` the workers,
//! `finish.rs` pools to a packed, verified set, `merge.rs` shards to one state. The
//! state's and the packer's files are read and written in `crate::io`, above this module.

mod candidates;
mod climb;
mod finish;
mod merge;
mod options;
mod slots;
pub mod state;
mod table;
mod workers;

pub use finish::{finish, repack, SearchOutcome};
pub use merge::{merge, MergeError};
pub use options::{Error, Limits, Options, PolishSettings};
pub(crate) use state::allowed_bits;
pub use state::SearchState;
pub use workers::{run, Progress};

pub use crate::stages::{Stage, Stages};

use crate::pack::PackHooks;

#[cfg(test)]
pub(crate) use {
    candidates::BLOCK_LEN,
    finish::pattern,
    finish::polished,
    slots::white_blocked_slots,
    state::{pack_cost, sparse_cost},
    table::EpochTable,
    table::SquareData,
    workers::Checkpoint,
};

/// Searches the set `options` describe: a fresh state scanned within `options.limits`
/// (threads, seconds), then finished (polished and packed), reporting through `progress`.
///
/// ```
/// use magic_gen::search::{search, Options, Progress};
/// use magic_gen::{verify, Variant};
///
/// // Plain magics: 12 and 9 bits, one array per square; the same seed, the same set.
/// let outcome = search(&Options::for_variant(Variant::Plain), &Progress::default())?;
/// assert!(verify(&outcome.set).is_ok());
/// assert!(outcome.report.table_len <= 64 * 4096 + 64 * 512);
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
pub fn search(options: &Options, progress: &Progress) -> Result<SearchOutcome, Error> {
    let mut state = SearchState::new(options)?;
    run(&mut state, &options.limits, progress, None);
    let mut hooks = PackHooks {
        threads: options.limits.threads,
        ..PackHooks::default()
    };
    finish(&state, &options.limits, &[], &mut hooks)
}
