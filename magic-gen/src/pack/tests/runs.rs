//! Runs of the packer: checkpoints refused or resumed, several packings at once, and a
//! packing's moves on two threads.

use std::time::Duration;

use super::*;

#[test]
fn a_checkpoint_of_another_packing_is_refused_at_its_line() {
    let pools = random_pools(5);
    let go = AtomicBool::new(false);
    let (_, every) = packed_from(&pools, packing(50, false), None, &go).unwrap();
    let c = &every[20];
    let refused = |pools: &[Vec<Pattern>], packing: PackSettings, c: &PackCheckpoint| {
        packed_from(pools, packing, Some(c), &go).unwrap_err()
    };
    // Every setting the checkpoint was saved with must be given again, each refused by
    // what differs (the CLI names the option from the two settings).
    let saved = packing(50, false);
    let changed = [
        (
            packing(60, false),
            Mismatch::of("pack-iterations", false, 50, 60),
        ),
        (
            PackSettings { seed: 3, ..saved },
            Mismatch::of("pack-seed", false, 9, 3),
        ),
        (
            packing(50, true),
            Mismatch::of("negative-offsets", true, 0, 1),
        ),
        (
            PackSettings {
                spread: 0.03,
                ..saved
            },
            Mismatch::of("pack-spread", false, 0, 0.03),
        ),
        (
            PackSettings {
                short_spans: true,
                ..saved
            },
            Mismatch::of("short-spans", true, 0, 1),
        ),
    ];
    for (given, differs) in changed {
        let e = refused(&pools, given, c);
        assert_eq!(e.line, "pack");
        assert_eq!(e.mismatch, differs, "{e}");
    }
    let mut other = pools.clone();
    other[3][1].magic ^= 1 << 40;
    let e = refused(&other, packing(50, false), c);
    assert!(matches!(e.mismatch, Mismatch::Pools { .. }), "{e}");
    assert!(e.to_string().contains("other magics"), "{e}");
    let mut fewer = pools.clone();
    fewer[3].pop();
    assert!(matches!(
        refused(&fewer, packing(50, false), c).mismatch,
        Mismatch::Pools { .. }
    ));
    // Edited lines: a member past its pool, a place taken twice, a wrong length.
    let edit = |f: &dyn Fn(&mut PackCheckpoint)| {
        let mut c = c.clone();
        f(&mut c);
        refused(&pools, packing(50, false), &c)
    };
    let e = edit(&|c| c.squares[4].member = 3);
    assert_eq!(e.line, "pack-square rook e1");
    assert!(
        e.to_string()
            .contains("member 3 is past the square's pool of 3"),
        "{e}"
    );
    let e = edit(&|c| c.squares[5].best_place = c.squares[6].best_place);
    assert_eq!(e.line, "pack-square rook g1");
    assert!(e.to_string().contains("taken twice"), "{e}");
    let e = edit(&|c| c.squares[0].place = 24);
    assert!(
        e.to_string()
            .contains("place 24 is past the last place, 23"),
        "{e}"
    );
    let e = edit(&|c| c.length += 1);
    assert_eq!(e.line, "pack-progress");
    assert!(e.to_string().contains("where its layout packs"), "{e}");
    let e = edit(&|c| c.draws = u64::MAX);
    assert_eq!(e.line, "pack-progress");
    assert!(
        e.to_string()
            .contains("draws in 21 moves, where each move draws 3 to 5"),
        "{e}"
    );
    // The counts of every checkpoint are within the bounds.
    assert!(every
        .iter()
        .all(|c| (3 * c.moves..=5 * c.moves).contains(&c.draws)));
}

/// Returns `settings` with `seeds` packings.
fn seeds(settings: PackSettings, seeds: u64) -> PackSettings {
    PackSettings { seeds, ..settings }
}

