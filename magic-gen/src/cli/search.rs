//! `magic-gen search`: the seeded search run with a progress bar, Ctrl-C handling and
//! checkpoints of its state, a summary, and the set written atomically, its header saying
//! whether the run finished. The arguments are in `search_args.rs` (the options, defaults
//! and presets in the library's `crate::hunt::fresh`), the command it records in
//! `search_record.rs`.

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::hunt::{Hooks, Hunt, Outcome, Stage, Wanted};
use crate::io::{refuse_stdio_state, state_file};
use crate::pack::PackCheckpoint;
use crate::search::{EmptyBudget, Error, Limits, SearchState};
use crate::set_file::{Provenance, Step};
use clap::ArgMatches;

use super::closing;
use super::failure::{BadArgument, Failure};
use super::output::{claim_stdout_for, failed_save, given, save_failed_told, show, write_set};
use super::pack::mismatch_at;
use super::progress::Shown;
use super::resume::read_error_worded;
pub use super::search_args::SearchArgs;
use super::search_record::recorded;

/// A state file read to resume, with the packer's checkpoint in it if there is one.
type Resumed = (SearchState, Vec<PackCheckpoint>);

/// Reads a search state file, and the packer's checkpoint in it if there is one; errors
/// name the file and line.
pub fn read_state(path: &Path) -> Result<(SearchState, Vec<PackCheckpoint>), String> {
    SearchState::read_file(path).map_err(|e| read_error_worded(&e))
}

/// Where a run of `search` starts: the state, the packer's checkpoint saved with it (empty:
/// none), the run's limits, and the commands that shape the set it writes.
struct Start {
    state: SearchState,
    saved_pack: Vec<PackCheckpoint>,
    limits: Limits,
    history: Vec<Step>,
}

/// Returns where the run `args` describe starts: the state read from --resume (with its
/// pack checkpoint if it has one), which finishes as recorded in it unless the command line
/// says otherwise and records the resume ([`SearchState::resumed_by`]), or a fresh one;
/// `matches` are the arguments as parsed, which the command recorded is derived from.
fn initial_state(
    args: &SearchArgs,
    matches: &ArgMatches,
    resumed: Option<Resumed>,
) -> Result<Start, Failure> {
    if let (Some(path), Some((mut state, saved_pack))) = (&args.resume, resumed) {
        if let Some(n) = args.asked.candidates {
            // The budget given is at fault, not the file: a bad argument.
            state.raise_budget(n).map_err(|e| {
                BadArgument(format!("{}: cannot raise the budget: {e}", show(path)))
            })?;
        }
        let limits = args
            .asked
            .limits((state.polish, state.pack), state.scan.variant)?;
        // Read now, not once the hunt has run: the state's command line goes on the header,
        // each step saving the state the next resumes, so that it reruns from nothing.
        let history = state
            .resumed_steps(&recorded(matches, None), &limits)
            .map_err(|e| format!("{}: command: {e}", show(path)))?;
        return Ok(Start {
            state,
            saved_pack,
            limits,
            history,
        });
    }
    let options = args.recorded_options(matches)?;
    // What the options ask of the scan is the arguments': refused, a bad argument.
    let state = SearchState::new(&options).map_err(|e| match e {
        Error::EmptyBudget(EmptyBudget::Candidates) => {
            Failure::BadArgument(format!("--candidates 0: {e}"))
        }
        Error::EmptyBudget(EmptyBudget::Seconds) => {
            Failure::BadArgument(format!("--seconds 0: {e}"))
        }
        e @ Error::Bits { .. } => Failure::BadArgument(e.to_string()),
        e => Failure::Failed(e.to_string()),
    })?;
    Ok(Start {
        state,
        saved_pack: Vec::new(),
        limits: options.limits,
        history: Step::parse_chain(&options.command).map_err(|e| e.to_string())?,
    })
}

/// Saves `state` ([`SearchState::save`]), its failure worded.
pub fn save_state(path: &Path, state: &SearchState, pack: &[PackCheckpoint]) -> Result<(), String> {
    state.save(path, pack).map_err(|e| e.to_string())
}

