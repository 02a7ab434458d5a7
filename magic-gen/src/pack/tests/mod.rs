//! The packer's tests: fitting, layouts and annealing moves here; checkpoints, several
//! packings and threads in `runs.rs`; the checkpoint's file in `checkpoint_file.rs`.

mod checkpoint_file;
mod runs;

use std::sync::atomic::AtomicBool;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::anneal::Annealer;
use super::checkpoint::pools_digest;
use super::fit::Table;
use super::layout::{input_order, pack_in_order, Layout};
use super::test_support::*;
use crate::annealing::metropolis;

/// Returns the packing of `iterations` moves seeded `seed`, judged by length alone.
fn packing_seeded(seed: u64, iterations: u64) -> PackSettings {
    PackSettings {
        seed,
        iterations,
        ..PackSettings::default()
    }
}
use super::*;

#[test]
fn patterns_interleave_in_each_others_gaps() {
    let pools = vec![
        vec![Pattern::new(1, 12, [0, 2, 4, 6])],
        vec![Pattern::new(2, 12, [0, 2])],
    ];
    let (choice, len) = pack_in_order(&pools, &[0, 1], false);
    assert_eq!(len, 7);
    assert_eq!(choice[1].1, 1);
}

#[test]
fn the_pool_member_that_grows_the_table_least_wins() {
    let pools = vec![
        vec![Pattern::new(1, 12, [0, 1, 2, 3])],
        vec![Pattern::new(2, 12, [0, 1, 2]), Pattern::new(3, 12, [5])],
    ];
    let (choice, len) = pack_in_order(&pools, &[0, 1], false);
    // [5] fits at offset 0 (start 5), ending at 6; [0, 1, 2] would end at 7.
    assert_eq!((choice[1], len), ((1, 5), 6));
}

#[test]
fn fitting_agrees_with_a_slot_by_slot_check() {
    // A dense, irregular table and patterns spanning several words; every other one
    // a lone slot and a dense tail 250 slots on (white's empty occupancy at index 0),
    // which the fit screens by a word other than its first.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut table = Table::new();
    let mut taken = vec![false; 2000];
    for n in 0..40 {
        let slots: Vec<u32> = if n % 2 == 0 {
            (0..30).map(|_| (rng.next_u64() % 300) as u32 + 3).collect()
        } else {
            let tail = (0..30).map(|_| (rng.next_u64() % 40) as u32 + 253);
            std::iter::once(3).chain(tail).collect()
        };
        let p = Pattern::new(0, 12, slots.clone());
        if n % 2 == 1 {
            assert!(p.words[0].0 > 0);
        }
        let offset = table.first_fit(&p, p.first) - p.first;
        // Slot by slot: the first offset with all used slots free.
        let expected = (0..)
            .find(|&o| {
                slots
                    .iter()
                    .all(|&i| !taken.get(o + i as usize).copied().unwrap_or(false))
            })
            .unwrap();
        assert_eq!(offset, expected);
        table.place(&p, offset + p.first);
        for &i in &slots {
            if offset + i as usize >= taken.len() {
                taken.resize(offset + i as usize + 1, false);
            }
            taken[offset + i as usize] = true;
        }
    }
}

#[test]
fn a_bounded_fit_agrees_with_a_slot_by_slot_check_in_a_long_dense_table() {
    // Hundreds of table words, most of them too full for the anchor: the room scan
    // skips blocks eight at a time, and each answer must be the lowest fitting start in
    // `lowest..limit` (or none).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut table = Table::new();
    let mut taken = vec![false; 64 * 400];
    for (slot, t) in taken.iter_mut().enumerate() {
        if rng.next_u64() % 8 != 0 {
            *t = true;
            table.place(&Pattern::new(0, 12, [0]), slot);
        }
    }
    for n in 0..300 {
        let teeth = 1 + rng.next_u64() % 12;
        let spread = 1 + rng.next_u64() % 200;
        let slots: Vec<u32> = (0..teeth)
            .map(|_| (rng.next_u64() % spread) as u32)
            .collect();
        let p = Pattern::new(n, 12, slots);
        let lowest = (rng.next_u64() % (64 * 420)) as usize;
        let limit = lowest + (rng.next_u64() % (64 * 60)) as usize;
        let fits = |s: usize| {
            p.words.iter().all(|&(w, bits)| {
                (0..64).all(|b| {
                    bits >> b & 1 == 0 || !taken.get(s + 64 * w + b).copied().unwrap_or(false)
                })
            })
        };
        let expected = (lowest..limit).find(|&s| fits(s));
        assert_eq!(
            table.first_fit_below(&p, lowest, limit),
            expected,
            "pattern {n}"
        );
    }
}

