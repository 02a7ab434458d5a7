//! Board representation: six piece-type bitboards, two colour bitboards, copy-make.

use super::attacks::Color;

pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// Castling-right bits.
pub const WK: u8 = 1;
pub const WQ: u8 = 2;
pub const BK: u8 = 4;
pub const BQ: u8 = 8;

/// `ep` value meaning "no en-passant square".
pub const NO_EP: u8 = 64;

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const RANK_1: u64 = 0xff;
pub const RANK_3: u64 = RANK_1 << 16;
pub const RANK_6: u64 = RANK_1 << 40;
pub const RANK_8: u64 = RANK_1 << 56;

/// A position. Copied whole on every move (`make` returns a new board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Pieces of both colours by type (`PAWN`..`KING`).
    pub pieces: [u64; 6],
    /// All pieces of a colour (`WHITE`, `BLACK`).
    pub colors: [u64; 2],
    /// Side to move (`WHITE` or `BLACK`).
    pub side: u8,
    /// En-passant target square (the square the capturing pawn lands on) or `NO_EP`.
    pub ep: u8,
    /// Castling rights (`WK | WQ | BK | BQ`).
    pub castling: u8,
    pub halfmove: u16,
    pub fullmove: u16,
}

/// Move kinds (`Move::kind`); promotions are `PROMO | piece`.
pub const NORMAL: u8 = 0;
pub const DOUBLE_PUSH: u8 = 1;
pub const EN_PASSANT: u8 = 2;
pub const CASTLE: u8 = 3;
pub const PROMO: u8 = 8;

/// A move: origin, destination, the moving piece type and its kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub piece: u8,
    pub kind: u8,
}

impl Move {
    /// The promotion piece type, if this is a promotion.
    pub fn promotion(self) -> Option<usize> {
        (self.kind & PROMO != 0).then_some((self.kind & 7) as usize)
    }
}

impl core::fmt::Display for Move {
    /// UCI notation: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", SquareName(self.from), SquareName(self.to))?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", ['p', 'n', 'b', 'r', 'q', 'k'][p])?;
        }
        Ok(())
    }
}

/// Displays a square index as `e4`.
pub struct SquareName(pub u8);

impl core::fmt::Display for SquareName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let file = (b'a' + self.0 % 8) as char;
        let rank = (b'1' + self.0 / 8) as char;
        write!(f, "{file}{rank}")
    }
}

/// Castling rights kept when a move touches a square (from or to).
const CASTLE_KEEP: [u8; 64] = {
    let mut t = [0xfu8; 64];
    t[0] = !WQ & 0xf;
    t[4] = !(WK | WQ) & 0xf;
    t[7] = !WK & 0xf;
    t[56] = !BQ & 0xf;
    t[60] = !(BK | BQ) & 0xf;
    t[63] = !BK & 0xf;
    t
};

/// Compile-time side to move: lets the generator fold every colour decision.
pub trait Side: Copy {
    const US: usize;
    const THEM: usize;
    const COLOR: Color;
    const THEM_COLOR: Color;
    type Other: Side;
    /// Pawn push as a square delta (+8 or -8).
    const UP: i32;
    /// Capture towards the a-file / towards the h-file as square deltas.
    const UP_WEST: i32;
    const UP_EAST: i32;
    /// Rank a pawn reaches after its first single push (double-push candidates).
    const PUSH_RANK: u64;
    /// The promotion rank.
    const LAST_RANK: u64;
    /// Castling: right bits, king start square, king destinations,
    /// squares that must be empty and squares that must not be attacked.
    const KS: u8;
    const QS: u8;
    const KING_HOME: u8;
    const KS_EMPTY: u64;
    const QS_EMPTY: u64;
    const KS_TO: u8;
    const QS_TO: u8;
}

#[derive(Clone, Copy)]
pub struct White;
#[derive(Clone, Copy)]
pub struct Black;

impl Side for White {
    const US: usize = WHITE;
    const THEM: usize = BLACK;
    const COLOR: Color = Color::White;
    const THEM_COLOR: Color = Color::Black;
    type Other = Black;
    const UP: i32 = 8;
    const UP_WEST: i32 = 7;
    const UP_EAST: i32 = 9;
    const PUSH_RANK: u64 = RANK_3;
    const LAST_RANK: u64 = RANK_8;
    const KS: u8 = WK;
    const QS: u8 = WQ;
    const KING_HOME: u8 = 4;
    const KS_EMPTY: u64 = 0x60;
    const QS_EMPTY: u64 = 0x0e;
    const KS_TO: u8 = 6;
    const QS_TO: u8 = 2;
}

