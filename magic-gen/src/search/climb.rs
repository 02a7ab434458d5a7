//! The local-search moves: a climb that removes destructive collisions (fewer bits than
//! the mask popcount) and a climb that makes a valid fixed-shift magic denser.

use std::sync::atomic::{AtomicBool, Ordering};

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::annealing::{cooling, metropolis};

use super::state::pack_cost;
use super::table::EpochTable;

/// Returns `magic` with one random bit flipped, or two (half the time): the move of the
/// reduced-bits climb, drawn from the random word `r`.
fn flip_one_or_two(magic: u64, r: u64) -> u64 {
    let one = magic ^ (1 << (r & 63));
    if r & 64 != 0 {
        one ^ (1 << ((r >> 8) & 63))
    } else {
        one
    }
}

/// Returns `magic` with one, two or three random bits flipped (3/8, 3/8 and 2/8 of the
/// time; a bit may be flipped back), drawn from the random word `r`: the move of the
/// density climb. Up to three bits reach denser magics than one or two
/// (docs/results/hunts.md).
pub(crate) fn flip_one_to_three(magic: u64, r: u64) -> u64 {
    let mut m = magic ^ (1 << (r & 63));
    if (r >> 6) & 7 >= 3 {
        m ^= 1 << ((r >> 9) & 63);
    }
    if (r >> 6) & 7 >= 6 {
        m ^= 1 << ((r >> 15) & 63);
    }
    m
}

/// Moves between two looks at a climb's stop flag: a move costs microseconds, so a stop is
/// seen within milliseconds, and the look costs nothing next to the moves.
const STOP_CHECK_EVERY: u32 = 1024;

/// How long a climb or an evolution runs: its `steps` (a climb's patience or moves, an
/// evolution's evaluations), fewer if `stop` is set first.
#[derive(Clone, Copy)]
pub(crate) struct Effort<'s, N> {
    /// The patience, moves or evaluations asked for.
    pub steps: N,
    /// The flag that ends it early once set.
    pub stop: Option<&'s AtomicBool>,
}

impl<N> Effort<'_, N> {
    /// Returns the effort of `steps` that nothing stops early.
    pub(crate) const fn unstopped(steps: N) -> Self {
        Effort { steps, stop: None }
    }
}

/// Returns true if `stop` is set, looking only when `moves` is a multiple of
/// [`STOP_CHECK_EVERY`].
fn stopped(stop: Option<&AtomicBool>, moves: u32) -> bool {
    moves % STOP_CHECK_EVERY == 0 && stop.is_some_and(|s| s.load(Ordering::Relaxed))
}

/// A local search that makes a valid fixed-shift magic denser: flip one to three random
/// bits, keep the change if the magic stays valid and its [`pack_cost`] does not grow
/// (moves at equal cost drift freely: preferring the shorter span among them packed
/// worse). Returns the magic with its (used, span): the densest met before `stop` was set,
/// if it was.
pub(crate) fn density_climb(
    entries: &[(u64, u8)],
    bits: u8,
    start: u64,
    rng: &mut Xoshiro256PlusPlus,
    table: &mut EpochTable,
    Effort {
        steps: patience,
        stop,
    }: Effort<u32>,
) -> (u64, (u32, u32)) {
    use rand_xoshiro::rand_core::RngCore;
    let score = |(used, span): (u32, u32)| pack_cost(used, span);
    let mut magic = start;
    let Some(mut current) = table.measure(entries, magic, bits) else {
        return (start, (u32::MAX, u32::MAX));
    };
    let mut stale = 0;
    // Each improvement lowers the integer score and at most `patience` moves separate two,
    // so a climb never needs more moves: a bound that only a broken climb can reach.
    // `stale` counts every move but an improving one, after which it is 0: a look at the
    // stop flag at least every STOP_CHECK_EVERY moves, without a counter of its own.
    for _ in 0..(u64::from(score(current)) + 1) * u64::from(patience) {
        if stale >= patience || stopped(stop, stale) {
            break;
        }
        let trial = flip_one_to_three(magic, rng.next_u64());
        stale += 1;
        if let Some(m) = table.measure(entries, trial, bits) {
            if score(m) < score(current) {
                stale = 0;
            }
            if score(m) <= score(current) {
                magic = trial;
                current = m;
            }
        }
    }
    (magic, current)
}

