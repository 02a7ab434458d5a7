//! A magic set: the variant and, per piece and square, the magic, index bits and offset
//! into one shared attack table.

use crate::geometry::{relevant_bits, relevant_mask, square_name, Piece};
use crate::index::{table_index, Variant};

/// Largest table a set may describe: 2^26 entries (512 MiB of u64), far above any real set,
/// so that `offset + 2^bits` always fits in a `u32` and a `usize` on 32-bit targets.
/// Offsets lie in `-2^12 < offset <= MAX_TABLE_LEN - 2^bits`.
pub(crate) const MAX_TABLE_LEN: u64 = 1 << 26;

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

/// Checks one entry's bits, magic and offset against its variant's rules. The error says
/// which rule it breaks (the caller names the piece and square).
pub(crate) fn check_entry(
    variant: Variant,
    piece: Piece,
    sq: u8,
    e: &Entry,
) -> Result<(), EntryError> {
    let popcount = relevant_bits(piece, sq);
    let fixed = piece.fixed_bits();
    let bits = e.bits;
    match variant {
        Variant::Plain if bits != fixed => {
            return Err(EntryError::PlainBits { piece, fixed, bits })
        }
        // Packed sets may shift per square (the densest published black set uses the
        // mask popcount), never by more index bits than the fixed shift.
        Variant::Black | Variant::White | Variant::BlackOverlay | Variant::BlackRookOverlay
            if bits == 0 || bits > fixed =>
        {
            return Err(EntryError::PackedBits {
                variant,
                piece,
                fixed,
                bits,
            })
        }
        Variant::Fancy | Variant::FancyOverlay if bits == 0 || bits > popcount => {
            return Err(EntryError::FancyBits {
                piece,
                square: sq,
                popcount,
                bits,
            })
        }
        Variant::Pext if bits != popcount => return Err(EntryError::PextBits { popcount, bits }),
        _ => {}
    }
    if variant.uses_magic() && e.magic == 0 {
        return Err(EntryError::ZeroMagic);
    }
    let plain_offset = MagicSet::plain_offset(piece, sq);
    if variant == Variant::Plain && e.offset != plain_offset as i64 {
        return Err(EntryError::PlainOffset {
            expected: plain_offset,
            offset: e.offset,
        });
    }
    let range = 1i64 << e.bits;
    if e.offset + range > MAX_TABLE_LEN as i64 {
        return Err(EntryError::PastTable { offset: e.offset });
    }
    if e.offset <= -range {
        return Err(EntryError::BelowZero {
            offset: e.offset,
            range,
        });
    }
    Ok(())
}

/// Which rule of its variant an entry breaks, or (`Mask`, `Shift`, `Variant`) what of a
/// Rust source entry cannot be one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryError {
    /// Plain magics use the fixed bits on every square.
    PlainBits {
        /// The piece of the entry.
        piece: Piece,
        /// The fixed shift's bits of the piece.
        fixed: u8,
        /// The index bits found.
        bits: u8,
    },
    /// Black and white sets use 1 to the fixed bits.
    PackedBits {
        /// The variant of the set.
        variant: Variant,
        /// The piece of the entry.
        piece: Piece,
        /// The fixed shift's bits of the piece.
        fixed: u8,
        /// The index bits found.
        bits: u8,
    },
    /// Fancy sets use 1 to the mask popcount.
    FancyBits {
        /// The piece of the entry.
        piece: Piece,
        /// The square, a1 = 0.
        square: u8,
        /// The mask popcount of the square.
        popcount: u8,
        /// The index bits found.
        bits: u8,
    },
    /// PEXT indexes by exactly the mask popcount.
    PextBits {
        /// The mask popcount of the square.
        popcount: u8,
        /// The index bits found.
        bits: u8,
    },
    /// A multiply variant's magic is zero.
    ZeroMagic,
    /// A plain set keeps one array per square, at its own offset.
    PlainOffset {
        /// The value the rule needs.
        expected: u32,
        /// The offset found.
        offset: i64,
    },
    /// The range runs past the longest table a set may describe (2^26 entries).
    PastTable {
        /// The offset found.
        offset: i64,
    },
    /// Every index of the square is below 0 (its hashes are below `range`).
    BelowZero {
        /// The offset found.
        offset: i64,
        /// The square's range, 2^bits.
        range: i64,
    },
    /// The offset puts an occupancy's index below 0.
    NegativeIndex {
        /// The offset found.
        offset: i64,
        /// The occupancy (relevant squares only) indexed below 0.
        occupancy: u64,
        /// The index it forms.
        index: i64,
    },
    /// A Rust source entry's stored mask is not its square's.
    Mask {
        /// The value found.
        found: u64,
        /// The value the rule needs.
        expected: u64,
    },
    /// A Rust source entry's shift is outside 1..=63.
    Shift(u8),
    /// A Rust source set names no variant this crate knows.
    Variant(String),
}

impl core::fmt::Display for EntryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EntryError::PlainBits { piece, fixed, bits } => write!(
                f,
                "plain magics use {fixed} index bits for every {piece} square, found {bits}"
            ),
            EntryError::PackedBits {
                variant,
                piece,
                fixed,
                bits,
            } => write!(
                f,
                "index bits {bits} out of range 1..={fixed} ({variant} {piece} squares)"
            ),
            EntryError::FancyBits {
                piece,
                square,
                popcount,
                bits,
            } => write!(
                f,
                "index bits {bits} out of range 1..={popcount} (the mask popcount of {piece} {})",
                square_name(*square)
            ),
            EntryError::PextBits { popcount, bits } => write!(
                f,
                "PEXT needs index bits = mask popcount {popcount}, found {bits}"
            ),
            EntryError::ZeroMagic => f.write_str("magic is zero"),
            EntryError::PlainOffset { expected, offset } => write!(
                f,
                "plain tables keep one array per square: offset must be {expected}, found {offset}"
            ),
            EntryError::PastTable { offset } => write!(
                f,
                "offset {offset} puts the range past {MAX_TABLE_LEN} entries"
            ),
            EntryError::BelowZero { offset, range } => write!(
                f,
                "offset {offset} puts every index of the square below 0 (its hashes are below \
                 {range})"
            ),
            EntryError::NegativeIndex {
                offset,
                occupancy,
                index,
            } => write!(
                f,
                "offset {offset} puts occupancy {occupancy:#018x} at index {index}, below 0"
            ),
            EntryError::Mask { found, expected } => write!(
                f,
                "mask {found:#018x} is not the relevant mask {expected:#018x}"
            ),
            EntryError::Shift(shift) => write!(f, "shift {shift} out of range 1..=63"),
            EntryError::Variant(name) => write!(f, "unknown variant '{name}'"),
        }
    }
}

impl std::error::Error for EntryError {}
