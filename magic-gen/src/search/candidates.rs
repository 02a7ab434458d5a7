//! The candidate space: an indexable stream of sparse random magics per job, cut into
//! blocks so it can be split into disjoint shards and resumed exactly.
//!
//! Candidate `i` of a job is the `i % BLOCK_LEN`-th draw of block `i / BLOCK_LEN`, whose
//! xoshiro stream is seeded from (seed, variant, piece, square, bits, block). Shard `K/N`
//! scans blocks `K, K + N, K + 2N, ...`, so N shards together scan exactly what one run
//! scans, and a run stopped after block b resumes at block b + N.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::Piece;
use crate::index::Variant;

/// Candidates per block: the unit of scheduling, sharding and checkpointing.
pub(crate) const BLOCK_LEN: u64 = 4096;

/// One of `count` disjoint slices of the candidate space (`index` is 0-based).
///
/// ```
/// use magic_gen::search::Shard;
///
/// let shard = Shard { index: 1, count: 4 };
/// assert_eq!(shard.to_string(), "1/4");
/// assert_eq!(Shard::WHOLE.to_string(), "0/1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which slice, 0..count.
    pub index: u32,
    /// How many slices the space is cut into.
    pub count: u32,
}

impl Shard {
    /// The whole space.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `K/N` with `0 <= K < N`.
    pub(crate) fn parse(s: &str) -> Result<Shard, ShardError> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| ShardError::NotKOfN(s.to_string()))?;
        let number = |word: &str, part| {
            word.trim()
                .parse::<u32>()
                .map_err(|_| ShardError::NotANumber {
                    part,
                    word: word.to_string(),
                })
        };
        let (index, count) = (number(k, "index")?, number(n, "count")?);
        if count == 0 || index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Returns the global block number of this shard's `n`-th block.
    pub const fn block(self, n: u64) -> u64 {
        n * self.count as u64 + self.index as u64
    }
}

impl core::fmt::Display for Shard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a shard's `K/N` does not parse ([`Shard::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShardError {
    /// Not two numbers around a `/`: the text given.
    NotKOfN(String),
    /// The index or the count (`part`) is not a number: the word given.
    NotANumber {
        /// `"index"` or `"count"`.
        part: &'static str,
        /// The word given.
        word: String,
    },
    /// Not `0 <= K < N`.
    OutOfRange {
        /// K.
        index: u32,
        /// N.
        count: u32,
    },
}

impl core::fmt::Display for ShardError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ShardError::NotKOfN(s) => write!(f, "shard '{s}' must be K/N, e.g. 0/8"),
            ShardError::NotANumber { part, word } => {
                write!(f, "shard {part} '{word}' is not a number")
            }
            ShardError::OutOfRange { index, count } => write!(
                f,
                "shard {index}/{count}: need 0 <= K < N (shards are numbered from 0)"
            ),
        }
    }
}

impl std::error::Error for ShardError {}

/// Returns a SplitMix64 finaliser of `x`: a cheap, well-mixed hash.
const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Identifies one job's candidate stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Stream {
    pub(crate) seed: u64,
    pub(crate) variant: Variant,
    pub(crate) piece: Piece,
    pub(crate) square: u8,
    pub(crate) bits: u8,
}

impl Stream {
    /// Returns the random generator of global block `block`.
    pub(crate) fn block_rng(&self, block: u64) -> Xoshiro256PlusPlus {
        let mut x = self.seed;
        for part in [
            self.variant as u64,
            self.piece as u64,
            self.square as u64,
            self.bits as u64,
            block,
        ] {
            x = mix(x.wrapping_add(0x9e37_79b9_7f4a_7c15).wrapping_add(part));
        }
        Xoshiro256PlusPlus::seed_from_u64(x)
    }

    /// Returns the candidates of global block `block` as (candidate index, magic).
    pub(crate) fn block(&self, block: u64) -> impl Iterator<Item = (u64, u64)> {
        (block * BLOCK_LEN..).zip(self.magics(block))
    }

