//! Vector Hyperbola Quintessence (AVX2): a queen's file, diagonal and anti-diagonal side by
//! side in three 64-bit lanes of one 256-bit register, its rank from a 512-byte table.
//!
//! Each of those three lines has at most one square per rank, so reversing the byte order
//! of a lane (one `vpshufb` for all lanes at once) mirrors the line, which is all the
//! `o - 2s` trick needs. A byte swap does not mirror a rank; its attacks come from a table
//! indexed by the slider's file and the six inner squares of the rank (the edge squares
//! never block anything beyond them). With one cache line of line masks per square, the
//! backend links 4.5 KiB: no table lookup waits on a miss the way an 800 KiB one does.
//! The tables are `static`s built by const evaluation (4.5 KiB need no build script).
//! Compiled only for x86_64 targets with AVX2 (decided at compile time, src/backend/mod.rs).

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_and_si256, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_load_si256, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_sub_epi64,
    _mm256_xor_si256, _mm_and_si128, _mm_cvtsi128_si64, _mm_load_si128, _mm_or_si128,
    _mm_set1_epi64x, _mm_setr_epi8, _mm_shuffle_epi8, _mm_sub_epi64, _mm_unpackhi_epi64,
    _mm_xor_si128,
};
use core::mem::size_of;

use crate::Square;

/// Bytes of table this backend links in: the per-square line records and the rank table.
const BYTES: usize = size_of::<[Lines; 64]>() + size_of::<[[u8; 64]; 8]>();

/// One square's lines, in the lane order of the vector code. One cache line per square,
/// aligned so that `_mm256_load_si256` (which needs 32 bytes) may read `masks`.
#[repr(C, align(64))]
struct Lines {
    /// Diagonal, anti-diagonal, file, and an empty fourth lane, each without the square.
    /// The diagonals come first so that a bishop reads the low 128 bits only.
    masks: [u64; 4],
    /// The square's bit doubled, `2s` of `o - 2s` (0 for h8: the subtraction then borrows
    /// nothing, which is what the trick needs there).
    twice: u64,
    /// The same for the vertically mirrored square.
    twice_mirrored: u64,
}

/// Returns the squares on the line through `sq` in direction `(df, dr)` and the opposite
/// one, without `sq`.
const fn line(sq: usize, df: i32, dr: i32) -> u64 {
    let mut bits = 0;
    let mut sign = -1;
    while sign <= 1 {
        let (mut f, mut r) = ((sq % 8) as i32 + sign * df, (sq / 8) as i32 + sign * dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            bits |= 1u64 << (r * 8 + f);
            f += sign * df;
            r += sign * dr;
        }
        sign += 2;
    }
    bits
}

const fn lines() -> [Lines; 64] {
    let mut t = [const {
        Lines {
            masks: [0; 4],
            twice: 0,
            twice_mirrored: 0,
        }
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq].masks = [line(sq, 1, 1), line(sq, 1, -1), line(sq, 0, 1), 0];
        t[sq].twice = (1u64 << sq).wrapping_shl(1);
        t[sq].twice_mirrored = (1u64 << (sq ^ 56)).wrapping_shl(1);
        sq += 1;
    }
    t
}

static LINES: [Lines; 64] = lines();

/// `RANK_ATTACKS[file][inner]`: the attacks along its rank (as a byte, bit = file) of a
/// slider on `file` when the rank's squares b..g are occupied as the six bits of `inner`.
static RANK_ATTACKS: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occupied = inner << 1;
            let mut attacks = 0u8;
            let mut f = file as i32 - 1;
            while f >= 0 {
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
                f -= 1;
            }
            let mut f = file as i32 + 1;
            while f < 8 {
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            t[file][inner] = attacks;
            inner += 1;
        }
        file += 1;
    }
    t
};

/// Returns the attacks along the rank of `sq`.
#[inline(always)]
fn rank_attacks(sq: Square, occupied: u64) -> u64 {
    let shift = u32::from(sq.rank() as u8) * 8;
    let inner = (occupied >> (shift + 1)) & 63;
    u64::from(RANK_ATTACKS[usize::from(sq.file())][inner as usize]) << shift
}

