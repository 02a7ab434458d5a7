use rand_xoshiro::rand_core::SeedableRng;

use std::sync::atomic::AtomicBool;

use super::*;
use crate::geometry::{Piece, SetSquare};
use crate::index::Variant;
use crate::occupancy::SquareData;
use crate::search::candidates::{sparse_candidate, Stream, BLOCK_LEN};

/// Returns an environment variable's number, or `default`: the experiment's knobs.
fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Returns a word of few bit transitions drawn from `rng`: runs of ones and zeros cut at
/// 1 to 8 random places, then a sparse word flipped in (EVOLVE_FAMILY=1).
fn runs_candidate(rng: &mut Xoshiro256PlusPlus) -> u64 {
    let r = rng.next_u64();
    let cuts = 1 + r % 8;
    let mut word = 0u64;
    for k in 0..cuts {
        let at = (r >> (3 + 6 * k)) & 63;
        word ^= u64::MAX << at;
    }
    word ^ sparse_candidate(rng)
}

/// Returns the valid magics among the first `blocks` blocks of the black stream of seed 1
/// on `piece` `sq` at `bits`, with the square's entries and a table.
fn scanned(piece: Piece, sq: u8, bits: u8, blocks: u64) -> (Vec<u64>, Vec<(u64, u8)>, EpochTable) {
    let data = SquareData::new(piece, sq, Variant::Black);
    let mut entries = data.entries();
    let mut table = EpochTable::new(bits);
    let stream = Stream {
        seed: 1,
        variant: Variant::Black,
        piece,
        square: sq,
        bits,
    };
    let finds = (0..blocks)
        .flat_map(|b| stream.magics(b))
        .filter(|&m| table.accepts(&mut entries, m, bits))
        .collect();
    (finds, data.entries(), table)
}

#[test]
fn a_front_keeps_the_magics_no_other_beats_on_both_counts() {
    let mut front = Front::default();
    let offer = |front: &mut Front, magic: u64, used: u32, span: u32| {
        front.offer(Member {
            magic,
            measure: (used, span),
        });
    };
    offer(&mut front, 1, 100, 300);
    offer(&mut front, 2, 120, 200);
    offer(&mut front, 3, 120, 250); // beaten by 2
    offer(&mut front, 4, 100, 300); // equal to 1: the first met stays
    offer(&mut front, 5, 90, 400);
    offer(&mut front, 6, 110, 150); // beats 2
    let kept: Vec<(u64, (u32, u32))> = front
        .members()
        .iter()
        .map(|m| (m.magic, m.measure))
        .collect();
    assert_eq!(kept, [(5, (90, 400)), (1, (100, 300)), (6, (110, 150))]);
}

#[test]
fn a_used_slot_costs_its_members_weight_in_quarters_of_a_slot_of_span() {
    let settings = EvolveSettings {
        evaluations: 0,
        used_weights: &[3, 8],
        carry_moves: false,
        crossover_every: 0,
    };
    // By hand: 3 × 10 + 4 × 20, 8 × 10 + 4 × 20, and member 2 takes the first weight again.
    assert_eq!(settings.cost(0, (10, 20)), 110);
    assert_eq!(settings.cost(1, (10, 20)), 160);
    assert_eq!(settings.cost(2, (10, 20)), 110);
    assert_eq!(settings.cost(5, (7, 0)), 56);
    // 12 × (2^32 - 1): the cost does not wrap at u32.
    assert_eq!(settings.cost(1, (u32::MAX, u32::MAX)), 51_539_607_540);
    // Whatever the weight, four used slots more cost what `weight` slots of span more do.
    let pool = EvolveSettings {
        used_weights: POOL_WEIGHTS,
        ..settings
    };
    for (member, &weight) in POOL_WEIGHTS.iter().enumerate() {
        let (used, span) = (300, 700);
        let base = pool.cost(member, (used, span));
        assert!(base > 0, "{member}");
        assert_eq!(
            pool.cost(member, (used + 4, span)),
            pool.cost(member, (used, span + weight)),
            "{member}"
        );
        assert!(pool.cost(member, (used + 1, span)) > base, "{member}");
        assert!(pool.cost(member, (used, span + 1)) > base, "{member}");
    }
}

