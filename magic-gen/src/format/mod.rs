//! Set files: the interchange text format (`text.rs`), the Rust source the runtime crate
//! includes (`rust.rs`), what both share (`lines.rs`: the line reader, errors, provenance),
//! and one dispatcher by file extension (`file.rs`). Every reader names the file and line
//! of a problem and never panics on any input.

mod file;
mod lines;
mod rust;
mod text;

pub use file::{
    looks_like_rust_source, parse_set_bytes, parse_set_bytes_with_lines, read_set_file,
    read_set_file_with_lines, render_set_file, MAX_FILE_BYTES,
};
pub use lines::{line_of, EntryLines, Provenance, ReadError};
pub use rust::{emit_rust, magic_of, parse_emitted, set_from_magics, Magic};
pub use text::{parse_interchange, write_interchange};

/// The search's state files share the line reader.
#[cfg(feature = "search")]
pub(crate) use lines::{parse_hex, text_lines};
