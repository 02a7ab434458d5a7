//! The climbs' moves against what they promise: which bits flip and how often, counted over
//! every value of the random bits a move reads.

use super::{flip_one_or_two, flip_one_to_three};

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
