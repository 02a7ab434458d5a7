//! Outputs are never half-written. First deterministically: a run made to crash (abort)
//! half-way through writing its output, by the `MAGIC_GEN_CRASH_AFTER_BYTES` hook, leaves
//! the old file byte for byte, with the partial temporary file (`X.tmp-PID`) beside it as
//! proof that the crash landed mid-write. Then at random: `magic-gen emit ... --out X` and
//! `magic-gen search ... --out X` are killed (SIGKILL) at seeded random moments, many of
//! them near the end of the run, and after every kill `X` must be byte for byte either
//! the file it replaced or the complete new one (which verifies). Temporary files the
//! killed runs leave behind must not matter: a later complete run still writes the right
//! file.

mod common;

use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::running::Running;
use common::{command, committed, magic_gen, scratch};

/// xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Runs `magic-gen args` in `dir` to completion; returns how long it took.
fn run_to_end(dir: &Path, args: &[String]) -> Duration {
    let start = Instant::now();
    magic_gen(dir, args).assert_success();
    start.elapsed()
}

/// Starts `magic-gen args` in `dir` and SIGKILLs it after `delay` (if still running).
/// Returns whether it was killed before it finished.
fn run_and_kill(dir: &Path, args: &[String], delay: Duration) -> bool {
    let run = Running::magic_gen(dir, args, &[]);
    sleep(delay);
    run.kill()
}

fn temp_files(dir: &Path, out: &str) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("{out}.tmp-")))
        .collect()
}

/// Alternates two commands writing `out`, killing each run at random, and checks the
/// file after every run. `commands` produce different content for the same output path.
fn kill_during_writes(name: &str, out: &str, commands: [Vec<String>; 2], runs: usize, seed: u64) {
    let dir = scratch(name);
    // The complete output of each command, and how long a run takes.
    let mut expected = Vec::new();
    let mut longest = Duration::ZERO;
    for args in &commands {
        longest = longest.max(run_to_end(&dir, args));
        expected.push(fs::read(dir.join(out)).unwrap());
    }
    assert_ne!(
        expected[0], expected[1],
        "the two commands must write different files"
    );
    let mut current = 1; // expected[1] is on disk now.
    let mut rng = Rng(seed);
    let (mut killed, mut killed_with_temp, mut finished) = (0, 0, 0);
    for run in 0..runs {
        let next = run % 2;
        // Half the kills anywhere in the run, half in its last 40% (verification is done
        // and the file is being written), some just after the end.
        // Capped, so that a slow run (a loaded machine) cannot make the test crawl: kills
        // then land earlier in the run, which must be just as safe.
        let span = longest.min(Duration::from_secs(3)).as_micros() as u64;
        let micros = if rng.next() % 2 == 0 {
            rng.next() % (span + 1)
        } else {
            span * 6 / 10 + rng.next() % (span / 2 + 1)
        };
        let temps_before = temp_files(&dir, out).len();
        let was_killed = run_and_kill(&dir, &commands[next], Duration::from_micros(micros));
        let now = fs::read(dir.join(out)).expect("the output file never disappears");
        let temps_after = temp_files(&dir, out).len();
        if now == expected[next] {
            current = next;
        } else {
            assert_eq!(
                now, expected[current],
                "run {run} ({:?}, killed after {micros} us): the file is neither the old \
                 nor the new complete content",
                commands[next]
            );
        }
        if was_killed {
            killed += 1;
            if temps_after > temps_before {
                killed_with_temp += 1;
            }
        } else {
            finished += 1;
        }
    }
    // What the file holds reads back and verifies.
    let (set, _, _) = magic_gen::read_set_file(&dir.join(out)).expect("the output reads back");
    magic_gen::verify(&set).expect("the output verifies");
    // Stray temporary files of killed runs do not affect a later complete run.
    let strays = temp_files(&dir, out);
    let other = 1 - current;
    run_to_end(&dir, &commands[other]);
    assert_eq!(fs::read(dir.join(out)).unwrap(), expected[other]);
    println!(
        "{name}: {runs} runs, {killed} killed ({killed_with_temp} while the temporary file \
         existed), {finished} finished; {} stray temporary files, none ever read as {out}",
        strays.len()
    );
}

/// Runs `new` in a directory where `old` wrote `out`, crashing half-way through the write
/// of `out`; checks the old file is intact and the partial temporary file proves where
/// the crash landed; then a complete run of `new` writes the new file.
fn crash_mid_write(name: &str, out: &str, old: &[String], new: &[String]) {
    let dir = scratch(name);
    run_to_end(&dir, new);
    let new_bytes = fs::read(dir.join(out)).unwrap();
    run_to_end(&dir, old);
    let old_bytes = fs::read(dir.join(out)).unwrap();
    assert_ne!(
        old_bytes, new_bytes,
        "the two commands must write different files"
    );
    let half = new_bytes.len() / 2;
    let status = command(&dir, new)
        .env("MAGIC_GEN_CRASH_AFTER_BYTES", half.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the magic-gen binary runs");
    assert!(
        !status.success(),
        "{new:?} was meant to crash while writing"
    );
    assert_eq!(
        fs::read(dir.join(out)).unwrap(),
        old_bytes,
        "{new:?} crashed mid-write: {out} must still be the old file"
    );
    let temps = temp_files(&dir, out);
    assert_eq!(temps.len(), 1, "one partial temporary file: {temps:?}");
    let partial = fs::read(dir.join(&temps[0])).unwrap();
    assert_eq!(
        partial,
        new_bytes[..half],
        "the crash landed half-way through the write"
    );
    run_to_end(&dir, new);
    assert_eq!(fs::read(dir.join(out)).unwrap(), new_bytes);
}

/// The two commands writing `out` from different sets: emit the fancy set, emit the
/// plain one.
fn emits(out: &str) -> [Vec<String>; 2] {
    ["fancy", "plain"].map(|name| {
        let set = committed(name).to_string_lossy().into_owned();
        args(&["emit", &set, "--out", out])
    })
}

/// A plain search seeded `seed` writing `set.rs`, with `more` options.
fn plain_search(seed: &str, more: &[&str]) -> Vec<String> {
    let search = ["search", "--variant", "plain", "--seed", seed];
    args(&[&search[..], more, &["--out", "set.rs"]].concat())
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_crash_mid_write_leaves_the_old_file() {
    for out in ["set.txt", "set.rs"] {
        let [fancy, plain] = emits(out);
        crash_mid_write(&format!("crash-emit-{out}"), out, &plain, &fancy);
    }
    let (old, new) = (plain_search("1", &[]), plain_search("2", &[]));
    crash_mid_write("crash-search", "set.rs", &old, &new);
}

#[test]
fn emit_killed_at_random_leaves_the_old_or_the_new_file() {
    for out in ["set.txt", "set.rs"] {
        let name = format!("atomic-emit-{out}");
        let seed = 0x0a70_a11c_0001 + out.len() as u64;
        kill_during_writes(&name, out, emits(out), 40, seed);
    }
}

#[test]
fn search_killed_at_random_leaves_the_old_or_the_new_file() {
    let threads = ["--threads", "2"];
    let searches = [plain_search("1", &threads), plain_search("2", &threads)];
    kill_during_writes("atomic-search", "set.rs", searches, 12, 0x0a70_a11c_0002);
}
