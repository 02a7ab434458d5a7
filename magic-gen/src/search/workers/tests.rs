use std::collections::HashMap;

use super::*;
use crate::geometry::{relevant_mask, slow_attacks, subsets, Piece, SetSquare};
use crate::index::magic_hash;
use crate::search::{Options, SearchState};

/// Returns, for a valid magic of `piece` on `sq` at `bits`, its distinct indices' count
/// and span (one past the highest minus the lowest); `None` if two occupancies with
/// different attacks share an index.
fn slots_of(variant: Variant, piece: Piece, sq: u8, magic: u64, bits: u8) -> Option<(u32, u32)> {
    let mask = relevant_mask(piece, sq);
    let mut seen = HashMap::new();
    for occ in subsets(mask) {
        let index = magic_hash(variant.is_black(), occ, mask, magic, bits);
        let attacks = slow_attacks(piece, sq, occ);
        if *seen.entry(index).or_insert(attacks) != attacks {
            return None;
        }
    }
    let (low, high) = (seen.keys().min()?, seen.keys().max()?);
    Some((seen.len() as u32, (high - low + 1) as u32))
}

/// Returns the state of a `variant` scan of `budget` keeping `pool` finds a job, with only
/// the job of `piece` on `sq` left in it (asked for `bits`, if given).
fn one_job(
    variant: Variant,
    budget: Budget,
    pool: usize,
    target: (Piece, u8, Option<u8>),
) -> SearchState {
    let (piece, sq, bits) = target;
    let mut options = Options::for_variant(variant);
    options.scan.budget = budget;
    options.scan.pool = pool;
    options.scan.sparse = 0;
    if bits.is_some() {
        options.targets = vec![SetSquare { piece, square: sq }];
        options.bits = bits;
    }
    let mut state = SearchState::new(&options).expect("valid options");
    state.jobs.retain(|j| (j.piece, j.square) == (piece, sq));
    assert_eq!(state.jobs.len(), 1);
    state
}

/// Scans the first block of `state`'s one job; returns what it tried.
fn first_block(state: &mut SearchState) -> u64 {
    let scan = state.scan;
    let job = &mut state.jobs[0];
    let mut scratch = Scratch::new(job, scan.variant);
    let tried = scan_block(&scan, job, &mut scratch);
    assert_eq!(job.next, 1, "a block moves its job on by one");
    tried
}

#[test]
fn fancy_keeps_the_first_valid_candidate_of_the_block_at_its_index() {
    let mut state = one_job(
        Variant::Fancy,
        Budget::UntilFound,
        1,
        (Piece::Bishop, 9, None),
    );
    let tried = first_block(&mut state);
    let job = &state.jobs[0];
    assert!(job.done, "the first find ends a fancy job");
    let [found] = job.found[..] else {
        panic!("one find: {:?}", job.found)
    };
    assert_eq!(tried, found.index + 1, "tried up to and including the find");
    let bits = job.bits;
    let stream = Stream {
        seed: state.scan.seed,
        variant: Variant::Fancy,
        piece: Piece::Bishop,
        square: 9,
        bits,
    };
    let candidates: Vec<u64> = stream.magics(0).take(tried as usize).collect();
    assert_eq!(candidates.last(), Some(&found.magic));
    let valid = |m| slots_of(Variant::Fancy, Piece::Bishop, 9, m, bits).is_some();
    assert!(valid(found.magic));
    assert!(!candidates[..candidates.len() - 1].iter().any(|&m| valid(m)));
}

#[test]
fn a_counted_budget_ends_a_block_early_on_every_path() {
    for (variant, target) in [
        (Variant::Black, (Piece::Bishop, 0, None)),
        (Variant::Fancy, (Piece::Rook, 0, None)),
        // Reduced bits: each candidate starts a climb (64 a block for a 6-bit bishop).
        (Variant::Fancy, (Piece::Bishop, 0, Some(5))),
    ] {
        let mut state = one_job(variant, Budget::Candidates(3), 1, target);
        let tried = first_block(&mut state);
        assert!(tried <= 3, "{variant:?} {target:?}: {tried}");
        assert!(state.jobs[0].done, "{variant:?} {target:?}");
        assert!(state.jobs[0].found.iter().all(|f| f.index < 3));
    }
    let mut state = one_job(
        Variant::Black,
        Budget::Candidates(3),
        1,
        (Piece::Bishop, 0, None),
    );
    assert_eq!(
        first_block(&mut state),
        3,
        "a packed scan tries its whole budget"
    );
}

#[test]
fn a_reduced_bits_block_starts_a_climb_per_candidate_and_keeps_a_valid_find() {
    // Bishop b2 has 5 relevant bits; 4 are found within a block's 128 climbs.
    let mut state = one_job(
        Variant::Fancy,
        Budget::UntilFound,
        1,
        (Piece::Bishop, 9, Some(4)),
    );
    let scan = state.scan;
    let job = &mut state.jobs[0];
    let mut scratch = Scratch::new(job, scan.variant);
    let mut tried = 0;
    while job.found.is_empty() && job.next < 8 {
        let before = job.next;
        let block_tried = scan_block(&scan, job, &mut scratch);
        assert_eq!(job.next, before + 1);
        assert!(block_tried >= 1 && block_tried <= climbs_per_block(5));
        tried += block_tried;
    }
    let [found] = job.found[..] else {
        panic!("a 4-bit find in 8 blocks: {:?}", job.found)
    };
    assert!(job.done);
    assert!(tried >= 1);
    assert!(found.index < job.next * BLOCK_LEN);
    assert!(slots_of(Variant::Fancy, Piece::Bishop, 9, found.magic, 4).is_some());
    assert_eq!(
        (found.used, found.span),
        (0, 0),
        "slots are measured for fixed shifts only"
    );
}