/// Returns the `r` of [`mutate`] for a move other than a flip: `kind` (0 add, 1 subtract,
/// 2 or 3 redraw), at `place`, redrawing to `byte`, with bits above the move's set to show
/// that they do not count.
fn carry_move(kind: u64, place: u64, byte: u64) -> u64 {
    0xdead_beef << 20 | byte << 9 | place << 3 | kind << 1 | 1
}

#[test]
fn a_carry_move_turns_a_run_over_and_a_redraw_changes_one_byte() {
    // A run of ones at bits 4 to 11: adding 2^4 carries through it into bit 12.
    assert_eq!(mutate(0x0ff0, carry_move(0, 4, 0), true), 0x1000);
    // Subtracting 2^4 borrows back through the zeros.
    assert_eq!(mutate(0x1000, carry_move(1, 4, 0), true), 0x0ff0);
    // Both wrap at 64 bits.
    assert_eq!(mutate(1 << 63, carry_move(0, 63, 0), true), 0);
    assert_eq!(mutate(0, carry_move(1, 0, 0), true), u64::MAX);
    // Place 13 is byte 5 (bits 40 to 47), redrawn to 0xab; the others stay.
    let magic = 0x0123_4567_89ab_cdef;
    for kind in [2, 3] {
        assert_eq!(
            mutate(magic, carry_move(kind, 13, 0xab), true),
            0x0123_ab67_89ab_cdef
        );
    }
    // Byte 0 (place 8) redrawn to 0x5a.
    assert_eq!(
        mutate(magic, carry_move(2, 8, 0x5a), true),
        0x0123_4567_89ab_cd5a
    );
}

#[test]
fn a_move_without_carry_or_with_an_even_draw_flips_one_to_three_bits() {
    let magic = 0x0123_4567_89ab_cdef;
    // Bit 0 set, yet without carry moves it is a flip: of bit 5 ((11 >> 1) & 63), alone
    // since bits 6 to 8 of 5 are 0. With them, 11 subtracts 2^1.
    assert_eq!(mutate(magic, 11, false), magic ^ 1 << 5);
    assert_eq!(mutate(magic, 11, true), magic - 2);
    // An even draw flips with carry moves too: 10 >> 1 = 5 again.
    assert_eq!(mutate(magic, 10, true), magic ^ 1 << 5);
    // Over many draws: at most three bits flipped (two flips of one bit undo each other,
    // one time in 64), and every bit flipped alone by some.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let (mut alone, mut undone) = (0u64, 0);
    for _ in 0..4096 {
        let r = rng.next_u64();
        for (m, carry) in [
            (mutate(magic, r, false), false),
            (mutate(magic, r & !1, true), true),
        ] {
            let flipped = m ^ magic;
            assert!(flipped.count_ones() <= 3, "{r:#x} {carry}");
            match flipped.count_ones() {
                0 => undone += 1,
                1 => alone |= flipped,
                _ => {}
            }
        }
    }
    assert!(undone < 2 * 4096 / 32, "{undone}");
    assert_eq!(alone, u64::MAX);
}

#[test]
fn children_come_of_every_pair_by_cut_or_by_coin_for_every_place() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let population: Vec<Member> = (0..8)
        .map(|_| Member {
            magic: rng.next_u64(),
            measure: (0, 0),
        })
        .collect();
    let magics: Vec<u64> = population.iter().map(|m| m.magic).collect();
    // The ordered pair of different members and the cut a child is, found by trying each;
    // a child of random parents by coin is almost never one.
    let cut_of = |child: u64| {
        (0..8)
            .flat_map(|i| (0..8).map(move |j| (i, j)))
            .find_map(|(i, j)| {
                let cut = (1..64).find(|&cut| {
                    let high = u64::MAX << cut;
                    i != j && child == (magics[i] & !high) | (magics[j] & high)
                })?;
                Some((i, j, cut))
            })
    };
    let (mut pairs, mut places) = (vec![false; 64], [false; 8]);
    let (mut by_cut, mut crossed) = (0, 0);
    for _ in 0..4096 {
        let (place, child) = super::child(&population, rng.next_u64(), rng.next_u64());
        places[place] = true;
        // A member's child of itself is that member again.
        if magics.contains(&child) {
            continue;
        }
        crossed += 1;
        if let Some((i, j, cut)) = cut_of(child) {
            by_cut += 1;
            // Far from both ends, the cut tells the parents apart beyond doubt.
            if (8..56).contains(&cut) {
                pairs[i * 8 + j] = true;
            }
        }
    }
    assert!(places.iter().all(|&p| p));
    // Half the children of different members by a cut, half by coin.
    assert!(
        (crossed * 3 / 8..crossed * 5 / 8).contains(&by_cut),
        "{by_cut} of {crossed}"
    );
    for i in 0..8 {
        for j in 0..8 {
            assert_eq!(pairs[i * 8 + j], i != j, "{i} {j}");
        }
    }
}

