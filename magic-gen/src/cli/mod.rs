//! The command-line tool: one file per command, each owning its arguments (`search.rs`,
//! `merge.rs`, `pack.rs`, `verify.rs`, `stats.rs`, `emit.rs`; a search's options and their
//! parsers are the library's, `crate::hunt::fresh` and `crate::hunt::args`), with output
//! helpers (`output.rs`), the progress bar (`progress.rs`) and the end of a hunt worded
//! (`closing.rs`).
//!
//! Every failure prints `error: ...` (with file and line where one applies) and exits
//! non-zero: 2 for a bad argument, 1 for anything else (`failure.rs`); nothing here
//! panics on user input. Every output file is written atomically.

/// `println!` that ignores a closed stdout (e.g. `magic-gen stats X | head`) instead of
/// panicking, and prints to stderr once the set itself goes to stdout (`--out -`).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if $crate::cli::output::stdout_taken() {
            let _ = writeln!(std::io::stderr().lock(), $($arg)*);
        } else {
            let _ = writeln!(std::io::stdout().lock(), $($arg)*);
        }
    }};
}

/// `eprintln!` that ignores a closed stderr (e.g. `magic-gen verify X 2>&1 | head -1`)
/// instead of panicking: the exit code still says what happened.
macro_rules! tell {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod closing;
mod emit;
mod failure;
mod help;
mod merge;
mod output;
mod pack;
mod progress;
mod resume;
mod search;
mod search_args;
mod search_record;
mod stats;
mod stop;
mod verify;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use failure::Failure;

/// Search, verify, inspect and emit magic-bitboard sets for rooks and bishops.
///
/// Set files are either Rust source written by `search`/`emit` (`.rs`, in any case) or the
/// plain-text interchange format (any other name): one `PIECE SQUARE MAGIC BITS OFFSET` line per
/// piece and square after a `variant NAME` line (docs/formats.md). `-` as a file read is
/// standard input, as a file written standard output. Terms (pool, used slots, span,
/// holes, pack cost): docs/record-hunts.md.
#[derive(Parser, Debug)]
#[command(name = "magic-gen", version)]
pub(crate) struct Cli {
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
    /// Ctrl-C (or SIGTERM, SIGHUP) stops any stage within about a second: unfinished
    /// squares fall back (default bits, or the first magic of the space), the polish leaves
    /// the finds not climbed as scanned, the packing keeps its best layout; the state is
    /// saved, and the complete, verified set is still written (exit code 130). A stopped
    /// packing goes on with --resume. Stops less than a second apart count as one; a
    /// second stop later exits at once. A set written by a stopped run says so in its
    /// header (`unfinished:`), with the command that finishes it.
    Search(search::SearchArgs),
    /// Combine the state files of a sharded search into the best verified set.
    ///
    /// Each square keeps the best magics any shard found (by the search's own ranking), so
    /// the N shards of a space merge into exactly what one run over that space gives. Every
    /// shard must be given, unless --partial asks for a set of part of the search.
    Merge(merge::MergeArgs),
    /// Pack a verified black or white set again, its magics and bits unchanged.
    ///
    /// For published sets and sets packed by older versions: the same greedy pass and
    /// annealing a search ends with, on one magic per square; --pack-iterations says how
    /// many moves (default 30000, which shortens the published black set). With
    /// --state FILE the packer saves a checkpoint every --checkpoint seconds; after a kill
    /// or a Ctrl-C (which writes the best layout so far, exit code 130, unless --out is the
    /// input, which is kept until a run ends), the same command with --resume FILE (which
    /// the stop prints) goes on and writes the set an uninterrupted run writes. The table
    /// written is never longer than the input's: where this packing is not shorter, the
    /// input's layout is kept. The header keeps the input's and adds this command.
    Pack(pack::PackCommandArgs),
    /// Verify sets exhaustively: exit 0 only if every one is collision-free.
    ///
    /// Prints for each file its table length and the slots used, or each failure by piece
    /// and square.
    Verify(verify::VerifyArgs),
    /// Print the table size, 8x8 boards of index bits and each square's slots.
    ///
    /// Rank 8 on top, like a diagram; squares below the mask popcount are marked `*`,
    /// squares above it (fixed-shift variants) `+`. Exits non-zero if the set does not verify.
    /// A search state file prints its pools' magics measured; --against compares two files
    /// square by square.
    Stats(stats::StatsArgs),
    /// Verify a set and write it as Rust source (or interchange format).
    ///
    /// `--out X.rs` writes the Rust source the runtime crate includes; any other name
    /// writes the interchange format. The header keeps the input's (the command and seed
    /// that made the set, and whether that run finished) and adds this command.
    // The file first, as the command reads (clap puts a required option before it).
    #[command(override_usage = "magic-gen emit <FILE> --out <FILE>")]
    Emit(emit::EmitArgs),
}

/// Parses the command line, runs the command and returns its exit code.
pub fn main() -> ExitCode {
    let parsed = help::with_defaults(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(ok) => ok,
        Err(e) => {
            // Help and version go to stdout with exit 0; usage errors exit 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    // The subcommand's own matches: the recorded commands are derived from them.
    let sub = matches.subcommand().map_or(&matches, |(_, m)| m);
    let result = match cli.command {
        Command::Search(args) => search::run(&args, sub),
        Command::Merge(args) => merge::run(&args, sub),
        Command::Pack(args) => pack::run(&args, sub),
        Command::Verify(args) => verify::run(&args).map_err(Failure::from),
        Command::Stats(args) => stats::run(&args).map_err(Failure::from),
        Command::Emit(args) => emit::run(&args, sub).map_err(Failure::from),
    };
    match result {
        Ok(code) => code,
        // A bad argument exits 2, as clap's own usage errors; any other failure 1.
        Err(e) => {
            tell!("error: {e}");
            e.exit_code()
        }
    }
}
