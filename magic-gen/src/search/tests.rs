//! The search end to end: determinism across threads, shards and resumes, fallbacks.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::space::BLOCK_LEN;
use super::*;
use crate::geometry::Piece;
use crate::index::Variant;
use crate::set::MagicSet;

/// Returns the default options for `variant` with seed 7 on `threads` threads.
fn options(variant: Variant, threads: usize) -> Options {
    let mut o = Options::new(variant);
    o.scan.seed = 7;
    o.limits.threads = threads;
    o
}

/// Returns a fresh state for `o`, scanned within its limits.
fn scanned(o: &Options) -> SearchState {
    let mut state = new_state(o).unwrap();
    run(&mut state, &o.limits, &Progress::default(), None);
    state
}

#[test]
fn search_is_deterministic_across_thread_counts() {
    for variant in [Variant::Fancy, Variant::Black] {
        let mut one = options(variant, 1);
        one.scan.pool = 2;
        let mut two = one.clone();
        two.limits.threads = 2;
        let one = search(&one, &Progress::default()).unwrap();
        let two = search(&two, &Progress::default()).unwrap();
        assert_eq!(one.set, two.set, "{variant}");
        assert!(one.unmet.is_empty());
    }
}

#[test]
fn fancy_standard_bits_give_the_standard_table() {
    let out = search(&options(Variant::Fancy, 2), &Progress::default()).unwrap();
    assert_eq!(out.report.table_len, 107_648);
}

#[test]
fn plain_layout_is_one_array_per_square() {
    let out = search(&options(Variant::Plain, 2), &Progress::default()).unwrap();
    assert!(out.report.table_len <= 64 * 4096 + 64 * 512);
    assert_eq!(out.set.entry(Piece::Bishop, 1).offset, 64 * 4096 + 512);
}

#[test]
fn bits_are_rejected_for_plain_and_out_of_range() {
    let mut o = options(Variant::Plain, 1);
    o.bits = Some(11);
    assert!(search(&o, &Progress::default()).is_err());
    let mut o = options(Variant::Black, 1);
    o.bits = Some(13);
    let e = search(&o, &Progress::default()).unwrap_err();
    assert!(e.0.contains("rook a1"), "{e}");
    let mut o = options(Variant::Fancy, 1);
    o.targets = vec![(Piece::Bishop, 27)];
    o.bits = Some(10);
    let e = search(&o, &Progress::default()).unwrap_err();
    assert!(e.0.contains("bishop d4"), "{e}");
}

#[test]
fn climbing_finds_bishop_a1_one_bit_under() {
    let mut o = options(Variant::Fancy, 2);
    o.targets = vec![(Piece::Bishop, 0)];
    o.bits_under = Some(1);
    o.scan.budget = Budget::Candidates(4 * BLOCK_LEN);
    let out = search(&o, &Progress::default()).unwrap();
    assert!(out.unmet.is_empty());
    assert_eq!(out.set.entry(Piece::Bishop, 0).bits, 5);
    assert_eq!(out.report.table_len, 107_648 - 32);
}

/// Runs `options` as `shards` shards, merges their states and finishes: the set one run
/// over the same space gives.
fn sharded(options: &Options, shards: u32) -> MagicSet {
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
    finish(&merge(&states).unwrap(), &Limits::default())
        .unwrap()
        .set
}

#[test]
fn merged_shards_equal_one_run_over_the_same_space() {
    for (variant, bits_under, sparse) in [
        (Variant::Black, None, 0),
        (Variant::Black, None, 3),
        // White ranks sparse finds by blocked slots, which a state file does not hold.
        (Variant::White, None, 3),
        (Variant::Fancy, Some(1), 0),
        (Variant::Fancy, None, 0),
    ] {
        let mut o = options(variant, 2);
        o.scan.sparse = sparse;
        if bits_under.is_some() {
            // Bishops one bit under: some reached within the budget (a1, b1), some not
            // (d4 cannot be: Fiekas proved it).
            o.targets = [0, 1, 2, 27].map(|s| (Piece::Bishop, s)).to_vec();
        }
        o.scan.budget = Budget::Candidates(2 * BLOCK_LEN);
        o.scan.pool = 2;
        o.scan.patience = 20;
        o.bits_under = bits_under;
        let whole = sharded(&o, 1);
        if bits_under.is_some() {
            assert_eq!(whole.entry(Piece::Bishop, 0).bits, 5, "a1 is reached");
            assert_eq!(whole.entry(Piece::Bishop, 27).bits, 9, "d4 falls back");
        }
        for shards in [2, 3] {
            assert_eq!(
                sharded(&o, shards),
                whole,
                "{variant} sparse {sparse} in {shards} shards"
            );
        }
    }
}

