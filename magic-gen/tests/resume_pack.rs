//! A packing interrupted (killed, or stopped by Ctrl-C) and resumed from its checkpoint
//! writes the set an uninterrupted run writes, byte for byte, through `magic-gen pack` and
//! `magic-gen search`; checkpoints of another packing, and damaged ones, are refused at
//! their file and line with nothing overwritten. (The search's unit tests resume from the
//! checkpoint of every move of a small packing; these check the command line around it.)

#![cfg(unix)]

mod common;

use std::fs;
use std::path::Path;

use common::running::Running;
use common::{committed, magic_gen, scratch, verified_note, Published};

/// Runs `magic-gen args...` in `dir` until `file` there holds text `ready` accepts, then
/// sends it `signal` and returns its exit code, its stderr and the text seen. The wait is
/// for readiness, not a guess at how long the run takes; the limit only turns a hang into
/// a failure.
fn interrupt(
    dir: &Path,
    args: &[&str],
    file: &str,
    ready: impl Fn(&str) -> bool,
    signal: &str,
) -> (i32, String, String) {
    let mut run = Running::magic_gen(dir, args, &[]);
    let seen = run.wait_until("its first pack checkpoint", || {
        fs::read_to_string(dir.join(file)).ok().filter(|t| ready(t))
    });
    run.signal(signal);
    let ended = run.end();
    (ended.code, ended.stderr, seen)
}

/// Returns how many moves the checkpoint in `text` has made.
fn moves(checkpoint: &str) -> u64 {
    let line = checkpoint
        .lines()
        .find(|l| l.starts_with("pack-progress "))
        .unwrap();
    line.split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// Asserts `run` failed cleanly with an error starting `at` and containing `what`.
fn assert_refused(run: &common::Run, at: &str, what: &str) {
    run.assert_clean_failure();
    assert!(
        run.stderr.starts_with(&format!("error: {at}")) && run.stderr.contains(what),
        "expected {at:?} and {what:?} in\n{}",
        run.stderr
    );
}

#[test]
fn a_killed_pack_resumed_writes_the_uninterrupted_set() {
    let (whole, cut) = (scratch("pack-whole"), scratch("pack-cut"));
    let set = Published::Black.arg();
    let base = ["pack", set.as_str(), "--pack-iterations", "1000"];
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    // Uninterrupted, saving its checkpoint only at the end.
    magic_gen(&whole, &with(&["--state", "p.pack", "--out", "set.txt"])).assert_success();
    let expected = fs::read(whole.join("set.txt")).unwrap();
    // Killed as a pre-empted job is, once it has saved a checkpoint (written atomically,
    // so whole whenever it is there), then resumed.
    let args = with(&[
        "--state",
        "p.pack",
        "--checkpoint",
        "0.1",
        "--out",
        "set.txt",
    ]);
    interrupt(&cut, &args, "p.pack", |_| true, "KILL");
    let left = fs::read_to_string(cut.join("p.pack")).unwrap();
    let resumed = magic_gen(&cut, &with(&["--resume", "p.pack", "--out", "set.txt"]));
    resumed.assert_success();
    let from = format!("resumed from p.pack at move {}", moves(&left));
    assert!(resumed.stdout.contains(&from), "{}", resumed.stdout);
    assert!(fs::read(cut.join("set.txt")).unwrap() == expected);
    // The checkpoint of the last move, resumed, writes it again at once.
    let again = magic_gen(&whole, &with(&["--resume", "p.pack", "--out", "again.txt"]));
    again.assert_success();
    assert!(again.stdout.contains("at move 1000"), "{}", again.stdout);
    let again = fs::read_to_string(whole.join("again.txt")).unwrap();
    let expected = String::from_utf8(expected).unwrap();
    assert_eq!(again, expected.replace("--out set.txt", "--out again.txt"));
}

#[test]
fn a_pack_from_the_input_starts_from_its_layout_and_records_so() {
    let dir = scratch("pack-from-input");
    let set = Published::Black.arg();
    let args = ["pack", &set, "--pack-iterations", "200", "--from-input"];
    let run = magic_gen(&dir, &[&args[..], &["--out", "warm.txt"]].concat());
    run.assert_success();
    let cold = magic_gen(
        &dir,
        &[
            "pack",
            &set,
            "--pack-iterations",
            "200",
            "--out",
            "cold.txt",
        ],
    );
    cold.assert_success();
    let length = |file: &str| -> usize {
        let text = fs::read_to_string(dir.join(file)).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("# table: "))
            .unwrap()
            .to_string();
        line["# table: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    // 200 moves from the greedy pass leave the published 87,988 as it is; from the
    // input's order (87,783 by first fit alone) the table is shorter.
    assert_eq!(length("cold.txt"), 87_988);
    assert!(length("warm.txt") <= 87_783, "{}", length("warm.txt"));
    let text = fs::read_to_string(dir.join("warm.txt")).unwrap();
    assert!(
        text.contains("--pack-iterations 200 --from-input --out warm.txt"),
        "{text}"
    );
}

#[test]
fn a_pack_with_holes_changes_magics_and_regenerates_and_resumes_byte_for_byte() {
    let dir = scratch("pack-holes");
    let set = Published::Black.arg();
    let args = [
        "pack",
        &set,
        "--holes",
        "1",
        "--pack-iterations",
        "300",
        "--from-input",
    ];
    let run = magic_gen(
        &dir,
        &[&args[..], &["--state", "h.pack", "--out", "a.txt"]].concat(),
    );
    run.assert_success();
    let again = magic_gen(&dir, &[&args[..], &["--out", "c.txt"]].concat());
    again.assert_success();
    let text = fs::read_to_string(dir.join("a.txt")).unwrap();
    let c = fs::read_to_string(dir.join("c.txt")).unwrap();
    assert_eq!(c, text.replace("--out a.txt", "--out c.txt"));
    assert!(
        text.contains("--pack-iterations 300 --from-input --holes 1 --out a.txt"),
        "{text}"
    );
    // Magics chosen for the holes: some squares' magics are not the published ones.
    let magics = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("rook") || l.starts_with("bishop"))
            .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
            .collect()
    };
    let published = Published::Black.text();
    let changed = magics(&text)
        .iter()
        .zip(magics(&published))
        .filter(|(a, b)| *a != b)
        .count();
    assert!(changed > 10, "{changed} magics changed");
    // Its checkpoint resumes to the same set: the holes are chosen again the same way.
    let resumed = magic_gen(
        &dir,
        &[&args[..], &["--resume", "h.pack", "--out", "b.txt"]].concat(),
    );
    resumed.assert_success();
    let b = fs::read_to_string(dir.join("b.txt")).unwrap();
    assert_eq!(b, text.replace("--out a.txt", "--out b.txt"));
}

