//! Reading and writing magic sets as text.
//!
//! Two formats, both one line per piece and square:
//!
//! * the **interchange format** (`.txt` or any other extension), for bringing published sets:
//!
//!   ```text
//!   # comments run from '#' to the end of the line; blank lines are ignored
//!   variant black
//!   rook a1 0x80280013ff84ffff 12 10890
//!   ...
//!   bishop h8 0x0000000000000000 9 0
//!   ```
//!
//!   `variant` (fancy, plain, black, white or pext) comes once, before the entries. Each entry
//!   line is `PIECE SQUARE MAGIC BITS OFFSET`: piece `rook` or `bishop`, square `a1`..`h8`, magic
//!   in hex with a `0x` prefix (underscores allowed), index bits, and the offset of the square's
//!   range in the shared table, in decimal. All 128 entries must appear exactly once, in any order.
//!
//! * the **Rust source** that [`crate::emit`] writes (`.rs`), read back line by line.
//!
//! Errors name the file and line; nothing here panics on any input.

use core::fmt;
use std::path::Path;

use crate::emit::{parse_emitted, Provenance};
use crate::geometry::{parse_square, square_name, Piece};
use crate::index::Variant;
use crate::set::{check_entry, Entry, MagicSet};

/// A problem with a set file, at a line where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub file: String,
    /// 1-based line number, or `None` for a problem with the file as a whole.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ReadError {}

/// Largest set file read: 4 MiB, hundreds of times a real set.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Reads a set from `path`: the Rust source format for `.rs` files, the interchange format
/// otherwise. Checks the format and each entry's rules, not collisions (see [`crate::verify()`]).
pub fn read_set_file(path: &Path) -> Result<(MagicSet, Provenance), ReadError> {
    use std::io::Read;
    let file = path.display().to_string();
    let cannot_read = |e: std::io::Error| ReadError {
        file: file.clone(),
        line: None,
        message: format!("cannot read: {e}"),
    };
    // A set is about 15 KB; stop early on anything huge or endless (e.g. /dev/zero).
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot_read)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError {
            file,
            line: None,
            message: format!("larger than {MAX_FILE_BYTES} bytes: not a magic set"),
        });
    }
    if path.extension().is_some_and(|e| e == "rs") {
        parse_emitted(&file, &bytes)
    } else {
        parse_interchange(&file, &bytes).map(|set| (set, Provenance::default()))
    }
}

/// Splits `bytes` into numbered UTF-8 lines, failing at the first line that is not text.
pub(crate) fn text_lines<'a>(
    file: &str,
    bytes: &'a [u8],
) -> Result<Vec<(usize, &'a str)>, ReadError> {
    let mut lines = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let text = core::str::from_utf8(raw).map_err(|_| ReadError {
            file: file.to_string(),
            line: Some(line),
            message: "not UTF-8 text (is this a binary file?)".to_string(),
        })?;
        if text.contains('\0') {
            return Err(ReadError {
                file: file.to_string(),
                line: Some(line),
                message: "NUL byte in text (is this a binary file?)".to_string(),
            });
        }
        lines.push((line, text.strip_suffix('\r').unwrap_or(text)));
    }
    Ok(lines)
}

/// Returns the number of the file's last line (a final newline ends a line rather than
/// starting one), at least 1: where whole-file problems such as missing entries are reported.
pub(crate) fn end_line(bytes: &[u8]) -> usize {
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
    let unterminated = usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
    (newlines + unterminated).max(1)
}

/// Parses a hex magic with a `0x` prefix; underscores are allowed between digits.
pub(crate) fn parse_hex(s: &str) -> Result<u64, String> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(|| format!("magic '{s}' must be hex with a 0x prefix"))?;
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    if digits.is_empty() || digits.len() > 16 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("magic '{s}' is not a 64-bit hex number"));
    }
    u64::from_str_radix(&digits, 16).map_err(|e| format!("magic '{s}': {e}"))
}

/// Collects entries line by line and checks that every piece and square comes exactly once.
pub(crate) struct EntryCollector<'a> {
    file: &'a str,
    variant: Variant,
    set: MagicSet,
    seen: [[Option<usize>; 64]; 2],
}

impl<'a> EntryCollector<'a> {
    pub(crate) fn new(file: &'a str, variant: Variant) -> Self {
        EntryCollector {
            file,
            variant,
            set: MagicSet::new(variant),
            seen: [[None; 64]; 2],
        }
    }

    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    pub(crate) fn error(&self, line: Option<usize>, message: String) -> ReadError {
        ReadError {
            file: self.file.to_string(),
            line,
            message,
        }
    }