#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let mut o = options(Variant::Black, 2);
    o.scan.budget = Budget::Candidates(3 * BLOCK_LEN);
    o.scan.pool = 2;
    o.scan.patience = 20;
    let whole = scanned(&o);
    // Stop after the first checkpoint, as a kill would, then resume from the saved text.
    let mut part = new_state(&o).unwrap();
    let progress = Progress::default();
    let mut saved = None;
    let mut save = |s: &SearchState| {
        if saved.is_none() {
            saved = Some(s.to_text());
            progress.stop.store(true, Ordering::Relaxed);
        }
    };
    run(
        &mut part,
        &o.limits,
        &progress,
        Some((Duration::ZERO, &mut save)),
    );
    let saved = saved.expect("a checkpoint was taken");
    let mut resumed = SearchState::parse("state", saved.as_bytes()).unwrap();
    run(&mut resumed, &o.limits, &Progress::default(), None);
    assert_eq!(
        finish(&resumed, &o.limits).unwrap().set,
        finish(&whole, &o.limits).unwrap().set
    );
    assert!(resumed.jobs.iter().all(|j| j.done));
}

#[test]
fn a_run_with_checkpoints_returns_when_its_jobs_are_done() {
    // Regression: the saver thread could miss its wake-up and sleep through a whole
    // checkpoint interval (an hour here) after the last job. A liveness check: a hang
    // fails after two minutes instead of blocking the suite.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for _ in 0..20 {
            let o = options(Variant::Plain, 1);
            let mut st = new_state(&o).unwrap();
            let mut save = |_: &SearchState| {};
            run(
                &mut st,
                &o.limits,
                &Progress::default(),
                Some((Duration::from_secs(3600), &mut save)),
            );
            assert!(st.jobs.iter().all(|j| j.done));
        }
        tx.send(()).unwrap();
    });
    rx.recv_timeout(Duration::from_secs(120))
        .expect("20 short runs return, not wait for a checkpoint");
}

#[test]
fn an_impossible_target_falls_back_when_the_budget_runs_out() {
    // 3 bits cannot index the 108 distinct attack sets of a bishop on d4.
    let mut o = options(Variant::Fancy, 1);
    o.targets = vec![(Piece::Bishop, 27)];
    o.bits = Some(3);
    o.scan.budget = Budget::Candidates(2 * BLOCK_LEN);
    let out = search(&o, &Progress::default()).unwrap();
    assert_eq!(out.unmet, vec![(Piece::Bishop, 27)]);
    assert_eq!(out.set.entry(Piece::Bishop, 27).bits, 9);
}

#[test]
fn a_time_limit_stops_an_unbounded_scan() {
    // The same impossible target with no candidate budget: only `limits.seconds` ends it.
    let mut o = options(Variant::Fancy, 1);
    o.targets = vec![(Piece::Bishop, 27)];
    o.bits = Some(3);
    o.limits.seconds = Some(0.0);
    let out = search(&o, &Progress::default()).unwrap();
    assert_eq!(out.unmet, vec![(Piece::Bishop, 27)]);
}

#[test]
fn a_truncated_state_says_how_many_jobs_are_missing() {
    let state = new_state(&options(Variant::Black, 1)).unwrap();
    let text = state.to_text();
    assert_eq!(
        SearchState::parse("s.state", text.as_bytes()).unwrap(),
        state
    );
    // Cut the file after the line of rook h8's job: the 64 bishop jobs are gone.
    let cut = text.find("job rook h8").unwrap();
    let cut = cut + text[cut..].find('\n').unwrap() + 1;
    let e = SearchState::parse("s.state", &text.as_bytes()[..cut]).unwrap_err();
    let message = e.to_string();
    assert!(message.starts_with("s.state: "), "{message}");
    assert!(
        message.contains("64 of the 128 jobs are missing (the first is bishop a1)"),
        "{message}"
    );
}

