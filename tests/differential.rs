//! Differential test against an independent implementation: every backend compiled into
//! this build against cozy-chess's slider tables (its own black magics or PEXT, built by its
//! own build script) on seeded random (square, occupancy) pairs, for rook, bishop and queen.
//!
//! `cargo test` runs a short version; the full one, 10 million pairs per backend, is
//! `#[ignore]`d and run by `.ci/run` with `--ignored` in each of its builds (so the PEXT
//! backends are covered by the x86-64-v3 build).

#![cfg(not(miri))]

use cozy_chess::{get_bishop_moves, get_rook_moves, BitBoard};
use magic_bitboards::Square;

mod common;

use common::backends;

/// splitmix64: seeded, no dependency, and unrelated to the generators used elsewhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A square and an occupancy of mixed density (sparse positions are the common case in
    /// play; dense ones reach the short rays).
    fn pair(&mut self) -> (usize, u64) {
        let r = self.next();
        let sq = (r & 63) as usize;
        let occ = match (r >> 6) & 3 {
            0 => self.next() & self.next() & self.next(),
            1 => self.next() & self.next(),
            2 => self.next(),
            _ => self.next() | self.next(),
        };
        (sq, occ)
    }
}

fn run(pairs_per_backend: u64, seed: u64) {
    for (name, rook, bishop, queen) in backends() {
        let mut rng = Rng(seed);
        for _ in 0..pairs_per_backend {
            let (i, occ) = rng.pair();
            let cozy_sq = cozy_chess::Square::index(i);
            let r = get_rook_moves(cozy_sq, BitBoard(occ)).0;
            let b = get_bishop_moves(cozy_sq, BitBoard(occ)).0;
            let sq = Square::ALL[i];
            assert_eq!(rook(sq, occ), r, "{name} rook {sq} {occ:#018x}");
            assert_eq!(bishop(sq, occ), b, "{name} bishop {sq} {occ:#018x}");
            assert_eq!(queen(sq, occ), r | b, "{name} queen {sq} {occ:#018x}");
        }
        println!("{name}: {pairs_per_backend} pairs agree with cozy-chess");
    }
}

#[test]
fn every_backend_agrees_with_cozy_chess() {
    run(100_000, 0x00d1_ff00_0001);
}

/// 10 million pairs per backend; `.ci/run` runs it (`-- --ignored`).
#[test]
#[ignore = "10 million pairs per backend: run by .ci/run with --ignored"]
fn every_backend_agrees_with_cozy_chess_on_ten_million_pairs() {
    run(10_000_000, 0x00d1_ff00_0002);
}