#[test]
fn removing_a_pattern_frees_exactly_its_slots() {
    let mut table = Table::new();
    let a = Pattern::new(1, 12, [1, 5, 70, 130]);
    let b = Pattern::new(2, 12, [0, 2, 64]);
    table.place(&a, 3);
    let before = table.taken.clone();
    table.place(&b, 0);
    table.remove(&b, 0);
    assert_eq!(table.taken[..before.len()], before[..]);
    assert!(table.taken[before.len()..].iter().all(|&w| w == 0));
}

#[test]
fn the_pair_counts_follow_every_place_and_remove() {
    // Patterns at starts of every remainder mod 64, so words split across table words.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut table = Table::new();
    let mut placed = Vec::new();
    for n in 0..60 {
        let mut slots: Vec<u32> = (0..40).map(|_| (rng.next_u64() % 700) as u32).collect();
        if n % 2 == 1 {
            // A white-like pattern: slot 0, then a run far above it (mostly empty words).
            slots = (0..40).map(|i| if i == 0 { 0 } else { 3000 + i }).collect();
        }
        let p = Pattern::new(n, 12, slots);
        let s = table.first_fit(&p, (rng.next_u64() % 3000) as usize);
        table.place(&p, s);
        placed.push((p, s));
        if n % 3 == 2 {
            let (p, s) = placed.remove((rng.next_u64() % placed.len() as u64) as usize);
            table.remove(&p, s);
        }
        let free = |i: usize| table.taken.get(i).map_or(64, |w| w.count_zeros());
        assert!(table.pair.len() >= table.taken.len() + 64);
        for (i, &f) in table.pair.iter().enumerate() {
            assert_eq!(u32::from(f), (free(i) + free(i + 1)).min(127), "word {i}");
        }
    }
}

