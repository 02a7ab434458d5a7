//! The overlay packer's own tests: a square taken out leaves its slots as if it had never
//! come, and the search's layouts verify, repeat and stop with the best met, and several
//! seeds keep the shortest on any number of threads.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::geometry::SetSquare;
use crate::index::Variant;
use crate::occupancy::SquareData;
use crate::pack::Pattern;
use crate::stages::Progress;
use crate::{read_set_file, verify, MagicSet};

use super::layout::Layout;
use super::wants::Wants;
use super::{greedy, pack_overlay, widest_first, PackSettings};

/// Returns the project's own black magics.
fn own_black() -> MagicSet {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    read_set_file(&root.join("magics/records/own-black.rs"))
        .expect("the committed set reads")
        .0
}

/// Returns each square's pool of one member, its own magic.
fn wants(set: &MagicSet) -> Vec<Vec<Wants>> {
    SetSquare::all()
        .map(|s| {
            let e = set.entry(s.piece, s.square);
            let data = SquareData::new(s.piece, s.square, Variant::Black);
            vec![Wants::of(&data, s, e.magic, e.bits).expect("a committed magic verifies")]
        })
        .collect()
}

/// Returns `set`'s magics as the packer's pools (one member each).
fn patterns(set: &MagicSet) -> Vec<Vec<Pattern>> {
    SetSquare::all()
        .map(|s| {
            let e = set.entry(s.piece, s.square);
            vec![Pattern::new(e.magic, e.bits, [0])]
        })
        .collect()
}

/// Returns the cells of `layout` up to `len`.
fn cells(layout: &Layout, len: usize) -> Vec<super::slots::Cell> {
    (0..len).map(|k| layout.slots.cell(k)).collect()
}

#[test]
fn a_square_taken_out_leaves_its_slots_as_if_it_never_came() {
    let pools = wants(&own_black());
    let order = widest_first(&pools);
    let mut full = greedy(&pools, &order);
    let len = full.len();
    // Squares from the middle of the order share slots with squares on either side.
    for &gone in &order[40..48] {
        full.remove(gone);
        let mut without = Layout::new(&pools);
        for &s in order.iter().filter(|&&s| s != gone) {
            without.put(s, full.choices[s]);
        }
        assert!(cells(&full, len) == cells(&without, len), "square {gone}");
        let choice = full.choices[gone];
        full.put(gone, choice);
    }
    assert!(cells(&full, len) == cells(&greedy(&pools, &order), len));
}

/// Returns the set and moves of a packing of `set` with `moves` moves seeded `seed`.
fn packed(set: &MagicSet, moves: u64, seed: u64, progress: &Progress) -> (MagicSet, u64) {
    let settings = PackSettings {
        iterations: moves,
        seed,
        ..PackSettings::default()
    };
    let (set, moves) = pack_overlay(
        Variant::BlackOverlay,
        &patterns(set),
        &settings,
        1,
        progress,
    )
    .expect("the magics verify");
    (set, moves.made)
}

/// Returns the table length of `set`, verified by its rule.
fn len(set: &MagicSet) -> usize {
    verify(set)
        .expect("verifies by the overlay rule")
        .report
        .table_len
}

#[test]
fn the_searchs_layouts_verify_shorten_and_repeat_from_their_seed() {
    let own = own_black();
    let (greedy, made) = packed(&own, 0, 1, &Progress::default());
    assert_eq!((len(&greedy), made), (67_336, 0));
    let progress = Progress::default();
    let (searched, made) = packed(&own, 60, 1, &progress);
    assert_eq!(made, 60);
    assert!(len(&searched) < len(&greedy), "{}", len(&searched));
    assert_eq!(progress.best_len.load(Ordering::Relaxed), len(&searched));
    assert_eq!(packed(&own, 60, 1, &Progress::default()).0, searched);
    assert_ne!(packed(&own, 60, 2, &Progress::default()).0, searched);
}