#[test]
fn several_packings_keep_the_shortest_whatever_the_threads() {
    let pools = random_pools(7);
    let go = AtomicBool::new(false);
    let three = seeds(packing(300, false), 3);
    let (one, saved) = packed_seeds(&pools, three, &[], &go, 1).unwrap();
    let (two, saved_two) = packed_seeds(&pools, three, &[], &go, 2).unwrap();
    assert_eq!(one, two);
    assert_eq!(saved.last(), saved_two.last());
    // Two threads a packing: each with a helper.
    let (six, saved_six) = packed_seeds(&pools, three, &[], &go, 6).unwrap();
    assert_eq!(one, six);
    assert_eq!(saved.last(), saved_six.last());
    // Each packing is the single packing of its seed; the set is the shortest of them,
    // the lowest seed among equals.
    let singles: Vec<(MagicSet, PackCheckpoint)> = (0..3)
        .map(|i| {
            let (set, every) = packed_from(&pools, three.seeded(i), None, &go).unwrap();
            assert_eq!(every.last().unwrap().settings.seeds, 3);
            (set, every.last().unwrap().clone())
        })
        .collect();
    let ends = saved.last().unwrap();
    for (i, (_, end)) in singles.iter().enumerate() {
        assert_eq!(ends[i], *end, "packing {i}");
    }
    let lens: Vec<usize> = singles.iter().map(|(s, _)| table_len(&pools, s)).collect();
    let shortest = (0..3).min_by_key(|&i| lens[i]).unwrap();
    assert_eq!(one, singles[shortest].0, "lengths {lens:?}");
    // One packing of seed 9 is the packing seeded 9, whatever the threads.
    let (alone, _) = packed_from(&pools, packing(300, false), None, &go).unwrap();
    let (on_two, _) = packed_seeds(&pools, packing(300, false), &[], &go, 2).unwrap();
    assert_eq!(alone, on_two);
    assert_eq!(alone, singles[0].0);
}

#[test]
fn several_packings_resumed_mid_run_end_as_an_uninterrupted_run() {
    let pools = random_pools(7);
    let go = AtomicBool::new(false);
    let two = seeds(packing(200, false), 2);
    let (whole, saved) = packed_seeds(&pools, two, &[], &go, 1).unwrap();
    // One thread saves after every move: the first packing's moves, then the second's.
    assert_eq!(saved.len(), 400);
    let end = saved.last().unwrap();
    for k in [0, 57, 199, 200, 311, 399] {
        let from = &saved[k];
        let text = PackCheckpoint::file_text(from);
        let read = PackCheckpoint::parse_file("p.pack", text.as_bytes()).unwrap();
        assert_eq!(read, *from);
        for threads in [1, 2, 4] {
            let (set, after) = packed_seeds(&pools, two, &read, &go, threads).unwrap();
            assert_eq!(set, whole, "resumed at save {k} on {threads} threads");
            assert_eq!(after.last().unwrap(), end, "resumed at save {k}");
        }
    }
    // Saved from packings with helpers (two moves at a time), resumed on one thread.
    let (paired, saved_paired) = packed_seeds(&pools, two, &[], &go, 4).unwrap();
    assert_eq!(paired, whole);
    for from in [&saved_paired[1], &saved_paired[saved_paired.len() / 2]] {
        let (set, after) = packed_seeds(&pools, two, from, &go, 1).unwrap();
        assert_eq!(
            set,
            whole,
            "resumed at {:?} moves",
            from.iter().map(|c| c.moves).collect::<Vec<_>>()
        );
        assert_eq!(after.last().unwrap(), end);
    }
    // Stopped before any move, on two threads: every packing at move 0, the greedy set.
    let halt = AtomicBool::new(true);
    let (greedy, at_zero) = packed_seeds(&pools, two, &[], &halt, 2).unwrap();
    assert_eq!(greedy, packed(&pools, 0, false));
    assert!(at_zero.last().unwrap().iter().all(|c| c.moves == 0));
}

#[test]
fn a_packing_that_ends_between_saves_is_saved_at_its_end() {
    let pools = random_pools(7);
    let go = AtomicBool::new(false);
    let three = seeds(packing(150, false), 3);
    let hour = Duration::from_secs(3600);
    for threads in [1, 2, 3] {
        let (_, saved, end) = saving_every(&pools, three, &[], &go, threads, hour).unwrap();
        // Saves an hour apart come only at the packings' ends, one each, every packing
        // either untouched or done; the last is the run's end.
        assert_eq!(saved.len(), 3, "on {threads} threads");
        for save in &saved {
            assert!(
                save.iter().all(|c| c.moves == 0 || c.moves == 150),
                "{threads}"
            );
        }
        // The k-th save follows the k-th end at least (on one thread, exactly).
        let done = |k: usize| saved[k].iter().filter(|c| c.moves == 150).count();
        for k in 0..3 {
            assert!(done(k) > k, "save {k} on {threads} threads");
            assert!(threads > 1 || done(k) == k + 1, "save {k} on one thread");
        }
        assert_eq!(saved.last(), Some(&end));
        // A resume from the first save makes the moves of the two packings left alone.
        let (set, _, after) = saving_every(&pools, three, &saved[0], &go, 1, hour).unwrap();
        assert_eq!(set, packed_seeds(&pools, three, &[], &go, 1).unwrap().0);
        assert_eq!(after, end);
    }
}

