//! Legal move generation with check and pin masks (no make-then-test), and perft.
//!
//! The generator hands moves to a [`Visitor`] in batches: a piece and its set of
//! destinations, or a set of pawn destinations sharing one from-to delta. Counting a
//! batch is a popcount, so the leaves of perft are counted without making or even
//! listing the moves (bulk counting). Interior perft nodes make and recurse straight from
//! the visitor (no list at all); `legal_moves` and `divide` fill a fixed-size
//! [`MoveList`]. Nothing is allocated on the heap below the root.

use super::attacks::{
    between, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, rook_rays, sq,
    CrateLevel, Sliders,
};
use super::board::{
    shift, Black, Board, Move, Side, White, BISHOP, CASTLE, DOUBLE_PUSH, EN_PASSANT, FILE_A,
    FILE_H, KING, KNIGHT, NORMAL, NO_EP, PAWN, PROMO, QUEEN, ROOK,
};

/// Receives generated moves. Sinks that need each move implement `one` only; the sets
/// are expanded into single moves here. A counter overrides the set methods to count
/// without expanding.
pub trait Visitor {
    /// One move.
    fn one(&mut self, m: Move);

    /// Moves of a (non-pawn) `piece` from square `from` to every square of `targets`.
    #[inline(always)]
    fn piece(&mut self, piece: usize, from: u32, targets: u64) {
        for_each_bit(targets, |to, _| {
            self.one(Move {
                from: from as u8,
                to: to as u8,
                piece: piece as u8,
                kind: NORMAL,
            })
        });
    }

    /// Pawn moves to every square of `targets`, each from `to - delta`.
    /// `kind` is `NORMAL`, `DOUBLE_PUSH` or `PROMO` (expands to four promotions).
    #[inline(always)]
    fn pawns(&mut self, targets: u64, delta: i32, kind: u8) {
        for_each_bit(targets, |to, _| {
            let mut m = Move {
                from: ((to as i32 - delta) & 63) as u8,
                to: to as u8,
                piece: PAWN as u8,
                kind,
            };
            if kind == PROMO {
                for p in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    m.kind = PROMO | p as u8;
                    self.one(m);
                }
            } else {
                self.one(m);
            }
        });
    }
}

/// Counts moves without listing them.
pub struct Counter(pub u64);

