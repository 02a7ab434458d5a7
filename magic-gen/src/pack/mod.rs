//! The packer: fixed-shift ranges laid out in one shared table.
//!
//! Each square brings a pool of valid magics, each with the table slots its occupancies
//! use (a pattern with holes). A greedy pass places squares widest first, each with the
//! pool member that grows the table least at its lowest fitting start; annealing then
//! changes the placing order and the members, every square still at its first fit, and
//! keeps the shortest table met. Patterns interleave in each other's holes; no slot is
//! shared between squares.
//!
//! Inside, each file depending only on those above it: `pattern.rs` a member's slots as
//! words, `settings.rs` what a packing is asked, `fit.rs` the bitset table and first fit,
//! `layout.rs` an order and members laid out, `checkpoint.rs` what a run saves and the
//! check that a checkpoint belongs to it, `moves.rs` the moves a packing was asked and made
//! (and the trial that fixes them for a time), `anneal.rs` the annealing moves (by the rule
//! in `crate::annealing`, which the scan's clump climb shares) and the annealer that saves
//! and resumes a checkpoint, `pair.rs` a packing's moves two at a time with a helper
//! thread, `run.rs` one packing's run with its progress, stop and saves, `seeds.rs` the
//! packings of several seeds at once on several threads. A run stopped and resumed from its
//! checkpoint makes the moves of an uninterrupted one and ends with the same set.
//! `checkpoint_file.rs`, beside them, writes and reads the checkpoint's file (through
//! `crate::io`'s line reader). `overlay/` packs black magics by the overlay rule, where
//! squares share slots through their rays ([`crate::Variant::is_overlay`]).

mod anneal;
mod checkpoint;
mod checkpoint_file;
mod fit;
mod layout;
mod moves;
mod overlay;
mod pair;
mod pattern;
mod run;
mod seeds;
mod settings;
#[cfg(test)]
pub(crate) mod test_support;

use std::time::Instant;

use crate::geometry::SetSquare;
use crate::index::Variant;
use crate::set::{Entry, MagicSet};

pub(crate) use checkpoint::Mismatch;
pub use checkpoint::PackCheckpoint;
pub(crate) use checkpoint::PackMismatch;
pub(crate) use fit::Table;
pub(crate) use moves::PackMoves;
pub(crate) use overlay::{pack_overlay, Refused};
pub(crate) use pattern::Pattern;
pub(crate) use run::PackHooks;
pub use settings::PackSettings;

use checkpoint::{pools_digest, PackKey};
use layout::input_order;
use moves::rate_over;
use seeds::{pack_seeds, Members, Start};

/// What a packing packs: one pool of patterns per square of a set of `variant` (rook a1
/// first; an empty pool leaves its square out) and, when it repacks a set, where that set
/// has each square's first used slot (empty: no input layout; `None`: below slot 0).
#[derive(Clone, Copy)]
pub(crate) struct PackInput<'a> {
    /// The variant of the set to make.
    pub variant: Variant,
    /// Each square's pool.
    pub pools: &'a [Vec<Pattern>],
    /// Each square's first used slot in the input set.
    pub starts: &'a [Option<usize>],
}

