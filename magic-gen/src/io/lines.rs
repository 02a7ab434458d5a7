//! The one line reader of every file the generator reads: numbered UTF-8 lines, blank
//! ones left out, a line's keyword, its positional words and its `key value` pairs, and
//! the error that names the file and line. The sets' formats here in `io` read through it,
//! and so do the files of the search's state (`search/state_file.rs`) and the packer's
//! checkpoint (`pack/checkpoint_file.rs`), which know their own types.

use core::fmt;

#[cfg(feature = "search")]
use crate::geometry::{parse_square, Piece};

/// A problem with a file the generator reads (a set, a state, a checkpoint), at a line
/// where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The file as the caller named it.
    pub file: String,
    /// 1-based line number, or `None` for a problem with the file as a whole.
    pub line: Option<usize>,
    /// What is wrong, naming the piece and square where there are some.
    pub message: String,
    /// The hunt's file given in place of the file read (a search state read as a pack
    /// checkpoint or as a set, a pack checkpoint read as a search state or as a set): what
    /// reads it is the caller's to say.
    pub instead: Option<HuntFile>,
}

/// The files a hunt keeps beside its sets: which one a reader was given in place of the
/// other ([`ReadError::instead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HuntFile {
    /// A search state (`magic-gen-state` on its first line).
    SearchState,
    /// A pack checkpoint file (`magic-gen-pack` on its first line).
    PackCheckpoint,
}

impl HuntFile {
    /// Returns the hunt's file whose first line `text` begins as, if any.
    pub(crate) fn of_first_line(text: &str) -> Option<HuntFile> {
        [HuntFile::SearchState, HuntFile::PackCheckpoint]
            .into_iter()
            .find(|kind| text.trim_start().starts_with(kind.first_word()))
    }

    /// Returns what it is, as messages name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            HuntFile::SearchState => "search state",
            HuntFile::PackCheckpoint => "pack checkpoint",
        }
    }

    /// Returns the word its first line starts with.
    fn first_word(self) -> &'static str {
        match self {
            HuntFile::SearchState => "magic-gen-state",
            HuntFile::PackCheckpoint => "magic-gen-pack",
        }
    }
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

/// A text file's numbered lines, blank ones left out, with the file's name for errors.
pub(crate) struct Lines<'a> {
    #[cfg_attr(not(feature = "search"), allow(dead_code))]
    file: &'a str,
    lines: std::vec::IntoIter<(usize, &'a str)>,
}

