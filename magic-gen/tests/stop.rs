//! Stopping a run in each of its stages (scan, polish, clump climb, pools, packing,
//! verification, writing): a verified set is written within seconds, its header saying what
//! was cut short; a stop delivered twice at once counts once; `timeout -s INT` and SIGTERM
//! stop a hunt the same way; and a batch log gets progress lines.
//!
//! Each test waits for the stage to be running before it signals: for a stage made long by
//! its options, the progress line naming it (`--progress-every 0.1`, stderr being a pipe);
//! for a stage too short to catch, `MAGIC_GEN_HOLD_AT`, which holds the run at the stage's
//! start until it is stopped. The time limits only turn a hang into a failure: each run
//! takes a second or two here. (The scan is also stopped in `cli.rs`.)

#![cfg(unix)]

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::running::{Ended, Running};
use common::{magic_gen, scratch, verified_note, Published};

/// Returns true for a progress line of `stage` (`[   1.2 s] polish: 3%, ...`).
fn progress_of(stage: &str) -> impl Fn(&str) -> bool + '_ {
    move |line| {
        line.split("] ")
            .nth(1)
            .is_some_and(|rest| rest.starts_with(&format!("{stage}:")))
    }
}

/// Returns true for the line of a run held at the start of `stage`.
fn held_at(stage: &str) -> impl Fn(&str) -> bool + '_ {
    move |line| line.contains(&format!("holding at {stage} until stopped"))
}

/// Returns the options of a small black hunt (a scan of 16384 candidates a square unless
/// `more` gives `--candidates`, pools of 8), writing `set.rs`, with `more` after them.
fn black<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["search", "--variant", "black", "--threads", "1"];
    if !more.contains(&"--candidates") {
        args.extend(["--candidates", "16384"]);
    }
    args.extend(["--progress-every", "0.1", "--out", "set.rs"]);
    args.extend_from_slice(more);
    args
}

/// Runs `args` (with `env`) until a line `ready` accepts, stops it with `signal`, and
/// returns the stderr and the set's `unfinished:` note once the run has ended.
fn stop_when(
    name: &str,
    args: &[&str],
    env: &[(&str, &str)],
    ready: impl Fn(&str) -> bool,
    signal: &str,
) -> (String, Option<String>) {
    let dir = scratch(name);
    let mut run = Running::magic_gen(&dir, args, env);
    run.wait_for(ready);
    let stderr = run.stop(signal).stderr;
    assert!(!stderr.contains("second time"), "{stderr}");
    let note = verified_note(&dir, "set.rs");
    (stderr, note)
}

#[test]
fn a_stop_during_the_scan_writes_the_set_with_the_squares_scanned() {
    let args = black(&["--candidates", "1099511627776"]);
    let (stderr, note) = stop_when("stop-scan", &args, &[], progress_of("scan"), "INT");
    let note = note.unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the scan stopped at "), "{note}");
}

#[test]
fn sigterm_during_the_polish_of_a_black_hunt_writes_the_set_within_seconds() {
    // A polish of a billion moves without improvement: hours, unless it sees the stop.
    let args = black(&["--polish", "1000000000", "--state", "run.state"]);
    let (stderr, note) = stop_when("stop-polish", &args, &[], progress_of("polish"), "TERM");
    let note = note.unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the polish stopped after "), "{note}");
    assert!(
        note.contains("finish with `magic-gen search --resume run.state"),
        "{note}"
    );
    // Said once seen (the polish may have ended by then: it ends within milliseconds).
    assert!(stderr.contains("] stopping: finishing the "), "{stderr}");
}

#[test]
fn a_stop_during_the_clump_climb_writes_the_set_within_seconds() {
    let args = [
        "search",
        "--variant",
        "white",
        "--candidates",
        "16384",
        "--threads",
        "1",
        "--polish",
        "0",
        "--clump",
        "1000000000",
        "--progress-every",
        "0.1",
        "--out",
        "set.rs",
    ];
    let (stderr, note) = stop_when("stop-clump", &args, &[], progress_of("polish"), "INT");
    let note = note.unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the polish stopped after 0 of "), "{note}");
}

#[test]
fn a_stop_while_measuring_the_pools_writes_the_greedy_layout() {
    let args = black(&["--polish", "0"]);
    let hold = [("MAGIC_GEN_HOLD_AT", "pools")];
    let (stderr, note) = stop_when("stop-pools", &args, &hold, held_at("pools"), "INT");
    let note = note.unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(
        note.starts_with("the packing stopped after 0 of 60000 moves"),
        "{note}"
    );
}