    /// Adds `piece` on `sq` from `line`, checking the entry against its variant's rules.
    pub(crate) fn add(
        &mut self,
        line: usize,
        piece: Piece,
        sq: u8,
        e: Entry,
    ) -> Result<(), ReadError> {
        let name = square_name(sq);
        if let Some(first) = self.seen[piece.index()][sq as usize] {
            return Err(self.error(
                Some(line),
                format!("duplicate entry for {piece} {name} (first on line {first})"),
            ));
        }
        check_entry(self.variant, piece, sq, &e)
            .map_err(|m| self.error(Some(line), format!("{piece} {name}: {m}")))?;
        self.seen[piece.index()][sq as usize] = Some(line);
        *self.set.entry_mut(piece, sq) = e;
        Ok(())
    }

    /// Returns the set, or an error listing the missing entries, reported at `end_line`
    /// (the file's last line, where the reader noticed).
    pub(crate) fn finish(self, end_line: usize) -> Result<MagicSet, ReadError> {
        let missing: Vec<String> = Piece::ALL
            .iter()
            .flat_map(|&p| (0..64u8).map(move |sq| (p, sq)))
            .filter(|&(p, sq)| self.seen[p.index()][sq as usize].is_none())
            .map(|(p, sq)| format!("{p} {}", square_name(sq)))
            .collect();
        if missing.is_empty() {
            return Ok(self.set);
        }
        let shown = missing
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if missing.len() > 8 {
            format!(" and {} more", missing.len() - 8)
        } else {
            String::new()
        };
        Err(self.error(
            Some(end_line),
            format!(
                "missing {} of 128 entries at end of file: {shown}{more}",
                missing.len()
            ),
        ))
    }
}

/// Parses the interchange format (see the module documentation).
pub fn parse_interchange(file: &str, bytes: &[u8]) -> Result<MagicSet, ReadError> {
    let err = |line: usize, message: String| ReadError {
        file: file.to_string(),
        line: Some(line),
        message,
    };
    let mut collector: Option<(usize, EntryCollector)> = None;
    for (line, text) in text_lines(file, bytes)? {
        let content = text.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        if fields[0] == "variant" {
            let [_, name] = fields[..] else {
                return Err(err(line, "expected 'variant NAME'".to_string()));
            };
            let variant = Variant::parse(name).ok_or_else(|| {
                err(
                    line,
                    format!("unknown variant '{name}' (fancy, plain, black, white or pext)"),
                )
            })?;
            match &collector {
                None => collector = Some((line, EntryCollector::new(file, variant))),
                Some((first, c)) if c.variant != variant => {
                    return Err(err(
                        line,
                        format!(
                            "mixed variants: '{variant}' here, '{}' on line {first}",
                            c.variant
                        ),
                    ))
                }
                Some((first, _)) => {
                    return Err(err(
                        line,
                        format!("variant given twice (first on line {first})"),
                    ))
                }
            }
            continue;
        }
        let Some((_, c)) = collector.as_mut() else {
            return Err(err(
                line,
                "the 'variant NAME' line must come before the entries".to_string(),
            ));
        };
        let [piece, square, magic, bits, offset] = fields[..] else {
            return Err(err(
                line,
                format!(
                    "expected 'PIECE SQUARE MAGIC BITS OFFSET', found {} fields",
                    fields.len()
                ),
            ));
        };
        let piece = Piece::parse(piece)
            .ok_or_else(|| err(line, format!("unknown piece '{piece}' (rook or bishop)")))?;
        let sq = parse_square(square)
            .ok_or_else(|| err(line, format!("unknown square '{square}' (a1..h8)")))?;
        let magic = parse_hex(magic).map_err(|m| err(line, m))?;
        let bits: u8 = bits
            .parse()
            .ok()
            .filter(|b| (1..=63).contains(b))
            .ok_or_else(|| err(line, format!("index bits '{bits}' out of range")))?;
        let offset: u32 = offset.parse().map_err(|_| {
            err(
                line,
                format!("offset '{offset}' is not a number below 2^32"),
            )
        })?;
        c.add(
            line,
            piece,
            sq,
            Entry {
                magic,
                bits,
                offset,
            },
        )?;
    }
    match collector {
        Some((_, c)) => c.finish(end_line(bytes)),
        // Every content line either is the variant line or fails without one: no variant
        // means no content.
        None => Err(ReadError {
            file: file.to_string(),
            line: Some(end_line(bytes)),
            message: "empty file: no variant and no entries".to_string(),
        }),
    }
}

/// Returns `set` in the interchange format, with `header` lines as comments.
pub fn write_interchange(set: &MagicSet, header: &[String]) -> String {
    let mut out = String::new();
    for h in header {
        out.push_str(&format!("# {h}\n"));
    }
    out.push_str("# PIECE SQUARE MAGIC BITS OFFSET\n");
    out.push_str(&format!("variant {}\n", set.variant));
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entry(piece, sq);
            out.push_str(&format!(
                "{:<6} {} {:#018x} {:>2} {}\n",
                piece.name(),
                square_name(sq),
                e.magic,
                e.bits,
                e.offset
            ));
        }
    }
    out
}
