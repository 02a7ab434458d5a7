//! Output helpers: the recorded command line, paths as given, the wording of failed
//! writes (the writing itself is `crate::write_atomic`'s), and the set written.

use std::io::Write;
use std::path::{Path, PathBuf};

use std::sync::atomic::{AtomicBool, Ordering};

use crate::hunt::Outcome;
use crate::io::OutputsError;
use crate::set_file::{Argument, EntryLines, Provenance, Step};
use crate::{render_set_file, write_atomic, MagicSet, WriteError};
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

/// Returns true if `path` is `-`: standard input where a file is read, standard output
/// where one is written.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
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
        return write_atomic(path, contents).map_err(|e| write_failed(&e));
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

/// Words a failed write as every command says it, naming the path as given.
pub fn write_failed(e: &WriteError) -> String {
    let path = show(e.path());
    match e {
        WriteError::Io { error, .. } => format!("{path}: cannot write: {error}"),
        WriteError::Directory { .. } => {
            format!("{path}: cannot write: is a directory (give a file name)")
        }
        WriteError::SymlinkLoop { hops, .. } => {
            format!("{path}: cannot write: more than {hops} symbolic links in a row")
        }
        WriteError::NotAFileName { .. } => format!("{path}: not a file name"),
        WriteError::NoDirectory { dir, .. } => format!(
            "{path}: cannot write: directory {} does not exist",
            show(dir)
        ),
    }
}

/// Returns the file a run saves its state or checkpoint to (`state`, else the `resume`
/// file it goes on from), once it and `out` pass [`check_outputs`].
pub fn state_file(
    state: Option<&Path>,
    resume: Option<&Path>,
    out: Option<&Path>,
) -> Result<Option<PathBuf>, String> {
    let option = if state.is_some() {
        "--state"
    } else {
        "--resume"
    };
    let state = state.or(resume);
    if let Some(path) = state {
        refuse_stdio_state(option, path)?;
    }
    let others: Vec<(&str, &Path)> = state.map(|p| (option, p)).into_iter().collect();
    check_outputs(out, &others)?;
    Ok(state.map(Path::to_path_buf))
}

/// Refuses `-` as the file of a state or checkpoint (named by `option`): one is saved again
/// and again during a run and read back by `--resume`, which standard input and output
/// cannot do; `-` is standard input or output where a set is read or written.
pub fn refuse_stdio_state(option: &str, path: &Path) -> Result<(), String> {
    if !is_stdio(path) {
        return Ok(());
    }
    Err(format!(
        "{option} -: a state or checkpoint is saved to a file, again and again, and read back \
         by --resume; `-` (standard input or output) is for sets: give a file name"
    ))
}

/// Refuses, before any work, what would lose a file ([`crate::io::check_outputs`]): an
/// output other than the set (a state, checkpoint or picture, in `others` by the option
/// naming it) aimed at a file that holds a set, two outputs on one file (the set's `out`
/// among them), an output that cannot be written. Standard output (`-`) is no file.
pub fn check_outputs(out: Option<&Path>, others: &[(&str, &Path)]) -> Result<(), String> {
    let set = out.map(|p| ("--out", p, true));
    let others = others.iter().map(|&(option, path)| (option, path, false));
    let files: Vec<_> = set
        .into_iter()
        .chain(others)
        .filter(|o| !is_stdio(o.1))
        .collect();
    crate::io::check_outputs(&files).map_err(|e| match e {
        OutputsError::HoldsSet { output, path } => format!(
            "{}: this file holds a set, which {output} would replace: give {output} a file \
             of its own",
            show(&path)
        ),
        OutputsError::SameFile {
            first,
            second,
            path,
        } => format!(
            "{}: {first} and {second} both name this file, and the one written last would \
             replace the other: give each its own file",
            show(&path)
        ),
        OutputsError::Write(e) => write_failed(&e),
    })
}

/// Returns true if `a` and `b` name one file ([`crate::io::same_file`]); standard input or
/// output (`-`) is no file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    !is_stdio(a) && !is_stdio(b) && crate::io::same_file(a, b)
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
        let e = write_failed(&e);
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
