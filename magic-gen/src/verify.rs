//! Exhaustive verification: every square, every relevant occupancy subset, against the
//! slow ray walk. Constructive collisions (same attacks, same slot) are allowed, also
//! across squares where fixed-shift ranges overlap; a destructive one is a failure. In an
//! overlay set ([`Variant::is_overlay`]) a slot holds the OR of its users' attacks and a
//! lookup masks it with the square's empty-board attacks, so a collision is destructive
//! only where the two disagree on squares both can attack. Verification fills the table as
//! it goes, so a verified set comes with its table.

use core::fmt;

use crate::geometry::{relevant_mask, slow_attacks, square_name, subsets, Piece, SetSquare};
use crate::index::{table_index, Variant};
use crate::set::{check_entry, EntryError, MagicSet};

/// One reason a set is rejected, always naming the piece and square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The entry breaks its variant's rules (bits, magic or offset).
    Entry {
        /// The piece of the entry.
        piece: Piece,
        /// Its square, a1 = 0.
        square: u8,
        /// Which rule it breaks.
        reason: EntryError,
    },
    /// Two occupancies with different attacks land on the same slot.
    Collision(Collision),
}

/// A destructive collision: `occupancy` of `piece` on `square` lands on `index`, which
/// already holds the different attacks of `other_occupancy` of `other_piece` on `other_square`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    /// The piece whose occupancy collided.
    pub piece: Piece,
    /// Its square, a1 = 0.
    pub square: u8,
    /// The occupancy (relevant squares only) that collided.
    pub occupancy: u64,
    /// The piece that holds the slot already.
    pub other_piece: Piece,
    /// Its square.
    pub other_square: u8,
    /// Its occupancy that holds the slot.
    pub other_occupancy: u64,
    /// The slot both reach, in the shared table.
    pub index: usize,
}

impl Failure {
    /// Returns the piece and square the failure is reported under: for a collision, the
    /// square whose occupancy found the slot taken.
    pub fn place(&self) -> SetSquare {
        let (piece, square) = match self {
            Failure::Entry { piece, square, .. } => (*piece, *square),
            Failure::Collision(c) => (c.piece, c.square),
        };
        SetSquare { piece, square }
    }

    /// Returns the other square of a collision between two squares (the one verified
    /// first, which holds the slot), or `None` for a failure of one square alone.
    pub fn other_square(&self) -> Option<SetSquare> {
        match self {
            Failure::Collision(c) if (c.other_piece, c.other_square) != (c.piece, c.square) => {
                Some(SetSquare {
                    piece: c.other_piece,
                    square: c.other_square,
                })
            }
            _ => None,
        }
    }

    /// Returns the failure as `piece square: what is wrong`. A collision between two
    /// squares names both, the one verified first leading, and gives the other's line in
    /// its file where `place_line` (the line of [`Failure::place`]) is known: either entry
    /// may be the wrong one.
    pub fn describe(&self, place_line: Option<usize>) -> String {
        let c = match self {
            Failure::Entry {
                piece,
                square,
                reason,
            } => return format!("{piece} {}: {reason}", square_name(*square)),
            Failure::Collision(c) => c,
        };
        let here = format!("{} {}", c.piece, square_name(c.square));
        if self.other_square().is_none() {
            return format!(
                "{here}: destructive collision at index {}: occupancies {:#018x} and {:#018x} \
                 need different attacks",
                c.index, c.other_occupancy, c.occupancy
            );
        }
        let first = format!("{} {}", c.other_piece, square_name(c.other_square));
        let at = place_line.map_or(String::new(), |line| format!(" (line {line})"));
        format!(
            "{first} and {here}{at}: destructive collision at index {}: occupancy {:#018x} of \
             {first} and {:#018x} of {here} need different attacks; their ranges overlap, so \
             the magic, bits or offset of one of the two is wrong",
            c.index, c.other_occupancy, c.occupancy
        )
    }
}

/// Returns the squares `failures` involve (both of a collision between two squares), each
/// with the number of failures it is in: most first, ties in order of first appearance.
pub(crate) fn squares_at_fault(failures: &[Failure]) -> Vec<(SetSquare, usize)> {
    let mut squares: Vec<(SetSquare, usize)> = Vec::new();
    for f in failures {
        for at in f.other_square().into_iter().chain([f.place()]) {
            match squares.iter_mut().find(|(s, _)| *s == at) {
                Some((_, n)) => *n += 1,
                None => squares.push((at, 1)),
            }
        }
    }
    // Stable: ties keep their order of first appearance.
    squares.sort_by_key(|&(_, n)| core::cmp::Reverse(n));
    squares
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(None))
    }
}

