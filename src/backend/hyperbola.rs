//! Hyperbola Quintessence: table-free slider attacks from subtraction and byte swaps.
//!
//! Files and diagonals use the classic `o - 2s` trick on the line and on its byte-swapped
//! (vertically mirrored) image; ranks, which a byte swap does not mirror, use the
//! obstruction difference (the highest blocker below the slider, by `leading_zeros`),
//! except on aarch64, where `o - 2s` on the bit-reversed rank (one `rbit`) is shorter.
//! Line masks are computed, not looked up, so this backend links no table at all: pick it
//! for small binaries (WASM, microcontrollers) and for code whose lookups each wait for
//! the previous one, where a short dependency chain beats a cache miss.

use crate::Square;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const DIAGONAL: u64 = 0x8040_2010_0804_0201; // a1-h8
const ANTI_DIAGONAL: u64 = 0x0102_0408_1020_4080; // h1-a8

/// The attacks along one line through `s` (mask without `s`) that the byte swap mirrors.
#[inline(always)]
const fn hyperbola(occupied: u64, s: u64, mask: u64) -> u64 {
    let forward = occupied & mask;
    let reverse = forward.swap_bytes();
    let up = forward.wrapping_sub(s.wrapping_mul(2));
    let down = reverse.wrapping_sub(s.swap_bytes().wrapping_mul(2));
    (up ^ down.swap_bytes()) & mask
}

/// Shifts `bits` up by `n` ranks, down for negative `n` (|n| < 8), without a branch
/// (random squares would mispredict one): exactly one of the two shifts is non-zero.
#[inline(always)]
const fn shift_ranks(bits: u64, n: i32) -> u64 {
    let up = (8 * n) & !(n >> 31); // 8n if n >= 0, else 0
    let down = (-8 * n) & (n >> 31); // -8n if n < 0, else 0
    (bits >> down) << up
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    let s = sq.bit();
    let file = hyperbola(occupied, s, (FILE_A << sq.file() as u8) ^ s);
    file | rank_attacks(sq, occupied)
}

/// The attacks along the rank of `sq`, by the obstruction difference: blockers below and
/// above the slider; the attacks run from the highest blocker below (or the board's first
/// bit) to the lowest blocker above (or the rank's end). `reverse_bits` is a loop of
/// shifts on x86, so other targets take this form.
#[cfg(not(target_arch = "aarch64"))]
#[inline(always)]
const fn rank_attacks(sq: Square, occupied: u64) -> u64 {
    let s = sq.bit();
    let rank_mask = 0xffu64 << (sq.rank() as u8 * 8);
    let o = occupied & rank_mask;
    let below = o & (s - 1);
    let above = o & !((s << 1).wrapping_sub(1));
    let highest_below = 1u64 << (63 - (below | 1).leading_zeros());
    (above ^ above.wrapping_sub(highest_below)) & (rank_mask ^ s)
}

/// The attacks along the rank of `sq`, by `o - 2s` on the rank and on its bit-reversed
/// image (a bit reversal mirrors every line, ranks included). On aarch64 `reverse_bits`
/// is one `rbit`, which makes this the shorter form: in a release build, 11 instructions
/// after the square's set-up against 15 for the obstruction difference, and a chain of 6
/// from the occupancy to the result against 9. Counted, not timed (no ARM machine here).
#[cfg(any(target_arch = "aarch64", test))]
#[inline(always)]
const fn rank_attacks_reversed(sq: Square, occupied: u64) -> u64 {
    let s = sq.bit();
    let mask = (0xffu64 << (sq.rank() as u8 * 8)) ^ s;
    let forward = occupied & mask;
    let up = forward.wrapping_sub(s.wrapping_mul(2));
    let down = forward
        .reverse_bits()
        .wrapping_sub(s.reverse_bits().wrapping_mul(2));
    (up ^ down.reverse_bits()) & mask
}

#[cfg(target_arch = "aarch64")]
use rank_attacks_reversed as rank_attacks;

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    let s = sq.bit();
    let (file, rank) = (sq.file() as i32, sq.rank() as i32);
    let diagonal = shift_ranks(DIAGONAL, rank - file) ^ s;
    let anti_diagonal = shift_ranks(ANTI_DIAGONAL, rank + file - 7) ^ s;
    hyperbola(occupied, s, diagonal) | hyperbola(occupied, s, anti_diagonal)
}

backend_common! {
    const,
    name: "hyperbola",
    table_bytes: 0,
    tables: [],
}

#[cfg(test)]
mod tests {
    use super::*;
    use magic_gen::{relevant_mask, slow_attacks, subsets, Piece};

    /// The aarch64 rank code, checked on every host (tests/backends.rs covers whichever
    /// form the target compiles, under qemu for aarch64): every square, every subset of the
    /// rook's relevant mask, plus the rank's edge squares, whose bits must not matter.
    #[test]
    fn reversed_rank_attacks_match_the_ray_walk() {
        for sq in Square::ALL {
            let i = sq.index() as u8;
            let rank = 0xffu64 << (sq.rank() as u8 * 8);
            for occ in subsets(relevant_mask(Piece::Rook, i)) {
                for edges in [0, rank & 0x8181_8181_8181_8181, !rank] {
                    let occ = occ | edges;
                    assert_eq!(
                        rank_attacks_reversed(sq, occ),
                        slow_attacks(Piece::Rook, i, occ) & rank,
                        "{sq} {occ:#018x}"
                    );
                }
            }
        }
    }
}
