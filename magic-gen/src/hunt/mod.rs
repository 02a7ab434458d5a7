//! The hunt as the CLI runs it, for programs that drive hunts through the library: the one
//! entry that runs a hunt from its state to a verified set, with its resume, shard and
//! checkpoint rules ([`run`]); the finishing of a state scanned elsewhere, the merge of a
//! hunt's shards ([`finish`]); a set packed again ([`repack`]), its magics chosen anew for
//! its layout's holes first if asked ([`into_holes`]); what the three report and
//! save on the way, and the flag that stops them ([`Hooks`]); and the named record hunts
//! ([`Preset`]) beside each variant's defaults ([`crate::search::Options::for_variant`]).

mod pipeline;
mod presets;

pub use crate::search::holes::{into_holes, rooks_first};
pub use pipeline::{finish, repack, repack_with, run, Hooks};
pub use presets::Preset;
