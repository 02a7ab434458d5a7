//! `magic-gen verify`: its arguments, and the exhaustive check of a set file; with the
//! reading and size lines `stats` and `emit` share.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::set_file::Provenance;
use crate::{verify, MagicSet, Verified};
use clap::Args;

use super::output::{read_set, show};

/// Arguments of `verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// Set files: `.rs` (emitted) or interchange format; `-` reads standard input. Each is
    /// verified and named, whatever the others give; the exit code is non-zero if any fails.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// A set read and verified, with the provenance its header records.
pub type Checked = (MagicSet, Verified, Provenance);

/// Reads and verifies `file` (`-`: standard input). On failure prints each failure as
/// `error: FILE:LINE: piece square: ...` and returns the error that ends the command, which
/// names the squares at fault.
pub fn read_and_verify(file: &Path) -> Result<Checked, String> {
    let (set, provenance, lines) = read_set(file)?;
    match verify(&set) {
        Ok(v) => Ok((set, v, provenance)),
        Err(failures) => {
            for f in &failures {
                tell!("error: {}", lines.locate(f));
            }
            Err(format!("{}: {}", show(file), lines.rejected(&failures)))
        }
    }
}

/// Prints the table length and slots used lines shared by `verify` and `stats`.
pub fn print_size(v: &Verified) {
    say!("{}", v.report.size_lines());
}

/// `magic-gen verify FILE...`: each file verified in turn, its failure said as it comes.
pub fn run(args: &VerifyArgs) -> Result<ExitCode, String> {
    let [file] = &args.files[..] else {
        let mut failed = Vec::new();
        for file in &args.files {
            if let Err(e) = verify_file(file) {
                tell!("error: {e}");
                failed.push(show(file));
            }
        }
        if failed.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
        let count = args.files.len();
        return Err(format!(
            "{} of {count} files failed: {}",
            failed.len(),
            failed.join(", ")
        ));
    };
    verify_file(file)?;
    Ok(ExitCode::SUCCESS)
}

/// Verifies `file` and prints its size, or returns its error.
fn verify_file(file: &Path) -> Result<(), String> {
    let (set, v, provenance) = read_and_verify(file)?;
    say!(
        "{}: {} set, collision-free (every occupancy of all 128 squares checked)",
        show(file),
        set.variant
    );
    print_size(&v);
    if let Some(note) = &provenance.unfinished {
        say!("unfinished: {note}");
    }
    Ok(())
}
