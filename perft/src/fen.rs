//! FEN parsing with typed errors (never a panic).

use super::board::{
    Black, Board, SquareName, White, BISHOP, BK, BLACK, BQ, KING, KNIGHT, NO_EP, PAWN, QUEEN,
    RANK_1, RANK_8, ROOK, WHITE, WK, WQ,
};
use super::movegen::king_in_check;
use core::fmt;

/// Why a FEN string was rejected. `Display` names the field and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// Piece placement: not eight ranks.
    RankCount(usize),
    /// Piece placement: a character that is neither a piece letter nor a digit 1-8.
    BadPiece { rank: u8, ch: char },
    /// Piece placement: a rank describing more than eight files.
    RankTooLong { rank: u8 },
    /// Piece placement: two digits in a row (e.g. "44" instead of "8").
    AdjacentDigits { rank: u8 },
    /// Piece placement: a rank describing fewer than eight files.
    RankTooShort { rank: u8, files: u8 },
    /// Piece placement: a side has no king.
    MissingKing { color: &'static str },
    /// Piece placement: a side has more than one king.
    TooManyKings { color: &'static str, count: u32 },
    /// Piece placement: more material than a game can produce (more than 16 pieces or 8
    /// pawns, or more promoted pieces than missing pawns).
    TooMuchMaterial {
        color: &'static str,
        reason: &'static str,
    },
    /// Piece placement: a pawn on the first or eighth rank.
    PawnOnBackRank { square: String },
    /// Side to move is not `w` or `b`.
    BadSide(String),
    /// Castling field is not `-` or a duplicate-free subset of `KQkq`.
    BadCastling(String),
    /// A castling right without its king and rook on their home squares.
    CastlingWithoutPieces { right: char },
    /// En-passant field is not `-` or a square.
    BadEnPassantSquare(String),
    /// En-passant square on the wrong rank or without the pawn that just double-pushed.
    ImpossibleEnPassant {
        square: String,
        reason: &'static str,
    },
    /// Half-move clock is not a non-negative integer.
    BadHalfmove(String),
    /// Full-move number is not a positive integer.
    BadFullmove(String),
    /// The side not to move is in check (its king could be captured).
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        write!(f, "invalid FEN: ")?;
        match self {
            FieldCount(n) => write!(
                f,
                "expected 6 space-separated fields (placement, side, castling, en passant, \
                 half-move clock, full-move number; the last two may be omitted), found {n}"
            ),
            RankCount(n) => write!(
                f,
                "piece placement: expected 8 ranks separated by '/', found {n}"
            ),
            BadPiece { rank, ch } => write!(
                f,
                "piece placement: rank {rank}: bad character {ch:?} (expected one of \
                 PNBRQKpnbrqk or a digit 1-8)"
            ),
            RankTooLong { rank } => write!(
                f,
                "piece placement: rank {rank} is too long (more than 8 files)"
            ),
            RankTooShort { rank, files } => write!(
                f,
                "piece placement: rank {rank} is too short ({files} files instead of 8)"
            ),
            AdjacentDigits { rank } => write!(
                f,
                "piece placement: rank {rank}: two digits in a row (write \"8\", not \"44\")"
            ),
            MissingKing { color } => write!(f, "piece placement: {color} has no king"),
            TooManyKings { color, count } => {
                write!(f, "piece placement: {color} has {count} kings")
            }
            TooMuchMaterial { color, reason } => {
                write!(
                    f,
                    "piece placement: {color} has too much material: {reason}"
                )
            }
            PawnOnBackRank { square } => write!(
                f,
                "piece placement: pawn on {square} (pawns cannot stand on the first or \
                 eighth rank)"
            ),
            BadSide(s) => write!(f, "side to move: expected 'w' or 'b', found {s:?}"),
            BadCastling(s) => write!(
                f,
                "castling: expected '-' or a subset of \"KQkq\" without repeats, found {s:?}"
            ),
            CastlingWithoutPieces { right } => write!(
                f,
                "castling: right '{right}' needs the king and the rook on their home squares"
            ),
            BadEnPassantSquare(s) => write!(
                f,
                "en passant: expected '-' or a square such as \"e3\", found {s:?}"
            ),
            ImpossibleEnPassant { square, reason } => {
                write!(f, "en passant: square {square} is impossible: {reason}")
            }
            BadHalfmove(s) => write!(
                f,
                "half-move clock: expected a non-negative integer, found {s:?}"
            ),
            BadFullmove(s) => write!(
                f,
                "full-move number: expected a positive integer, found {s:?}"
            ),
            OpponentInCheck => write!(
                f,
                "position: the side not to move is in check (its king could be captured)"
            ),
        }
    }
}

