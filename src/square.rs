//! Board coordinates: [`Square`] (an index 0..64 that cannot be out of range) and
//! [`Squares`], the squares of a bitboard in order. Files, ranks and sides are in
//! `coords.rs`.

use core::fmt;
use core::str::FromStr;

use crate::{Color, File, Rank};

/// A square of the board, a1 = 0, h1 = 7, a8 = 56, h8 = 63.
///
/// Every value is on the board, so every lookup taking a `Square` is in bounds for any
/// input: there is no way to build a `Square` from a bad index without going through a
/// checked conversion ([`Square::new`], [`TryFrom`], [`FromStr`]).
///
/// ```
/// use magic_bitboards::Square;
///
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!(e4.index(), 28);
/// assert_eq!(Square::new(28), Some(e4));
/// assert_eq!(Square::new(64), None);
/// assert_eq!(e4.to_string(), "e4");
/// assert!("e9".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
pub enum Square {
    /// The square a1 (index 0).
    A1 = 0,
    /// The square b1 (index 1).
    B1 = 1,
    /// The square c1 (index 2).
    C1 = 2,
    /// The square d1 (index 3).
    D1 = 3,
    /// The square e1 (index 4).
    E1 = 4,
    /// The square f1 (index 5).
    F1 = 5,
    /// The square g1 (index 6).
    G1 = 6,
    /// The square h1 (index 7).
    H1 = 7,
    /// The square a2 (index 8).
    A2 = 8,
    /// The square b2 (index 9).
    B2 = 9,
    /// The square c2 (index 10).
    C2 = 10,
    /// The square d2 (index 11).
    D2 = 11,
    /// The square e2 (index 12).
    E2 = 12,
    /// The square f2 (index 13).
    F2 = 13,
    /// The square g2 (index 14).
    G2 = 14,
    /// The square h2 (index 15).
    H2 = 15,
    /// The square a3 (index 16).
    A3 = 16,
    /// The square b3 (index 17).
    B3 = 17,
    /// The square c3 (index 18).
    C3 = 18,
    /// The square d3 (index 19).
    D3 = 19,
    /// The square e3 (index 20).
    E3 = 20,
    /// The square f3 (index 21).
    F3 = 21,
    /// The square g3 (index 22).
    G3 = 22,
    /// The square h3 (index 23).
    H3 = 23,
    /// The square a4 (index 24).
    A4 = 24,
    /// The square b4 (index 25).
    B4 = 25,
    /// The square c4 (index 26).
    C4 = 26,
    /// The square d4 (index 27).
    D4 = 27,
    /// The square e4 (index 28).
    E4 = 28,
    /// The square f4 (index 29).
    F4 = 29,
    /// The square g4 (index 30).
    G4 = 30,
    /// The square h4 (index 31).
    H4 = 31,
    /// The square a5 (index 32).
    A5 = 32,
    /// The square b5 (index 33).
    B5 = 33,
    /// The square c5 (index 34).
    C5 = 34,
    /// The square d5 (index 35).
    D5 = 35,
    /// The square e5 (index 36).
    E5 = 36,
    /// The square f5 (index 37).
    F5 = 37,
    /// The square g5 (index 38).
    G5 = 38,
    /// The square h5 (index 39).
    H5 = 39,
    /// The square a6 (index 40).
    A6 = 40,
    /// The square b6 (index 41).
    B6 = 41,
    /// The square c6 (index 42).
    C6 = 42,
    /// The square d6 (index 43).
    D6 = 43,
    /// The square e6 (index 44).
    E6 = 44,
    /// The square f6 (index 45).
    F6 = 45,
    /// The square g6 (index 46).
    G6 = 46,
    /// The square h6 (index 47).
    H6 = 47,
    /// The square a7 (index 48).
    A7 = 48,
    /// The square b7 (index 49).
    B7 = 49,
    /// The square c7 (index 50).
    C7 = 50,
    /// The square d7 (index 51).
    D7 = 51,
    /// The square e7 (index 52).
    E7 = 52,
    /// The square f7 (index 53).
    F7 = 53,
    /// The square g7 (index 54).
    G7 = 54,
    /// The square h7 (index 55).
    H7 = 55,
    /// The square a8 (index 56).
    A8 = 56,
    /// The square b8 (index 57).
    B8 = 57,
    /// The square c8 (index 58).
    C8 = 58,
    /// The square d8 (index 59).
    D8 = 59,
    /// The square e8 (index 60).
    E8 = 60,
    /// The square f8 (index 61).
    F8 = 61,
    /// The square g8 (index 62).
    G8 = 62,
    /// The square h8 (index 63).
    H8 = 63,
}

impl Square {
    /// Every square in index order, a1 first.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1, Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2, Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3, Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4, Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5, Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6, Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7, Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8];