#[test]
fn black_sets_may_shift_per_square() {
    // The mask popcount on every square, as in the densest published black set.
    let mut o = options(Variant::Black, 2);
    o.scan.pool = 2;
    o.bits_under = Some(0);
    o.limits.negative_offsets = true;
    let out = search(&o, &Progress::default()).unwrap();
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = out.set.entry(piece, sq);
            assert_eq!(
                e.bits,
                crate::geometry::relevant_bits(piece, sq),
                "{piece} {sq}"
            );
        }
    }
    // Ranges of 2^popcount add up to 107,648: packed, the table is shorter.
    assert!(out.report.table_len < 107_648, "{}", out.report.table_len);
    let without = {
        o.limits.negative_offsets = false;
        search(&o, &Progress::default()).unwrap()
    };
    assert!(without.set.entries.iter().flatten().all(|e| e.offset >= 0));
    // Letting ranges start before the table never makes it longer.
    assert!(out.report.table_len <= without.report.table_len);
}

#[test]
fn a_per_square_shift_may_also_take_the_fixed_shift() {
    let mut o = options(Variant::Black, 2);
    o.scan.pool = 2;
    o.scan.budget = Budget::Candidates(2 * BLOCK_LEN);
    o.bits_under = Some(0);
    o.also_fixed_shift = true;
    o.limits.negative_offsets = true;
    let mut state = new_state(&o).unwrap();
    // A second job wherever the popcount is below 12/9: all but the four rook corners and
    // the four bishop centre squares.
    assert_eq!(state.jobs.len(), 248);
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let bits: Vec<u8> = state
                .jobs
                .iter()
                .filter(|j| (j.piece, j.square) == (piece, sq))
                .map(|j| j.bits)
                .collect();
            let (popcount, fixed) = (
                crate::geometry::relevant_bits(piece, sq),
                Variant::Black.default_bits(piece, sq),
            );
            let want = if popcount == fixed {
                vec![fixed]
            } else {
                vec![popcount, fixed]
            };
            assert_eq!(bits, want, "{piece} {sq}");
        }
    }
    run(&mut state, &o.limits, &Progress::default(), None);
    // Both jobs of a square survive the state file, each with its own finds.
    let text = state.to_text();
    assert_eq!(
        SearchState::parse("s.state", text.as_bytes()).unwrap(),
        state
    );
    let out = finish(&state, &o.limits).unwrap();
    // Each square packs a find of one of its jobs, with that job's bits.
    let mut fixed = 0;
    for (i, e) in out.set.entries.iter().flatten().enumerate() {
        let (piece, sq) = (Piece::ALL[i / 64], (i % 64) as u8);
        let job = state
            .jobs
            .iter()
            .find(|j| (j.piece, j.square, j.bits) == (piece, sq, e.bits))
            .unwrap_or_else(|| panic!("{piece} {sq}: {} bits, no such job", e.bits));
        // (A job that found nothing in its budget packs the first magic of its space.)
        assert!(
            job.found.is_empty() || job.found.iter().any(|f| f.magic == e.magic),
            "{piece} {sq}: {:#x} not among its finds",
            e.magic
        );
        fixed += usize::from(e.bits != crate::geometry::relevant_bits(piece, sq));
    }
    // The packer takes the fixed shift where it packs denser: here on some squares.
    assert!(fixed > 0);
}

#[test]
fn a_state_refuses_a_job_twice_and_a_second_shift_where_nothing_is_packed() {
    for (variant, second, what) in [
        (
            Variant::Black,
            "job rook a1 12 next 0 done 1",
            "duplicate job rook a1",
        ),
        (
            Variant::Fancy,
            "job rook a1 11 next 0 done 1",
            "duplicate job rook a1",
        ),
    ] {
        let state = new_state(&options(variant, 1)).unwrap();
        let text = state.to_text();
        let first = text.lines().position(|l| l.starts_with("job ")).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(first + 1, second);
        let e = SearchState::parse("s.state", lines.join("\n").as_bytes()).unwrap_err();
        let message = e.to_string();
        assert!(
            message.contains(&format!("s.state:{}", first + 2)),
            "{message}"
        );
        assert!(message.contains(what), "{message}");
    }
    let mut o = options(Variant::Fancy, 1);
    o.bits_under = Some(0);
    o.also_fixed_shift = true;
    let e = new_state(&o).unwrap_err();
    assert!(
        e.0.contains("--also-fixed-shift is for black and white"),
        "{e}"
    );
}

