//! `magic-gen merge`: its arguments, and the shard states combined into the best verified
//! set.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::hunt::args::{threads_or_all, Finishing, LONG_RUNS};
use crate::hunt::{Hooks, Hunt, Stage};
use crate::io::state_file;
use crate::search::{Error, SearchState, Shard};
use clap::{ArgMatches, Args};

use super::closing;
use super::failure::Failure;
use super::output::{claim_stdout_for, recorded_command, show, write_set};
use super::progress::{ProgressArgs, Shown};
use super::search::{read_state, save_state};

/// Arguments of `merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// State files of the shards of one search (`search --shard K/N --state FILE`).
    #[arg(required = true, value_name = "STATE")]
    states: Vec<PathBuf>,
    #[command(flatten)]
    finish: Finishing,
    /// Merge even if some shards of the search are missing: the set and the merged state
    /// are then marked as a partial merge (their header and command line name the shards
    /// merged), and no committed set may be one.
    #[arg(long)]
    partial: bool,
    /// Threads for the polish and the packings of --pack-seeds (default: all available
    /// cores). Does not change the result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Save the merged state here.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    state: Option<PathBuf>,
    #[command(flatten)]
    progress: ProgressArgs,
    /// Write the set here: Rust source for `.rs`, interchange format for any other name
    /// (`-`: standard output, the messages then going to standard error).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Returns the merge of the shard `states` read from `args.states`, and the shards
/// missing from it, refused unless `--partial` ([`SearchState::merge_partial`]); errors
/// name the file and line at fault.
fn merge_shards(
    args: &MergeArgs,
    states: &[SearchState],
) -> Result<(SearchState, Vec<Shard>), String> {
    let (merged, missing) = SearchState::merge_partial(states).map_err(|e| {
        let Error::Merge { state, with, .. } = &e else {
            return e.to_string();
        };
        let path = &args.states[*state];
        let line = fs::read(path).ok().and_then(|bytes| e.line_in(&bytes));
        let place = line.map_or(show(path), |l| format!("{}:{l}", show(path)));
        let with = show(&args.states[*with]);
        format!("{place}: cannot merge with {with}: {e}")
    })?;
    if !missing.is_empty() && !args.partial {
        let missing: Vec<String> = missing.iter().map(Shard::to_string).collect();
        return Err(format!(
            "{} of the search's {} shards given; missing {}: merge them all, or give \
             --partial for a set of part of the search",
            states.len(),
            merged.scan.shard.count,
            missing.join(", ")
        ));
    }
    Ok((merged, missing))
}

/// `magic-gen merge`: parse, merge the shards, finish them with a progress display, then
/// report and write the set.
pub fn run(args: &MergeArgs, matches: &ArgMatches) -> Result<ExitCode, Failure> {
    claim_stdout_for(args.out.as_deref());
    // The merged state is saved where the --state of a search would be.
    state_file(args.state.as_deref(), None, args.out.as_deref())?;
    let states = args
        .states
        .iter()
        // A shard's pack checkpoint is of its own pools: the merged set packs afresh.
        .map(|p| read_state(p).map(|(state, _)| state))
        .collect::<Result<Vec<_>, _>>()?;
    // Read now, not once the merge has run: the shards' commands go on the header, each
    // step saving the state the next resumes, the last the file the merge reads.
    let shard_steps = states
        .iter()
        .zip(&args.states)
        .map(|(state, path)| {
            let path = show(path);
            state
                .shard_steps(&path)
                .map_err(|e| format!("{path}: command: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let first = &states[0];
    let limits = args.finish.merging(first, threads_or_all(args.threads))?;
    let (mut merged, missing) = merge_shards(args, &states)?;
    // Where the merged state is saved never changes the set.
    let command = MergeArgs::augment_args(clap::Command::new("merge"));
    let unrecorded = ["state", "threads", "progress_every"];
    let recorded = recorded_command(&command, matches, &unrecorded, &[]);
    if let Some(path) = &args.state {
        if missing.is_empty() {
            merged.command = SearchState::merged_command(&shard_steps, &recorded, &show(path));
        }
        save_state(path, &merged, &[])?;
    }
    let shown = Shown::new();
    let hooks = Hooks {
        progress: Some(&shown.progress),
        ..Hooks::default()
    };
    let outcome = shown
        .watch(None, args.progress.every(), || {
            Hunt::finish(&merged, &limits).run(hooks)
        })
        .map_err(|e| e.to_string())?;
    let (count, partial) = (
        first.scan.shard.count,
        if missing.is_empty() { "" } else { " (partial)" },
    );
    say!(
        "merged {} of {count} shards{partial} of `{}`",
        states.len(),
        first.search_command()
    );
    say!("{}", outcome.summary());
    // The merge keeps no checkpoint: a stopped one is rerun.
    let mut ending = outcome.ending(shown.stopped(), None, vec![recorded.clone()]);
    let header = SearchState::merged_header(&states, shard_steps, &missing, recorded);
    let provenance = outcome.header(header, &ending);
    shown.progress.begin(Stage::Writing, 0);
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    ending.stopped |= shown.stopped();
    Ok(closing::close(&ending, None))
}
