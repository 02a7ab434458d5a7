//! 8x8 diagrams of index bits per square, for a set's tables.

use crate::geometry::{relevant_mask, Piece};

/// Marks a square whose index bits are below its mask popcount (a denser magic).
pub(super) const BELOW: char = '*';
/// Marks a square whose index bits are above its mask popcount (fixed-shift variants).
pub(super) const ABOVE: char = '+';

/// Returns the diagram of `bits` (a1 = 0) for `piece`: rank 8 on top, files a..h left to
/// right, each cell the index bits followed by a marker relative to the mask popcount.
pub(super) fn board(piece: Piece, bits: &[u8; 64]) -> String {
    let files = "    a   b   c   d   e   f   g   h\n";
    let mut out = String::new();
    out.push_str(files);
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let sq = rank * 8 + file;
            let b = bits[sq as usize] as u32;
            let popcount = relevant_mask(piece, sq).count_ones();
            let mark = match b.cmp(&popcount) {
                core::cmp::Ordering::Less => BELOW,
                core::cmp::Ordering::Greater => ABOVE,
                core::cmp::Ordering::Equal => ' ',
            };
            out.push_str(&format!("{b:>3}{mark}"));
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str(files);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_eight_is_on_top_and_markers_follow_the_popcount() {
        let mut bits = [0u8; 64];
        for sq in 0..64u8 {
            bits[sq as usize] = relevant_mask(Piece::Rook, sq).count_ones() as u8;
        }
        bits[56] = 11; // a8 one bit under its 12
        bits[28] = 12; // e4 two bits over its 10
        let b = board(Piece::Rook, &bits);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[1], "8  11* 11  11  11  11  11  11  12  8");
        assert_eq!(lines[0], "    a   b   c   d   e   f   g   h");
        assert!(
            lines[5].starts_with("4  11  10  10  10  12+"),
            "{}",
            lines[5]
        );
        assert_eq!(lines.len(), 10);
    }
}