#[test]
fn a_pack_checkpoint_of_another_packing_is_refused_at_its_line() {
    let dir = scratch("pack-refused");
    let set = Published::Black.arg();
    let run = magic_gen(
        &dir,
        &["pack", &set, "--pack-iterations", "30", "--state", "p.pack"],
    );
    run.assert_success();
    let good = fs::read_to_string(dir.join("p.pack")).unwrap();
    let black = committed("black");
    let black = black.to_str().unwrap();
    let resume = |set: &str, extra: &[&str]| {
        let args = [
            &["pack", set, "--resume", "p.pack", "--out", "x.txt"][..],
            extra,
        ]
        .concat();
        magic_gen(&dir, &args)
    };
    let cases: [(&str, &[&str], &str); 5] = [
        (
            &set,
            &["--pack-iterations", "31"],
            "give --pack-iterations 30 to go on",
        ),
        (
            &set,
            &["--pack-iterations", "30", "--pack-seed", "2"],
            "with --pack-seed 1, this run asks for 2",
        ),
        (
            &set,
            &["--pack-iterations", "30", "--negative-offsets"],
            "without --negative-offsets, this run with it: leave it out",
        ),
        (
            &set,
            &["--pack-iterations", "30", "--from-input"],
            "without --from-input, this run with it: leave it out",
        ),
        (black, &["--pack-iterations", "30"], "other magics"),
    ];
    for (set, extra, what) in cases {
        let run = resume(set, extra);
        assert_refused(&run, "p.pack:2: cannot resume: ", what);
        assert_eq!(fs::read_to_string(dir.join("p.pack")).unwrap(), good);
        assert!(!dir.join("x.txt").exists());
    }
    // Cut off after a few squares; a search state in its place; a wrong length.
    let cut: String = good.lines().take(20).map(|l| format!("{l}\n")).collect();
    let damaged = [
        (
            cut,
            "p.pack: ",
            "111 of the pack checkpoint's 128 squares are missing (after",
        ),
        (
            "magic-gen-state 1\n".to_string(),
            "p.pack:1: ",
            "this is a search state, resumed by `magic-gen search --resume`",
        ),
        (
            good.replacen(" length ", " length 1", 1),
            "p.pack:3: cannot resume: ",
            "where its layout packs",
        ),
    ];
    for (text, at, what) in damaged {
        fs::write(dir.join("p.pack"), &text).unwrap();
        let run = resume(&set, &["--pack-iterations", "30"]);
        assert_refused(&run, at, what);
        assert_eq!(fs::read_to_string(dir.join("p.pack")).unwrap(), text);
        assert!(!dir.join("x.txt").exists());
    }
}

