//! The scan: determinism, shards, resumes, fallbacks and time limits.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::*;
use crate::geometry::Piece;
use crate::index::Variant;
use crate::search::state::*;
use crate::search::*;
use crate::stages::Progress;

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
    assert!(e.to_string().contains("rook a1"), "{e}");
    let mut o = options(Variant::Fancy, 1);
    o.targets = vec![bishop(27)];
    o.bits = Some(10);
    let e = search(&o, &Progress::default()).unwrap_err();
    assert!(e.to_string().contains("bishop d4"), "{e}");
}

#[test]
fn climbing_finds_bishop_a1_one_bit_under() {
    let mut o = options(Variant::Fancy, 2);
    o.targets = vec![bishop(0)];
    o.bits_under = Some(1);
    o.scan.budget = Budget::Candidates(4 * BLOCK_LEN);
    let out = search(&o, &Progress::default()).unwrap();
    assert!(out.unmet.is_empty());
    assert_eq!(out.set.entry(Piece::Bishop, 0).bits, 5);
    assert_eq!(out.report.table_len, 107_648 - 32);
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
            o.targets = [0, 1, 2, 27].map(bishop).to_vec();
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
    let mut part = SearchState::new(&o).unwrap();
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
        finish(&resumed, &o.limits, &[], None).unwrap().set,
        finish(&whole, &o.limits, &[], None).unwrap().set
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
            let mut st = SearchState::new(&o).unwrap();
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
fn an_unmet_target_falls_back_when_the_budget_runs_out() {
    // Bishop d4's 108 distinct attack sets in 7 bits' 128 slots: the fewest any table can
    // have, which the budget's two blocks do not reach (a seeded, repeatable scan).
    let mut o = options(Variant::Fancy, 1);
    o.targets = vec![bishop(27)];
    o.bits = Some(7);
    o.scan.budget = Budget::Candidates(2 * BLOCK_LEN);
    let out = search(&o, &Progress::default()).unwrap();
    assert_eq!(out.unmet, vec![bishop(27)]);
    assert_eq!(out.set.entry(Piece::Bishop, 27).bits, 9);
}

#[test]
fn a_time_limit_stops_an_unbounded_scan() {
    // The same target with no candidate budget: only `limits.seconds` ends it.
    let mut o = options(Variant::Fancy, 1);
    o.targets = vec![bishop(27)];
    o.bits = Some(7);
    o.limits.seconds = Some(0.01);
    let out = search(&o, &Progress::default()).unwrap();
    assert_eq!(out.unmet, vec![bishop(27)]);
}

#[test]
fn a_truncated_state_says_how_many_jobs_are_missing() {
    let state = SearchState::new(&options(Variant::Black, 1)).unwrap();
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
fn a_worker_that_panics_stops_the_scan_instead_of_hanging_it() {
    // A job asking for 0 index bits panics in its first block (a shift by 64), as a broken
    // move or table would: the panic must reach the caller, with or without checkpoints.
    for checkpoints in [false, true] {
        let mut o = options(Variant::Fancy, 2);
        o.scan.budget = Budget::Candidates(2 * BLOCK_LEN);
        let mut state = SearchState::new(&o).unwrap();
        state.jobs[5].bits = 0;
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut save = |_: &SearchState| {};
            let checkpoint: Option<Checkpoint> =
                checkpoints.then_some((Duration::from_millis(1), &mut save));
            let scan = std::panic::AssertUnwindSafe(|| {
                run(&mut state, &o.limits, &Progress::default(), checkpoint)
            });
            sender
                .send(std::panic::catch_unwind(scan).is_err())
                .unwrap();
        });
        // A generous bound (the scan takes well under a second): a hang fails here.
        let panicked = receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the scan went on for a minute after a worker panicked");
        assert!(panicked, "checkpoints {checkpoints}");
    }
}

#[test]
fn a_scan_runs_on_one_thread_by_default_and_its_deadline_is_its_seconds_from_now() {
    use std::time::{Duration, Instant};
    for variant in [Variant::Fancy, Variant::Black] {
        assert_eq!(Options::for_variant(variant).limits.threads, 1, "{variant}");
    }
    let limits = Limits {
        seconds: Some(60.0),
        ..Limits::default()
    };
    let before = Instant::now();
    let deadline = limits.deadline().expect("a time budget has a deadline");
    assert!(deadline >= before + Duration::from_secs(60));
    assert!(deadline <= Instant::now() + Duration::from_secs(60));
    assert_eq!(Limits::default().deadline(), None);
    // A negative budget counts as none left: the deadline is now.
    let spent = Limits {
        seconds: Some(-5.0),
        ..Limits::default()
    };
    assert!(spent.deadline().unwrap() <= Instant::now());
}
