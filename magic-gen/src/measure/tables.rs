//! The measures as `magic-gen stats` prints them: a set's boards of index bits and its
//! per-square table, and a comparison square by square with its totals. Each table is
//! lines of text without a final newline; the file names around them are the caller's.

use core::fmt;

use crate::geometry::{square_name, Piece};
use crate::verify::Report;

use super::board::{board, ABOVE, BELOW};
use super::squares::{Comparison, Measured, PerSquare};

/// The legend of the lead and tail columns, shared by every table.
pub(super) const ENDS: &str = "lead and tail: free slots of the square's range of 2^bits \
                               before its first slot (after the empty occupancy's lone slot \
                               0, for every variant but black) and after its last";

/// Returns a row's first two columns: the piece and the square, padded.
pub(super) fn place(piece: Piece, square: u8) -> String {
    format!("{:<6} {:<6}", piece.to_string(), square_name(square))
}

impl PerSquare {
    /// Returns a set's tables: per piece an 8x8 board of index bits, then per square the
    /// table slots `report` found (first and last index reached, span, slots used, holes)
    /// with this measure's free slots at the range's ends, then the spans added up.
    /// `report` is the verification of the set this measures (see [`PerSquare::of_set`]).
    pub fn set_tables(&self, report: &Report) -> String {
        let mut lines = Vec::new();
        for piece in Piece::ALL {
            lines.push(String::new());
            lines.push(format!(
                "{piece}: index bits per square; {} squares below the mask popcount; ranges of 2^bits add up to {} entries",
                report.squares_below_popcount(piece),
                report.range_total(piece)
            ));
            lines.push(
                board(piece, &report.bits[piece.index()])
                    .trim_end()
                    .to_string(),
            );
        }
        lines.push(String::new());
        lines.push(format!(
            "legend: N = index bits; {BELOW} = fewer than the mask popcount (denser than standard), {ABOVE} = more (fixed shift), blank = equal"
        ));
        lines.push(String::new());
        lines.push(format!("per square: first and last table index reached, span (last - first + 1), slots used, holes in its span; {ENDS}"));
        lines.push("piece  square   first    last   span   used  holes   lead   tail".into());
        for piece in Piece::ALL {
            for (sq, u) in report.squares[piece.index()].iter().enumerate() {
                let range = self.get(piece, sq as u8).map(|m| m.range);
                let (lead, tail) = range.map_or((0, 0), |e| (e.lead, e.tail));
                lines.push(format!(
                    "{} {:>7} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}",
                    place(piece, sq as u8),
                    u.first,
                    u.last,
                    u.span(),
                    u.used,
                    u.holes(),
                    lead,
                    tail
                ));
            }
        }
        let (spans, saving) = report.spans_and_saving();
        lines.push(format!(
            "sum of spans {spans}: interleaving saves {saving} entries over ranges end to end"
        ));
        lines.join("\n")
    }
}

/// Square by square: slots used by ours and theirs, ours minus theirs, and the free slots
/// at each range's ends; then the totals, and the squares where ours uses no more.
impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "per square: slots used by ours and theirs, ours minus theirs, lead and tail of ours (o.) and theirs (t.); {ENDS}")?;
        writeln!(
            f,
            "piece  square   ours theirs   diff o.lead o.tail t.lead t.tail"
        )?;
        let used = |m: Option<Measured>| m.map_or("-".to_string(), |m| m.range.used.to_string());
        let ends = |m: Option<Measured>| {
            m.map_or(format!("{:>6} {:>6}", "-", "-"), |m| {
                format!("{:>6} {:>6}", m.range.lead, m.range.tail)
            })
        };
        for row in &self.rows {
            let diff = row
                .difference()
                .map_or("-".to_string(), |d| format!("{d:+}"));
            writeln!(
                f,
                "{} {:>6} {:>6} {:>6} {} {}",
                place(row.piece, row.square),
                used(row.ours),
                used(row.theirs),
                diff,
                ends(row.ours),
                ends(row.theirs)
            )?;
        }
        let t = &self.tally;
        writeln!(
            f,
            "slots used: ours {}, theirs {}, ours minus theirs {:+}, over {} squares",
            t.ours_used,
            t.theirs_used,
            t.ours_used as i64 - t.theirs_used as i64,
            t.squares
        )?;
        writeln!(
            f,
            "squares where ours uses no more slots than theirs: {} of {}",
            t.no_more, t.squares
        )?;
        writeln!(
            f,
            "ours uses fewer on {} squares ({} slots in all), as many on {}, more on {} ({} slots in all)",
            t.fewer,
            t.fewer_by,
            t.no_more - t.fewer,
            t.more,
            t.more_by
        )?;
        write!(
            f,
            "free slots at the range ends (lead + tail): ours {}, theirs {}",
            t.ours_ends, t.theirs_ends
        )?;
        if t.unmatched > 0 {
            write!(
                f,
                "\nleft out: {} squares where only one side has a magic",
                t.unmatched
            )?;
        }
        Ok(())
    }
}
