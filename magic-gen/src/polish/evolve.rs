//! A search aimed at constructive collisions: a population of valid fixed-shift magics
//! seeded with a pool, each member climbing toward fewer used slots for its span by a
//! weight of its own, and the Pareto front of (used, span) of every magic met. The polish
//! ([`super::climb::density_climb`]) flips bits of one magic by one weight; here the moves
//! also add or subtract a power of two (a carry that turns a run of bits over, the shape of
//! dense magics) and redraw a byte. Children by crossover of two members are an option of
//! the experiments only: they lost (docs/results/magic-search.md).

use std::sync::atomic::{AtomicBool, Ordering};

use rand_xoshiro::rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::search::climb::{flip_one_to_three, Effort};
use crate::search::table::EpochTable;

/// The weights of a pool's evolution ([`EvolveSettings::used_weights`], in quarters of a
/// slot of span): from a used slot worth a quarter of a slot of span to one worth 64, so
/// that the members spread over the trade-offs (docs/results/magic-search.md).
pub(crate) const POOL_WEIGHTS: &[u32] = &[1, 2, 4, 8, 16, 32, 64, 256];

/// Magics of the [`Front`] a pool's evolution adds to the pool at most, spread along it.
pub(crate) const FRONT_KEEP: usize = 8;

/// Evaluations between two looks at an evolution's stop flag.
const STOP_CHECK_EVERY: u64 = 1024;

/// Returns the magics a pool's evolution adds to a pool: [`evolve`] with
/// [`POOL_WEIGHTS`] and carry moves from the pool `seeds` for `evaluations` measures (fewer
/// if `stop` is set), then at most [`FRONT_KEEP`] of its [`Front`] spread evenly from the
/// fewest used slots to the shortest span.
pub(crate) fn evolve_pool(
    entries: &[(u64, u8)],
    bits: u8,
    seeds: &[u64],
    rng: &mut Xoshiro256PlusPlus,
    table: &mut EpochTable,
    Effort {
        steps: evaluations,
        stop,
    }: Effort<u64>,
) -> Vec<u64> {
    let settings = EvolveSettings {
        evaluations,
        used_weights: POOL_WEIGHTS,
        carry_moves: true,
        crossover_every: 0,
    };
    let (_, front) = evolve(entries, bits, seeds, rng, table, &settings, stop);
    spread(front.members())
}

/// Returns the magics of at most [`FRONT_KEEP`] of `members`, spread evenly from the first
/// to the last: all of them if there are no more.
fn spread(members: &[Member]) -> Vec<u64> {
    let keep = members.len().min(FRONT_KEEP);
    // The gaps between the kept, at least one: a lone member is the first.
    let gaps = keep.max(2) - 1;
    (0..keep)
        .map(|i| members[i * (members.len() - 1) / gaps].magic)
        .collect()
}

/// How an evolution runs: its budget, what it minimises and which moves it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EvolveSettings {
    /// Magics measured in all (moves and children): the budget, independent of time.
    pub(crate) evaluations: u64,
    /// What one used slot costs in quarters of a slot of span, member by member in turn
    /// ([`EvolveSettings::cost`]; not empty): members with several weights climb toward
    /// different trade-offs between used slots and end gaps.
    pub(crate) used_weights: &'static [u32],
    /// Moves that add or subtract a power of two, or redraw a byte, besides bit flips.
    pub(crate) carry_moves: bool,
    /// One evaluation in this many is a child of two members (0: none).
    pub(crate) crossover_every: u32,
}

impl EvolveSettings {
    /// Returns the cost to member `member` of a magic with `used` slots in a span of
    /// `span`, lower is better.
    pub(crate) fn cost(&self, member: usize, (used, span): (u32, u32)) -> u64 {
        let weight = self.used_weights[member % self.used_weights.len()];
        u64::from(weight) * u64::from(used) + 4 * u64::from(span)
    }
}

/// One member of the population: a valid magic and its (used, span).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Member {
    /// The magic.
    pub(crate) magic: u64,
    /// Its used slots and span ([`EpochTable::measure`]).
    pub(crate) measure: (u32, u32),
}

/// Returns `magic` changed by one move drawn from `r`: one to three bit flips, or (with
/// `carry` moves, half the time) a power of two added or subtracted, or a byte redrawn.
/// With `carry`, bit 0 of `r` picks a flip (0) or another move, bits 1 and 2 that move
/// (0: add, 1: subtract, else redraw), bits 3 to 8 the power of two, whose place modulo 8
/// is the byte, and bits 9 to 16 the byte's new value.
fn mutate(magic: u64, r: u64, carry: bool) -> u64 {
    if !carry || r & 1 == 0 {
        return flip_one_to_three(magic, r >> 1);
    }
    let at = (r >> 3) & 63;
    match (r >> 1) & 3 {
        0 => magic.wrapping_add(1 << at),
        1 => magic.wrapping_sub(1 << at),
        _ => {
            let byte = (at & 7) * 8;
            (magic & !(0xff << byte)) | (((r >> 9) & 0xff) << byte)
        }
    }
}