#[test]
fn a_stop_while_choosing_magics_for_the_holes_saves_no_checkpoint_and_says_rerun() {
    let published = Published::Black.arg();
    let args = [
        "pack",
        &published,
        "--holes",
        "1",
        "--from-input",
        "--threads",
        "1",
        "--state",
        "p.pack",
        "--out",
        "set.rs",
    ];
    let hold = [("MAGIC_GEN_HOLD_AT", "holes")];
    let (stderr, note) = stop_when("stop-holes", &args, &hold, held_at("holes"), "INT");
    let note = note.unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(
        note.starts_with("stopped while giving squares magics for the holes (0 of 128 done)"),
        "{note}"
    );
    assert!(note.ends_with("--holes 1 --out set.rs`"), "{note}");
    // A checkpoint of these pools would not resume: a rerun chooses the holes' magics anew.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("magic-gen-stop-holes");
    assert!(!dir.join("p.pack").exists());
}

#[test]
fn a_stop_during_the_packing_writes_the_best_layout_met() {
    let args = black(&["--polish", "0", "--pack-iterations", "1000000000"]);
    let (stderr, note) = stop_when("stop-packing", &args, &[], progress_of("packing"), "INT");
    let note = note.unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the packing stopped after "), "{note}");
    assert!(note.contains(" of 1000000000 moves"), "{note}");
}

#[test]
fn a_stopped_packing_with_short_spans_says_its_best_is_the_annealing_s() {
    // Shortening the spans after the annealing refits squares, which may shorten the
    // table: the packing's lines give the annealing's best, and say so; the set is no
    // longer. The stop is sent once a line of the annealing is seen, with a billion moves
    // to go; the stop line may name the verification instead (the packing ends within
    // milliseconds of the stop, the watcher looks every 100), so every line giving the
    // best is checked, not the stop line.
    let args = black(&[
        "--polish",
        "0",
        "--pack-iterations",
        "1000000000",
        "--short-spans",
    ]);
    let name = "stop-short-spans";
    let dir = scratch(name);
    let mut run = Running::magic_gen(&dir, &args, &[]);
    let annealing = |l: &str| progress_of("packing")(l) && l.contains(", best ");
    let seen = run.wait_for(annealing);
    let stderr = run.stop("INT").stderr;
    let note = verified_note(&dir, "set.rs").unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        note.starts_with("the packing stopped after ") && note.contains(" of 1000000000 moves"),
        "{note}"
    );
    for line in stderr.lines().filter(|l| l.contains(", best ")) {
        let best = line.split(", best ").nth(1).unwrap();
        assert!(
            best.contains(" entries before the spans are shortened"),
            "{line}"
        );
    }
    let best: usize = seen
        .split(", best ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let set = fs::read_to_string(dir.join("set.rs")).unwrap();
    let table = set
        .lines()
        .find_map(|l| l.strip_prefix("// table: "))
        .unwrap();
    let table: usize = table.split(' ').next().unwrap().parse().unwrap();
    // The best can only have shortened between the line seen and the stop.
    assert!(table <= best, "{table} > {best}");
}

#[test]
fn a_stop_during_verification_or_writing_cuts_nothing() {
    // Everything is done by then: the set is complete, its header without `unfinished:`,
    // and the exit code still says the run was stopped.
    for stage in ["verification", "writing"] {
        let args = black(&["--polish", "0", "--pack-iterations", "100"]);
        let hold = [("MAGIC_GEN_HOLD_AT", stage)];
        let name = format!("stop-{stage}");
        let (stderr, note) = stop_when(&name, &args, &hold, held_at(stage), "INT");
        assert_eq!(note, None, "{stage}");
        assert!(stderr.contains("stopped after the last step"), "{stderr}");
    }
}

#[test]
fn one_stop_delivered_twice_at_once_counts_once() {
    let dir = scratch("stop-twice");
    let args = black(&["--polish", "1000000000"]);
    let mut run = Running::magic_gen(&dir, &args, &[]);
    run.wait_for(progress_of("polish"));
    // As a supervisor signals a process and its group: the same signal, milliseconds apart.
    run.signal("INT");
    std::thread::sleep(Duration::from_millis(5));
    let stderr = run.stop("INT").stderr;
    assert!(!stderr.contains("second time"), "{stderr}");
    let note =
        verified_note(&dir, "set.rs").unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the polish stopped after "), "{note}");
}

