//! `magic-gen stats`: its arguments, and a set's size with 8x8 boards of index bits and
//! each square's measures; a hunt's pools measured; two compared square by square. The
//! measures and their tables are `crate::measure`'s; this file reads and prints them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::measure::{MeasureError, PerSquare, Pools};
use crate::search::SearchState;
use clap::Args;

use crate::io::{check_run_outputs, is_stdio};

use super::output::{claim_stdout_for, show, write_output};
use super::search::read_state;
use super::verify::{print_size, read_and_verify, Checked};

/// Arguments of `stats`.
#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    /// Set file: `.rs` (emitted) or interchange format; `-` reads standard input. Or a
    /// search state file (`search --state`): its pools, each square's magics measured.
    file: PathBuf,
    /// Also write an SVG picture of the table here (`-`: standard output, the figures then
    /// going to standard error): 1,024 slots a row, a colour per square, holes black.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "against")]
    picture: Option<PathBuf>,
    /// Compare FILE (ours) with this set or state file (theirs) square by square: slots
    /// used by each, ours minus theirs, the free slots at each range's ends, totals, and the
    /// squares where ours uses no more slots than theirs. A state file gives each square's
    /// pool magic with the fewest slots used.
    #[arg(long, value_name = "THEIRS")]
    against: Option<PathBuf>,
    /// With a state file: list every magic of every pool, not only each square's with the
    /// fewest slots used.
    #[arg(long, conflicts_with = "against")]
    members: bool,
}

/// What `stats` reads: a verified set, or a hunt's pools measured.
enum Source {
    Set(Box<Checked>),
    Pools(Pools),
}

/// Reads `path` (`-`: a set from standard input) as a verified set or a state's pools.
fn read_source(path: &Path) -> Result<Source, String> {
    if is_stdio(path) || !SearchState::is_state_file(path) {
        return Ok(Source::Set(Box::new(read_and_verify(path)?)));
    }
    let (state, _) = read_state(path)?;
    Pools::of_state(&state)
        .map(Source::Pools)
        .map_err(|e| word(&e, path, None))
}

/// Returns what a source offers per square: a set's magics, or each pool's best.
fn per_square(source: &Source, path: &Path) -> Result<PerSquare, String> {
    match source {
        Source::Set(checked) => PerSquare::of_set(&checked.0).map_err(|e| word(&e, path, None)),
        Source::Pools(pools) => Ok(pools.best()),
    }
}

/// Words a measuring error: `file`'s, or the comparison of `file` with `theirs`.
fn word(e: &MeasureError, file: &Path, theirs: Option<&Path>) -> String {
    let file = show(file);
    match e {
        MeasureError::Variants { ours, theirs: v } => format!(
            "{file} is {ours} and {} is {v}: slots used compare only within one variant",
            theirs.map_or(String::new(), show)
        ),
        e => format!("{file}: {e}"),
    }
}

/// `magic-gen stats FILE`.
pub fn run(args: &StatsArgs) -> Result<ExitCode, String> {
    let file = &args.file;
    // `--picture -`: standard output holds the SVG alone.
    claim_stdout_for(args.picture.as_deref());
    if let Some(picture) = &args.picture {
        check_run_outputs(None, &[("--picture", picture)]).map_err(|e| e.to_string())?;
    }
    let source = read_source(file)?;
    if let Some(theirs_path) = &args.against {
        let theirs = read_source(theirs_path)?;
        let c = per_square(&source, file)?
            .compare(&per_square(&theirs, theirs_path)?)
            .map_err(|e| word(&e, file, Some(theirs_path)))?;
        say!("ours:   {}", describe(&source, file));
        say!("theirs: {}", describe(&theirs, theirs_path));
        say!("{c}");
        return Ok(ExitCode::SUCCESS);
    }
    let file_name = show(file);
    let table = match &source {
        Source::Set(_) if args.members => {
            return Err(format!(
                "{file_name}: --members lists the pools of a search state; this is a set"
            ))
        }
        Source::Pools(_) if args.picture.is_some() => {
            return Err(format!(
                "{file_name}: a search state holds pools, not a table: --picture draws a set"
            ))
        }
        Source::Set(checked) => per_square(&source, file)?.set_tables(&checked.1.report),
        Source::Pools(pools) if args.members => pools.members_table(),
        Source::Pools(pools) => pools.best_table(),
    };
    say!("{}", describe(&source, file));
    if let Source::Set(checked) = &source {
        print_size(&checked.1);
    }
    say!("{table}");
    if let (Source::Set(checked), Some(path)) = (&source, &args.picture) {
        write_output(path, checked.1.table_svg().as_bytes())?;
        if !is_stdio(path) {
            say!("wrote {}", show(path));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Returns `FILE: variant set`, or the state's pools in a line.
fn describe(source: &Source, file: &Path) -> String {
    match source {
        Source::Set(checked) => format!("{}: {} set", show(file), checked.0.variant),
        Source::Pools(pools) => format!("{}: {}", show(file), pools.summary()),
    }
}
