//! The overlay packer: black ranges laid out in one table whose slots hold the OR of their
//! users' attacks, read through each square's empty-board attacks ([`Variant::is_overlay`]).
//!
//! A square wanting attacks `a` (its lookup reading through rays `R`) may use a slot that
//! holds `v` for users whose rays OR to `D` exactly when `v & R == a & D`: the two agree on
//! every square both read. So bishops of opposite colours share any slot, rooks on
//! diagonal neighbours meet only on squares always attacked, and values agree often
//! enough beyond those. The greedy pass places squares widest first, each with the pool
//! member that ends lowest at its first fitting start; seeded orders after it keep the
//! shortest table. What it packs and how long are the exact packer's: pools of magics,
//! and [`PackSettings`]' moves (here orders tried) and seed.

use std::sync::atomic::Ordering;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::{empty_board_attacks, relevant_mask, slow_attacks, subsets, SetSquare};
use crate::index::{magic_hash, Variant};
use crate::set::{Entry, MagicSet};
use crate::stages::Progress;

use super::pattern::Pattern;
use super::settings::PackSettings;

/// One pool member as the overlay packer sees it: the attacks each of its used indices
/// wants, and the rays its lookups read through.
#[derive(Clone, Debug)]
pub(crate) struct Wants {
    magic: u64,
    bits: u8,
    /// (index relative to the lowest used one, attacks), by index.
    slots: Vec<(u32, u64)>,
    /// The lowest used index.
    first: usize,
    /// One past the highest used index, relative to `first`.
    extent: usize,
    /// The square's empty-board attacks.
    rays: u64,
}

impl Wants {
    /// Returns what `magic` with `bits` index bits wants of the table for `square`, as a
    /// black magic; `None` if two of its occupancies with different attacks share an
    /// index (a magic that does not verify).
    pub(crate) fn of(square: SetSquare, magic: u64, bits: u8) -> Option<Wants> {
        let SetSquare { piece, square: sq } = square;
        let mask = relevant_mask(piece, sq);
        let mut slots: Vec<(u32, u64)> = subsets(mask)
            .map(|occ| {
                let index = magic_hash(true, occ, mask, magic, bits) as u32;
                (index, slow_attacks(piece, sq, occ))
            })
            .collect();
        slots.sort_unstable();
        slots.dedup();
        if slots.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        let first = slots[0].0;
        let extent = (slots[slots.len() - 1].0 - first + 1) as usize;
        for slot in &mut slots {
            slot.0 -= first;
        }
        Some(Wants {
            magic,
            bits,
            slots,
            first: first as usize,
            extent,
            rays: empty_board_attacks(piece, sq),
        })
    }
}

/// The table being packed: per slot the OR of its users' attacks and of their rays (0:
/// free, since every square's rays are some squares).
#[derive(Default)]
struct Slots {
    value: Vec<u64>,
    through: Vec<u64>,
}

impl Slots {
    /// Returns true if `w` can take its slot `i` (index, attacks) from `start` on.
    fn fits_at(&self, w: &Wants, start: usize, (i, a): (u32, u64)) -> bool {
        match self.through.get(start + i as usize) {
            None | Some(0) => true,
            Some(&through) => self.value[start + i as usize] & w.rays == a & through,
        }
    }

    /// Returns the lowest start from `lowest` on where `w` fits. The slot that failed the
    /// last start is tried first at the next: the values that clash stay under it for a
    /// stretch, so most starts fail at one test.
    fn first_fit(&self, w: &Wants, lowest: usize) -> usize {
        let mut hot = 0;
        (lowest..)
            .find(|&s| {
                if !self.fits_at(w, s, w.slots[hot]) {
                    return false;
                }
                match w.slots.iter().position(|&slot| !self.fits_at(w, s, slot)) {
                    Some(failed) => {
                        hot = failed;
                        false
                    }
                    None => true,
                }
            })
            .expect("past the end every start fits")
    }