#[test]
fn a_raised_budget_equals_one_run_with_it() {
    for variant in [Variant::Black, Variant::Fancy] {
        let mut o = options(variant, 2);
        o.scan.pool = 2;
        o.scan.patience = 20;
        if variant == Variant::Fancy {
            o.targets = [0, 1, 2, 27].map(|s| (Piece::Bishop, s)).to_vec();
            o.bits_under = Some(1);
        }
        o.scan.budget = Budget::Candidates(2 * BLOCK_LEN);
        let whole = scanned(&o);
        o.scan.budget = Budget::Candidates(BLOCK_LEN);
        let mut part = scanned(&o);
        assert!(part.jobs.iter().all(|j| j.done));
        part.raise_budget(2 * BLOCK_LEN).unwrap();
        assert!(part.jobs.iter().any(|j| !j.done), "{variant}: jobs reopen");
        run(&mut part, &o.limits, &Progress::default(), None);
        assert_eq!(part, whole, "{variant}");
    }
}

#[test]
fn only_a_whole_block_budget_can_be_raised() {
    let mut o = options(Variant::Black, 1);
    let mut st = new_state(&o).unwrap();
    assert!(st
        .raise_budget(BLOCK_LEN)
        .unwrap_err()
        .contains("until found"));
    o.scan.budget = Budget::Candidates(BLOCK_LEN + 1);
    let mut st = new_state(&o).unwrap();
    assert!(st.raise_budget(BLOCK_LEN).unwrap_err().contains("below"));
    assert!(st
        .raise_budget(4 * BLOCK_LEN)
        .unwrap_err()
        .contains("inside a block"));
}

#[test]
fn a_packing_resumed_from_its_state_file_ends_as_an_uninterrupted_one() {
    let mut o = options(Variant::Black, 2);
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    o.scan.pool = 2;
    o.scan.patience = 20;
    o.limits.pack_iterations = 40;
    let state = scanned(&o);
    let whole = finish(&state, &o.limits).unwrap();
    // Every move's checkpoint, saved with the state as the command line does.
    let mut saved = Vec::new();
    let mut save = |c: &PackCheckpoint| saved.push(state.to_text_with(Some(c)));
    let mut hooks = PackHooks {
        checkpoint: Some((Duration::ZERO, &mut save)),
        ..PackHooks::default()
    };
    let end = finish_with(&state, &o.limits, None, &mut hooks).unwrap();
    assert_eq!(end.set, whole.set);
    assert_eq!(saved.len(), 40);
    for k in [1, 13, 39, 40] {
        let text = &saved[k - 1];
        assert!(text.starts_with("magic-gen-state 2\n"));
        let (read, pack) = SearchState::parse_with_pack("s.state", text.as_bytes()).unwrap();
        assert_eq!(read, state);
        assert_eq!(
            SearchState::parse("s.state", text.as_bytes()).unwrap(),
            state
        );
        let pack = pack.expect("the pack checkpoint");
        assert_eq!(pack.moves, k as u64);
        let mut hooks = PackHooks::default();
        let resumed = finish_with(&read, &o.limits, Some(&pack), &mut hooks).unwrap();
        assert_eq!(resumed.set, whole.set, "resumed at move {k}");
        assert_eq!(resumed.pack, whole.pack, "resumed at move {k}");
    }
    // Another move count is refused, naming the checkpoint's line.
    let (read, pack) = SearchState::parse_with_pack("s.state", saved[9].as_bytes()).unwrap();
    let mut more = o.limits;
    more.pack_iterations = 41;
    let e = finish_with(&read, &more, pack.as_ref(), &mut PackHooks::default()).unwrap_err();
    let FinishError::Checkpoint(m) = e else {
        panic!("{e}")
    };
    let pack_line = saved[9]
        .lines()
        .position(|l| l.starts_with("pack "))
        .unwrap()
        + 1;
    assert_eq!(line_of(saved[9].as_bytes(), &m.line), Some(pack_line));
    assert!(m.message.contains("give --pack-iterations 40"), "{m}");
}