#[test]
fn a_packed_block_keeps_climbed_finds_with_their_slots_and_stops_at_a_full_pool() {
    // Black bishop a1 (6 relevant bits) at 9: valid magics are common, so a pool of 2 fills
    // early.
    let mut state = one_job(
        Variant::Black,
        Budget::UntilFound,
        2,
        (Piece::Bishop, 0, None),
    );
    let tried = first_block(&mut state);
    let job = &state.jobs[0];
    assert_eq!(job.found.len(), 2, "the pool fills within a block");
    assert!(job.done);
    assert!(tried < BLOCK_LEN, "the block stops at a full pool: {tried}");
    assert!(tried > 1, "one candidate cannot fill a pool of two");
    for f in &job.found {
        let slots = slots_of(Variant::Black, Piece::Bishop, 0, f.magic, 9);
        assert_eq!(slots, Some((f.used, f.span)), "{f:?}");
    }
    // A counted budget goes on through the block past a full pool.
    let mut state = one_job(
        Variant::Black,
        Budget::Candidates(BLOCK_LEN),
        2,
        (Piece::Bishop, 0, None),
    );
    assert_eq!(first_block(&mut state), BLOCK_LEN);
    assert!(state.jobs[0].done);
}

#[test]
fn a_panic_alarm_goes_off_only_when_its_thread_panics() {
    let flag = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let _alarm = PanicAlarm(&flag);
        });
    });
    assert!(!flag.load(Ordering::Relaxed), "a thread ending normally");
    let outcome = std::thread::scope(|s| {
        s.spawn(|| {
            let _alarm = PanicAlarm(&flag);
            panic!("a worker's bug");
        })
        .join()
    });
    assert!(outcome.is_err());
    assert!(flag.load(Ordering::Relaxed), "a panicking thread");
}

/// Returns a black scan of one block a square, every square of `piece`.
fn small_black(piece: Piece) -> (SearchState, Limits) {
    let mut options = Options::for_variant(Variant::Black);
    options.scan.budget = Budget::Candidates(8);
    options.scan.pool = 1;
    options.scan.sparse = 0;
    let mut state = SearchState::new(&options).expect("valid options");
    state.jobs.retain(|j| j.piece == piece);
    (state, options.limits)
}

#[test]
fn a_run_stops_before_a_block_when_stopped_or_out_of_time_and_else_finishes() {
    let (fresh, limits) = small_black(Piece::Bishop);
    let untouched =
        |state: &SearchState| state.jobs.iter().all(|j| j.next == 0 && j.found.is_empty());

    let mut state = fresh.clone();
    let progress = Progress::default();
    progress.stop.store(true, Ordering::Relaxed);
    run(&mut state, &limits, &progress, None);
    assert!(untouched(&state), "stopped before it began");

    let mut state = fresh.clone();
    let past = Limits {
        seconds: Some(0.0),
        ..limits
    };
    run(&mut state, &past, &Progress::default(), None);
    assert!(untouched(&state), "no time at all");

    for threads in [1, 2] {
        let mut state = fresh.clone();
        let ample = Limits {
            seconds: Some(3600.0),
            threads,
            ..limits
        };
        let progress = Progress::default();
        run(&mut state, &ample, &progress, None);
        assert!(
            state.jobs.iter().all(|j| j.done && j.next == 1),
            "{threads} threads"
        );
        assert_eq!(progress.candidates.load(Ordering::Relaxed), 64 * 8);
        assert_eq!(state.budget_used(), Some((64 * 8, 64 * 8)));
        assert_eq!(progress.spent.load(Ordering::Relaxed), 64 * 8);
        assert_eq!(progress.jobs_done.load(Ordering::Relaxed), 64);
        let reached = state.jobs.iter().filter(|j| !j.found.is_empty()).count();
        assert_eq!(progress.reached.load(Ordering::Relaxed), reached);
    }
}

#[test]
fn a_resumed_run_counts_the_jobs_already_done_and_reached() {
    let (mut state, limits) = small_black(Piece::Bishop);
    run(&mut state, &limits, &Progress::default(), None);
    // Half the jobs back to where they began, as a state saved mid-scan.
    let mut reached = 0;
    for (i, job) in state.jobs.iter_mut().enumerate() {
        if i % 2 == 0 {
            (job.next, job.done) = (0, false);
            job.found.clear();
        } else if !job.found.is_empty() {
            reached += 1;
        }
    }
    assert!(reached > 0);
    let progress = Progress::default();
    progress.stop.store(true, Ordering::Relaxed);
    run(&mut state, &limits, &progress, None);
    assert_eq!(progress.jobs_done.load(Ordering::Relaxed), 32);
    assert_eq!(progress.reached.load(Ordering::Relaxed), reached);
    assert_eq!(progress.jobs.load(Ordering::Relaxed), 64);
}

#[test]
fn the_budget_spent_counts_each_block_once_over_several_blocks() {
    let (mut state, limits) = small_black(Piece::Bishop);
    // Two jobs of a block and 8 candidates each: the second block's count starts at 4,096.
    state.scan.budget = Budget::Candidates(BLOCK_LEN + 8);
    state.jobs.truncate(2);
    let progress = Progress::default();
    run(&mut state, &limits, &progress, None);
    assert!(state.jobs.iter().all(|j| j.done && j.next == 2));
    assert_eq!(progress.spent.load(Ordering::Relaxed), 2 * (BLOCK_LEN + 8));
    assert_eq!(
        progress.candidates.load(Ordering::Relaxed),
        2 * (BLOCK_LEN + 8)
    );
}
