//! `magic-gen stats` measuring squares: a set's free ends, a search state's pools, and two
//! compared square by square, each table as the library renders it (the library's tests
//! check the tables' figures against its measures).

mod common;

use std::fs;

use common::{committed, magic_gen, scratch, Published};
use magic_gen::measure::{PerSquare, Pools};
use magic_gen::search::SearchState;
use magic_gen::{read_set_file, verify};

/// Returns the per-square measures of the set file at `path`.
fn measured(path: &std::path::Path) -> PerSquare {
    PerSquare::of_set(&read_set_file(path).unwrap().0).unwrap()
}

#[test]
fn stats_prints_a_sets_tables_with_each_squares_free_ends() {
    let dir = scratch("measure-ends");
    for path in [committed("black"), Published::White.path()] {
        let (set, _, _) = read_set_file(&path).unwrap();
        let tables = PerSquare::of_set(&set)
            .unwrap()
            .set_tables(&verify(&set).unwrap().report);
        let run = magic_gen(&dir, &["stats", path.to_str().unwrap()]);
        run.assert_success();
        assert!(
            run.stdout.ends_with(&format!("\n{tables}\n")),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("lead   tail\nrook   a1 "));
    }
}

#[test]
fn stats_against_a_set_counts_squares_and_slots_as_the_library_does() {
    let dir = scratch("measure-against");
    let theirs_path = Published::Black.path();
    let theirs = measured(&theirs_path);
    // The same set: no square uses more.
    let run = magic_gen(
        &dir,
        &[
            "stats",
            theirs_path.to_str().unwrap(),
            "--against",
            theirs_path.to_str().unwrap(),
        ],
    );
    run.assert_success();
    assert!(run
        .stdout
        .contains("ours minus theirs +0, over 128 squares"));
    assert!(run
        .stdout
        .contains("squares where ours uses no more slots than theirs: 128 of 128"));
    // The committed black set against the published one: the library's comparison, after
    // a line naming each side.
    let ours_path = committed("black");
    let c = measured(&ours_path).compare(&theirs).unwrap();
    let run = magic_gen(
        &dir,
        &[
            "stats",
            ours_path.to_str().unwrap(),
            "--against",
            theirs_path.to_str().unwrap(),
        ],
    );
    run.assert_success();
    let head: Vec<&str> = run.stdout.lines().take(2).collect();
    assert!(head[0].starts_with("ours:   ") && head[0].ends_with("black.rs: black set"));
    let theirs_line = format!("theirs: {}", theirs_path.display());
    assert!(head[1].starts_with(&theirs_line), "{}", head[1]);
    assert!(
        run.stdout.ends_with(&format!("set\n{c}\n")),
        "{}",
        run.stdout
    );
    // Sets of two variants are refused, naming both files.
    let white = Published::White.path();
    let run = magic_gen(
        &dir,
        &[
            "stats",
            white.to_str().unwrap(),
            "--against",
            theirs_path.to_str().unwrap(),
        ],
    );
    run.assert_clean_failure();
    assert!(run
        .stderr
        .contains(&format!("{} is white and", Published::White.file_name())));
    assert!(run
        .stderr
        .contains(&format!("{} is black", Published::Black.file_name())));
}

#[test]
fn stats_of_a_search_state_measures_its_pools() {
    let dir = scratch("measure-pools");
    let run = magic_gen(
        &dir,
        &[
            "search",
            "--variant",
            "black",
            "--candidates",
            "4096",
            "--pool",
            "2",
            "--sparse-pool",
            "1",
            "--polish",
            "0",
            "--pack-iterations",
            "0",
            "--threads",
            "2",
            "--state",
            "s.state",
        ],
    );
    run.assert_success();
    let text = fs::read(dir.join("s.state")).unwrap();
    let pools = Pools::of_state(&SearchState::parse("s.state", &text).unwrap()).unwrap();
    let run = magic_gen(&dir, &["stats", "s.state"]);
    run.assert_success();
    let summary = format!("s.state: {}\n", pools.summary());
    assert!(run.stdout.starts_with(&summary), "{}", run.stdout);
    assert!(run.stdout.ends_with(&format!("\n{}\n", pools.best_table())));
    // Every member, one line each.
    let run = magic_gen(&dir, &["stats", "s.state", "--members"]);
    run.assert_success();
    let members = format!("{summary}{}\n", pools.members_table());
    assert_eq!(run.stdout, members);
    // Against a set: the pools' best per square.
    let published = Published::Black.path();
    let run = magic_gen(
        &dir,
        &["stats", "s.state", "--against", published.to_str().unwrap()],
    );
    run.assert_success();
    let c = pools.best().compare(&measured(&published)).unwrap();
    assert!(run.stdout.starts_with(&format!("ours:   {summary}")));
    assert!(run.stdout.ends_with(&format!("\n{c}\n")));
    // A set has no members; a state no table to draw.
    let run = magic_gen(&dir, &["stats", published.to_str().unwrap(), "--members"]);
    run.assert_clean_failure();
    assert!(run
        .stderr
        .contains("--members lists the pools of a search state"));
    let run = magic_gen(&dir, &["stats", "s.state", "--picture", "t.svg"]);
    run.assert_clean_failure();
    assert!(!dir.join("t.svg").exists());
    // A state whose magic is no magic on its square is named by file, piece and square.
    let text = String::from_utf8(text).unwrap();
    let at = text.find("found rook b1 0x").unwrap() + "found rook b1 ".len();
    let bad = format!("{}0x0000000000000000{}", &text[..at], &text[at + 18..]);
    fs::write(dir.join("bad.state"), bad).unwrap();
    let run = magic_gen(&dir, &["stats", "bad.state"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains(
            "bad.state: rook b1: 0x0000000000000000 with 12 index bits is no magic there"
        ),
        "{}",
        run.stderr
    );
}
