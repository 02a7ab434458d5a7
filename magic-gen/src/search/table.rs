//! The slot table of the inner loop: a table cleared in O(1) per candidate
//! ([`EpochTable`]) that tests, counts or measures a candidate's collisions over one
//! square's occupancies ([`SquareData`]), and the slots a white magic blocks for other
//! squares.

use std::ops::ControlFlow;

#[cfg(any(test, doc))]
use crate::occupancy::SquareData;

/// Candidates [`EpochTable::first_accepted`] draws and sieves at a time.
const BATCH: usize = 32;

/// Entries the sieve of [`EpochTable::first_accepted`] tests against the empty occupancy.
const SIEVE: usize = 6;

/// Holes shorter than this between two used slots of one square count as blocked (see
/// [`EpochTable::blocked`]; a judgement, the only value measured).
pub(crate) const SHORT_HOLE: u32 = 16;

/// Slots per block of the spread [`EpochTable::clumped`] measures: climbs with blocks of 64
/// reached fewer blocked slots than with 16 or 32 (docs/results/sets.md).
pub(crate) const CLUMP_BLOCK: usize = 64;

// [`EpochTable::clumped`] holds a block's used slots in one word.
const _: () = assert!(CLUMP_BLOCK == 64);

/// A slot table cleared in O(1) between candidates by bumping an epoch stamp.
pub(crate) struct EpochTable {
    /// `epoch << 8 | attack id`: a slot belongs to the current candidate only if its
    /// epoch matches.
    slots: Vec<u32>,
    epoch: u32,
    /// Scratch of [`EpochTable::clumped`]: the current candidate's used slots as bits.
    used: Vec<u64>,
}

impl EpochTable {
    /// Returns a table of `2^bits` slots.
    pub(crate) fn new(bits: u8) -> EpochTable {
        EpochTable {
            slots: vec![0; 1 << bits],
            epoch: 0,
            used: Vec::new(),
        }
    }

    /// Starts a new candidate: returns its stamp (`epoch << 8`), clearing the slots only
    /// when the 24-bit epoch wraps.
    fn next_stamp(&mut self) -> u32 {
        self.epoch += 1;
        if self.epoch == 1 << 24 {
            self.slots.fill(0);
            self.epoch = 1;
        }
        self.epoch << 8
    }

    /// Hashes every `(key, attack id)` of `entries` under `magic` into this table for a new
    /// candidate and calls `visit` with each entry's position, its slot and what the slot
    /// test found there ([`place`]); stops early when `visit` breaks.
    #[inline(always)]
    fn place_all<B>(
        &mut self,
        entries: &[(u64, u8)],
        magic: u64,
        bits: u8,
        mut visit: impl FnMut(usize, usize, Placed) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let stamp = self.next_stamp();
        let shift = 64 - bits as u32;
        // A local slice keeps its length in a register across the stores; the shift already
        // bounds the index, and the mask lets the compiler drop the bounds check.
        let slots = self.slots.as_mut_slice();
        let last = slots.len() - 1;
        for (k, &(key, id)) in entries.iter().enumerate() {
            let i = (key.wrapping_mul(magic) >> shift) as usize & last;
            visit(k, i, place(&mut slots[i], stamp, id))?;
        }
        ControlFlow::Continue(())
    }

    /// Returns true if `magic` maps every `(key, attack id)` of `entries` without a
    /// destructive collision. On a collision it moves the occupancy that collided one step
    /// forward: occupancies that collide often drift to the front, so bad candidates fail
    /// sooner. The order never changes which candidate passes, only how fast others fail;
    /// entry 0 (the empty occupancy, which [`EpochTable::first_accepted`] sieves against)
    /// never moves.
    #[inline]
    pub(crate) fn accepts(&mut self, entries: &mut [(u64, u8)], magic: u64, bits: u8) -> bool {
        let flow = self.place_all(entries, magic, bits, |k, _, placed| match placed {
            Placed::Collision => ControlFlow::Break(k),
            _ => ControlFlow::Continue(()),
        });
        match flow {
            ControlFlow::Continue(()) => true,
            ControlFlow::Break(k) => {
                // Entry 0 never collides, so k > 0.
                if k > 1 {
                    entries.swap(k, k - 1);
                }
                false
            }
        }
    }

