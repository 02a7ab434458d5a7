//! `magic-gen search`: the seeded search run with a progress bar, Ctrl-C handling and
//! checkpoints of its state, a summary, and the set written atomically, its header saying
//! whether the run finished. The arguments, defaults and presets are in `search_args.rs`.

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::ArgMatches;
use magic_gen::pack::{PackCheckpoint, PackHooks, PackProgress, PackSettings};
use magic_gen::search::state::Shard;
use magic_gen::search::{
    self, Error, Limits, PolishSettings, Progress, SearchState, Stage, Stages,
};
use magic_gen::Provenance;

use super::output::{
    check_writable, claim_stdout_for, given, shell_quote, show, summarise, write_atomic, write_set,
};
use super::pack::{mismatch_at, moves_of};
use super::progress::{holder, watching, Watched};
pub use super::search_args::SearchArgs;
use super::stop::stop_on_signal;

/// A state file read to resume, with the packer's checkpoint in it if there is one.
type Resumed = (SearchState, Vec<PackCheckpoint>);

/// Reads a search state file, and the packer's checkpoint in it if there is one; errors
/// name the file and line.
pub fn read_state(path: &Path) -> Result<(SearchState, Vec<PackCheckpoint>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", show(path)))?;
    SearchState::parse_with_pack(&show(path), &bytes).map_err(|e| e.to_string())
}