    /// Returns the starting points of the reduced-bit climbs of global block `block` as
    /// (candidate index, magic): sparse words of three fresh draws each, so no two climbs
    /// start from words that share bits by construction.
    pub(crate) fn climb_starts(&self, block: u64) -> impl Iterator<Item = (u64, u64)> {
        let mut rng = self.block_rng(block);
        (block * BLOCK_LEN..(block + 1) * BLOCK_LEN)
            .map(move |index| (index, sparse_candidate(&mut rng)))
    }

    /// Returns the magics of global block `block`, in candidate order: sparse words for
    /// fancy and plain, and for the packed variants the families [`Family`] describes.
    pub(crate) fn magics(&self, block: u64) -> Magics {
        let mut rng = self.block_rng(block);
        let family = Family::of(self.variant);
        let window = match family {
            Family::Sparse => {
                let before = rng.next_u64();
                [rng.next_u64(), before]
            }
            _ => [0; 2],
        };
        Magics {
            rng,
            family,
            left: BLOCK_LEN,
            window,
        }
    }
}

/// How a variant's candidates are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Fancy and plain: a sparse word, the quickest to find a magic (any magic will do).
    /// Each is the AND of the last three words drawn, a window that slides by one word per
    /// candidate: one draw a candidate instead of three. Neighbours share words, yet as few
    /// candidates find a magic as with three fresh words each (docs/results/search-speed.md).
    Sparse,
    /// Black: a sparse word `m` made one of `m`, `3m`, `-m` and `-3m`. Many of the published
    /// record's magics are negated sparse words (dense) or sums of adjacent bit pairs, and
    /// those give used indices in blocks with holes that other squares fill.
    Black,
    /// White: four forms, a quarter each, the shapes of the published white magics.
    /// The difference of two sparse words (a sparse top over a run of ones), which on
    /// white keys uses far fewer slots than the black family. Words of 2 to 6 bits
    /// ([`few_bits`]), which give compact ranges of one slot per subset. Negated sparse
    /// words: the published rook magics of ranks 5-8 are `2^(56 - file) - x`, whose high
    /// part vanishes on every key of those squares, so they index as `-x`. A sparse word
    /// minus a [`small`] number, the form of the published rook magics of ranks 1-3
    /// (`0x004000888847ffff` is `0x0040008888480000 - 1`), which a difference almost never
    /// draws. Each form shortened the packed table (docs/results/hunts.md).
    White,
}

impl Family {
    /// Returns the family `variant` draws from.
    fn of(variant: Variant) -> Family {
        match variant {
            Variant::Black | Variant::BlackOverlay | Variant::BlackRookOverlay => Family::Black,
            Variant::White => Family::White,
            _ => Family::Sparse,
        }
    }
}

/// The magics of one block (or of its first `left`), drawn in order.
pub(crate) struct Magics {
    rng: Xoshiro256PlusPlus,
    family: Family,
    left: u64,
    /// [`Family::Sparse`]: the last two words drawn, the latest first, which the next
    /// candidate ANDs with a new one.
    window: [u64; 2],
}

impl Magics {
    /// Returns the first `count` of these magics only.
    pub(crate) fn take_first(mut self, count: u64) -> Magics {
        self.left = self.left.min(count);
        self
    }
}

impl Iterator for Magics {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        match self.family {
            Family::Sparse => {
                let word = self.rng.next_u64();
                let [last, before] = self.window;
                self.window = [word, last];
                Some(word & last & before)
            }
            Family::Black => {
                let magic = sparse_candidate(&mut self.rng);
                let r = self.rng.next_u64();
                let m = if r & 2 != 0 {
                    magic.wrapping_mul(3)
                } else {
                    magic
                };
                Some(if r & 1 != 0 { m.wrapping_neg() } else { m })
            }
            Family::White => {
                let magic = sparse_candidate(&mut self.rng);
                let r = self.rng.next_u64();
                Some(match r % 4 {
                    0 => few_bits(r >> 2),
                    1 => magic.wrapping_neg(),
                    2 => magic.wrapping_sub(sparse_candidate(&mut self.rng)),
                    _ => magic.wrapping_sub(small(r >> 2)),
                })
            }
        }
    }
}

