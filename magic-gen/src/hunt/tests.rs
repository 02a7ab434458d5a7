//! Tests of the driver's rules: saves that fail, stops before and in the packing (and how a
//! run they cut goes on), and a repack that never comes out longer.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::*;
use crate::hunt::cut::{Cut, Keeps};
use crate::hunt::ending::{Ending, GoesOn};
use crate::pack::{PackCheckpoint, PackSettings};
use crate::search::{Limits, SearchState};
use crate::set::MagicSet;
use crate::stages::Progress;
use crate::verify::Report;

/// The published black set, whose greedy layout is longer than its own, with its report.
fn published_black() -> (MagicSet, Report) {
    let set = crate::pack::test_support::published_set("published-black-87988.txt");
    let report = crate::verify(&set).unwrap().report;
    (set, report)
}

/// Returns the limits of a packing of `iterations` moves.
fn moves(iterations: u64) -> Limits {
    let pack = PackSettings {
        iterations,
        ..PackSettings::default()
    };
    Limits {
        pack,
        ..Limits::default()
    }
}

/// Returns `hunt` as it is: a repack without stages before its pools.
fn as_planned(hunt: Hunt) -> Hunt {
    hunt
}

/// Runs the repack of the published black set `plan` makes of it, stopped before it starts
/// if `stop`; returns what it made and the move counts of the checkpoints it saved.
fn run_saving(
    plan: impl for<'a> Fn(Hunt<'a>) -> Hunt<'a>,
    iterations: u64,
    stop: bool,
) -> (Outcome, Vec<(u64, u64)>) {
    let (set, report) = published_black();
    let progress = Progress::default();
    progress.stop.store(stop, Ordering::SeqCst);
    let mut saved = Vec::new();
    let mut save = |_: Option<&_>, c: &[PackCheckpoint]| {
        saved.push(PackCheckpoint::moves_of(c));
        Ok(())
    };
    let hooks = Hooks {
        progress: Some(&progress),
        save: Some((Duration::ZERO, &mut save)),
    };
    let limits = moves(iterations);
    let outcome = plan(Hunt::repack(&set, &report, &limits))
        .run(hooks)
        .unwrap();
    (outcome, saved)
}

#[test]
fn the_first_failed_save_stops_the_run_and_is_kept_in_its_outcome() {
    let (set, report) = published_black();
    // Moves that would take hours: only the failed save ends the run this soon.
    let limits = moves(1_000_000_000);
    let progress = Progress::default();
    let mut tries = 0;
    let mut save = |_: Option<&SearchState>, _: &[PackCheckpoint]| {
        tries += 1;
        Err(format!("save {tries} failed"))
    };
    let hooks = Hooks {
        progress: Some(&progress),
        save: Some((Duration::ZERO, &mut save)),
    };
    let outcome = Hunt::repack(&set, &report, &limits).run(hooks).unwrap();
    assert_eq!(outcome.save_failed.as_deref(), Some("save 1 failed"));
    assert!(progress.stop.load(Ordering::SeqCst));
    assert_eq!(tries, 1, "a save was tried again after one failed");
    assert!(crate::verify(&outcome.set).is_ok());
    let (made, total) = PackCheckpoint::moves_of(&outcome.pack);
    assert!(made < total);
    let stage = Stage::Packing;
    assert_eq!(outcome.cut, Some(Cut { stage, made, total }));
}

#[test]
fn saves_that_succeed_leave_the_run_alone() {
    let (outcome, saved) = run_saving(as_planned, 2000, false);
    assert_eq!(outcome.save_failed, None);
    assert_eq!(outcome.cut, None);
    assert!(saved.len() > 1);
    assert_eq!(PackCheckpoint::moves_of(&outcome.pack), (2000, 2000));
}

#[test]
fn a_stop_before_the_packing_is_its_cut_and_saves_nothing() {
    let (set, _) = published_black();
    fn rooks_first(h: Hunt) -> Hunt {
        h.with_rooks_first(1).and_then(|h| h.with_holes(1)).unwrap()
    }
    fn holes(h: Hunt) -> Hunt {
        h.with_holes(1).unwrap()
    }
    for ((outcome, saved), cut) in [
        (
            run_saving(rooks_first, 1000, true),
            (Stage::RooksFirst { blocks: 1 }, 0),
        ),
        (
            run_saving(holes, 1000, true),
            (Stage::Holes { blocks: 1 }, 128),
        ),
    ] {
        let (stage, total) = cut;
        assert_eq!(
            outcome.cut,
            Some(Cut {
                stage,
                made: 0,
                total
            })
        );
        assert_eq!(saved, []);
        // The greedy layout the stopped packing kept is longer: the input is written.
        assert!(outcome.kept_input);
        assert_eq!(outcome.set, set);
    }
}

#[test]
fn a_stop_in_the_packing_alone_is_its_cut_and_its_checkpoint_is_saved() {
    let (outcome, saved) = run_saving(as_planned, 1000, true);
    assert_eq!(
        outcome.cut,
        Some(Cut {
            stage: Stage::Packing,
            made: 0,
            total: 1000
        })
    );
    assert_eq!(saved.last(), Some(&(0, 1000)));
}

