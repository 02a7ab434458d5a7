//! The overlay packer: black or fancy ranges laid out in one table whose slots hold the OR
//! of their users' attacks, read through each square's empty-board attacks ([`Variant::is_overlay`]).
//!
//! A square wanting attacks `a` (its lookup reading through rays `R`) may use a slot that
//! holds `v` for users whose rays OR to `D` exactly when `v & R == a & D`: the two agree on
//! every square both read. So bishops of opposite colours share any slot, rooks on
//! diagonal neighbours meet only on squares always attacked, and values agree often
//! enough beyond those. The greedy pass places squares widest first, each with the pool
//! member that ends lowest at its first fitting start; a local search on that layout
//! follows (`anneal.rs`), taking squares out and putting them back without laying the
//! rest out again. What it packs and how long are the exact packer's: pools of magics,
//! and [`PackSettings`]' moves, seed and seeds.
//!
//! Inside, each file using only those above it: `wants.rs` what a member wants of the
//! table, `slots.rs` the table's slots with their users, `layout.rs` the squares' places
//! over them, `anneal.rs` the search.

mod anneal;
mod layout;
mod slots;
mod wants;

use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::geometry::SetSquare;
use crate::index::Variant;
use crate::occupancy::SquareData;
use crate::set::{Entry, MagicSet};
use crate::stages::Progress;
use crate::threads::each_on_threads;

use super::moves::{rate_over, PackMoves};
use super::pattern::Pattern;
use super::settings::PackSettings;

use anneal::anneal;
use layout::{Choices, Layout};
use wants::Wants;

/// Returns the squares widest first (their pools' shortest extent), ties by square.
fn widest_first(pools: &[Vec<Wants>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pools.len()).collect();
    order.sort_by_key(|&i| {
        let extent = pools[i].iter().map(|w| w.extent).min();
        (core::cmp::Reverse(extent), i)
    });
    order
}

/// Returns the greedy layout of `pools`: widest first, each square at its first fit with
/// the member that ends lowest.
fn greedy<'a>(pools: &'a [Vec<Wants>], order: &[usize]) -> Layout<'a> {
    let mut layout = Layout::new(pools);
    for &square in order {
        layout.insert(square);
    }
    layout
}

/// Returns the set of `variant` (an overlay variant) of `choices` over `pools`.
fn set_of(variant: Variant, pools: &[Vec<Wants>], choices: &Choices) -> MagicSet {
    let mut set = MagicSet::new(variant);
    for (square, &(member, start)) in SetSquare::all().zip(choices) {
        let w = &pools[square.index()][member];
        *set.entry_mut(square.piece, square.square) = Entry {
            magic: w.magic,
            bits: w.bits,
            offset: start as i64 - w.first as i64,
        };
    }
    set
}

/// Packs one pool of magics per piece and square (rook a1 first; the members' magics and
/// bits, of the index `variant`, an overlay variant, reads: black magics of a fixed or
/// per-square shift, or fancy ones) into one overlay table of `variant`: the
/// widest-first greedy layout, then for each of `settings.seeds` seeds from
/// `settings.seed` on, `settings.iterations` moves of the local search from it (or as many
/// as fit in `settings.seconds`, measured on a trial: [`moves_in`]) on up to `threads`
/// threads, counted in `progress`'s moves with the best length met. The shortest table
/// met is kept (ties: the lower seed, then the earlier move). Returns the set and the
/// moves asked and made, fewer than asked if `progress`'s stop flag was set; the set
/// depends only on the pools, the settings and the moves made, never on the threads. A
/// member that does not verify for its square is refused by that square.
pub(crate) fn pack_overlay(
    variant: Variant,
    pools: &[Vec<Pattern>],
    settings: &PackSettings,
    threads: usize,
    progress: &Progress,
) -> Result<(MagicSet, PackMoves), SetSquare> {
    let mut wanted: Vec<Vec<Wants>> = Vec::with_capacity(pools.len());
    for (square, pool) in SetSquare::all().zip(pools) {
        let data = SquareData::new(square.piece, square.square, variant.indexed_as());
        let members = pool
            .iter()
            .map(|p| Wants::of(&data, square, p.magic, p.bits));
        wanted.push(members.collect::<Option<_>>().ok_or(square)?);
    }
    let order = widest_first(&wanted);
    let start = greedy(&wanted, &order);
    progress.best_len.store(start.len(), Ordering::Relaxed);
    let seeds = settings.seeds.max(1);
    let each = match settings.seconds > 0.0 {
        true => moves_in(settings, (&start, &order), threads, progress),
        false => settings.iterations,
    };
    let runs = seeds_annealed(
        settings.seed,
        seeds,
        each,
        (&start, &order),
        threads,
        progress,
    );
    let made = runs.iter().map(|&(_, made)| made).sum();
    let ((best, _), _) = runs
        .into_iter()
        .min_by_key(|((_, len), _)| *len)
        .expect("at least one seed");
    let moves = PackMoves {
        each,
        made,
        asked: each * seeds,
    };
    Ok((set_of(variant, &wanted, &best), moves))
}

/// Returns, per seed from `seed` on (`seeds` of them, on up to `threads` threads), the
/// shortest layout that `moves` moves of the local search from the greedy `start` meet,
/// with its length, and the moves made: fewer once `progress`'s stop flag is set. Sets
/// the progress's total of moves as they start, once a seed's copy of `start` is made (a
/// trial times the moves from there: [`moves_in`]).
fn seeds_annealed(
    seed: u64,
    seeds: u64,
    moves: u64,
    (start, order): (&Layout, &[usize]),
    threads: usize,
    progress: &Progress,
) -> Vec<((Choices, usize), u64)> {
    each_on_threads(seeds as usize, threads, |i| {
        let (mut layout, mut order) = (start.clone(), order.to_vec());
        progress
            .moves_total
            .store(moves.saturating_mul(seeds), Ordering::Relaxed);
        anneal(
            &mut layout,
            &mut order,
            seed.wrapping_add(i as u64),
            moves,
            progress,
        )
    })
}

/// Returns the moves each seed of `settings` makes in its `settings.seconds` on this
/// machine: the rate of a trial of every seed from `start` for a twentieth of the time (at
/// most 5 s) gives the moves of the time left. An overlay move costs about the same hot or
/// cold (its tail is drawn the same way), so one trial does.
fn moves_in(
    settings: &PackSettings,
    start: (&Layout, &[usize]),
    threads: usize,
    progress: &Progress,
) -> u64 {
    let began = Instant::now();
    let seeds = settings.seeds.max(1);
    let trial_time = (settings.seconds / 20.0).min(5.0);
    let rate = rate_over(trial_time, Some(&progress.stop), |trial| {
        let moves = PackSettings::MAX_ITERATIONS;
        seeds_annealed(settings.seed, seeds, moves, start, threads, trial);
    });
    let left = (settings.seconds - began.elapsed().as_secs_f64()).max(0.0);
    let each = rate * left / seeds as f64;
    (each as u64).min(PackSettings::MAX_ITERATIONS)
}

#[cfg(test)]
mod tests;
