//! The lines and sides of the board: [`File`], [`Rank`] and [`Color`], with the bitboards
//! of files and ranks, the flips between the two sides, and their names as text.

use core::fmt;
use core::str::FromStr;

use crate::Square;

/// A side: the colour whose pawns attack up the board (white) or down (black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// White: pawns move towards rank 8.
    White,
    /// Black: pawns move towards rank 1.
    Black,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// Returns 0 for white and 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Returns the other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Returns the letter FEN uses for the side to move: `'w'` or `'b'`.
    #[inline]
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Returns the colour's name, `"white"` or `"black"`: what [`Display`](fmt::Display)
    /// writes.
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    /// Writes the name, `white` or `black` (the FEN letter is [`Color::char`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The error of parsing a string that is not a colour: see [`Color`]'s `FromStr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseColorError;

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a colour: expected \"white\", \"black\", \"w\" or \"b\"")
    }
}

/// So that `?` turns it into a `Box<dyn Error>`.
impl core::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;

    /// Parses the name or the FEN letter, in either case: `white`, `w`, `black`, `b`.
    ///
    /// ```
    /// use magic_bitboards::Color;
    /// assert_eq!("w".parse(), Ok(Color::White));
    /// assert_eq!("Black".parse(), Ok(Color::Black));
    /// assert_eq!(Color::Black.to_string().parse(), Ok(Color::Black));
    /// ```
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        // The FEN letter is the name's first letter.
        Color::ALL
            .into_iter()
            .find(|c| s.eq_ignore_ascii_case(c.name()) || s.eq_ignore_ascii_case(&c.name()[..1]))
            .ok_or(ParseColorError)
    }
}

impl core::ops::Not for Color {
    type Output = Color;

    /// Returns the other colour.
    #[inline]
    fn not(self) -> Color {
        self.opposite()
    }
}

/// A file of the board, `A` (a1..a8) to `H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum File {
    /// The a-file (index 0).
    A,
    /// The b-file.
    B,
    /// The c-file.
    C,
    /// The d-file.
    D,
    /// The e-file.
    E,
    /// The f-file.
    F,
    /// The g-file.
    G,
    /// The h-file (index 7).
    H,
}

impl File {
    /// Every file, a first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// Returns the file with index `index` (0 = a), or `None` from 8 on.
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// Returns the file of `sq`: [`Square::file`].
    #[inline]
    pub const fn of(sq: Square) -> File {
        sq.file()
    }

    /// Returns the file with index `index & 7`. A `match` rather than `File::ALL[..]`, so
    /// that [`Square::file`] compiles to a mask without a load, as
    /// [`Square::from_index_masked`] does.
    #[inline]
    pub(crate) const fn from_index_masked(index: u8) -> File {
        match index & 7 {
            0 => File::A,
            1 => File::B,
            2 => File::C,
            3 => File::D,
            4 => File::E,
            5 => File::F,
            6 => File::G,
            _ => File::H,
        }
    }

    /// Returns the index, 0 (a) to 7 (h).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Returns the bitboard of the file's eight squares.
    ///
    /// ```
    /// use magic_bitboards::{File, Square};
    /// assert_eq!(File::A.bitboard(), 0x0101_0101_0101_0101);
    /// assert!(File::of(Square::E4).bitboard() & Square::E8.bit() != 0);
    /// ```
    #[inline]
    pub const fn bitboard(self) -> u64 {
        0x0101_0101_0101_0101 << self as u8
    }

    /// Returns the file mirrored across the middle of the board (a and h swap).
    #[inline]
    pub const fn flip(self) -> File {
        File::ALL[7 - self as usize]
    }

    /// Returns the file's letter, `'a'` to `'h'`: what [`Display`](fmt::Display) writes.
    #[inline]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }
}

impl From<File> for u8 {
    /// Returns the index, 0 (a) to 7 (h).
    #[inline]
    fn from(file: File) -> u8 {
        file as u8
    }
}

impl From<File> for usize {
    /// Returns the index, 0 (a) to 7 (h).
    #[inline]
    fn from(file: File) -> usize {
        file as usize
    }
}

impl fmt::Display for File {
    /// Writes the letter, `a` to `h`, as in the square name `e4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.char().encode_utf8(&mut [0; 4]))
    }
}

/// The error of parsing a string that is not a file letter: see [`File`]'s `FromStr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseFileError;

