//! The attack tables used by the generator: the `magic_bitboards` crate, its crate-level
//! slider lookups unless a caller names a backend (`perft_with`, for benchmarks).

pub use magic_bitboards::registry::Lookups as Sliders;
pub use magic_bitboards::{
    between, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, rook_rays, Color,
    Square,
};

/// The crate-level `rook_attacks`, `bishop_attacks` and `queen_attacks` as [`Sliders`].
pub struct CrateLevel;

impl Sliders for CrateLevel {
    const NAME: &'static str = magic_bitboards::BACKEND;
    #[inline(always)]
    fn rook(sq: Square, occupied: u64) -> u64 {
        magic_bitboards::rook_attacks(sq, occupied)
    }
    #[inline(always)]
    fn bishop(sq: Square, occupied: u64) -> u64 {
        magic_bitboards::bishop_attacks(sq, occupied)
    }
    #[inline(always)]
    fn queen(sq: Square, occupied: u64) -> u64 {
        magic_bitboards::queen_attacks(sq, occupied)
    }
}

/// Square from a bit index known to be < 64 (`u64::trailing_zeros` of a non-empty set).
#[inline(always)]
pub fn sq(i: u32) -> Square {
    Square::from_index_masked(i as u8)
}
