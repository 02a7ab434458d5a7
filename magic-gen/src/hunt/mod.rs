//! The hunt as the CLI runs it, for programs that drive hunts through the library: the one
//! entry that runs a hunt from its state to a verified set, with its resume, shard and
//! checkpoint rules ([`run`]), and the stage a stop cut ([`HuntCut`]); the finishing of a
//! state scanned elsewhere, the merge of a hunt's shards ([`finish`]); a set packed again
//! ([`repack`]), or as a list of stages (rooks first, magics for its layout's holes, the
//! packing with other sets' magics: [`Repack`]); what they report and save on the way, and
//! the flag that stops them ([`Hooks`]); and the named record hunts ([`Preset`]) beside
//! each variant's defaults ([`crate::search::Options::for_variant`]).

mod cut;
mod files;
mod pipeline;
mod presets;
mod repack;

pub use cut::HuntCut;
pub use pipeline::{finish, repack, run, Hooks};
pub use presets::Preset;
pub use repack::{Repack, RepackCut, RepackStage, Repacked};
