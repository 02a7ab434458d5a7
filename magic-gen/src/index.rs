//! Index functions of every table variant, in plain software: no target intrinsics, so a
//! host without BMI2 can build tables for a target with it, and the results are the same
//! on every host.

use core::fmt;

use crate::geometry::{empty_board_attacks, relevant_bits, Piece};

/// How a square's occupancy becomes an index into the shared attack table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `((occ & mask) * magic) >> (64 - bits) + offset`, bits chosen per square.
    Fancy,
    /// Like fancy with 12 bits for every rook square and 9 for every bishop square, one
    /// array per square, laid out back to back.
    Plain,
    /// `((occ | !mask) * magic) >> (64 - 12 or 9) + offset`, ranges overlapping in one table.
    Black,
    /// `((occ & mask) * magic) >> (64 - 12 or 9) + offset`, ranges overlapping in one table.
    White,
    /// Black's index into an overlay table: a slot holds the OR of the attacks of every
    /// square that uses it, and a lookup reads it through the square's empty-board
    /// attacks, `table[index] & rays` ([`Variant::is_overlay`]).
    BlackOverlay,
    /// Fancy's index, a shift per square, into an overlay table read as
    /// [`Variant::BlackOverlay`]'s is: `table[index] & rays`.
    FancyOverlay,
    /// Black's index into an overlay table whose rooks read through their rays as
    /// [`Variant::BlackOverlay`]'s do, and whose bishops read their slot as it is: a bishop
    /// shares a slot only with users that want there what it wants, so its lookup needs no
    /// rays ([`Variant::reads_through`]).
    BlackRookOverlay,
    /// `pext(occ, mask) + offset`: the BMI2 perfect index; the magic is unused (0).
    Pext,
}

impl Variant {
    /// Every variant, in the order used for listings.
    pub const ALL: [Variant; 8] = [
        Variant::Fancy,
        Variant::Plain,
        Variant::Black,
        Variant::White,
        Variant::BlackOverlay,
        Variant::FancyOverlay,
        Variant::BlackRookOverlay,
        Variant::Pext,
    ];

