//! The overlay packer's own tests: a square taken out leaves its slots as if it had never
//! come, and the search's layouts verify, repeat and stop with the best met, and several
//! seeds keep the shortest on any number of threads.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::SetSquare;
use crate::index::Variant;
use crate::occupancy::SquareData;
use crate::pack::Pattern;
use crate::stages::Progress;
use crate::{pext, read_set_file, verify, MagicSet};

use super::layout::Layout;
use super::wants::Wants;
use super::{greedy, pack_overlay, widest_first, PackSettings, Refused};
use crate::pack::checkpoint::{Mismatch, PackCheckpoint};
use crate::pack::moves::PackMoves;
use crate::pack::run::{PackHooks, SavePack};

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
            let reads = (s, Variant::BlackOverlay.reads_through(s.piece, s.square));
            vec![Wants::of(&data, reads, e.magic, e.bits).expect("a committed magic verifies")]
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

/// Returns the overlay packing of `set`'s black magics as `settings` say on `threads`,
/// counted in `progress`, going on from `resume`, saving to `save`: the set, the moves and
/// each seed's last checkpoint.
fn overlay<'a>(
    set: &MagicSet,
    settings: &PackSettings,
    (threads, progress): (usize, &'a Progress),
    resume: &[PackCheckpoint],
    save: Option<SavePack<'a>>,
) -> Result<(MagicSet, PackMoves, Vec<PackCheckpoint>), Refused> {
    let mut hooks = PackHooks {
        progress: Some(progress),
        checkpoint: save,
        threads,
    };
    let packed = pack_overlay(
        Variant::BlackOverlay,
        &patterns(set),
        settings,
        resume,
        &mut hooks,
    );
    let (set, checkpoints) = packed?;
    let moves = PackMoves::of(&checkpoints).expect("a packing has a checkpoint");
    Ok((set, moves, checkpoints))
}

