//! `pack --overlay` through the command line: a black set's magics laid out in an overlay
//! table (variant `black-overlay`), written, verified by the overlay rule, emitted in the
//! other format and rerun from its header to the same bytes; the exact packing's options
//! and other variants refused before any work; a stopped overlay packing's checkpoint
//! resumed to the set of an uninterrupted one.

mod common;

use std::fs;
use std::path::PathBuf;

use common::{magic_gen, record, scratch, verified_note};
use magic_gen::set_file::Step;
use magic_gen::{read_set_file, verify, Variant};

/// Returns a fresh scratch directory named after the test, with `own.rs`, the committed
/// black record.
fn with_own_black(name: &str) -> PathBuf {
    let dir = scratch(name);
    fs::copy(record("own-black"), dir.join("own.rs")).unwrap();
    dir
}

/// Returns the command that packs `own.rs` into an overlay table with `moves` moves,
/// writing `ov.rs`.
fn overlay_of_own(moves: &str) -> [&str; 7] {
    [
        "pack",
        "own.rs",
        "--overlay",
        "--pack-iterations",
        moves,
        "--out",
        "ov.rs",
    ]
}

#[test]
fn pack_overlay_writes_a_black_overlay_set_that_reruns_from_its_header() {
    let dir = with_own_black("overlay");
    magic_gen(&dir, &overlay_of_own("3")).assert_success();
    let (set, provenance, _) = read_set_file(&dir.join("ov.rs")).unwrap();
    assert_eq!(set.variant, Variant::BlackOverlay);
    let (own, _, _) = read_set_file(&dir.join("own.rs")).unwrap();
    let (len, exact) = (
        verify(&set).unwrap().report.table_len,
        verify(&own).unwrap().report.table_len,
    );
    assert!(len < exact, "{len} of {exact}");
    let text = fs::read_to_string(dir.join("ov.rs")).unwrap();
    assert!(
        text.contains("// variant: black-overlay, index = table["),
        "{text}"
    );
    // The header's last command writes the same bytes again.
    let last = &provenance.steps[provenance.steps.len() - 1];
    assert_eq!(last.value("--pack-iterations"), Some("3"), "{last}");
    assert!(last.has("--overlay"), "{last}");
    fs::rename(dir.join("ov.rs"), dir.join("first.rs")).unwrap();
    magic_gen(&dir, last.args()).assert_success();
    assert!(fs::read(dir.join("ov.rs")).unwrap() == fs::read(dir.join("first.rs")).unwrap());
    // Emitted in the text format, it reads and verifies as the same set.
    magic_gen(&dir, &["emit", "ov.rs", "--out", "ov.txt"]).assert_success();
    let run = magic_gen(&dir, &["verify", "ov.txt"]);
    run.assert_success();
    assert!(run.stdout.contains("black-overlay set"), "{}", run.stdout);
    assert_eq!(read_set_file(&dir.join("ov.txt")).unwrap().0, set);
}

