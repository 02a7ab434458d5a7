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
//! and [`PackSettings`]' moves, seed and seeds; so is its checkpoint, each square's
//! start saved beside its place and member.
//!
//! Inside, each file using only those above it: `wants.rs` what a member wants of the
//! table, `slots.rs` the table's slots with their users, `layout.rs` the squares' places
//! over them, `anneal.rs` the search and its checkpoint, `runs.rs` the searches of a
//! packing's seeds on threads, saving their checkpoints.

mod anneal;
mod layout;
mod runs;
mod slots;
mod wants;

use std::time::Instant;

use crate::geometry::SetSquare;
use crate::index::Variant;
use crate::occupancy::SquareData;
use crate::set::{Entry, MagicSet};
use crate::stages::Progress;

use super::checkpoint::{pools_digest, PackCheckpoint, PackKey, PackMismatch};
use super::moves::rate_over;
use super::pattern::Pattern;
use super::run::PackHooks;
use super::settings::PackSettings;

use anneal::Annealing;
use layout::{Choices, Layout};
use runs::run_all;
use wants::Wants;

/// Why an overlay packing did not start.
#[derive(Debug)]
pub(crate) enum Refused {
    /// A member of this square's pool does not verify for it.
    Member(SetSquare),
    /// The checkpoint given to resume belongs to another packing, or is damaged.
    Checkpoint(PackMismatch),
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
/// as fit in `settings.seconds`, measured on a trial: [`moves_in`]) on up to the hooks'
/// threads, counted in their progress with the best length met, and their checkpoints
/// saved at the hooks' intervals and at the end. Goes on from `resume` (a section per
/// seed) unless it is empty. The shortest table met is kept (ties: the lower seed, then
/// the earlier move). Returns the set and each seed's checkpoint after its last move,
/// fewer moves than asked if the progress's stop flag was set; the set depends only on
/// the pools, the settings and the moves made, never on the threads or the stops.
pub(crate) fn pack_overlay(
    variant: Variant,
    pools: &[Vec<Pattern>],
    settings: &PackSettings,
    resume: &[PackCheckpoint],
    hooks: &mut PackHooks,
) -> Result<(MagicSet, Vec<PackCheckpoint>), Refused> {
    let mut wanted: Vec<Vec<Wants>> = Vec::with_capacity(pools.len());
    for (square, pool) in SetSquare::all().zip(pools) {
        let data = SquareData::new(square.piece, square.square, variant.indexed_as());
        let reads = (square, variant.reads_through(square.piece, square.square));
        let members = pool
            .iter()
            .map(|p| Wants::of(&data, reads, p.magic, p.bits));
        let members = members.collect::<Option<_>>();
        wanted.push(members.ok_or(Refused::Member(square))?);
    }
    let fallback = Progress::default();
    let progress = hooks.progress.unwrap_or(&fallback);
    let order = widest_first(&wanted);
    let start = greedy(&wanted, &order);
    progress
        .best_len
        .store(start.len(), std::sync::atomic::Ordering::Relaxed);
    let threads = hooks.threads;
    let asked = PackKey {
        settings: *settings,
        pools: pools_digest(variant, pools),
        squares: pools.len(),
    };
    // A packing bounded by time resumes with the moves its first run fixed.
    let each = match (settings.seconds > 0.0, resume.first()) {
        (false, _) => settings.iterations,
        (true, Some(saved)) => saved.settings.iterations,
        (true, None) => moves_in(&asked, (&start, &order), threads, progress),
    };
    let key = PackKey {
        settings: settings.with_moves(each),
        ..asked
    };
    let runs = match resume.is_empty() {
        true => fresh((&start, &order), &key, each),
        false => resumed((pools, &wanted), &key, resume).map_err(Refused::Checkpoint)?,
    };
    let (ended, checkpoints) = run_all(runs, threads, progress, &mut hooks.checkpoint);
    // The shortest; `min_by_key` keeps the first of equals, the lowest seed.
    let best = ended
        .iter()
        .map(|run| &run.best)
        .min_by_key(|(_, len)| *len)
        .expect("at least one seed");
    Ok((set_of(variant, &wanted, &best.0), checkpoints))
}

/// Returns the keys of the packings `key` asks for, one per seed.
fn seeded(key: &PackKey) -> impl Iterator<Item = PackKey> + '_ {
    (0..key.settings.seeds.max(1)).map(|i| PackKey {
        settings: key.settings.seeded(i),
        ..*key
    })
}

/// Returns the searches of `moves` moves of the packings `key` asks for, each from the
/// greedy `start` whose squares came in `order`, with the key of each.
fn fresh<'a>(
    (start, order): (&Layout<'a>, &[usize]),
    key: &PackKey,
    moves: u64,
) -> Vec<(Annealing<'a>, PackKey)> {
    let each = |key: PackKey| {
        let run = Annealing::new(start.clone(), order.to_vec(), key.settings.seed, moves);
        (run, key)
    };
    seeded(key).map(each).collect()
}

/// Returns the searches of the packings `key` asks for as `resume` saved them (a section
/// per packing), over `wanted` (what the members of `pools` want of the table), with the
/// key of each; refuses a checkpoint of another packing, or with another count of sections.
fn resumed<'a>(
    (pools, wanted): (&[Vec<Pattern>], &'a [Vec<Wants>]),
    key: &PackKey,
    resume: &[PackCheckpoint],
) -> Result<Vec<(Annealing<'a>, PackKey)>, PackMismatch> {
    let mut runs = Vec::with_capacity(resume.len());
    // Each section's settings are checked before the count: the first holds the count of
    // packings, so a run of another count is told that setting.
    for (i, key) in seeded(key).enumerate() {
        let saved = resume.get(i).ok_or_else(|| key.missing(resume.len()))?;
        runs.push((Annealing::resume((pools, wanted), &key, saved)?, key));
    }
    if resume.len() > runs.len() {
        return Err(key.missing(resume.len()));
    }
    Ok(runs)
}

/// Returns the moves each seed of `key`'s settings makes in its `seconds` on this
/// machine: the rate of a trial of every seed from `start` for a twentieth of the time (at
/// most 5 s) gives the moves of the time left. An overlay move costs about the same hot or
/// cold (its tail is drawn the same way), so one trial does.
fn moves_in(
    key: &PackKey,
    (start, order): (&Layout, &[usize]),
    threads: usize,
    progress: &Progress,
) -> u64 {
    let settings = &key.settings;
    let began = Instant::now();
    let seeds = settings.seeds.max(1);
    let trial_time = (settings.seconds / 20.0).min(5.0);
    let rate = rate_over(trial_time, Some(&progress.stop), |trial| {
        let runs = fresh((start, order), key, PackSettings::MAX_ITERATIONS);
        run_all(runs, threads, trial, &mut None);
    });
    let left = (settings.seconds - began.elapsed().as_secs_f64()).max(0.0);
    let each = rate * left / seeds as f64;
    (each as u64).min(PackSettings::MAX_ITERATIONS)
}

#[cfg(test)]
mod tests;
