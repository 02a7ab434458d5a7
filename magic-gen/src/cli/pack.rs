//! `magic-gen pack`: its arguments, and a verified black or white set packed again by this
//! packer, its magics and bits unchanged, with checkpoints to resume an interrupted run.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{ArgMatches, Args};
use magic_gen::search::{
    self, Error, Mismatch, PackCheckpoint, PackHooks, PackMismatch, PackProgress, PackSettings,
};
use magic_gen::{line_of, Provenance};

use super::args::{parse_seconds, PackArgs, LONG_RUNS};
use super::output::{check_writable, recorded_command, show, summarise, write_atomic, write_set};
use super::progress::{stop_on_ctrl_c, watch};
use super::verify::{read_and_verify, rejected};

/// The arguments that never change the set, left out of the recorded command: a resumed
/// run ends with the set of an uninterrupted one, byte for byte.
const UNRECORDED: [&str; 3] = ["resume", "state", "checkpoint"];

/// Arguments of `pack`.
#[derive(Args, Debug, Clone)]
pub struct PackCommandArgs {
    /// Set file (black or white): `.rs` (emitted) or interchange format.
    file: PathBuf,
    #[command(flatten)]
    pack: PackArgs,
    /// Go on with the packing saved in this checkpoint (by --state), which must be of the
    /// same set and packing options; keep
    /// saving to it unless --state names another file. The set comes out byte for byte as
    /// an uninterrupted run's.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    resume: Option<PathBuf>,
    /// Save the packer's checkpoint here (atomically) every --checkpoint seconds, when
    /// stopped by Ctrl-C and at the end, to go on with --resume after a kill or a Ctrl-C.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    state: Option<PathBuf>,
    /// Seconds between checkpoints of --state: an interrupted run loses at most this much.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds, help_heading = LONG_RUNS)]
    checkpoint: f64,
    /// Write the set here: Rust source for `.rs`, interchange format otherwise.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Reads a pack checkpoint file; errors name the file and line.
fn read_checkpoint(path: &Path) -> Result<PackCheckpoint, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", show(path)))?;
    PackCheckpoint::parse_file(&show(path), &bytes).map_err(|e| e.to_string())
}

/// Returns the error for a checkpoint read from `path` that does not fit the run, at the
/// line of `path` it points to.
pub fn mismatch_at(path: &Path, mismatch: &PackMismatch) -> String {
    // Read again for the line: the parsed checkpoint keeps no line numbers.
    let line = std::fs::read(path)
        .ok()
        .and_then(|bytes| line_of(&bytes, &mismatch.line));
    let why = explain(mismatch);
    match line {
        Some(l) => format!("{}:{l}: cannot resume: {why}", show(path)),
        None => format!("{}: cannot resume: {why}", show(path)),
    }
}

/// Returns what `mismatch` means in terms of the options: which one differs, and what to
/// give to go on with the checkpoint.
fn explain(mismatch: &PackMismatch) -> String {
    let Mismatch::Settings { saved, given } = &mismatch.mismatch else {
        return mismatch.to_string();
    };
    let with = |on: bool| if on { "with" } else { "without" };
    if saved.iterations != given.iterations {
        format!(
            "the checkpoint is of a {}-move packing, this run asks for {}: give \
             --pack-iterations {} to finish it",
            saved.iterations, given.iterations, saved.iterations
        )
    } else if saved.seed != given.seed {
        format!(
            "the checkpoint is of a packing seeded {}, this run's seed is {}: give \
             --pack-seed {}",
            saved.seed, given.seed, saved.seed
        )
    } else if saved.negative_offsets != given.negative_offsets {
        format!(
            "the checkpoint packs {} --negative-offsets, this run {} them",
            with(saved.negative_offsets),
            with(given.negative_offsets)
        )
    } else if saved.spread != given.spread {
        format!(
            "the checkpoint is of a packing with --pack-spread {}, this run asks for {}",
            saved.spread, given.spread
        )
    } else {
        format!(
            "the checkpoint packs {} --short-spans, this run {} them",
            with(saved.short_spans),
            with(given.short_spans)
        )
    }
}

/// `magic-gen pack FILE`.
pub fn run(args: &PackCommandArgs, matches: &ArgMatches) -> Result<ExitCode, String> {
    if args.pack.short_spans {
        return Err(
            "--short-spans chooses among each square's pool members, and `pack` has \
                    one magic per square: give it to `search` or `merge`"
                .into(),
        );
    }
    let state_path = args.state.clone().or_else(|| args.resume.clone());
    for path in args.out.iter().chain(state_path.iter()) {
        check_writable(path)?;
    }
    let file = &args.file;
    let (set, before) = match read_and_verify(file)? {
        Ok(ok) => ok,
        Err(count) => return Err(rejected(file, count)),
    };
    let resume = args.resume.as_deref().map(read_checkpoint).transpose()?;
    let settings = args.pack.settings(PackSettings::default().seed);
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        stop_on_ctrl_c(move || stop.swap(true, Ordering::SeqCst));
    }
    let progress = PackProgress::default();
    let (start, done) = (Instant::now(), AtomicBool::new(false));
    let mut save_error = None;
    let result = std::thread::scope(|s| {
        let watcher = s.spawn(|| watch(None, &progress, &stop, &done, start));
        let mut save = |c: &PackCheckpoint| {
            if let Some(path) = &state_path {
                if let Err(e) = write_atomic(path, c.to_file_text().as_bytes()) {
                    save_error.get_or_insert(e);
                }
            }
        };
        let mut hooks = PackHooks {
            progress: Some(&progress),
            stop: Some(&stop),
            checkpoint: Some((Duration::from_secs_f64(args.checkpoint.max(0.1)), &mut save)),
        };
        let result = search::repack(&set, &settings, resume.as_ref(), &mut hooks);
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        let _ = watcher.join();
        result
    });
    let outcome = result.map_err(|e| match (e, &args.resume) {
        (Error::Checkpoint(m), Some(path)) => mismatch_at(path, &m),
        (e, _) => format!("{}: {e}", show(file)),
    })?;
    if let Some(e) = save_error {
        return Err(e);
    }
    let end = outcome.pack.clone();
    if let (Some(path), Some(end)) = (&state_path, &end) {
        write_atomic(path, end.to_file_text().as_bytes())?;
    }
    say!(
        "packed {} again: {} entries before, {} after",
        show(file),
        before.report.table_len,
        outcome.report.table_len
    );
    if let (Some(path), Some(from)) = (&args.resume, &resume) {
        say!("resumed from {} at move {}", show(path), from.moves);
    }
    summarise(&outcome);
    let command = PackCommandArgs::augment_args(clap::Command::new("pack"));
    let provenance = Provenance {
        seed: Some(settings.seed),
        command: Some(recorded_command(&command, matches, &UNRECORDED, &[])),
    };
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    let Some(end) = end else {
        return Ok(ExitCode::SUCCESS);
    };
    if let Some(path) = &state_path {
        say!(
            "checkpoint saved to {} (move {} of {})",
            show(path),
            end.moves,
            end.settings.iterations
        );
    }
    if !end.finished() {
        let how = match &state_path {
            Some(path) => format!("--resume {} goes on from there", show(path)),
            None => "give --state FILE to keep a checkpoint".into(),
        };
        eprintln!(
            "interrupted after {} of {} packing moves: the set above is the best layout met, \
             verified; {how}",
            end.moves, end.settings.iterations
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
