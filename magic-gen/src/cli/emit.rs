//! `magic-gen emit`: its arguments, and a verified set written as Rust source or
//! interchange format.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgMatches, Args};
use magic_gen::{render_set_file, Provenance};

use super::output::{recorded_command, show, write_atomic};
use super::verify::{read_and_verify, rejected};

/// Arguments of `emit`.
#[derive(Args, Debug, Clone)]
pub struct EmitArgs {
    /// Set file: `.rs` (emitted) or interchange format.
    file: PathBuf,
    /// Output file, written atomically.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// `magic-gen emit FILE --out X`.
pub fn run(args: &EmitArgs, matches: &ArgMatches) -> Result<ExitCode, String> {
    let (file, out) = (&args.file, &args.out);
    let (set, v) = match read_and_verify(file)? {
        Ok(ok) => ok,
        Err(count) => return Err(rejected(file, count)),
    };
    let provenance = Provenance {
        seed: None,
        command: Some(recorded_command(
            &EmitArgs::augment_args(clap::Command::new("emit")),
            matches,
            &[],
            &[],
        )),
    };
    let text = render_set_file(out, &set, &v.report, &provenance);
    write_atomic(out, text.as_bytes())?;
    say!(
        "wrote {}: {} set, {} entries ({:.1} KiB of u64)",
        show(out),
        set.variant,
        v.report.table_len,
        v.report.kib(8)
    );
    Ok(ExitCode::SUCCESS)
}