#[test]
fn a_search_stopped_while_packing_resumes_to_the_uninterrupted_set() {
    // A finished scan's state, packed uninterrupted in one directory and stopped by Ctrl-C
    // then resumed in another: the same file names, so the same recorded commands.
    let (whole, cut) = (scratch("search-pack-whole"), scratch("search-pack-cut"));
    let scan = [
        "search",
        "--variant",
        "black",
        "--candidates",
        "4096",
        "--pool",
        "2",
        "--patience",
        "20",
        "--sparse-pool",
        "0",
        "--polish",
        "0",
        "--pack-iterations",
        "0",
        "--threads=2",
        "--state",
        "s.state",
    ];
    magic_gen(&whole, &scan).assert_success();
    let scanned = fs::read(whole.join("s.state")).unwrap();
    fs::write(cut.join("s.state"), &scanned).unwrap();
    // `search --resume STATE --polish 0 --pack-iterations MORE...`
    let resume = |state: &'static str, more: &[&'static str]| {
        let args = [
            "search",
            "--resume",
            state,
            "--polish",
            "0",
            "--pack-iterations",
        ];
        [&args[..], more].concat()
    };
    let seeded = ["1000", "--pack-seed", "3"];
    let pack = resume(
        "s.state",
        &[&seeded[..], &["--checkpoint", "0.1", "--out", "set.rs"]].concat(),
    );
    magic_gen(&whole, &pack).assert_success();
    // A finished packing leaves the scan's state as it was.
    assert!(fs::read(whole.join("s.state")).unwrap() == scanned);
    let expected = fs::read(whole.join("set.rs")).unwrap();

    let with_pack = |t: &str| t.starts_with("magic-gen-state 2\n") && t.ends_with('\n');
    let (code, stderr, seen) = interrupt(&cut, &pack, "s.state", with_pack, "INT");
    // Stopped at a move (exit 130), unless the signal came after the last one.
    assert!(code == 130 || code == 0, "{code}: {stderr}");
    if code == 130 {
        assert!(stderr.contains("interrupted after "), "{stderr}");
        // Its header says the packing stopped short, and how to finish it.
        let note = verified_note(&cut, "set.rs").unwrap_or_else(|| panic!("{stderr}"));
        assert!(
            note.starts_with("the packing stopped after ")
                && note.ends_with(
                    " of 1000 moves; finish with `magic-gen search --resume s.state \
                 --polish 0 --pack-iterations 1000 --pack-seed 3 --out set.rs`"
                ),
            "{note}"
        );
    }
    // Resuming with another move count is refused; the state stays as it is.
    fs::write(cut.join("seen.state"), &seen).unwrap();
    let line = seen.lines().position(|l| l.starts_with("pack ")).unwrap() + 1;
    let other = magic_gen(&cut, &resume("seen.state", &["999"]));
    assert_refused(
        &other,
        &format!("seen.state:{line}: cannot resume: "),
        "give --pack-iterations 1000",
    );
    assert_eq!(fs::read_to_string(cut.join("seen.state")).unwrap(), seen);
    // And so is one without the packing seed it was saved with.
    let unseeded = magic_gen(&cut, &resume("seen.state", &["1000"]));
    assert_refused(
        &unseeded,
        &format!("seen.state:{line}: cannot resume: "),
        "with --pack-seed 3, this run asks for 1: give --pack-seed 3",
    );
    assert_eq!(fs::read_to_string(cut.join("seen.state")).unwrap(), seen);
    // So is a state cut off in its checkpoint, saying what is missing.
    let short: String = seen
        .lines()
        .take(line + 11)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(cut.join("short.state"), &short).unwrap();
    let run = magic_gen(&cut, &resume("short.state", &seeded));
    assert_refused(
        &run,
        "short.state: ",
        "118 of the pack checkpoint's 128 squares are missing",
    );
    assert_eq!(fs::read_to_string(cut.join("short.state")).unwrap(), short);
    // Resumed, both from where Ctrl-C stopped it and from the checkpoint seen before.
    fs::remove_file(cut.join("set.rs")).ok();
    magic_gen(&cut, &pack).assert_success();
    assert!(fs::read(cut.join("set.rs")).unwrap() == expected);
    assert!(fs::read(cut.join("s.state")).unwrap() == scanned);
    fs::write(cut.join("s.state"), &seen).unwrap();
    magic_gen(&cut, &pack).assert_success();
    assert!(fs::read(cut.join("set.rs")).unwrap() == expected);
}

