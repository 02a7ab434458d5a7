//! `magic-gen pack`: its arguments, and a verified black or white set packed again by this
//! packer, its magics and bits unchanged (unless --holes chooses magics for the layout's
//! holes first), with checkpoints to resume an interrupted run. The packing's options,
//! refusals and stages are the library's (`crate::hunt::repack`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::hunt::args::{parse_seconds, threads_or_all, LONG_RUNS};
use crate::hunt::cut::Keeps;
use crate::hunt::ending::GoesOn;
use crate::hunt::refusal::Refusal;
use crate::hunt::repack::Repack;
use crate::hunt::{Hooks, Outcome, Stage};
use crate::io::{same_file, state_file, CreditedSet};
use crate::pack::{Mismatch, PackCheckpoint, PackSettings};
use crate::search::Error;
use crate::set_file::{Provenance, Step};
use crate::settings;
use crate::MagicSet;
use clap::{ArgMatches, Args};

use super::closing;
use super::failure::{BadArgument, Failure};
use super::output::{
    claim_stdout_for, failed_save, given, recorded_command, save_failed_told, show, write_set,
};
use super::progress::{ProgressArgs, Shown};
use super::resume::{mismatch_worded, read_error_worded};
use super::verify::read_and_verify;

/// The arguments that never change the set, left out of the recorded command: a resumed
/// run ends with the set of an uninterrupted one, byte for byte.
const UNRECORDED: [&str; 5] = ["resume", "state", "checkpoint", "threads", "progress_every"];

/// Arguments of `pack`: the file, the repack asked for, and the files a run keeps.
#[derive(Args, Debug, Clone)]
pub struct PackCommandArgs {
    /// Set file (black or white): `.rs` (emitted) or interchange format; `-` reads
    /// standard input.
    file: PathBuf,
    #[command(flatten)]
    repack: Repack,
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
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds, allow_negative_numbers = true, help_heading = LONG_RUNS)]
    checkpoint: f64,
    #[command(flatten)]
    progress: ProgressArgs,
    /// Threads for the packings of --pack-seeds (default: all available cores): one per
    /// packing, two where there are two per packing (the second tries the next move
    /// ahead). Does not change the result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Write the set here: Rust source for `.rs`, interchange format for any other name
    /// (`-`: standard output, the messages then going to standard error).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Reads a pack checkpoint file, one checkpoint per packing; errors name the file and line.
fn read_checkpoint(path: &Path) -> Result<Vec<PackCheckpoint>, String> {
    PackCheckpoint::read_file(path).map_err(|e| read_error_worded(&e))
}

/// Returns the error for a checkpoint read from `path` that does not fit the run
/// ([`Error::Checkpoint`]), at the line of `path` it points to ([`Error::line_in`]).
pub fn mismatch_at(path: &Path, error: &Error) -> String {
    let Error::Checkpoint { mismatch, .. } = error else {
        return error.to_string();
    };
    cannot_resume(path, error, &mismatch_worded(mismatch))
}

/// Returns `cannot resume: message` of the checkpoint read from `path`, at the line of
/// `path` that `error` points to ([`Error::line_in`]).
fn cannot_resume(path: &Path, error: &Error, message: &str) -> String {
    match std::fs::read(path).ok().and_then(|b| error.line_in(&b)) {
        Some(l) => format!("{}:{l}: cannot resume: {message}", show(path)),
        None => format!("{}: cannot resume: {message}", show(path)),
    }
}

/// Refuses options `pack` cannot use ([`Repack::refuse`]), and returns the file its
/// checkpoint is saved to.
fn checked(args: &PackCommandArgs, matches: &ArgMatches) -> Result<Option<PathBuf>, Failure> {
    args.repack.refuse()?;
    if given(matches, "checkpoint") && args.state.is_none() && args.resume.is_none() {
        return Err(Refusal::NoFile(Keeps::Checkpoint).into());
    }
    let (out, resume) = (args.out.as_deref(), args.resume.as_deref());
    Ok(state_file(args.state.as_deref(), resume, out)?)
}

/// Prints what the packing did: the lengths before (`before`) and after (and why the
/// input's layout is kept, if it is), and where a resumed run started.
fn report(args: &PackCommandArgs, repacked: &Outcome, before: usize, resumed_at: Option<u64>) {
    let lengths = repacked.repacked(before);
    say!("packed {} again: {lengths}", show(&args.file));
    if let (Some(path), Some(at)) = (&args.resume, resumed_at) {
        say!("resumed from {} at move {at}", show(path));
    }
    say!("{}", repacked.summary());
}

/// Returns the command that goes on with the packing `step` records from its checkpoint
/// saved in `path`.
fn resuming(step: &Step, path: &Path) -> Step {
    let mut step = step.clone();
    step.push("--resume");
    step.push(show(path));
    step
}

/// Returns the command that reproduces this packing: what was given, and the moves it
/// made unless given (recorded as if given, so the header regenerates the same set whatever
/// the default becomes).
fn recorded(matches: &ArgMatches, settings: &PackSettings, base: &PackSettings) -> Step {
    let command = PackCommandArgs::augment_args(clap::Command::new("pack"));
    let implied = settings::recorded(settings, base);
    recorded_command(&command, matches, &UNRECORDED, &implied)
}

/// The sets of --also, verified, and each one's file as named with its header, whose
/// credits go with the magics the packing takes.
type Also = (Vec<MagicSet>, Vec<(String, Provenance)>);

/// Reads and verifies the sets of --also (`files`); errors name the file.
fn read_also(files: &[PathBuf]) -> Result<Also, String> {
    let (mut sets, mut headers) = (Vec::new(), Vec::new());
    for file in files {
        let (set, _, header) = read_and_verify(file)?;
        sets.push(set);
        headers.push((show(file), header));
    }
    Ok((sets, headers))
}