impl<'a> Lines<'a> {
    /// Returns the non-blank lines of `bytes`, failing at the first that is not text.
    pub(crate) fn of(file: &'a str, bytes: &'a [u8]) -> Result<Lines<'a>, ReadError> {
        let lines: Vec<(usize, &str)> = text_lines(file, bytes)?
            .into_iter()
            .filter(|(_, t)| !t.trim().is_empty())
            .collect();
        Ok(Lines {
            file,
            lines: lines.into_iter(),
        })
    }

    /// Returns the error `message` at `line`.
    #[cfg(feature = "search")]
    pub(crate) fn at(&self, line: usize, message: String) -> ReadError {
        read_error(self.file, Some(line), message)
    }

    /// Returns the error of a first line `text` (at `line`) that is not `kind`'s header,
    /// `expected`: one that is the other hunt file's says so ([`ReadError::instead`]).
    #[cfg(feature = "search")]
    pub(crate) fn not_a(
        &self,
        line: usize,
        text: &str,
        kind: HuntFile,
        expected: &str,
    ) -> ReadError {
        let other = match kind {
            HuntFile::SearchState => HuntFile::PackCheckpoint,
            HuntFile::PackCheckpoint => HuntFile::SearchState,
        };
        let instead = text.starts_with(other.first_word()).then_some(other);
        let hint = instead.map_or(String::new(), |o| format!(": this is a {}", o.name()));
        let mut e = self.at(
            line,
            format!(
                "not a magic-gen {} (expected {expected}){hint}",
                kind.name()
            ),
        );
        e.instead = instead;
        e
    }

    /// Returns the error `message` about the file as a whole.
    #[cfg(feature = "search")]
    pub(crate) fn whole(&self, message: String) -> ReadError {
        read_error(self.file, None, message)
    }

    /// Returns the rest of the lines.
    #[cfg(feature = "search")]
    pub(crate) fn rest(self) -> Vec<(usize, &'a str)> {
        self.lines.collect()
    }

    /// Returns `lines` of `file`, numbered as in the file and none blank: a part of a file
    /// read on its own (a section).
    #[cfg(feature = "search")]
    pub(crate) fn numbered(file: &'a str, lines: Vec<(usize, &'a str)>) -> Lines<'a> {
        Lines {
            file,
            lines: lines.into_iter(),
        }
    }

    /// Returns the next line as a record with `keyword`, if there is a next line.
    #[cfg(feature = "search")]
    pub(crate) fn record(
        &mut self,
        keyword: &'static str,
    ) -> Option<Result<Record<'a>, ReadError>> {
        let (line, text) = self.next()?;
        Some(Record::of(self.file, line, text, keyword))
    }

    /// Returns the next line's number and value if it is `key`, one space and the value:
    /// a line whose value is all the rest of it, spaces and all.
    #[cfg(feature = "search")]
    pub(crate) fn value_line(&mut self, key: &str) -> Result<(usize, &'a str), ReadError> {
        let Some((line, text)) = self.next() else {
            return Err(self.whole(format!("missing '{key}' line")));
        };
        let value = text.strip_prefix(key).and_then(|r| r.strip_prefix(' '));
        value
            .map(|v| (line, v))
            .ok_or_else(|| self.at(line, format!("expected '{key} ...'")))
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        self.lines.next()
    }
}

/// The UTF-8 byte-order mark some editors put at the start of a text file.
const BYTE_ORDER_MARK: &[u8] = "\u{feff}".as_bytes();

/// Returns `bytes` without the UTF-8 byte-order mark they may start with: the one place
/// every reader of the generator's text files leaves it out.
pub(crate) fn without_byte_order_mark(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BYTE_ORDER_MARK).unwrap_or(bytes)
}

/// Splits `bytes` into numbered UTF-8 lines (a byte-order mark at the start left out),
/// failing at the first line that is not text.
fn text_lines<'a>(file: &str, bytes: &'a [u8]) -> Result<Vec<(usize, &'a str)>, ReadError> {
    let mut lines = Vec::new();
    for (i, raw) in without_byte_order_mark(bytes)
        .split(|&b| b == b'\n')
        .enumerate()
    {
        let line = i + 1;
        let text = core::str::from_utf8(raw).map_err(|_| {
            let binary = "not UTF-8 text (is this a binary file?)";
            read_error(file, Some(line), binary.to_string())
        })?;
        if text.contains('\0') {
            let binary = "NUL byte in text (is this a binary file?)";
            return Err(read_error(file, Some(line), binary.to_string()));
        }
        lines.push((line, text.strip_suffix('\r').unwrap_or(text)));
    }
    Ok(lines)
}

/// Returns the error `message` in `file`, at `line` if given.
pub(crate) fn read_error(file: &str, line: Option<usize>, message: String) -> ReadError {
    ReadError {
        file: file.into(),
        line,
        message,
        instead: None,
    }
}

/// One `key value...` record, the line shape of the search's files (states and pack
/// checkpoints): a keyword, positional words, then `key value` pairs. Every rule of reading
/// one (its keyword, a word, a key's value, a number, hex, a 0|1 flag, and the error naming
/// file and line) lives here.
#[cfg(feature = "search")]
pub(crate) struct Record<'a> {
    text: &'a str,
    words: Vec<&'a str>,
    file: &'a str,
    line: usize,
    keyword: &'a str,
}

