//! The climbs' moves against what they promise: which bits flip and how often, counted over
//! every value of the random bits a move reads. Then the climbs on small inputs with small
//! patience, each result pinned (from this version's climbs: a change to a climb's
//! improvement test, stale counter, stop test or bound moves them) beside what each climb
//! promises; milliseconds each, so a broken climb fails here long before it would run to
//! its bound in the hunts.

use std::sync::atomic::AtomicBool;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{
    climb, climbs_per_block, clump_climb, density_climb, flip_one_or_two, flip_one_to_three,
    stopped, Effort, CLIMB_PATIENCE,
};
use crate::geometry::Piece;
use crate::index::Variant;
use crate::occupancy::SquareData;
use crate::search::candidates::sparse_candidate;
use crate::search::{pack_cost, EpochTable};

/// Returns, over every `r` below `2^bits`, how many moves of `flip` changed 0, 1, 2 and 3
/// bits of `magic`, and how often each of the 64 bits changed.
fn histogram(flip: fn(u64, u64) -> u64, magic: u64, bits: u32) -> ([u64; 4], [u64; 64]) {
    let mut changed = [0u64; 4];
    let mut per_bit = [0u64; 64];
    for r in 0..1u64 << bits {
        let diff = flip(magic, r) ^ magic;
        changed[diff.count_ones() as usize] += 1;
        let mut rest = diff;
        while rest != 0 {
            per_bit[rest.trailing_zeros() as usize] += 1;
            rest &= rest - 1;
        }
    }
    (changed, per_bit)
}

#[test]
fn flip_one_or_two_flips_one_bit_half_the_time_and_two_the_other_half() {
    // It reads 14 bits of its random word: the first bit (6 bits), whether to flip a second
    // (1 bit; bit 7 is unused) and the second bit (6 bits).
    const WORDS: u64 = 1 << 14;
    for magic in [0, u64::MAX, 0x0080_0010_2040_0080] {
        let (changed, per_bit) = histogram(flip_one_or_two, magic, 14);
        // Half the words flip one bit; the other half two, the same bit twice (no change)
        // in 1 of 64.
        let twice = WORDS / 2 / 64;
        assert_eq!(
            changed,
            [twice, WORDS / 2, WORDS / 2 - twice, 0],
            "{magic:#x}"
        );
        // Every bit as likely as any other.
        assert!(per_bit.iter().all(|&n| n == per_bit[0]), "{per_bit:?}");
        // Words past the bits it reads move the same bits.
        assert_eq!(
            flip_one_or_two(magic, 0x4A7 | 0xFFFF_0000_0000_0000),
            flip_one_or_two(magic, 0x4A7)
        );
    }
}

#[test]
fn flip_one_to_three_flips_one_two_or_three_bits_in_3_3_2_eighths() {
    // It reads 21 bits: the first bit (6), how many bits to flip (3: 0..3 one, 3..6 two,
    // 6..8 three) and the second and third bits (6 each).
    const BITS: u32 = 21;
    let per_choice = 1u64 << (BITS - 3);
    let (one, two, three) = (3 * per_choice, 3 * per_choice, 2 * per_choice);
    // Of 64 x 64 second bits one in 64 repeats the first (no change); of 64^3 triples,
    // 64 * 63 * 62 are three distinct bits and the rest change one bit (two cancel).
    let cancel = two / 64;
    let distinct = three / (64 * 64 * 64) * (64 * 63 * 62);
    let expected = [cancel, one + (three - distinct), two - cancel, distinct];
    for magic in [0, u64::MAX, 0x0080_0010_2040_0080] {
        let (changed, per_bit) = histogram(flip_one_to_three, magic, BITS);
        assert_eq!(changed, expected, "{magic:#x}");
        assert!(per_bit.iter().all(|&n| n == per_bit[0]), "{per_bit:?}");
        assert_eq!(
            flip_one_to_three(magic, 0x1_2345 | 0xFFFF_FF00_0000_0000),
            flip_one_to_three(magic, 0x1_2345)
        );
    }
}

