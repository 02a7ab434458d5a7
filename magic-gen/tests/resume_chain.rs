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