#[test]
fn a_front_holds_exactly_the_offers_no_other_beats_first_met_among_equals() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for round in 0..200 {
        // Few distinct figures, so that equals and ties on one count are common.
        let offers: Vec<Member> = (0..1 + round % 40)
            .map(|magic| {
                let r = rng.next_u64();
                let measure = ((r % 12) as u32, ((r >> 8) % 12) as u32);
                Member { magic, measure }
            })
            .collect();
        let mut front = Front::default();
        for &m in &offers {
            front.offer(m);
        }
        // By brute force: an offer stays unless another is as good on both counts and
        // better on one, or the same on both and offered before it.
        let beats = |q: &Member, p: &Member| {
            let (qu, qs) = q.measure;
            let (pu, ps) = p.measure;
            qu <= pu && qs <= ps && (q.measure != p.measure || q.magic < p.magic)
        };
        let mut expected: Vec<Member> = offers
            .iter()
            .filter(|p| !offers.iter().any(|q| beats(q, p)))
            .copied()
            .collect();
        expected.sort_by_key(|m| m.measure.0);
        assert_eq!(front.members(), expected, "round {round}");
    }
}

#[test]
fn a_pool_takes_at_most_eight_members_of_the_front_evenly_from_both_ends() {
    for len in 0..40u64 {
        let members: Vec<Member> = (0..len)
            .map(|magic| Member {
                magic,
                measure: (0, 0),
            })
            .collect();
        let kept = spread(&members);
        if len <= 8 {
            assert_eq!(kept, (0..len).collect::<Vec<_>>(), "{len}");
            continue;
        }
        assert_eq!(kept.len(), 8, "{len}");
        assert_eq!((kept[0], kept[7]), (0, len - 1), "{len}");
        // Even: the gaps between neighbours differ by at most one, and none is empty.
        let gaps: Vec<u64> = kept.windows(2).map(|w| w[1] - w[0]).collect();
        let (least, most) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
        assert!(*least >= 1 && most - least <= 1, "{len}: {kept:?}");
    }
}

#[test]
fn an_evolution_is_deterministic_and_its_front_holds_valid_magics_as_measured() {
    let bits = 9;
    let (finds, entries, mut table) = scanned(Piece::Bishop, 18, bits, 2);
    assert!(finds.len() >= 8, "{} finds", finds.len());
    let settings = EvolveSettings {
        evaluations: 3000,
        used_weights: POOL_WEIGHTS,
        carry_moves: true,
        crossover_every: 5,
    };
    let run = |table: &mut EpochTable| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        evolve(
            &entries,
            bits,
            &finds[..8],
            &mut rng,
            table,
            &settings,
            None,
        )
    };
    let (population, front) = run(&mut table);
    assert_eq!((population.clone(), front.clone()), run(&mut table));
    assert_eq!(population.len(), 8);
    let seeds_best = finds[..8]
        .iter()
        .map(|&m| table.measure(&entries, m, bits).unwrap().0)
        .min()
        .unwrap();
    let members = front.members();
    assert!(members[0].measure.0 <= seeds_best);
    for (k, m) in members.iter().chain(&population).enumerate() {
        assert_eq!(
            table.measure(&entries, m.magic, bits),
            Some(m.measure),
            "{k}"
        );
    }
    for pair in members.windows(2) {
        // Fewer used slots first, and then a shorter span: neither beats the other.
        assert!(pair[0].measure.0 < pair[1].measure.0 && pair[0].measure.1 > pair[1].measure.1);
    }
    // A stop set before it starts ends it at its first look, after the evaluations
    // before it.
    let stop = AtomicBool::new(true);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let stopped = evolve(
        &entries,
        bits,
        &finds[..8],
        &mut rng,
        &mut table,
        &settings,
        Some(&stop),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let before = EvolveSettings {
        evaluations: STOP_CHECK_EVERY - 1,
        ..settings
    };
    let unstopped = evolve(
        &entries,
        bits,
        &finds[..8],
        &mut rng,
        &mut table,
        &before,
        None,
    );
    assert_eq!(stopped, unstopped);
    assert_ne!(stopped.0, population);
}

