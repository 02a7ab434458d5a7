//! The attack tables used by the generator: the `magic_bitboards` crate.

pub use magic_bitboards::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks, rook_rays, Color, Square,
};

/// Square from a bit index known to be < 64 (`u64::trailing_zeros` of a non-empty set).
#[inline(always)]
pub fn sq(i: u32) -> Square {
    Square::from_index_masked(i as u8)
}