/// Returns a number of 1 to 3 set bits below bit 24, drawn from `r`: what the published
/// white rook magics of ranks 1-3 take from a sparse word (c2 `0x007fe80042ffffe8` is
/// `0x007fe80043000000 - 0x18`, a1 `0x00280077ffebfffe` is `0x0028007800000000 -
/// 0x140002`; [`Family::White`]).
fn small(r: u64) -> u64 {
    let width = 1 + r % 24;
    let count = 1 + (r / 24 % 3) as usize;
    digits(r / 72, width, 3)
        .take(count)
        .fold(0, |word, p| word | 1 << p)
}

/// Returns a word of 2 to 6 set bits at positions drawn from `r`: the shape of the
/// published white magics that pack without holes (rook c3 `0x0004000802010008` puts
/// each mask bit on its own index bit, so its 1,024 subsets fill 1,024 slots in a row).
fn few_bits(r: u64) -> u64 {
    let count = 2 + (r % 5) as usize;
    digits(r / 5, 64, 6)
        .take(count)
        .fold(0, |word, p| word | 1 << p)
}

/// Returns the lowest `n` digits of `r` in base `base`, the lowest first: the bit positions
/// [`small`] and [`few_bits`] draw. A fixed number, so a count drawn wrong cannot run on.
fn digits(r: u64, base: u64, n: usize) -> impl Iterator<Item = u64> {
    (0..n).scan(r, move |rest, _| {
        let digit = *rest % base;
        *rest /= base;
        Some(digit)
    })
}

