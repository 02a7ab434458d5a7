//! Every set file the generator reads and writes, specified in `docs/formats.md`: the
//! interchange text format (`set_text.rs`) and the Rust source the runtime crate includes
//! (`set_rust.rs`), each a `Format` picked by extension (`set_file.rs`), with what they
//! share (`entries.rs` the entries checked once each, `provenance.rs` the header, `step.rs`
//! its commands, `credit.rs` its credits of other authors' magics). All of them are read
//! through one line reader (`lines.rs`), whose [`ReadError`] names the file and line, and
//! no reader panics on any input. The line reader's `key value` records also serve the
//! files of the hunt, which live beside what they save: the search's state
//! (`search/state_file.rs`) and the packer's checkpoint (`pack/checkpoint_file.rs`). Every
//! file is written whole or not at all (`write.rs`), a run's outputs checked first
//! (`outputs.rs`).
//! Nothing here knows the search's or the packer's types.

mod credit;
mod entries;
mod lines;
#[cfg(feature = "cli")]
mod outputs;
mod provenance;
mod set_file;
mod set_rust;
mod set_text;
mod step;
#[cfg(feature = "search")]
mod write;

pub use credit::{Credit, Squares};
pub use entries::EntryLines;
#[cfg(feature = "search")]
pub(crate) use lines::HuntFile;
pub use lines::ReadError;
#[cfg(feature = "search")]
pub(crate) use lines::{line_of, parse_hex, read_error, without_byte_order_mark, Lines, Record};
#[cfg(feature = "cli")]
pub(crate) use outputs::{
    check_run_outputs, is_stdio, refuse_stdio_state, same_file, state_file, OutputsError,
};
#[cfg(feature = "cli")]
pub(crate) use provenance::CreditedSet;
pub use provenance::Provenance;
pub use set_file::{read_set_file, read_set_stream, render_set_file};
pub use set_rust::{set_from_magics, Magic};
#[cfg(test)]
pub(crate) use set_text::parse_interchange;
pub use set_text::write_interchange;
#[cfg(feature = "cli")]
pub(crate) use step::Argument;
pub use step::Step;
#[cfg(feature = "search")]
pub(crate) use step::StepError;
#[cfg(feature = "search")]
pub(crate) use write::write_if_changed;
#[cfg(feature = "search")]
pub(crate) use write::{write_atomic, WriteError};
