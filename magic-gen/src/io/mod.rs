//! Every file the generator reads and writes, specified in `docs/formats.md`: set files in
//! the interchange text format (`set_text.rs`) and as the Rust source the runtime crate
//! includes (`set_rust.rs`), picked by extension (`set_file.rs`), with what both share
//! (`entries.rs` the entries checked once each, `provenance.rs` the header, `credit.rs` its
//! credits of other authors' magics); and, with the
//! search, a hunt's state (`state_file.rs`) and the packer's checkpoint
//! (`checkpoint_file.rs`). All of them are read through one line reader (`lines.rs`), whose
//! [`ReadError`] names the file and line, and no reader panics on any input. The hunt's
//! writers and readers round-trip every field exactly (floats as their bits), so a resumed
//! run goes on bit for bit.

mod credit;
mod entries;
mod lines;
mod provenance;
mod set_file;
mod set_rust;
mod set_text;
mod write;

#[cfg(feature = "search")]
mod checkpoint_file;
#[cfg(feature = "search")]
mod state_file;

pub use credit::{Credit, CreditError, Squares, NOT_RECORDED};
pub use entries::EntryLines;
#[cfg(feature = "search")]
pub(crate) use lines::line_of;
pub use lines::ReadError;
pub use provenance::{CreditedSet, Provenance};
pub use set_file::{read_set_file, read_set_file_with_lines, read_set_stream, render_set_file};
pub use set_rust::{emit_rust, parse_emitted, set_from_magics, Magic};
pub use set_text::{parse_interchange, write_interchange};
#[cfg(feature = "search")]
pub(crate) use write::write_if_changed;
pub use write::{check_writable, write_atomic, WriteError};

#[cfg(all(test, feature = "search"))]
mod tests;
