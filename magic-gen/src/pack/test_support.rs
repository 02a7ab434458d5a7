//! Pools and packings the packer's tests share, and the files' tests too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::{relevant_mask, subsets, Piece, SetSquare};
use crate::index::{table_index, Variant};
use crate::set::{Entry, MagicSet};
use crate::stages::Progress;

use super::{pack, PackCheckpoint, PackHooks, PackInput, PackMismatch, PackSettings, Pattern};

/// Random pools of combs: runs of used slots with holes between them, the shape that
/// interleaves (and whose greedy order leaves room to gain).
pub(crate) fn random_pools(seed: u64) -> Vec<Vec<Pattern>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..24)
        .map(|sq| {
            (0..3)
                .map(|k| {
                    let (run, hole) = (1 + rng.next_u64() % 6, 1 + rng.next_u64() % 6);
                    let teeth = 2 + rng.next_u64() % 8;
                    let slots = (0..teeth)
                        .flat_map(|t| (0..run).map(move |r| (t * (run + hole) + r) as u32));
                    Pattern::new(sq * 8 + k, 12, slots)
                })
                .collect()
        })
        .collect()
}

/// Returns the published set `name` of tests/data (`published-black-87988.txt`,
/// `published-white-88772.txt`): every library test reads them here.
pub(crate) fn published_set(name: &str) -> MagicSet {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    crate::read_set_file(std::path::Path::new(&path))
        .expect("test data")
        .0
}

/// Returns the published black magics (tests/data) as one-member pools, with each square's
/// start (its first used slot) in their own layout.
pub(crate) fn published_black_pools() -> (Vec<Vec<Pattern>>, Vec<Option<usize>>) {
    let set = published_set("published-black-87988.txt");
    let (mut pools, mut starts) = (Vec::new(), Vec::new());
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entries[piece.index()][sq as usize];
            let mask = relevant_mask(piece, sq);
            let used = subsets(mask)
                .map(|occ| table_index(set.variant, occ, mask, e.magic, e.bits, 0) as u32);
            let p = Pattern::new(e.magic, e.bits, used);
            starts.push(Some((e.offset + p.first as i64) as usize));
            pools.push(vec![p]);
        }
    }
    (pools, starts)
}

/// Returns the packing of `iterations` moves seeded 9.
pub(crate) fn packing(iterations: u64, negative_offsets: bool) -> PackSettings {
    PackSettings {
        seed: 9,
        iterations,
        negative_offsets,
        spread: 0.0,
        short_spans: false,
        seeds: 1,
        from_input: false,
        seconds: 0.0,
        overlay: false,
        exact_bishops: false,
    }
}

/// Packs `pools` (12 index bits each) as `settings` say (one packing), going on from
/// `resume`, and returns the set and every checkpoint, one after each move.
pub(crate) fn packed_from(
    pools: &[Vec<Pattern>],
    settings: PackSettings,
    resume: Option<&PackCheckpoint>,
    stop: &AtomicBool,
) -> Result<(MagicSet, Vec<PackCheckpoint>), PackMismatch> {
    let resume: Vec<PackCheckpoint> = resume.into_iter().cloned().collect();
    let (set, saved) = packed_seeds(pools, settings, &resume, stop, 1)?;
    Ok((set, saved.into_iter().map(|mut c| c.remove(0)).collect()))
}

/// The checkpoints a packing run saved, one list per save.
pub(crate) type Saves = Vec<Vec<PackCheckpoint>>;

/// Packs `pools` (12 index bits each) as `settings` say on `threads` threads, going on from
/// `resume`, and returns the set and the checkpoints saved (on one thread: after every
/// move of every packing), the last one those returned.
pub(crate) fn packed_seeds(
    pools: &[Vec<Pattern>],
    settings: PackSettings,
    resume: &[PackCheckpoint],
    stop: &AtomicBool,
    threads: usize,
) -> Result<(MagicSet, Saves), PackMismatch> {
    let (set, mut saved, end) =
        saving_every(pools, settings, resume, stop, threads, Duration::ZERO)?;
    // Saves repeat a packing's last checkpoint; the run's end closes the list once.
    saved.dedup();
    if saved.last() != Some(&end) {
        saved.push(end);
    }
    Ok((set, saved))
}

/// Packs `pools` as [`packed_seeds`] does, saving every `every`, and returns the set, every
/// save as it came, and the checkpoints the run returned. The run stops if `stop` is set
/// when it starts.
pub(crate) fn saving_every(
    pools: &[Vec<Pattern>],
    settings: PackSettings,
    resume: &[PackCheckpoint],
    stop: &AtomicBool,
    threads: usize,
    every: Duration,
) -> Result<(MagicSet, Saves, Vec<PackCheckpoint>), PackMismatch> {
    let mut saved: Saves = Vec::new();
    let mut save = |c: &[PackCheckpoint]| saved.push(c.to_vec());
    let progress = Progress::default();
    progress
        .stop
        .store(stop.load(Ordering::Relaxed), Ordering::Relaxed);
    let mut hooks = PackHooks {
        progress: Some(&progress),
        checkpoint: Some((every, &mut save)),
        threads,
    };
    let (set, end) = pack(black(pools, &[]), &settings, resume, &mut hooks)?;
    Ok((set, saved, end))
}

/// Packs `pools` (12 index bits each) with `iterations` annealing moves.
pub(crate) fn packed(pools: &[Vec<Pattern>], iterations: u64, negative_offsets: bool) -> MagicSet {
    let stop = AtomicBool::new(false);
    let packing = packing(iterations, negative_offsets);
    packed_from(pools, packing, None, &stop).unwrap().0
}

/// Returns the black packing of `pools` from the input layout `starts` (empty: none).
pub(crate) fn black<'a>(pools: &'a [Vec<Pattern>], starts: &'a [Option<usize>]) -> PackInput<'a> {
    PackInput {
        variant: Variant::Black,
        pools,
        starts,
    }
}

/// Returns the pool member `set` gives square `i` of `pools`.
pub(crate) fn member<'p>(pools: &'p [Vec<Pattern>], set: &MagicSet, i: usize) -> &'p Pattern {
    let magic = entry(set, i).magic;
    pools[i].iter().find(|p| p.magic == magic).unwrap()
}

/// Returns the entry of `set` for square `i` (0..128) of a set.
fn entry(set: &MagicSet, i: usize) -> Entry {
    let s = SetSquare::from_index(i);
    *set.entry(s.piece, s.square)
}

/// Returns the table length of `set`, packed from `pools`.
pub(crate) fn table_len(pools: &[Vec<Pattern>], set: &MagicSet) -> usize {
    (0..pools.len())
        .map(|i| (entry(set, i).offset + member(pools, set, i).end as i64) as usize)
        .max()
        .unwrap()
}

/// Panics if two squares of `set` take the same slot.
pub(crate) fn assert_no_slot_shared(pools: &[Vec<Pattern>], set: &MagicSet) {
    let mut taken = vec![false; table_len(pools, set)];
    for i in 0..pools.len() {
        let (e, p) = (entry(set, i), member(pools, set, i));
        for &(w, bits) in &p.words {
            for b in 0..64 {
                if bits >> b & 1 != 0 {
                    let slot = (e.offset + (p.first + 64 * w + b) as i64) as usize;
                    assert!(!taken[slot], "slot {slot} taken twice");
                    taken[slot] = true;
                }
            }
        }
    }
}
