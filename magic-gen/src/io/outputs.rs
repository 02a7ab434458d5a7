//! A run's outputs checked before any work, so that none loses a file or fails at the end
//! ([`check_outputs`]): an output other than the set aimed at a file that holds a set, two
//! outputs on one file ([`same_file`]), an output that cannot be written.

use std::fs;
use std::path::{Path, PathBuf};

use super::set_file::read_set_file;
use super::write::{check_writable, WriteError};

/// What would lose a file among a run's outputs, or keep one from being written; each
/// output named by the label the caller gave it (`L`: the option that names it, say).
#[derive(Debug)]
pub enum OutputsError<L> {
    /// An output other than the set names `path`, which holds a set it would replace.
    HoldsSet {
        /// The output.
        output: L,
        /// The path as given.
        path: PathBuf,
    },
    /// Two outputs name one file: the one written last would replace the other.
    SameFile {
        /// The output given first.
        first: L,
        /// The output given second.
        second: L,
        /// The first one's path, as given.
        path: PathBuf,
    },
    /// An output cannot be written ([`check_writable`]).
    Write(WriteError),
}

/// One output of a run: its label, its path, and whether it is the set (which may replace
/// a set).
pub type Output<'a, L> = (L, &'a Path, bool);

/// Refuses, before any work, what would lose a file among `outputs`: an output other than
/// the set aimed at a file that reads as a set, and two outputs on one file; then fails if
/// any cannot be written ([`check_writable`]).
pub fn check_outputs<L: Copy>(outputs: &[Output<'_, L>]) -> Result<(), OutputsError<L>> {
    for &(output, path, is_set) in outputs {
        if !is_set && reads_as_set(path) {
            let path = path.to_path_buf();
            return Err(OutputsError::HoldsSet { output, path });
        }
    }
    for (k, &(first, a, _)) in outputs.iter().enumerate() {
        if let Some(&(second, ..)) = outputs[k + 1..].iter().find(|(_, b, _)| same_file(a, b)) {
            let path = a.to_path_buf();
            return Err(OutputsError::SameFile {
                first,
                second,
                path,
            });
        }
    }
    for &(_, path, _) in outputs {
        check_writable(path).map_err(OutputsError::Write)?;
    }
    Ok(())
}

/// Returns true if `path` is a regular file (or a symlink to one) that reads as a set.
/// Only a regular file is read: reading a FIFO would wait for a writer.
fn reads_as_set(path: &Path) -> bool {
    let regular = fs::metadata(path).is_ok_and(|m| m.is_file());
    regular && read_set_file(path).is_ok()
}

/// Returns true if `a` and `b` name one file: the same path once symlinks and `.` and `..`
/// are resolved (of the file, or of its folder where it does not exist yet).
pub fn same_file(a: &Path, b: &Path) -> bool {
    matches!((resolved(a), resolved(b)), (Some(a), Some(b)) if a == b)
}

/// Returns `path` resolved ([`fs::canonicalize`]), or its folder resolved with its file
/// name where the file does not exist yet.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(path) = fs::canonicalize(path) {
        return Some(path);
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(path.file_name()?))
}