/// Returns the attacks along the file of `sq`: scalar `o - 2s` with `swap_bytes`.
#[inline(always)]
fn file_attacks(l: &Lines, occupied: u64) -> u64 {
    let mask = l.masks[2];
    let forward = occupied & mask;
    let up = forward.wrapping_sub(l.twice);
    let down = forward.swap_bytes().wrapping_sub(l.twice_mirrored);
    (up ^ down.swap_bytes()) & mask
}

/// Returns the union of the attacks along the diagonal, anti-diagonal and file of `l`'s
/// square: `o - 2s` in three lanes at once, then the lanes ORed together.
#[inline(always)]
fn three_lines(l: &Lines, occupied: u64) -> u64 {
    // SAFETY: this module is compiled only for targets with `avx2` (build.rs sets
    // `mb_backend` from CARGO_CFG_TARGET_FEATURE; src/backend/mod.rs stops the build if this
    // compiler pass disagrees), so every CPU the binary is built for executes these. The one memory access, the
    // aligned 32-byte load, reads `l.masks`, a `[u64; 4]` of 32 bytes at offset 0 of a
    // `repr(C, align(64))` record (test `masks_are_aligned_for_the_vector_loads`).
    unsafe {
        let masks = _mm256_load_si256(l.masks.as_ptr().cast::<__m256i>());
        // Reverses the bytes of each 64-bit lane.
        let swap = _mm256_setr_epi8(
            7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14,
            13, 12, 11, 10, 9, 8,
        );
        let forward = _mm256_and_si256(_mm256_set1_epi64x(occupied as i64), masks);
        let up = _mm256_sub_epi64(forward, _mm256_set1_epi64x(l.twice as i64));
        let mirrored = _mm256_shuffle_epi8(forward, swap);
        let down = _mm256_sub_epi64(mirrored, _mm256_set1_epi64x(l.twice_mirrored as i64));
        let attacks =
            _mm256_and_si256(_mm256_xor_si256(up, _mm256_shuffle_epi8(down, swap)), masks);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(attacks),
            _mm256_extracti128_si256::<1>(attacks),
        );
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }
}

/// Returns the union of the attacks along the two diagonals of `l`'s square: the low half
/// of [`three_lines`], in one 128-bit register.
#[inline(always)]
fn diagonals(l: &Lines, occupied: u64) -> u64 {
    // SAFETY: as in `three_lines` (the 128-bit forms need only SSSE3, which AVX2 implies);
    // the aligned 16-byte load reads the first half of `l.masks`.
    unsafe {
        let masks = _mm_load_si128(l.masks.as_ptr().cast::<__m128i>());
        let swap = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
        let forward = _mm_and_si128(_mm_set1_epi64x(occupied as i64), masks);
        let up = _mm_sub_epi64(forward, _mm_set1_epi64x(l.twice as i64));
        let mirrored = _mm_shuffle_epi8(forward, swap);
        let down = _mm_sub_epi64(mirrored, _mm_set1_epi64x(l.twice_mirrored as i64));
        let attacks = _mm_and_si128(_mm_xor_si128(up, _mm_shuffle_epi8(down, swap)), masks);
        _mm_cvtsi128_si64(_mm_or_si128(attacks, _mm_unpackhi_epi64(attacks, attacks))) as u64
    }
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    // Two lines: scalar code is shorter than a vector round trip.
    file_attacks(&LINES[sq.index()], occupied) | rank_attacks(sq, occupied)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    diagonals(&LINES[sq.index()], occupied)
}

/// Returns the squares a queen on `sq` attacks given the `occupied` squares: the file
/// and both diagonals in one vector pass, the rank from the table meanwhile.
#[inline]
pub fn queen_attacks(sq: Square, occupied: u64) -> u64 {
    three_lines(&LINES[sq.index()], occupied) | rank_attacks(sq, occupied)
}