    /// Returns the first of `magics` that [`EpochTable::accepts`], with how many it tried:
    /// the scan of the searches that keep their first find (fancy, plain). The same test
    /// as `accepts` with nothing else per candidate: the candidates are drawn ahead in
    /// batches, so the generator's state and the test's each stay in registers in a loop
    /// of their own, and the shift is a constant for the common bits (together 30% fewer
    /// instructions than calling `accepts` per candidate).
    pub(crate) fn first_accepted(
        &mut self,
        entries: &mut [(u64, u8)],
        bits: u8,
        mut magics: impl Iterator<Item = u64>,
    ) -> (u64, Option<u64>) {
        let mut batch = [0u64; BATCH];
        let mut tried = 0;
        loop {
            let mut n = 0;
            for (slot, magic) in batch.iter_mut().zip(magics.by_ref()) {
                *slot = magic;
                n += 1;
            }
            if let Some(at) = self.first_in_batch(entries, bits, &batch[..n]) {
                return (tried + at as u64 + 1, Some(batch[at]));
            }
            tried += n as u64;
            if n < batch.len() {
                return (tried, None);
            }
        }
    }

    /// Returns the position of the first of `magics` that [`EpochTable::accepts`]. Kept out
    /// of line, so the candidate generator inlined into the caller keeps its registers.
    #[inline(never)]
    fn first_in_batch(
        &mut self,
        entries: &mut [(u64, u8)],
        bits: u8,
        magics: &[u64],
    ) -> Option<usize> {
        match bits {
            5 => self.first_accepted_at::<5>(entries, magics),
            6 => self.first_accepted_at::<6>(entries, magics),
            7 => self.first_accepted_at::<7>(entries, magics),
            8 => self.first_accepted_at::<8>(entries, magics),
            9 => self.first_accepted_at::<9>(entries, magics),
            10 => self.first_accepted_at::<10>(entries, magics),
            11 => self.first_accepted_at::<11>(entries, magics),
            12 => self.first_accepted_at::<12>(entries, magics),
            _ => magics
                .iter()
                .position(|&magic| self.accepts(entries, magic, bits)),
        }
    }