#[cfg(feature = "search")]
impl<'a> Record<'a> {
    /// Returns the record of `text`, line `line` of `file`, whatever its keyword (its first
    /// word; `text` is not blank).
    pub(crate) fn any(file: &'a str, line: usize, text: &'a str) -> Self {
        let mut words = text.split_whitespace();
        let keyword = words.next().unwrap_or("");
        Record {
            text,
            words: words.collect(),
            file,
            line,
            keyword,
        }
    }

    /// Returns the record of `text`, line `line` of `file`, which must start with `keyword`.
    pub(crate) fn of(
        file: &'a str,
        line: usize,
        text: &'a str,
        keyword: &'static str,
    ) -> Result<Self, ReadError> {
        let record = Record::any(file, line, text);
        if record.keyword != keyword {
            return Err(record.error(format!("expected a '{keyword} ...' line")));
        }
        Ok(record)
    }

    /// Returns the record's keyword.
    pub(crate) fn keyword(&self) -> &'a str {
        self.keyword
    }

    /// Returns the error `message` at this line.
    pub(crate) fn error(&self, message: String) -> ReadError {
        read_error(self.file, Some(self.line), message)
    }

    /// Returns the error that the line is none the reader expects here.
    pub(crate) fn unexpected(&self) -> ReadError {
        self.error(format!("unexpected line '{}'", self.text))
    }

    /// Returns the values of `keys` if the record is exactly `positional` words, then
    /// `keys` in this order, each with one value: a line whose keys are fixed, read by
    /// place (so a value that reads as a key is still a value).
    pub(crate) fn laid_out<const N: usize>(
        &self,
        positional: usize,
        keys: [&str; N],
    ) -> Option<[&'a str; N]> {
        let pairs = self.words.get(positional..)?;
        if pairs.len() != 2 * N || (0..N).any(|k| pairs[2 * k] != keys[k]) {
            return None;
        }
        Some(core::array::from_fn(|k| pairs[2 * k + 1]))
    }

    /// Returns the record's `key value` pairs after `positional` words, if the words after
    /// them pair up.
    pub(crate) fn pairs(&self, positional: usize) -> Option<Vec<(&'a str, &'a str)>> {
        let words = self.words.get(positional..)?;
        (words.len() % 2 == 0).then(|| words.chunks(2).map(|p| (p[0], p[1])).collect())
    }

    /// Returns positional word `i`.
    pub(crate) fn word(&self, i: usize) -> Result<&'a str, ReadError> {
        self.words
            .get(i)
            .copied()
            .ok_or_else(|| self.error(format!("the '{}' line is cut short", self.keyword)))
    }

    /// Returns the value after `key`, if the line has one.
    pub(crate) fn optional(&self, key: &str) -> Option<&'a str> {
        let i = self.words.iter().position(|&w| w == key);
        i.and_then(|i| self.words.get(i + 1).copied())
    }

    /// Returns the value after `key`.
    pub(crate) fn value(&self, key: &str) -> Result<&'a str, ReadError> {
        self.optional(key)
            .ok_or_else(|| self.error(format!("the '{}' line has no '{key}' value", self.keyword)))
    }

    /// Returns the decimal number after `key`.
    pub(crate) fn number(&self, key: &str) -> Result<u64, ReadError> {
        self.number_in(key, self.value(key)?)
    }

    /// Returns `word`, the value of `name` in this record, as a decimal number.
    pub(crate) fn number_in(&self, name: &str, word: &str) -> Result<u64, ReadError> {
        number(word).map_err(|m| self.error(format!("{name} {m}")))
    }

    /// Returns positional words `i` and `i + 1` as a piece and a square.
    pub(crate) fn piece_square(&self, i: usize) -> Result<(Piece, u8), ReadError> {
        let (p, s) = (self.word(i)?, self.word(i + 1)?);
        let piece = Piece::parse(p).ok_or_else(|| self.error(format!("unknown piece '{p}'")))?;
        let square = parse_square(s).ok_or_else(|| self.error(format!("unknown square '{s}'")))?;
        Ok((piece, square))
    }

    /// Returns the 64-bit hex number after `key` (`0x` and at most 16 digits).
    pub(crate) fn hex(&self, key: &str) -> Result<u64, ReadError> {
        let v = self.value(key)?;
        parse_hex(v).map_err(|_| self.error(format!("{key} '{v}' is not 64-bit hex")))
    }

    /// Returns `word`, the flag `name` in this record: 0 or 1.
    pub(crate) fn flag_in(&self, name: &str, word: &str) -> Result<bool, ReadError> {
        match word {
            "0" => Ok(false),
            "1" => Ok(true),
            v => Err(self.error(format!("{name} must be 0 or 1, found '{v}'"))),
        }
    }
}