/// Returns the entries of `piece` on `sq` keyed for `variant`, a table of `bits` index
/// bits, and the first sparse candidate of seed `seed` that `accept` takes.
fn square(
    variant: Variant,
    piece: Piece,
    sq: u8,
    bits: u8,
    seed: u64,
    accept: impl Fn(&mut EpochTable, &[(u64, u8)], u64) -> bool,
) -> (Vec<(u64, u8)>, EpochTable, u64) {
    let entries = SquareData::new(piece, sq, variant).entries();
    let mut table = EpochTable::new(bits);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = (0..1_000_000)
        .map(|_| sparse_candidate(&mut rng))
        .find(|&m| accept(&mut table, &entries, m))
        .expect("no candidate in a million");
    (entries, table, start)
}

/// Returns how many words `after` drew since it was `before`: the moves a climb made
/// (density and reduced-bits climbs draw one a move).
fn draws(before: &Xoshiro256PlusPlus, after: &Xoshiro256PlusPlus) -> u64 {
    let mut rng = before.clone();
    for n in 0..10_000_000 {
        if &rng == after {
            return n;
        }
        rng.next_u64();
    }
    panic!("more than ten million draws");
}

#[test]
fn stopped_looks_at_the_flag_every_1024_moves() {
    let (set, unset) = (AtomicBool::new(true), AtomicBool::new(false));
    for moves in [0, 1024, 4096] {
        assert!(stopped(Some(&set), moves));
        assert!(!stopped(Some(&unset), moves));
        assert!(!stopped(None, moves));
    }
    for moves in [1, 512, 1023, 1025] {
        assert!(!stopped(Some(&set), moves));
    }
}

#[test]
fn climbs_per_block_evaluate_4096_occupancies_a_move() {
    for popcount in 5..=12u8 {
        assert_eq!(climbs_per_block(popcount) << popcount, 4096, "{popcount}");
    }
    assert_eq!(climbs_per_block(13), 1);
}

/// A black bishop on c1 (5 mask bits, fixed 9 index bits) from its first valid sparse
/// candidate of seed 7.
fn black_bishop() -> (Vec<(u64, u8)>, EpochTable, u64) {
    let bits = Variant::Black.default_bits(Piece::Bishop, 2);
    square(Variant::Black, Piece::Bishop, 2, bits, 7, |t, e, m| {
        t.measure(e, m, bits).is_some()
    })
}

#[test]
fn a_density_climb_keeps_moves_that_do_not_cost_more_until_patience_runs_out() {
    let (entries, mut table, start) = black_bishop();
    let bits = Variant::Black.default_bits(Piece::Bishop, 2);
    let cost = |(used, span): (u32, u32)| pack_cost(used, span);
    let start_cost = cost(table.measure(&entries, start, bits).unwrap());
    let mut results = Vec::new();
    for patience in [1, 3, 5, 40, 1000] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(patience.into());
        let before = rng.clone();
        let (magic, measured) = density_climb(
            &entries,
            bits,
            start,
            &mut rng,
            &mut table,
            Effort::unstopped(patience),
        );
        // What it returns is the magic's own measure, never dearer than the start.
        assert_eq!(table.measure(&entries, magic, bits), Some(measured));
        assert!(cost(measured) <= start_cost);
        let moves = draws(&before, &rng);
        assert!(moves >= u64::from(patience));
        results.push((magic, cost(measured), moves));
    }
    assert_eq!(start_cost, 548);
    assert_eq!(
        results,
        [
            (0x0002_08a0_1141_2028, 546, 2),
            (0x0002_08a0_1941_0028, 548, 3),
            (0x8002_08a0_1941_0028, 508, 8),
            (0x5482_0884_19f4_e89e, 377, 132),
            // More moves than the start's cost plus the patience: a bound of (cost + 1) x
            // patience, not one of cost + 1 + patience.
            (0x1480_4010_23df_c373, 97, 2920),
        ]
    );
}

