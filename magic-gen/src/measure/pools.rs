//! A hunt's pools measured: every magic a search state keeps, and the best of each square.

use crate::geometry::Piece;
use crate::index::Variant;
use crate::search::SearchState;

use super::squares::{MeasureError, Measured, Occupancies, PerSquare};

/// One magic a search state keeps, measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolMember {
    /// The piece.
    pub piece: Piece,
    /// Its square, a1 = 0.
    pub square: u8,
    /// Its place in its job's finds, 0 first: the pool by rank, then the sparse finds.
    pub rank: usize,
    /// The magic and where its occupancies land.
    pub measured: Measured,
}

/// Every magic a search state's pools hold, measured, in the state's order (rook a1 to
/// bishop h8; a square with a job per shift has its jobs in turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pools {
    /// The state's variant.
    pub variant: Variant,
    /// Every member.
    pub members: Vec<PoolMember>,
}

impl Pools {
    /// Measures every magic `state` keeps, or returns the first that is no magic on its
    /// square (a state file's reader checks its numbers, not its magics).
    pub fn of_state(state: &SearchState) -> Result<Pools, MeasureError> {
        let variant = state.scan.variant;
        let mut members = Vec::new();
        let mut occupancies: Option<Occupancies> = None;
        for job in &state.jobs {
            let same = occupancies
                .as_ref()
                .is_some_and(|o| (o.piece, o.square) == (job.piece, job.square));
            if !same {
                occupancies = Some(Occupancies::new(job.piece, job.square));
            }
            let Some(on) = occupancies.as_ref() else {
                unreachable!("measured above")
            };
            for (rank, found) in job.found.iter().enumerate() {
                members.push(PoolMember {
                    piece: job.piece,
                    square: job.square,
                    rank,
                    measured: Measured {
                        magic: found.magic,
                        range: on.measure(variant, found.magic, job.bits)?,
                    },
                });
            }
        }
        Ok(Pools { variant, members })
    }

    /// Returns the members of `piece`'s `square`.
    pub fn of_square(&self, piece: Piece, square: u8) -> impl Iterator<Item = &PoolMember> {
        self.members
            .iter()
            .filter(move |m| (m.piece, m.square) == (piece, square))
    }

    /// Returns each square's member with the fewest slots used (ties: the shortest span,
    /// then the first in the state's order): what the pools offer against a set.
    pub fn best(&self) -> PerSquare {
        let mut squares: [[Option<Measured>; 64]; 2] = [[None; 64]; 2];
        for m in &self.members {
            let best = &mut squares[m.piece.index()][m.square as usize];
            let key = |r: &Measured| (r.range.used, r.range.span());
            if best.is_none_or(|b| key(&m.measured) < key(&b)) {
                *best = Some(m.measured);
            }
        }
        PerSquare {
            variant: self.variant,
            squares,
        }
    }
}
