//! The files a hunt keeps: its state (with the packer's checkpoint once it packs) and a
//! repack's checkpoint, saved atomically and read back with errors that name the file and
//! line.

use std::path::Path;

use crate::io::{write_atomic, write_if_changed, ReadError, WriteError};
use crate::pack::PackCheckpoint;
use crate::search::SearchState;

/// Returns the bytes of `path`, or the error that names it.
fn read(path: &Path) -> Result<Vec<u8>, ReadError> {
    std::fs::read(path).map_err(|e| ReadError {
        file: path.display().to_string(),
        line: None,
        message: format!("cannot read: {e}"),
    })
}

impl SearchState {
    /// Reads a state file, with the packer's checkpoint in it (empty: none).
    pub fn read_file(path: &Path) -> Result<(SearchState, Vec<PackCheckpoint>), ReadError> {
        SearchState::parse_with_pack(&path.display().to_string(), &read(path)?)
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