#[test]
fn the_finished_packing_is_saved_last_and_never_comes_out_longer() {
    let (set, report) = published_black();
    let (outcome, saved) = run_saving(as_planned, 2000, false);
    assert_eq!(saved.last(), Some(&(2000, 2000)));
    let len = outcome.report.table_len;
    assert_eq!(len, outcome.packed_len.min(report.table_len));
    assert_eq!(outcome.kept_input, outcome.packed_len >= report.table_len);
    if outcome.kept_input {
        assert_eq!(outcome.set, set);
    }
    assert!(crate::verify(&outcome.set).is_ok());
}

#[test]
fn a_sets_stage_on_a_scan_state_is_an_error_where_the_hunt_is_built() {
    let options = crate::search::Options::for_variant(crate::Variant::Black);
    let state = SearchState::new(&options).unwrap();
    let hunt = || Hunt::finish(&state, &options.limits);
    assert!(hunt().with_holes(1).is_err());
    assert!(hunt().with_rooks_first(0).is_err());
    // No holes asked for: nothing to refuse.
    assert!(hunt().with_holes(0).is_ok());
}

/// Returns the options of a small black hunt: 256 candidates a square, pools of 2, `polish`
/// climbs and 50 packing moves.
fn small_black(polish: u32) -> crate::search::Options {
    let mut o = crate::search::Options::for_variant(crate::Variant::Black);
    o.scan.budget = crate::search::Budget::Candidates(256);
    o.scan.pool = 2;
    o.limits.polish = crate::search::PolishSettings {
        polish,
        clump: 0,
        evolve: 0,
    };
    o.limits.pack.iterations = 50;
    o
}

/// Returns the outcome of the hunt of `state` with options `o`, stopped before it starts.
fn stopped_search(state: &mut SearchState, o: &crate::search::Options) -> Outcome {
    let progress = Progress::default();
    progress.stop.store(true, Ordering::SeqCst);
    let hooks = Hooks {
        progress: Some(&progress),
        ..Hooks::default()
    };
    let hunt = Hunt::search(state, &o.limits, Wanted::Set);
    hunt.run(hooks).unwrap()
}

#[test]
fn a_stop_before_the_scan_cuts_it_with_every_square_open() {
    let o = small_black(0);
    let mut state = SearchState::new(&o).unwrap();
    let outcome = stopped_search(&mut state, &o);
    let Some(Cut {
        stage: Stage::Scan,
        made,
        total,
    }) = outcome.cut
    else {
        panic!("{:?}", outcome.cut);
    };
    assert_eq!((made, total), (0, 128));
    // What the scan spent of its budget is its state's.
    assert_eq!(state.budget_used(), Some((0, 128 * 256)));
}

#[test]
fn a_shard_run_for_its_state_alone_packs_greedily() {
    use crate::search::Shard;
    let mut o = small_black(0);
    let half = Shard { index: 0, count: 2 };
    for (shard, wanted, greedy) in [
        (half, Wanted::State, true),
        (half, Wanted::Set, false),
        (Shard::WHOLE, Wanted::State, false),
    ] {
        o.scan.shard = shard;
        let mut state = SearchState::new(&o).unwrap();
        let hunt = Hunt::search(&mut state, &o.limits, wanted);
        let outcome = hunt.run(Hooks::default()).unwrap();
        assert_eq!(outcome.greedy, greedy, "{shard} {wanted:?}");
        let moves = PackCheckpoint::moves_of(&outcome.pack);
        assert_eq!(moves, if greedy { (0, 0) } else { (50, 50) });
    }
}

#[test]
fn a_scan_that_moves_on_voids_the_packing_saved_with_its_state() {
    let (set, report) = published_black();
    let other = Hunt::repack(&set, &report, &moves(10))
        .run(Hooks::default())
        .unwrap()
        .pack;
    let o = small_black(0);
    let mut state = SearchState::new(&o).unwrap();
    // Scanned from nothing: the checkpoint of another packing is never offered.
    let hunt = Hunt::search(&mut state, &o.limits, Wanted::Set).resuming(&other);
    assert!(hunt.run(Hooks::default()).is_ok());
    // Finished already: the scan stays, and the packing refuses what is not its own.
    let hunt = Hunt::search(&mut state, &o.limits, Wanted::Set).resuming(&other);
    let refused = hunt.run(Hooks::default());
    assert!(
        matches!(refused, Err(crate::search::Error::Checkpoint { .. })),
        "{refused:?}"
    );
}

#[test]
fn a_stop_before_the_polish_cuts_it_and_counts_its_climbs() {
    let o = small_black(20);
    let mut state = SearchState::new(&o).unwrap();
    let hunt = Hunt::search(&mut state, &o.limits, Wanted::Set);
    assert_eq!(hunt.run(Hooks::default()).unwrap().cut, None);
    let progress = Progress::default();
    progress.stop.store(true, Ordering::SeqCst);
    let hooks = Hooks {
        progress: Some(&progress),
        ..Hooks::default()
    };
    let outcome = Hunt::finish(&state, &o.limits).run(hooks).unwrap();
    let Some(Cut {
        stage: Stage::Polish,
        made: climbed,
        total: climbs,
    }) = outcome.cut
    else {
        panic!("{:?}", outcome.cut);
    };
    assert!(climbed == 0 && climbs > 0, "{climbed} of {climbs}");
}

