//! The overlay packer's local search: ruin and recreate on the layout itself, the ruin
//! cut along an order of the squares. A move swaps two squares a few places apart in the
//! order, takes out every square from the earlier place on and puts them back one by one
//! at their first fits in the new order; the squares before it keep their places, so a
//! move costs what its tail costs, not a whole layout. The Metropolis rule
//! (`crate::annealing`) keeps or undoes the move, judged by the table length plus a
//! little of the ranges' mean end: room made low in the table counts before it shortens
//! the table, and a move that lengthens it a little may be kept while hot.
//!
//! Moves that leave the squares around in place (a few squares out and back at their
//! first fits, or one pushed down with the squares in its way sent to their first fits)
//! were measured weaker: a square taken out mostly comes back where it was, and the rest
//! land past the table's end (docs/results/hunts.md, "Overlay tables").

use crate::annealing::{cooling, metropolis};

use super::layout::{Choices, Layout};
use super::wants::Wants;
use crate::pack::anneal::{check_draws, check_lengths, damaged, Draws, SavedLayouts};
use crate::pack::checkpoint::{pool_name, PackCheckpoint, PackKey, PackMismatch, PackSquare};
use crate::pack::pattern::Pattern;

/// Temperature of the search at its first move, in table slots.
const HOT: f64 = 8.0;
/// Temperature of the search at its last move, in table slots.
const COLD: f64 = 0.3;
/// Weight of the ranges' mean end beside the table length.
const SPREAD: f64 = 0.1;
/// The most places apart in the order two swapped squares are.
const REACH: u64 = 8;

/// Returns what a layout costs: its length plus [`SPREAD`] times its ranges' mean end.
fn cost(layout: &Layout) -> f64 {
    let squares = layout.pools().len().max(1) as f64;
    layout.len() as f64 + SPREAD * layout.end_sum() as f64 / squares
}

/// Returns a uniform draw in [0, 1) from `rng`.
fn unit(rng: &mut Draws) -> f64 {
    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
}

/// The search between two moves: the layout and the order its squares came in, the random
/// stream, the moves made of the run's, the temperature and the shortest layout met. A
/// move depends on nothing else (its cost is the layout's), so a [`PackCheckpoint`] of
/// these resumes to exactly the moves an uninterrupted run makes.
#[derive(Clone)]
pub(super) struct Annealing<'a> {
    pub(super) layout: Layout<'a>,
    order: Vec<usize>,
    rng: Draws,
    pub(super) made: u64,
    pub(super) moves: u64,
    temperature: f64,
    cool: f64,
    /// The shortest layout met (ties: the earliest) and its length.
    pub(super) best: (Choices, usize),
}

impl<'a> Annealing<'a> {
    /// Returns the search of `moves` moves seeded `seed` from `layout`, whose squares came
    /// in `order`.
    pub(super) fn new(layout: Layout<'a>, order: Vec<usize>, seed: u64, moves: u64) -> Self {
        Annealing {
            best: (layout.choices.clone(), layout.len()),
            layout,
            order,
            rng: Draws::new(seed, 0),
            made: 0,
            moves,
            temperature: HOT,
            cool: cooling(HOT, COLD, moves),
        }
    }

    /// Returns true once every move is made (or there are no two squares to swap).
    pub(super) fn finished(&self) -> bool {
        self.made >= self.moves || self.order.len() < 2
    }

    /// Makes one move: swaps two squares a few places apart in the order, takes out every
    /// square from the earlier place on and puts them back at their first fits in the new
    /// order, then keeps the result or puts the squares back where they were.
    pub(super) fn step(&mut self) {
        let n = self.order.len();
        let now = cost(&self.layout);
        let a = (self.rng.next() % n as u64) as usize;
        let b = (a + 1 + (self.rng.next() % REACH) as usize).min(n - 1);
        self.order.swap(a, b);
        let tail = &self.order[a..];
        let before: Choices = tail.iter().map(|&s| self.layout.choices[s]).collect();
        for &s in tail {
            self.layout.remove(s);
        }
        for &s in tail {
            self.layout.insert(s);
        }
        let next = cost(&self.layout);
        if metropolis(next - now, self.temperature, unit(&mut self.rng)) {
            let len = self.layout.len();
            if len < self.best.1 {
                self.best = (self.layout.choices.clone(), len);
            }
        } else {
            for &s in tail {
                self.layout.remove(s);
            }
            for (&s, &choice) in tail.iter().zip(&before) {
                self.layout.put(s, choice);
            }
            self.order.swap(a, b);
        }
        self.temperature *= self.cool;
        self.made += 1;
    }

    /// Returns the checkpoint of the search as it stands, in the packing `key`.
    pub(super) fn checkpoint(&self, key: &PackKey) -> PackCheckpoint {
        let mut place = vec![0; self.order.len()];
        for (at, &sq) in self.order.iter().enumerate() {
            place[sq] = at;
        }
        let squares = (0..self.order.len()).map(|sq| {
            let ((member, start), (best_member, best_start)) =
                (self.layout.choices[sq], self.best.0[sq]);
            PackSquare {
                square: sq,
                place: place[sq],
                member,
                best_place: place[sq],
                best_member,
                starts: Some((start, best_start)),
            }
        });
        PackCheckpoint {
            settings: key.settings,
            pools: key.pools,
            moves: self.made,
            draws: self.rng.drawn,
            temperature: self.temperature.to_bits(),
            cool: self.cool.to_bits(),
            length: self.layout.len(),
            best_length: self.best.1,
            squares: squares.collect(),
        }
    }

    /// Returns the search `checkpoint` saved, over `wanted` (what the members of `pools`
    /// want of the table) packed as `key` says. Refuses a checkpoint of another packing or
    /// an exact one, one whose places are not each square's own, whose squares do not fit
    /// where it says, or whose layouts do not give its lengths.
    pub(super) fn resume(
        (pools, wanted): (&[Vec<Pattern>], &'a [Vec<Wants>]),
        key: &PackKey,
        checkpoint: &PackCheckpoint,
    ) -> Result<Self, PackMismatch> {
        key.check(checkpoint)?;
        check_draws(checkpoint)?;
        let saved = SavedLayouts::of(pools, checkpoint)?;
        let (mut layout, mut best) = (Layout::new(wanted), Layout::new(wanted));
        for s in &checkpoint.squares {
            let at = format!("pack-square {}", pool_name(s.square));
            let Some((start, best_start)) = s.starts else {
                return Err(damaged(
                    at,
                    "no start, where an overlay packing saves one".into(),
                ));
            };
            for (l, member, start) in [
                (&mut layout, saved.member[s.square], start),
                (&mut best, saved.best_member[s.square], best_start),
            ] {
                if !l.fits(s.square, (member, start)) {
                    let m = format!("member {member} does not fit at {start}");
                    return Err(damaged(at, m));
                }
                l.put(s.square, (member, start));
            }
        }
        check_lengths(checkpoint, (layout.len(), best.len()))?;
        Ok(Annealing {
            best: (best.choices, checkpoint.best_length),
            layout,
            order: saved.order,
            rng: Draws::new(key.settings.seed, checkpoint.draws),
            made: checkpoint.moves,
            moves: key.settings.iterations,
            temperature: f64::from_bits(checkpoint.temperature),
            cool: f64::from_bits(checkpoint.cool),
        })
    }
}
