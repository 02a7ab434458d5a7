//! `magic-gen merge`: its arguments, and the shard states combined into the best verified
//! set.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use clap::{ArgMatches, Args};
use magic_gen::pack::{PackHooks, PackProgress};
use magic_gen::search::{self, Limits, Stage, Stages};
use magic_gen::{line_of, Provenance};

use super::args::{threads_or_all, PackArgs, PolishArgs, LONG_RUNS};
use super::output::{
    check_writable, claim_stdout_for, recorded_command, show, summarise, write_set,
};
use super::pack::moves_of;
use super::progress::{holder, watching, ProgressArgs, Watched};
use super::search::{read_state, save_state};
use super::stop::signalled_flag;

/// Arguments of `merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// State files of the shards of one search (`search --shard K/N --state FILE`).
    #[arg(required = true, value_name = "STATE")]
    states: Vec<PathBuf>,
    #[command(flatten)]
    polish: PolishArgs,
    #[command(flatten)]
    pack: PackArgs,
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

/// `magic-gen merge`.
pub fn run(args: &MergeArgs, matches: &ArgMatches) -> Result<ExitCode, String> {
    claim_stdout_for(args.out.as_deref());
    for path in args.out.iter().chain(args.state.iter()) {
        check_writable(path)?;
    }
    let states = args
        .states
        .iter()
        // A shard's pack checkpoint is of its own pools: the merged set packs afresh.
        .map(|p| read_state(p).map(|(state, _)| state))
        .collect::<Result<Vec<_>, _>>()?;
    let scan = states[0].scan;
    if !scan.variant.is_packed() {
        if let Some(flag) = args.polish.first_given().or(args.pack.first_given()) {
            return Err(format!(
                "{flag} does nothing to {} shards: pools and packing are for black and white",
                scan.variant
            ));
        }
    }
    // Finished as the one run of the search would be: as its states record, unless given.
    let limits = Limits {
        threads: threads_or_all(args.threads),
        polish: args.polish.apply(states[0].finish.polish, scan.variant)?,
        pack: args.pack.apply(states[0].finish.pack),
        ..Limits::default()
    };
    let merged = search::merge(&states).map_err(|e| {
        let path = &args.states[e.state];
        // Read again for the line at fault: the parsed state keeps no line numbers.
        let line = e.line.as_deref().and_then(|key| {
            let bytes = fs::read(path).ok()?;
            line_of(&bytes, key)
        });
        let place = match line {
            Some(l) => format!("{}:{l}", show(path)),
            None => show(path),
        };
        format!(
            "{place}: cannot merge with {}: {e}",
            show(&args.states[e.with])
        )
    })?;
    let mut merged = merged;
    let count = scan.shard.count as usize;
    let partial = (states.len() < count).then(|| {
        let mut have: Vec<u32> = states.iter().map(|s| s.scan.shard.index).collect();
        have.sort_unstable();
        let missing: Vec<String> = (0..scan.shard.count)
            .filter(|i| have.binary_search(i).is_err())
            .map(|i| format!("{i}/{count}"))
            .collect();
        missing
    });
    if let Some(missing) = &partial {
        if !args.partial {
            return Err(format!(
                "{} of the search's {count} shards given; missing {}: merge them all, or \
                 give --partial for a set of part of the search",
                states.len(),
                missing.join(", ")
            ));
        }
        // The state says so on its command line, which a resume or merge carries on.
        merged.command = format!(
            "partial merge of {} of {count} shards, missing {}",
            states.len(),
            missing.join(", ")
        );
    }
    if let Some(path) = &args.state {
        save_state(path, &merged, &[])?;
    }
    let stop = signalled_flag();
    let start = Instant::now();
    let stages = {
        let stop = Arc::clone(&stop);
        Stages::new(holder(start, move || stop.load(Ordering::SeqCst)))
    };
    let pack_progress = PackProgress::default();
    let watched = Watched {
        scan: None,
        pack: &pack_progress,
        stages: &stages,
        stop: &stop,
    };
    let outcome = watching(&watched, args.progress.every(), start, || {
        let mut hooks = PackHooks {
            progress: Some(&pack_progress),
            stop: Some(&stop),
            stages: Some(&stages),
            threads: limits.threads,
            ..PackHooks::default()
        };
        search::finish(&merged, &limits, &[], &mut hooks)
    })
    .map_err(|e| e.to_string())?;
    let first = &states[0];
    say!(
        "merged {} of {} shards{} of `{}`",
        states.len(),
        first.scan.shard.count,
        if partial.is_some() { " (partial)" } else { "" },
        without_shard(&first.command)
    );
    summarise(&outcome);
    // Where the merged state is saved never changes the set.
    let recorded = recorded_command(
        &MergeArgs::augment_args(clap::Command::new("merge")),
        matches,
        &["state", "threads", "progress_every"],
        &[],
    );
    let partial = partial.map(|missing| {
        format!(
            "a partial merge of {} of {count} shards; missing {}: merge with their state \
             files to finish",
            states.len(),
            missing.join(", ")
        )
    });
    // What a stop cut short: the polish, else the packing (the merge keeps no checkpoint).
    let (made, total) = moves_of(&outcome.pack);
    let (climbed, climbs) = outcome.polish;
    let cut = if climbed < climbs {
        Some(format!(
            "the polish stopped after {climbed} of {climbs} climbs"
        ))
    } else {
        (made < total).then(|| format!("the packing stopped after {made} of {total} moves"))
    };
    let cut = cut.map(|what| format!("{what}; rerun `{recorded}`"));
    let unfinished = match (partial, cut) {
        (Some(p), Some(c)) => Some(format!("{p}; then {c}")),
        (p, c) => p.or(c),
    };
    let provenance = Provenance {
        seed: Some(first.scan.seed),
        command: Some(recorded),
        unfinished,
    };
    stages.begin(Stage::Writing, 0);
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    if stop.load(Ordering::SeqCst) {
        eprintln!("interrupted: the set above is verified, the best the merge had when stopped");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// Returns a shard's recorded `command` without its `--shard K/N`: the search that all the
/// shards are parts of. (Words are split at spaces and joined again, so quoted paths with
/// spaces come back as they were.)
fn without_shard(command: &str) -> String {
    let mut kept = Vec::new();
    let mut words = command.split(' ');
    while let Some(word) = words.next() {
        if word == "--shard" {
            words.next();
        } else {
            kept.push(word);
        }
    }
    kept.join(" ")
}

#[cfg(test)]
mod tests {
    use super::without_shard;

    #[test]
    fn the_search_of_a_shard_is_its_command_without_the_shard() {
        assert_eq!(
            without_shard("magic-gen search --variant black --shard 0/2 --out 'a b.rs' --seed 1"),
            "magic-gen search --variant black --out 'a b.rs' --seed 1"
        );
        assert_eq!(
            without_shard("magic-gen search --seed 1"),
            "magic-gen search --seed 1"
        );
    }
}
