//! `magic-gen`: search, verify, inspect and emit magic-bitboard sets.
//!
//! Every failure prints `error: ...` (with file and line where one applies) and exits
//! non-zero; nothing here panics on user input. Every output file is written atomically.

#![forbid(unsafe_code)]

/// `println!` that ignores a closed stdout (e.g. `magic-gen stats X | head`) instead of
/// panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use magic_gen::{Piece, Variant};

use cli::DEFAULT_SEED;

/// Search, verify, inspect and emit magic-bitboard sets for rooks and bishops.
///
/// Set files are either Rust source written by `search`/`emit` (`.rs`) or the plain-text
/// interchange format (any other extension): one `PIECE SQUARE MAGIC BITS OFFSET` line per
/// piece and square after a `variant NAME` line (see the README).
#[derive(Parser, Debug)]
#[command(name = "magic-gen", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search a complete magic set, verify it and print a summary.
    ///
    /// Without arguments: standard-bit fancy magics from seed 1, on all cores, verified and
    /// summarised; nothing is written unless --out is given. The result depends only on the
    /// arguments and the seed, never on --threads (except when a --seconds budget runs out).
    /// Ctrl-C stops the reduced-bit jobs: they fall back to default bits, and the complete,
    /// verified set is still written (exit code 130). A second Ctrl-C exits at once.
    Search(SearchArgs),
    /// Verify a set exhaustively: exit 0 only if it is collision-free.
    ///
    /// Prints the table length and the slots used, or each failure by piece and square.
    Verify {
        /// Set file: `.rs` (emitted) or interchange format.
        file: PathBuf,
    },
    /// Print the table size and 8x8 boards of index bits per square.
    ///
    /// Rank 8 on top, like a diagram; squares below the mask popcount are marked `*`,
    /// squares above it (fixed-shift variants) `+`. Exits non-zero if the set does not verify.
    Stats {
        /// Set file: `.rs` (emitted) or interchange format.
        file: PathBuf,
    },
    /// Verify a set and write it as Rust source (or interchange format).
    ///
    /// `--out X.rs` writes the Rust source the runtime crate includes; any other extension
    /// writes the interchange format. The header records this command.
    Emit {
        /// Set file: `.rs` (emitted) or interchange format.
        file: PathBuf,
        /// Output file, written atomically.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

/// Arguments of `search`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Index variant: fancy (bits per square), plain (12/9 bits, one array per square),
    /// black (fixed shift, `occ | !mask`, ranges packed) or white (fixed shift, `occ & mask`,
    /// ranges packed).
    #[arg(long, default_value = "fancy", value_parser = cli::parse_variant)]
    variant: Variant,
    /// Give --bits only to this piece's squares (fancy; with --bits).
    #[arg(long, value_parser = cli::parse_piece, requires = "bits")]
    piece: Option<Piece>,
    /// Give --bits only to this square, e.g. e4 (fancy; with --bits).
    #[arg(long, value_parser = cli::parse_square_arg, requires = "bits")]
    square: Option<u8>,
    /// Index bits for the chosen squares (fancy only; default: the mask popcount). Every
    /// other square gets its default bits, so the output is always a complete set.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=12))]
    bits: Option<u8>,
    /// Time budget for the --bits squares; those not found in time fall back to default
    /// bits (default: search until found or Ctrl-C).
    #[arg(long, value_parser = cli::parse_seconds, requires = "bits")]
    seconds: Option<f64>,
    /// Worker threads (default: all available cores). Does not change the result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Seed of the search's random streams.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Write the set here: Rust source for `.rs`, interchange format for any other
    /// extension. Without it nothing is written.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with exit 0; usage errors exit 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let result = match cli.command {
        Command::Search(args) => cli::search::run(&args),
        Command::Verify { file } => cli::inspect::verify(&file),
        Command::Stats { file } => cli::inspect::stats(&file),
        Command::Emit { file, out } => cli::inspect::emit(&file, &out),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
