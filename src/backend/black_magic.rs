//! The black index, which `black` and `black_overlay` share: `((occ | !mask) * magic) >>
//! (64 - 12 or 9)`, a fixed shift per piece, into the square's range of one shared table.

/// `64 - index bits` for rooks (12) and bishops (9): fixed, so not stored per square.
pub(crate) const ROOK_SHIFT: u32 = 64 - 12;
pub(crate) const BISHOP_SHIFT: u32 = 64 - 9;

/// Returns the slot of a square's range that `occupied` hashes to, given the complement of
/// the square's relevant mask (OR-ing it in sets every square that cannot change the
/// attacks, so the key depends only on those that can) and its magic.
#[inline(always)]
pub(crate) const fn index(occupied: u64, not_mask: u64, magic: u64, shift: u32) -> usize {
    ((occupied | not_mask).wrapping_mul(magic) >> shift) as usize
}