/// Parses a decimal number.
#[cfg(feature = "search")]
pub(crate) fn number(word: &str) -> Result<u64, FieldError> {
    word.parse()
        .map_err(|_| FieldError::NotANumber(word.to_string()))
}

/// Returns the number of the file's last line (a final newline ends a line rather than
/// starting one), at least 1: where whole-file problems such as missing entries are reported.
pub(crate) fn end_line(bytes: &[u8]) -> usize {
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
    let unterminated = usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
    (newlines + unterminated).max(1)
}

/// Parses a hex magic with a `0x` prefix; underscores are allowed between digits.
pub(crate) fn parse_hex(s: &str) -> Result<u64, FieldError> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(|| FieldError::NoHexPrefix(s.to_string()))?;
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    let hex = !digits.is_empty() && digits.len() <= 16;
    hex.then(|| u64::from_str_radix(&digits, 16).ok())
        .flatten()
        .ok_or_else(|| FieldError::NotHex(s.to_string()))
}

/// A word of a line that is not what its place needs, or a Rust source entry
/// (`Magic { .. }`) that is not whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// Not a decimal number: the word (states and checkpoints, the search's files).
    #[cfg(feature = "search")]
    NotANumber(String),
    /// The field named is not a number: the field and the word.
    FieldNotANumber {
        /// The field's name.
        field: &'static str,
        /// The word found.
        word: String,
    },
    /// A magic without its `0x` prefix: the word.
    NoHexPrefix(String),
    /// A magic that is not a 64-bit hex number: the word.
    NotHex(String),
    /// A `Magic` entry without the `}` that closes it.
    Unclosed,
    /// A part of a `Magic` entry that is not `field: value`: the part.
    NotFieldValue(String),
    /// A field a `Magic` entry does not have: its name.
    UnknownField(String),
    /// A `Magic` entry without all four of its fields.
    MissingFields,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            #[cfg(feature = "search")]
            FieldError::NotANumber(word) => write!(f, "'{word}' is not a number"),
            FieldError::FieldNotANumber { field, word } => {
                write!(f, "{field} '{word}' is not a number")
            }
            FieldError::NoHexPrefix(word) => {
                write!(f, "magic '{word}' must be hex with a 0x prefix")
            }
            FieldError::NotHex(word) => write!(f, "magic '{word}' is not a 64-bit hex number"),
            FieldError::Unclosed => f.write_str("expected '}' closing the Magic entry"),
            FieldError::NotFieldValue(part) => {
                write!(f, "expected 'field: value', found '{part}'")
            }
            FieldError::UnknownField(name) => write!(f, "unknown field '{name}'"),
            FieldError::MissingFields => {
                f.write_str("a Magic entry needs magic, mask, shift and offset")
            }
        }
    }
}

impl std::error::Error for FieldError {}

/// Returns the 1-based number of the first line of a state file's `bytes` that is `key` or
/// starts with `key` and a space: where a merge or checkpoint error points.
#[cfg(feature = "search")]
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