    /// Returns the square with index `index & 63`: infallible, for indices known to be on
    /// the board, such as `u64::trailing_zeros` of a non-empty bitboard.
    ///
    /// ```
    /// use magic_bitboards::Square;
    /// let pieces: u64 = 1 << 28;
    /// assert_eq!(Square::from_index_masked(pieces.trailing_zeros() as u8), Square::E4);
    /// assert_eq!(Square::from_index_masked(64 + 28), Square::E4);
    /// ```
    // A `match` rather than `Square::ALL[..]`: it compiles to the index itself, where the
    // array costs a load before every lookup (5-8% of perft(6) from the start position).
    #[inline]
    pub const fn from_index_masked(index: u8) -> Square {
        match index & 63 {
            0 => Square::A1,
            1 => Square::B1,
            2 => Square::C1,
            3 => Square::D1,
            4 => Square::E1,
            5 => Square::F1,
            6 => Square::G1,
            7 => Square::H1,
            8 => Square::A2,
            9 => Square::B2,
            10 => Square::C2,
            11 => Square::D2,
            12 => Square::E2,
            13 => Square::F2,
            14 => Square::G2,
            15 => Square::H2,
            16 => Square::A3,
            17 => Square::B3,
            18 => Square::C3,
            19 => Square::D3,
            20 => Square::E3,
            21 => Square::F3,
            22 => Square::G3,
            23 => Square::H3,
            24 => Square::A4,
            25 => Square::B4,
            26 => Square::C4,
            27 => Square::D4,
            28 => Square::E4,
            29 => Square::F4,
            30 => Square::G4,
            31 => Square::H4,
            32 => Square::A5,
            33 => Square::B5,
            34 => Square::C5,
            35 => Square::D5,
            36 => Square::E5,
            37 => Square::F5,
            38 => Square::G5,
            39 => Square::H5,
            40 => Square::A6,
            41 => Square::B6,
            42 => Square::C6,
            43 => Square::D6,
            44 => Square::E6,
            45 => Square::F6,
            46 => Square::G6,
            47 => Square::H6,
            48 => Square::A7,
            49 => Square::B7,
            50 => Square::C7,
            51 => Square::D7,
            52 => Square::E7,
            53 => Square::F7,
            54 => Square::G7,
            55 => Square::H7,
            56 => Square::A8,
            57 => Square::B8,
            58 => Square::C8,
            59 => Square::D8,
            60 => Square::E8,
            61 => Square::F8,
            62 => Square::G8,
            _ => Square::H8,
        }
    }

    /// Returns the square with index `index` (0..64), or `None` past h8.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square::from_index_masked(index))
        } else {
            None
        }
    }

    /// Returns the square with index `index` (0..64), or `None` past h8.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square::from_index_masked(index as u8))
        } else {
            None
        }
    }

    /// Returns the square on `file` (0 = a) and `rank` (0 = first rank), or `None` if
    /// either is 8 or more.
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square::from_index_masked(rank * 8 + file))
        } else {
            None
        }
    }

    /// Returns the index, 0 (a1) to 63 (h8).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Returns the file, [`File::A`] to [`File::H`]; `as u8` or [`File::index`] gives its
    /// index, 0 to 7.
    ///
    /// ```
    /// use magic_bitboards::{File, Square};
    /// const E: File = Square::E4.file();
    /// assert_eq!(E, File::E);
    /// assert_eq!(Square::H1.file() as u8, 7);
    /// ```
    #[inline]
    pub const fn file(self) -> File {
        File::from_index_masked(self as u8)
    }

    /// Returns the rank, [`Rank::First`] to [`Rank::Eighth`]; `as u8` or [`Rank::index`]
    /// gives its index, 0 to 7.
    ///
    /// ```
    /// use magic_bitboards::{Rank, Square};
    /// assert_eq!(Square::E4.rank(), Rank::Fourth);
    /// assert_eq!(Square::A8.rank().index(), 7);
    /// ```
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::from_index_masked(self as u8 >> 3)
    }

    /// Returns the bitboard with only this square set: `1 << index`.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self as u8
    }

    /// Returns the square on `file` and `rank`.
    ///
    /// ```
    /// use magic_bitboards::{File, Rank, Square};
    /// assert_eq!(Square::from_coords(File::E, Rank::Fourth), Square::E4);
    /// ```
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::from_index_masked(rank as u8 * 8 + file as u8)
    }

    /// Returns the square mirrored across the middle of the board, rank 1 to rank 8 (a1 and
    /// a8 swap, e2 and e7): the same square seen from the other side.
    ///
    /// ```
    /// use magic_bitboards::Square;
    /// assert_eq!(Square::E2.flip_rank(), Square::E7);
    /// ```
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square::from_index_masked(self as u8 ^ 56)
    }

    /// Returns the square mirrored across the middle files, a to h (a1 and h1 swap).
    ///
    /// ```
    /// use magic_bitboards::Square;
    /// assert_eq!(Square::B1.flip_file(), Square::G1);
    /// ```
    #[inline]
    pub const fn flip_file(self) -> Square {
        Square::from_index_masked(self as u8 ^ 7)
    }

    /// Returns the square as `color` sees it: itself for white, [`Square::flip_rank`] for
    /// black. One piece-square table, or one set of castling squares, serves both sides.
    ///
    /// ```
    /// use magic_bitboards::{Color, Square};
    /// assert_eq!(Square::G1.relative_to(Color::Black), Square::G8);
    /// assert_eq!(Square::G1.relative_to(Color::White), Square::G1);
    /// ```
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }
}

