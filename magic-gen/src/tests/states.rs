//! Per-square shifts, raised budgets and state files with their pack checkpoints.

use super::*;
use crate::geometry::{Piece, SetSquare};
use crate::index::Variant;
use crate::io::line_of;
use crate::pack::{Mismatch, PackCheckpoint};
use crate::search::state::*;
use crate::search::*;
use crate::stages::Progress;

#[test]
fn a_key_is_found_at_the_first_line_it_starts() {
    let state = b"magic-gen-state 1\nvariant black\nseed 1\nseeds 2\n";
    assert_eq!(line_of(state, "seed"), Some(3));
    assert_eq!(line_of(state, "pool"), None);
}

#[test]
fn black_sets_may_shift_per_square() {
    // The mask popcount on every square, as in the densest published black set.
    let mut o = options(Variant::Black, 2);
    o.scan.pool = 2;
    o.bits_under = Some(0);
    o.limits.pack.negative_offsets = true;
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
        o.limits.pack.negative_offsets = false;
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
    o.limits.pack.negative_offsets = true;
    let mut state = SearchState::new(&o).unwrap();
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
    let out = finish(&state, &o.limits, &[], None).unwrap();
    // Each square packs a find of one of its jobs, with that job's bits.
    let mut fixed = 0;
    for (i, e) in out.set.entries.iter().flatten().enumerate() {
        let SetSquare { piece, square: sq } = SetSquare::from_index(i);
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
        let state = SearchState::new(&options(variant, 1)).unwrap();
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
    let e = SearchState::new(&o).unwrap_err();
    assert!(
        e.to_string()
            .contains("a second, fixed shift is for black and white"),
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
            o.targets = [0, 1, 2, 27].map(bishop).to_vec();
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
    use crate::search::RaiseError;
    let mut o = options(Variant::Black, 1);
    let mut st = SearchState::new(&o).unwrap();
    assert_eq!(st.raise_budget(BLOCK_LEN), Err(RaiseError::UntilFound));
    o.scan.budget = Budget::Candidates(BLOCK_LEN + 1);
    let mut st = SearchState::new(&o).unwrap();
    let budget = BLOCK_LEN + 1;
    assert_eq!(
        st.raise_budget(BLOCK_LEN),
        Err(RaiseError::Below {
            limit: BLOCK_LEN,
            budget
        })
    );
    assert_eq!(
        st.raise_budget(4 * BLOCK_LEN),
        Err(RaiseError::InsideABlock { budget })
    );
    // The same budget again is no raise, but no error: a rerun of the command that raised it.
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    let mut st = SearchState::new(&o).unwrap();
    let same = st.clone();
    st.raise_budget(BLOCK_LEN).unwrap();
    assert_eq!(st, same);
}

#[test]
fn a_packing_resumed_from_its_state_file_ends_as_an_uninterrupted_one() {
    let mut o = options(Variant::Black, 2);
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    o.scan.pool = 2;
    o.scan.patience = 20;
    o.limits.pack.iterations = 40;
    let state = scanned(&o);
    // The packing on one thread, which saves after every move.
    o.limits.threads = 1;
    let whole = finish(&state, &o.limits, &[], None).unwrap();
    // Every move's checkpoint, saved with the state as the command line does.
    let mut saved = Vec::new();
    let mut save = |c: &[PackCheckpoint]| saved.push(state.to_text_with(c));
    let end = finish(&state, &o.limits, &[], Some(&mut save)).unwrap();
    assert_eq!(end.set, whole.set);
    // One save a move, and the end's once more (saved at a packing's end whatever the
    // interval).
    assert_eq!(saved.len(), 41);
    assert_eq!(saved[39], saved[40]);
    for k in [1, 13, 39, 40] {
        let text = &saved[k - 1];
        assert!(text.starts_with("magic-gen-state 2\n"));
        let (read, pack) = SearchState::parse_with_pack("s.state", text.as_bytes()).unwrap();
        assert_eq!(read, state);
        assert_eq!(
            SearchState::parse("s.state", text.as_bytes()).unwrap(),
            state
        );
        assert_eq!(pack.len(), 1, "the pack checkpoint");
        assert_eq!(pack[0].moves, k as u64);
        let resumed = finish(&read, &o.limits, &pack, None).unwrap();
        assert_eq!(resumed.set, whole.set, "resumed at move {k}");
        assert_eq!(resumed.pack, whole.pack, "resumed at move {k}");
    }
    // Another move count is refused, naming the checkpoint's line.
    let (read, pack) = SearchState::parse_with_pack("s.state", saved[9].as_bytes()).unwrap();
    let mut more = o.limits;
    more.pack.iterations = 41;
    let e = finish(&read, &more, &pack, None).unwrap_err();
    let Error::Checkpoint {
        line,
        packing,
        mismatch,
    } = e
    else {
        panic!("{e}")
    };
    let pack_line = saved[9]
        .lines()
        .position(|l| l.starts_with("pack "))
        .unwrap()
        + 1;
    assert_eq!(line_of(saved[9].as_bytes(), &line), Some(pack_line));
    let differs = Mismatch::of("pack-iterations", false, o.limits.pack.iterations, 41);
    assert_eq!((packing, mismatch), (0, differs));
}

#[test]
fn state_versions_say_whether_a_pack_checkpoint_ends_the_file() {
    let mut o = options(Variant::Black, 1);
    o.scan.pool = 1;
    o.limits.pack.iterations = 3;
    let state = scanned(&o);
    let end = finish(&state, &o.limits, &[], None).unwrap().pack;
    let plain = state.to_text();
    let with = state.to_text_with(&end);
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
    let e = SearchState::parse("s.state", PackCheckpoint::file_text(&end).as_bytes());
    let e = e.unwrap_err();
    assert!(e.to_string().ends_with("this is a pack checkpoint"), "{e}");
    // The reader names no command: it says what the file is, the CLI what resumes it.
    assert_eq!(e.instead, Some(crate::io::HuntFile::PackCheckpoint));
}

#[test]
fn only_a_packing_stopped_between_its_first_and_last_move_is_saved_with_the_state() {
    let pools = crate::pack::test_support::random_pools(3);
    let go = std::sync::atomic::AtomicBool::new(false);
    let (set, every) = crate::pack::test_support::packed_from(
        &pools,
        crate::pack::test_support::packing(4, false),
        None,
        &go,
    )
    .unwrap();
    let read = crate::pack::test_support::published_set("published-black-87988.txt");
    let report = crate::verify::verify(&read).unwrap().report;
    let outcome = |pack: Vec<PackCheckpoint>| crate::hunt::Outcome {
        // Any report: the pools are made up and their set does not verify.
        report: report.clone(),
        set: set.clone(),
        unmet: Vec::new(),
        pack_moves: crate::pack::PackMoves::of(&pack),
        pack,
        stages: Vec::new(),
        greedy: false,
        save_failed: None,
        cut: None,
        packed_len: 0,
        kept_input: false,
        keeps: None,
        scan_budget: None,
    };
    // A run stopped before its first move returns the checkpoint it starts from.
    let halt = std::sync::atomic::AtomicBool::new(true);
    let settings = crate::pack::test_support::packing(4, false);
    let (_, at_zero) =
        crate::pack::test_support::packed_from(&pools, settings, None, &halt).unwrap();
    let every: Vec<PackCheckpoint> = at_zero.into_iter().chain(every).collect();
    let moves: Vec<u64> = every.iter().map(|c| c.moves).collect();
    assert_eq!(moves, [0, 1, 2, 3, 4]);
    for c in &every {
        let saved = outcome(vec![c.clone()]);
        let expected: &[PackCheckpoint] = if (1..4).contains(&c.moves) {
            std::slice::from_ref(c)
        } else {
            &[]
        };
        assert_eq!(saved.pack_to_save(), expected, "after {} moves", c.moves);
    }
    // Two packings count together: one finished and one not is a packing to go on with.
    let two = outcome(vec![every[4].clone(), every[1].clone()]);
    assert_eq!(two.pack_to_save().len(), 2);
    assert!(outcome(Vec::new()).pack_to_save().is_empty());
}

/// Returns the global blocks shard `shard` of `count` scans for one job under a budget of
/// `limit` candidates, and the budget its job counts as spent after each, as the scan
/// steps `next` until [`Scan::finished`].
fn blocks_scanned(limit: u64, shard: u32, count: u32) -> (Vec<u64>, Vec<u64>) {
    let mut scan = options(Variant::Black, 1).scan;
    scan.budget = Budget::Candidates(limit);
    scan.shard = Shard {
        index: shard,
        count,
    };
    let mut job = rook_a1_job();
    let (mut blocks, mut spent) = (Vec::new(), vec![scan.budget_spent(&job).unwrap()]);
    while !scan.finished(&job) && blocks.len() < 100 {
        blocks.push(scan.shard.block(job.next));
        job.next += 1;
        spent.push(scan.budget_spent(&job).unwrap());
    }
    assert_eq!(
        spent.last(),
        scan.budget_total().as_ref(),
        "all of the share spent"
    );
    (blocks, spent)
}

#[test]
fn shards_scan_exactly_the_blocks_under_the_budget_and_count_what_they_spent() {
    // Two and a half blocks, three, and less than one: the last block counts in part.
    for limit in [2 * BLOCK_LEN + BLOCK_LEN / 2, 3 * BLOCK_LEN, 100] {
        let global = limit.div_ceil(BLOCK_LEN);
        for count in 1..=4u32 {
            let mut all = Vec::new();
            let mut total = 0;
            for shard in 0..count {
                let (blocks, spent) = blocks_scanned(limit, shard, count);
                // Its own blocks below the budget's, in order, each counted in full but
                // the budget's last, which counts its part.
                let own: Vec<u64> = (0..global)
                    .filter(|b| b % u64::from(count) == u64::from(shard))
                    .collect();
                assert_eq!(blocks, own, "limit {limit}, shard {shard}/{count}");
                for (k, &b) in blocks.iter().enumerate() {
                    let size = (limit - b * BLOCK_LEN).min(BLOCK_LEN);
                    assert_eq!(spent[k + 1] - spent[k], size, "block {b}");
                }
                total += spent.last().unwrap();
                all.extend(blocks);
            }
            all.sort_unstable();
            assert_eq!(all, (0..global).collect::<Vec<u64>>());
            assert_eq!(total, limit, "the shares add up to the budget");
        }
    }
    // Time budgets and searches until found count nothing.
    let mut scan = options(Variant::Black, 1).scan;
    scan.budget = Budget::UntilFound;
    assert_eq!(scan.budget_total(), None);
    scan.budget = Budget::Candidates(u64::MAX);
    assert_eq!(scan.budget_total(), None);
}

#[test]
fn a_scan_until_found_ends_with_enough_finds_and_a_counted_packed_one_with_its_budget() {
    let job = |found: usize| Job {
        next: 1,
        found: vec![
            Found {
                index: 0,
                magic: 1,
                used: 1,
                span: 1,
                blocked: 0
            };
            found
        ],
        ..rook_a1_job()
    };
    let mut fancy = options(Variant::Fancy, 1).scan;
    assert!(!fancy.finished(&job(0)) && fancy.finished(&job(1)));
    // A counted budget ends fancy and plain at their find too, packed variants not.
    fancy.budget = Budget::Candidates(1 << 20);
    assert!(!fancy.finished(&job(0)) && fancy.finished(&job(1)));
    let mut black = options(Variant::Black, 1).scan;
    black.budget = Budget::Candidates(1 << 20);
    let keep = black.keep();
    assert!(!black.finished(&job(keep)) && !black.finished(&job(keep + 3)));
    black.budget = Budget::UntilFound;
    assert!(!black.finished(&job(keep - 1)) && black.finished(&job(keep)));
}

#[test]
fn a_state_counts_its_jobs_left_and_the_budget_its_jobs_used() {
    let mut o = options(Variant::Black, 1);
    let limit = 2 * BLOCK_LEN + 10;
    o.scan.budget = Budget::Candidates(limit);
    let mut state = SearchState::new(&o).unwrap();
    assert_eq!((state.job_count(), state.jobs_left()), (128, 128));
    assert_eq!(state.budget_used(), Some((0, 128 * limit)));
    // One job a block in, another done: its whole share counts.
    state.jobs[5].next = 1;
    state.jobs[7].done = true;
    assert_eq!(state.jobs_left(), 127);
    assert_eq!(state.budget_used(), Some((BLOCK_LEN + limit, 128 * limit)));
    o.scan.budget = Budget::UntilFound;
    assert_eq!(SearchState::new(&o).unwrap().budget_used(), None);
}

#[test]
fn a_resume_is_recorded_in_a_state_that_still_scans_only() {
    let options = Options::for_variant(Variant::Plain);
    let mut state = SearchState::new(&options).unwrap();
    let mut limits = options.limits;
    limits.pack.iterations = 7;
    let step = "magic-gen search --resume s.state";
    let history = state.resumed_by(step, &limits);
    assert_eq!(history, format!("{}; then {step}", options.command));
    // Still to scan: the step and how it finishes shape what the state keeps.
    assert_eq!(state.command, history);
    assert_eq!(state.pack.iterations, 7);
    let hunt = crate::hunt::Hunt::search(&mut state, &options.limits, crate::hunt::Wanted::Set);
    hunt.run(crate::hunt::Hooks::default()).unwrap();
    assert_eq!(state.jobs_left(), 0);
    // Finished: left as it was, so its file regenerates byte for byte.
    let finished = state.clone();
    let again = state.resumed_by(step, &options.limits);
    assert_eq!(again, format!("{}; then {step}", finished.command));
    assert_eq!(state, finished);
}
