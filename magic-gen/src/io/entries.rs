//! A set file's entries: the collector both set formats read them into, which checks that
//! every piece and square comes exactly once, and the line of each entry it keeps.

use crate::geometry::{square_name, Piece, SetSquare};
use crate::index::Variant;
use crate::set::{check_entry, Entry, MagicSet};
use crate::verify::{squares_at_fault, Failure};

use super::lines::{read_error, ReadError};

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
    /// use magic_gen::{read_set_stream, verify, Piece};
    ///
    /// let mut text = String::from("variant fancy\n");
    /// let mut offset = 0;
    /// for piece in Piece::ALL {
    ///     for sq in 0..64u8 {
    ///         let bits = magic_gen::relevant_mask(piece, sq).count_ones();
    ///         // A magic of 1 keeps only the key's top bits: every square collides.
    ///         text += &format!("{piece} {} 0x1 {bits} {offset}\n", magic_gen::square_name(sq));
    ///         offset += 1 << bits;
    ///     }
    /// }
    /// let (set, _, lines) = read_set_stream("bad.txt", text.as_bytes()).unwrap();
    /// let failures = verify(&set).unwrap_err();
    /// assert!(lines.locate(&failures[0]).starts_with("bad.txt:2: rook a1: destructive collision"));
    /// let (squares, named) = lines.name_squares(&failures, 1);
    /// assert_eq!(squares, 128);
    /// assert!(named.starts_with("rook a1 (line 2"));
    /// ```
    pub fn locate(&self, failure: &Failure) -> String {
        let SetSquare { piece, square } = failure.place();
        match failure.other_square() {
            Some(other) => {
                let other_line = self.line(other.piece, other.square);
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

    /// Returns how many squares `failures` involve (both of a collision between two
    /// squares) and `piece square (line L, in K failures), ...`: at most `shown` of them,
    /// those in the most failures first (the likeliest to be wrong: a bad offset overlaps
    /// several ranges), ties in order of first appearance.
    pub fn name_squares(&self, failures: &[Failure], shown: usize) -> (usize, String) {
        let squares = squares_at_fault(failures);
        let mut names: Vec<String> = squares
            .iter()
            .take(shown)
            .map(|&(at, n)| {
                let line = self.line(at.piece, at.square);
                let count = if n > 1 {
                    format!(", in {n} failures")
                } else {
                    String::new()
                };
                format!("{at} (line {line}{count})")
            })
            .collect();
        if squares.len() > shown {
            names.push(format!("and {} more", squares.len() - shown));
        }
        (squares.len(), names.join(", "))
    }

    /// Returns why a set with these `failures` is rejected: how many, on how many squares,
    /// and the squares at fault by line ([`EntryLines::name_squares`], at most 8).
    pub fn rejected(&self, failures: &[Failure]) -> String {
        let count = failures.len();
        let (squares, named) = self.name_squares(failures, 8);
        let plural = |n: usize, noun: &str| match n {
            1 => noun.to_string(),
            _ => format!("{noun}s"),
        };
        let (noun, square_noun) = (plural(count, "failure"), plural(squares, "square"));
        format!("rejected: {count} verification {noun} on {squares} {square_noun}: {named}")
    }
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
        read_error(self.file, line, message)
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