#[test]
fn a_search_stopped_midway_keeps_the_best_layout_met() {
    let own = own_black();
    let progress = Arc::new(Progress::default());
    let watcher = {
        let progress = Arc::clone(&progress);
        std::thread::spawn(move || {
            while progress.moves.load(Ordering::Relaxed) < 20 {
                std::thread::yield_now();
            }
            progress.stop.store(true, Ordering::Relaxed);
        })
    };
    let (set, made) = packed(&own, 1_000_000, 1, &progress);
    watcher.join().unwrap();
    assert!((20..1_000_000).contains(&made), "{made}");
    let len = verify(&set).expect("verifies").report.table_len;
    assert_eq!(len, progress.best_len.load(Ordering::Relaxed));
    assert!(len <= 67_336);
    // Stopped before the first move: the greedy layout.
    let stopped = Progress::default();
    stopped.stop.store(true, Ordering::Relaxed);
    let (set, made) = packed(&own, 1_000, 1, &stopped);
    assert_eq!(made, 0);
    assert_eq!(verify(&set).unwrap().report.table_len, 67_336);
}

#[test]
fn several_seeds_keep_the_shortest_whatever_the_threads() {
    let own = own_black();
    let settings = |seed, seeds| PackSettings {
        iterations: 30,
        seed,
        seeds,
        ..PackSettings::default()
    };
    let run = |settings: &PackSettings, threads, progress: &Progress| {
        pack_overlay(
            Variant::BlackOverlay,
            &patterns(&own),
            settings,
            threads,
            progress,
        )
        .expect("the magics verify")
    };
    let alone: Vec<MagicSet> = (5..8)
        .map(|seed| run(&settings(seed, 1), 1, &Progress::default()).0)
        .collect();
    let shortest = alone.iter().map(len).min().unwrap();
    let first_shortest = alone.iter().find(|s| len(s) == shortest).unwrap();
    let progress = Progress::default();
    let (on_one, moves) = run(&settings(5, 3), 1, &progress);
    assert_eq!((moves.each, moves.made, moves.asked), (30, 90, 90));
    assert_eq!(progress.moves.load(Ordering::Relaxed), 90);
    assert_eq!(progress.best_len.load(Ordering::Relaxed), shortest);
    assert!(&on_one == first_shortest);
    let (on_two, _) = run(&settings(5, 3), 2, &Progress::default());
    assert!(on_two == on_one);
}

#[test]
fn a_packing_bounded_by_time_reports_the_moves_that_rerun_it() {
    let own = own_black();
    let run = |settings: &PackSettings, progress: &Progress| {
        pack_overlay(
            Variant::BlackOverlay,
            &patterns(&own),
            settings,
            2,
            progress,
        )
        .expect("the magics verify")
    };
    let timed = PackSettings {
        seconds: 0.5,
        seeds: 2,
        ..PackSettings::default()
    };
    let progress = Progress::default();
    let (set, moves) = run(&timed, &progress);
    assert_eq!((moves.made, moves.asked), (2 * moves.each, 2 * moves.each));
    // The trial's moves are not the packing's.
    assert_eq!(progress.moves.load(Ordering::Relaxed), moves.made);
    let counted = PackSettings {
        iterations: moves.each,
        seeds: 2,
        ..PackSettings::default()
    };
    assert!(run(&counted, &Progress::default()).0 == set);
}

#[test]
fn a_fit_bounded_below_a_limit_is_the_first_start_that_fits_or_none() {
    let pools = wants(&own_black());
    let order = widest_first(&pools);
    // Half the squares laid out: a table with holes of every kind for the others.
    let mut layout = Layout::new(&pools);
    for &s in &order[..64] {
        layout.insert(s);
    }
    let fits = |w: &Wants, start: usize| {
        w.slots.iter().all(|&(i, a)| {
            let c = layout.slots.cell(start + i as usize);
            c.through == 0 || c.value & w.rays == a & c.through
        })
    };
    for &s in &order[64..] {
        let w = &pools[s][0];
        let first = (w.first..).find(|&start| fits(w, start)).unwrap();
        for limit in [0, w.first, first, first + 1, first + 1000, usize::MAX] {
            let expected = (first < limit).then_some(first);
            assert_eq!(
                layout.slots.first_fit_below(w, w.first, limit),
                expected,
                "{s} {limit}"
            );
        }
    }
}