#[test]
fn a_stop_after_the_last_move_cuts_nothing_and_the_state_is_saved_last_without_its_packing() {
    let o = small_black(20);
    let mut state = SearchState::new(&o).unwrap();
    let progress = Progress::default();
    let mut saved = Vec::new();
    // The saves forced at the scan's end and the packing's; the packing's end fails, which
    // stops the run once every stage has finished.
    let mut save = |st: Option<&SearchState>, c: &[PackCheckpoint]| {
        saved.push((st.map(SearchState::jobs_left), c.len()));
        match PackCheckpoint::moves_of(c) {
            (made, total) if total > 0 && made == total => Err("full".to_string()),
            _ => Ok(()),
        }
    };
    let hooks = Hooks {
        progress: Some(&progress),
        save: Some((Duration::from_secs(3600), &mut save)),
    };
    let outcome = Hunt::search(&mut state, &o.limits, Wanted::Set)
        .run(hooks)
        .unwrap();
    assert!(progress.stop.load(Ordering::SeqCst));
    assert_eq!(outcome.save_failed.as_deref(), Some("full"));
    assert_eq!(outcome.cut, None);
    assert_eq!(saved, [(Some(0), 0), (Some(0), 1)]);
    // Without a failure, the state is saved once more, without the finished packing.
    let mut state = SearchState::new(&o).unwrap();
    let mut saved = Vec::new();
    let mut save = |st: Option<&SearchState>, c: &[PackCheckpoint]| {
        saved.push((st.is_some(), c.len()));
        Ok(())
    };
    let hooks = Hooks {
        progress: None,
        save: Some((Duration::from_secs(3600), &mut save)),
    };
    Hunt::search(&mut state, &o.limits, Wanted::Set)
        .run(hooks)
        .unwrap();
    assert_eq!(saved.last(), Some(&(true, 0)));
    assert_eq!(saved.len(), 3);
}

#[test]
fn the_stages_are_named_as_the_time_by_stage_line_shows_them() {
    let o = small_black(0);
    let mut state = SearchState::new(&o).unwrap();
    let names = |h: &Hunt| h.stages().iter().map(|s| s.name()).collect::<Vec<_>>();
    let hunt = Hunt::search(&mut state, &o.limits, Wanted::Set);
    assert_eq!(
        names(&hunt),
        ["scan", "polish", "pools", "packing", "verification"]
    );
    let (set, report) = published_black();
    let limits = moves(1);
    let hunt = Hunt::repack(&set, &report, &limits)
        .with_rooks_first(0)
        .and_then(|h| h.with_holes(1))
        .unwrap();
    assert_eq!(
        names(&hunt),
        ["rooks-first", "holes", "pools", "packing", "verification"]
    );
}

#[test]
fn a_cut_run_goes_on_from_the_file_it_keeps_where_that_file_resumes_the_stage_cut() {
    use crate::io::Step;
    fn holes(h: Hunt) -> Hunt {
        h.with_holes(1).unwrap()
    }
    let (rerun, resume) = (vec![Step::new("pack")], Step::new("resume"));
    let goes_on = |o: &Outcome, saved: Option<&Step>| {
        let ending = o.ending(true, saved.cloned(), rerun.clone());
        ending.cut.map(|(_, goes_on)| goes_on)
    };
    // A repack cut in its packing goes on from its checkpoint, if one was saved.
    let (packing, _) = run_saving(as_planned, 1000, true);
    let from = Some(GoesOn::From(resume.clone()));
    assert_eq!(goes_on(&packing, Some(&resume)), from);
    let unsaved = GoesOn::Unsaved(Keeps::Checkpoint, rerun.clone());
    assert_eq!(goes_on(&packing, None), Some(unsaved));
    // Cut while giving squares magics: a checkpoint would pack other magics.
    let (cut_in_holes, _) = run_saving(holes, 1000, true);
    let rerun_it = Some(GoesOn::Rerun(rerun.clone()));
    assert_eq!(goes_on(&cut_in_holes, Some(&resume)), rerun_it);
    // Finished: complete, and stopped only if told to stop.
    let (done, _) = run_saving(as_planned, 10, false);
    let ending = done.ending(false, Some(resume), rerun.clone());
    assert!(ending.complete() && ending.exit_status() == 0);
    assert_eq!(
        done.ending(true, None, rerun.clone()).exit_status(),
        Ending::STOPPED
    );
    // A search's state resumes any stage, and its scan's budget spent is said.
    let o = small_black(0);
    let mut state = SearchState::new(&o).unwrap();
    let scanned = stopped_search(&mut state, &o);
    let ending = scanned.ending(true, None, rerun.clone());
    assert_eq!(ending.budget, Some((0, 128 * 256)));
    let unsaved = GoesOn::Unsaved(Keeps::State, rerun);
    assert_eq!(ending.cut.map(|(_, goes_on)| goes_on), Some(unsaved));
}