    /// Returns the lower-case name used in files, messages and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Fancy => "fancy",
            Variant::Plain => "plain",
            Variant::Black => "black",
            Variant::White => "white",
            Variant::BlackOverlay => "black-overlay",
            Variant::FancyOverlay => "fancy-overlay",
            Variant::BlackRookOverlay => "black-rook-overlay",
            Variant::Pext => "pext",
        }
    }

    /// Parses a variant name (any case).
    pub fn parse(s: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
    }

    /// Returns true for the variants whose ranges overlap in one packed table (black,
    /// white); the others lay ranges out back to back.
    pub const fn is_packed(self) -> bool {
        matches!(
            self,
            Variant::Black | Variant::White | Variant::BlackOverlay | Variant::BlackRookOverlay
        )
    }

    /// Returns true where two squares may share a slot whose attacks differ, as long as
    /// they agree on the squares both can attack: a slot holds the OR of its users'
    /// attacks, and a lookup masks it with the square's empty-board attacks. A set of such
    /// a variant verifies by that rule and is wrong when read without the mask.
    pub const fn is_overlay(self) -> bool {
        matches!(
            self,
            Variant::BlackOverlay | Variant::FancyOverlay | Variant::BlackRookOverlay
        )
    }

    /// Returns the squares a lookup of `piece` on `sq` reads its entry through, the rule
    /// of an overlay table ([`Variant::is_overlay`]): the square's attacks on an empty board,
    /// or every square where its lookup reads the slot as it is (a bishop of
    /// [`Variant::BlackRookOverlay`], and every square of an exact table).
    pub fn reads_through(self, piece: Piece, sq: u8) -> u64 {
        match (self, piece) {
            (Variant::BlackOverlay | Variant::FancyOverlay, _)
            | (Variant::BlackRookOverlay, Piece::Rook) => empty_board_attacks(piece, sq),
            _ => u64::MAX,
        }
    }

    /// Returns the variant whose index an overlay variant reads through the rays (black or
    /// fancy), the variant itself for the others: what its magics are searched and
    /// checked as.
    pub const fn indexed_as(self) -> Variant {
        match self {
            Variant::BlackOverlay | Variant::BlackRookOverlay => Variant::Black,
            Variant::FancyOverlay => Variant::Fancy,
            v => v,
        }
    }

    /// Returns the overlay variant that reads this variant's index through the rays, if
    /// one does (black, fancy).
    pub const fn overlaid(self) -> Option<Variant> {
        match self.indexed_as() {
            Variant::Black => Some(Variant::BlackOverlay),
            Variant::Fancy => Some(Variant::FancyOverlay),
            _ => None,
        }
    }

    /// Returns true where every square's bits are fixed at 12 (rook) or 9 (bishop).
    pub const fn has_fixed_shift(self) -> bool {
        matches!(
            self,
            Variant::Plain
                | Variant::Black
                | Variant::White
                | Variant::BlackOverlay
                | Variant::BlackRookOverlay
        )
    }

    /// Returns the index bits `piece` on `sq` gets unless a search asks for fewer: 12 (rook)
    /// or 9 (bishop) with a fixed shift, else the mask popcount.
    pub const fn default_bits(self, piece: Piece, sq: u8) -> u8 {
        if self.has_fixed_shift() {
            piece.fixed_bits()
        } else {
            relevant_bits(piece, sq)
        }
    }

    /// Returns true where the per-square magic multiplies `occ | !mask` rather than `occ & mask`.
    pub const fn is_black(self) -> bool {
        matches!(
            self,
            Variant::Black | Variant::BlackOverlay | Variant::BlackRookOverlay
        )
    }

    /// Returns the mask a record of this variant stores for the `relevant` mask: black
    /// magics store its complement, which their lookup ORs into the occupancy in one
    /// instruction ([`Variant::stored_key`]); every other variant stores it as it is.
    pub const fn stored_mask(self, relevant: u64) -> u64 {
        if self.is_black() {
            !relevant
        } else {
            relevant
        }
    }

    /// Returns what the magic multiplies, from the occupancy and the mask as a record stores
    /// it ([`Variant::stored_mask`]): `occ | stored` for black magics (every square that
    /// cannot change the attacks set), `occ & stored` for the others.
    pub const fn stored_key(self, occ: u64, stored: u64) -> u64 {
        if self.is_black() {
            occ | stored
        } else {
            occ & stored
        }
    }

    /// Returns what the magic multiplies, from the occupancy and the `relevant` mask.
    pub const fn key(self, occ: u64, relevant: u64) -> u64 {
        self.stored_key(occ, self.stored_mask(relevant))
    }

    /// Returns true where a magic multiplier is part of the index (all but PEXT).
    pub const fn uses_magic(self) -> bool {
        !matches!(self, Variant::Pext)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Returns the bits of `occ` selected by `mask`, packed into the low bits in mask order:
/// the BMI2 `pext` instruction, in software.
pub const fn pext(occ: u64, mut mask: u64) -> u64 {
    let mut result = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        if occ & mask & mask.wrapping_neg() != 0 {
            result |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    result
}

/// Returns the bits of `src`'s low end deposited at the set bits of `mask`, in mask order:
/// the BMI2 `pdep` instruction, in software.
pub const fn pdep(src: u64, mut mask: u64) -> u64 {
    let mut result = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if src & bit != 0 {
            result |= lowest;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    result
}

/// Returns the magic hash of `occ` for a multiply variant, before the offset is added:
/// `((occ & mask) * magic) >> (64 - bits)`, or with `occ | !mask` for black magics.
#[inline]
pub(crate) const fn magic_hash(black: bool, occ: u64, mask: u64, magic: u64, bits: u8) -> u64 {
    let variant = if black {
        Variant::Black
    } else {
        Variant::Fancy
    };
    variant.key(occ, mask).wrapping_mul(magic) >> (64 - bits as u32)
}

/// Returns the index into the shared table of `occ` for one square of one variant.
#[inline]
pub const fn table_index(
    variant: Variant,
    occ: u64,
    mask: u64,
    magic: u64,
    bits: u8,
    offset: i64,
) -> i64 {
    let local = match variant {
        Variant::Pext => pext(occ, mask),
        _ => magic_hash(variant.is_black(), occ, mask, magic, bits),
    };
    // The hash has at most 63 bits and the offset is bounded by `check_entry`.
    local as i64 + offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_and_pdep_are_inverse_on_the_mask() {
        let mask = 0x0001_0101_0101_017e;
        for src in 0..(1u64 << 12) {
            let deposited = pdep(src, mask);
            assert_eq!(deposited & !mask, 0);
            assert_eq!(pext(deposited, mask), src);
        }
        assert_eq!(pext(u64::MAX, 0), 0);
        assert_eq!(pext(0b1010_0000, 0b1111_0000), 0b1010);
        assert_eq!(pdep(0b11, 0x8000_0000_0000_0001), 0x8000_0000_0000_0001);
    }

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::parse(v.name()), Some(v));
        }
        assert_eq!(Variant::parse("BLACK"), Some(Variant::Black));
        assert_eq!(Variant::parse("grey"), None);
    }

    #[test]
    fn keys_from_stored_and_relevant_masks_agree() {
        let relevant = 0x0001_0101_0101_017e;
        for variant in Variant::ALL {
            let stored = variant.stored_mask(relevant);
            assert_eq!(stored == !relevant, variant.is_black());
            for occ in [0u64, relevant, !relevant, 0x00ff_00ff_00ff_00ff, u64::MAX] {
                let key = variant.key(occ, relevant);
                assert_eq!(key, variant.stored_key(occ, stored));
                // Only the relevant squares of the occupancy reach the key.
                assert_eq!(key, variant.key(occ & relevant, relevant));
                let outside = if variant.is_black() { !relevant } else { 0 };
                assert_eq!(key & !relevant, outside);
            }
        }
    }

    #[test]
    fn black_hash_ignores_bits_outside_the_mask() {
        let mask = 0x0000_0000_0000_0f0f;
        let magic = 0x9e37_79b9_7f4a_7c15;
        for occ in [0u64, 0x0f, 0xf0f0, u64::MAX] {
            let a = magic_hash(true, occ, mask, magic, 12);
            let b = magic_hash(true, occ & mask, mask, magic, 12);
            assert_eq!(a, b);
        }
    }
}