impl Side for Black {
    const US: usize = BLACK;
    const THEM: usize = WHITE;
    const COLOR: Color = Color::Black;
    const THEM_COLOR: Color = Color::White;
    type Other = White;
    const UP: i32 = -8;
    const UP_WEST: i32 = -9;
    const UP_EAST: i32 = -7;
    const PUSH_RANK: u64 = RANK_6;
    const LAST_RANK: u64 = RANK_1;
    const KS: u8 = BK;
    const QS: u8 = BQ;
    const KING_HOME: u8 = 60;
    const KS_EMPTY: u64 = 0x60 << 56;
    const QS_EMPTY: u64 = 0x0e << 56;
    const KS_TO: u8 = 62;
    const QS_TO: u8 = 58;
}

/// Shifts a bitboard by a signed square delta (constant-folded for constant deltas).
#[inline(always)]
pub const fn shift(b: u64, delta: i32) -> u64 {
    if delta >= 0 {
        b << delta
    } else {
        b >> -delta
    }
}

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board {
            pieces: [
                0x00ff_0000_0000_ff00,
                0x4200_0000_0000_0042,
                0x2400_0000_0000_0024,
                0x8100_0000_0000_0081,
                0x0800_0000_0000_0008,
                0x1000_0000_0000_0010,
            ],
            colors: [0xffff, 0xffff_0000_0000_0000],
            side: WHITE as u8,
            ep: NO_EP,
            castling: WK | WQ | BK | BQ,
            halfmove: 0,
            fullmove: 1,
        }
    }

    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.colors[WHITE] | self.colors[BLACK]
    }

    /// Piece type on a square, if any.
    pub fn piece_at(&self, sq: u8) -> Option<(usize, usize)> {
        let b = 1u64 << sq;
        let color = if self.colors[WHITE] & b != 0 {
            WHITE
        } else if self.colors[BLACK] & b != 0 {
            BLACK
        } else {
            return None;
        };
        let piece = (0..6).find(|&p| self.pieces[p] & b != 0)?;
        Some((color, piece))
    }

    /// Plays a move generated for side `S` on this board, returning the new board.
    #[inline(always)]
    pub fn make<S: Side>(&self, m: Move) -> Board {
        let mut b = *self;
        let from = 1u64 << m.from;
        let to = 1u64 << m.to;
        // Captures: clear the destination in every type and in the opponent's set.
        // Branch-free, since captures are unpredictable.
        let cap = self.colors[S::THEM] & to;
        for p in &mut b.pieces {
            *p &= !cap;
        }
        b.colors[S::THEM] &= !to;
        let moved = from | to;
        b.pieces[m.piece as usize] ^= moved;
        b.colors[S::US] ^= moved;
        b.ep = NO_EP;
        match m.kind {
            NORMAL => {}
            DOUBLE_PUSH => b.ep = ((m.from as i32 + S::UP) & 63) as u8,
            EN_PASSANT => {
                let victim = 1u64 << (m.to ^ 8);
                b.pieces[PAWN] ^= victim;
                b.colors[S::THEM] ^= victim;
            }
            CASTLE => {
                let (rf, rt) = if m.to > m.from {
                    (m.to + 1, m.to - 1)
                } else {
                    (m.to - 2, m.to + 1)
                };
                let r = (1u64 << rf) | (1u64 << rt);
                b.pieces[ROOK] ^= r;
                b.colors[S::US] ^= r;
            }
            _ => {
                b.pieces[PAWN] ^= to;
                b.pieces[(m.kind & 7) as usize] ^= to;
            }
        }
        b.castling &= CASTLE_KEEP[m.from as usize] & CASTLE_KEEP[m.to as usize];
        b.halfmove = if m.piece as usize == PAWN || cap != 0 {
            0
        } else {
            b.halfmove.saturating_add(1)
        };
        b.fullmove = b.fullmove.saturating_add(S::US as u16);
        b.side ^= 1;
        b
    }

    /// `make` dispatching on the side to move at run time.
    pub fn play(&self, m: Move) -> Board {
        if self.side as usize == WHITE {
            self.make::<White>(m)
        } else {
            self.make::<Black>(m)
        }
    }
}