// No registry tables: build.rs writes none for this backend (its `static`s are const
// evaluated here, and the exhaustive tests check every entry through the lookups).
backend_common! {
    own_queen,
    name: "hyperbola_avx2",
    table_bytes: BYTES,
    tables: [],
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use magic_gen::{relevant_mask, slow_attacks, subsets, Piece};
    use std::vec::Vec;

    #[test]
    fn masks_are_aligned_for_the_vector_loads() {
        assert_eq!(core::mem::align_of::<Lines>(), 64);
        assert_eq!(size_of::<Lines>(), 64);
        for l in &LINES {
            let address = l.masks.as_ptr() as usize;
            assert_eq!(address % 32, 0);
            assert_eq!(address, l as *const Lines as usize);
        }
        // The vector load reads exactly the four lanes: the fourth is empty, and each
        // lane's mask is what the scalar ray walk gives on an empty board.
        for sq in Square::ALL {
            let l = &LINES[sq.index()];
            let i = sq.index() as u8;
            assert_eq!(l.masks[3], 0);
            assert_eq!(
                l.masks[0] | l.masks[1],
                slow_attacks(Piece::Bishop, i, 0),
                "{sq}"
            );
            assert_eq!(
                l.masks[2] | rank_attacks(sq, 0),
                slow_attacks(Piece::Rook, i, 0),
                "{sq}"
            );
        }
    }

    #[test]
    fn table_bytes_are_the_two_tables() {
        assert_eq!(TABLE_BYTES, 64 * 64 + 512);
        assert_eq!(BYTES, TABLE_BYTES);
        assert_eq!(
            TABLE_BYTES,
            core::mem::size_of_val(&LINES) + core::mem::size_of_val(&RANK_ATTACKS)
        );
    }

    #[test]
    fn every_square_and_relevant_subset_matches_the_ray_walk() {
        for sq in Square::ALL {
            let i = sq.index() as u8;
            for occ in subsets(relevant_mask(Piece::Rook, i)) {
                assert_eq!(
                    rook_attacks(sq, occ),
                    slow_attacks(Piece::Rook, i, occ),
                    "{sq}"
                );
            }
            for occ in subsets(relevant_mask(Piece::Bishop, i)) {
                assert_eq!(
                    bishop_attacks(sq, occ),
                    slow_attacks(Piece::Bishop, i, occ),
                    "{sq}"
                );
            }
            // Queen: every rook subset, each with a bishop subset that walks through all
            // of them, so every line sees every pattern.
            let bishop: Vec<u64> = subsets(relevant_mask(Piece::Bishop, i)).collect();
            for (n, rook) in subsets(relevant_mask(Piece::Rook, i)).enumerate() {
                let occ = rook | bishop[n % bishop.len()];
                let expected =
                    slow_attacks(Piece::Rook, i, occ) | slow_attacks(Piece::Bishop, i, occ);
                assert_eq!(queen_attacks(sq, occ), expected, "{sq} {occ:#018x}");
            }
            for &occ in &bishop {
                let expected =
                    slow_attacks(Piece::Rook, i, occ) | slow_attacks(Piece::Bishop, i, occ);
                assert_eq!(queen_attacks(sq, occ), expected, "{sq} {occ:#018x}");
            }
        }
    }

    #[test]
    fn bits_off_the_lines_and_on_the_edges_are_ignored() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for sq in Square::ALL {
            let i = sq.index() as u8;
            for n in 0..600 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = match n % 3 {
                    0 => x,
                    1 => x | sq.bit(),
                    _ => !0,
                };
                let rook = slow_attacks(Piece::Rook, i, occ);
                let bishop = slow_attacks(Piece::Bishop, i, occ);
                assert_eq!(rook_attacks(sq, occ), rook, "{sq} {occ:#018x}");
                assert_eq!(bishop_attacks(sq, occ), bishop, "{sq} {occ:#018x}");
                assert_eq!(queen_attacks(sq, occ), rook | bishop, "{sq} {occ:#018x}");
            }
        }
    }
}