    /// [`EpochTable::first_in_batch`] for `BITS` index bits.
    fn first_accepted_at<const BITS: u32>(
        &mut self,
        entries: &mut [(u64, u8)],
        magics: &[u64],
    ) -> Option<usize> {
        let slot_of = |key: u64, magic: u64| {
            (key.wrapping_mul(magic) >> (64 - BITS)) as usize & ((1 << BITS) - 1)
        };
        // The sieve: entry 0 is the empty occupancy, whose attacks no other occupancy has,
        // so a magic that gives one of the next SIEVE entries the same slot fails. It has no
        // branch per candidate and rejects about 80% of them: the test's early exit is a
        // branch no predictor gets right, and it cost as much time as the instructions did
        // (process CPU time 0.64x with the sieve, instructions 1.0x).
        let mut kept = [0u64; BATCH];
        let mut at = [0u8; BATCH];
        let n = if entries.len() > SIEVE {
            let empty = entries[0].0;
            let probes: [u64; SIEVE] = core::array::from_fn(|j| entries[j + 1].0);
            if empty == 0 && probes.iter().all(|key| key.is_power_of_two()) {
                // White keys with single blockers in front (the usual case): blocker j
                // times the magic is the magic shifted up by j, which reaches the index
                // bits only if the magic has a bit in the window j places below them. An
                // AND instead of a multiply: 0.97x the search's instructions.
                let windows = probes.map(|key| (u64::MAX << (64 - BITS)) >> key.trailing_zeros());
                sift(magics, &mut kept, &mut at, |magic| {
                    windows.iter().map(|&w| (magic & w == 0) as usize).sum()
                })
            } else {
                // Two products share a slot when they agree in the top BITS bits; white
                // keys put the empty occupancy (0) in slot 0.
                sift(magics, &mut kept, &mut at, |magic| {
                    let taken = empty.wrapping_mul(magic);
                    probes
                        .iter()
                        .map(|&key| {
                            ((key.wrapping_mul(magic) ^ taken) >> (64 - BITS) == 0) as usize
                        })
                        .sum()
                })
            }
        } else {
            sift(magics, &mut kept, &mut at, |_| 0)
        };
        let mut epoch = self.epoch;
        let slots = &mut self.slots[..1 << BITS];
        let mut found = None;
        'candidates: for (&position, &magic) in at[..n].iter().zip(&kept[..n]) {
            epoch += 1;
            if epoch == 1 << 24 {
                slots.fill(0);
                epoch = 1;
            }
            let stamp = epoch << 8;
            // The first key always finds its slot free, so the collisions start at 1.
            if let Some(&(key, id)) = entries.first() {
                slots[slot_of(key, magic)] = stamp | id as u32;
            }
            for k in 1..entries.len() {
                let (key, id) = entries[k];
                if place(&mut slots[slot_of(key, magic)], stamp, id) == Placed::Collision {
                    // Entries 0 and 1 stay put: swapping them made no candidate fail
                    // sooner, and skipping it saves 2% of the instructions.
                    if k > 1 {
                        entries.swap(k, k - 1);
                    }
                    continue 'candidates;
                }
            }
            found = Some(position as usize);
            break;
        }
        self.epoch = epoch;
        found
    }

    /// Returns how many of `entries` collide destructively under `magic`: the fitness a
    /// reduced-bit climb minimises (0 means valid).
    #[inline]
    pub(crate) fn conflicts(&mut self, entries: &[(u64, u8)], magic: u64, bits: u8) -> u32 {
        let mut bad = 0;
        let _ = self.place_all::<()>(entries, magic, bits, |_, _, placed| {
            if placed == Placed::Collision {
                bad += 1;
            }
            ControlFlow::Continue(())
        });
        bad
    }

    /// Returns (used slots, span) of a valid `magic`, or `None` on a destructive collision:
    /// what a density climb minimises for fixed-shift tables. With white keys the span
    /// leaves out the empty occupancy: its key is 0, so it always takes index 0, a lone
    /// slot that drops into any hole. What counts is where the other occupancies go: the
    /// published white magics put them in a short run near the top of the range, which
    /// other squares' runs interleave with.
    #[inline]
    pub(crate) fn measure(
        &mut self,
        entries: &[(u64, u8)],
        magic: u64,
        bits: u8,
    ) -> Option<(u32, u32)> {
        let lone_zero = entries.first().is_some_and(|&(key, _)| key == 0);
        let (mut lo, mut hi, mut used) = (usize::MAX, 0, 0);
        let flow = self.place_all(entries, magic, bits, |k, i, placed| match placed {
            Placed::Free => {
                used += 1;
                if k > 0 || !lone_zero {
                    lo = lo.min(i);
                    hi = hi.max(i);
                }
                ControlFlow::Continue(())
            }
            Placed::Shared => ControlFlow::Continue(()),
            Placed::Collision => ControlFlow::Break(()),
        });
        flow.is_continue()
            .then(|| (used, (hi + 1).saturating_sub(lo) as u32))
    }

    /// Returns the slots a valid `magic` blocks for other squares, or `None` on a
    /// destructive collision: its used slots plus the holes between them shorter than
    /// [`SHORT_HOLE`]: a magic with few used slots scattered one hole apart blocks its
    /// whole span.
    pub(crate) fn blocked(&mut self, entries: &[(u64, u8)], magic: u64, bits: u8) -> Option<u32> {
        self.clumped(entries, magic, bits)
            .map(|(blocked, _)| blocked)
    }

    /// Returns the slots a valid `magic` blocks ([`EpochTable::blocked`]) and how spread
    /// its used slots are: the sum over the table's blocks of [`CLUMP_BLOCK`] slots of the
    /// square root of the slots used in each. For as many used slots, fewer and fuller
    /// blocks give less, and it changes with nearly every move, where the blocked count
    /// stays at the whole range until a hole of 16 opens. `None` on a destructive collision.
    pub(crate) fn clumped(
        &mut self,
        entries: &[(u64, u8)],
        magic: u64,
        bits: u8,
    ) -> Option<(u32, f64)> {
        // The used slots as bits, one word a block: the holes and the blocks come from the
        // used slots alone, not from a pass over every slot.
        let mut used = core::mem::take(&mut self.used);
        used.clear();
        used.resize(self.slots.len().div_ceil(CLUMP_BLOCK), 0);
        let flow = self.place_all(entries, magic, bits, |_, i, placed| match placed {
            Placed::Free => {
                used[i / 64] |= 1 << (i % 64);
                ControlFlow::Continue(())
            }
            Placed::Shared => ControlFlow::Continue(()),
            Placed::Collision => ControlFlow::Break(()),
        });
        if flow.is_break() {
            self.used = used;
            return None;
        }
        let (mut blocked, mut spread) = (0, 0.0);
        let mut last = None;
        for (b, &block) in used.iter().enumerate() {
            let mut rest = block;
            while rest != 0 {
                let i = b * CLUMP_BLOCK + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let gap = last.map_or(u32::MAX, |l: usize| (i - l - 1) as u32);
                blocked += 1 + if gap < SHORT_HOLE { gap } else { 0 };
                last = Some(i);
            }
            spread += f64::from(block.count_ones()).sqrt();
        }
        self.used = used;
        Some((blocked, spread))
    }
}

/// Keeps in `kept` those of `magics` that `shared` gives 0 (no probe in the empty
/// occupancy's slot), with their positions in `at`, and returns how many: a store per
/// candidate and no branch.
#[inline(always)]
fn sift(
    magics: &[u64],
    kept: &mut [u64; BATCH],
    at: &mut [u8; BATCH],
    shared: impl Fn(u64) -> usize,
) -> usize {
    let mut n = 0;
    for (position, &magic) in magics.iter().enumerate() {
        kept[n] = magic;
        at[n] = position as u8;
        n += (shared(magic) == 0) as usize;
    }
    n
}

