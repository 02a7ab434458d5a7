//! Output helpers: the recorded command line, paths as given, the wording of failed
//! writes (the writing itself is `crate::write_atomic`'s), and the set written.

use std::io::Write;
use std::path::Path;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::hunt::Outcome;
use crate::io::{is_stdio, write_atomic, Argument, WriteError};
use crate::set_file::{EntryLines, Provenance, Step};
use crate::{render_set_file, MagicSet};
use clap::parser::ValueSource;
use clap::ArgMatches;

use super::resume::read_error_worded;

/// Set once a command writes its set to standard output (`--out -`): from then on its
/// messages go to standard error, so the output is the set alone.
static STDOUT_TAKEN: AtomicBool = AtomicBool::new(false);

/// Returns true if messages go to standard error because the set goes to standard output.
pub fn stdout_taken() -> bool {
    STDOUT_TAKEN.load(Ordering::Relaxed)
}

/// Sends the messages of this run to standard error if `out` is `-`, keeping standard
/// output for the set. Called before anything is printed.
pub fn claim_stdout_for(out: Option<&Path>) {
    if out.is_some_and(is_stdio) {
        STDOUT_TAKEN.store(true, Ordering::Relaxed);
    }
}

/// Reads a set from `path`, or from standard input for `-` (Rust source if it has a
/// `pub const VARIANT` line, else the interchange format), with the line of each entry;
/// errors name the file and line, and a hunt's file given for a set what resumes it.
pub fn read_set(path: &Path) -> Result<(MagicSet, Provenance, EntryLines), String> {
    let read = if is_stdio(path) {
        crate::read_set_stream("<stdin>", std::io::stdin().lock())
    } else {
        crate::read_set_file(path)
    };
    read.map_err(|e| read_error_worded(&e))
}

/// Writes `contents` to `path` atomically ([`crate::write_atomic`]), or to standard output for `-`.
pub fn write_output(path: &Path, contents: &[u8]) -> Result<(), String> {
    if !is_stdio(path) {
        return write_atomic(path, contents).map_err(|e| e.to_string());
    }
    let mut out = std::io::stdout().lock();
    out.write_all(contents)
        .and_then(|()| out.flush())
        .map_err(|e| format!("standard output: cannot write: {e}"))
}

/// Returns the step (command) that reproduces a run of `magic-gen NAME` ([`Step::recorded`]),
/// derived from what clap parsed, so that a new option is recorded without anyone
/// remembering to: every argument of `command` but those listed in `unrecorded` (they never
/// change the result), as given, or as `implied` by its long flag. Every command's header
/// records the step this returns.
pub fn recorded_command(
    command: &clap::Command,
    matches: &ArgMatches,
    unrecorded: &[&str],
    implied: &[(&str, String)],
) -> Step {
    let recorded = command
        .get_arguments()
        .filter(|arg| !unrecorded.contains(&arg.get_id().as_str()));
    let arguments: Vec<Argument> = recorded
        .map(|arg| {
            let id = arg.get_id().as_str();
            let values = matches.get_raw(id).into_iter().flatten();
            let values = values.map(|v| v.to_string_lossy().into_owned());
            Argument {
                long: arg.get_long(),
                takes_values: arg.get_action().takes_values(),
                given: given(matches, id).then(|| values.collect()),
            }
        })
        .collect();
    Step::recorded(command.get_name(), &arguments, implied)
}

/// Returns true if argument `id` was given on the command line (not a default).
pub fn given(matches: &ArgMatches, id: &str) -> bool {
    matches.value_source(id) == Some(ValueSource::CommandLine)
}

/// Returns `path` as the user gave it, for messages and recorded commands.
pub fn show(path: &Path) -> String {
    path.display().to_string()
}

/// Says at once that a save of the run's state or checkpoint failed, before the run winds
/// down (which the failure set off: see `crate::hunt::Hooks::save`).
pub fn tell_failed_save(error: &str) {
    tell!("error: {error}: stopping the run; the set it has will be verified and written");
}

/// Returns the outcome of a save of a run's state or checkpoint, a failure worded and
/// said at once ([`tell_failed_save`]).
pub fn save_failed_told(saved: Result<(), WriteError>) -> Result<(), String> {
    saved.map_err(|e| {
        let e = e.to_string();
        tell_failed_save(&e);
        e
    })
}

/// Returns the error a run ends with after a save of its state or checkpoint failed: the
/// failure, and where the work it did is kept (`out`, the set written), or that `input`, a
/// packing's own input it would have written over, is kept as it was.
pub fn failed_save(error: &str, out: Option<&Path>, input: Option<&Path>) -> String {
    let kept = match (input, out) {
        (Some(input), _) => format!("{} is kept as it was, this packing's input", show(input)),
        (None, Some(out)) if is_stdio(out) => {
            "its set, verified, went to standard output".to_string()
        }
        (None, Some(out)) => format!(
            "its set, verified, is in {} (the header says what was left undone)",
            show(out)
        ),
        (None, None) => "no --out was given, so its set was not kept".to_string(),
    };
    format!("{error}: the run stopped at this failed save; {kept}")
}

/// Writes the set to `out` (atomically) if given.
pub fn write_set(
    out: Option<&Path>,
    outcome: &Outcome,
    provenance: &Provenance,
) -> Result<(), String> {
    match out {
        Some(out) => {
            let text = render_set_file(out, &outcome.set, &outcome.report, provenance);
            write_output(out, text.as_bytes())?;
            if !is_stdio(out) {
                say!("wrote {}", show(out));
            }
        }
        None => say!("nothing written (give --out FILE.rs or --out FILE.txt to keep the set)"),
    }
    Ok(())
}
