//! No output replaces what it should not: a state, checkpoint or picture aimed at a file
//! that reads as a set is refused, and so are two outputs on one path, before any work,
//! with the file left as it was; `-` names standard input or output for sets only, and a
//! state or checkpoint given `-` is refused rather than saved to a file named `-`.

#![cfg(unix)]

mod common;

use std::fs;
use std::path::Path;

use common::{magic_gen, scratch, Published};

/// Asserts that `magic-gen args...` in `dir` fails cleanly with an error containing `what`,
/// leaving the folder's files as they were (none made, none changed).
fn assert_refused_keeping(dir: &Path, args: &[&str], what: &str) {
    let before = files(dir);
    let run = magic_gen(dir, args);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains(what),
        "{args:?}: expected {what:?} in\n{}",
        run.stderr
    );
    assert_eq!(files(dir), before, "{args:?} changed the folder");
}

/// Returns every file in `dir` with its bytes, sorted by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = fs::read(e.path()).unwrap_or_default();
            (name, bytes)
        })
        .collect();
    all.sort();
    all
}

#[test]
fn a_state_checkpoint_or_picture_aimed_at_a_set_is_refused_before_any_work() {
    let dir = scratch("kept-sets");
    let text = Published::Black.copy_to(&dir, "b.txt");
    magic_gen(&dir, &["emit", text, "--out", "keep.rs"]).assert_success();
    let holds = "this file holds a set, which";
    // A search of a second: were it not refused, it would run and replace the set.
    assert_refused_keeping(&dir, &["search", "--state", "keep.rs"], holds);
    assert_refused_keeping(
        &dir,
        &["stats", "keep.rs", "--picture", "b.txt"],
        "b.txt: this file holds a set, which --picture would replace",
    );
    // The set packed, as its own checkpoint; a merge's state over a set.
    let pack = ["pack", text, "--pack-iterations", "10"];
    assert_refused_keeping(&dir, &[&pack[..], &["--state", text]].concat(), holds);
    assert_refused_keeping(&dir, &[&pack[..], &["--resume", "keep.rs"]].concat(), holds);
    assert_refused_keeping(&dir, &["merge", "x.state", "--state", "keep.rs"], holds);
    // What does not read as a set is written as before: a picture over an old picture.
    fs::write(dir.join("old.svg"), "<svg/>").unwrap();
    magic_gen(&dir, &["stats", "keep.rs", "--picture", "old.svg"]).assert_success();
    assert!(fs::read_to_string(dir.join("old.svg")).unwrap().len() > 1000);
}

#[test]
fn two_outputs_on_one_path_are_refused_before_any_work() {
    let dir = scratch("kept-one-path");
    let text = Published::Black.copy_to(&dir, "b.txt");
    fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink("same.rs", dir.join("alias.rs")).unwrap();
    let both = "both name this file";
    // The state would be lost under the set (or the set under the state).
    assert_refused_keeping(
        &dir,
        &["search", "--state", "same.rs", "--out", "same.rs"],
        both,
    );
    // Spelled differently: through a folder and back, through a symlink.
    let spelled = ["search", "--state", "sub/../same.rs", "--out", "same.rs"];
    assert_refused_keeping(&dir, &spelled, both);
    fs::write(dir.join("same.rs"), "").unwrap();
    let linked = ["search", "--state", "alias.rs", "--out", "same.rs"];
    assert_refused_keeping(&dir, &linked, both);
    // A resume saves to the file it reads unless --state names another.
    let resumed = ["search", "--resume", "same.rs", "--out", "same.rs"];
    assert_refused_keeping(&dir, &resumed, "");
    let pack = ["pack", text, "--state", "p.pack", "--out", "p.pack"];
    assert_refused_keeping(&dir, &pack, both);
    let merge = ["merge", "x.state", "--state", "m.rs", "--out", "m.rs"];
    assert_refused_keeping(&dir, &merge, both);
    // A pack in place writes its set over its input: one output, allowed.
    let in_place = ["pack", text, "--pack-iterations", "10", "--state", "p.pack"];
    magic_gen(&dir, &[&in_place[..], &["--out", text]].concat()).assert_success();
}

#[test]
fn a_state_or_checkpoint_given_dash_is_refused_not_saved_to_a_file_named_dash() {
    let dir = scratch("kept-dash");
    let text = Published::Black.copy_to(&dir, "b.txt");
    let dash = "--state -: a state or checkpoint is saved to a file";
    assert_refused_keeping(&dir, &["search", "--state", "-"], dash);
    assert_refused_keeping(&dir, &["search", "--state", "-", "--out", "-"], dash);
    assert_refused_keeping(
        &dir,
        &["pack", text, "--pack-iterations", "10", "--state", "-"],
        dash,
    );
    assert_refused_keeping(&dir, &["merge", "x.state", "--state", "-"], dash);
    assert_refused_keeping(
        &dir,
        &["pack", text, "--resume", "-"],
        "--resume -: a state or checkpoint is saved to a file",
    );
    assert_refused_keeping(
        &dir,
        &["search", "--resume", "-"],
        "--resume -: a state or checkpoint is saved to a file",
    );
    assert!(!dir.join("-").exists());
    // Where a set is written, `-` is standard output.
    let run = magic_gen(
        &dir,
        &["pack", text, "--pack-iterations", "10", "--out", "-"],
    );
    run.assert_success();
    assert!(run.stdout.starts_with("# "), "{}", run.stdout);
}
