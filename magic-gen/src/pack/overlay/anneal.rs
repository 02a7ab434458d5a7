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

use std::sync::atomic::Ordering;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::annealing::{cooling, metropolis};
use crate::stages::Progress;

use super::layout::{Choices, Layout};

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
fn unit(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Makes `moves` moves of the search on `layout`, whose squares came in `order` (seeded
/// `seed`), or fewer if `progress`'s stop flag is set, counting them in `progress` with
/// the best length met (added to and lowered: other seeds may count there too). Returns
/// the shortest layout met (ties: the earliest) with its length, and the moves made; the
/// result depends only on the layout, the order, the seed and the moves made.
pub(super) fn anneal(
    layout: &mut Layout,
    order: &mut [usize],
    seed: u64,
    moves: u64,
    progress: &Progress,
) -> ((Choices, usize), u64) {
    let mut best = (layout.choices.clone(), layout.len());
    let n = order.len();
    if n < 2 {
        return (best, 0);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut temperature = HOT;
    let cool = cooling(HOT, COLD, moves);
    let mut now = cost(layout);
    let mut before: Choices = Vec::with_capacity(n);
    let mut made = 0;
    while made < moves && !progress.stop.load(Ordering::Relaxed) {
        let a = (rng.next_u64() % n as u64) as usize;
        let b = (a + 1 + (rng.next_u64() % REACH) as usize).min(n - 1);
        order.swap(a, b);
        let tail = &order[a..];
        before.clear();
        before.extend(tail.iter().map(|&s| layout.choices[s]));
        for &s in tail {
            layout.remove(s);
        }
        for &s in tail {
            layout.insert(s);
        }
        let next = cost(layout);
        if metropolis(next - now, temperature, unit(&mut rng)) {
            now = next;
            let len = layout.len();
            if len < best.1 {
                best = (layout.choices.clone(), len);
                progress.best_len.fetch_min(len, Ordering::Relaxed);
            }
        } else {
            for &s in tail {
                layout.remove(s);
            }
            for (&s, &choice) in tail.iter().zip(&before) {
                layout.put(s, choice);
            }
            order.swap(a, b);
        }
        temperature *= cool;
        made += 1;
        progress.moves.fetch_add(1, Ordering::Relaxed);
    }
    (best, made)
}
