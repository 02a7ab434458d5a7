//! The hunt as a list of typed stages run by one driver, for the CLI and for programs that
//! drive hunts through the library: a search from its state, the finish of a state scanned
//! elsewhere (the merge of a hunt's shards), a set packed again ([`Hunt`], its stages
//! [`Stage`]); what a run made and where a stop cut it ([`Outcome`], its `cut`), and how it
//! ended and goes on (`ending.rs`); what it reports and saves on the way, and the flag that
//! stops it ([`Hooks`]); and the named record hunts ([`Preset`]) beside each variant's
//! defaults ([`crate::search::Options::for_variant`]).
//!
//! Inside: `plan.rs` the driver, `pools.rs` the pools a packing packs (and the set of a
//! hunt that packs none), `holes.rs` the stages that give squares magics for a layout's
//! holes (and the rooks first), `cut.rs`, `ending.rs`, `hooks.rs` and `files.rs` what a run
//! reports and keeps (`ending.rs` also the unfinished note of a set's header),
//! `summary.rs` what a run says of its set, `shards.rs` the header of a merge of shards, `snapshot.rs` what a watcher of a run shows at
//! each moment, `presets.rs` the record hunts; for the command line, `fresh.rs` a search
//! as asked, `repack.rs` a repack as asked, `args.rs` the options' values and headings,
//! and `refusal.rs` the options a run refuses.

#[cfg(feature = "cli")]
pub(crate) mod args;
pub(crate) mod cut;
pub(crate) mod ending;
mod files;
#[cfg(feature = "cli")]
pub(crate) mod fresh;
pub(crate) mod holes;
mod hooks;
mod plan;
pub(crate) mod pools;
mod presets;
#[cfg(feature = "cli")]
pub(crate) mod refusal;
#[cfg(feature = "cli")]
pub(crate) mod repack;
mod shards;
#[cfg(feature = "cli")]
pub(crate) mod snapshot;
mod summary;
#[cfg(test)]
mod tests;

pub use crate::stages::{Progress, Stage};
pub use hooks::Hooks;
pub use plan::{Hunt, Outcome, Wanted};
pub use presets::Preset;