#[test]
fn a_density_climb_from_an_invalid_start_or_told_to_stop_returns_at_once() {
    let (entries, mut table, start) = black_bishop();
    let bits = Variant::Black.default_bits(Piece::Bishop, 2);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let before = rng.clone();
    let stop = AtomicBool::new(true);
    let measured = table.measure(&entries, start, bits).unwrap();
    let climb = density_climb(
        &entries,
        bits,
        start,
        &mut rng,
        &mut table,
        Effort {
            steps: 40,
            stop: Some(&stop),
        },
    );
    assert_eq!(climb, (start, measured));
    // Magic 0 sends every key to slot 0.
    let climb = density_climb(
        &entries,
        bits,
        0,
        &mut rng,
        &mut table,
        Effort::unstopped(40),
    );
    assert_eq!(climb, (0, (u32::MAX, u32::MAX)));
    assert_eq!(rng, before);
    // Not told to stop, the same climb as without a flag.
    stop.store(false, std::sync::atomic::Ordering::Relaxed);
    let flagged = density_climb(
        &entries,
        bits,
        start,
        &mut rng,
        &mut table,
        Effort {
            steps: 5,
            stop: Some(&stop),
        },
    );
    let mut rng = before.clone();
    let plain = density_climb(
        &entries,
        bits,
        start,
        &mut rng,
        &mut table,
        Effort::unstopped(5),
    );
    assert_eq!(flagged, plain);
}

#[test]
fn a_clump_climb_returns_the_magic_of_the_fewest_blocked_slots_it_met() {
    let bits = Variant::White.default_bits(Piece::Bishop, 2);
    let (entries, mut table, start) =
        square(Variant::White, Piece::Bishop, 2, bits, 7, |t, e, m| {
            t.clumped(e, m, bits).is_some()
        });
    let blocked = |table: &mut EpochTable, m| table.blocked(&entries, m, bits).unwrap();
    let start_blocked = blocked(&mut table, start);
    let mut results = Vec::new();
    for moves in [0, 1, 30, 300] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(moves.into());
        let before = rng.clone();
        let magic = clump_climb(
            &entries,
            bits,
            start,
            &mut rng,
            &mut table,
            Effort::unstopped(moves),
        )
        .unwrap();
        let fewer = blocked(&mut table, magic);
        assert!(fewer < start_blocked || magic == start);
        results.push((magic, fewer, draws(&before, &rng)));
    }
    assert_eq!(start_blocked, 120);
    assert_eq!(
        results,
        [
            (start, 120, 0),
            (0x0002_08a0_1141_0028, 104, 2),
            (0xc002_b8a0_a859_aa38, 104, 53),
            (0x2c76_6b1a_6d89_2220, 51, 540),
        ]
    );
    // Told to stop, it draws nothing; from a start that is no magic, it returns none.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let stop = AtomicBool::new(true);
    let climb = clump_climb(
        &entries,
        bits,
        start,
        &mut rng,
        &mut table,
        Effort {
            steps: 300,
            stop: Some(&stop),
        },
    );
    assert_eq!(climb, Some(start));
    assert_eq!(
        clump_climb(
            &entries,
            bits,
            0,
            &mut rng,
            &mut table,
            Effort::unstopped(300)
        ),
        None
    );
    assert_eq!(rng, Xoshiro256PlusPlus::seed_from_u64(1));
}

#[test]
fn a_reduced_bits_climb_ends_at_no_conflicts_or_after_its_patience() {
    // Bishop a1: 6 mask bits and 7 distinct attack sets.
    let entries = SquareData::new(Piece::Bishop, 0, Variant::Fancy).entries();
    let mut results = Vec::new();
    for (bits, seed) in [(5, 300), (5, 1), (2, 1)] {
        let mut table = EpochTable::new(bits);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let start = sparse_candidate(&mut rng);
        let before = rng.clone();
        let found = climb(&entries, bits, start, &mut rng, &mut table);
        let moves = draws(&before, &rng);
        if let Some(magic) = found {
            assert_eq!(table.conflicts(&entries, magic, bits), 0);
        } else {
            // Without a magic, it gives up after its patience.
            assert!(moves >= u64::from(CLIMB_PATIENCE));
        }
        results.push((found, moves));
    }
    // The last: 4 slots cannot hold 7 attack sets.
    assert_eq!(
        results,
        [
            (Some(0xd146_60f8_d45d_03ff), 242),
            (None, 2732),
            (None, 1204)
        ]
    );
}