/// Returns a sparse random candidate: the AND of three random words (about 8 bits set),
/// the density that finds magics fastest (averaged over 20 seeds: AND of two is 7x and
/// AND of four 3x slower).
pub(crate) fn sparse_candidate(rng: &mut Xoshiro256PlusPlus) -> u64 {
    rng.next_u64() & rng.next_u64() & rng.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_blocks() {
        let mut seen = [0u32; 40];
        for k in 0..4 {
            let s = Shard { index: k, count: 4 };
            for n in 0..10 {
                seen[s.block(n) as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }

    #[test]
    fn shard_parsing_checks_bounds() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        for bad in ["8/8", "1/0", "x/2", "3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_block_is_the_same_whenever_it_is_drawn() {
        let s = Stream {
            seed: 5,
            variant: Variant::Black,
            piece: Piece::Rook,
            square: 9,
            bits: 12,
        };
        let block = |b: u64| -> Vec<_> { s.block(b).take(BLOCK_LEN as usize).collect() };
        let a = block(7);
        assert_eq!(a, block(7));
        assert_eq!(a[0].0, 7 * BLOCK_LEN);
        assert_ne!(a, block(8));
    }

    /// Returns the magics of block `b` of `s`, checking there are [`BLOCK_LEN`]: read
    /// through `take`, so a stream that never ends fails here instead of hanging the test
    /// (and the others waiting for a thread).
    fn drawn(s: &Stream, b: u64) -> Vec<u64> {
        let magics: Vec<u64> = s.magics(b).take(BLOCK_LEN as usize + 1).collect();
        assert_eq!(magics.len(), BLOCK_LEN as usize);
        magics
    }

    #[test]
    fn every_block_holds_block_len_candidates_numbered_from_its_first() {
        for variant in [Variant::Fancy, Variant::Black, Variant::White] {
            let s = Stream {
                seed: 3,
                variant,
                piece: Piece::Bishop,
                square: 27,
                bits: 9,
            };
            // Bounded by `take`, so a stream that never ends fails instead of hanging.
            let len = BLOCK_LEN as usize;
            assert_eq!(s.magics(5).take(len + 1).count(), len, "{variant}");
            assert_eq!(s.magics(5).take_first(10).take(len).count(), 10);
            let numbered = |it: &mut dyn Iterator<Item = (u64, u64)>| {
                it.take(len + 1).map(|(i, _)| i).collect::<Vec<u64>>()
            };
            let block: Vec<u64> = (5 * BLOCK_LEN..6 * BLOCK_LEN).collect();
            assert_eq!(numbered(&mut s.block(5)), block);
            assert_eq!(numbered(&mut s.climb_starts(5)), block);
        }
    }

    #[test]
    fn a_quarter_of_the_white_candidates_have_at_most_six_bits_and_a_quarter_are_negated() {
        let s = Stream {
            seed: 1,
            variant: Variant::White,
            piece: Piece::Rook,
            square: 18,
            bits: 12,
        };
        let magics = drawn(&s, 0);
        let few = magics.iter().filter(|m| m.count_ones() <= 6).count() as f64;
        // A quarter drawn as few bits (0.2527 here); a difference of two sparse words has
        // 6 bits or fewer far less often.
        assert!((0.23..0.3).contains(&(few / BLOCK_LEN as f64)), "{few}");
        // A quarter negated sparse words: their negation is sparse again (up to 20 bits),
        // which neither a difference nor a sparse word minus a small number is, mostly.
        // (0.291 here: a few differences of two sparse words are negative and pass too.)
        let negated = magics
            .iter()
            .filter(|m| m.wrapping_neg().count_ones() <= 20)
            .count();
        assert!(
            (0.25..0.33).contains(&(negated as f64 / BLOCK_LEN as f64)),
            "{negated}"
        );
        for r in [0, 1, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert!((1..=6).contains(&few_bits(r).count_ones()));
        }
        // Every count from 2 to 6 comes up, and the positions cover the word.
        let words: Vec<u64> = (0..5000u64).map(|k| few_bits(mix(k))).collect();
        for count in 2..=6 {
            assert!(words.iter().any(|w| w.count_ones() == count));
        }
        assert_eq!(words.iter().fold(0, |all, w| all | w), u64::MAX);
    }

    #[test]
    fn a_quarter_of_the_white_candidates_are_a_sparse_word_minus_a_small_number() {
        let s = Stream {
            seed: 2,
            variant: Variant::White,
            piece: Piece::Rook,
            square: 6,
            bits: 12,
        };
        // Redraw the block: a candidate of this form is a sparse word minus `small` of the
        // same draw.
        let mut rng = s.block_rng(0);
        let mut small_ones = 0;
        for magic in drawn(&s, 0) {
            let word = sparse_candidate(&mut rng);
            let r = rng.next_u64();
            match r % 4 {
                2 => {
                    sparse_candidate(&mut rng);
                }
                3 => {
                    assert_eq!(magic, word.wrapping_sub(small(r >> 2)));
                    small_ones += 1;
                }
                _ => {}
            }
        }
        assert!((900..1150).contains(&small_ones), "{small_ones}");
        let numbers: Vec<u64> = (0..5000u64).map(|k| small(mix(k))).collect();
        for &n in &numbers {
            assert!((1..=3).contains(&n.count_ones()) && n < 1 << 24, "{n:#x}");
        }
        // Every bit below 24 comes up, and 1 (the commonest in the published set) often.
        assert_eq!(numbers.iter().fold(0, |all, n| all | n), (1 << 24) - 1);
        assert!(numbers.iter().filter(|&&n| n == 1).count() > 50);
    }

    #[test]
    fn fancy_candidates_and_a_sliding_window_of_three_words() {
        let s = Stream {
            seed: 3,
            variant: Variant::Fancy,
            piece: Piece::Rook,
            square: 2,
            bits: 12,
        };
        let mut rng = s.block_rng(4);
        let words: Vec<u64> = (0..66).map(|_| rng.next_u64()).collect();
        let magics: Vec<u64> = s.magics(4).take_first(64).take(65).collect();
        assert_eq!(magics.len(), 64);
        for (k, &magic) in magics.iter().enumerate() {
            assert_eq!(
                magic,
                words[k] & words[k + 1] & words[k + 2],
                "candidate {k}"
            );
        }
        // Still sparse: about 8 bits each.
        let bits: u32 = magics.iter().map(|m| m.count_ones()).sum();
        assert!((6 * 64..10 * 64).contains(&bits), "{bits}");
    }

    #[test]
    fn black_candidates_draw_four_words_each() {
        // The committed black sets and their state files depend on this stream.
        let s = Stream {
            seed: 1,
            variant: Variant::Black,
            piece: Piece::Bishop,
            square: 27,
            bits: 9,
        };
        let mut rng = s.block_rng(0);
        for magic in s.magics(0).take_first(100).take(101) {
            let m = rng.next_u64() & rng.next_u64() & rng.next_u64();
            let r = rng.next_u64();
            let m = if r & 2 != 0 { m.wrapping_mul(3) } else { m };
            assert_eq!(magic, if r & 1 != 0 { m.wrapping_neg() } else { m });
        }
    }
}
