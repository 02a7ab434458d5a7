//! The one reader of the hunt's text files: numbered lines, a line's keyword, its
//! positional words and its `key value` pairs, every error naming the file and line.

use crate::format::{parse_hex, text_lines, ReadError};

/// A text file's numbered lines, blank ones left out, with the file's name for errors.
pub(super) struct Lines<'a> {
    pub(super) file: &'a str,
    lines: std::vec::IntoIter<(usize, &'a str)>,
}

impl<'a> Lines<'a> {
    /// Returns the non-blank lines of `bytes`, failing at the first that is not text.
    pub(super) fn of(file: &'a str, bytes: &'a [u8]) -> Result<Lines<'a>, ReadError> {
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
    pub(super) fn at(&self, line: usize, message: String) -> ReadError {
        error(self.file, Some(line), message)
    }

    /// Returns the error `message` about the file as a whole.
    pub(super) fn whole(&self, message: String) -> ReadError {
        error(self.file, None, message)
    }

    /// Returns the rest of the lines.
    pub(super) fn rest(self) -> Vec<(usize, &'a str)> {
        self.lines.collect()
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        self.lines.next()
    }
}

/// Returns the error `message` in `file`, at `line` if given.
pub(super) fn error(file: &str, line: Option<usize>, message: String) -> ReadError {
    ReadError {
        file: file.into(),
        line,
        message,
    }
}

/// The words of one line after its keyword: positional words first, then `key value`
/// pairs, each key where the writer puts it.
pub(super) struct Fields<'a> {
    words: Vec<&'a str>,
    file: &'a str,
    line: usize,
    keyword: &'static str,
}

impl<'a> Fields<'a> {
    /// Returns the fields of `text`, line `line` of `file`, which must start with `keyword`.
    pub(super) fn of(
        file: &'a str,
        line: usize,
        text: &'a str,
        keyword: &'static str,
    ) -> Result<Self, ReadError> {
        let mut words = text.split_whitespace();
        if words.next() != Some(keyword) {
            return Err(error(
                file,
                Some(line),
                format!("expected a '{keyword} ...' line"),
            ));
        }
        Ok(Fields {
            words: words.collect(),
            file,
            line,
            keyword,
        })
    }

    /// Returns the error `message` at this line.
    pub(super) fn error(&self, message: String) -> ReadError {
        error(self.file, Some(self.line), message)
    }

    /// Returns positional word `i`.
    pub(super) fn word(&self, i: usize) -> Result<&'a str, ReadError> {
        self.words
            .get(i)
            .copied()
            .ok_or_else(|| self.error(format!("the '{}' line is cut short", self.keyword)))
    }

    /// Returns the value after `key`, if the line has one.
    pub(super) fn optional(&self, key: &str) -> Option<&'a str> {
        let i = self.words.iter().position(|&w| w == key);
        i.and_then(|i| self.words.get(i + 1).copied())
    }

    /// Returns the value after `key`.
    pub(super) fn value(&self, key: &str) -> Result<&'a str, ReadError> {
        self.optional(key)
            .ok_or_else(|| self.error(format!("the '{}' line has no '{key}' value", self.keyword)))
    }

    /// Returns the decimal number after `key`.
    pub(super) fn number(&self, key: &str) -> Result<u64, ReadError> {
        let v = self.value(key)?;
        number(v).map_err(|m| self.error(format!("{key} {m}")))
    }

    /// Returns the 64-bit hex number after `key` (`0x` and at most 16 digits).
    pub(super) fn hex(&self, key: &str) -> Result<u64, ReadError> {
        let v = self.value(key)?;
        parse_hex(v).map_err(|_| self.error(format!("{key} '{v}' is not 64-bit hex")))
    }
}

/// Parses a decimal number, or says `'WORD' is not a number`.
pub(super) fn number(word: &str) -> Result<u64, String> {
    word.parse()
        .map_err(|_| format!("'{word}' is not a number"))
}