/// What verification measured of a collision-free set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The set's index variant.
    pub variant: Variant,
    /// Entries in the shared table: one past the highest index any occupancy reaches.
    pub table_len: usize,
    /// Distinct slots some occupancy reaches.
    pub slots_used: usize,
    /// Index bits, `[piece][square]`.
    pub bits: [[u8; 64]; 2],
    /// Where each square's occupancies land, `[piece][square]`.
    pub squares: [[SquareUse; 64]; 2],
}

/// The slots one square's occupancies reach in the shared table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareUse {
    /// The lowest table index it reaches.
    pub first: usize,
    /// The highest table index it reaches.
    pub last: usize,
    /// Distinct table indices it reaches (constructive collisions count once).
    pub used: usize,
}

impl SquareUse {
    /// Returns the entries from its first to its last slot.
    pub fn span(&self) -> usize {
        self.last + 1 - self.first
    }

    /// Returns the slots of its span it does not use: room for other squares.
    pub fn holes(&self) -> usize {
        self.span() - self.used
    }
}

impl Report {
    /// Returns the lines `verify` and `stats` print of the table's size: its length, the
    /// slots used and the holes.
    pub fn size_lines(&self) -> String {
        format!(
            "table length: {} entries ({:.1} KiB of u64)\nslots used:   {} ({:.1}% of the \
             table)\nholes:        {} (slots no occupancy reaches)",
            self.table_len,
            self.kib(8),
            self.slots_used,
            self.fill_percent(),
            self.holes()
        )
    }

    /// Returns the slots of the table no occupancy reaches.
    pub fn holes(&self) -> usize {
        self.table_len - self.slots_used
    }

    /// Returns the table size in KiB for entries of `entry_bytes` bytes.
    pub fn kib(&self, entry_bytes: usize) -> f64 {
        (self.table_len * entry_bytes) as f64 / 1024.0
    }

    /// Returns how many squares of `piece` use fewer bits than their mask popcount.
    pub fn squares_below_popcount(&self, piece: Piece) -> usize {
        (0..64u8)
            .filter(|&sq| {
                (self.bits[piece.index()][sq as usize] as u32)
                    < relevant_mask(piece, sq).count_ones()
            })
            .count()
    }

    /// Returns the entries the ranges of 2^bits of `piece`'s squares add up to: the table
    /// of ranges laid end to end.
    pub fn range_total(&self, piece: Piece) -> u64 {
        self.bits[piece.index()].iter().map(|&b| 1u64 << b).sum()
    }

    /// Returns the entries the ranges of `piece`'s squares add up to with standard bits
    /// (each square's mask popcount), laid end to end: what the bits chosen compare with.
    pub fn standard_total(piece: Piece) -> u64 {
        (0..64u8)
            .map(|sq| 1u64 << relevant_mask(piece, sq).count_ones())
            .sum()
    }

    /// Returns the percentage of the table's slots some occupancy reaches (0 for an empty
    /// table).
    pub fn fill_percent(&self) -> f64 {
        match self.table_len {
            0 => 0.0,
            len => 100.0 * self.slots_used as f64 / len as f64,
        }
    }

    /// Returns the spans (first to last slot) of all squares added up, and the entries
    /// the table saves over those spans laid end to end: what interleaving them gains.
    pub fn spans_and_saving(&self) -> (usize, usize) {
        let spans: usize = self.squares.iter().flatten().map(|u| u.span()).sum();
        (spans, spans.saturating_sub(self.table_len))
    }
}

/// A verified set with its filled attack table (unused slots hold 0).
#[derive(Clone, Debug)]
pub struct Verified {
    /// Sizes and per-square usage.
    pub report: Report,
    /// The filled table: `table[set.index(piece, sq, occ)]` is the attack set; in an
    /// overlay set, the OR of its users' attack sets, which the square's empty-board
    /// attacks mask to its own.
    pub table: Vec<u64>,
    /// Per slot, the square that wrote it (`piece.index() * 64 + square`), or
    /// [`Verified::HOLE`] where none did.
    pub owner: Vec<u8>,
}

