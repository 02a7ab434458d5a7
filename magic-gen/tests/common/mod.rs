//! Helpers shared by the integration tests: the built binary (and, in `running`, a run of
//! it to signal), scratch directories, the committed sets and the test data.

#![allow(dead_code)]

pub mod running;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use magic_gen::set_file::Provenance;
use magic_gen::MagicSet;

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

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// Returns the command `magic-gen args...` in `cwd`, for a test that sets more than
/// [`magic_gen`] does (its environment, its streams).
pub fn command(cwd: &Path, args: &[impl AsRef<OsStr>]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_magic-gen"));
    command.args(args).current_dir(cwd);
    command
}

/// Runs `magic-gen args...` in `cwd`.
pub fn magic_gen(cwd: &Path, args: &[impl AsRef<OsStr>]) -> Run {
    let out = command(cwd, args)
        .output()
        .expect("the magic-gen binary runs");
    Run::from(out)
}

/// Runs `magic-gen args...` in `cwd` with `input` on its standard input.
pub fn magic_gen_fed(cwd: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = command(cwd, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the magic-gen binary starts");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Returns the `unfinished:` note of the set `file` in `dir` after checking that the set
/// verifies: how a test sees that a stopped run wrote a set and what its header says was
/// cut short. The header is read by the library's reader, which reads it in either format.
pub fn verified_note(dir: &Path, file: &str) -> Option<String> {
    magic_gen(dir, &["verify", file]).assert_success();
    let (_, provenance, _) = magic_gen::read_set_file(&dir.join(file)).unwrap();
    provenance.unfinished
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

/// Returns the path of a file of test data, `magic-gen/tests/data/NAME`.
pub fn test_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The published sets kept as test data: other authors' sets, credited in their headers.
#[derive(Clone, Copy, Debug)]
pub enum Published {
    /// Volker Annuss's black set of 87,988 entries.
    Black,
    /// Volker Annuss's white set of 88,772 entries (fixed shifts).
    White,
}

impl Published {
    /// Both published sets.
    pub const ALL: [Published; 2] = [Published::Black, Published::White];

    /// The file's name, as messages that name the file end.
    pub fn file_name(self) -> &'static str {
        match self {
            Published::Black => "published-black-87988.txt",
            Published::White => "published-white-88772.txt",
        }
    }

    /// The file's absolute, canonical path: runs in different directories given it record
    /// the same command.
    pub fn path(self) -> PathBuf {
        test_data(self.file_name()).canonicalize().unwrap()
    }

    /// [`Published::path`] as an argument of the binary.
    pub fn arg(self) -> String {
        self.path().to_str().unwrap().to_string()
    }

    /// The file's text.
    pub fn text(self) -> String {
        std::fs::read_to_string(self.path()).unwrap()
    }

    /// The set and its header, as the library reads them.
    pub fn read(self) -> (MagicSet, Provenance) {
        let (set, provenance, _) = magic_gen::read_set_file(&self.path()).unwrap();
        (set, provenance)
    }

    /// Copies the file into `dir` as `name`, and returns `name`: the input of a test whose
    /// command names a file in its own directory.
    pub fn copy_to<'a>(self, dir: &Path, name: &'a str) -> &'a str {
        std::fs::copy(self.path(), dir.join(name)).expect("the published set copies");
        name
    }
}

/// The committed sets: every one the runtime builds from.
pub const COMMITTED: [&str; 4] = ["fancy", "plain", "black", "black_overlay"];

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
    let (_, provenance, _) = match magic_gen::read_set_file(path) {
        Ok(ok) => ok,
        Err(e) => return Some(e.to_string()),
    };
    if provenance.steps.is_empty() {
        return Some(format!("{}: no command in its header", path.display()));
    }
    provenance
        .unfinished
        .map(|note| format!("{}: unfinished: {note}", path.display()))
}
