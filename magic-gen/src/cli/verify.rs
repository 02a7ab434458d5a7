//! `magic-gen verify`: its arguments, and the exhaustive check of a set file; with the
//! reading and size lines `stats` and `emit` share.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use magic_gen::{verify, MagicSet, Provenance, Verified};

use super::output::{read_set, show};

/// Arguments of `verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// Set file: `.rs` (emitted) or interchange format; `-` reads standard input.
    file: PathBuf,
}

/// A set read and verified, with the provenance its header records.
pub type Checked = (MagicSet, Verified, Provenance);

/// Reads and verifies `file` (`-`: standard input). On failure prints each failure as
/// `error: FILE: piece square: ...` and returns `Err(count)`.
pub fn read_and_verify(file: &Path) -> Result<Result<Checked, usize>, String> {
    let (set, provenance) = read_set(file)?;
    match verify(&set) {
        Ok(v) => Ok(Ok((set, v, provenance))),
        Err(failures) => {
            for f in &failures {
                eprintln!("error: {}: {f}", show(file));
            }
            Ok(Err(failures.len()))
        }
    }
}

/// Returns the error for a set file in which `count` squares fail verification.
pub fn rejected(file: &Path, count: usize) -> String {
    let squares = if count == 1 {
        "square fails"
    } else {
        "squares fail"
    };
    format!("{}: rejected: {count} {squares} verification", show(file))
}

/// Prints the table length and slots used lines shared by `verify` and `stats`.
pub fn print_size(v: &Verified) {
    let r = &v.report;
    say!(
        "table length: {} entries ({:.1} KiB of u64)",
        r.table_len,
        r.kib(8)
    );
    let fill = if r.table_len == 0 {
        0.0
    } else {
        100.0 * r.slots_used as f64 / r.table_len as f64
    };
    say!("slots used:   {} ({fill:.1}% of the table)", r.slots_used);
    say!("holes:        {} (slots no occupancy reaches)", r.holes());
}

/// `magic-gen verify FILE`.
pub fn run(args: &VerifyArgs) -> Result<ExitCode, String> {
    let file = &args.file;
    match read_and_verify(file)? {
        Ok((set, v, provenance)) => {
            say!(
                "{}: {} set, collision-free (every occupancy of all 128 squares checked)",
                show(file),
                set.variant
            );
            print_size(&v);
            if let Some(note) = &provenance.unfinished {
                say!("unfinished: {note}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(count) => Err(rejected(file, count)),
    }
}