#[test]
fn state_versions_say_whether_a_pack_checkpoint_ends_the_file() {
    let mut o = options(Variant::Black, 1);
    o.scan.pool = 1;
    o.limits.pack_iterations = 3;
    let state = scanned(&o);
    let end = finish(&state, &o.limits).unwrap().pack.unwrap();
    let plain = state.to_text();
    let with = state.to_text_with(Some(&end));
    assert!(plain.starts_with("magic-gen-state 1\n"));
    assert_eq!(
        with,
        plain.replacen("state 1", "state 2", 1) + &with[plain.len()..]
    );
    // Version 1 with pack lines, version 2 without them: refused.
    let e = SearchState::parse("s.state", with.replacen("state 2", "state 1", 1).as_bytes());
    let e = e.unwrap_err().to_string();
    let pack_line = with.lines().position(|l| l.starts_with("pack ")).unwrap() + 1;
    let expected = format!("s.state:{pack_line}: a pack checkpoint needs 'magic-gen-state 2'");
    assert!(e.starts_with(&expected), "{e}");
    let e = SearchState::parse(
        "s.state",
        plain.replacen("state 1", "state 2", 1).as_bytes(),
    );
    let e = e.unwrap_err().to_string();
    assert!(
        e.contains("'pack' line is missing: a truncated file?"),
        "{e}"
    );
    let e = SearchState::parse("s.state", end.to_file_text().as_bytes());
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("this is a pack checkpoint"));
}

/// Returns the options and the scan of one block of candidates per square of `variant`,
/// pools of 4 and 2 sparse finds, two threads, no climbs.
fn small_pools(variant: Variant) -> (Options, SearchState) {
    let mut o = options(variant, 2);
    o.scan.pool = 4;
    o.scan.sparse = 2;
    o.scan.patience = 0;
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    let state = scanned(&o);
    (o, state)
}

#[test]
fn polishing_lowers_pool_costs_the_same_way_on_any_thread_count() {
    use super::state::pack_cost;
    use super::table::{EpochTable, SquareData};
    let (o, state) = small_pools(Variant::Black);
    assert!(
        state.jobs.iter().any(|j| j.found.len() > 4),
        "no sparse finds"
    );
    let cost = |job: &Job, magic: u64| {
        let data = SquareData::new(job.piece, job.square, true);
        let mut table = EpochTable::new(job.bits);
        let (used, span) = table.measure(&data.entries(), magic, job.bits).unwrap();
        pack_cost(used, span)
    };
    let mut limits = o.limits;
    limits.polish = 200;
    let polished = super::assemble::polished(&state, &limits);
    let (mut before, mut after) = (0u64, 0u64);
    for (job, magics) in state.jobs.iter().zip(&polished) {
        if job.found.is_empty() {
            // Nothing found in the budget: nothing to climb (the packer falls back).
            assert!(magics.is_empty());
            continue;
        }
        // Every polished magic is valid (measure panics otherwise), no member got dearer,
        // and duplicates are gone.
        let best_before = job.found.iter().map(|f| cost(job, f.magic)).min().unwrap();
        let best_after = magics.iter().map(|&m| cost(job, m)).min().unwrap();
        assert!(best_after <= best_before, "{} {}", job.piece, job.square);
        assert!(!magics.is_empty() && magics.len() <= job.found.len());
        let mut unique = magics.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), magics.len());
        // Sparse finds are kept as scanned.
        for f in job.found.iter().skip(4) {
            assert!(magics.contains(&f.magic), "{} {}", job.piece, job.square);
        }
        before += u64::from(best_before);
        after += u64::from(best_after);
    }
    assert!(
        after < before,
        "polishing changed nothing: {after} {before}"
    );
    limits.threads = 1;
    assert_eq!(super::assemble::polished(&state, &limits), polished);
    limits.polish = 0;
    let unpolished = super::assemble::polished(&state, &limits);
    for (job, magics) in state.jobs.iter().zip(unpolished) {
        assert_eq!(
            magics,
            job.found.iter().map(|f| f.magic).collect::<Vec<_>>()
        );
    }
}

