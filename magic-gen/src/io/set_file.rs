//! The one dispatcher: a set file's extension picks its format, for reading and writing.

use std::io::Read;
use std::path::Path;

use crate::set::MagicSet;
use crate::verify::Report;

use super::entries::EntryLines;
use super::lines::{read_error, HuntFile, Lines, ReadError};
use super::provenance::Provenance;
use super::set_rust::{emit_rust, parse_emitted_lines};
use super::set_text::{parse_interchange_lines, write_interchange};

/// A set file's format. A path's extension chooses it ([`Format::of_path`]); input with no
/// name, by its text ([`Format::of_text`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Format {
    /// The Rust source the runtime crate includes (what `--out X.rs` writes).
    Rust,
    /// The interchange text format.
    Interchange,
}

impl Format {
    /// Returns the format of a file named `path`: Rust source for `.rs`, in any case (`X.RS`
    /// too, as on a file system that ignores case); every other name the interchange format.
    fn of_path(path: &Path) -> Format {
        match path.extension() {
            Some(e) if e.eq_ignore_ascii_case("rs") => Format::Rust,
            _ => Format::Interchange,
        }
    }

    /// Returns the format `bytes` look like, for input with no file name to tell it by:
    /// Rust source if they have a `pub const VARIANT` line, else the interchange format.
    fn of_text(bytes: &[u8]) -> Format {
        let rust = String::from_utf8_lossy(bytes)
            .lines()
            .any(|l| l.trim_start().starts_with("pub const VARIANT"));
        match rust {
            true => Format::Rust,
            false => Format::Interchange,
        }
    }

    /// Reads a set from `bytes`, named `file` in errors, with its provenance and the line of
    /// each entry.
    fn read(
        self,
        file: &str,
        bytes: &[u8],
    ) -> Result<(MagicSet, Provenance, EntryLines), ReadError> {
        match self {
            Format::Rust => parse_emitted_lines(file, bytes),
            Format::Interchange => parse_interchange_lines(file, bytes)
                .and_then(|(set, lines)| Ok((set, interchange_provenance(file, bytes)?, lines))),
        }
    }

    /// Returns true if the entries of `bytes` read in this format (the header unchecked).
    fn reads_entries(self, file: &str, bytes: &[u8]) -> bool {
        match self {
            Format::Rust => parse_emitted_lines(file, bytes).is_ok(),
            Format::Interchange => parse_interchange_lines(file, bytes).is_ok(),
        }
    }

    /// Returns the text of `set` in this format, with a header recording `provenance`.
    fn render(self, set: &MagicSet, report: &Report, provenance: &Provenance) -> String {
        match self {
            Format::Rust => emit_rust(set, report, provenance),
            Format::Interchange => render_interchange(set, report, provenance),
        }
    }

    /// Says which files are read in this format, to a reader whose file is another.
    fn which_files(self) -> &'static str {
        match self {
            Format::Rust => "a `.rs` file is read as Rust source (what `--out X.rs` writes)",
            Format::Interchange => "a file not named `.rs` is read as the interchange format",
        }
    }

    /// Says that a file is in this format, and how to name it so.
    fn this_one_is(self) -> &'static str {
        match self {
            Format::Rust => {
                "this one is Rust source (a `pub const VARIANT` line): give it a name ending in \
                 `.rs`"
            }
            Format::Interchange => {
                "this one is the interchange format: give it another name, such as one ending \
                 in `.txt`"
            }
        }
    }

    /// What a file's error in this format adds when the file reads in no other: how names
    /// choose formats, where that may be news (`None`: the default, named by anything else).
    fn naming_note(self) -> Option<&'static str> {
        match self {
            Format::Rust => Some(
                "a `.rs` file is read as Rust source; any other name as the interchange format",
            ),
            Format::Interchange => None,
        }
    }
}

/// Largest set file read: 4 MiB, hundreds of times a real set.
const MAX_FILE_BYTES: u64 = 4 << 20;

/// Reads a set from `path`: the Rust source format for `.rs` files, the interchange format
/// otherwise. Checks the format and each entry's rules, not collisions (see
/// [`crate::verify()`]). Returns the set, the provenance its header records and the line
/// of each entry, where [`EntryLines::locate`] puts a verification failure.
pub fn read_set_file(path: &Path) -> Result<(MagicSet, Provenance, EntryLines), ReadError> {
    let file = path.display().to_string();
    let bytes = std::fs::File::open(path)
        .map_err(|e| cannot_read(&file, e))
        .and_then(|f| read_bounded(&file, f))?;
    parse_set_bytes_with_lines(&file, &bytes, Format::of_path(path))
}

