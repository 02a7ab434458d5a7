//! `magic-gen search`: its arguments, and the seeded search run with a progress bar,
//! Ctrl-C handling and checkpoints of its state, a summary, and the set written atomically.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{ArgMatches, Args};
use magic_gen::search::{
    self, Budget, Error, Limits, Options, PackCheckpoint, PackHooks, PackProgress, Progress, Scan,
    SearchState, Shard,
};
use magic_gen::{Piece, Provenance, Variant};

use super::args::{
    parse_piece, parse_pool, parse_seconds, parse_shard, parse_square_arg, parse_variant,
    threads_or_all, PackArgs, PolishArgs, LONG_RUNS, POOLS,
};
use super::output::{check_writable, recorded_command, show, summarise, write_atomic, write_set};
use super::pack::{mismatch_at, moves_of};
use super::progress::{stop_on_ctrl_c, watch};

/// The arguments that never change the set, left out of the recorded command: how many
/// threads, how often and where the state is saved. (`--resume` is recorded, but only
/// after the command that started the state.)
const UNRECORDED: [&str; 3] = ["threads", "checkpoint", "state"];

/// The arguments the recorded command spells out even at their default values, so the
/// command says what was searched without knowing the defaults.
const ALWAYS: [&str; 2] = ["variant", "seed"];

/// The help heading of the options that ask fewer index bits of some squares.
const FEWER_BITS: &str = "Fewer bits (fancy; black and white per-square shifts)";

/// The help heading of the scan's record-hunt options.
const SCAN: &str = "Scan (record hunts; see docs/record-hunts.md)";

/// Arguments of `search`. `--help` shows the basic ones first, then the hunt's under a
/// heading per stage; the recorded command keeps this order, which committed headers use.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Continue the search saved in this state file with its own scan settings (and keep
    /// saving to it unless --state names another file); with --candidates, raise its
    /// budget. A state saved while packing goes on with the packing where it stopped,
    /// given the same packing options, and ends with the set of an uninterrupted run.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS, conflicts_with_all = ["piece", "square", "bits", "bits_under", "also_fixed_shift", "shard", "pool", "sparse_pool", "patience", "seed", "variant"])]
    resume: Option<PathBuf>,
    /// Index variant: fancy (bits per square), plain (12/9 bits, one array per square),
    /// black (fixed shift, `occ | !mask`, ranges packed) or white (fixed shift, `occ & mask`,
    /// ranges packed).
    #[arg(long, default_value = "fancy", value_parser = parse_variant)]
    variant: Variant,
    /// Give --bits/--bits-under only to this piece's squares.
    #[arg(long, value_parser = parse_piece, help_heading = FEWER_BITS)]
    piece: Option<Piece>,
    /// Give --bits/--bits-under only to this square, e.g. e4.
    #[arg(long, value_parser = parse_square_arg, help_heading = FEWER_BITS)]
    square: Option<u8>,
    /// Index bits for the chosen squares (fancy; default: the mask popcount). Every other
    /// square gets its default bits, so the output is always a complete set.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=12), help_heading = FEWER_BITS)]
    bits: Option<u8>,
    /// Ask the chosen squares for N bits fewer than their mask popcount (fancy: squares
    /// not reached fall back to default bits). 0 gives black and white sets a per-square
    /// shift: every chosen square at its mask popcount.
    #[arg(long, value_name = "N", conflicts_with = "bits", value_parser = clap::value_parser!(u8).range(0..=11), help_heading = FEWER_BITS)]
    bits_under: Option<u8>,
    /// Black and white with --bits-under: scan the chosen squares at the fixed 12/9 bits
    /// as well, and let the packer choose per square between both pools.
    #[arg(long, help_heading = FEWER_BITS)]
    also_fixed_shift: bool,
    /// Time budget of the whole scan, in seconds. Jobs still searching then stop:
    /// reduced-bit squares fall back to default bits, fixed-shift squares pack what they
    /// found. Without --candidates, fixed-shift jobs scan until the time is up.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    seconds: Option<f64>,
    /// Scan exactly the first N candidates of each job's space (of this shard's share),
    /// then stop: unlike --seconds, the same result on any machine. With --resume, raise
    /// the saved budget to N: the hunt goes on and ends as one run with budget N would.
    #[arg(long, value_name = "N")]
    candidates: Option<u64>,
    /// Run only shard K of N (K = 0..N-1) of the candidate space; run the others
    /// elsewhere and combine their --state files with `magic-gen merge`.
    #[arg(long, value_parser = parse_shard, value_name = "K/N", help_heading = LONG_RUNS)]
    shard: Option<Shard>,
    /// Valid magics each fixed-shift square keeps for the packer to choose from: those of
    /// the lowest pack cost (twice the used slots plus the span).
    #[arg(long, value_name = "N", default_value_t = Scan::DEFAULT_POOL, value_parser = parse_pool, help_heading = POOLS)]
    pool: usize,
    /// Finds each fixed-shift square keeps besides --pool: the sparsest of the rest (black:
    /// fewest used slots, a hole costing a tenth of one; white: fewest blocked slots).
    /// Their long spans rank them out of the pool, but other squares fill their holes.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=4096), help_heading = POOLS)]
    sparse_pool: u16,
    /// Black and white: climb every valid candidate found during the scan to a lower pack
    /// cost until MOVES moves in a row bring no improvement (0: keep magics as found; a
    /// --polish of the pools after the scan costs far less).
    #[arg(long, value_name = "MOVES", default_value_t = 0, help_heading = SCAN)]
    patience: u32,
    #[command(flatten)]
    polish: PolishArgs,
    #[command(flatten)]
    pack: PackArgs,
    /// Save the search state here at every checkpoint and at the end (atomically), to
    /// resume with --resume or to merge shards with `magic-gen merge`. Once the scan is
    /// done, the checkpoints hold the packer's progress too.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    state: Option<PathBuf>,
    /// Seconds between checkpoints of --state, during the scan and the packing: an
    /// interrupted run loses at most this much.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds, help_heading = LONG_RUNS)]
    checkpoint: f64,
    /// Worker threads (default: all available cores). Does not change the result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Seed of the search's random streams.
    #[arg(long, default_value_t = Scan::DEFAULT_SEED)]
    seed: u64,
    /// Write the set here: Rust source for `.rs`, interchange format for any other
    /// extension. Without it nothing is written.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Returns the squares that get `--bits`: empty (all 128) unless --piece or --square narrow it.
