//! What the slot table measures of a white magic, tested against its used slots one by
//! one: the slots it blocks for other squares and how clumped its used slots are
//! ([`EpochTable::blocked`], [`EpochTable::clumped`]).

use super::table::EpochTable;
use crate::occupancy::SquareData;

/// Returns the slots the white fixed-shift `magic` with `bits` index bits blocks on
/// `piece`'s `sq`, or `None` if it is not a magic there: its used slots plus the holes
/// between them shorter than 16 slots, which few other squares have a run short enough to
/// take. White pools keep their sparse finds by it.
pub(crate) fn white_blocked_slots(
    piece: crate::geometry::Piece,
    sq: u8,
    magic: u64,
    bits: u8,
) -> Option<u32> {
    let data = SquareData::new(piece, sq, crate::index::Variant::White);
    EpochTable::new(bits).blocked(&data.entries(), magic, bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Piece;
    use crate::index::Variant;
    use crate::occupancy::used_slots;
    use crate::search::table::{CLUMP_BLOCK, SHORT_HOLE};

    #[test]
    fn a_white_span_leaves_out_the_empty_occupancys_slot_0() {
        // Annuss's rook b7 (shakmaty): slot 0, then every other occupancy in 3,424..4,096.
        let magic = 0x007f_ff75_ff7f_bfd8;
        let b7 = crate::geometry::parse_square("b7").unwrap();
        let white = SquareData::new(Piece::Rook, b7, Variant::White);
        let mut table = EpochTable::new(12);
        let (used, span) = table.measure(&white.entries(), magic, 12).unwrap();
        assert_eq!((used, span), (544, 4096 - 3424));
        // The same rule on slots taken one by one.
        let slots: Vec<usize> = white
            .keys
            .iter()
            .map(|&key| (key.wrapping_mul(magic) >> 52) as usize)
            .collect();
        let rest = slots.iter().filter(|&&i| i != 0);
        let lo = *rest.clone().min().unwrap();
        let hi = *rest.max().unwrap();
        assert_eq!(span as usize, hi - lo + 1);
        // Black keys have no lone slot 0: their span is that of every used slot.
        let black = SquareData::new(Piece::Rook, b7, Variant::Black);
        let mut table = EpochTable::new(12);
        // The published black rook b7 (Annuss and Fiekas).
        let black_magic = 0x0000_0085_008a_0014_u64;
        let (_, span) = table.measure(&black.entries(), black_magic, 12).unwrap();
        let all: Vec<usize> = black
            .keys
            .iter()
            .map(|&key| (key.wrapping_mul(black_magic) >> 52) as usize)
            .collect();
        let extent = all.iter().max().unwrap() - all.iter().min().unwrap() + 1;
        assert_eq!(span as usize, extent);
    }

    #[test]
    fn blocked_slots_are_the_used_ones_and_the_short_holes_between_them() {
        let text = include_str!("../../tests/data/published-white-88772.txt");
        let set = crate::io::parse_interchange("white.txt", text.as_bytes()).unwrap();
        let mut total = 0;
        for piece in Piece::ALL {
            for sq in 0..64 {
                let e = set.entry(piece, sq);
                let data = SquareData::new(piece, sq, Variant::White);
                let mut table = EpochTable::new(e.bits);
                let blocked = table.blocked(&data.entries(), e.magic, e.bits).unwrap();
                // The same count from the sorted used indices.
                let used: Vec<u32> = used_slots(&data, e.magic, e.bits)
                    .iter()
                    .map(|&(i, _)| i)
                    .collect();
                let short: u32 = used
                    .windows(2)
                    .map(|w| w[1] - w[0] - 1)
                    .filter(|&gap| gap < SHORT_HOLE)
                    .sum();
                assert_eq!(blocked, used.len() as u32 + short, "{piece} {sq}");
                // The spread: the square root of the used slots of each block, summed.
                let mut per_block = vec![0u32; (1usize << e.bits).div_ceil(CLUMP_BLOCK)];
                for &i in &used {
                    per_block[i as usize / CLUMP_BLOCK] += 1;
                }
                let spread: f64 = per_block.iter().map(|&k| f64::from(k).sqrt()).sum();
                let clumped = table.clumped(&data.entries(), e.magic, e.bits).unwrap();
                assert_eq!(clumped, (blocked, spread), "{piece} {sq}");
                total += blocked;
            }
        }
        // The figure `Scan::sparse_rank` quotes.
        assert_eq!(total, 82_486);
        // A magic that maps two attack sets to one slot blocks nothing: it is no magic.
        let data = SquareData::new(Piece::Rook, 0, Variant::White);
        assert_eq!(EpochTable::new(12).blocked(&data.entries(), 0, 12), None);
    }
}
