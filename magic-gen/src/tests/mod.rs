//! Tests of the hunt end to end, across the search, the packer and the files: determinism
//! across threads, shards and resumes, fallbacks, budgets, state files, pools, overlay
//! tables.

mod layouts;
mod overlay;
mod pools;
mod scan;
mod states;

use std::time::Duration;

use crate::geometry::Piece;
use crate::hunt::{Hooks, Hunt, Outcome, Wanted};
use crate::index::Variant;
use crate::pack::{PackCheckpoint, PackSettings};
use crate::search::state::*;
use crate::search::*;
use crate::set::MagicSet;
use crate::stages::Progress;

/// Returns the bishop's square `square` of a set.
pub(super) fn bishop(square: u8) -> crate::geometry::SetSquare {
    crate::geometry::SetSquare {
        piece: Piece::Bishop,
        square,
    }
}

/// Returns the set `options` describe: a fresh state hunted within `options.limits`
/// (threads, seconds), reporting through `progress`.
pub(super) fn search(options: &Options, progress: &Progress) -> Result<Outcome, Error> {
    let mut state = SearchState::new(options)?;
    let hooks = Hooks {
        progress: Some(progress),
        ..Hooks::default()
    };
    Hunt::search(&mut state, &options.limits, Wanted::Set).run(hooks)
}

/// Takes each checkpoint of a packing, as a state file keeps it.
type SaveCheckpoint<'a> = &'a mut dyn FnMut(&[PackCheckpoint]);

/// Returns the finish of `state` within `limits` ([`Hunt::finish`]), going on from
/// `resume` unless it is empty, each packing checkpoint handed to `save` if given.
pub(super) fn finish(
    state: &SearchState,
    limits: &Limits,
    resume: &[PackCheckpoint],
    save: Option<SaveCheckpoint>,
) -> Result<Outcome, Error> {
    let mut save = save.map(|save| {
        move |_: Option<&SearchState>, c: &[PackCheckpoint]| {
            save(c);
            Ok(())
        }
    });
    let hooks = Hooks {
        progress: None,
        save: save.as_mut().map(|s| (Duration::ZERO, s as _)),
    };
    Hunt::finish(state, limits).resuming(resume).run(hooks)
}

/// Returns `set` packed again as `settings` say with the magics of `also` beside its own,
/// and the packing's checkpoint: the pools and packing stages of [`Hunt::repack`], whose
/// outcome would be the input wherever the packing is longer.
pub(super) fn repack(
    set: &MagicSet,
    also: &[MagicSet],
    settings: &PackSettings,
) -> Result<(MagicSet, Vec<PackCheckpoint>), Error> {
    let pools = crate::hunt::pools::pools_of_set(set, also, false)?;
    let input = crate::pack::PackInput {
        variant: set.variant,
        pools: &pools.patterns,
        starts: &pools.starts,
    };
    let mut hooks = crate::pack::PackHooks::default();
    crate::pack::pack(input, settings, &[], &mut hooks).map_err(Error::checkpoint)
}

/// Returns the bare options for `variant` with seed 7 on `threads` threads: each square
/// scanned until found, pools of 16 without sparse finds, no polish, a greedy packing (the
/// tests set what they need on top).
pub(super) fn options(variant: Variant, threads: usize) -> Options {
    let mut o = Options::for_variant(variant);
    o.scan.budget = Budget::UntilFound;
    o.scan.pool = 16;
    o.scan.sparse = 0;
    o.limits.polish = PolishSettings::default();
    o.limits.pack.iterations = 0;
    o.limits.pack.seed = 1;
    o.scan.seed = 7;
    o.limits.threads = threads;
    o
}

/// Returns a fresh state for `o`, scanned within its limits.
pub(super) fn scanned(o: &Options) -> SearchState {
    let mut state = SearchState::new(o).unwrap();
    run(&mut state, &o.limits, &Progress::default(), None);
    state
}

/// Runs `options` as `shards` shards, merges their states and finishes: the set one run
/// over the same space gives.
pub(super) fn sharded(options: &Options, shards: u32) -> MagicSet {
    let states: Vec<SearchState> = (0..shards)
        .map(|index| {
            let mut o = options.clone();
            o.scan.shard = Shard {
                index,
                count: shards,
            };
            o.limits.threads = 1;
            let st = scanned(&o);
            // Through text, as between machines: the same state, blocked slots included.
            let read = SearchState::parse("shard", st.to_text().as_bytes()).unwrap();
            assert_eq!(read, st);
            read
        })
        .collect();
    finish(
        &SearchState::merge(&states).unwrap(),
        &Limits::default(),
        &[],
        None,
    )
    .unwrap()
    .set
}

/// Returns the options and the scan of one block of candidates per square of `variant`,
/// pools of 4 and 2 sparse finds, two threads, no climbs.
pub(super) fn small_pools(variant: Variant) -> (Options, SearchState) {
    let mut o = options(variant, 2);
    o.scan.pool = 4;
    o.scan.sparse = 2;
    o.scan.patience = 0;
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    let state = scanned(&o);
    (o, state)
}

/// Returns an empty 12-bit job of rook a1 at its first block, to insert finds into.
pub(super) fn rook_a1_job() -> Job {
    Job {
        piece: Piece::Rook,
        square: 0,
        bits: 12,
        next: 0,
        found: Vec::new(),
        done: false,
    }
}