#[test]
fn pack_overlay_refuses_the_exact_packings_options_and_other_variants() {
    let dir = with_own_black("overlay-refused");
    fs::copy(record("own-white"), dir.join("white.rs")).unwrap();
    for option in ["--from-input", "--rooks-first", "--negative-offsets"] {
        let run = magic_gen(&dir, &["pack", "own.rs", "--overlay", option]);
        assert_eq!(run.code, 2, "{option}: {}", run.stderr);
        assert!(run.stderr.contains(option), "{}", run.stderr);
    }
    let run = magic_gen(&dir, &["pack", "white.rs", "--overlay", "--out", "w.rs"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("from black or fancy magics"),
        "{}",
        run.stderr
    );
    assert!(!dir.join("w.rs").exists());
}

#[cfg(unix)]
#[test]
fn a_stopped_overlay_packing_saves_a_checkpoint_that_resumes_to_the_uninterrupted_set() {
    // Held at the packing's start and stopped there: none of its moves made, and the
    // checkpoint saved says so.
    let dir = with_own_black("overlay-stopped");
    let hold = [("MAGIC_GEN_HOLD_AT", "packing")];
    let saving = [&overlay_of_own("200")[..], &["--state", "ov.pack"]].concat();
    let mut run = common::running::Running::magic_gen(&dir, &saving, &hold);
    run.wait_for(|line| line.contains("holding at packing until stopped"));
    let stderr = run.stop("INT").stderr;
    assert!(
        stderr.contains("interrupted after 0 of 200 packing moves: the set above is the best"),
        "{stderr}"
    );
    let note = verified_note(&dir, "ov.rs").unwrap_or_else(|| panic!("{stderr}"));
    let resume = note
        .strip_prefix("the packing stopped after 0 of 200 moves; finish with `")
        .and_then(|r| r.strip_suffix('`'))
        .unwrap_or_else(|| panic!("{note}"));
    let resume = Step::parse(resume).unwrap();
    assert!(
        resume.has("--overlay") && resume.has("--resume"),
        "{resume}"
    );
    magic_gen(&dir, resume.args()).assert_success();
    assert_eq!(verified_note(&dir, "ov.rs"), None);
    let resumed = fs::read(dir.join("ov.rs")).unwrap();
    magic_gen(&dir, &overlay_of_own("200")).assert_success();
    assert!(resumed == fs::read(dir.join("ov.rs")).unwrap());
}

/// A small black hunt in two shards.
const SHARDED: [&str; 12] = [
    "search",
    "--variant",
    "black",
    "--candidates",
    "4096",
    "--pool",
    "2",
    "--polish",
    "0",
    "--pack-iterations",
    "2",
    "--overlay",
];

#[test]
fn a_search_and_a_merge_pack_an_overlay_table_as_the_state_records() {
    let dir = scratch("overlay-search");
    let run = |args: &[&str]| magic_gen(&dir, args);
    run(&[&SHARDED[..], &["--out", "whole.rs"]].concat()).assert_success();
    let (whole, provenance, _) = read_set_file(&dir.join("whole.rs")).unwrap();
    assert_eq!(whole.variant, Variant::BlackOverlay);
    assert!(provenance.steps[0].has("--overlay"));
    // Two shards and their merge: the states record the overlay, so the merge packs one
    // without being told, and gives the whole run's set.
    for k in 0..2 {
        let shard = format!("{k}/2");
        let state = format!("s{k}.state");
        run(&[&SHARDED[..], &["--shard", &shard, "--state", &state]].concat()).assert_success();
        let text = fs::read_to_string(dir.join(&state)).unwrap();
        assert!(text.contains(" overlay 1"), "{text}");
    }
    run(&["merge", "s0.state", "s1.state", "--out", "merged.rs"]).assert_success();
    assert_eq!(read_set_file(&dir.join("merged.rs")).unwrap().0, whole);
    // The exact packing's settings and other variants are refused.
    let short = run(&[&SHARDED[..], &["--short-spans"]].concat());
    assert_eq!(short.code, 2, "{}", short.stderr);
    assert!(short
        .stderr
        .contains("--short-spans is an option of the exact packing"));
    let white = run(&[
        "search",
        "--variant",
        "white",
        "--candidates",
        "4096",
        "--overlay",
    ]);
    white.assert_clean_failure();
    assert!(
        white.stderr.contains("from black or fancy magics"),
        "{}",
        white.stderr
    );
}

#[test]
fn pack_overlay_lays_fancy_magics_out_as_a_fancy_overlay_set() {
    let dir = scratch("overlay-fancy");
    fs::copy(common::committed("fancy"), dir.join("fancy.rs")).unwrap();
    let args = ["pack", "fancy.rs", "--overlay", "--out", "fo.txt"];
    magic_gen(&dir, &args).assert_success();
    let (set, _, _) = read_set_file(&dir.join("fo.txt")).unwrap();
    assert_eq!(set.variant, Variant::FancyOverlay);
    let (fancy, _, _) = read_set_file(&dir.join("fancy.rs")).unwrap();
    // The same magics and bits, laid out over each other.
    for (a, b) in set
        .entries
        .iter()
        .flatten()
        .zip(fancy.entries.iter().flatten())
    {
        assert_eq!((a.magic, a.bits), (b.magic, b.bits));
    }
    let (len, exact) = (
        verify(&set).unwrap().report.table_len,
        verify(&fancy).unwrap().report.table_len,
    );
    assert!(len * 3 < exact * 2, "{len} of {exact}");
    // Without --overlay a fancy set has no packing.
    let run = magic_gen(&dir, &["pack", "fancy.rs", "--out", "x.txt"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("overlays them: --overlay"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_overlay_set_and_a_black_set_lend_each_other_magics_but_no_other_index_does() {
    let dir = scratch("overlay-also");
    fs::copy(record("own-black"), dir.join("own.rs")).unwrap();
    fs::copy(record("own-white"), dir.join("white.rs")).unwrap();
    let first = [
        "pack",
        "own.rs",
        "--overlay",
        "--pack-iterations",
        "0",
        "--out",
        "ov.rs",
    ];
    magic_gen(&dir, &first).assert_success();
    // The same index read through the rays or not: either set's magics join the other's.
    let args = [
        "pack",
        "ov.rs",
        "--overlay",
        "--also",
        "own.rs",
        "--out",
        "ov2.rs",
    ];
    magic_gen(&dir, &args).assert_success();
    let (set, _, _) = read_set_file(&dir.join("ov2.rs")).unwrap();
    assert_eq!(set.variant, Variant::BlackOverlay);
    verify(&set).expect("verifies by the overlay rule");
    let args = ["pack", "own.rs", "--also", "ov.rs", "--out", "exact.rs"];
    magic_gen(&dir, &args).assert_success();
    // White magics index otherwise.
    let args = [
        "pack",
        "ov.rs",
        "--overlay",
        "--also",
        "white.rs",
        "--out",
        "no.rs",
    ];
    let run = magic_gen(&dir, &args);
    assert!(
        run.stderr
            .contains("a white set's magics cannot join a black-overlay set's pools"),
        "{}",
        run.stderr
    );
    assert!(!dir.join("no.rs").exists());
}

#[test]
fn a_repack_that_keeps_its_overlay_input_counts_the_moves_it_made() {
    let dir = scratch("overlay-kept");
    fs::copy(record("own-black-overlay"), dir.join("ov.rs")).unwrap();
    let args = [
        "pack",
        "ov.rs",
        "--overlay",
        "--pack-iterations",
        "4",
        "--pack-seeds",
        "2",
        "--out",
        "again.rs",
    ];
    let run = magic_gen(&dir, &args);
    run.assert_success();
    // The hunt's layout chose among pools: one magic a square packs longer in 4 moves.
    assert!(
        run.stdout.contains("this packing's 8 moves gave "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("the input's layout is kept"),
        "{}",
        run.stdout
    );
}
