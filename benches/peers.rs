//! The peer crates, each through the lookups its own move generator uses.

use crate::Slider;

/// cozy-chess: black magics, or its PEXT tables when the target has BMI2 (Cargo.toml
/// turns its `pext` feature on for such targets).
pub struct Cozy;

impl Slider for Cozy {
    type Sq = cozy_chess::Square;
    fn name(&self) -> String {
        if cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) {
            "cozy-chess 0.3 (pext)".into()
        } else {
            "cozy-chess 0.3 (black)".into()
        }
    }
    fn square(&self, index: u8) -> Self::Sq {
        cozy_chess::Square::index(index as usize)
    }
    #[inline(always)]
    fn rook(&self, sq: Self::Sq, occ: u64) -> u64 {
        cozy_chess::get_rook_moves(sq, cozy_chess::BitBoard(occ)).0
    }
    #[inline(always)]
    fn bishop(&self, sq: Self::Sq, occ: u64) -> u64 {
        cozy_chess::get_bishop_moves(sq, cozy_chess::BitBoard(occ)).0
    }
}

/// shakmaty: fixed-shift ("white") magics in a const-evaluated static.
pub struct Shakmaty;

impl Slider for Shakmaty {
    type Sq = shakmaty::Square;
    fn name(&self) -> String {
        "shakmaty 0.30 (fixed shift)".into()
    }
    fn square(&self, index: u8) -> Self::Sq {
        shakmaty::Square::new(u32::from(index))
    }
    #[inline(always)]
    fn rook(&self, sq: Self::Sq, occ: u64) -> u64 {
        shakmaty::attacks::rook_attacks(sq, shakmaty::Bitboard(occ)).0
    }
    #[inline(always)]
    fn bishop(&self, sq: Self::Sq, occ: u64) -> u64 {
        shakmaty::attacks::bishop_attacks(sq, shakmaty::Bitboard(occ)).0
    }
    #[inline(always)]
    fn queen(&self, sq: Self::Sq, occ: u64) -> u64 {
        shakmaty::attacks::queen_attacks(sq, shakmaty::Bitboard(occ)).0
    }
}

/// chess: fancy magics with a post-mask, the lookups its move generator uses.
pub struct Chess;

impl Slider for Chess {
    type Sq = chess::Square;
    fn name(&self) -> String {
        "chess 3.2 (fancy)".into()
    }
    fn square(&self, index: u8) -> Self::Sq {
        chess::ALL_SQUARES[index as usize]
    }
    #[inline(always)]
    fn rook(&self, sq: Self::Sq, occ: u64) -> u64 {
        chess::get_rook_moves(sq, chess::BitBoard(occ)).0
    }
    #[inline(always)]
    fn bishop(&self, sq: Self::Sq, occ: u64) -> u64 {
        chess::get_bishop_moves(sq, chess::BitBoard(occ)).0
    }
}

/// chess with BMI2: PEXT index into u16 entries expanded by PDEP (`get_rook_moves_bmi`).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
pub struct ChessBmi;

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
impl Slider for ChessBmi {
    type Sq = chess::Square;
    fn name(&self) -> String {
        "chess 3.2 (pext u16)".into()
    }
    fn square(&self, index: u8) -> Self::Sq {
        chess::ALL_SQUARES[index as usize]
    }
    #[inline(always)]
    fn rook(&self, sq: Self::Sq, occ: u64) -> u64 {
        chess::get_rook_moves_bmi(sq, chess::BitBoard(occ)).0
    }
    #[inline(always)]
    fn bishop(&self, sq: Self::Sq, occ: u64) -> u64 {
        chess::get_bishop_moves_bmi(sq, chess::BitBoard(occ)).0
    }
}