/// Returns the set and moves of a packing of `set` with `moves` moves seeded `seed`.
fn packed(set: &MagicSet, moves: u64, seed: u64, progress: &Progress) -> (MagicSet, u64) {
    let settings = PackSettings {
        iterations: moves,
        seed,
        ..PackSettings::default()
    };
    let (set, moves, _) = overlay(set, &settings, (1, progress), &[], None).expect("they verify");
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
        let (set, moves, _) = overlay(&own, settings, (threads, progress), &[], None).unwrap();
        (set, moves)
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
        let (set, moves, _) = overlay(&own, settings, (2, progress), &[], None).unwrap();
        (set, moves)
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
fn a_packing_saved_midway_resumes_to_the_end_of_an_uninterrupted_one() {
    let own = own_black();
    let settings = PackSettings {
        iterations: 24,
        seeds: 2,
        ..PackSettings::default()
    };
    let whole = overlay(&own, &settings, (2, &Progress::default()), &[], None).unwrap();
    // Saved as often as it can be, on one thread, the checkpoint of a run with its first
    // seed done and the second midway is kept as a file would keep it.
    let mut midway: Option<String> = None;
    let mut save = |c: &[PackCheckpoint]| {
        if c[0].moves == 24 && (5..20).contains(&c[1].moves) {
            midway.get_or_insert_with(|| PackCheckpoint::file_text(c));
        }
    };
    let saving = (
        std::time::Duration::ZERO,
        &mut save as &mut dyn FnMut(&[PackCheckpoint]),
    );
    overlay(
        &own,
        &settings,
        (1, &Progress::default()),
        &[],
        Some(saving),
    )
    .unwrap();
    let text = midway.expect("a checkpoint midway");
    let saved = PackCheckpoint::parse_file("o.pack", text.as_bytes()).unwrap();
    assert!(saved[0].squares.iter().all(|s| s.starts.is_some()));
    let progress = Progress::default();
    let resumed = overlay(&own, &settings, (2, &progress), &saved, None).unwrap();
    assert!(resumed.0 == whole.0);
    assert_eq!(resumed.2, whole.2);
    assert_eq!(progress.moves.load(Ordering::Relaxed), 48);
}

#[test]
fn a_checkpoint_of_another_packing_or_damaged_is_refused() {
    let own = own_black();
    let settings = PackSettings {
        iterations: 6,
        overlay: true,
        ..PackSettings::default()
    };
    let run = |settings: &PackSettings, resume: &[PackCheckpoint]| {
        overlay(&own, settings, (1, &Progress::default()), resume, None)
    };
    let (_, _, saved) = run(&settings, &[]).unwrap();
    let refused = |resume: &[PackCheckpoint]| match run(&settings, resume) {
        Err(Refused::Checkpoint(m)) => m.to_string(),
        Err(Refused::Member(at)) => panic!("{at}"),
        Ok(_) => panic!("resumed from {:?}", &resume[0]),
    };
    let mut longer = saved.clone();
    longer[0].settings.iterations = 7;
    assert_eq!(
        refused(&longer),
        Mismatch::of("pack-iterations", false, 7, 6).to_string()
    );
    // An exact packing's checkpoint: the overlay setting differs.
    let mut exact = saved.clone();
    exact[0].settings.overlay = false;
    assert!(refused(&exact).contains("overlay"), "{}", refused(&exact));
    let mut no_starts = saved.clone();
    no_starts[0].squares[3].starts = None;
    assert!(refused(&no_starts).contains("no start"));
    // Rook a1 moved onto rook b1's start clashes there, or leaves the lengths unexplained.
    let mut moved = saved.clone();
    moved[0].squares[0].starts = moved[0].squares[1].starts;
    assert!(refused(&moved).contains("an edited or damaged checkpoint"));
    let mut two = saved.clone();
    two.push(saved[0].clone());
    assert!(refused(&two).contains("2 packings saved"));
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

/// Returns the greedy overlay length of standard-bit tables, every square indexed by
/// `index` (the square, its relevant mask and a key of it, the occupancy within the mask).
fn greedy_len_of(index: impl Fn(SetSquare, u64, u64) -> u32) -> usize {
    let pools: Vec<Vec<Wants>> = SetSquare::all()
        .map(|s| {
            let data = SquareData::new(s.piece, s.square, Variant::Fancy);
            let keys = data.keys.iter().zip(&data.attacks);
            let mut slots: Vec<(u32, u64)> =
                keys.map(|(&k, &a)| (index(s, data.mask, k), a)).collect();
            slots.sort_unstable();
            let bits = data.mask.count_ones() as u8;
            let reads = (s, Variant::FancyOverlay.reads_through(s.piece, s.square));
            vec![Wants::of_slots(reads, (0, bits), slots).expect("a perfect index")]
        })
        .collect();
    greedy(&pools, &widest_first(&pools)).len()
}

/// Returns `key`'s mask bits (of `mask`) moved to the places `order` gives them: bit `i` of
/// the mask, from the lowest, to place `order[i]`.
fn gathered(key: u64, mask: u64, order: &[u32]) -> u32 {
    let compact = pext(key, mask);
    (0..order.len()).fold(0, |index, i| {
        index | (((compact >> i) & 1) as u32) << order[i]
    })
}

/// Why the standard-bit fancy overlay stays near 65,536 entries: squares share slots where
/// entries at the same index agree, which an index that orders every square's occupancy
/// bits alike gives far more often than one that scatters them. PEXT's order, or the
/// squares farthest from the piece first, pack a good tenth shorter than a random order per
/// square, and magics pack like random orders: a multiply cannot gather a rook's mask in
/// any fixed order (docs/results/hunts.md, "Overlay tables").
#[test]
fn an_index_ordering_every_square_alike_packs_shorter_than_magics() {
    let in_pext_order = greedy_len_of(|_, mask, key| pext(key, mask) as u32);
    let farthest_first = greedy_len_of(|s, mask, key| {
        let distance = |b: u64| {
            let (f, r) = (b as i32 % 8, b as i32 / 8);
            let (sf, sr) = (s.square as i32 % 8, s.square as i32 / 8);
            (f - sf).abs().max((r - sr).abs())
        };
        let bits: Vec<u64> = (0..64).filter(|b| mask >> b & 1 == 1).collect();
        let mut by_distance: Vec<usize> = (0..bits.len()).collect();
        by_distance.sort_by_key(|&i| (core::cmp::Reverse(distance(bits[i])), i));
        let mut order = vec![0; bits.len()];
        for (place, &i) in by_distance.iter().enumerate() {
            order[i] = place as u32;
        }
        gathered(key, mask, &order)
    });
    let shuffled = greedy_len_of(|s, mask, key| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(s.index() as u64);
        let mut order: Vec<u32> = (0..mask.count_ones()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        gathered(key, mask, &order)
    });
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fancy = read_set_file(&root.join("magics/fancy.rs")).unwrap().0;
    let magics = greedy_len_of(|s, _, key| {
        let e = fancy.entry(s.piece, s.square);
        (key.wrapping_mul(e.magic) >> (64 - e.bits)) as u32
    });
    // The figures docs/results/hunts.md quotes (`-- --nocapture`).
    eprintln!(
        "greedy overlay lengths: PEXT order {in_pext_order}, farthest first \
         {farthest_first}, shuffled {shuffled}, magics/fancy.rs {magics}"
    );
    for ordered in [in_pext_order, farthest_first] {
        assert!(ordered < 58_000, "{ordered}");
    }
    for scattered in [shuffled, magics] {
        assert!(scattered > 65_000, "{scattered}");
    }
}
