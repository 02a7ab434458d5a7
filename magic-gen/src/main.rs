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
use magic_gen::search::{Shard, DEFAULT_POOL, DENSITY_PATIENCE};
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
    /// Ctrl-C stops the scan: unfinished squares fall back (default bits, or the first magic
    /// of the space), the state is saved, and the complete, verified set is still written
    /// (exit code 130). A second Ctrl-C exits at once.
    Search(SearchArgs),
    /// Combine the state files of a sharded search into the best verified set.
    ///
    /// Each square keeps the best magics any shard found (by the search's own ranking), so
    /// the N shards of a space merge into exactly what one run over that space gives.
    Merge(MergeArgs),
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
    /// Give --bits/--bits-under only to this piece's squares (fancy).
    #[arg(long, value_parser = cli::parse_piece)]
    piece: Option<Piece>,
    /// Give --bits/--bits-under only to this square, e.g. e4 (fancy).
    #[arg(long, value_parser = cli::parse_square_arg)]
    square: Option<u8>,
    /// Index bits for the chosen squares (fancy only; default: the mask popcount). Every
    /// other square gets its default bits, so the output is always a complete set.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=12))]
    bits: Option<u8>,
    /// Ask the chosen squares for this many bits fewer than their mask popcount (fancy),
    /// e.g. 1 for record hunting. Squares not reached fall back to default bits.
    #[arg(long, conflicts_with = "bits", value_parser = clap::value_parser!(u8).range(1..=11))]
    bits_under: Option<u8>,
    /// Time budget of the whole scan. Jobs still searching then stop: reduced-bit squares
    /// fall back to default bits, fixed-shift squares pack what they found. Without
    /// --candidates, fixed-shift jobs scan until the time is up, keeping the best magics.
    #[arg(long, value_parser = cli::parse_seconds)]
    seconds: Option<f64>,
    /// Scan exactly the first N candidates of each job's space (of this shard's share),
    /// then stop: a budget that, unlike --seconds, gives the same result on any machine.
    #[arg(long, value_name = "N")]
    candidates: Option<u64>,
    /// Run only shard K of N (K = 0..N-1) of the candidate space; run the others
    /// elsewhere and combine their --state files with `magic-gen merge`.
    #[arg(long, value_parser = cli::parse_shard, value_name = "K/N")]
    shard: Option<Shard>,
    /// Valid magics each fixed-shift square keeps for the packer to choose from.
    #[arg(long, default_value_t = DEFAULT_POOL, value_parser = cli::parse_pool)]
    pool: usize,
    /// Moves without improvement before a fixed-shift magic's density climb stops
    /// (0: keep magics as found).
    #[arg(long, default_value_t = DENSITY_PATIENCE)]
    patience: u32,
    /// Seconds the packer may spend trying other square orders after the scan
    /// (fixed shift; default: one greedy pass).
    #[arg(long, value_parser = cli::parse_seconds)]
    pack_seconds: Option<f64>,
    /// Save the search state here at every checkpoint and at the end (atomically), to
    /// resume with --resume or to merge shards with `magic-gen merge`.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Continue the search saved in this state file with its own settings (and keep
    /// saving to it unless --state names another file).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["piece", "square", "bits", "bits_under", "candidates", "shard", "pool", "patience", "seed", "variant"])]
    resume: Option<PathBuf>,
    /// Seconds between checkpoints of --state: an interrupted run loses at most this much.
    #[arg(long, default_value_t = 60.0, value_parser = cli::parse_seconds)]
    checkpoint: f64,
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

/// Arguments of `merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// State files of the shards of one search (`search --shard K/N --state FILE`).
    #[arg(required = true, value_name = "STATE")]
    states: Vec<PathBuf>,
    /// Seconds the packer may spend trying other square orders (fixed shift).
    #[arg(long, value_parser = cli::parse_seconds)]
    pack_seconds: Option<f64>,
    /// Save the merged state here.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Write the set here: Rust source for `.rs`, interchange format otherwise.
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
        Command::Merge(args) => cli::search::merge(&args),
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
