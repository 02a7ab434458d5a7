//! Helpers shared by the integration tests: the built binary, scratch directories and the
//! committed sets.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Asserts the run failed cleanly: exit code 1 or 2 (not a panic's 101, not a signal).
    pub fn assert_clean_failure(&self) {
        assert!(
            self.code == 1 || self.code == 2,
            "expected exit 1 or 2, got {}\nstdout:\n{}\nstderr:\n{}",
            self.code,
            self.stdout,
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        assert!(self.stderr.contains("error"), "{}", self.stderr);
    }

    /// Asserts the run succeeded.
    pub fn assert_success(&self) {
        assert_eq!(
            self.code, 0,
            "stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
    }
}

/// Runs `magic-gen args...` in `cwd`.
pub fn magic_gen(cwd: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_magic-gen"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the magic-gen binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Returns a fresh, empty scratch directory named after the test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("magic-gen-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Returns the path of a committed set, e.g. `committed("fancy")` for `magics/fancy.rs`.
pub fn committed(name: &str) -> PathBuf {
    workspace().join("magics").join(format!("{name}.rs"))
}

/// Returns the path of a record kept beside the built sets, e.g. `record("white")` for
/// `magics/records/white.rs`.
pub fn record(name: &str) -> PathBuf {
    workspace()
        .join("magics/records")
        .join(format!("{name}.rs"))
}

/// The committed sets: every one the runtime builds from.
pub const COMMITTED: [&str; 3] = ["fancy", "plain", "black"];

/// Returns the workspace root (the runtime crate's directory).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Returns every set file in `magics/` and `magics/records/`, relative to the workspace
/// (`magics/black.rs`, `magics/records/white.rs`), sorted: the built ones and the records
/// kept beside them.
pub fn every_set() -> Vec<String> {
    let mut paths = Vec::new();
    for dir in ["magics", "magics/records"] {
        let entries = std::fs::read_dir(workspace().join(dir)).expect(dir);
        paths.extend(entries.filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".rs").then(|| format!("{dir}/{name}"))
        }));
    }
    paths.sort();
    paths
}

/// Returns why the set file at `path` cannot be a committed set, or `None` if it can: it
/// must read, record the commands that made it, and say nothing of an unfinished run (an
/// interrupted scan or packing, a partial merge), whose set its command does not give.
pub fn not_committable(path: &Path) -> Option<String> {
    let (_, provenance) = match magic_gen::read_set_file(path) {
        Ok(ok) => ok,
        Err(e) => return Some(e.to_string()),
    };
    if provenance.command.is_none() {
        return Some(format!("{}: no command in its header", path.display()));
    }
    provenance
        .unfinished
        .map(|note| format!("{}: unfinished: {note}", path.display()))
}
