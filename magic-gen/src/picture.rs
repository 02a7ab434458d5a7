//! A picture of a packed table (what `magic-gen stats --picture` writes): one pixel per
//! slot, rows of [`ROW`] slots, a colour per square and black where no square writes (the
//! holes), so a record hunter sees where the space goes.

use std::fmt::Write;

use crate::geometry::SetSquare;
use crate::verify::Verified;

/// Slots per row of the picture.
const ROW: usize = 1024;

/// Pixel height of a row.
const ROW_HEIGHT: usize = 6;

/// Returns the colour of square `owner` (`piece.index() * 64 + square`): hues spread by
/// the golden angle so neighbours in the table differ, rooks darker than bishops.
fn colour(owner: u8) -> String {
    let hue = (owner as f64 * 137.508) % 360.0;
    let light = if owner < 64 { 45 } else { 72 };
    format!("hsl({hue:.0},70%,{light}%)")
}

impl Verified {
    /// Returns an SVG picture of the table: 1,024 slots a row, each run of slots with one
    /// owner a rectangle coloured and titled by its square, the holes black.
    pub fn table_svg(&self) -> String {
        let r = &self.report;
        let rows = r.table_len.div_ceil(ROW).max(1);
        let (width, top) = (ROW, 20);
        let height = top + rows * ROW_HEIGHT;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" shape-rendering=\"crispEdges\">"
        );
        let _ = writeln!(
            out,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#000\"/>\n<text x=\"4\" y=\"14\" \
             font-family=\"monospace\" font-size=\"12\" fill=\"#fff\">{} set: {} entries, {} \
             slots used, {} holes (black); {ROW} slots a row</text>",
            r.variant,
            r.table_len,
            r.slots_used,
            r.holes()
        );
        for row in 0..rows {
            let start = row * ROW;
            let end = (start + ROW).min(self.owner.len());
            let y = top + row * ROW_HEIGHT;
            let mut i = start;
            while i < end {
                let who = self.owner[i];
                let mut j = i + 1;
                while j < end && self.owner[j] == who {
                    j += 1;
                }
                if who != Verified::HOLE {
                    let name = SetSquare::from_index(who as usize);
                    let _ = writeln!(
                        out,
                        "<rect x=\"{}\" y=\"{y}\" width=\"{}\" height=\"{ROW_HEIGHT}\" fill=\"{}\"><title>{name}</title></rect>",
                        i - start,
                        j - i,
                        colour(who)
                    );
                }
                i = j;
            }
        }
        out.push_str("</svg>\n");
        out
    }
}
