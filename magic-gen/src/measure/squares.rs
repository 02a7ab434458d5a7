//! One magic's range measured (`RangeUse`), a magic per square ([`PerSquare`]) and two
//! compared ([`PerSquare::compare`]).

use crate::geometry::{relevant_mask, slow_attacks, square_name, subsets, Piece};
use crate::index::{table_index, Variant};
use crate::set::{check_entry, EntryError, MagicSet};

/// Why a magic or a set could not be measured, or two could not be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeasureError {
    /// A set's entry breaks its variant's rules (bits, magic or offset).
    Entry {
        /// The piece of the entry.
        piece: Piece,
        /// Its square, a1 = 0.
        square: u8,
        /// Which rule it breaks.
        reason: EntryError,
    },
    /// Two occupancies with different attacks land on one slot of the square's range: the
    /// multiplier is no magic there.
    Collision {
        /// The piece.
        piece: Piece,
        /// Its square, a1 = 0.
        square: u8,
        /// The multiplier.
        magic: u64,
        /// Its index bits.
        bits: u8,
    },
    /// The two sides of a comparison index differently: slots used would not compare.
    Variants {
        /// The variant of ours.
        ours: Variant,
        /// The variant of theirs.
        theirs: Variant,
    },
}

impl std::error::Error for MeasureError {}

impl std::fmt::Display for MeasureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MeasureError::Entry {
                piece,
                square,
                reason,
            } => write!(f, "{piece} {}: {reason}", square_name(*square)),
            MeasureError::Collision {
                piece,
                square,
                magic,
                bits,
            } => write!(
                f,
                "{piece} {}: {magic:#018x} with {bits} index bits is no magic there: two \
                 occupancies with different attacks share a slot",
                square_name(*square)
            ),
            MeasureError::Variants { ours, theirs } => write!(
                f,
                "ours is {ours} and theirs is {theirs}: slots used compare only within one \
                 variant"
            ),
        }
    }
}

/// Where one magic's occupancies land in its square's range of 2^bits entries, counted from
/// the range's start (the hash before the offset).
///
/// Every key but black's maps the empty occupancy to 0: it always takes the range's first
/// slot, alone (no other occupancy has its attacks), a slot that drops into any hole. The
/// run, its span and the free slots at the start leave it out, as the search's pools do
/// (docs/formats.md, `found ... span`): what counts is where the other occupancies go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RangeUse {
    /// Index bits: the range has 2^bits entries.
    pub bits: u8,
    /// Distinct slots its occupancies reach (constructive collisions count once).
    pub used: u32,
    /// The lowest slot of the run (see above), from the range's start.
    pub first: u32,
    /// The highest slot reached, from the range's start.
    pub last: u32,
    /// Free slots at the range's start: before the run, after the empty occupancy's lone
    /// slot 0 where it has one.
    pub lead: u32,
    /// Free slots at the range's end: after the highest slot reached.
    pub tail: u32,
}

impl RangeUse {
    /// Returns the entries from the run's first slot to its last.
    #[cfg(any(feature = "search", test))]
    pub(crate) fn span(&self) -> u32 {
        self.last + 1 - self.first
    }

    /// Returns the free slots at both ends of the range.
    pub(crate) fn ends(&self) -> u32 {
        self.lead + self.tail
    }
}

/// One square's occupancies and their attacks: measured once, for every magic tried on it.
pub(super) struct Occupancies {
    pub(super) piece: Piece,
    pub(super) square: u8,
    mask: u64,
    /// `(occupancy, attacks)`, one per subset of the mask.
    all: Vec<(u64, u64)>,
}

impl Occupancies {
    pub(super) fn new(piece: Piece, square: u8) -> Occupancies {
        let mask = relevant_mask(piece, square);
        let all = subsets(mask)
            .map(|occ| (occ, slow_attacks(piece, square, occ)))
            .collect();
        Occupancies {
            piece,
            square,
            mask,
            all,
        }
    }

    /// Returns where `magic` with `bits` index bits puts this square's occupancies under
    /// `variant`, or a collision if two with different attacks share a slot.
    pub(super) fn measure(
        &self,
        variant: Variant,
        magic: u64,
        bits: u8,
    ) -> Result<RangeUse, MeasureError> {
        let mut slots: Vec<(u64, u64)> = self
            .all
            .iter()
            .map(|&(occ, attacks)| {
                let index = table_index(variant, occ, self.mask, magic, bits, 0);
                (index as u64, attacks)
            })
            .collect();
        slots.sort_unstable();
        slots.dedup();
        if slots.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(MeasureError::Collision {
                piece: self.piece,
                square: self.square,
                magic,
                bits,
            });
        }
        // Valid, so slot 0 holds the empty occupancy alone where its key is 0.
        let lone_zero = usize::from(variant.key(0, self.mask) == 0 && slots.len() > 1);
        let run = &slots[lone_zero..];
        let (first, last) = (run[0].0 as u32, run[run.len() - 1].0 as u32);
        Ok(RangeUse {
            bits,
            used: slots.len() as u32,
            first,
            last,
            lead: first - lone_zero as u32,
            tail: ((1u64 << bits) - 1 - u64::from(last)) as u32,
        })
    }
}

/// Returns where `magic` with `bits` index bits puts the occupancies of `piece` on `square`
/// under `variant` (the magic is unused for PEXT), or a collision if it is no magic there.
/// `bits` must be in the variant's range (as a set file's or a state file's reader checks).
pub(crate) fn measure_magic(
    variant: Variant,
    piece: Piece,
    square: u8,
    magic: u64,
    bits: u8,
) -> Result<RangeUse, MeasureError> {
    Occupancies::new(piece, square).measure(variant, magic, bits)
}