/// Returns a child of `a` and `b` drawn from `r`: half the time `b`'s bits above a cut and
/// `a`'s below (a carry chain stays whole below the cut), else each bit from either: `b`'s
/// where `coin` has a one. Bit 0 of `r` picks the cut (0) or the coin, the rest the cut:
/// 1 + (r >> 1) % 63.
fn crossover(a: u64, b: u64, r: u64, coin: u64) -> u64 {
    let take_b = if r & 1 == 0 {
        let cut = 1 + (r >> 1) % 63;
        u64::MAX << cut
    } else {
        coin
    };
    (a & !take_b) | (b & take_b)
}

/// Returns a child of two members of `population` drawn from `r` by [`crossover`] with
/// `coin`, and the place of the member it may replace, drawn from `r` too.
fn child(population: &[Member], r: u64, coin: u64) -> (usize, u64) {
    let n = population.len() as u64;
    let a = population[(r % n) as usize].magic;
    let b = population[((r >> 21) % n) as usize].magic;
    let place = ((r >> 42) % n) as usize;
    (place, crossover(a, b, r >> 8, coin))
}

/// The magics of the fewest used slots for their span met so far: no member has both
/// fewer-or-equal used slots and a shorter-or-equal span than another (the Pareto front of
/// (used, span)), by used slots, the first met kept among equals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Front(Vec<Member>);

impl Front {
    /// Adds `m` unless a member is as good on both counts; drops the members it beats.
    pub(crate) fn offer(&mut self, m: Member) {
        let (used, span) = m.measure;
        if self
            .0
            .iter()
            .any(|f| f.measure.0 <= used && f.measure.1 <= span)
        {
            return;
        }
        self.0
            .retain(|f| !(used <= f.measure.0 && span <= f.measure.1));
        let at = self.0.partition_point(|f| f.measure.0 < used);
        self.0.insert(at, m);
    }

    /// Returns the members, the fewest used slots first (the longest span first).
    pub(crate) fn members(&self) -> &[Member] {
        &self.0
    }
}

/// Evolves the valid ones of `seeds` (the scan's finds) for `settings.evaluations`
/// measures: round-robin each member tries a move and keeps it unless its cost to it
/// grows; every `crossover_every`-th evaluation a child of two members drawn at random
/// takes a third's place if it costs that one less and is not a member already. Returns
/// the population (member `i` climbing by weight `i`) and the [`Front`] of every valid
/// magic measured, seeds included; both empty if no seed is valid. Deterministic for
/// given seeds and `rng` unless `stop` is set, which ends it early.
pub(crate) fn evolve(
    entries: &[(u64, u8)],
    bits: u8,
    seeds: &[u64],
    rng: &mut Xoshiro256PlusPlus,
    table: &mut EpochTable,
    settings: &EvolveSettings,
    stop: Option<&AtomicBool>,
) -> (Vec<Member>, Front) {
    let mut population: Vec<Member> = Vec::new();
    let mut front = Front::default();
    for &magic in seeds {
        if population.iter().any(|m| m.magic == magic) {
            continue;
        }
        if let Some(measure) = table.measure(entries, magic, bits) {
            population.push(Member { magic, measure });
            front.offer(Member { magic, measure });
        }
    }
    if population.is_empty() {
        return (population, front);
    }
    let mut turn = 0;
    for evaluation in 1..=settings.evaluations {
        if evaluation % STOP_CHECK_EVERY == 0 && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        let r = rng.next_u64();
        let n = population.len();
        let (place, trial) = if settings.crossover_every > 0
            && n > 2
            && evaluation % u64::from(settings.crossover_every) == 0
        {
            let (place, child) = child(&population, r, rng.next_u64());
            if population.iter().any(|m| m.magic == child) {
                continue;
            }
            (place, child)
        } else {
            turn = (turn + 1) % n;
            (
                turn,
                mutate(population[turn].magic, r, settings.carry_moves),
            )
        };
        let Some(measure) = table.measure(entries, trial, bits) else {
            continue;
        };
        let member = Member {
            magic: trial,
            measure,
        };
        front.offer(member);
        if settings.cost(place, measure) <= settings.cost(place, population[place].measure) {
            population[place] = member;
        }
    }
    (population, front)
}

#[cfg(test)]
mod tests;
