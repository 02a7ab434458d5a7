//! Every file the generator writes, written whole or not at all: a regular file (or a new
//! path) by a temporary file renamed over it, the file a symlink names (the link stays a
//! link), a FIFO or a device straight through (a rename would replace it with a regular
//! file). Sets, states and checkpoints all go through [`write_atomic`].

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a file could not be written, with the path as the caller gave it.
#[derive(Debug)]
pub enum WriteError {
    /// The system refused: reading the path, a link, creating, writing or renaming.
    Io {
        /// The path given.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The path (or the file its symlinks name) is a directory.
    Directory {
        /// The path given.
        path: PathBuf,
    },
    /// More than `hops` symbolic links in a row: taken to loop.
    SymlinkLoop {
        /// The path given.
        path: PathBuf,
        /// The links followed before giving up, as the kernel's own limit.
        hops: usize,
    },
    /// The path ends in no file name (`..`, `/`).
    NotAFileName {
        /// The path given.
        path: PathBuf,
    },
    /// The directory the file would go in does not exist.
    NoDirectory {
        /// The path given.
        path: PathBuf,
        /// The directory missing (of the file its symlinks name).
        dir: PathBuf,
    },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path().display();
        match self {
            WriteError::Io { error, .. } => write!(f, "{path}: cannot write: {error}"),
            WriteError::Directory { .. } => {
                write!(f, "{path}: cannot write: is a directory (give a file name)")
            }
            WriteError::SymlinkLoop { hops, .. } => {
                write!(
                    f,
                    "{path}: cannot write: more than {hops} symbolic links in a row"
                )
            }
            WriteError::NotAFileName { .. } => write!(f, "{path}: not a file name"),
            WriteError::NoDirectory { dir, .. } => write!(
                f,
                "{path}: cannot write: directory {} does not exist",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for WriteError {}

impl WriteError {
    /// Returns the path the caller gave.
    pub fn path(&self) -> &Path {
        match self {
            WriteError::Io { path, .. }
            | WriteError::Directory { path }
            | WriteError::SymlinkLoop { path, .. }
            | WriteError::NotAFileName { path }
            | WriteError::NoDirectory { path, .. } => path,
        }
    }
}

/// Symlinks followed before a path is taken to loop, as the kernel's own limit.
const SYMLINK_HOPS: usize = 40;

/// What a path given to write names.
enum Destination {
    /// A regular file, or nothing yet: written atomically, by a rename over it. A symlink
    /// has been followed to this, the file it names, so that the link stays a link.
    File(PathBuf),
    /// A FIFO, a device or a socket: written straight through, as a shell's `>` does, since
    /// a rename would replace it with a regular file (`--out /dev/null` run as root).
    Special(PathBuf),
}

/// Returns what `path` names for writing, symlinks followed; a directory is an error.
fn destination(path: &Path) -> Result<Destination, WriteError> {
    let io = |error| WriteError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut target = path.to_path_buf();
    for _ in 0..SYMLINK_HOPS {
        let meta = match fs::symlink_metadata(&target) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Destination::File(target))
            }
            Err(e) => return Err(io(e)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = fs::read_link(&target).map_err(io)?;
            // A relative link is relative to the folder the link is in.
            target = match target.parent() {
                Some(dir) => dir.join(link),
                None => link,
            };
        } else if kind.is_dir() {
            let path = path.to_path_buf();
            return Err(WriteError::Directory { path });
        } else if kind.is_file() {
            return Ok(Destination::File(target));
        } else {
            return Ok(Destination::Special(target));
        }
    }
    Err(WriteError::SymlinkLoop {
        path: path.to_path_buf(),
        hops: SYMLINK_HOPS,
    })
}

/// Returns the directory a file `target` goes in (`.` for a bare name).
fn folder_of(target: &Path) -> &Path {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `contents` to `path` without replacing what is there: atomically for a regular
/// file or a new path (a temporary file in the same directory, flushed to disk, then
/// renamed over it; on failure the temporary file is removed and the old file is left as
/// it was), to the file a symlink names (the link stays), and straight through for a FIFO
/// or a device (never replaced). A directory is refused.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    let io = |error| WriteError::Io {
        path: path.to_path_buf(),
        error,
    };
    let target = match destination(path)? {
        Destination::File(target) => target,
        Destination::Special(target) => {
            return fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .and_then(|mut f| f.write_all(contents).and_then(|()| f.flush()))
                .map_err(io);
        }
    };
    let Some(name) = target.file_name() else {
        let path = path.to_path_buf();
        return Err(WriteError::NotAFileName { path });
    };
    let dir = folder_of(&target);
    let mut tmp_name = name.to_os_string();
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        if let Some(n) = crash_after_bytes() {
            // The test hook: die like a killed process, part of the way through the write.
            f.write_all(&contents[..n.min(contents.len())])?;
            f.sync_all()?;
            std::process::abort();
        }
        f.write_all(contents)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, &target)?;
        // Make the rename itself durable where the platform allows opening a directory.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io(e)
    })
}

/// Writes `contents` to `path` as [`write_atomic`] does, unless `path` is a regular file
/// (a symlink to one included) that holds them already: a finished state saved again is
/// left untouched. (Reading a FIFO to compare would wait for a writer.)
#[cfg(feature = "search")]
pub(crate) fn write_if_changed(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    let regular = fs::metadata(path).is_ok_and(|m| m.is_file());
    if regular && fs::read(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    write_atomic(path, contents)
}

/// The environment variable that makes [`write_atomic`] abort the process after writing
/// this many bytes of the temporary file: how `tests/atomic_write.rs` crashes a run in the
/// middle of a write deterministically, instead of hoping a timed kill lands there.
const CRASH_AFTER_BYTES: &str = "MAGIC_GEN_CRASH_AFTER_BYTES";

/// Returns the byte count of [`CRASH_AFTER_BYTES`], if set to a number.
fn crash_after_bytes() -> Option<usize> {
    std::env::var(CRASH_AFTER_BYTES).ok()?.parse().ok()
}

/// Fails early if `path` cannot be written: a directory, or a file (a symlink's target)
/// whose directory does not exist; before a long search, not after it. A FIFO or a device
/// passes.
#[cfg(feature = "cli")]
pub fn check_writable(path: &Path) -> Result<(), WriteError> {
    let target = match destination(path)? {
        Destination::File(target) => target,
        Destination::Special(_) => return Ok(()),
    };
    let dir = folder_of(&target);
    if dir.is_dir() {
        return Ok(());
    }
    Err(WriteError::NoDirectory {
        path: path.to_path_buf(),
        dir: dir.to_path_buf(),
    })
}