/// Returns the search state `args` describe (read from --resume, with its pack checkpoint
/// if it has one, or a fresh one), the limits of this run, and the history of commands
/// that shape the set this run writes. A resumed state finishes as recorded in it unless
/// the command line says otherwise, and records what this run finishes with.
fn initial_state(
    args: &SearchArgs,
    resumed: Option<Resumed>,
) -> Result<(SearchState, Vec<PackCheckpoint>, Limits, String), String> {
    if let (Some(path), Some((mut state, pack))) = (&args.resume, resumed) {
        if let Some(n) = args.candidates {
            state
                .raise_budget(n)
                .map_err(|e| format!("{}: cannot raise the budget: {e}", show(path)))?;
        }
        let limits = args.limits(state.finish, state.scan.variant)?;
        let history = format!("{}; then {}", state.command, args.recorded_resume(path));
        // A run that scans records itself in the state, and how it finishes, since it
        // shapes what the state keeps from here on. One that only finishes a finished
        // state (repacking it, say) leaves the state as it was, so that a committed state
        // and the set written from it regenerate byte for byte however often the command
        // runs; its finishing command repeats what it was given.
        if state.jobs.iter().any(|j| !j.done) {
            state.command = history.clone();
            state.finish = limits.finish();
        }
        return Ok((state, pack, limits, history));
    }
    let options = args.fresh_options()?;
    let state = SearchState::new(&options).map_err(|e| e.to_string())?;
    Ok((state, Vec::new(), options.limits, options.command))
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

/// Returns the command that finishes an unfinished run of `args` whose state is saved in
/// `state`: its resume, which finishes as the state records (a fresh search), or with what
/// this resume was given.
fn finishing_command(state: &Path, args: &SearchArgs) -> String {
    if args.resume.is_some() {
        return args.recorded_resume(state);
    }
    let out = args.out.as_deref();
    let out = out.map_or(String::new(), |o| {
        format!(" --out {}", shell_quote(&show(o)))
    });
    format!(
        "magic-gen search --resume {}{out}",
        shell_quote(&show(state))
    )
}

/// Returns what an interrupted run left undone and the command that finishes it, for the
/// set's header: the first stage it cut short (the scan, the polish or the packing); `None`
/// if nothing was left (the stop came after the last step).
fn unfinished_note(
    state: &SearchState,
    (polish, pack): ((u64, u64), &[PackCheckpoint]),
    state_path: Option<&Path>,
    args: &SearchArgs,
    history: &str,
) -> Option<String> {
    let open = state.jobs.iter().filter(|j| !j.done).count();
    let done = if open > 0 {
        let budget = match state.budget_used() {
            Some((spent, total)) => format!(
                " at {:.1}% of its budget ({spent} of {total} candidates over all squares)",
                100.0 * spent as f64 / total.max(1) as f64
            ),
            None => String::new(),
        };
        format!(
            "the scan stopped{budget}: {open} of {} squares unfinished fell back",
            state.jobs.len()
        )
    } else if polish.0 < polish.1 {
        format!(
            "the polish stopped after {} of {} climbs, the other finds left as scanned, \
             before the packing",
            polish.0, polish.1
        )
    } else {
        let (made, total) = moves_of(pack);
        if made >= total {
            return None;
        }
        format!("the packing stopped after {made} of {total} moves")
    };
    let finish = match state_path {
        Some(path) => format!("finish with `{}`", finishing_command(path, args)),
        None => format!("no --state was given: rerun `{history}`"),
    };
    Some(format!("{done}; {finish}"))
}

/// `magic-gen search`.
pub fn run(args: &SearchArgs, matches: &ArgMatches) -> Result<ExitCode, String> {
    claim_stdout_for(args.out.as_deref());
    let resumed = args.resume.as_deref().map(read_state).transpose()?;
    args.refuse_no_ops(
        args.variant(resumed.as_ref().map(|(s, _)| s)),
        given(matches, "checkpoint"),
    )?;
    let (mut state, saved_pack, limits, history) = initial_state(args, resumed)?;
    // A shard's own set is of its share of the scan: the hunt's set is the merge of every
    // shard's state, which polishes and packs. Without --out, the shard packs greedily.
    let shard_only = state.scan.shard != Shard::WHOLE && args.out.is_none();
    let finish_limits = if shard_only {
        Limits {
            polish: PolishSettings::default(),
            pack: PackSettings {
                iterations: 0,
                seeds: 1,
                ..limits.pack
            },
            ..limits
        }
    } else {
        limits
    };
    let threads = limits.threads;
    let state_path = args.state.clone().or_else(|| args.resume.clone());
    for path in args.out.iter().chain(state_path.iter()) {
        check_writable(path)?;
    }
    // The run's stop flag is the scan's, handed to every later stage.
    let progress = Arc::new(Progress::default());
    {
        let progress = Arc::clone(&progress);
        stop_on_signal(move || progress.stop.store(true, Ordering::SeqCst));
    }
    let pack_progress = PackProgress::default();
    let start = Instant::now();
    let stages = {
        let progress = Arc::clone(&progress);
        Stages::new(holder(start, move || progress.stop.load(Ordering::SeqCst)))
    };
    let every = Duration::from_secs_f64(args.checkpoint.max(0.1));
    let scanned_from = state.jobs.clone();
    let mut save_error = None;
    let mut scan_time = Duration::ZERO;
    let watched = Watched {
        scan: Some((&progress, limits.seconds)),
        pack: &pack_progress,
        stages: &stages,
        stop: &progress.stop,
    };
    let result = watching(&watched, args.progress.every(), start, || {
        let mut work = || -> Result<_, String> {
            let mut save = |st: &SearchState| {
                if let Some(path) = &state_path {
                    if let Err(e) = save_state(path, st, &[]) {
                        save_error.get_or_insert(e);
                    }
                }
            };
            let scan_start = Instant::now();
            stages.begin(Stage::Scan, 0);
            search::run(&mut state, &limits, &progress, Some((every, &mut save)));
            scan_time = scan_start.elapsed();
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
                stages: Some(&stages),
                threads,
            };
            Ok(search::finish(&state, &finish_limits, resume, &mut hooks))
        };
        work()
    });
    let mut outcome = result?.map_err(|e| match (e, &args.resume) {
        (Error::Checkpoint(m), Some(path)) => mismatch_at(path, &m),
        (e, _) => e.to_string(),
    })?;
    if let Some(e) = save_error {
        return Err(e);
    }
    outcome.stages.insert(0, ("scan", scan_time));
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
    // Stopped before the set was made: it says in its header what was cut short.
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
    if shard_only {
        say!(
            "shard {}: its pools packed greedily; the hunt's set is `magic-gen merge` of every \
             shard's state",
            state.scan.shard
        );
    }
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
        command: Some(history.clone()),
        unfinished: interrupted
            .then(|| {
                let cut = (outcome.polish, &outcome.pack[..]);
                unfinished_note(&state, cut, state_path.as_deref(), args, &history)
            })
            .flatten(),
    };
    let finished = provenance.unfinished.is_none();
    stages.begin(Stage::Writing, 0);
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    // A stop while writing changes nothing written, but the run was stopped all the same.
    if !progress.stop.load(Ordering::SeqCst) {
        return Ok(ExitCode::SUCCESS);
    }
    let (made, total) = moves_of(&outcome.pack);
    let (climbed, climbs) = outcome.polish;
    match stopped_pack.first() {
        _ if finished => {
            eprintln!("stopped after the last step: the set above is complete and verified")
        }
        _ if open > 0 => eprintln!(
            "interrupted: the set above is complete and verified; unfinished squares fell back"
        ),
        _ if climbed < climbs => eprintln!(
            "interrupted during the polish ({climbed} of {climbs} climbs): the set above is \
             verified, the finds not climbed packed as scanned, greedily"
        ),
        Some(c) => {
            let how = match &state_path {
                Some(path) => format!(
                    "; --resume {} --pack-iterations {} goes on from there",
                    show(path),
                    c.settings.iterations
                ),
                None => " (give --state FILE to keep a checkpoint)".into(),
            };
            eprintln!(
                "interrupted after {made} of {total} packing moves: the set above is the \
                 best layout met, verified{how}"
            )
        }
        None => eprintln!(
            "interrupted before the packing's first move: the set above is the greedy \
             layout, verified"
        ),
    }
    Ok(ExitCode::from(130))
}
