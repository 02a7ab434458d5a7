//! A run's outputs checked before any work, so that none loses a file or fails at the end
//! ([`check_outputs`]): an output other than the set aimed at a file that holds a set, two
//! outputs on one file ([`same_file`]), an output that cannot be written, a state or
//! checkpoint given standard output (`-`, [`is_stdio`]), which is for sets.

use std::fmt;
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
    /// A state or checkpoint, saved again and again and read back, given standard input or
    /// output (`-`): the option naming it.
    Stdio(L),
}

impl<L: fmt::Display> fmt::Display for OutputsError<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputsError::HoldsSet { output, path } => write!(
                f,
                "{}: this file holds a set, which {output} would replace: give {output} a file \
                 of its own",
                path.display()
            ),
            OutputsError::SameFile {
                first,
                second,
                path,
            } => write!(
                f,
                "{}: {first} and {second} both name this file, and the one written last would \
                 replace the other: give each its own file",
                path.display()
            ),
            OutputsError::Write(e) => write!(f, "{e}"),
            OutputsError::Stdio(option) => write!(
                f,
                "{option} -: a state or checkpoint is saved to a file, again and again, and \
                 read back by --resume; `-` (standard input or output) is for sets: give a \
                 file name"
            ),
        }
    }
}

/// Returns true if `path` is `-`: standard input where a file is read, standard output
/// where one is written.
pub(crate) fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Returns the file a run saves its state or checkpoint to (`state`, else the `resume`
/// file it goes on from), once it and the set's `out` pass [`check_run_outputs`].
pub(crate) fn state_file(
    state: Option<&Path>,
    resume: Option<&Path>,
    out: Option<&Path>,
) -> Result<Option<PathBuf>, OutputsError<&'static str>> {
    let option = if state.is_some() {
        "--state"
    } else {
        "--resume"
    };
    let state = state.or(resume);
    if let Some(path) = state {
        refuse_stdio_state(option, path)?;
    }
    let others: Vec<(&str, &Path)> = state.map(|p| (option, p)).into_iter().collect();
    check_run_outputs(out, &others)?;
    Ok(state.map(Path::to_path_buf))
}

/// Refuses `-` as the file of a state or checkpoint (named by `option`): one is saved again
/// and again during a run and read back by `--resume`, which standard input and output
/// cannot do.
pub(crate) fn refuse_stdio_state<L>(option: L, path: &Path) -> Result<(), OutputsError<L>> {
    match is_stdio(path) {
        true => Err(OutputsError::Stdio(option)),
        false => Ok(()),
    }
}

/// Refuses, before any work, what would lose a file among a run's outputs
/// ([`check_outputs`]): the set's `out` and the `others` (a state, checkpoint or picture,
/// each labelled by the option naming it). Standard output (`-`) is no file.
pub(crate) fn check_run_outputs<'a>(
    out: Option<&Path>,
    others: &[(&'a str, &Path)],
) -> Result<(), OutputsError<&'a str>> {
    let set = out.map(|p| ("--out", p, true));
    let others = others.iter().map(|&(option, path)| (option, path, false));
    let files: Vec<_> = set
        .into_iter()
        .chain(others)
        .filter(|o| !is_stdio(o.1))
        .collect();
    check_outputs(&files)
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
/// are resolved (of the file, or of its folder where it does not exist yet). Standard input
/// or output (`-`) is no file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    !is_stdio(a)
        && !is_stdio(b)
        && matches!((resolved(a), resolved(b)), (Some(a), Some(b)) if a == b)
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