/// Temperatures of the clump annealing ([`clump_climb`]), in units of its spread, at the
/// first and the last move (from runs on the corner rooks: starting at 20 ended higher,
/// at 0.6 about as low).
const CLUMP_HOT: f64 = 5.0;
const CLUMP_COLD: f64 = 0.5;

/// Anneals a valid white magic for `moves` moves toward used slots gathered in few blocks
/// ([`EpochTable::clumped`]: the spread falls as slots gather), flipping one to three bits
/// a move and keeping valid trials by the Metropolis rule. Returns the magic of the fewest
/// blocked slots met (`start` itself unless one blocks fewer), or `None` if `start` is not
/// a magic; stopped early when `stop` is set. The scan's candidates spread their slots evenly over the range, which leaves
/// other squares no room; clumped ones leave long holes (docs/results/sets.md).
pub(crate) fn clump_climb(
    entries: &[(u64, u8)],
    bits: u8,
    start: u64,
    rng: &mut Xoshiro256PlusPlus,
    table: &mut EpochTable,
    Effort { steps: moves, stop }: Effort<u32>,
) -> Option<u64> {
    use rand_xoshiro::rand_core::RngCore;
    let (blocked, mut spread) = table.clumped(entries, start, bits)?;
    let (mut magic, mut best) = (start, (start, blocked));
    let cool = cooling(CLUMP_HOT, CLUMP_COLD, u64::from(moves));
    let mut temperature = CLUMP_HOT;
    for made in 0..moves {
        if stopped(stop, made) {
            break;
        }
        temperature *= cool;
        let trial = flip_one_to_three(magic, rng.next_u64());
        let Some((blocked, s)) = table.clumped(entries, trial, bits) else {
            continue;
        };
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if metropolis(s - spread, temperature, u) {
            (magic, spread) = (trial, s);
            if blocked < best.1 {
                best = (trial, blocked);
            }
        }
    }
    Some(best.0)
}

/// Returns the climbs a reduced-bit job starts per block: one per 4096 occupancies
/// evaluated per move, so a block costs about the same on every square and round-robin
/// scheduling shares time fairly (64 climbs for a 6-bit bishop, 1 for a 12-bit rook).
pub(crate) const fn climbs_per_block(popcount: u8) -> u64 {
    1 << (12 - if popcount < 12 { popcount } else { 12 })
}

/// Moves without improvement after which a climb gives up. Measured on bishop a3 and b3 at
/// one bit under: 1000 found them 2-10x sooner than 100, 300 or 3000.
const CLIMB_PATIENCE: u32 = 1000;

/// A local search for a magic with fewer bits than the mask popcount, guided by
/// constructive collisions: from `start`, flip one or two random bits at a time and keep
/// the change when it does not add destructive collisions, until none are left or
/// [`CLIMB_PATIENCE`] moves bring no improvement. Random sparse candidates almost never
/// work below the popcount; climbing does (docs/results/hunts.md).
pub(crate) fn climb(
    entries: &[(u64, u8)],
    bits: u8,
    start: u64,
    rng: &mut Xoshiro256PlusPlus,
    table: &mut EpochTable,
) -> Option<u64> {
    use rand_xoshiro::rand_core::RngCore;
    let mut magic = start;
    let mut current = table.conflicts(entries, magic, bits);
    let mut stale = 0;
    // As in the density climb: each improvement lowers the conflicts, and at most
    // CLIMB_PATIENCE moves separate two.
    for _ in 0..(u64::from(current) + 1) * u64::from(CLIMB_PATIENCE) {
        if current == 0 || stale >= CLIMB_PATIENCE {
            break;
        }
        let trial = flip_one_or_two(magic, rng.next_u64());
        let c = table.conflicts(entries, trial, bits);
        stale = if c < current { 0 } else { stale + 1 };
        if c <= current {
            magic = trial;
            current = c;
        }
    }
    (current == 0).then_some(magic)
}

#[cfg(test)]
mod tests;