/// Prints what the run did: the search, the set's summary, and the state saved.
fn report(
    state: &SearchState,
    outcome: &Outcome,
    state_path: Option<&Path>,
    (shown, threads): (&Shown, usize),
) {
    let candidates = shown.progress.candidates.load(Ordering::Relaxed);
    let seconds = shown.start.elapsed().as_secs_f64();
    say!(
        "{}",
        outcome.searched(state, (candidates, seconds, threads))
    );
    if let Some(path) = state_path {
        say!(
            "state saved to {} ({})",
            show(path),
            outcome.state_left(state)
        );
    }
}

/// `magic-gen search`: parse, run the hunt (`crate::hunt::Hunt::search`) with a progress
/// display, the stop signals and the state file, then report and write the set.
pub fn run(args: &SearchArgs, matches: &ArgMatches) -> Result<ExitCode, Failure> {
    claim_stdout_for(args.out.as_deref());
    if let Some(path) = &args.resume {
        refuse_stdio_state("--resume", path)?;
    }
    let resumed = args.resume.as_deref().map(read_state).transpose()?;
    let variant = args.asked.variant(resumed.as_ref().map(|(s, _)| s));
    args.refuse_no_ops(variant, given(matches, "checkpoint"))?;
    let Start {
        mut state,
        saved_pack,
        limits,
        history,
    } = initial_state(args, matches, resumed)?;
    let (out, resume) = (args.out.as_deref(), args.resume.as_deref());
    let state_path = state_file(args.state.as_deref(), resume, out)?;
    // The run's stop flag is the scan's, handed to every later stage.
    let shown = Shown::new();
    let mut save = |st: Option<&SearchState>, pack: &[PackCheckpoint]| match (&state_path, st) {
        (Some(path), Some(st)) => save_failed_told(st.save(path, pack)),
        _ => Ok(()),
    };
    let hooks = Hooks {
        progress: Some(&shown.progress),
        save: Some((Duration::from_secs_f64(args.checkpoint.max(0.1)), &mut save)),
    };
    // A shard that writes no set is run for its state, which the merge finishes.
    let wanted = match args.out {
        Some(_) => Wanted::Set,
        None => Wanted::State,
    };
    let outcome = shown
        .watch(Some(limits.seconds), args.progress.every(), || {
            let hunt = Hunt::search(&mut state, &limits, wanted).resuming(&saved_pack);
            hunt.run(hooks)
        })
        .map_err(|e| match (e, &args.resume) {
            (e @ Error::Checkpoint { .. }, Some(path)) => mismatch_at(path, &e),
            (e, _) => e.to_string(),
        })?;
    // A state whose save failed is not where this run ended: neither the report nor the
    // set's header offers to resume it (the header says rerun).
    let saved_to = state_path
        .as_deref()
        .filter(|_| outcome.save_failed.is_none());
    report(&state, &outcome, saved_to, (&shown, limits.threads));
    // Stopped before the set was made: it says in its header what was cut short.
    let finishing = saved_to.map(|path| args.finishing_command(path, matches));
    let mut ending = outcome.ending(shown.stopped(), finishing, history.clone());
    let header = Provenance {
        seed: Some(state.scan.seed),
        // A resumed state records the run that started it, then every resume.
        steps: history,
        ..Provenance::default()
    };
    let provenance = outcome.header(header, &ending);
    shown.progress.begin(Stage::Writing, 0);
    write(args.out.as_deref(), &outcome, &provenance, saved_to)?;
    if let Some(e) = &outcome.save_failed {
        return Err(failed_save(e, args.out.as_deref(), None).into());
    }
    // A stop while writing changes nothing written, but the run was stopped all the same.
    ending.stopped |= shown.stopped();
    Ok(closing::close(&ending, None))
}

/// Writes the set of `outcome` with its header `provenance` to `out`; an error says where
/// the run's state is saved (`saved_to`), which finishes it again into another file.
fn write(
    out: Option<&Path>,
    outcome: &Outcome,
    provenance: &Provenance,
    saved_to: Option<&Path>,
) -> Result<(), String> {
    write_set(out, outcome, provenance).map_err(|e| match saved_to {
        // The hunt's work is in its state: say so, and how to get the set from it.
        Some(path) => format!(
            "{e}; the run's state is saved in {0}: `magic-gen search --resume {0} --out FILE` \
             finishes it again into another file",
            Step::quote(&show(path))
        ),
        None => e,
    })
}
