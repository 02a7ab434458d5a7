//! A magic set: the variant and, per piece and square, the magic, index bits and offset
//! into one shared attack table.

use crate::geometry::{relevant_bits, relevant_mask, square_name, Piece};
use crate::index::{table_index, Variant};

/// Largest table a set may describe: 2^26 entries (512 MiB of u64), far above any real set,
/// so that `offset + 2^bits` always fits in a `u32` and a `usize` on 32-bit targets.
/// Offsets lie in `-2^12 < offset <= MAX_TABLE_LEN - 2^bits`.
pub const MAX_TABLE_LEN: u64 = 1 << 26;

/// One square's index parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Entry {
    /// The multiplier (0 for PEXT).
    pub magic: u64,
    /// Index bits: the hash is shifted right by `64 - bits`.
    pub bits: u8,
    /// Added to the hash to give the table index. Negative offsets are allowed where every
    /// index the square forms stays at 0 or above: black keys put a square's indices far
    /// from 0, so its range may start before the table does.
    pub offset: i64,
}

/// A complete set for both sliders: `entries[piece.index()][square]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MagicSet {
    /// How occupancies become indices.
    pub variant: Variant,
    /// Rook entries then bishop entries, a1 = 0.
    pub entries: [[Entry; 64]; 2],
}

impl MagicSet {
    /// Returns an empty set of `variant` (every entry zero), to be filled in.
    pub fn new(variant: Variant) -> MagicSet {
        MagicSet {
            variant,
            entries: [[Entry::default(); 64]; 2],
        }
    }

    /// Returns the entry of `piece` on `sq`.
    pub fn entry(&self, piece: Piece, sq: u8) -> &Entry {
        &self.entries[piece.index()][sq as usize]
    }

    /// Returns the mutable entry of `piece` on `sq`.
    pub fn entry_mut(&mut self, piece: Piece, sq: u8) -> &mut Entry {
        &mut self.entries[piece.index()][sq as usize]
    }

    /// Returns the index into the shared table of occupancy `occ` for `piece` on `sq`
    /// (below 0 only in a set that fails verification).
    pub fn index(&self, piece: Piece, sq: u8, occ: u64) -> i64 {
        let e = self.entry(piece, sq);
        table_index(
            self.variant,
            occ,
            relevant_mask(piece, sq),
            e.magic,
            e.bits,
            e.offset,
        )
    }

    /// Returns the PEXT set: bits = mask popcount, ranges back to back, square by square
    /// (rook a1, bishop a1, rook b1, ...). Interleaved, the hot starts of the rook ranges
    /// stop landing on the same L1 sets (rook-first, they sat on 2-8 KiB boundaries): the
    /// benchmark's dependent rook lookups went from 5.4 to 4.5 ns with PEXT.
    pub fn pext() -> MagicSet {
        let mut set = MagicSet::new(Variant::Pext);
        let mut offset = 0i64;
        for sq in 0..64u8 {
            for piece in Piece::ALL {
                let bits = relevant_bits(piece, sq);
                *set.entry_mut(piece, sq) = Entry {
                    magic: 0,
                    bits,
                    offset,
                };
                offset += 1 << bits;
            }
        }
        set
    }

    /// Returns the offset a plain set must give `piece` on `sq`: 64 rook arrays of
    /// [`MagicSet::plain_row`] entries, then 64 bishop arrays.
    pub const fn plain_offset(piece: Piece, sq: u8) -> u32 {
        let before = match piece {
            Piece::Rook => 0,
            Piece::Bishop => 64 * MagicSet::plain_row(Piece::Rook),
        };
        before + sq as u32 * MagicSet::plain_row(piece)
    }

    /// Returns the length of each square's array in the plain layout: every index its fixed
    /// shift can give, 4096 for a rook, 512 for a bishop.
    pub const fn plain_row(piece: Piece) -> u32 {
        1 << piece.fixed_bits()
    }

    /// The plain layout's table length: every rook array, then every bishop array.
    pub const PLAIN_LEN: u32 =
        MagicSet::plain_offset(Piece::Bishop, 63) + MagicSet::plain_row(Piece::Bishop);

    /// Returns the index bits per square, `[piece][square]`.
    pub fn bits(&self) -> [[u8; 64]; 2] {
        let mut bits = [[0u8; 64]; 2];
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                bits[piece.index()][sq as usize] = self.entry(piece, sq).bits;
            }
        }
        bits
    }
}

/// Checks one entry's bits, magic and offset against its variant's rules. Returns a
/// message (without the piece and square, which the caller names) on failure.
pub(crate) fn check_entry(variant: Variant, piece: Piece, sq: u8, e: &Entry) -> Result<(), String> {
    let popcount = relevant_bits(piece, sq);
    let fixed = piece.fixed_bits();
    match variant {
        Variant::Plain if e.bits != fixed => {
            return Err(format!(
                "plain magics use {fixed} index bits for every {piece} square, found {}",
                e.bits
            ))
        }
        // Packed sets may shift per square (the densest published black set uses the
        // mask popcount), never by more index bits than the fixed shift.
        Variant::Black | Variant::White if e.bits == 0 || e.bits > fixed => {
            return Err(format!(
                "index bits {} out of range 1..={fixed} ({variant} {piece} squares)",
                e.bits
            ))
        }
        Variant::Fancy if e.bits == 0 || e.bits > popcount => {
            return Err(format!(
                "index bits {} out of range 1..={popcount} (the mask popcount of {piece} {})",
                e.bits,
                square_name(sq)
            ))
        }
        Variant::Pext if e.bits != popcount => {
            return Err(format!(
                "PEXT needs index bits = mask popcount {popcount}, found {}",
                e.bits
            ))
        }
        _ => {}
    }
    if variant.uses_magic() && e.magic == 0 {
        return Err("magic is zero".to_string());
    }
    if variant == Variant::Plain && e.offset != MagicSet::plain_offset(piece, sq) as i64 {
        return Err(format!(
            "plain tables keep one array per square: offset must be {}, found {}",
            MagicSet::plain_offset(piece, sq),
            e.offset
        ));
    }
    let range = 1i64 << e.bits;
    if e.offset + range > MAX_TABLE_LEN as i64 {
        return Err(format!(
            "offset {} puts the range past {MAX_TABLE_LEN} entries",
            e.offset
        ));
    }
    if e.offset <= -range {
        return Err(format!(
            "offset {} puts every index of the square below 0 (its hashes are below {range})",
            e.offset
        ));
    }
    Ok(())
}