impl std::error::Error for FenError {}

fn parse_square(s: &str) -> Option<u8> {
    match s.as_bytes() {
        &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((r - b'1') * 8 + (f - b'a')),
        _ => None,
    }
}

/// Parses a FEN string. The two move counters may be omitted (they default to `0 1`).
pub fn parse(fen: &str) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut b = Board {
        pieces: [0; 6],
        colors: [0; 2],
        side: 0,
        ep: NO_EP,
        castling: 0,
        halfmove: 0,
        fullmove: 1,
    };

    // 1. Piece placement, rank 8 first.
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let rank_name = rank + 1;
        let mut file = 0u8;
        let mut last_digit = false;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if last_digit {
                    return Err(FenError::AdjacentDigits { rank: rank_name });
                }
                last_digit = true;
                if !(1..=8).contains(&d) {
                    return Err(FenError::BadPiece {
                        rank: rank_name,
                        ch,
                    });
                }
                file += d as u8;
                if file > 8 {
                    return Err(FenError::RankTooLong { rank: rank_name });
                }
                continue;
            }
            last_digit = false;
            let piece = match ch.to_ascii_lowercase() {
                'p' => PAWN,
                'n' => KNIGHT,
                'b' => BISHOP,
                'r' => ROOK,
                'q' => QUEEN,
                'k' => KING,
                _ => {
                    return Err(FenError::BadPiece {
                        rank: rank_name,
                        ch,
                    })
                }
            };
            if file >= 8 {
                return Err(FenError::RankTooLong { rank: rank_name });
            }
            let color = if ch.is_ascii_uppercase() {
                WHITE
            } else {
                BLACK
            };
            let bit = 1u64 << (rank * 8 + file);
            b.pieces[piece] |= bit;
            b.colors[color] |= bit;
            file += 1;
        }
        if file < 8 {
            return Err(FenError::RankTooShort {
                rank: rank_name,
                files: file,
            });
        }
    }
    for (color, name) in [(WHITE, "white"), (BLACK, "black")] {
        match (b.pieces[KING] & b.colors[color]).count_ones() {
            0 => return Err(FenError::MissingKing { color: name }),
            1 => {}
            count => return Err(FenError::TooManyKings { color: name, count }),
        }
    }
    for (color, name) in [(WHITE, "white"), (BLACK, "black")] {
        let own = b.colors[color];
        let count = |p: usize| (b.pieces[p] & own).count_ones();
        let pawns = count(PAWN);
        let promoted = count(QUEEN).saturating_sub(1)
            + count(ROOK).saturating_sub(2)
            + count(BISHOP).saturating_sub(2)
            + count(KNIGHT).saturating_sub(2);
        let reason = if own.count_ones() > 16 {
            "more than 16 pieces"
        } else if pawns > 8 {
            "more than 8 pawns"
        } else if promoted > 8 - pawns {
            "more promoted pieces than missing pawns"
        } else {
            continue;
        };
        return Err(FenError::TooMuchMaterial {
            color: name,
            reason,
        });
    }
    let back = b.pieces[PAWN] & (RANK_1 | RANK_8);
    if back != 0 {
        return Err(FenError::PawnOnBackRank {
            square: SquareName(back.trailing_zeros() as u8).to_string(),
        });
    }

    // 2. Side to move.
    b.side = match fields[1] {
        "w" => WHITE as u8,
        "b" => BLACK as u8,
        s => return Err(FenError::BadSide(s.to_string())),
    };

    // 3. Castling rights.
    if fields[2] != "-" {
        for ch in fields[2].chars() {
            let (right, king_sq, rook_sq, color) = match ch {
                'K' => (WK, 4, 7, WHITE),
                'Q' => (WQ, 4, 0, WHITE),
                'k' => (BK, 60, 63, BLACK),
                'q' => (BQ, 60, 56, BLACK),
                _ => return Err(FenError::BadCastling(fields[2].to_string())),
            };
            if b.castling & right != 0 {
                return Err(FenError::BadCastling(fields[2].to_string()));
            }
            let own = b.colors[color];
            if b.pieces[KING] & own & (1 << king_sq) == 0
                || b.pieces[ROOK] & own & (1 << rook_sq) == 0
            {
                return Err(FenError::CastlingWithoutPieces { right: ch });
            }
            b.castling |= right;
        }
    }

    // 4. En passant.
    if fields[3] != "-" {
        let ep = parse_square(fields[3])
            .ok_or_else(|| FenError::BadEnPassantSquare(fields[3].to_string()))?;
        let name = fields[3].to_string();
        let want_rank = if b.side as usize == WHITE { 5 } else { 2 };
        // Checked before the neighbouring squares are computed: `ep - 8` on rank 1 (or
        // `ep + 8` past rank 8) would overflow (found by fuzzing: "... b - d1").
        if ep / 8 != want_rank {
            return Err(FenError::ImpossibleEnPassant {
                square: name,
                reason: "it must be on rank 6 with white to move, rank 3 with black to move",
            });
        }
        let (pawn_sq, origin_sq) = if b.side as usize == WHITE {
            (ep - 8, ep + 8)
        } else {
            (ep + 8, ep - 8)
        };
        let them = b.colors[b.side as usize ^ 1];
        if b.pieces[PAWN] & them & (1 << pawn_sq) == 0 {
            return Err(FenError::ImpossibleEnPassant {
                square: name,
                reason: "no pawn of the side that just moved stands in front of it",
            });
        }
        if b.occupied() & ((1 << ep) | (1 << origin_sq)) != 0 {
            return Err(FenError::ImpossibleEnPassant {
                square: name,
                reason: "it or the square the pawn came from is occupied",
            });
        }
        b.ep = ep;
    }

    // 5-6. Counters.
    if let Some(s) = fields.get(4) {
        b.halfmove = s
            .parse()
            .map_err(|_| FenError::BadHalfmove(s.to_string()))?;
    }
    if let Some(s) = fields.get(5) {
        b.fullmove = match s.parse() {
            Ok(n) if n > 0 => n,
            _ => return Err(FenError::BadFullmove(s.to_string())),
        };
    }

    if opponent_in_check(&b) {
        return Err(FenError::OpponentInCheck);
    }
    Ok(b)
}

/// Whether the side that is not to move is in check: its king could be captured, which
/// the generator does not model.
fn opponent_in_check(b: &Board) -> bool {
    if b.side as usize == WHITE {
        king_in_check::<Black>(b)
    } else {
        king_in_check::<White>(b)
    }
}

impl Board {
    /// FEN of this position.
    pub fn to_fen(self) -> String {
        let mut s = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_at(rank * 8 + file) {
                    None => empty += 1,
                    Some((color, piece)) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        let c = ['p', 'n', 'b', 'r', 'q', 'k'][piece];
                        s.push(if color == WHITE {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        });
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side as usize == WHITE {
            " w "
        } else {
            " b "
        });
        if self.castling == 0 {
            s.push('-');
        }
        for (bit, c) in [(WK, 'K'), (WQ, 'Q'), (BK, 'k'), (BQ, 'q')] {
            if self.castling & bit != 0 {
                s.push(c);
            }
        }
        if self.ep == NO_EP {
            s.push_str(" -");
        } else {
            s.push_str(&format!(" {}", SquareName(self.ep)));
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}