fn targets(args: &SearchArgs) -> Vec<(Piece, u8)> {
    match (args.piece, args.square) {
        (Some(p), Some(s)) => vec![(p, s)],
        (Some(p), None) => (0..64).map(|s| (p, s)).collect(),
        (None, Some(s)) => Piece::ALL.iter().map(|&p| (p, s)).collect(),
        (None, None) => Vec::new(),
    }
}

/// Reads a search state file, and the packer's checkpoint in it if there is one; errors
/// name the file and line.
pub fn read_state(path: &Path) -> Result<(SearchState, Vec<PackCheckpoint>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", show(path)))?;
    SearchState::parse_with_pack(&show(path), &bytes).map_err(|e| e.to_string())
}

/// Returns the search state `args` describe (read from --resume, with its pack checkpoint
/// if it has one, or a fresh one that records `command`) and the history of commands that
/// shape the set this run writes.
fn initial_state(
    args: &SearchArgs,
    command: String,
) -> Result<(SearchState, Vec<PackCheckpoint>, String), String> {
    if let Some(path) = &args.resume {
        let (mut state, pack) = read_state(path)?;
        if let Some(n) = args.candidates {
            state
                .raise_budget(n)
                .map_err(|e| format!("{}: cannot raise the budget: {e}", show(path)))?;
        }
        let history = format!("{}; then {command}", state.command);
        // A run that scans records itself in the state, since it shapes what the state
        // keeps from here on. One that only finishes a finished state (repacking it, say)
        // leaves the state as it was, so that a committed state and the set written from
        // it regenerate byte for byte however often the command runs.
        if state.jobs.iter().any(|j| !j.done) {
            state.command = history.clone();
        }
        return Ok((state, pack, history));
    }
    if args.variant == Variant::Plain && (args.bits.is_some() || args.bits_under.is_some()) {
        return Err(
            "plain magics have fixed bits (12 rook, 9 bishop): --bits and --bits-under \
                    are for fancy, black and white"
                .into(),
        );
    }
    if args.also_fixed_shift && !args.variant.is_packed() {
        return Err(format!(
            "{} sets have one shift per square: --also-fixed-shift is for black and white",
            args.variant
        ));
    }
    if (args.piece.is_some() || args.square.is_some() || args.also_fixed_shift)
        && args.bits.is_none()
        && args.bits_under.is_none()
    {
        return Err(
            "--piece, --square and --also-fixed-shift go with --bits or --bits-under: give one \
             of them"
                .into(),
        );
    }
    // A time budget without a candidate count scans until the time is up.
    let budget = match (args.candidates, args.seconds) {
        (Some(n), _) => Budget::Candidates(n),
        (None, Some(_)) => Budget::Candidates(u64::MAX),
        (None, None) => Budget::UntilFound,
    };
    let options = Options {
        scan: Scan {
            variant: args.variant,
            seed: args.seed,
            shard: args.shard.unwrap_or(Shard::WHOLE),
            budget,
            pool: args.pool,
            sparse: args.sparse_pool.into(),
            patience: args.patience,
        },
        targets: targets(args),
        bits: args.bits,
        bits_under: args.bits_under,
        also_fixed_shift: args.also_fixed_shift,
        command,
        limits: Limits::default(),
    };
    let state = SearchState::new(&options).map_err(|e| e.to_string())?;
    let history = state.command.clone();
    Ok((state, Vec::new(), history))
}

