//! The files a hunt keeps: its state (with the packer's checkpoint once it packs) and a
//! repack's checkpoint, saved atomically and read back with errors that name the file and
//! line, and the line of such a file an error of a hunt points to.

use std::path::Path;

use crate::io::{line_of, read_error, write_atomic, write_if_changed, ReadError, WriteError};
use crate::pack::PackCheckpoint;
use crate::search::{Error, SearchState};

/// Returns the bytes of `path`, or the error that names it.
fn read(path: &Path) -> Result<Vec<u8>, ReadError> {
    std::fs::read(path).map_err(|e| {
        read_error(
            &path.display().to_string(),
            None,
            format!("cannot read: {e}"),
        )
    })
}

impl SearchState {
    /// Reads a state file, with the packer's checkpoint in it (empty: none).
    pub fn read_file(path: &Path) -> Result<(SearchState, Vec<PackCheckpoint>), ReadError> {
        SearchState::parse_with_pack(&path.display().to_string(), &read(path)?)
    }

    /// Returns true if `path` is a file that begins as a state file does (a set file, or
    /// a file that cannot be read, does not).
    pub fn is_state_file(path: &Path) -> bool {
        use std::io::Read as _;
        let mut start = [0u8; 32];
        let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut start));
        read.is_ok_and(|n| SearchState::looks_like_state(&start[..n]))
    }

    /// Saves this state, with the packer's checkpoint `pack` unless empty, to `path`
    /// atomically, unless the file holds that text already (a finished state resumed is
    /// left untouched).
    pub fn save(&self, path: &Path, pack: &[PackCheckpoint]) -> Result<(), WriteError> {
        write_if_changed(path, self.to_text_with(pack).as_bytes())
    }
}

impl PackCheckpoint {
    /// Reads a checkpoint file of a repack, one checkpoint per packing.
    pub fn read_file(path: &Path) -> Result<Vec<PackCheckpoint>, ReadError> {
        PackCheckpoint::parse_file(&path.display().to_string(), &read(path)?)
    }

    /// Saves the checkpoints of a repack's `packings` to `path` atomically.
    pub fn save_file(path: &Path, packings: &[PackCheckpoint]) -> Result<(), WriteError> {
        write_atomic(path, PackCheckpoint::file_text(packings).as_bytes())
    }
}

impl Error {
    /// Returns the line of the file this error is about that shows it, read from the
    /// file's `bytes` (the parsed state or checkpoint keeps no line numbers): of a
    /// checkpoint that does not fit, the line in its packing's section (which starts at
    /// its `pack` line); of states that do not merge, the line of the state at fault.
    pub fn line_in(&self, bytes: &[u8]) -> Option<usize> {
        match self {
            Error::Checkpoint { line, packing, .. } => {
                let text = String::from_utf8_lossy(bytes);
                let skip = text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| l.split_whitespace().next() == Some("pack"))
                    .nth(*packing)
                    .map_or(0, |(at, _)| at);
                let rest: Vec<&str> = text.lines().skip(skip).collect();
                line_of(rest.join("\n").as_bytes(), line).map(|l| l + skip)
            }
            Error::Merge { line, .. } => line_of(bytes, line.as_deref()?),
            _ => None,
        }
    }
}