/// Packs one pool per piece and square (rook a1..h8, then bishop a1..h8) into a set of
/// `variant`, each square taking the bits of the member chosen: a greedy pass (squares by
/// longest shortest extent, or with [`PackSettings::from_input`] in the order that gives
/// the layout of `starts`, each square's first used slot; each at the lowest fitting place
/// of the pool member that grows the table least), then per seed of `settings` (see
/// [`PackSettings::seeds`]) its `settings.iterations` moves of annealing the order and the members, or the moves left
/// after its section of `resume`, a checkpoint of the same settings (empty: none). Returns
/// the set of the shortest best layout met (ties: the lowest seed) and each packing's
/// checkpoint after its last move (fewer moves than asked if the progress's stop flag was
/// set). The result depends only on the pools, `starts` and `settings`, never on the
/// threads or on where a run was stopped and resumed.
pub(crate) fn pack(
    input: PackInput,
    settings: &PackSettings,
    resume: &[PackCheckpoint],
    hooks: &mut PackHooks,
) -> Result<(MagicSet, Vec<PackCheckpoint>), PackMismatch> {
    let PackInput {
        variant,
        pools,
        starts,
    } = input;
    // From the input's layout: each square's own magic (the first member), in the order
    // whose first fits give that layout.
    let start = if settings.from_input && !starts.is_empty() {
        Start {
            order: input_order(pools, starts, settings.negative_offsets),
            members: Members::Own,
        }
    } else {
        Start {
            order: widest_first(pools),
            members: Members::Greedy,
        }
    };
    let settings = &moves_fixed(settings, pools, &start, resume, hooks);
    let key = PackKey {
        settings: *settings,
        pools: pools_digest(variant, pools),
        squares: start.order.len(),
    };
    let (best, checkpoints) = pack_seeds(pools, start, &key, resume, hooks)?;
    let mut set = MagicSet::new(variant);
    for (i, c) in best.choices().iter().enumerate() {
        let s = SetSquare::from_index(i);
        if let Some((k, start)) = *c {
            let p = &pools[i][k];
            *set.entry_mut(s.piece, s.square) = Entry {
                magic: p.magic,
                bits: p.bits,
                offset: start as i64 - p.first as i64,
            };
        }
    }
    Ok((set, checkpoints))
}

/// Returns `settings` with the moves of a packing bounded by time
/// ([`PackSettings::seconds`]) fixed: the resumed checkpoint's, or as many as each packing
/// makes in the time on this machine. They are measured on trials of the same packings
/// from `start` (a twentieth of the time, at most 5 s): a quarter of it at the first
/// temperature, then a whole schedule, hot to cold, of the moves that rate gives the rest,
/// since a move costs more or less as the temperature falls. Settings without a time
/// bound are returned as they are.
fn moves_fixed(
    settings: &PackSettings,
    pools: &[Vec<Pattern>],
    start: &Start,
    resume: &[PackCheckpoint],
    hooks: &PackHooks,
) -> PackSettings {
    if settings.seconds <= 0.0 {
        return *settings;
    }
    if let Some(saved) = resume.first() {
        return settings.with_moves(saved.settings.iterations);
    }
    let began = Instant::now();
    let trial_time = (settings.seconds / 20.0).min(5.0);
    let trial = |moves: u64, seconds: f64| {
        let timed = settings.with_moves(moves);
        trial_rate(&timed, pools, start, hooks, seconds)
    };
    let hot = trial(PackSettings::MAX_ITERATIONS, trial_time / 4.0);
    let schedule = (hot * trial_time * 0.75 / settings.seeds.max(1) as f64) as u64;
    let rate = trial(schedule.max(1), trial_time * 0.75);
    let left = (settings.seconds - began.elapsed().as_secs_f64()).max(0.0);
    let each = rate * left / settings.seeds.max(1) as f64;
    settings.with_moves((each as u64).min(PackSettings::MAX_ITERATIONS))
}

/// Returns the moves a second that the packings of `settings` from `start` make on the
/// hooks' threads, annealing for at most `seconds` (or until done, or the hooks' stop); the
/// greedy pass before the first move is not timed.
fn trial_rate(
    settings: &PackSettings,
    pools: &[Vec<Pattern>],
    start: &Start,
    hooks: &PackHooks,
    seconds: f64,
) -> f64 {
    let key = PackKey {
        settings: *settings,
        pools: 0,
        squares: start.order.len(),
    };
    let user_stop = hooks.progress.map(|p| &p.stop);
    rate_over(seconds, user_stop, |trial| {
        let mut trial_hooks = PackHooks {
            progress: Some(trial),
            checkpoint: None,
            threads: hooks.threads,
        };
        let copy = Start {
            order: start.order.clone(),
            members: start.members,
        };
        pack_seeds(pools, copy, &key, &[], &mut trial_hooks).expect("a trial resumes nothing");
    })
}

/// Returns the squares with a pool, longest shortest extent first (first-fit decreasing);
/// ties by square, for a deterministic order.
fn widest_first(pools: &[Vec<Pattern>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pools.len()).filter(|&i| !pools[i].is_empty()).collect();
    order.sort_by_key(|&i| {
        (
            core::cmp::Reverse(pools[i].iter().map(|p| p.extent()).min()),
            i,
        )
    });
    order
}

#[cfg(test)]
mod tests;