impl Verified {
    /// The owner of a slot no occupancy reaches.
    pub const HOLE: u8 = u8::MAX;
}

/// Most failures reported per square: one bad magic can collide thousands of times.
const FAILURES_PER_SQUARE: usize = 1;

/// Verifies `set` exhaustively and fills its table. Returns every failing square (the
/// first failure of each) if the set is not collision-free.
pub fn verify(set: &MagicSet) -> Result<Verified, Vec<Failure>> {
    let len = checked_entries(set)?;
    let mut fill = Fill::new(len, set.variant.is_overlay());
    let mut failures = Vec::new();
    let mut squares = [[SquareUse::default(); 64]; 2];
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            squares[piece.index()][sq as usize] = fill.square(set, piece, sq, &mut failures);
        }
    }
    if !failures.is_empty() {
        return Err(failures);
    }
    let (table_len, slots_used) = (fill.table_len, fill.used);
    fill.table.truncate(table_len);
    fill.owner.truncate(table_len);
    Ok(Verified {
        report: Report {
            variant: set.variant,
            table_len,
            slots_used,
            bits: set.bits(),
            squares,
        },
        table: fill.table,
        owner: fill.owner,
    })
}

/// Checks every entry of `set` on its own ([`check_entry`]) and returns the length of
/// table their ranges reach, or every entry that fails.
fn checked_entries(set: &MagicSet) -> Result<usize, Vec<Failure>> {
    let mut failures = Vec::new();
    let mut len = 0usize;
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entry(piece, sq);
            match check_entry(set.variant, piece, sq, e) {
                Ok(()) => len = len.max((e.offset + (1i64 << e.bits)).max(0) as usize),
                Err(reason) => failures.push(Failure::Entry {
                    piece,
                    square: sq,
                    reason,
                }),
            }
        }
    }
    match failures.is_empty() {
        true => Ok(len),
        false => Err(failures),
    }
}

/// The table as the squares fill it: each slot's attack set and who wrote it first (to
/// name both sides of a collision), and the last square to reach each slot (to count each
/// square's distinct slots). An overlay table also keeps, per slot, the squares its users'
/// lookups read through: the OR of their empty-board attacks.
struct Fill {
    visited: Vec<u8>,
    table: Vec<u64>,
    owner: Vec<u8>,
    owner_occ: Vec<u64>,
    /// Per slot of an overlay table, its users' empty-board attacks ORed; empty otherwise.
    read_through: Vec<u64>,
    /// Slots written.
    used: usize,
    /// One past the highest slot written.
    table_len: usize,
}

impl Fill {
    /// Returns an empty table of `len` slots, of an overlay set if `overlay`.
    fn new(len: usize, overlay: bool) -> Fill {
        Fill {
            visited: vec![Verified::HOLE; len],
            table: vec![0u64; len],
            owner: vec![Verified::HOLE; len],
            owner_occ: vec![0u64; len],
            read_through: if overlay { vec![0u64; len] } else { Vec::new() },
            used: 0,
            table_len: 0,
        }
    }

    /// Writes every occupancy of `piece` on `sq` to its slot, adding to `failures` a
    /// negative index or the first collision of the square, and returns the slots it uses.
    fn square(
        &mut self,
        set: &MagicSet,
        piece: Piece,
        sq: u8,
        failures: &mut Vec<Failure>,
    ) -> SquareUse {
        let mask = relevant_mask(piece, sq);
        let rays = set.variant.reads_through(piece, sq);
        let me = SetSquare { piece, square: sq }.index() as u8;
        let mut reported = 0;
        let mut reach = SquareUse {
            first: usize::MAX,
            ..SquareUse::default()
        };
        let e = set.entry(piece, sq);
        for occ in subsets(mask) {
            let attacks = slow_attacks(piece, sq, occ);
            // `set.index` with the mask at hand: recomputing it took a third of the time.
            let index = table_index(set.variant, occ, mask, e.magic, e.bits, e.offset);
            let Ok(i) = usize::try_from(index) else {
                failures.push(Failure::Entry {
                    piece,
                    square: sq,
                    reason: EntryError::NegativeIndex {
                        offset: e.offset,
                        occupancy: occ,
                        index,
                    },
                });
                break;
            };
            reach.first = reach.first.min(i);
            reach.last = reach.last.max(i);
            if self.visited[i] != me {
                self.visited[i] = me;
                reach.used += 1;
            }
            let Some((other, other_occupancy)) = self.write(i, me, occ, attacks, rays) else {
                continue;
            };
            let other = SetSquare::from_index(other);
            if reported < FAILURES_PER_SQUARE {
                failures.push(Failure::Collision(Collision {
                    piece,
                    square: sq,
                    occupancy: occ,
                    other_piece: other.piece,
                    other_square: other.square,
                    other_occupancy,
                    index: i,
                }));
            }
            reported += 1;
        }
        reach
    }