impl Visitor for Counter {
    #[inline(always)]
    fn piece(&mut self, _piece: usize, _from: u32, targets: u64) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: u64, _delta: i32, kind: u8) {
        let n = u64::from(targets.count_ones());
        self.0 += if kind == PROMO { 4 * n } else { n };
    }
    #[inline(always)]
    fn one(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Capacity of a [`MoveList`]. Reachable positions have at most 218 legal moves; the FEN
/// parser's material limits (at most 9 queens, 2 rooks, 2 bishops, 2 knights and a king
/// when all pawns promote to queens) bound any accepted position by
/// 9 * 27 + 2 * 14 + 2 * 13 + 2 * 8 + 8 = 321.
pub const MAX_MOVES: usize = 324;

/// A fixed-size move list (no heap).
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::default(); MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        // Cannot overflow for a legal position; if it ever did, the index check panics
        // rather than corrupting memory.
        self.moves[self.len] = m;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Visitor for MoveList {
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// Iterates over the square indices of a bitboard.
#[inline(always)]
fn for_each_bit(mut b: u64, mut f: impl FnMut(u32, u64)) {
    while b != 0 {
        let i = b.trailing_zeros();
        let bit = b & b.wrapping_neg();
        b ^= bit;
        f(i, bit);
    }
}

/// Is `target` attacked by side `S::THEM`, with occupancy `occ`?
#[inline(always)]
fn attacked<S: Side, B: Sliders>(b: &Board, target: u32, occ: u64) -> bool {
    let them = b.colors[S::THEM];
    let s = sq(target);
    (knight_attacks(s) & b.pieces[KNIGHT] & them) != 0
        || (pawn_attacks(S::COLOR, s) & b.pieces[PAWN] & them) != 0
        || (king_attacks(s) & b.pieces[KING] & them) != 0
        || (B::rook(s, occ) & (b.pieces[ROOK] | b.pieces[QUEEN]) & them) != 0
        || (B::bishop(s, occ) & (b.pieces[BISHOP] | b.pieces[QUEEN]) & them) != 0
}

/// Up to this many king destinations are tested one by one; more use the attack map.
const KING_TEST_MAX: u32 = 1;

/// Every square attacked by side `S::THEM` with occupancy `occ`.
#[inline(always)]
fn attack_map<S: Side, B: Sliders>(b: &Board, occ: u64) -> u64 {
    let them = b.colors[S::THEM];
    let pawns = b.pieces[PAWN] & them;
    let mut a = shift(pawns & !FILE_A, -S::UP_EAST) | shift(pawns & !FILE_H, -S::UP_WEST);
    a |= king_attacks(sq((b.pieces[KING] & them).trailing_zeros()));
    for_each_bit(b.pieces[KNIGHT] & them, |s, _| a |= knight_attacks(sq(s)));
    for_each_bit((b.pieces[BISHOP] | b.pieces[QUEEN]) & them, |s, _| {
        a |= B::bishop(sq(s), occ)
    });
    for_each_bit((b.pieces[ROOK] | b.pieces[QUEEN]) & them, |s, _| {
        a |= B::rook(sq(s), occ)
    });
    a
}

/// Set-wise pawn moves for the pawns in `pawns`, destinations limited to `mask`.
#[inline(always)]
fn pawn_moves<S: Side, V: Visitor>(pawns: u64, mask: u64, them: u64, empty: u64, v: &mut V) {
    let single = shift(pawns, S::UP) & empty;
    let double = shift(single & S::PUSH_RANK, S::UP) & empty & mask;
    let single = single & mask;
    let west = shift(pawns & !FILE_A, S::UP_WEST) & them & mask;
    let east = shift(pawns & !FILE_H, S::UP_EAST) & them & mask;
    let last = S::LAST_RANK;
    v.pawns(single & !last, S::UP, NORMAL);
    v.pawns(double, 2 * S::UP, DOUBLE_PUSH);
    v.pawns(west & !last, S::UP_WEST, NORMAL);
    v.pawns(east & !last, S::UP_EAST, NORMAL);
    if (single | west | east) & last != 0 {
        v.pawns(single & last, S::UP, PROMO);
        v.pawns(west & last, S::UP_WEST, PROMO);
        v.pawns(east & last, S::UP_EAST, PROMO);
    }
}

/// Generates every legal move of side `S` (which must be the side to move).
#[inline(always)]
pub fn generate<S: Side, B: Sliders, V: Visitor>(b: &Board, v: &mut V) {
    let us = b.colors[S::US];
    let them = b.colors[S::THEM];
    let occ = us | them;
    let king_bb = b.pieces[KING] & us;
    let ki = king_bb.trailing_zeros();
    let k = sq(ki);
    let their_rq = (b.pieces[ROOK] | b.pieces[QUEEN]) & them;
    let their_bq = (b.pieces[BISHOP] | b.pieces[QUEEN]) & them;

    // Enemy sliders on the king's empty-board lines: the only possible slider checkers
    // and pinners. Most often there are none, which skips the magic lookups.
    let rook_snipers = rook_rays(k) & their_rq;
    let bishop_snipers = bishop_rays(k) & their_bq;
    let mut checkers = (knight_attacks(k) & b.pieces[KNIGHT] & them)
        | (pawn_attacks(S::COLOR, k) & b.pieces[PAWN] & them);
    if rook_snipers != 0 {
        checkers |= B::rook(k, occ) & rook_snipers;
    }
    if bishop_snipers != 0 {
        checkers |= B::bishop(k, occ) & bishop_snipers;
    }

    // King moves: each destination tested with the king removed from the occupancy, so
    // that it cannot hide behind itself on a slider's line.
    let occ_no_king = occ ^ king_bb;
    let king_targets = king_attacks(k) & !us;
    let safe = if king_targets.count_ones() <= KING_TEST_MAX {
        let mut safe = 0;
        for_each_bit(king_targets, |t, bit| {
            if !attacked::<S, B>(b, t, occ_no_king) {
                safe |= bit;
            }
        });
        safe
    } else {
        king_targets & !attack_map::<S, B>(b, occ_no_king)
    };
    v.piece(KING, ki, safe);

    if checkers & checkers.wrapping_sub(1) != 0 {
        return; // double check: only king moves
    }
    // Destinations that resolve a check (capture the checker or block), or everything.
    let check_mask = if checkers == 0 {
        !0
    } else {
        between(k, sq(checkers.trailing_zeros())) | checkers
    };

    // Pinned pieces: our only piece between the king and an enemy slider on an empty-board ray.
    let snipers = rook_snipers | bishop_snipers;
    let mut pinned = 0;
    for_each_bit(snipers, |s, _| {
        let blockers = between(k, sq(s)) & occ;
        if blockers & blockers.wrapping_sub(1) == 0 {
            pinned |= blockers & us;
        }
    });

    let target = !us & check_mask;
    let free = us & !pinned;
    for_each_bit(b.pieces[KNIGHT] & free, |s, _| {
        v.piece(KNIGHT, s, knight_attacks(sq(s)) & target);
    });
    for_each_bit(b.pieces[BISHOP] & free, |s, _| {
        v.piece(BISHOP, s, B::bishop(sq(s), occ) & target);
    });
    for_each_bit(b.pieces[ROOK] & free, |s, _| {
        v.piece(ROOK, s, B::rook(sq(s), occ) & target);
    });
    for_each_bit(b.pieces[QUEEN] & free, |s, _| {
        v.piece(QUEEN, s, B::queen(sq(s), occ) & target);
    });

    let empty = !occ;
    let pawns = b.pieces[PAWN] & us;
    pawn_moves::<S, V>(pawns & !pinned, check_mask, them, empty, v);

    if checkers == 0 {
        // A pinned piece may only move along its pin line (and never while in check).
        if pinned != 0 {
            for_each_bit(pinned & !pawns, |s, bit| {
                let sq_s = sq(s);
                let ray = line(k, sq_s);
                let (piece, att) = if b.pieces[BISHOP] & bit != 0 {
                    (BISHOP, B::bishop(sq_s, occ))
                } else if b.pieces[ROOK] & bit != 0 {
                    (ROOK, B::rook(sq_s, occ))
                } else if b.pieces[QUEEN] & bit != 0 {
                    (QUEEN, B::queen(sq_s, occ))
                } else {
                    (KNIGHT, 0) // a pinned knight never moves
                };
                v.piece(piece, s, att & ray & target);
            });
            for_each_bit(pinned & pawns, |s, bit| {
                pawn_moves::<S, V>(bit, line(k, sq(s)), them, empty, v);
            });
        }
        // Castling: path empty, king not in check, king's path not attacked.
        let rights = b.castling;
        if rights & S::KS != 0
            && occ & S::KS_EMPTY == 0
            && !attacked::<S, B>(b, u32::from(S::KING_HOME) + 1, occ)
            && !attacked::<S, B>(b, u32::from(S::KS_TO), occ)
        {
            v.one(Move {
                from: S::KING_HOME,
                to: S::KS_TO,
                piece: KING as u8,
                kind: CASTLE,
            });
        }
        if rights & S::QS != 0
            && occ & S::QS_EMPTY == 0
            && !attacked::<S, B>(b, u32::from(S::KING_HOME) - 1, occ)
            && !attacked::<S, B>(b, u32::from(S::QS_TO), occ)
        {
            v.one(Move {
                from: S::KING_HOME,
                to: S::QS_TO,
                piece: KING as u8,
                kind: CASTLE,
            });
        }
    }

    // En passant. The capture removes two pieces from one rank, which pin masks cannot
    // see (the horizontal-pin discovered check), so each candidate is checked by looking
    // along the king's rook and bishop lines with the three changed squares updated.
    if b.ep != NO_EP {
        let ep = u32::from(b.ep);
        let ep_bb = 1u64 << ep;
        let victim = 1u64 << (ep ^ 8);
        if check_mask & (ep_bb | victim) != 0 {
            for_each_bit(
                pawn_attacks(S::THEM_COLOR, sq(ep)) & pawns,
                |from, from_bb| {
                    let occ2 = occ ^ from_bb ^ victim ^ ep_bb;
                    if B::rook(k, occ2) & their_rq == 0 && B::bishop(k, occ2) & their_bq == 0 {
                        v.one(Move {
                            from: from as u8,
                            to: ep as u8,
                            piece: PAWN as u8,
                            kind: EN_PASSANT,
                        });
                    }
                },
            );
        }
    }
}

/// Number of legal moves of side `S` (bulk count).
#[inline(always)]
pub fn count_moves<S: Side, B: Sliders>(b: &Board) -> u64 {
    let mut c = Counter(0);
    generate::<S, B, Counter>(b, &mut c);
    c.0
}

/// All legal moves of the side to move.
pub fn legal_moves(b: &Board) -> MoveList {
    legal_moves_with::<CrateLevel>(b)
}

/// All legal moves of the side to move, with the slider lookups of `B`.
pub fn legal_moves_with<B: Sliders>(b: &Board) -> MoveList {
    let mut list = MoveList::new();
    if b.side == 0 {
        generate::<White, B, _>(b, &mut list);
    } else {
        generate::<Black, B, _>(b, &mut list);
    }
    list
}

/// Visitor of interior perft nodes: makes each move as it is generated and recurses,
/// so no move list is built or stored.
struct Recurse<'a, S: Side, B: Sliders> {
    board: &'a Board,
    depth: u32,
    nodes: u64,
    side: core::marker::PhantomData<(S, B)>,
}

impl<S: Side, B: Sliders> Recurse<'_, S, B> {
    #[inline(always)]
    fn go(&mut self, m: Move) {
        self.nodes += perft_side::<S::Other, B>(&self.board.make::<S>(m), self.depth - 1);
    }
}

