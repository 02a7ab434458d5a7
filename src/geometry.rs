//! `between` and `line` computed from the empty-board rays: what the crate-level functions
//! use where their 64x64 tables (32 KiB each) do not fit, on 16-bit targets, whose largest
//! object is 32 KiB minus one byte. The tests check them against the tables elsewhere.

use crate::tables::{BISHOP_RAYS, ROOK_RAYS};
use crate::Square;

/// Returns the whole line through `a` and `b` (edge to edge, both included), or 0 if they
/// are not aligned or equal: the rays they share, plus themselves.
#[inline]
pub const fn line_computed(a: Square, b: Square) -> u64 {
    let (ra, rb) = (ROOK_RAYS.0[a.index()], ROOK_RAYS.0[b.index()]);
    let (ba, bb) = (BISHOP_RAYS.0[a.index()], BISHOP_RAYS.0[b.index()]);
    let ends = a.bit() | b.bit();
    if ra & b.bit() != 0 {
        (ra & rb) | ends
    } else if ba & b.bit() != 0 {
        (ba & bb) | ends
    } else {
        0
    }
}

/// Returns the squares strictly between `a` and `b` if they are aligned, else 0: the squares
/// of their line whose index lies strictly between theirs (a line's squares run in index
/// order, so these are the ones between them on the board).
#[inline]
pub const fn between_computed(a: Square, b: Square) -> u64 {
    let from_lower_up_to_higher = (u64::MAX << a.index()) ^ (u64::MAX << b.index());
    line_computed(a, b) & from_lower_up_to_higher & !(a.bit() | b.bit())
}