#[test]
fn clumping_adds_white_members_that_block_fewer_slots_on_any_thread_count() {
    use super::table::white_blocked_slots;
    let (o, state) = small_pools(Variant::White);
    let mut limits = o.limits;
    limits.clump = 2000;
    let clumped = super::assemble::polished(&state, &limits);
    let blocked = |job: &Job, m: u64| white_blocked_slots(job.piece, job.square, m, job.bits);
    let (mut before, mut after, mut added) = (0u64, 0u64, 0);
    for (job, magics) in state.jobs.iter().zip(&clumped) {
        // The finds first, as scanned (no polish); then the clumped ones, each valid and
        // blocking fewer slots than the finds block at most.
        let found: Vec<u64> = job.found.iter().map(|f| f.magic).collect();
        assert_eq!(magics[..found.len()], found[..]);
        let own: Vec<u32> = found.iter().map(|&m| blocked(job, m).unwrap()).collect();
        for &m in &magics[found.len()..] {
            let b = blocked(job, m).expect("a clumped member is a magic");
            assert!(
                b < *own.iter().max().unwrap(),
                "{} {}",
                job.piece,
                job.square
            );
            assert!(!found.contains(&m));
            added += 1;
        }
        if let Some(&least) = own.iter().min() {
            before += u64::from(least);
            after += u64::from(
                magics
                    .iter()
                    .map(|&m| blocked(job, m).unwrap())
                    .min()
                    .unwrap(),
            );
        }
    }
    assert!(
        added > 0 && after < before,
        "{added} added, {before} -> {after}"
    );
    limits.threads = 1;
    assert_eq!(super::assemble::polished(&state, &limits), clumped);
    // Black keys are not clumped: the option leaves their pools as scanned.
    let mut o = options(Variant::Black, 2);
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    o.scan.patience = 0;
    let state = scanned(&o);
    let as_scanned = super::assemble::polished(&state, &o.limits);
    assert_eq!(super::assemble::polished(&state, &limits), as_scanned);
}

#[test]
fn pools_keep_the_best_by_pack_cost_then_the_sparsest_of_the_rest_in_any_order() {
    use super::state::{pack_cost, sparse_cost};
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    // Few distinct costs, so ties are common and the index must break them.
    let finds: Vec<Found> = (0..300)
        .map(|index| Found {
            index,
            magic: index,
            used: 500 + (rng.next_u64() % 40) as u32 * 8,
            span: 900 + (rng.next_u64() % 60) as u32 * 50,
            blocked: 0,
        })
        .collect();
    let mut scan = options(Variant::Black, 1).scan;
    scan.budget = Budget::Candidates(1 << 20);
    let job = || Job {
        piece: Piece::Rook,
        square: 0,
        bits: 12,
        next: 0,
        found: Vec::new(),
        done: false,
    };
    for (pool, sparse) in [(8, 0), (8, 5), (1, 12), (400, 3)] {
        (scan.pool, scan.sparse) = (pool, sparse);
        // What is kept, by the definition: the pool, then the sparsest of the rest.
        let mut all = finds.clone();
        all.sort_by_key(|f| (pack_cost(f.used, f.span), f.span, f.index));
        let mut rest = all.split_off(pool.min(all.len()));
        rest.sort_by_key(|f| (sparse_cost(f.used, f.span), f.index));
        rest.truncate(sparse);
        all.extend(rest);
        assert_eq!(all.len(), (pool + sparse).min(finds.len()));
        for order in 0..4 {
            let mut shuffled = finds.clone();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
            }
            if order == 0 {
                shuffled.reverse();
            }
            let mut j = job();
            for &f in &shuffled {
                scan.insert(&mut j, f);
            }
            assert_eq!(j.found, all, "pool {pool} sparse {sparse}, order {order}");
        }
    }
}

#[test]
fn a_sparse_pool_is_saved_on_the_pool_line_and_read_back() {
    let mut o = options(Variant::Black, 1);
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    o.scan.pool = 2;
    o.scan.sparse = 3;
    o.scan.patience = 0;
    let state = scanned(&o);
    let text = state.to_text();
    assert!(text.contains("\npool 2 sparse 3\n"), "{text}");
    assert!(state.jobs.iter().any(|j| j.found.len() == 5));
    assert_eq!(
        SearchState::parse("s.state", text.as_bytes()).unwrap(),
        state
    );
    // Without sparse finds the line is as it always was.
    o.scan.sparse = 0;
    assert!(new_state(&o)
        .unwrap()
        .to_text()
        .contains("\npool 2\npatience"));
    for bad in ["pool 2 sparse", "pool 2 sparse x", "pool 2 dense 3"] {
        let e = SearchState::parse("s.state", text.replace("pool 2 sparse 3", bad).as_bytes());
        let e = e.unwrap_err().to_string();
        assert!(e.starts_with("s.state:6: bad pool size"), "{e}");
    }
}