/// Credits in `provenance` the magics the packing took (from `before` to `after`) from the
/// sets of --also (`also`), and says so.
fn credit_also(provenance: &mut Provenance, (before, after): (&MagicSet, &MagicSet), also: &Also) {
    let (sets, headers) = also;
    let credited: Vec<CreditedSet> = (headers.iter().zip(sets))
        .map(|((file, provenance), set)| CreditedSet {
            file,
            set,
            provenance,
        })
        .collect();
    provenance.credit_taken(before, after, &credited);
    for credit in provenance.credit_summary() {
        say!("credited in the header: {credit}");
    }
}

/// Words an error of the repack: a checkpoint that does not fit at its line (with every
/// option in which the run differs from the checkpoint `saved`, whose settings the run
/// `asked` to pack with), a set of --also of another variant by its file, any other by the
/// file packed.
fn worded(
    args: &PackCommandArgs,
    error: Error,
    (saved, asked): (&[PackCheckpoint], &PackSettings),
) -> String {
    match (error, &args.resume) {
        (e @ Error::Checkpoint { .. }, Some(path)) => {
            let Error::Checkpoint { mismatch, .. } = &e else {
                unreachable!("matched above")
            };
            let mut each = vec![match mismatch {
                // The magics packed are the set's, those of --also and of --holes.
                Mismatch::Pools { saved, given } => format!(
                    "the checkpoint packs other magics (pools digest {saved:#018x}, where \
                     these pools give {given:#018x}): the set packed, --also, --holes and \
                     --rooks-first decide them, and must be those it was saved with"
                ),
                m => mismatch_worded(m),
            }];
            // Every other setting that differs, so that one retry can fix them all.
            let others = saved
                .first()
                .map_or_else(Vec::new, |c| Mismatch::each_between(&c.settings, asked));
            each.extend(
                others
                    .iter()
                    .filter(|m| *m != mismatch)
                    .map(mismatch_worded),
            );
            cannot_resume(path, &e, &each.join("; and "))
        }
        // The set at fault is the --also one, not the set packed.
        (e @ Error::OtherVariant { also, .. }, _) => {
            format!("{}: {e}", show(&args.repack.also[also]))
        }
        (e, _) => format!("{}: {e}", show(&args.file)),
    }
}

/// `magic-gen pack FILE`: parse, run the repack's stages ([`Repack::hunt`]) with a progress
/// display and checkpoints, then report and write the set.
pub fn run(args: &PackCommandArgs, matches: &ArgMatches) -> Result<ExitCode, Failure> {
    claim_stdout_for(args.out.as_deref());
    let state_path = checked(args, matches)?;
    let (set, before, input) = read_and_verify(&args.file)?;
    let limits = args.repack.limits(threads_or_all(args.threads));
    let settings = limits.pack;
    settings.check(set.variant).map_err(BadArgument)?;
    let also = read_also(&args.repack.also)?;
    let resume = args.resume.as_deref().map(read_checkpoint).transpose()?;
    let shown = Shown::new();
    let mut save = |_: Option<&_>, c: &[PackCheckpoint]| match &state_path {
        Some(path) => save_failed_told(PackCheckpoint::save_file(path, c)),
        None => Ok(()),
    };
    let every = Duration::from_secs_f64(args.checkpoint.max(0.1));
    let hooks = Hooks {
        progress: Some(&shown.progress),
        save: Some((every, &mut save)),
    };
    let from = resume.as_deref().unwrap_or(&[]);
    let repacked = shown
        .watch(None, args.progress.every(), || {
            let input = (&set, &before.report);
            let hunt = args.repack.hunt(input, &limits, &also.0, from)?;
            hunt.run(hooks)
        })
        .map_err(|e| worded(args, e, (from, &settings)))?;
    let resumed_at = resume.as_deref().map(|r| PackCheckpoint::moves_of(r).0);
    report(args, &repacked, before.report.table_len, resumed_at);
    let save_failed = repacked.save_failed.as_deref();
    let saved_to = state_path.as_deref().filter(|_| save_failed.is_none());
    let step = recorded(matches, &settings, &args.repack.defaults());
    // The input's header says how its magics were found; a published set's has no seed.
    let mut header = input.then(step.clone());
    header.seed = header.seed.or(Some(settings.seed));
    let saved = saved_to.map(|path| resuming(&step, path));
    let mut ending = repacked.ending(shown.stopped(), saved, vec![step]);
    let mut provenance = repacked.header(header, &ending);
    credit_also(&mut provenance, (&set, &repacked.set), &also);
    shown.progress.begin(Stage::Writing, 0);
    // A run stopped short never writes over its own input: a resume reads it again, and
    // the checkpoint holds the progress (a pack in place, as the recorded recipes run).
    let short = !ending.complete() || save_failed.is_some();
    let kept = args
        .out
        .as_deref()
        .filter(|out| short && same_file(out, &args.file));
    match kept {
        Some(input) => say!("{} kept as it was: it is this packing's input", show(input)),
        None => write_set(args.out.as_deref(), &repacked, &provenance)?,
    }
    if let Some(e) = save_failed {
        return Err(failed_save(e, args.out.as_deref(), kept).into());
    }
    if let (Some(path), Some((cut, GoesOn::From(_)))) = (saved_to, &ending.cut) {
        say!(
            "checkpoint saved to {} (move {} of {})",
            show(path),
            cut.made,
            cut.total
        );
    }
    ending.stopped |= shown.stopped();
    Ok(closing::close(&ending, kept))
}
