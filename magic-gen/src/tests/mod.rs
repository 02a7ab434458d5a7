//! Tests of the hunt end to end, across the search, the packer and the files: determinism
//! across threads, shards and resumes, fallbacks, budgets, state files, pools.

mod layouts;
mod pools;
mod scan;
mod states;

use crate::geometry::Piece;
use crate::index::Variant;
use crate::pack::PackHooks;
use crate::search::state::*;
use crate::search::*;
use crate::set::MagicSet;

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
        &mut PackHooks::default(),
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
