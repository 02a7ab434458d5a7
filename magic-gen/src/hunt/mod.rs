//! The hunt as the CLI runs it, for programs that drive hunts through the library: the
//! named record hunts ([`Preset`]) beside each variant's defaults
//! ([`crate::search::Options::for_variant`]).

mod presets;

pub use presets::Preset;
