//! `magic-gen stats` measuring squares: a set's free ends, a search state's pools, and two
//! compared square by square, each figure as the library measures it.

mod common;

use std::fs;

use common::{committed, magic_gen, scratch, Published};
use magic_gen::measure::{compare, PerSquare, Pools};
use magic_gen::search::SearchState;
use magic_gen::{read_set_file, square_name, Piece};

/// Returns the numbers of the line of `out` that begins with `piece square `.
fn row(out: &str, piece: Piece, sq: u8) -> Vec<String> {
    let start = format!("{:<6} {:<6} ", piece.to_string(), square_name(sq));
    let line = out
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no {start} line in\n{out}"));
    line.split_whitespace().skip(2).map(String::from).collect()
}

#[test]
fn stats_prints_each_squares_free_ends_as_measured() {
    let dir = scratch("measure-ends");
    for path in [committed("black"), Published::White.path()] {
        let (set, _) = read_set_file(&path).unwrap();
        let measured = PerSquare::of_set(&set).unwrap();
        let run = magic_gen(&dir, &["stats", path.to_str().unwrap()]);
        run.assert_success();
        for (piece, sq) in [(Piece::Rook, 0), (Piece::Rook, 36), (Piece::Bishop, 63)] {
            let r = measured.get(piece, sq).unwrap().range;
            let fields = row(&run.stdout, piece, sq);
            assert_eq!(fields[5..], [r.lead.to_string(), r.tail.to_string()]);
        }
    }
}

#[test]
fn stats_against_a_set_counts_squares_and_slots_as_the_library_does() {
    let dir = scratch("measure-against");
    let theirs_path = Published::Black.path();
    let theirs = PerSquare::of_set(&read_set_file(&theirs_path).unwrap().0).unwrap();
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
    // The committed black set against the published one.
    let ours_path = committed("black");
    let ours = PerSquare::of_set(&read_set_file(&ours_path).unwrap().0).unwrap();
    let c = compare(&ours, &theirs).unwrap();
    let t = c.tally;
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
    let out = &run.stdout;
    assert!(out.contains(&format!(
        "slots used: ours {}, theirs {}, ours minus theirs {:+}",
        t.ours_used,
        t.theirs_used,
        t.ours_used as i64 - t.theirs_used as i64
    )));
    assert!(out.contains(&format!(
        "squares where ours uses no more slots than theirs: {} of 128",
        t.no_more
    )));
    assert!(out.contains(&format!(
        "fewer on {} squares ({} slots in all), as many on {}, more on {} ({} slots in all)",
        t.fewer,
        t.fewer_by,
        t.no_more - t.fewer,
        t.more,
        t.more_by
    )));
    for r in &c.rows {
        let fields = row(out, r.piece, r.square);
        let (o, th) = (r.ours.unwrap().range, r.theirs.unwrap().range);
        assert_eq!(fields[0], o.used.to_string());
        assert_eq!(fields[1], th.used.to_string());
        assert_eq!(fields[2], format!("{:+}", r.difference().unwrap()));
    }
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
    let best = pools.best();
    let run = magic_gen(&dir, &["stats", "s.state"]);
    run.assert_success();
    assert!(run.stdout.contains(&format!(
        "slots used by these magics: {} in all, over {} squares",
        best.total_used(),
        best.measured()
    )));
    let b1 = best.get(Piece::Rook, 1).unwrap();
    let fields = row(&run.stdout, Piece::Rook, 1);
    let pool = pools.of_square(Piece::Rook, 1).count();
    assert_eq!(fields[0], pool.to_string());
    assert_eq!(fields[2], b1.range.used.to_string());
    assert_eq!(fields[6], format!("{:#018x}", b1.magic));
    // Every member, one line each.
    let run = magic_gen(&dir, &["stats", "s.state", "--members"]);
    run.assert_success();
    let lines = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("rook ") || l.starts_with("bishop "));
    assert_eq!(lines.count(), pools.members.len());
    // Against a set: the pools' best per square.
    let published = Published::Black.path();
    let run = magic_gen(
        &dir,
        &["stats", "s.state", "--against", published.to_str().unwrap()],
    );
    run.assert_success();
    let theirs = PerSquare::of_set(&read_set_file(&published).unwrap().0).unwrap();
    let t = compare(&best, &theirs).unwrap().tally;
    assert!(run.stdout.contains(&format!(
        "squares where ours uses no more slots than theirs: {} of {}",
        t.no_more, t.squares
    )));
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
