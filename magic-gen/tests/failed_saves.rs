//! A write that fails in the middle of a run is reported at once, with the path and the
//! reason; the run stops there as after Ctrl-C, writes the set it has where it was asked
//! to, says where, and ends non-zero. Each kind of write is made to fail on purpose: the
//! state's folder replaced by a file mid-scan, the packer's checkpoint the same way, and
//! the state and the set on a full file system (a small tmpfs, where the host lets the
//! tests mount one).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::running::{Ended, Running};
use common::{magic_gen, scratch, verified_note, Published};

/// Waits for `path` to exist (the run's first save), then puts a file where its folder
/// was, so that every later save fails; returns how the run ended. A run that never saves,
/// or goes on for a minute after the failure, is killed and fails the test.
fn break_folder_of(path: &Path, mut run: Running) -> Ended {
    run.wait_until("its first save", || path.exists().then_some(()));
    let folder = path.parent().unwrap();
    fs::remove_dir_all(folder).unwrap();
    fs::write(folder, "not a folder").unwrap();
    run.end_within(Duration::from_secs(60), "after its save failed")
}

/// Asserts the run ended with exit 1, saying at once why and where the set went, and
/// that `out` in `dir` holds a set that verifies and says it is unfinished.
fn assert_kept(dir: &Path, ended: &Ended, failed: &str, out: &str) {
    let stderr = &ended.stderr;
    assert_eq!(ended.code, 1, "{stderr}");
    let reported = format!("error: {failed}: cannot write: ");
    let first = stderr.find(&reported).unwrap_or_else(|| panic!("{stderr}"));
    // Said when it happened, before the run's own stop and summary lines.
    assert!(stderr[first..].contains("stopping"), "{stderr}");
    assert!(
        stderr.contains(&format!("its set, verified, is in {out}")),
        "{stderr}"
    );
    let note = verified_note(dir, out).unwrap_or_else(|| panic!("{stderr}"));
    assert!(note.contains("resume: rerun `magic-gen "), "{note}");
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
    let output = break_folder_of(&dir.join("d/s.state"), Running::magic_gen(&dir, &args, &[]));
    assert_kept(&dir, &output, "d/s.state", "o.txt");
}

#[test]
fn a_checkpoint_save_that_fails_mid_packing_stops_the_run_and_keeps_its_set() {
    let dir = scratch("failed-checkpoint-save");
    fs::create_dir(dir.join("d")).unwrap();
    let args = [
        "pack",
        Published::Black.copy_to(&dir, "b.txt"),
        "--pack-iterations",
        "1000000000",
        "--state",
        "d/pk.state",
        "--checkpoint",
        "0.1",
        "--out",
        "o.txt",
    ];
    let output = break_folder_of(
        &dir.join("d/pk.state"),
        Running::magic_gen(&dir, &args, &[]),
    );
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
