//! Board geometry shared by the generator, the runtime's `build.rs` and the tests:
//! square names, relevant occupancy masks, the slow ray walk and subset enumeration.
//!
//! Squares are numbered a1 = 0, h1 = 7, a8 = 56, h8 = 63.

use core::fmt;

/// A sliding piece whose attacks come from a magic table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// Moves along ranks and files.
    Rook,
    /// Moves along diagonals.
    Bishop,
}

impl Piece {
    /// Both sliders, rook first: the order of every per-piece array in this crate.
    pub const ALL: [Piece; 2] = [Piece::Rook, Piece::Bishop];

    /// Returns 0 for the rook and 1 for the bishop.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Returns the ray directions as (file step, rank step).
    pub const fn directions(self) -> [(i8, i8); 4] {
        match self {
            Piece::Rook => [(1, 0), (-1, 0), (0, 1), (0, -1)],
            Piece::Bishop => [(1, 1), (1, -1), (-1, 1), (-1, -1)],
        }
    }

    /// Returns the index bits of a plain or fixed-shift table: 12 for rooks, 9 for bishops.
    pub const fn fixed_bits(self) -> u8 {
        match self {
            Piece::Rook => 12,
            Piece::Bishop => 9,
        }
    }

    /// Returns the lower-case name used in files and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
        }
    }

    /// Parses "rook" or "bishop" (any case).
    pub fn parse(s: &str) -> Option<Piece> {
        if s.eq_ignore_ascii_case("rook") {
            Some(Piece::Rook)
        } else if s.eq_ignore_ascii_case("bishop") {
            Some(Piece::Bishop)
        } else {
            None
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Returns the algebraic name of square `sq` (0..64), e.g. "e4" for 28.
pub fn square_name(sq: u8) -> String {
    let file = (b'a' + (sq & 7)) as char;
    let rank = (b'1' + (sq >> 3)) as char;
    format!("{file}{rank}")
}

/// Parses an algebraic square name ("a1".."h8", lower or upper case file) into 0..64.
pub fn parse_square(s: &str) -> Option<u8> {
    match s.as_bytes() {
        [f, r] => {
            let f = f.to_ascii_lowercase();
            if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(r) {
                Some((r - b'1') * 8 + (f - b'a'))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// One square of a set: a piece and its square. A set's 128 squares are numbered rook
/// a1..h8 (0..64) then bishop a1..h8 (64..128), the order of its entries, pools and jobs;
/// the arithmetic between the two lives here only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SetSquare {
    /// The piece.
    pub piece: Piece,
    /// Its square, a1 = 0.
    pub square: u8,
}

impl SetSquare {
    /// Returns the square of number `i` (0..128).
    pub const fn from_index(i: usize) -> SetSquare {
        SetSquare {
            piece: Piece::ALL[i / 64],
            square: (i % 64) as u8,
        }
    }

    /// Returns its number in 0..128.
    pub const fn index(self) -> usize {
        self.piece.index() * 64 + self.square as usize
    }

    /// Returns the 128 squares of a set in their order, rook a1 first.
    #[cfg(any(test, feature = "search"))]
    pub fn all() -> impl Iterator<Item = SetSquare> {
        (0..128).map(SetSquare::from_index)
    }
}

impl fmt::Display for SetSquare {
    /// "rook e4", as files and messages name a square of a set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.piece, square_name(self.square))
    }
}

/// Returns the attacks of `piece` on `sq` given `occupied`, by walking each ray until it
/// leaves the board or hits a blocker (the blocker itself is attacked). The reference
/// every table is checked against.
pub const fn slow_attacks(piece: Piece, sq: u8, occupied: u64) -> u64 {
    let dirs = piece.directions();
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq & 7) as i8 + df;
        let mut r = (sq >> 3) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// Returns the squares whose occupancy can change the attacks of `piece` on `sq`: the
/// empty-board rays without their last square (a blocker on the board edge changes nothing).
pub const fn relevant_mask(piece: Piece, sq: u8) -> u64 {
    let dirs = piece.directions();
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq & 7) as i8 + df;
        let mut r = (sq >> 3) as i8 + dr;
        // Stop one square early: include a square only if the next one is still on the board.
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// Returns the number of relevant squares of `piece` on `sq`: the index bits a perfect
/// (PEXT or standard fancy) index needs.
pub(crate) const fn relevant_bits(piece: Piece, sq: u8) -> u8 {
    relevant_mask(piece, sq).count_ones() as u8
}

/// Returns the empty-board attacks of `piece` on `sq`.
pub const fn empty_board_attacks(piece: Piece, sq: u8) -> u64 {
    slow_attacks(piece, sq, 0)
}

/// Returns how many distinct attack sets `piece` on `sq` has over its relevant
/// occupancies, by the slow ray walk: what any table of its attacks must tell apart (rook
/// e4: 4 x 3 x 3 x 4 = 144 places where its rays can end). Only the search asks.
#[cfg(any(test, feature = "search"))]
pub(crate) fn attack_set_count(piece: Piece, sq: u8) -> usize {
    let mut sets: Vec<u64> = subsets(relevant_mask(piece, sq))
        .map(|occ| slow_attacks(piece, sq, occ))
        .collect();
    sets.sort_unstable();
    sets.dedup();
    sets.len()
}

/// Returns the fewest index bits any table of `piece` on `sq` can have: its
/// 2^bits slots must hold its distinct attack sets ([`attack_set_count`]), so that
/// no search for fewer can end (rook e4's 144 attack sets need 256 slots: 8 bits). Computed
/// once for every square.
#[cfg(any(test, feature = "search"))]
pub(crate) fn least_bits(piece: Piece, sq: u8) -> u8 {
    static LEAST: std::sync::OnceLock<[[u8; 64]; 2]> = std::sync::OnceLock::new();
    let least = LEAST.get_or_init(|| {
        Piece::ALL.map(|p| {
            core::array::from_fn(|s| {
                let sets = attack_set_count(p, s as u8);
                sets.next_power_of_two().trailing_zeros() as u8
            })
        })
    });
    least[piece.index()][usize::from(sq & 63)]
}

/// Iterates over every subset of a mask, starting with the empty set, using the
/// carry-rippler `sub = (sub - mask) & mask`. Yields `2^popcount(mask)` values.
#[derive(Clone, Debug)]
struct Subsets {
    mask: u64,
    next: u64,
    done: bool,
}

impl Iterator for Subsets {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.done {
            return None;
        }
        let current = self.next;
        self.next = current.wrapping_sub(self.mask) & self.mask;
        self.done = self.next == 0;
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Exact only before iteration starts; a lower bound of 0 otherwise is still valid.
        (0, Some(1usize << self.mask.count_ones()))
    }
}

/// Returns an iterator over every subset of `mask` (carry-rippler order, empty set first).
pub fn subsets(mask: u64) -> impl Iterator<Item = u64> + Clone {
    Subsets {
        mask,
        next: 0,
        done: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_popcounts_match_the_known_layout() {
        // Standard bits: rook 12 in the corners, 10 in the middle; bishop 6..9.
        let rook: u32 = (0..64)
            .map(|s| relevant_mask(Piece::Rook, s).count_ones())
            .sum();
        let bishop: u32 = (0..64)
            .map(|s| relevant_mask(Piece::Bishop, s).count_ones())
            .sum();
        assert_eq!(relevant_mask(Piece::Rook, 0).count_ones(), 12);
        assert_eq!(relevant_mask(Piece::Rook, 27).count_ones(), 10);
        assert_eq!(relevant_mask(Piece::Bishop, 27).count_ones(), 9);
        assert_eq!(relevant_mask(Piece::Bishop, 0).count_ones(), 6);
        // 102,400 rook and 5,248 bishop entries in a fancy table (Stockfish's sizes).
        let rook_entries: u64 = (0..64)
            .map(|s| 1u64 << relevant_mask(Piece::Rook, s).count_ones())
            .sum();
        let bishop_entries: u64 = (0..64)
            .map(|s| 1u64 << relevant_mask(Piece::Bishop, s).count_ones())
            .sum();
        assert_eq!((rook_entries, bishop_entries), (0x19000, 0x1480));
        assert_eq!((rook, bishop), (672, 364));
    }

    #[test]
    fn rook_a1_mask_excludes_edges() {
        // b1..g1 and a2..a7.
        assert_eq!(relevant_mask(Piece::Rook, 0), 0x0001_0101_0101_017e);
    }

    #[test]
    fn slow_attacks_stop_at_blockers() {
        // Rook on d4 with blockers on d6 and b4.
        let occ = (1u64 << parse_square("d6").unwrap()) | (1u64 << parse_square("b4").unwrap());
        let a = slow_attacks(Piece::Rook, parse_square("d4").unwrap(), occ);
        let expected = [
            "d5", "d6", "c4", "b4", "e4", "f4", "g4", "h4", "d3", "d2", "d1",
        ]
        .iter()
        .fold(0u64, |b, s| b | 1u64 << parse_square(s).unwrap());
        assert_eq!(a, expected);
    }

    #[test]
    fn subsets_enumerate_each_exactly_once() {
        let mask = relevant_mask(Piece::Bishop, 27);
        let all: Vec<u64> = subsets(mask).collect();
        assert_eq!(all.len(), 1 << mask.count_ones());
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
        assert!(all.iter().all(|s| s & !mask == 0));
        assert_eq!(subsets(0).collect::<Vec<_>>(), vec![0]);
    }

    #[test]
    fn square_names_round_trip() {
        for sq in 0..64u8 {
            assert_eq!(parse_square(&square_name(sq)), Some(sq));
        }
        assert_eq!(parse_square("e4"), Some(28));
        assert_eq!(parse_square("E4"), Some(28));
        for bad in ["", "e", "e9", "i1", "e44", "4e", "é4"] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
    }

    #[test]
    fn set_squares_number_rooks_then_bishops() {
        let all: Vec<SetSquare> = SetSquare::all().collect();
        assert_eq!(all.len(), 128);
        for (i, s) in all.iter().enumerate() {
            assert_eq!(s.index(), i);
            assert_eq!(SetSquare::from_index(i), *s);
        }
        let e4 = SetSquare {
            piece: Piece::Rook,
            square: 28,
        };
        assert_eq!((all[28], e4.to_string()), (e4, "rook e4".to_string()));
        assert_eq!(all[127].to_string(), "bishop h8");
    }

    #[test]
    fn a_square_s_attack_sets_are_the_products_of_its_ray_lengths() {
        // Each ray ends at any of its squares (the edge one when empty): the sets are the
        // products of the ray lengths, and the least bits index that many slots.
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let rays: usize = piece
                    .directions()
                    .iter()
                    .map(|&(df, dr)| {
                        let (mut f, mut r, mut len) = ((sq & 7) as i8, (sq >> 3) as i8, 0);
                        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
                            (f, r, len) = (f + df, r + dr, len + 1);
                        }
                        len.max(1)
                    })
                    .product();
                assert_eq!(attack_set_count(piece, sq), rays, "{piece} {sq}");
                let least = least_bits(piece, sq);
                assert!(1usize << least >= rays && 1usize << (least - 1) < rays);
                assert!(least <= relevant_bits(piece, sq), "{piece} {sq}");
            }
        }
        let e4 = parse_square("e4").unwrap();
        assert_eq!(
            (
                attack_set_count(Piece::Rook, e4),
                least_bits(Piece::Rook, e4)
            ),
            (144, 8)
        );
        assert_eq!(
            (
                attack_set_count(Piece::Bishop, e4),
                least_bits(Piece::Bishop, e4)
            ),
            (108, 7)
        );
    }
}
