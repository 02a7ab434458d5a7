//! A hunt's pools measured: every magic a search state keeps, and the best of each square.

use crate::geometry::Piece;
use crate::index::Variant;
use crate::search::SearchState;

use super::squares::{MeasureError, Measured, Occupancies, PerSquare};
use super::tables::{place, ENDS};

/// Returns a measured magic's columns: index bits, slots used, span, lead, tail.
fn columns(m: &Measured) -> String {
    let r = m.range;
    format!(
        "{:>4} {:>6} {:>6} {:>6} {:>6}",
        r.bits,
        r.used,
        r.span(),
        r.lead,
        r.tail
    )
}

/// Returns the legend of the pools' tables.
fn legend() -> String {
    format!("span: first to last slot of the run (the search's own measure); {ENDS}")
}

/// One magic a search state keeps, measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PoolMember {
    /// The piece.
    pub(crate) piece: Piece,
    /// Its square, a1 = 0.
    pub(crate) square: u8,
    /// Its place in its job's finds, 0 first: the pool by rank, then the sparse finds.
    pub(crate) rank: usize,
    /// The magic and where its occupancies land.
    pub(crate) measured: Measured,
}

/// Every magic a search state's pools hold, measured, in the state's order (rook a1 to
/// bishop h8; a square with a job per shift has its jobs in turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pools {
    /// The state's variant.
    pub(crate) variant: Variant,
    /// Every member.
    pub(crate) members: Vec<PoolMember>,
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
    pub(crate) fn of_square(&self, piece: Piece, square: u8) -> impl Iterator<Item = &PoolMember> {
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

    /// Returns the pools in a line: the variant, the magics they hold and the squares
    /// they cover, and which magic [`Pools::best`] takes per square.
    pub fn summary(&self) -> String {
        format!(
            "{} search state, {} magics in the pools of {} of 128 squares; per square the one \
             with the fewest slots used (ties: the shorter span)",
            self.variant,
            self.members.len(),
            self.best().measured()
        )
    }

    /// Returns the table of each square's best magic ([`Pools::best`]): its pool's size,
    /// index bits, slots used, span, the free slots at its range's ends and the magic; then
    /// the slots these magics use in all.
    pub fn best_table(&self) -> String {
        let best = self.best();
        let mut lines = vec![
            legend(),
            "piece  square pool bits   used   span   lead   tail  magic".to_string(),
        ];
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let pool = self.of_square(piece, sq).count();
                let row = best.get(piece, sq).map_or_else(
                    || format!("{:>4} {:>6} {:>6} {:>6} {:>6}  -", "-", "-", "-", "-", "-"),
                    |m| format!("{}  {:#018x}", columns(m), m.magic),
                );
                lines.push(format!("{} {pool:>4} {row}", place(piece, sq)));
            }
        }
        lines.push(format!(
            "slots used by these magics: {} in all, over {} squares",
            best.total_used(),
            best.measured()
        ));
        lines.join("\n")
    }

    /// Returns the table of every magic of every pool, in the state's order: its rank in
    /// its job's finds, index bits, slots used, span, the free slots at its range's ends
    /// and the magic.
    pub fn members_table(&self) -> String {
        let mut lines = vec![
            legend(),
            "piece  square rank bits   used   span   lead   tail  magic".to_string(),
        ];
        for m in &self.members {
            lines.push(format!(
                "{} {:>4} {}  {:#018x}",
                place(m.piece, m.square),
                m.rank,
                columns(&m.measured),
                m.measured.magic
            ));
        }
        lines.join("\n")
    }
}