/// One square's magic and what it uses of its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Measured {
    /// The multiplier.
    pub magic: u64,
    /// Where its occupancies land.
    pub range: RangeUse,
}

/// A magic per square, measured: a set's, or the best of a hunt's pools. A square of a
/// pool may have none (a search that found nothing there yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerSquare {
    /// How the magics index.
    pub(crate) variant: Variant,
    /// `[piece][square]`.
    pub(crate) squares: [[Option<Measured>; 64]; 2],
}

impl PerSquare {
    /// Measures every square of `set`.
    pub fn of_set(set: &MagicSet) -> Result<PerSquare, MeasureError> {
        let mut squares = [[None; 64]; 2];
        for piece in Piece::ALL {
            for square in 0..64u8 {
                let e = set.entry(piece, square);
                check_entry(set.variant, piece, square, e).map_err(|reason| {
                    MeasureError::Entry {
                        piece,
                        square,
                        reason,
                    }
                })?;
                let range = measure_magic(set.variant, piece, square, e.magic, e.bits)?;
                squares[piece.index()][square as usize] = Some(Measured {
                    magic: e.magic,
                    range,
                });
            }
        }
        Ok(PerSquare {
            variant: set.variant,
            squares,
        })
    }

    /// Returns the magic measured on `piece`'s `square`, if it has one.
    pub(crate) fn get(&self, piece: Piece, square: u8) -> Option<&Measured> {
        self.squares[piece.index()][square as usize].as_ref()
    }

    /// Returns the squares that have a magic.
    pub fn measured(&self) -> usize {
        self.squares.iter().flatten().flatten().count()
    }

    /// Returns the slots used by every square's magic. For a set it is the table's slots
    /// used: no two squares have the same attacks, so no slot is shared between squares.
    pub fn total_used(&self) -> u64 {
        self.squares
            .iter()
            .flatten()
            .flatten()
            .map(|m| u64::from(m.range.used))
            .sum()
    }
}

/// One square of a comparison: our magic and theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    /// The piece.
    pub piece: Piece,
    /// Its square, a1 = 0.
    pub square: u8,
    /// Our magic, if we have one there.
    pub ours: Option<Measured>,
    /// Theirs, if they have one there.
    pub theirs: Option<Measured>,
}

impl Row {
    /// Returns our slots used minus theirs, where both have a magic.
    pub(crate) fn difference(&self) -> Option<i64> {
        let (ours, theirs) = (self.ours?, self.theirs?);
        Some(i64::from(ours.range.used) - i64::from(theirs.range.used))
    }
}

/// What a comparison adds up to, over the squares where both sides have a magic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Squares where both have a magic.
    pub squares: usize,
    /// Squares where only one side has one: left out of every count here.
    pub unmatched: usize,
    /// Our slots used.
    pub ours_used: u64,
    /// Their slots used.
    pub theirs_used: u64,
    /// Squares where ours uses no more slots than theirs.
    pub no_more: usize,
    /// Squares where ours uses fewer.
    pub fewer: usize,
    /// Slots ours uses fewer on those squares, in all.
    pub fewer_by: u64,
    /// Squares where ours uses more.
    pub more: usize,
    /// Slots ours uses more on those squares, in all.
    pub more_by: u64,
    /// Free slots at the range's ends of ours, in all.
    pub ours_ends: u64,
    /// Free slots at the range's ends of theirs, in all.
    pub theirs_ends: u64,
}

/// Ours against theirs, square by square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Rook a1 to bishop h8.
    pub(crate) rows: Vec<Row>,
    /// The totals and counts.
    pub(crate) tally: Tally,
}

impl PerSquare {
    /// Compares these magics (ours) with `theirs` square by square; refuses two variants.
    pub fn compare(&self, theirs: &PerSquare) -> Result<Comparison, MeasureError> {
        if self.variant != theirs.variant {
            return Err(MeasureError::Variants {
                ours: self.variant,
                theirs: theirs.variant,
            });
        }
        let mut rows = Vec::with_capacity(128);
        let mut tally = Tally::default();
        for piece in Piece::ALL {
            for square in 0..64u8 {
                let row = Row {
                    piece,
                    square,
                    ours: self.get(piece, square).copied(),
                    theirs: theirs.get(piece, square).copied(),
                };
                match (row.ours, row.theirs) {
                    (Some(o), Some(t)) => tally.add(o.range, t.range),
                    (None, None) => {}
                    _ => tally.unmatched += 1,
                }
                rows.push(row);
            }
        }
        Ok(Comparison { rows, tally })
    }
}

impl Tally {
    /// Counts a square where ours uses `o` and theirs `t`.
    fn add(&mut self, o: RangeUse, t: RangeUse) {
        self.squares += 1;
        self.ours_used += u64::from(o.used);
        self.theirs_used += u64::from(t.used);
        self.ours_ends += u64::from(o.ends());
        self.theirs_ends += u64::from(t.ends());
        if o.used <= t.used {
            self.no_more += 1;
        }
        if o.used < t.used {
            self.fewer += 1;
            self.fewer_by += u64::from(t.used - o.used);
        } else if o.used > t.used {
            self.more += 1;
            self.more_by += u64::from(o.used - t.used);
        }
    }
}