#[test]
fn every_member_climbs_in_turn_and_children_take_several_places() {
    let bits = 9;
    let (finds, entries, mut table) = scanned(Piece::Bishop, 18, bits, 2);
    let seeds = &finds[..8];
    let run = |table: &mut EpochTable, seeds: &[u64], crossover_every: u32| {
        let settings = EvolveSettings {
            evaluations: 2000,
            used_weights: POOL_WEIGHTS,
            carry_moves: true,
            crossover_every,
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        evolve(&entries, bits, seeds, &mut rng, table, &settings, None)
    };
    // Moves alone, round-robin: 250 tries each, and every member moves off its seed.
    let (population, _) = run(&mut table, seeds, 0);
    for (k, (m, &seed)) in population.iter().zip(seeds).enumerate() {
        assert_ne!(m.magic, seed, "member {k} never moved");
    }
    // Children alone (every evaluation): they take more than one member's place, and
    // with no move a bit every seed has stays and one none has never appears.
    let (population, _) = run(&mut table, seeds, 1);
    let all = seeds.iter().fold(u64::MAX, |all, s| all & s);
    let any = seeds.iter().fold(0, |any, s| any | s);
    for m in &population {
        assert_eq!((m.magic & all, m.magic & !any), (all, 0), "{:#x}", m.magic);
    }
    let replaced = population
        .iter()
        .zip(seeds)
        .filter(|(m, &seed)| m.magic != seed)
        .count();
    assert!(replaced >= 2, "{replaced}");
    // Two members have no third for a child to replace: every evaluation is a move.
    assert_eq!(
        run(&mut table, &seeds[..2], 1),
        run(&mut table, &seeds[..2], 0)
    );
}

#[test]
fn a_child_takes_each_bit_from_a_parent_cut_or_by_coin() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let mut cuts = 0u64;
    for _ in 0..4096 {
        let (r, coin) = (rng.next_u64(), rng.next_u64());
        // From zeros below and ones above, the child shows its cut or its coin.
        let child = crossover(0, u64::MAX, r, coin);
        if r & 1 == 0 {
            let cut = child.trailing_zeros();
            assert!((1..64).contains(&cut), "{r:#x}");
            assert_eq!(child, u64::MAX << cut);
            cuts |= 1 << cut;
        } else {
            assert_eq!(child, coin);
        }
        // Any parents: a bit both have stays, one neither has does not appear.
        let (a, b) = (rng.next_u64(), rng.next_u64());
        let child = crossover(a, b, r, coin);
        assert_eq!(child & (a & b), a & b);
        assert_eq!(child & !(a | b), 0);
    }
    // Every cut from 1 to 63 is drawn, by the rest of the draw: 10 cuts at 1 + 5.
    assert_eq!(cuts, u64::MAX - 1);
    assert_eq!(crossover(0, u64::MAX, 10, 0), u64::MAX << 6);
}

#[test]
fn a_pool_evolves_below_the_512_slots_of_every_scanned_find_on_bishop_e4() {
    // Bishop e4: every find of a million candidates uses all 512 slots (issue 49); the
    // published magic uses 384.
    let bits = 9;
    let (finds, entries, mut table) = scanned(Piece::Bishop, 28, bits, 256);
    assert!(finds.len() >= 8, "{} finds", finds.len());
    assert!(finds
        .iter()
        .all(|&m| table.measure(&entries, m, bits) == Some((512, 512))));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let magics = evolve_pool(
        &entries,
        bits,
        &finds[..8],
        &mut rng,
        &mut table,
        Effort::unstopped(EVALUATIONS),
    );
    let fewest = magics
        .iter()
        .map(|&m| table.measure(&entries, m, bits).unwrap().0)
        .min()
        .unwrap();
    assert!(fewest < 512, "{fewest}");
    assert!(magics.len() <= FRONT_KEEP);
}

