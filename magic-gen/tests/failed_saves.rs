//! A write that fails in the middle of a run is reported at once, with the path and the
//! reason; the run stops there as after Ctrl-C, writes the set it has where it was asked
//! to, says where, and ends non-zero. Each kind of write is made to fail on purpose: the
//! state's folder replaced by a file mid-scan, the packer's checkpoint the same way, and
//! the state and the set on a full file system (a small tmpfs, where the host lets the
//! tests mount one).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::{magic_gen, scratch};

/// Starts `magic-gen args` in `dir`, its output kept.
fn start(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_magic-gen"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("magic-gen starts")
}

/// Waits for `path` to exist (the run's first save), then puts a file where its folder
/// was, so that every later save fails; returns the run's output. A run that never saves,
/// or goes on after the failure, is killed after a minute and fails the test.
fn break_folder_of(path: &Path, mut child: Child) -> Output {
    let started = Instant::now();
    while !path.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no save was made"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before its first save"
        );
        sleep(Duration::from_millis(20));
    }
    let folder = path.parent().unwrap();
    fs::remove_dir_all(folder).unwrap();
    fs::write(folder, "not a folder").unwrap();
    let broken = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if broken.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the run went on after its save failed");
        }
        sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Asserts the run ended with exit 1, saying at once why and where the set went, and
/// that `out` in `dir` holds a set that verifies and says it is unfinished.
fn assert_kept(dir: &Path, output: &Output, failed: &str, out: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let reported = format!("error: {failed}: cannot write: ");
    let first = stderr.find(&reported).unwrap_or_else(|| panic!("{stderr}"));
    // Said when it happened, before the run's own stop and summary lines.
    assert!(stderr[first..].contains("stopping"), "{stderr}");
    assert!(
        stderr.contains(&format!("its set, verified, is in {out}")),
        "{stderr}"
    );
    magic_gen(dir, &["verify", out]).assert_success();
    let set = fs::read_to_string(dir.join(out)).unwrap();
    assert!(set.contains("unfinished: "), "{set}");
    assert!(set.contains("resume: rerun `magic-gen "), "{set}");
}

#[test]
fn a_state_save_that_fails_mid_scan_stops_the_run_and_keeps_its_set() {
    let dir = scratch("failed-state-save");
    fs::create_dir(dir.join("d")).unwrap();
    // A budget far beyond the minute the test allows: only the failed save ends it.
    let args = [
        "search",
        "--variant",
        "black",
        "--candidates",
        "100000000000",
        "--pack-iterations",
        "0",
        "--state",
        "d/s.state",
        "--checkpoint",
        "0.1",
        "--out",
        "o.txt",
    ];
    let output = break_folder_of(&dir.join("d/s.state"), start(&dir, &args));
    assert_kept(&dir, &output, "d/s.state", "o.txt");
}

#[test]
fn a_checkpoint_save_that_fails_mid_packing_stops_the_run_and_keeps_its_set() {
    let dir = scratch("failed-checkpoint-save");
    fs::create_dir(dir.join("d")).unwrap();
    let published = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/published-black-87988.txt"
    );
    fs::copy(published, dir.join("b.txt")).unwrap();
    let args = [
        "pack",
        "b.txt",
        "--pack-iterations",
        "1000000000",
        "--state",
        "d/pk.state",
        "--checkpoint",
        "0.1",
        "--out",
        "o.txt",
    ];
    let output = break_folder_of(&dir.join("d/pk.state"), start(&dir, &args));
    assert_kept(&dir, &output, "d/pk.state", "o.txt");
}

/// A tmpfs of `kib` KiB mounted at a new folder in `dir` and filled, unmounted when
/// dropped; `None`
/// where the host does not let the tests mount one.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(dir: &Path, kib: u32) -> Option<SmallDisk> {
        let at = dir.join("small");
        fs::create_dir(&at).unwrap();
        let size = format!("size={kib}k");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &size, "tmpfs"])
            .arg(&at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!("no tmpfs could be mounted here: the full-disk case is not run");
            return None;
        }
        // Filled to the last byte: every later write fails.
        let mut filler = fs::File::create(at.join("filler")).unwrap();
        let block = [0u8; 4096];
        while std::io::Write::write(&mut filler, &block).is_ok_and(|n| n > 0) {}
        Some(SmallDisk(at))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_under_the_state_or_the_set_is_reported_and_the_other_kept() {
    let dir = scratch("full-disk");
    let Some(disk) = SmallDisk::mount(&dir, 8) else {
        return;
    };
    // 8 KiB holds neither a black state nor a black set.
    let quick = ["search", "--variant", "fancy"];
    let state = format!("{}/s.state", disk.0.display());
    let args: Vec<&str> = quick
        .iter()
        .copied()
        .chain(["--state", &state, "--out", "o.txt"])
        .collect();
    let run = magic_gen(&dir, &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("error: {state}: cannot write: ")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("No space left on device"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("its set, verified, is in o.txt"),
        "{}",
        run.stderr
    );
    magic_gen(&dir, &["verify", "o.txt"]).assert_success();
    // The set on the full disk: the state, saved elsewhere, holds the run, and the error
    // says how to get the set from it.
    let out = format!("{}/o.txt", disk.0.display());
    let args: Vec<&str> = quick
        .iter()
        .copied()
        .chain(["--state", "s.state", "--out", &out])
        .collect();
    let run = magic_gen(&dir, &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("{out}: cannot write: ")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("the run's state is saved in s.state: `magic-gen search --resume s.state"),
        "{}",
        run.stderr
    );
    // Nothing half-written is left on the full disk: the filler alone.
    assert_eq!(fs::read_dir(&disk.0).unwrap().count(), 1);
    let resumed = magic_gen(
        &dir,
        &["search", "--resume", "s.state", "--out", "again.txt"],
    );
    resumed.assert_success();
}