impl fmt::Display for ParseFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a file: expected one letter a-h")
    }
}

/// So that `?` turns it into a `Box<dyn Error>`.
impl core::error::Error for ParseFileError {}

impl FromStr for File {
    type Err = ParseFileError;

    /// Parses one letter `a`..`h`, in either case (as [`Square`] parses its file).
    ///
    /// ```
    /// use magic_bitboards::File;
    /// assert_eq!("e".parse(), Ok(File::E));
    /// assert_eq!("H".parse(), Ok(File::H));
    /// assert!("i".parse::<File>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<File, ParseFileError> {
        match *s.as_bytes() {
            [letter] => File::new(letter.to_ascii_lowercase().wrapping_sub(b'a')),
            _ => None,
        }
        .ok_or(ParseFileError)
    }
}

/// A rank of the board, `First` (a1..h1) to `Eighth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// The first rank (index 0), white's back rank.
    First,
    /// The second rank.
    Second,
    /// The third rank.
    Third,
    /// The fourth rank.
    Fourth,
    /// The fifth rank.
    Fifth,
    /// The sixth rank.
    Sixth,
    /// The seventh rank.
    Seventh,
    /// The eighth rank (index 7), black's back rank.
    Eighth,
}

impl Rank {
    /// Every rank, the first first.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// Returns the rank with index `index` (0 = first), or `None` from 8 on.
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// Returns the rank of `sq`: [`Square::rank`].
    #[inline]
    pub const fn of(sq: Square) -> Rank {
        sq.rank()
    }

    /// Returns the rank with index `index & 7` (a `match`, as [`File`]'s is).
    #[inline]
    pub(crate) const fn from_index_masked(index: u8) -> Rank {
        match index & 7 {
            0 => Rank::First,
            1 => Rank::Second,
            2 => Rank::Third,
            3 => Rank::Fourth,
            4 => Rank::Fifth,
            5 => Rank::Sixth,
            6 => Rank::Seventh,
            _ => Rank::Eighth,
        }
    }

    /// Returns the index, 0 (first rank) to 7 (eighth).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Returns the bitboard of the rank's eight squares.
    ///
    /// ```
    /// use magic_bitboards::{Color, Rank};
    /// assert_eq!(Rank::Second.bitboard(), 0xff00);
    /// // Pawns that promote with their next push, for either side:
    /// let seventh = |color| Rank::Seventh.relative_to(color).bitboard();
    /// assert_eq!(seventh(Color::Black), Rank::Second.bitboard());
    /// ```
    #[inline]
    pub const fn bitboard(self) -> u64 {
        0xff << (8 * self as u8)
    }

    /// Returns the rank mirrored across the middle of the board (first and eighth swap).
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// Returns the rank as `color` sees it: itself for white, [`Rank::flip`] for black
    /// (black's `Second` is the seventh rank).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// Returns the rank's digit, `'1'` to `'8'`: what [`Display`](fmt::Display) writes.
    #[inline]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
}

impl From<Rank> for u8 {
    /// Returns the index, 0 (first rank) to 7 (eighth).
    #[inline]
    fn from(rank: Rank) -> u8 {
        rank as u8
    }
}

impl From<Rank> for usize {
    /// Returns the index, 0 (first rank) to 7 (eighth).
    #[inline]
    fn from(rank: Rank) -> usize {
        rank as usize
    }
}

impl fmt::Display for Rank {
    /// Writes the digit, `1` to `8`, as in the square name `e4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.char().encode_utf8(&mut [0; 4]))
    }
}

/// The error of parsing a string that is not a rank digit: see [`Rank`]'s `FromStr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseRankError;

impl fmt::Display for ParseRankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a rank: expected one digit 1-8")
    }
}

/// So that `?` turns it into a `Box<dyn Error>`.
impl core::error::Error for ParseRankError {}

impl FromStr for Rank {
    type Err = ParseRankError;

    /// Parses one digit `1`..`8`.
    ///
    /// ```
    /// use magic_bitboards::Rank;
    /// assert_eq!("4".parse(), Ok(Rank::Fourth));
    /// assert!("0".parse::<Rank>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Rank, ParseRankError> {
        match *s.as_bytes() {
            [digit] => Rank::new(digit.wrapping_sub(b'1')),
            _ => None,
        }
        .ok_or(ParseRankError)
    }
}