/// Returns the limits of this run for `scan`: they apply to a fresh search and a resumed
/// one alike.
fn limits(args: &SearchArgs, scan: &Scan) -> Result<Limits, String> {
    Ok(Limits {
        threads: threads_or_all(args.threads),
        seconds: args.seconds,
        polish: args.polish.settings(scan.variant)?,
        pack: args.pack.settings(scan.seed),
    })
}

/// Saves `state`, with the packer's checkpoint `pack` unless empty, to `path` atomically,
/// unless the file holds that text already (a finished state resumed is left untouched).
pub fn save_state(path: &Path, state: &SearchState, pack: &[PackCheckpoint]) -> Result<(), String> {
    let text = state.to_text_with(pack);
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    write_atomic(path, text.as_bytes())
}

/// Returns the command that reproduces this run, normalised: program name `magic-gen`,
/// variant and seed always spelled out, the options that never change the result left out.
/// A resumed run records only what it was given (the state holds the rest).
fn recorded(args: &SearchArgs, matches: &ArgMatches) -> String {
    let always: &[&str] = if args.resume.is_some() { &[] } else { &ALWAYS };
    let command = SearchArgs::augment_args(clap::Command::new("search"));
    recorded_command(&command, matches, &UNRECORDED, always)
}

/// `magic-gen search`.
pub fn run(args: &SearchArgs, matches: &ArgMatches) -> Result<ExitCode, String> {
    let (mut state, saved_pack, history) = initial_state(args, recorded(args, matches))?;
    let limits = limits(args, &state.scan)?;
    let threads = limits.threads;
    let state_path = args.state.clone().or_else(|| args.resume.clone());
    for path in args.out.iter().chain(state_path.iter()) {
        check_writable(path)?;
    }
    let progress = Arc::new(Progress::default());
    {
        // First Ctrl-C: stop the scan (or the packing) and keep the verified set.
        let progress = Arc::clone(&progress);
        stop_on_ctrl_c(move || progress.stop.swap(true, Ordering::SeqCst));
    }

    let pack_progress = PackProgress::default();
    let start = Instant::now();
    let done = AtomicBool::new(false);
    let every = Duration::from_secs_f64(args.checkpoint.max(0.1));
    let scanned_from = state.jobs.clone();
    let mut save_error = None;
    let result = std::thread::scope(|s| {
        let watcher = s.spawn(|| {
            watch(
                Some(&progress),
                &pack_progress,
                &progress.stop,
                &done,
                start,
            )
        });
        let mut work = || -> Result<_, String> {
            let mut save = |st: &SearchState| {
                if let Some(path) = &state_path {
                    if let Err(e) = save_state(path, st, &[]) {
                        save_error.get_or_insert(e);
                    }
                }
            };
            search::run(&mut state, &limits, &progress, Some((every, &mut save)));
            // A scan that moved on packs other pools: the saved packing is void.
            let resume: &[PackCheckpoint] = if state.jobs == scanned_from {
                &saved_pack
            } else {
                &[]
            };
            // Saved before packing, which may take long.
            if let Some(path) = &state_path {
                save_state(path, &state, resume)?;
            }
            let mut save_pack = |c: &[PackCheckpoint]| {
                if let Some(path) = &state_path {
                    if let Err(e) = save_state(path, &state, c) {
                        save_error.get_or_insert(e);
                    }
                }
            };
            let mut hooks = PackHooks {
                progress: Some(&pack_progress),
                stop: Some(&progress.stop),
                checkpoint: Some((every, &mut save_pack)),
                threads,
            };
            Ok(search::finish(&state, &limits, resume, &mut hooks))
        };
        let result = work();
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        let _ = watcher.join();
        result
    });
    let outcome = result?.map_err(|e| match (e, &args.resume) {
        (Error::Checkpoint(m), Some(path)) => mismatch_at(path, &m),
        (e, _) => e.to_string(),
    })?;
    if let Some(e) = save_error {
        return Err(e);
    }
    // A stopped packing is saved where it stopped, for --resume to go on; a finished one
    // leaves the state as the scan left it, and so does one stopped before its first move
    // (a Ctrl-C during the scan), whose checkpoint is where a fresh packing starts.
    let stopped_pack = Some(moves_of(&outcome.pack))
        .filter(|&(made, total)| made < total && made > 0)
        .map(|_| outcome.pack.clone())
        .unwrap_or_default();
    if let Some(path) = &state_path {
        save_state(path, &state, &stopped_pack)?;
    }
    let elapsed = start.elapsed();
    let interrupted = progress.stop.load(Ordering::SeqCst);

    say!(
        "searched {} magics, seed {}{}: 128 squares in {:.3} s on {threads} thread{}, {} candidates tried",
        state.scan.variant,
        state.scan.seed,
        if state.scan.shard == Shard::WHOLE { String::new() } else { format!(", shard {}", state.scan.shard) },
        elapsed.as_secs_f64(),
        if threads == 1 { "" } else { "s" },
        progress.candidates.load(Ordering::Relaxed)
    );
    summarise(&outcome);
    let open = state.jobs.iter().filter(|j| !j.done).count();
    if let Some(path) = &state_path {
        let packing = match moves_of(&stopped_pack) {
            (_, 0) => String::new(),
            (made, total) => format!(", packing stopped at move {made} of {total}"),
        };
        say!(
            "state saved to {} ({open} of {} jobs unfinished{packing})",
            show(path),
            state.jobs.len()
        );
    }
    let provenance = Provenance {
        seed: Some(state.scan.seed),
        // A resumed state records the run that started it, then every resume.
        command: Some(history),
    };
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    if interrupted {
        match stopped_pack.first() {
            Some(c) if open == 0 => {
                let how = match &state_path {
                    Some(path) => format!(
                        "; --resume {} --pack-iterations {} goes on from there",
                        show(path),
                        c.settings.iterations
                    ),
                    None => " (give --state FILE to keep a checkpoint)".into(),
                };
                let (made, total) = moves_of(&stopped_pack);
                eprintln!(
                    "interrupted after {made} of {total} packing moves: the set above is the \
                     best layout met, verified{how}"
                )
            }
            _ => eprintln!(
                "interrupted: the set above is complete and verified; unfinished squares fell back"
            ),
        }
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    /// Parses `magic-gen search ARGS...` and returns the recorded command.
    fn record(args: &[&str]) -> String {
        let command = SearchArgs::augment_args(clap::Command::new("search"));
        let matches = command
            .try_get_matches_from([&["search"][..], args].concat())
            .unwrap();
        let parsed = SearchArgs::from_arg_matches(&matches).unwrap();
        recorded(&parsed, &matches)
    }

    #[test]
    fn the_recorded_command_holds_every_option_that_shapes_the_set() {
        let given = [
            "--variant",
            "fancy",
            "--piece",
            "bishop",
            "--square",
            "b1",
            "--bits-under",
            "1",
            "--also-fixed-shift",
            "--seconds",
            "2",
            "--candidates",
            "4096",
            "--shard",
            "1/3",
            "--pool",
            "3",
            "--sparse-pool",
            "2",
            "--patience",
            "7",
            "--polish",
            "5",
            "--clump",
            "6",
            "--pack-iterations",
            "1",
            "--negative-offsets",
            "--pack-spread",
            "0.03",
            "--short-spans",
            "--pack-seed",
            "4",
            "--pack-seeds",
            "3",
            "--state",
            "s.state",
            "--checkpoint",
            "5",
            "--threads",
            "2",
            "--seed",
            "9",
            "--out",
            "a b.rs",
        ];
        let line = record(&given);
        assert_eq!(
            line,
            "magic-gen search --variant fancy --piece bishop --square b1 --bits-under 1 \
             --also-fixed-shift --seconds 2 --candidates 4096 --shard 1/3 --pool 3 --sparse-pool 2 --patience 7 --polish 5 --clump 6 \
             --pack-iterations 1 --negative-offsets --pack-spread 0.03 --short-spans --pack-seed 4 --pack-seeds 3 --seed 9 --out 'a b.rs'"
        );
        // Derived, not listed: every option but the unrecorded ones and --resume (which
        // conflicts with them) appears, so a new option cannot drop out unnoticed.
        let command = SearchArgs::augment_args(clap::Command::new("search"));
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            if !UNRECORDED.contains(&id) && id != "resume" && id != "bits" {
                let long = format!("--{}", arg.get_long().unwrap());
                assert!(line.contains(&long), "{long} missing from {line}");
            }
        }
    }

    #[test]
    fn options_not_given_are_left_out_but_variant_and_seed() {
        assert_eq!(record(&[]), "magic-gen search --variant fancy --seed 1");
        // Given at their defaults they are kept: a header's command then gives the same
        // header again after a default changes (as --patience's did, from 1000 to 0).
        let at_defaults = record(&["--pool", "16", "--patience", "0", "--threads", "1"]);
        assert_eq!(
            at_defaults,
            "magic-gen search --variant fancy --pool 16 --patience 0 --seed 1"
        );
        assert_eq!(
            record(&["--resume", "x.state", "--seconds", "0", "--out", "o.rs"]),
            "magic-gen search --resume x.state --seconds 0 --out o.rs"
        );
    }
}