impl<S: Side, B: Sliders> Visitor for Recurse<'_, S, B> {
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.go(m);
    }
}

fn perft_side<S: Side, B: Sliders>(b: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves::<S, B>(b),
        _ => {
            let mut r = Recurse::<S, B> {
                board: b,
                depth,
                nodes: 0,
                side: core::marker::PhantomData,
            };
            generate::<S, B, _>(b, &mut r);
            r.nodes
        }
    }
}

/// Number of leaf nodes of the legal move tree of depth `depth` (bulk-counted at depth 1).
pub fn perft(b: &Board, depth: u32) -> u64 {
    perft_with::<CrateLevel>(b, depth)
}

/// [`perft`] with the slider lookups of `B` (e.g. one backend module's, for benchmarks).
pub fn perft_with<B: Sliders>(b: &Board, depth: u32) -> u64 {
    if b.side == 0 {
        perft_side::<White, B>(b, depth)
    } else {
        perft_side::<Black, B>(b, depth)
    }
}

/// Perft split by root move: each legal move with the perft of the position after it.
pub fn divide(b: &Board, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    legal_moves(b)
        .as_slice()
        .iter()
        .map(|&m| (m, perft(&b.play(m), depth - 1)))
        .collect()
}

/// Whether side `S`'s king is attacked (whoever is to move).
pub fn king_in_check<S: Side>(b: &Board) -> bool {
    let occ = b.occupied();
    let king = b.pieces[KING] & b.colors[S::US];
    attacked::<S, CrateLevel>(b, king.trailing_zeros(), occ)
}
