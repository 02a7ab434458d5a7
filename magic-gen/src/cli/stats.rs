//! `magic-gen stats`: its arguments, and a set's size with 8x8 boards of index bits.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use magic_gen::Piece;

use super::board::{board, ABOVE, BELOW};
use super::output::show;
use super::verify::{print_size, read_and_verify, rejected};

/// Arguments of `stats`.
#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    /// Set file: `.rs` (emitted) or interchange format.
    file: PathBuf,
}

/// `magic-gen stats FILE`.
pub fn run(args: &StatsArgs) -> Result<ExitCode, String> {
    let file = &args.file;
    let (set, v) = match read_and_verify(file)? {
        Ok(ok) => ok,
        Err(count) => return Err(rejected(file, count)),
    };
    let r = &v.report;
    say!("{}: {} set", show(file), set.variant);
    print_size(&v);
    for piece in Piece::ALL {
        let bits = &r.bits[piece.index()];
        let total: u64 = bits.iter().map(|&b| 1u64 << b).sum();
        say!(
            "\n{piece}: index bits per square; {} squares below the mask popcount; ranges of 2^bits add up to {total} entries",
            r.squares_below_popcount(piece)
        );
        say!("{}", board(piece, bits).trim_end());
    }
    say!(
        "\nlegend: N = index bits; {BELOW} = fewer than the mask popcount (denser than standard), {ABOVE} = more (fixed shift), blank = equal"
    );
    Ok(ExitCode::SUCCESS)
}
