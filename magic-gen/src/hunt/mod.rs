//! The hunt as the CLI runs it, for programs that drive hunts through the library: its
//! stages from a state to a verified set with their resume, shard and checkpoint rules
//! ([`run`]), and the named record hunts ([`Preset`]) beside each variant's defaults
//! ([`crate::search::Options::for_variant`]).

mod pipeline;
mod presets;

pub use pipeline::{run, Hooks, Hunted};
pub use presets::Preset;