#[test]
fn a_checkpoint_of_another_seed_count_is_refused_at_its_section() {
    let pools = random_pools(7);
    let go = AtomicBool::new(false);
    let three = seeds(packing(40, false), 3);
    let (_, saved) = packed_seeds(&pools, three, &[], &go, 1).unwrap();
    let c = &saved[70];
    for given in [seeds(three, 2), seeds(three, 4), seeds(three, 1)] {
        let e = packed_seeds(&pools, given, c, &go, 2).unwrap_err();
        assert_eq!((e.line.as_str(), e.packing), ("pack", 0));
        let differs = Mismatch::of("pack-seeds", false, 3, given.seeds);
        assert_eq!(e.mismatch, differs, "{e}");
    }
    // Damage in a later packing's section is found there.
    let mut damaged = c.clone();
    damaged[2].length += 1;
    let e = packed_seeds(&pools, three, &damaged, &go, 2).unwrap_err();
    assert_eq!((e.line.as_str(), e.packing), ("pack-progress", 2));
    // A section short (only through the API: a file is refused as it is read).
    let e = packed_seeds(&pools, three, &c[..2], &go, 1).unwrap_err();
    assert!(matches!(e.mismatch, Mismatch::Damaged(_)), "{e}");
}

#[test]
fn a_pair_of_threads_makes_the_moves_of_one() {
    // Every move of a run on one thread, kept or undone, in the same order: the states
    // after each pair of moves agree.
    for (seed, negative_offsets) in [(5, false), (6, true)] {
        let pools = random_pools(seed);
        let order: Vec<usize> = (0..pools.len()).collect();
        let settings = packing_seeded(seed, 3000);
        let layout =
            |order: Vec<usize>| Layout::new(&pools, order, vec![0; pools.len()], negative_offsets);
        let mut alone = Annealer::new(layout(order.clone()), &settings);
        let mut paired = Annealer::new(layout(order), &settings);
        super::pair::with_helper(&mut paired, |paired, helper| {
            while !paired.finished() {
                let made = helper.step_two(paired);
                for _ in 0..made {
                    alone.step();
                }
                assert_eq!(alone.moves, paired.moves);
                assert_eq!(alone.rng.drawn, paired.rng.drawn, "move {}", alone.moves);
                assert_eq!(
                    alone.layout.order, paired.layout.order,
                    "move {}",
                    alone.moves
                );
                assert_eq!(
                    alone.layout.member, paired.layout.member,
                    "move {}",
                    alone.moves
                );
                assert_eq!(alone.layout.start, paired.layout.start);
                assert_eq!(alone.energy, paired.energy);
                assert_eq!(alone.temperature, paired.temperature);
            }
        });
        assert_eq!(alone.best_order, paired.best_order);
    }
}

#[test]
fn a_step_packed_for_a_time_records_the_moves_in_its_place() {
    use crate::set_file::Step;
    let mut steps = Step::parse_chain(
        "magic-gen search --variant black --pack-iterations 60000 --pack-seconds 600 --seed 1; \
         then magic-gen merge a.state --pack-seconds 2.5 --out m.rs; then magic-gen pack m.rs \
         --pack-iterations 7",
    )
    .unwrap();
    PackSettings::record_moves(&mut steps, 1234);
    assert_eq!(
        Step::chain_line(&steps),
        "magic-gen search --variant black --pack-iterations 1234 --seed 1; then magic-gen \
         merge a.state --pack-iterations 1234 --out m.rs; then magic-gen pack m.rs \
         --pack-iterations 7"
    );
}

#[test]
fn a_packing_bounded_by_time_resumes_with_the_moves_of_its_checkpoint() {
    let pools = random_pools(5);
    let go = AtomicBool::new(false);
    let (_, saved) = packed_from(&pools, packing(50, false), None, &go).unwrap();
    // Its time measured again would give other moves: the checkpoint's are kept.
    let timed = PackSettings {
        seconds: 3600.0,
        ..packing(50, false)
    };
    let (set, _) = packed_from(&pools, timed, Some(&saved[20]), &go).unwrap();
    let (whole, _) = packed_from(&pools, packing(50, false), None, &go).unwrap();
    assert_eq!(set, whole);
}
