//! A run stopped and resumed with the command it prints writes what one uninterrupted run
//! writes, and its header reruns from nothing: a search stopped and resumed from its state
//! (the header's first command saving the state the resume reads), and a pack that writes
//! over its own input, stopped at any point (its input kept until the run ends), resumed
//! with the whole command the stop prints.
//!
//! Each run is stopped where it is held (`MAGIC_GEN_HOLD_AT`) or once its checkpoint is
//! saved: no verdict rests on time.

#![cfg(unix)]

mod common;

use std::fs;
use std::path::Path;

use common::running::Running;
use common::{magic_gen, scratch};

/// A small black search: two blocks of candidates per square, small pools, a short
/// packing.
const SMALL: [&str; 16] = [
    "search",
    "--variant",
    "black",
    "--candidates",
    "8192",
    "--pool",
    "2",
    "--sparse-pool",
    "0",
    "--patience",
    "20",
    "--polish",
    "0",
    "--pack-iterations",
    "200",
    "--threads=2",
];

/// Runs `args` in `dir` held at the start of `stage`, stops it there with Ctrl-C, and
/// returns its stderr.
fn stop_at(dir: &Path, args: &[&str], stage: &str) -> String {
    let mut run = Running::magic_gen(dir, args, &[("MAGIC_GEN_HOLD_AT", stage)]);
    run.wait_for(|line| line.contains(&format!("holding at {stage} until stopped")));
    let ended = run.stop("INT");
    assert_eq!(ended.code, 130, "{}", ended.stderr);
    ended.stderr
}

/// Returns the words of the command quoted in `text` after `before`, up to the closing
/// backquote (plain words: these tests name no file that needs quoting).
fn quoted_after(text: &str, before: &str) -> Vec<String> {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("{before:?} in\n{text}"))
        + before.len();
    let command = &text[at..at + text[at..].find('`').unwrap()];
    let words: Vec<String> = command.split_whitespace().map(String::from).collect();
    assert_eq!(words[0], "magic-gen", "{command}");
    words[1..].to_vec()
}

#[test]
fn a_search_stopped_and_resumed_has_a_header_that_reruns_from_nothing() {
    let dir = scratch("chain-search");
    let args = [&SMALL[..], &["--state", "r.state", "--out", "r.rs"]].concat();
    let stderr = stop_at(&dir, &args, "scan");
    // The stop's header says how to finish: run that.
    let (_, stopped, _) = magic_gen::read_set_file(&dir.join("r.rs")).unwrap();
    let note = stopped.unfinished.unwrap_or_else(|| panic!("{stderr}"));
    let finish = quoted_after(&note, "finish with `");
    assert_eq!(finish, ["search", "--resume", "r.state", "--out", "r.rs"]);
    magic_gen(&dir, &finish).assert_success();
    let resumed = fs::read(dir.join("r.rs")).unwrap();
    // Its header's commands, run in order in an empty folder, give the same file.
    let (_, provenance, _) = magic_gen::read_set_file(&dir.join("r.rs")).unwrap();
    assert_eq!(provenance.steps.len(), 2, "{:?}", provenance.steps);
    assert_eq!(provenance.steps[0].value("--state"), Some("r.state"));
    let again = scratch("chain-search-again");
    for step in &provenance.steps {
        magic_gen(&again, step.args()).assert_success();
    }
    assert!(fs::read(again.join("r.rs")).unwrap() == resumed);
}

/// The recipe of a pack in place, as the README's records run: `X.txt` packed beside
/// another set (`own.rs`), from its own layout, its set written over itself.
const IN_PLACE: [&str; 17] = [
    "pack",
    "X.txt",
    "--pack-iterations",
    "1000",
    "--pack-spread",
    "0.03",
    "--pack-seed",
    "2",
    "--from-input",
    "--also",
    "own.rs",
    "--state",
    "ip.state",
    "--checkpoint",
    "0.1",
    "--out",
    "X.txt",
];

/// Returns a fresh folder `name` holding the recipe's inputs: the published white set as
/// `X.txt`, this project's own white set as `own.rs`.
fn in_place_folder(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    common::Published::White.copy_to(&dir, "X.txt");
    fs::copy(common::record("own-white"), dir.join("own.rs")).unwrap();
    dir
}

#[test]
fn a_pack_in_place_stopped_at_any_point_resumes_with_the_printed_command() {
    let whole = in_place_folder("in-place-whole");
    magic_gen(&whole, &IN_PLACE).assert_success();
    let expected = fs::read(whole.join("X.txt")).unwrap();
    let input = common::Published::White.text().into_bytes();
    assert!(expected != input, "the packing changes nothing: no test");
    // Held before the first move; held once the packing is done; once a checkpoint is
    // saved (which may come after the last move: then the run ends as a whole one).
    for stop in ["packing", "verification", "checkpoint"] {
        let dir = in_place_folder(&format!("in-place-{stop}"));
        let stderr = if stop == "checkpoint" {
            let mut run = Running::magic_gen(&dir, &IN_PLACE, &[]);
            run.wait_until("a checkpoint", || {
                dir.join("ip.state").exists().then_some(())
            });
            run.signal("INT");
            let ended = run.end();
            assert!(ended.code == 130 || ended.code == 0, "{}", ended.stderr);
            ended.stderr
        } else {
            stop_at(&dir, &IN_PLACE, stop)
        };
        if stderr.contains("goes on from there") {
            // Stopped short: the input is kept until the run ends, and the stop prints
            // the whole command that goes on.
            assert!(fs::read(dir.join("X.txt")).unwrap() == input, "{stderr}");
            assert!(stderr.contains("X.txt is this packing's input"), "{stderr}");
            let resume = quoted_after(&stderr, "; `");
            let mut whole_command = IN_PLACE.to_vec();
            whole_command.retain(|w| !["--state", "ip.state", "--checkpoint", "0.1"].contains(w));
            assert_eq!(
                resume,
                [&whole_command[..], &["--resume", "ip.state"]].concat()
            );
            magic_gen(&dir, &resume).assert_success();
        }
        assert!(
            fs::read(dir.join("X.txt")).unwrap() == expected,
            "{stop}: not the uninterrupted set\n{stderr}"
        );
    }
}

#[test]
fn a_resume_without_the_options_of_its_checkpoint_names_every_one_that_differs() {
    let dir = in_place_folder("in-place-mismatch");
    let stderr = stop_at(&dir, &IN_PLACE, "packing");
    assert!(stderr.contains("goes on from there"), "{stderr}");
    let saved = fs::read(dir.join("ip.state")).unwrap();
    // The set alone, as the hint once said: everything else differs.
    let run = magic_gen(
        &dir,
        &["pack", "X.txt", "--resume", "ip.state", "--out", "wx.txt"],
    );
    run.assert_clean_failure();
    for option in [
        "ip.state:2: cannot resume: the checkpoint packs other magics",
        "--also",
        "give --pack-iterations 1000",
        "give --pack-seed 2",
        "--pack-spread 0.03",
        "with --from-input, this run without it",
    ] {
        assert!(run.stderr.contains(option), "{option:?} in\n{}", run.stderr);
    }
    assert!(fs::read(dir.join("ip.state")).unwrap() == saved);
    assert!(!dir.join("wx.txt").exists());
}
