//! What both formats share: the numbered line reader, the error that names the file and
//! line, hex magics, the collector that checks every piece and square comes exactly once,
//! and the provenance a set's header records.

use core::fmt;

use crate::geometry::{square_name, Piece};
use crate::index::Variant;
use crate::set::{check_entry, Entry, MagicSet};
#[cfg(doc)]
use crate::verify::squares_at_fault;
use crate::verify::Failure;

/// A problem with a set file, at a line where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The file as the caller named it.
    pub file: String,
    /// 1-based line number, or `None` for a problem with the file as a whole.
    pub line: Option<usize>,
    /// What is wrong, naming the piece and square where there are some.
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

/// Where each entry of a set file is: the file and the line of every piece and square, so
/// that a verification failure points at the line to fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryLines {
    /// The file as the reader named it.
    pub file: String,
    /// 1-based line numbers, `[piece][square]`.
    lines: [[usize; 64]; 2],
}

impl EntryLines {
    /// Returns the 1-based line of the entry of `piece` on `square`.
    pub fn line(&self, piece: Piece, square: u8) -> usize {
        self.lines[piece.index()][square as usize]
    }

    /// Returns `failure` as `FILE:LINE: piece square: ...`, at the line of the entry at
    /// fault; a collision between two squares is put at the line of the one verified first
    /// and names the other with its line, since either entry may be the wrong one.
    ///
    /// ```
    /// use magic_gen::{parse_set_bytes_with_lines, verify, Piece};
    ///
    /// let mut text = String::from("variant fancy\n");
    /// let mut offset = 0;
    /// for piece in Piece::ALL {
    ///     for sq in 0..64u8 {
    ///         let bits = magic_gen::relevant_bits(piece, sq);
    ///         // A magic of 1 keeps only the key's top bits: every square collides.
    ///         text += &format!("{piece} {} 0x1 {bits} {offset}\n", magic_gen::square_name(sq));
    ///         offset += 1 << bits;
    ///     }
    /// }
    /// let (set, _, lines) = parse_set_bytes_with_lines("bad.txt", text.as_bytes(), false).unwrap();
    /// let failures = verify(&set).unwrap_err();
    /// assert!(lines.locate(&failures[0]).starts_with("bad.txt:2: rook a1: destructive collision"));
    /// ```
    pub fn locate(&self, failure: &Failure) -> String {
        let (piece, square) = failure.place();
        match failure.other_square() {
            Some((other_piece, other_square)) => {
                let other_line = self.line(other_piece, other_square);
                format!(
                    "{}:{other_line}: {}",
                    self.file,
                    failure.describe(Some(self.line(piece, square)))
                )
            }
            None => format!(
                "{}:{}: {}",
                self.file,
                self.line(piece, square),
                failure.describe(None)
            ),
        }
    }

    /// Returns `piece square (line L, in K failures), ...`: `squares` as
    /// [`squares_at_fault`] returns them, at most `shown` named.
    pub fn name_squares(&self, squares: &[(Piece, u8, usize)], shown: usize) -> String {
        let mut names: Vec<String> = squares
            .iter()
            .take(shown)
            .map(|&(piece, sq, n)| {
                let line = self.line(piece, sq);
                let count = if n > 1 {
                    format!(", in {n} failures")
                } else {
                    String::new()
                };
                format!("{piece} {} (line {line}{count})", square_name(sq))
            })
            .collect();
        if squares.len() > shown {
            names.push(format!("and {} more", squares.len() - shown));
        }
        names.join(", ")
    }
}

/// Where a set came from, recorded in the emitted header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The search seed, if the set was searched.
    pub seed: Option<u64>,
    /// The commands that produced the set, each later step after `; then ` (a search, then
    /// the `emit` or `pack` of its output). The last one wrote the file.
    pub command: Option<String>,
    /// Set when the commands did not run to their end (an interrupted scan or packing), or
    /// a merge took only some shards: what was done and the command that finishes it. Such
    /// a set is not what its command gives, so no committed set may carry it.
    pub unfinished: Option<String>,
}

impl Provenance {
    /// Returns this provenance with `step`, the command of a run that took the set as its
    /// input, after the commands that made it (`A; then B`); the seed and any unfinished
    /// note carry over, since the step changes neither how the magics were found nor
    /// whether their run ended.
    pub fn then(&self, step: &str) -> Provenance {
        let command = match &self.command {
            Some(before) => format!("{before}; then {step}"),
            None => step.to_string(),
        };
        Provenance {
            command: Some(command),
            ..self.clone()
        }
    }

    /// Reads one header line (without its comment marker, e.g. `seed: 1`) into this
    /// provenance; returns false for a line that is not one of its fields.
    pub(crate) fn read_header_line(&mut self, text: &str) -> Result<bool, String> {
        if let Some(c) = text.strip_prefix("command: ") {
            self.command = Some(c.to_string());
        } else if let Some(s) = text.strip_prefix("seed: ") {
            self.seed = Some(s.parse().map_err(|_| format!("bad seed '{s}'"))?);
        } else if let Some(u) = text.strip_prefix("unfinished: ") {
            self.unfinished = Some(u.to_string());
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// Returns the header lines of this provenance, without comment markers.
    pub(crate) fn header_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(c) = &self.command {
            lines.push(format!("command: {c}"));
        }
        if let Some(s) = self.seed {
            lines.push(format!("seed: {s}"));
        }
        if let Some(u) = &self.unfinished {
            lines.push(format!("unfinished: {u}"));
        }
        lines
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

    /// Returns the set with the line of each entry, or an error listing the missing
    /// entries, reported at `end_line` (the file's last line, where the reader noticed).
    pub(crate) fn finish(self, end_line: usize) -> Result<(MagicSet, EntryLines), ReadError> {
        let missing: Vec<String> = Piece::ALL
            .iter()
            .flat_map(|&p| (0..64u8).map(move |sq| (p, sq)))
            .filter(|&(p, sq)| self.seen[p.index()][sq as usize].is_none())
            .map(|(p, sq)| format!("{p} {}", square_name(sq)))
            .collect();
        if missing.is_empty() {
            let lines = self.seen.map(|piece| piece.map(|line| line.unwrap_or(0)));
            let lines = EntryLines {
                file: self.file.to_string(),
                lines,
            };
            return Ok((self.set, lines));
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
/// Returns the 1-based number of the first line of a state file's `bytes` that is `key` or
/// starts with `key` and a space: where a merge or checkpoint error points.
///
/// ```
/// let state = b"magic-gen-state 1\nvariant black\nseed 1\n";
/// assert_eq!(magic_gen::line_of(state, "seed"), Some(3));
/// assert_eq!(magic_gen::line_of(state, "pool"), None);
/// ```
pub fn line_of(bytes: &[u8], key: &str) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    let with_space = format!("{key} ");
    text.lines()
        .position(|l| {
            let l = l.trim();
            l == key || l.starts_with(&with_space)
        })
        .map(|i| i + 1)
}