    /// Puts `w` at `start`.
    fn place(&mut self, w: &Wants, start: usize) {
        let end = start + w.extent;
        if self.through.len() < end {
            self.value.resize(end, 0);
            self.through.resize(end, 0);
        }
        for &(i, a) in &w.slots {
            let k = start + i as usize;
            self.value[k] |= a;
            self.through[k] |= w.rays;
        }
    }
}

/// A layout: per square (rook a1 first) its member and the table position of its lowest
/// used index, and the table's length.
struct Layout {
    choices: Vec<(usize, usize)>,
    len: usize,
}

/// Returns the layout of first fits of the squares in `order`, each with the member of
/// its pool that ends lowest (ties: the first), every range starting at 0 or above.
fn lay_out(pools: &[Vec<Wants>], order: &[usize]) -> Layout {
    let mut slots = Slots::default();
    let mut choices = vec![(0, 0); pools.len()];
    let mut len = 0;
    for &square in order {
        let (member, start) = pools[square]
            .iter()
            .enumerate()
            .map(|(k, w)| (k, slots.first_fit(w, w.first)))
            .min_by_key(|&(k, start)| (start + pools[square][k].extent, k))
            .expect("every pool has a member");
        let w = &pools[square][member];
        slots.place(w, start);
        len = len.max(start + w.extent);
        choices[square] = (member, start);
    }
    Layout { choices, len }
}

/// Returns the squares widest first (their pools' shortest extent), ties by square.
fn widest_first(pools: &[Vec<Wants>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pools.len()).collect();
    order.sort_by_key(|&i| {
        let extent = pools[i].iter().map(|w| w.extent).min();
        (core::cmp::Reverse(extent), i)
    });
    order
}

/// Packs one pool of magics per piece and square (rook a1 first; the members' magics and
/// bits, black magics of a fixed or per-square shift) into one black overlay table: the
/// widest-first greedy layout, then `settings.iterations` orders, each the best so far
/// with a few neighbours swapped (seeded `settings.seed`), the shortest table kept (ties:
/// the earlier), counted in `progress`'s moves with the best length met. Returns the set
/// and the orders tried, fewer than asked if `progress`'s stop flag was set; the set
/// depends only on the pools, the settings and the orders tried. A member that does not
/// verify for its square is refused by that square.
pub(crate) fn pack_overlay(
    pools: &[Vec<Pattern>],
    settings: &PackSettings,
    progress: &Progress,
) -> Result<(MagicSet, u64), SetSquare> {
    let mut wanted: Vec<Vec<Wants>> = Vec::with_capacity(pools.len());
    for (square, pool) in SetSquare::all().zip(pools) {
        let members = pool.iter().map(|p| Wants::of(square, p.magic, p.bits));
        wanted.push(members.collect::<Option<_>>().ok_or(square)?);
    }
    let mut order = widest_first(&wanted);
    let mut best = lay_out(&wanted, &order);
    progress.best_len.store(best.len, Ordering::Relaxed);
    progress
        .moves_total
        .store(settings.iterations, Ordering::Relaxed);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
    let mut tried = 0;
    while tried < settings.iterations && !progress.stop.load(Ordering::Relaxed) {
        let mut next = order.clone();
        for _ in 0..4 {
            let a = (rng.next_u64() % next.len() as u64) as usize;
            let b = (a + 1 + (rng.next_u64() % 8) as usize).min(next.len() - 1);
            next.swap(a, b);
        }
        let layout = lay_out(&wanted, &next);
        if layout.len < best.len {
            progress.best_len.store(layout.len, Ordering::Relaxed);
            (best, order) = (layout, next);
        }
        tried += 1;
        progress.moves.store(tried, Ordering::Relaxed);
    }
    let mut set = MagicSet::new(Variant::BlackOverlay);
    for (square, &(member, start)) in SetSquare::all().zip(&best.choices) {
        let w = &wanted[square.index()][member];
        *set.entry_mut(square.piece, square.square) = Entry {
            magic: w.magic,
            bits: w.bits,
            offset: start as i64 - w.first as i64,
        };
    }
    Ok((set, tried))
}