/// Places attack id `id` of the candidate stamped `stamp` in `slot`: the slot test. A slot
/// is free unless stamped by this candidate (stamps only grow, so an older one is smaller),
/// and a stamped slot holding the same attack id is a constructive collision.
#[inline(always)]
fn place(slot: &mut u32, stamp: u32, id: u8) -> Placed {
    let tag = stamp | id as u32;
    if *slot < stamp {
        *slot = tag;
        Placed::Free
    } else if *slot == tag {
        Placed::Shared
    } else {
        Placed::Collision
    }
}

/// What the slot test found for one key of a candidate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placed {
    /// The slot was free: the key now holds it.
    Free,
    /// The slot holds the same attack set: a constructive collision.
    Shared,
    /// The slot holds another attack set: the candidate fails here.
    Collision,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Piece;
    use crate::index::Variant;
    use crate::search::candidates::Stream;

    /// Returns the position of the first of `magics` that `accepts` takes, one at a time.
    fn first_by_accepts(
        table: &mut EpochTable,
        entries: &mut [(u64, u8)],
        bits: u8,
        magics: &[u64],
    ) -> Option<usize> {
        magics.iter().position(|&m| table.accepts(entries, m, bits))
    }

    #[test]
    fn first_accepted_takes_what_accepts_takes() {
        // Standard bits (the sieve, constant shifts; single blockers in front, or the most
        // blockers, reversed), fixed 12 bits with black keys, and 4 bits below the
        // popcount (no constant shift), each from an epoch about to wrap.
        for (piece, sq, variant, bits, reversed) in [
            (Piece::Bishop, 2, Variant::Fancy, 6, false),
            (Piece::Bishop, 27, Variant::Fancy, 9, false),
            (Piece::Rook, 1, Variant::Fancy, 11, false),
            (Piece::Rook, 1, Variant::Fancy, 11, true),
            (Piece::Rook, 36, Variant::Black, 12, false),
            (Piece::Bishop, 0, Variant::Fancy, 4, false),
        ] {
            let data = SquareData::new(piece, sq, variant);
            let stream = Stream {
                seed: 3,
                variant,
                piece,
                square: sq,
                bits,
            };
            let magics: Vec<u64> = (0..24)
                .flat_map(|b| stream.block(b).map(|(_, m)| m))
                .collect();
            let (mut mine, mut theirs) = (data.entries(), data.entries());
            if reversed {
                mine[1..].reverse();
                theirs[1..].reverse();
            }
            let (mut a, mut b) = (EpochTable::new(bits), EpochTable::new(bits));
            a.epoch = (1 << 24) - 100;
            b.epoch = a.epoch;
            let (tried, found) = a.first_accepted(&mut mine, bits, magics.iter().copied());
            let expected = first_by_accepts(&mut b, &mut theirs, bits, &magics);
            assert_eq!(found, expected.map(|at| magics[at]), "{piece} {sq}");
            assert_eq!(tried, expected.map_or(magics.len(), |at| at + 1) as u64);
            assert!(
                expected.is_some() || bits < 5,
                "{piece} {sq}: no find to compare"
            );
            assert_eq!(mine[0], data.entries()[0], "entry 0 moved");
            assert_eq!(theirs[0], data.entries()[0], "entry 0 moved");
            // Every find, not only the first: the sieve drops no magic `accepts` takes.
            let every: Vec<usize> = (0..magics.len())
                .filter(|&i| b.accepts(&mut theirs, magics[i], bits))
                .collect();
            let (mut batched, mut start) = (Vec::new(), 0);
            while let (tried, Some(_)) =
                a.first_accepted(&mut mine, bits, magics[start..].iter().copied())
            {
                start += tried as usize;
                batched.push(start - 1);
            }
            assert_eq!(batched, every, "{piece} {sq}");
        }
    }

    #[test]
    fn the_empty_occupancy_comes_first_with_attacks_of_its_own() {
        for piece in Piece::ALL {
            for sq in 0..64 {
                for variant in [Variant::White, Variant::Black] {
                    let data = SquareData::new(piece, sq, variant);
                    let entries = data.entries();
                    assert_eq!(entries[0].0 & data.mask, 0, "{piece} {sq}");
                    assert!(
                        entries[1..].iter().all(|e| e.1 != entries[0].1),
                        "{piece} {sq}"
                    );
                    // Equal ids exactly for equal attack sets.
                    let mut by_id = [None; 256];
                    for (&attacks, &id) in data.attacks.iter().zip(&data.attack_ids) {
                        assert_eq!(*by_id[id as usize].get_or_insert(attacks), attacks);
                    }
                    let distinct = by_id.iter().flatten().count();
                    let mut sets = data.attacks.clone();
                    sets.sort_unstable();
                    sets.dedup();
                    assert_eq!(distinct, sets.len(), "{piece} {sq}");
                }
            }
        }
    }
}