#[test]
fn a_parallel_packing_killed_resumes_to_the_uninterrupted_set_and_keeps_its_seed_count() {
    let (whole, cut) = (scratch("seeds-whole"), scratch("seeds-cut"));
    let set = Published::Black.arg();
    let base = [
        "pack",
        set.as_str(),
        "--pack-iterations",
        "40000",
        "--pack-seeds",
        "2",
        "--checkpoint",
        "0",
    ];
    let with = |more: &[&'static str]| [&base[..], more].concat();
    // Uninterrupted on one thread; killed on two once both packings have moved, then
    // resumed on one: the same set, byte for byte.
    let one = with(&["--threads", "1", "--state", "p.pack", "--out", "set.txt"]);
    let uninterrupted = magic_gen(&whole, &one);
    uninterrupted.assert_success();
    let expected = fs::read(whole.join("set.txt")).unwrap();
    // Each packing's shortest table is reported, as its checkpoint section holds it.
    let out = &uninterrupted.stdout;
    let line = out
        .lines()
        .find(|l| l.starts_with("packings (seed, entries): "));
    let state = fs::read_to_string(whole.join("p.pack")).unwrap();
    let best: Vec<String> = state
        .lines()
        .filter_map(|l| l.strip_prefix("pack-progress "))
        .map(|l| l.rsplit(' ').next().unwrap().to_string())
        .collect();
    assert_eq!(
        line,
        Some(format!("packings (seed, entries): 1 {}, 2 {}", best[0], best[1]).as_str()),
        "{out}"
    );
    let args = with(&["--threads", "2", "--state", "p.pack", "--out", "set.txt"]);
    let both_moved = |t: &str| {
        let sections = t.split("\npack ").skip(1).collect::<Vec<_>>();
        sections.len() == 2 && sections.iter().all(|s| moves(&format!("\n{s}")) > 0)
    };
    let (_, _, left) = interrupt(&cut, &args, "p.pack", both_moved, "KILL");
    assert!(moves(&left) < 40000, "killed before the end:\n{left}");
    let resumed = magic_gen(&cut, &with(&["--resume", "p.pack", "--out", "set.txt"]));
    resumed.assert_success();
    assert_eq!(fs::read(cut.join("set.txt")).unwrap(), expected);
    // Another seed count is refused at the first section's line; damage in the second
    // section at its own line.
    let good = fs::read_to_string(cut.join("p.pack")).unwrap();
    let three = [&base[..4], &["--pack-seeds", "3", "--resume", "p.pack"]].concat();
    assert_refused(
        &magic_gen(&cut, &three),
        "p.pack:2: cannot resume: ",
        "with --pack-seeds 2, this run asks for 3: give --pack-seeds 2",
    );
    let second = good.match_indices("\npack-progress ").nth(1).unwrap().0;
    let line = good[..second].lines().count() + 1;
    let damaged = format!(
        "{}{}",
        &good[..second],
        good[second..].replacen(" length ", " length 1", 1)
    );
    fs::write(cut.join("p.pack"), &damaged).unwrap();
    let again = with(&["--resume", "p.pack", "--out", "x.txt"]);
    assert_refused(
        &magic_gen(&cut, &again),
        &format!("p.pack:{line}: cannot resume: "),
        "where its layout packs",
    );
}