/// Reads a set from `input` (standard input, or bytes already read), named `file` in
/// errors: the Rust source format if it has a `pub const VARIANT` line, else the
/// interchange format; at most 4 MiB, so that an endless input (`/dev/zero`) ends in an
/// error. Returns it as [`read_set_file`] does.
///
/// ```
/// use magic_gen::{read_set_stream, Piece, Variant};
///
/// // Rust source, told by its `pub const VARIANT` line.
/// let bytes = std::fs::read("../magics/black.rs").unwrap();
/// let (set, _, lines) = read_set_stream("<memory>", &bytes[..]).unwrap();
/// assert_eq!(set.variant, Variant::Black);
/// assert_eq!(lines.file, "<memory>");
/// assert!(lines.line(Piece::Rook, 0) > 1);
/// ```
pub fn read_set_stream(
    file: &str,
    input: impl Read,
) -> Result<(MagicSet, Provenance, EntryLines), ReadError> {
    let bytes = read_bounded(file, input)?;
    parse_set_bytes_with_lines(file, &bytes, Format::of_text(&bytes))
}

/// Returns the bytes of `input`, or an error if there are more than [`MAX_FILE_BYTES`]: a
/// set is about 15 KB, so this stops early on anything huge or endless (e.g. /dev/zero).
fn read_bounded(file: &str, input: impl Read) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    input
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot_read(file, e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(read_error(
            file,
            None,
            format!("larger than {MAX_FILE_BYTES} bytes: not a magic set"),
        ));
    }
    Ok(bytes)
}

/// Returns the error of `file` that cannot be read.
fn cannot_read(file: &str, e: std::io::Error) -> ReadError {
    read_error(file, None, format!("cannot read: {e}"))
}

/// Reads a set from `bytes` already read and named `file` in errors, in `format`. Returns
/// it with the line of each entry.
fn parse_set_bytes_with_lines(
    file: &str,
    bytes: &[u8],
    format: Format,
) -> Result<(MagicSet, Provenance, EntryLines), ReadError> {
    if let Some(e) = a_hunt_file(file, bytes) {
        return Err(e);
    }
    format
        .read(file, bytes)
        .map_err(|e| named_by_the_other_format(e, bytes, format))
}

/// Returns the error of `bytes`, named `file`, that begin as a hunt's file (a search state,
/// a pack checkpoint) rather than a set, saying which ([`ReadError::instead`]: what reads
/// it is the caller's to say); `None` if they do not.
fn a_hunt_file(file: &str, bytes: &[u8]) -> Option<ReadError> {
    let (line, text) = Lines::of(file, bytes).ok()?.next()?;
    let kind = HuntFile::of_first_line(text)?;
    let message = format!("not a magic set: this is a magic-gen {}", kind.name());
    Some(ReadError {
        instead: Some(kind),
        ..read_error(file, Some(line), message)
    })
}

/// Returns `error`, of `bytes` read in the `format` their file's name chose, saying so when
/// they read as the format their text looks like instead (a set in the interchange format
/// named `.rs`, or Rust source named otherwise).
fn named_by_the_other_format(error: ReadError, bytes: &[u8], format: Format) -> ReadError {
    let file = error.file.clone();
    let looks = Format::of_text(bytes);
    let other = looks != format && looks.reads_entries(&file, bytes);
    let message = match (other, format.naming_note()) {
        (true, _) => format!("{}, and {}", format.which_files(), looks.this_one_is()),
        (false, Some(note)) => format!("{} ({note})", error.message),
        (false, None) => return error,
    };
    let line = if other { None } else { error.line };
    read_error(&file, line, message)
}

/// Returns the text of `set` in the format `path`'s extension selects: Rust source for
/// `.rs`, the interchange format otherwise, each with a header recording `provenance`.
/// No timestamps or thread counts: the same set and provenance always give the same bytes.
pub fn render_set_file(
    path: &Path,
    set: &MagicSet,
    report: &Report,
    provenance: &Provenance,
) -> String {
    Format::of_path(path).render(set, report, provenance)
}

/// Returns the text of `set` in the interchange format, its comment header recording
/// `provenance` and the table's size.
fn render_interchange(set: &MagicSet, report: &Report, provenance: &Provenance) -> String {
    let mut header = vec![format!(
        "@generated by magic-gen {}: edit with care, verify with `magic-gen verify`.",
        env!("CARGO_PKG_VERSION")
    )];
    header.extend(provenance.header_lines());
    header.push(format!(
        "table: {} entries ({:.1} KiB of u64), {} slots used",
        report.table_len,
        report.kib(8),
        report.slots_used
    ));
    write_interchange(set, &header)
}

/// Returns the provenance in the comment header of an interchange file (the `# command:`,
/// `# seed:` and `# unfinished:` lines `render_set_file` writes before the `variant` line).
fn interchange_provenance(file: &str, bytes: &[u8]) -> Result<Provenance, ReadError> {
    let mut provenance = Provenance::default();
    for (line, text) in Lines::of(file, bytes)? {
        let Some(comment) = text.trim().strip_prefix('#') else {
            // The header ends where the data begins.
            if text.trim().is_empty() {
                continue;
            }
            break;
        };
        provenance
            .read_header_line(comment.trim())
            .map_err(|e| read_error(file, Some(line), e.to_string()))?;
    }
    Ok(provenance)
}