    /// Writes `attacks`, of occupancy `occ` of square `me` whose lookup reads through
    /// `rays`, to slot `i`; returns the square that wrote the slot first and its occupancy
    /// if the slot cannot hold both. A slot holds one attack set; in an overlay table the
    /// OR of its users', which takes `attacks` where the two agree on the squares both
    /// read: `attacks` on the users' rays, the slot on `rays`.
    fn write(
        &mut self,
        i: usize,
        me: u8,
        occ: u64,
        attacks: u64,
        rays: u64,
    ) -> Option<(usize, u64)> {
        if self.owner[i] == Verified::HOLE {
            self.owner[i] = me;
            self.owner_occ[i] = occ;
            self.table[i] = attacks;
            if let Some(through) = self.read_through.get_mut(i) {
                *through = rays;
            }
            self.used += 1;
            self.table_len = self.table_len.max(i + 1);
            return None;
        }
        let fits = match self.read_through.get_mut(i) {
            None => self.table[i] == attacks,
            Some(through) => {
                let fits = self.table[i] & rays == attacks & *through;
                if fits {
                    self.table[i] |= attacks;
                    *through |= rays;
                }
                fits
            }
        };
        match fits {
            true => None,
            false => Some((self.owner[i] as usize, self.owner_occ[i])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::relevant_bits;

    #[test]
    fn pext_set_verifies_with_the_standard_size() {
        let v = verify(&MagicSet::pext()).expect("PEXT is a perfect index");
        assert_eq!(v.report.table_len, 107_648);
        assert_eq!(v.report.slots_used, 107_648);
        // Spot check against the ray walk through the filled table.
        let set = MagicSet::pext();
        let occ = 0x0000_1000_0400_2000u64;
        let e4 = 28;
        let mask = relevant_mask(Piece::Rook, e4);
        assert_eq!(
            v.table[set.index(Piece::Rook, e4, occ & mask) as usize],
            slow_attacks(Piece::Rook, e4, occ)
        );
    }

    #[test]
    fn a_bad_magic_is_rejected_by_piece_and_square() {
        let mut set = MagicSet::new(Variant::Fancy);
        let mut offset = 0;
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                // A magic of 1 keeps only the high bits of the key: collides everywhere.
                let bits = relevant_bits(piece, sq);
                *set.entry_mut(piece, sq) = crate::set::Entry {
                    magic: 1,
                    bits,
                    offset,
                };
                offset += 1 << bits;
            }
        }
        let failures = verify(&set).unwrap_err();
        let rook_a1 = SetSquare {
            piece: Piece::Rook,
            square: 0,
        };
        assert!(failures.iter().any(|f| f.place() == rook_a1));
        let text = failures[0].to_string();
        assert!(text.starts_with("rook a1: destructive collision"), "{text}");
    }

    #[test]
    fn per_square_usage_counts_distinct_slots_and_holes() {
        // Plain layout: every square has its own range, so its slots are its own.
        let v = verify(&MagicSet::pext()).unwrap();
        let r = &v.report;
        assert_eq!(r.holes(), 0);
        let rook_a1 = r.squares[Piece::Rook.index()][0];
        assert_eq!((rook_a1.first, rook_a1.last, rook_a1.used), (0, 4095, 4096));
        assert_eq!(rook_a1.holes(), 0);
        let total: usize = r.squares.iter().flatten().map(|s| s.used).sum();
        assert_eq!(total, r.slots_used);
        // Owners: each slot names the square whose range it is in.
        let bishop_h8 = r.squares[Piece::Bishop.index()][63];
        assert_eq!(v.owner[bishop_h8.first], 127);
        assert_eq!(v.owner.len(), r.table_len);
    }
}