impl From<Square> for u8 {
    #[inline]
    fn from(sq: Square) -> u8 {
        sq as u8
    }
}

impl From<Square> for usize {
    #[inline]
    fn from(sq: Square) -> usize {
        sq as usize
    }
}

/// The error of converting a number of 64 or more into a [`Square`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareOutOfRange;

impl fmt::Display for SquareOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("square index out of range 0..64")
    }
}

/// So that `?` turns it into a `Box<dyn Error>` (or any error type that wraps errors).
impl core::error::Error for SquareOutOfRange {}

impl TryFrom<u8> for Square {
    type Error = SquareOutOfRange;

    #[inline]
    fn try_from(index: u8) -> Result<Square, SquareOutOfRange> {
        Square::new(index).ok_or(SquareOutOfRange)
    }
}

/// From `u32`, the type of `u64::trailing_zeros`.
///
/// ```
/// use magic_bitboards::Square;
/// let pieces: u64 = Square::E4.bit() | Square::H8.bit();
/// assert_eq!(Square::try_from(pieces.trailing_zeros()), Ok(Square::E4));
/// assert!(Square::try_from(0u64.trailing_zeros()).is_err()); // 64: an empty board
/// ```
impl TryFrom<u32> for Square {
    type Error = SquareOutOfRange;

    #[inline]
    fn try_from(index: u32) -> Result<Square, SquareOutOfRange> {
        if index < 64 {
            Ok(Square::from_index_masked(index as u8))
        } else {
            Err(SquareOutOfRange)
        }
    }
}

impl TryFrom<usize> for Square {
    type Error = SquareOutOfRange;

    #[inline]
    fn try_from(index: usize) -> Result<Square, SquareOutOfRange> {
        Square::from_index(index).ok_or(SquareOutOfRange)
    }
}

/// The error of parsing a string that is not a square name `a1`..`h8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square name: expected a file a-h and a rank 1-8, like \"e4\"")
    }
}

/// So that `?` turns it into a `Box<dyn Error>` (or any error type that wraps errors).
impl core::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses an algebraic name: a file `a`..`h` (either case) and a rank `1`..`8`.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match *s.as_bytes() {
            [file, rank] => {
                let file = file.to_ascii_lowercase().wrapping_sub(b'a');
                let rank = rank.wrapping_sub(b'1');
                Square::from_file_rank(file, rank).ok_or(ParseSquareError)
            }
            _ => Err(ParseSquareError),
        }
    }
}

impl fmt::Display for Square {
    /// Writes the algebraic name, e.g. `e4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = [b'a' + self.file() as u8, b'1' + self.rank() as u8];
        // Both bytes are ASCII letters or digits.
        f.write_str(core::str::from_utf8(&name).unwrap_or("??"))
    }
}

/// Returns the squares of `bitboard`, lowest index (a1) first; from the back with
/// [`DoubleEndedIterator::next_back`], highest first. Each step is a `trailing_zeros` (or
/// `leading_zeros`) and clears that bit.
///
/// ```
/// use magic_bitboards::{knight_attacks, squares, Square};
///
/// let targets: Vec<Square> = squares(knight_attacks(Square::A1)).collect();
/// assert_eq!(targets, [Square::C2, Square::B3]);
/// assert_eq!(squares(u64::MAX).len(), 64);
/// assert_eq!(squares(u64::MAX).next_back(), Some(Square::H8));
/// ```
#[inline]
pub const fn squares(bitboard: u64) -> Squares {
    Squares(bitboard)
}

/// The squares of a bitboard, in index order: see [`squares`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squares(u64);

impl Squares {
    /// Returns the squares not yet visited, as a bitboard.
    #[inline]
    pub const fn remaining(self) -> u64 {
        self.0
    }
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_masked(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }

    #[inline]
    fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    #[inline]
    fn last(mut self) -> Option<Square> {
        self.next_back()
    }
}

impl DoubleEndedIterator for Squares {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_masked(63 - self.0.leading_zeros() as u8);
        self.0 ^= sq.bit();
        Some(sq)
    }
}

impl ExactSizeIterator for Squares {}

impl core::iter::FusedIterator for Squares {}