/// Evaluations of the test on bishop e4.
const EVALUATIONS: u64 = 200_000;

/// The experiment of docs/results/magic-search.md: for every black square, scan
/// EVOLVE_N candidates of seed EVOLVE_SEED, seed a population with the EVOLVE_K cheapest
/// finds (by the method's cost), evolve it EVOLVE_E evaluations and print per square the
/// fewest used slots of the scan and of the population at the end, with its span.
#[test]
#[ignore = "an experiment: minutes of CPU; prints per-square figures"]
fn experiment() {
    let n = knob("EVOLVE_N", 1 << 20);
    let seed = knob("EVOLVE_SEED", 1);
    let k = knob("EVOLVE_K", 8) as usize;
    let family = knob("EVOLVE_FAMILY", 0);
    let only = knob("EVOLVE_ONLY", 128) as usize;
    let settings = EvolveSettings {
        evaluations: knob("EVOLVE_E", 100_000),
        used_weights: Box::leak(
            std::env::var("EVOLVE_W")
                .unwrap_or_else(|_| "2".into())
                .split(',')
                .map(|w| w.parse().unwrap())
                .collect::<Vec<u32>>()
                .into_boxed_slice(),
        ),
        carry_moves: knob("EVOLVE_CARRY", 0) == 1,
        crossover_every: knob("EVOLVE_X", 0) as u32,
    };
    eprintln!("n {n} seed {seed} k {k} family {family} {settings:?}");
    for i in 0..128.min(only.max(1)) {
        let i = if only < 128 {
            knob("EVOLVE_FROM", 0) as usize + i
        } else {
            i
        };
        let SetSquare { piece, square: sq } = SetSquare::from_index(i);
        let bits = if piece == Piece::Rook { 12 } else { 9 };
        let data = SquareData::new(piece, sq, Variant::Black);
        let mut entries = data.entries();
        let mut table = EpochTable::new(bits);
        let stream = Stream {
            seed,
            variant: Variant::Black,
            piece,
            square: sq,
            bits,
        };
        let mut finds: Vec<Member> = Vec::new();
        for block in 0..n.div_ceil(BLOCK_LEN) {
            let mut rng = stream.block_rng(block | 1 << 62);
            let magics: Vec<u64> = match family {
                0 => stream.magics(block).collect(),
                1 => (0..BLOCK_LEN).map(|_| runs_candidate(&mut rng)).collect(),
                _ => stream
                    .magics(block)
                    .enumerate()
                    .map(|(j, m)| {
                        if j % 2 == 0 {
                            m
                        } else {
                            runs_candidate(&mut rng)
                        }
                    })
                    .collect(),
            };
            for magic in magics {
                if table.accepts(&mut entries, magic, bits) {
                    let measure = table.measure(&entries, magic, bits).unwrap();
                    finds.push(Member { magic, measure });
                }
            }
        }
        let mut scan_front = Front::default();
        for &m in &finds {
            scan_front.offer(m);
        }
        let seeds = seeds_for(&finds, k, &settings);
        let mut rng = stream.block_rng(u64::MAX);
        let (_, front) = evolve(
            &entries, bits, &seeds, &mut rng, &mut table, &settings, None,
        );
        let mut end_front = scan_front.clone();
        for &m in front.members() {
            end_front.offer(m);
        }
        let show = |f: &Front| {
            f.members()
                .iter()
                .map(|m| format!("{}:{}", m.measure.0, m.measure.1))
                .collect::<Vec<_>>()
                .join(",")
        };
        println!(
            "sq {piece} {} finds {} scan {} end {}",
            crate::geometry::square_name(sq),
            finds.len(),
            show(&scan_front),
            show(&end_front)
        );
    }
}

/// Returns `k` seeds from `finds`: for member `i` in turn the cheapest find by its weight
/// not taken yet.
fn seeds_for(finds: &[Member], k: usize, settings: &EvolveSettings) -> Vec<u64> {
    let mut seeds: Vec<u64> = Vec::new();
    for i in 0..k {
        if let Some(m) = finds
            .iter()
            .filter(|m| !seeds.contains(&m.magic))
            .min_by_key(|m| (settings.cost(i, m.measure), m.magic))
        {
            seeds.push(m.magic);
        }
    }
    seeds
}
