//! `magic-gen emit`: its arguments, and a verified set written as Rust source or
//! interchange format, its header keeping how the set was made.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::render_set_file;
use clap::{ArgMatches, Args};

use crate::io::is_stdio;

use super::output::{claim_stdout_for, recorded_command, show, write_output};
use super::verify::read_and_verify;

/// Arguments of `emit`.
#[derive(Args, Debug, Clone)]
pub struct EmitArgs {
    /// Set file: `.rs` (emitted) or interchange format; `-` reads standard input.
    file: PathBuf,
    /// Output file, written atomically: Rust source for `.rs`, interchange format for any
    /// other name; `-` writes the interchange format to standard output.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// `magic-gen emit FILE --out X`.
pub fn run(args: &EmitArgs, matches: &ArgMatches) -> Result<ExitCode, String> {
    let (file, out) = (&args.file, &args.out);
    claim_stdout_for(Some(out));
    let (set, v, input) = read_and_verify(file)?;
    // The input's header says how its magics were found: keep it, and add this step.
    let step = recorded_command(
        &EmitArgs::augment_args(clap::Command::new("emit")),
        matches,
        &[],
        &[],
    );
    let provenance = input.then(step);
    let text = render_set_file(out, &set, &v.report, &provenance);
    write_output(out, text.as_bytes())?;
    let to = if is_stdio(out) {
        "standard output".to_string()
    } else {
        show(out)
    };
    say!(
        "wrote {to}: {} set, {} entries ({:.1} KiB of u64)",
        set.variant,
        v.report.table_len,
        v.report.kib(8)
    );
    Ok(ExitCode::SUCCESS)
}
