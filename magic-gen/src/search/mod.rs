//! The scan and what shapes its finds: candidate magics scanned per square into pools of
//! the best, the scan's state and its file, the polish and evolution of the pools, and a
//! search's options and errors. The stages that chain them into a set are [`crate::hunt`]'s.
//!
//! Every (piece, square) is a job scanning its own candidate stream block by block.
//! Workers take jobs round-robin, one block at a time, so all squares advance together
//! and a time budget is shared fairly. A job's result depends only on which blocks it
//! scanned, never on threads or timing, so the same seed and [`Options`] give the same set;
//! a time budget (or Ctrl-C) only decides when scanning stops. The scan's [`SearchState`]
//! is what checkpoints, resumes and shard merges work on; a [`crate::hunt::Hunt`] scans it
//! and runs the stages that turn it into a verified set, packing fixed-shift pools into one
//! table ([`crate::pack`]), which checkpoints and resumes too
//! ([`crate::pack::PackCheckpoint`]).
//!
//! Inside, each file depending only on those listed before it: `candidates.rs` the
//! candidate streams, `table.rs` the slot table of the inner loop (collisions, used slots
//! and span, what a white magic blocks), `slots.rs` the slots a magic uses as the packer
//! takes them, `options.rs` the one options type with the scan's settings and a run's
//! limits, `state.rs` the scan's state, built from the options, and how pools rank their
//! finds, `climb.rs` the local-search moves (the clump climb anneals by the rule in
//! `crate::annealing`, which the packer shares), `workers.rs` the workers, `merge.rs`
//! shards to one state, `state_file.rs` the state's file (read through `crate::io`'s line
//! reader, ending with the packer's checkpoint where one is saved with it), `command.rs`
//! the commands a search records. The polish of
//! the pools and their evolution are `crate::polish`'s; the pools a packing packs and the
//! magics chosen for a layout's holes are `crate::hunt`'s.

pub(crate) mod candidates;
pub(crate) mod climb;
mod command;
mod merge;
mod options;
#[cfg(test)]
mod slots;
pub(crate) mod state;
mod state_file;
pub(crate) mod table;
mod workers;

pub use options::{EmptyBudget, Error, Limits, Options, PolishSettings};
#[cfg(test)]
pub(crate) use state::RaiseError;
pub use state::{Budget, Scan, SearchState, Shard};
pub(crate) use workers::run;

#[cfg(test)]
pub(crate) use {
    candidates::BLOCK_LEN,
    slots::white_blocked_slots,
    state::{pack_cost, sparse_cost},
    table::EpochTable,
    workers::Checkpoint,
};
