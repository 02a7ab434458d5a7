//! `magic-gen pack`: its arguments, and a verified black or white set packed again by this
//! packer, its magics and bits unchanged.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgMatches, Args};
use magic_gen::search::{self, Limits, DEFAULT_SEED};
use magic_gen::Provenance;

use super::args::PackArgs;
use super::output::{check_writable, recorded_command, show, summarise, write_set};
use super::verify::{read_and_verify, rejected};

/// Arguments of `pack`.
#[derive(Args, Debug, Clone)]
pub struct PackCommandArgs {
    /// Set file (black or white): `.rs` (emitted) or interchange format.
    file: PathBuf,
    #[command(flatten)]
    pack: PackArgs,
    /// Seeds the annealing.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Write the set here: Rust source for `.rs`, interchange format otherwise.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `magic-gen pack FILE`.
pub fn run(args: &PackCommandArgs, matches: &ArgMatches) -> Result<ExitCode, String> {
    if let Some(out) = &args.out {
        check_writable(out)?;
    }
    let file = &args.file;
    let (set, before) = match read_and_verify(file)? {
        Ok(ok) => ok,
        Err(count) => return Err(rejected(file, count)),
    };
    let limits = args.pack.apply(Limits::default());
    let outcome =
        search::repack(&set, args.seed, &limits).map_err(|e| format!("{}: {e}", show(file)))?;
    say!(
        "packed {} again: {} entries before, {} after",
        show(file),
        before.report.table_len,
        outcome.report.table_len
    );
    summarise(&outcome);
    let command = PackCommandArgs::augment_args(clap::Command::new("pack"));
    let provenance = Provenance {
        seed: Some(args.seed),
        command: Some(recorded_command(&command, matches, &[], &[])),
    };
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    Ok(ExitCode::SUCCESS)
}
