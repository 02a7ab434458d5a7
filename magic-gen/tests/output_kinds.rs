//! Every command writes through one function, which never replaces what a path names: a
//! symlink keeps being a link and its target is written, a FIFO and a device are written
//! straight through and stay what they were, a directory is refused. Each kind is made in
//! a scratch folder, never the system's own (`/dev/null` once became a regular file when a
//! run as root renamed its output over it).

mod common;

use std::fs;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{magic_gen, magic_gen_fed, scratch, Published};

/// The published black set, copied into `dir` as `b.txt`: the input every test emits.
fn input(dir: &Path) -> &'static str {
    Published::Black.copy_to(dir, "b.txt")
}

/// Asserts that `text` is a complete set: `magic-gen verify -` accepts it.
fn assert_verifies(dir: &Path, text: &[u8]) {
    let out = magic_gen_fed(dir, &["verify", "-"], text);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_symlink_stays_a_link_and_the_file_it_names_is_written() {
    let dir = scratch("out-symlink");
    let set = input(&dir);
    fs::create_dir(dir.join("sets")).unwrap();
    fs::write(dir.join("sets/old.txt"), "old").unwrap();
    std::os::unix::fs::symlink("sets/old.txt", dir.join("link.txt")).unwrap();
    magic_gen(&dir, &["emit", set, "--out", "link.txt"]).assert_success();
    let link = fs::symlink_metadata(dir.join("link.txt")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert_verifies(&dir, &fs::read(dir.join("sets/old.txt")).unwrap());
    // A link to a file not there yet: the file is made where the link points.
    std::os::unix::fs::symlink("sets/new.txt", dir.join("ahead.txt")).unwrap();
    magic_gen(&dir, &["stats", set, "--picture", "ahead.txt"]).assert_success();
    assert!(fs::symlink_metadata(dir.join("ahead.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read_to_string(dir.join("sets/new.txt"))
        .unwrap()
        .contains("<svg"));
    // No temporary file is left in either folder.
    for folder in [dir.clone(), dir.join("sets")] {
        for entry in fs::read_dir(folder).unwrap() {
            let name = entry.unwrap().file_name();
            assert!(
                !name.to_string_lossy().contains(".tmp-"),
                "{name:?} left behind"
            );
        }
    }
}

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = scratch("out-fifo");
    let set = input(&dir);
    let made = Command::new("mkfifo")
        .arg(dir.join("pipe"))
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo");
    // The reader opens the FIFO first; were the FIFO replaced by a rename, it would wait
    // for a writer forever, and is killed below.
    let mut reader = Command::new("cat")
        .arg("pipe")
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let run = magic_gen(&dir, &["emit", set, "--out", "pipe"]);
    let still_fifo = fs::symlink_metadata(dir.join("pipe"))
        .unwrap()
        .file_type()
        .is_fifo();
    if !still_fifo {
        let _ = reader.kill();
    }
    let _ = reader.wait();
    assert!(still_fifo, "the FIFO was replaced");
    run.assert_success();
    let mut text = Vec::new();
    reader
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut text)
        .unwrap();
    assert_verifies(&dir, &text);
}

#[test]
fn a_device_is_written_through_and_stays_a_device() {
    let dir = scratch("out-device");
    let set = input(&dir);
    // The null device's numbers, made here: the tests run as root, as CI does.
    let made = Command::new("mknod")
        .args(["null", "c", "1", "3"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(made.success(), "mknod needs root: the tests run as root");
    magic_gen(&dir, &["emit", set, "--out", "null"]).assert_success();
    let kind = fs::symlink_metadata(dir.join("null")).unwrap().file_type();
    assert!(kind.is_char_device(), "the device was replaced");
}

#[test]
fn a_directory_is_refused_before_any_work() {
    let dir = scratch("out-directory");
    let set = input(&dir);
    fs::create_dir(dir.join("sets")).unwrap();
    let run = magic_gen(&dir, &["emit", set, "--out", "sets"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("sets: cannot write: is a directory"),
        "{}",
        run.stderr
    );
    assert!(dir.join("sets").is_dir());
    assert_eq!(fs::read_dir(dir.join("sets")).unwrap().count(), 0);
    // A search refuses it at once, before scanning.
    let run = magic_gen(&dir, &["search", "--variant", "black", "--state", "sets"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("sets: cannot write: is a directory"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("scan"), "{}", run.stderr);
}
