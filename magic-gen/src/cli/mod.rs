//! The command-line tool's pieces: argument parsers, atomic output, and the commands.

pub mod board;
pub mod inspect;
pub mod search;

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use magic_gen::{parse_square, Piece, Variant};

/// The seed `search` uses without `--seed` (documented in the README).
pub use magic_gen::search::DEFAULT_SEED;

pub fn parse_variant(s: &str) -> Result<Variant, String> {
    match Variant::parse(s) {
        Some(Variant::Pext) => Err("pext needs no search: its index is the mask itself".into()),
        Some(v) => Ok(v),
        None => Err(format!(
            "unknown variant '{s}' (fancy, plain, black or white)"
        )),
    }
}

pub fn parse_piece(s: &str) -> Result<Piece, String> {
    Piece::parse(s).ok_or_else(|| format!("unknown piece '{s}' (rook or bishop)"))
}

pub fn parse_square_arg(s: &str) -> Result<u8, String> {
    parse_square(s).ok_or_else(|| format!("unknown square '{s}' (a1..h8)"))
}

pub fn parse_shard(s: &str) -> Result<magic_gen::search::Shard, String> {
    magic_gen::search::Shard::parse(s)
}

pub fn parse_pool(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        _ => Err(format!("pool '{s}' must be a number in 1..=4096")),
    }
}

pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1e9).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds")),
    }
}

/// Quotes `s` for a POSIX shell if it needs it, so a recorded command can be pasted back.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Returns `path` as the user gave it, for messages and recorded commands.
pub fn show(path: &Path) -> String {
    path.display().to_string()
}

/// Writes `contents` to `path` atomically: a temporary file in the same directory, flushed
/// to disk, then renamed over `path`. On failure the temporary file is removed and `path`
/// is left as it was.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", show(path)))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp_name = name.to_os_string();
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable where the platform allows opening a directory.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("{}: cannot write: {e}", show(path))
    })
}