#[test]
fn timeout_s_int_stops_a_hunt_that_still_writes_its_set() {
    // `timeout` signals the run and its own process group: one stop, delivered twice. When
    // it comes, the scan or the endless polish is running: either is cut short.
    let dir = scratch("stop-timeout");
    let binary = env!("CARGO_BIN_EXE_magic-gen");
    let mut args = vec!["-s", "INT", "2", binary];
    args.extend(black(&["--polish", "1000000000"]));
    let started = Instant::now();
    let run = Running::spawn(Command::new("timeout").args(&args).current_dir(&dir));
    let Ended { code, stderr, .. } = run.end();
    assert!(started.elapsed() >= Duration::from_secs(2));
    // 124: timeout's own code for a command it stopped.
    assert_eq!(code, 124, "{stderr}");
    assert!(!stderr.contains("second time"), "{stderr}");
    let note =
        verified_note(&dir, "set.rs").unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(
        note.starts_with("the polish stopped after ") || note.starts_with("the scan stopped"),
        "{note}"
    );
}

#[test]
fn a_stopped_merge_writes_its_best_set() {
    let dir = scratch("stop-merge");
    for shard in ["0/2", "1/2"] {
        let state = format!("{}.state", &shard[..1]);
        let args = [
            "search",
            "--variant",
            "black",
            "--candidates",
            "16384",
            "--threads",
            "1",
            "--shard",
            shard,
            "--state",
            &state,
        ];
        magic_gen(&dir, &args).assert_success();
    }
    let args = [
        "merge",
        "0.state",
        "1.state",
        "--polish",
        "1000000000",
        "--threads",
        "1",
        "--progress-every",
        "0.1",
        "--out",
        "set.rs",
    ];
    let mut run = Running::magic_gen(&dir, &args, &[]);
    run.wait_for(progress_of("polish"));
    let stderr = run.stop("TERM").stderr;
    let note =
        verified_note(&dir, "set.rs").unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the polish stopped after "), "{note}");
    assert!(note.contains("rerun `magic-gen merge "), "{note}");
}

#[test]
fn a_batch_log_gets_lines_with_stage_fraction_rate_and_time_left() {
    let dir = scratch("progress-lines");
    let published = Published::Black.arg();
    let args = [
        "pack",
        &published,
        "--pack-iterations",
        "1000000000",
        "--threads",
        "1",
        "--progress-every",
        "0.2",
        "--out",
        "set.rs",
    ];
    let mut run = Running::magic_gen(&dir, &args, &[]);
    // `[   3.4 s] packing: 0%, 2100 of 1000000000 moves, 700.0 moves a second, best 88010
    // entries, ~16 d 2 h left`, once the rate is measured.
    let line = run.wait_for(|l| progress_of("packing")(l) && l.ends_with(" left"));
    let fields: Vec<&str> = line.split(", ").collect();
    assert!(
        fields[0].contains("packing: ") && fields[0].ends_with('%'),
        "{line}"
    );
    assert!(fields[1].ends_with(" of 1000000000 moves"), "{line}");
    assert!(fields[2].ends_with(" moves a second"), "{line}");
    let left = fields.last().unwrap();
    assert!(
        left.starts_with('~') && left.chars().nth(1).unwrap().is_ascii_digit(),
        "{line}"
    );
    let Ended { stdout, stderr, .. } = run.stop("INT");
    assert!(stderr.contains("] stopping: finishing the "), "{stderr}");
    let note =
        verified_note(&dir, "set.rs").unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the packing stopped after "), "{note}");
    // The report counts the moves made, as the header does, not the billion asked.
    let made = note["the packing stopped after ".len()..]
        .split(' ')
        .next()
        .unwrap();
    assert!(
        stdout.contains(&format!(
            "this packing's {made} of its 1000000000 moves gave "
        )),
        "{stdout}"
    );
}

#[test]
fn a_stopped_search_with_a_state_file_says_the_command_that_resumes_it() {
    let args = black(&["--candidates", "1099511627776", "--state", "s.state"]);
    let (stderr, note) = stop_when("stop-scan-state", &args, &[], progress_of("scan"), "INT");
    let note = note.unwrap_or_else(|| panic!("no unfinished line:\n{stderr}"));
    assert!(note.starts_with("the scan stopped at "), "{note}");
    // The header's command, said where the run ends.
    let resume = "magic-gen search --resume s.state --out set.rs";
    assert!(note.contains(&format!("finish with `{resume}`")), "{note}");
    assert!(
        stderr.contains(&format!("`{resume}` goes on from there")),
        "{stderr}"
    );
}