#[test]
fn the_digest_sees_each_members_bits_and_keeps_one_shift_pools_as_before() {
    let pools = random_pools(3);
    // Before pools could mix shifts: the variant, then per pool its bits, its size and
    // every magic.
    let mut old = 0xcbf2_9ce4_8422_2325u64;
    for b in *b"black" {
        old = (old ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    for pool in &pools {
        let mut bytes = vec![12u8];
        bytes.extend((pool.len() as u64).to_le_bytes());
        bytes.extend(pool.iter().flat_map(|p| p.magic.to_le_bytes()));
        for b in bytes {
            old = (old ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    assert_eq!(pools_digest(Variant::Black, &pools), old);
    // One member at other bits is another packing, whichever member it is.
    let mut digests = vec![old];
    for k in 0..3 {
        let mut mixed = pools.clone();
        mixed[4][k].bits = 10;
        digests.push(pools_digest(Variant::Black, &mixed));
    }
    digests.sort_unstable();
    digests.dedup();
    assert_eq!(digests.len(), 4);
}

#[test]
fn every_move_leaves_each_square_at_its_first_fit() {
    // Moves place squares knowing where they were; a layout built from scratch for the
    // same order and members must agree after every one, kept or undone.
    for (seed, negative_offsets) in [(5, false), (6, true), (7, false)] {
        let pools = random_pools(seed);
        let order: Vec<usize> = (0..pools.len()).collect();
        let layout = Layout::new(&pools, order, vec![0; pools.len()], negative_offsets);
        let mut annealer = Annealer::new(layout, &packing_seeded(seed, 3000));
        let mut changed = 0;
        while !annealer.finished() {
            let old = annealer.layout.start.clone();
            annealer.step();
            let l = &annealer.layout;
            let fresh = Layout::new(&pools, l.order.clone(), l.member.clone(), negative_offsets);
            assert_eq!(l.start, fresh.start, "seed {seed}, move {}", annealer.moves);
            assert_eq!(l.end, fresh.end);
            // The same slots taken (an undone move may leave zero words at the end).
            let trimmed =
                |t: &[u64]| t[..t.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1)].to_vec();
            assert_eq!(trimmed(&l.table.taken), trimmed(&fresh.table.taken));
            changed += usize::from(l.start != old);
        }
        assert!(changed > 100, "only {changed} moves changed the layout");
    }
}

#[test]
fn the_input_order_gives_back_any_layout_of_first_fits() {
    // Layouts that first fit gives for random orders, one member per square: the order
    // found from their starts alone places every square where it was.
    for (seed, negative_offsets) in [(11, false), (12, true), (13, false)] {
        let pools: Vec<Vec<Pattern>> = random_pools(seed)
            .into_iter()
            .map(|mut pool| vec![pool.swap_remove(seed as usize % pool.len())])
            .collect();
        let mut order: Vec<usize> = (0..pools.len()).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let laid = Layout::new(
            &pools,
            order.clone(),
            vec![0; pools.len()],
            negative_offsets,
        );
        let mut starts = vec![None; pools.len()];
        for (at, &sq) in laid.order.iter().enumerate() {
            starts[sq] = Some(laid.start[at]);
        }
        let found = input_order(&pools, &starts, negative_offsets);
        let again = Layout::new(
            &pools,
            found.clone(),
            vec![0; pools.len()],
            negative_offsets,
        );
        assert_eq!(again.choices(), laid.choices(), "seed {seed}");
        // Not merely the order it was made with.
        assert_ne!(found, order, "seed {seed}");
        // A square without a start comes last; one without a pool not at all.
        let mut fewer = starts.clone();
        fewer[3] = None;
        let mut pools_short = pools.clone();
        pools_short[5].clear();
        let partial = input_order(&pools_short, &fewer, negative_offsets);
        assert_eq!(partial.last(), Some(&3));
        assert_eq!(partial.len(), pools.len() - 1);
        assert!(!partial.contains(&5));
    }
}

#[test]
fn a_packing_from_the_input_starts_from_its_layout_and_never_ends_longer() {
    // The published black magics: first fit in their offsets' order is shorter than
    // their own layout, so the order found from it packs shorter than the greedy pass.
    let (pools, starts) = published_black_pools();
    let greedy_order = super::widest_first(&pools);
    let greedy = Layout::new(&pools, greedy_order, vec![0; 128], false).len();
    let input = Layout::new(
        &pools,
        input_order(&pools, &starts, false),
        vec![0; 128],
        false,
    );
    assert!(
        input.len() < 87_988 && input.len() < greedy,
        "{} {greedy}",
        input.len()
    );
    let warm = PackSettings {
        from_input: true,
        ..packing_seeded(1, 300)
    };
    let mut hooks = PackHooks::default();
    let (set, end) = pack(black(&pools, &starts), &warm, &[], &mut hooks).unwrap();
    assert!(table_len(&pools, &set) <= input.len());
    assert_no_slot_shared(&pools, &set);
    // Its first temperature is the warm one, kept in the checkpoint.
    assert!(f64::from_bits(end[0].temperature) < super::anneal::PACK_WARM);
    // Without starts, the setting packs from the greedy pass as a search does.
    let cold = pack(black(&pools, &[]), &warm, &[], &mut hooks).unwrap();
    assert_ne!(cold.0, set);
}

#[test]
fn a_move_cut_short_at_the_cap_is_one_the_rule_would_undo() {
    // Above the cap the Metropolis rule undoes the move with the same draw; the cap is
    // within a slot of the largest rise it keeps, so it cuts most of the moves it undoes.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for _ in 0..100_000 {
        let energy = (rng.next_u64() % 100_000) as f64 + (rng.next_u64() % 1000) as f64 / 1000.0;
        let temperature = 0.5 + (rng.next_u64() % 300_000) as f64 / 1000.0;
        let u = ((rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64;
        let cap = Annealer::cap(energy, temperature, u);
        for over in [1, 2, 10] {
            let rise = (cap + over) as f64 - energy;
            assert!(
                !metropolis(rise, temperature, u),
                "{energy} {temperature} {u}"
            );
        }
        let kept = -temperature * u.ln();
        assert!(cap as f64 <= energy + kept + 1.0 && cap as f64 > energy + kept - 1.0);
    }
}

#[test]
fn the_mean_end_sees_moves_that_leave_the_length_as_it_is() {
    // A run of 100 and two of 10: both orders end at 120, but with the short ones
    // first the ranges end lower on the mean (50 against 110).
    let pools = vec![
        vec![Pattern::new(1, 12, 0..100)],
        vec![Pattern::new(2, 12, 0..10)],
        vec![Pattern::new(3, 12, 0..10)],
    ];
    let layout = |order: Vec<usize>| Layout::new(&pools, order, vec![0; 3], false);
    let (long_first, short_first) = (layout(vec![0, 1, 2]), layout(vec![1, 2, 0]));
    assert_eq!((long_first.len(), short_first.len()), (120, 120));
    for (spread, long, short) in [(0.0, 120.0, 120.0), (0.5, 175.0, 145.0)] {
        assert_eq!(Annealer::energy(&long_first, spread), long);
        assert_eq!(Annealer::energy(&short_first, spread), short);
    }
}

#[test]
fn annealing_is_deterministic_and_never_longer_than_greedy() {
    let pools = random_pools(5);
    let greedy = packed(&pools, 0, false);
    let annealed = packed(&pools, 2000, false);
    assert_eq!(annealed, packed(&pools, 2000, false));
    let len = |set: &MagicSet| table_len(&pools, set);
    assert!(
        len(&annealed) < len(&greedy),
        "{} {}",
        len(&annealed),
        len(&greedy)
    );
    assert_no_slot_shared(&pools, &annealed);
}

#[test]
fn short_spans_keep_the_length_and_take_shorter_members_where_they_fit() {
    // Square 0 leaves a hole of 16 slots; square 1 fills it with a comb of 8 slots over
    // 15 or a run of 8. Both keep the table at 32 and use 8 slots, so the packer takes
    // the first member, the comb; short spans take the run.
    let hole = Pattern::new(1, 12, (0..8).chain(24..32));
    let comb = Pattern::new(2, 12, (0..8).map(|k| 2 * k));
    let run = Pattern::new(3, 12, 0..8);
    let pools = vec![vec![hole], vec![comb, run]];
    let stop = AtomicBool::new(false);
    let short = PackSettings {
        short_spans: true,
        ..packing(0, false)
    };
    let plain = packed_from(&pools, packing(0, false), None, &stop)
        .unwrap()
        .0;
    let shortened = packed_from(&pools, short, None, &stop).unwrap().0;
    assert_eq!(
        (plain.entries[0][1].magic, plain.entries[0][1].offset),
        (2, 8)
    );
    assert_eq!(
        (
            shortened.entries[0][1].magic,
            shortened.entries[0][1].offset
        ),
        (3, 8)
    );
    assert_eq!(table_len(&pools, &shortened), 32);
    // Only a strictly shorter member replaces one. Square 0 leaves slots 8, 9 and 11 up
    // free; of two members of square 1 with 4 slots of span and 3 used, the second fits
    // lower (8, against 9 for the first), so the packer takes it, and short spans keep
    // it although the first still fits within the length.
    let pools = vec![
        vec![Pattern::new(1, 12, (0..8).chain([10]).chain(24..32))],
        vec![
            Pattern::new(4, 12, [0, 2, 3]),
            Pattern::new(5, 12, [0, 1, 3]),
        ],
    ];
    let shortened = packed_from(&pools, short, None, &stop).unwrap().0;
    assert_eq!(
        (
            shortened.entries[0][1].magic,
            shortened.entries[0][1].offset
        ),
        (5, 8)
    );
    // On random pools with a run offered beside each comb, after annealing: no longer
    // table (refitting may shorten it), no longer spans, no slot shared.
    for seed in [11, 12, 13] {
        let mut pools = random_pools(seed);
        for pool in &mut pools {
            let used = pool[0].used as u32;
            pool.push(Pattern::new(7, 12, 0..used));
        }
        let plain = packed_from(&pools, packing(300, false), None, &stop)
            .unwrap()
            .0;
        let short = PackSettings {
            short_spans: true,
            ..packing(300, false)
        };
        let shortened = packed_from(&pools, short, None, &stop).unwrap().0;
        let spans = |set: &MagicSet| -> usize {
            (0..pools.len())
                .map(|i| member(&pools, set, i).extent())
                .sum()
        };
        assert!(table_len(&pools, &shortened) <= table_len(&pools, &plain));
        assert!(spans(&shortened) <= spans(&plain), "seed {seed}");
        assert_no_slot_shared(&pools, &shortened);
    }
}

#[test]
fn negative_offsets_let_a_range_start_before_the_table() {
    // Hashes from 100 up: with offsets from 0 the table has 100 empty slots first.
    let pools = vec![
        vec![Pattern::new(1, 12, [100, 101, 103])],
        vec![Pattern::new(2, 12, [200, 202])],
    ];
    let (choice, len) = pack_in_order(&pools, &[0, 1], false);
    assert_eq!((choice, len), (vec![(0, 100), (0, 200)], 203));
    let (choice, len) = pack_in_order(&pools, &[0, 1], true);
    // The second interleaves into the first's hole at 2: starts at 2, ends at 5.
    assert_eq!((choice, len), (vec![(0, 0), (0, 2)], 5));
    let set = packed(&pools, 0, true);
    assert_eq!(set.entries[0][0].offset, -100);
    assert_eq!(set.entries[0][1].offset, -198);
    let set = packed(&pools, 0, false);
    assert!(set.entries[0][..2].iter().all(|e| e.offset >= 0));
}
