//! The interchange format (`.txt` or any extension but `.rs`), for bringing published
//! sets: a `variant` line, then one `PIECE SQUARE MAGIC BITS OFFSET` line per piece and
//! square. Its specification is `docs/formats.md` ("The text (interchange) format"), the one place it is
//! written; errors name the file and line, and nothing here panics on any input.

use crate::geometry::{parse_square, square_name, Piece};
use crate::index::Variant;
use crate::set::{Entry, MagicSet};

use super::entries::{EntryCollector, EntryLines};
use super::lines::{end_line, parse_hex, read_error, Lines, ReadError};

/// Parses the interchange format (see the module documentation): the library's tests' short
/// way to a set of known format.
#[cfg(test)]
pub(crate) fn parse_interchange(file: &str, bytes: &[u8]) -> Result<MagicSet, ReadError> {
    parse_interchange_lines(file, bytes).map(|(set, _)| set)
}

/// Parses the interchange format; returns the set with the line of each entry.
pub(crate) fn parse_interchange_lines(
    file: &str,
    bytes: &[u8],
) -> Result<(MagicSet, EntryLines), ReadError> {
    // The entries, once the variant line (the number of this line) has said their variant.
    let mut collector: Option<(usize, EntryCollector)> = None;
    for (line, text) in Lines::of(file, bytes)? {
        let content = text.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        if fields[0] == "variant" {
            let variant = read_variant((file, line), &fields)?;
            match &collector {
                None => collector = Some((line, EntryCollector::new(file, variant))),
                Some((first, c)) => return Err(variant_again((file, line), variant, *first, c)),
            }
            continue;
        }
        let Some((_, c)) = collector.as_mut() else {
            return Err(no_variant_first((file, line), &fields, content));
        };
        let (piece, sq, entry) = read_entry((file, line), &fields)?;
        c.add(line, piece, sq, entry)?;
    }
    match collector {
        Some((_, c)) => c.finish(end_line(bytes)),
        // Every content line either is the variant line or fails without one: no variant
        // means no content.
        None => Err(read_error(
            file,
            Some(end_line(bytes)),
            "empty file: no variant and no entries".to_string(),
        )),
    }
}

/// Reads the variant of a `variant NAME` line, `fields` its words, at `line` of `file`.
fn read_variant((file, line): (&str, usize), fields: &[&str]) -> Result<Variant, ReadError> {
    let err = |message: String| read_error(file, Some(line), message);
    let [_, name] = fields[..] else {
        return Err(err("expected 'variant NAME'".to_string()));
    };
    Variant::parse(name).ok_or_else(|| {
        err(format!(
            "unknown variant '{name}' (fancy, plain, black, white or pext)"
        ))
    })
}

/// Returns the error of the first content line, `content` (its words `fields`), at `line`
/// of `file`, where it is not the `variant NAME` line: an entry is one too early; anything
/// else is no set at all (a `Cargo.toml`, say), and the error shows how the file begins.
fn no_variant_first((file, line): (&str, usize), fields: &[&str], content: &str) -> ReadError {
    if read_entry((file, line), fields).is_ok() {
        let message = "the 'variant NAME' line must come before the entries";
        return read_error(file, Some(line), message.to_string());
    }
    const SHOWN: usize = 40;
    let begins = match content.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &content[..cut]),
        None => content.to_string(),
    };
    read_error(
        file,
        Some(line),
        format!(
            "not a magic set: the interchange format begins with a 'variant NAME' line \
             (docs/formats.md), this file with '{begins}'"
        ),
    )
}

/// Returns the error of a second variant line, of `variant`, at `line` of `file`, where
/// the first one, on line `first`, began the entries of `collector`.
fn variant_again(
    (file, line): (&str, usize),
    variant: Variant,
    first: usize,
    collector: &EntryCollector,
) -> ReadError {
    let message = if collector.variant() != variant {
        format!(
            "mixed variants: '{variant}' here, '{}' on line {first}",
            collector.variant()
        )
    } else {
        format!("variant given twice (first on line {first})")
    };
    read_error(file, Some(line), message)
}

/// Reads an entry line, `fields` its words, at `line` of `file`: its piece, square and
/// entry.
fn read_entry(
    (file, line): (&str, usize),
    fields: &[&str],
) -> Result<(Piece, u8, Entry), ReadError> {
    let err = |message: String| read_error(file, Some(line), message);
    let [piece, square, magic, bits, offset] = fields[..] else {
        return Err(err(format!(
            "expected 'PIECE SQUARE MAGIC BITS OFFSET', found {} fields",
            fields.len()
        )));
    };
    let piece = Piece::parse(piece)
        .ok_or_else(|| err(format!("unknown piece '{piece}' (rook or bishop)")))?;
    let sq =
        parse_square(square).ok_or_else(|| err(format!("unknown square '{square}' (a1..h8)")))?;
    let magic = parse_hex(magic).map_err(|m| err(m.to_string()))?;
    let bits: u8 = bits
        .parse()
        .ok()
        .filter(|b| (1..=63).contains(b))
        .ok_or_else(|| err(format!("index bits '{bits}' out of range")))?;
    let offset: i64 = offset
        .parse()
        .map_err(|_| err(format!("offset '{offset}' is not a number")))?;
    let entry = Entry {
        magic,
        bits,
        offset,
    };
    Ok((piece, sq, entry))
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
