//! `magic-gen search` and `merge`: run the seeded search with a progress bar, Ctrl-C
//! handling and checkpoints of its state, combine shard states, print a summary and write
//! the set atomically.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use magic_gen::search::{
    self, new_state, Budget, Limits, Options, Progress, Scan, SearchOutcome, SearchState, Shard,
    DEFAULT_POOL, DENSITY_PATIENCE,
};
use magic_gen::{relevant_mask, render_set_file, square_name, Piece, Provenance};

use super::{shell_quote, show, write_atomic};
use crate::{MergeArgs, SearchArgs};

/// A search shorter than this shows no progress bar.
const BAR_DELAY: Duration = Duration::from_secs(1);

/// Returns the command that reproduces `args`, normalised: program name `magic-gen`, every
/// option that changes the result spelled out (variant and seed always), `--threads`
/// left out because it never changes the result.
pub fn canonical_command(args: &SearchArgs) -> String {
    let mut c = format!("magic-gen search --variant {}", args.variant);
    if let Some(p) = args.piece {
        c.push_str(&format!(" --piece {p}"));
    }
    if let Some(s) = args.square {
        c.push_str(&format!(" --square {}", square_name(s)));
    }
    if let Some(b) = args.bits {
        c.push_str(&format!(" --bits {b}"));
    }
    if let Some(b) = args.bits_under {
        c.push_str(&format!(" --bits-under {b}"));
    }
    if let Some(s) = args.seconds {
        c.push_str(&format!(" --seconds {s}"));
    }
    if let Some(n) = args.candidates {
        c.push_str(&format!(" --candidates {n}"));
    }
    if let Some(shard) = args.shard {
        c.push_str(&format!(" --shard {shard}"));
    }
    // Pool and patience only matter to fixed-shift searches, and only when not the default.
    if args.pool != DEFAULT_POOL {
        c.push_str(&format!(" --pool {}", args.pool));
    }
    if args.patience != DENSITY_PATIENCE {
        c.push_str(&format!(" --patience {}", args.patience));
    }
    if let Some(s) = args.pack_seconds {
        c.push_str(&format!(" --pack-seconds {s}"));
    }
    c.push_str(&format!(" --seed {}", args.seed));
    if let Some(out) = &args.out {
        c.push_str(&format!(" --out {}", shell_quote(&show(out))));
    }
    c
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

/// Draws a progress bar on stderr once the search has run for [`BAR_DELAY`], until `done`.
/// The bar hides itself when stderr is not a terminal.
fn watch(progress: &Progress, done: &AtomicBool, start: Instant) {
    let mut bar: Option<ProgressBar> = None;
    while !done.load(Ordering::Acquire) {
        std::thread::park_timeout(Duration::from_millis(100));
        if done.load(Ordering::Acquire) {
            break;
        }
        if bar.is_none() && start.elapsed() >= BAR_DELAY {
            let total = progress.total.load(Ordering::Relaxed) as u64;
            let mut b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:24} {pos}/{len} squares, {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            b.set_style(style);
            b = b.with_elapsed(start.elapsed());
            bar = Some(b);
        }
        if let Some(b) = &bar {
            let done_jobs = progress.done.load(Ordering::Relaxed) as u64;
            b.set_position(done_jobs);
            let stage = if done_jobs >= progress.total.load(Ordering::Relaxed) as u64 {
                "laying out, verifying"
            } else if progress.stop.load(Ordering::Relaxed) {
                "stopping"
            } else {
                "searching"
            };
            let tried = progress.candidates.load(Ordering::Relaxed) as f64;
            let rate = tried / start.elapsed().as_secs_f64().max(1e-3);
            let reached = progress.reached.load(Ordering::Relaxed);
            b.set_message(format!(
                "{:.1}M tried ({:.1}M/s), {reached} reached, {stage}",
                tried / 1e6,
                rate / 1e6
            ));
            b.tick();
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// Fails early if `out`'s directory does not exist: before a long search, not after it.
fn check_writable(out: &Path) -> Result<(), String> {
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(format!(
            "{}: cannot write: directory {} does not exist",
            show(out),
            show(dir)
        ))
    }
}

/// Reads a search state file; errors name the file and line.
fn read_state(path: &Path) -> Result<SearchState, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", show(path)))?;
    SearchState::parse(&show(path), &bytes).map_err(|e| e.to_string())
}

/// Returns the search state `args` describe: read from --resume, or a fresh one.
fn initial_state(args: &SearchArgs) -> Result<SearchState, String> {
    if let Some(path) = &args.resume {
        return read_state(path);
    }
    if (args.piece.is_some() || args.square.is_some())
        && args.bits.is_none()
        && args.bits_under.is_none()
    {
        return Err(
            "--piece and --square choose the squares of --bits or --bits-under: give one of them"
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
            patience: args.patience,
        },
        targets: targets(args),
        bits: args.bits,
        bits_under: args.bits_under,
        command: canonical_command(args),
        limits: limits(args),
    };
    new_state(&options).map_err(|e| e.to_string())
}

/// Returns the limits of this run: they apply to a fresh search and a resumed one alike.
fn limits(args: &SearchArgs) -> Limits {
    Limits {
        threads: args
            .threads
            .map(|t| t as usize)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seconds: args.seconds,
        pack_seconds: args.pack_seconds,
    }
}

/// Saves `state` to `path` atomically.
fn save_state(path: &Path, state: &SearchState) -> Result<(), String> {
    write_atomic(path, state.to_text().as_bytes())
}

/// `magic-gen search`.
pub fn run(args: &SearchArgs) -> Result<ExitCode, String> {
    let limits = limits(args);
    let threads = limits.threads;
    let mut state = initial_state(args)?;
    let state_path = args.state.clone().or_else(|| args.resume.clone());
    for path in args.out.iter().chain(state_path.iter()) {
        check_writable(path)?;
    }
    let progress = Arc::new(Progress::default());
    {
        // First Ctrl-C: stop the scan and keep the verified set; second: exit now.
        let progress = Arc::clone(&progress);
        let _ = ctrlc::set_handler(move || {
            if progress.stop.swap(true, Ordering::SeqCst) {
                eprintln!("\ninterrupted twice: exiting without writing");
                std::process::exit(130);
            }
        });
    }

    let start = Instant::now();
    let done = AtomicBool::new(false);
    let mut save_error = None;
    std::thread::scope(|s| {
        let watcher = s.spawn(|| watch(&progress, &done, start));
        let mut save = |st: &SearchState| {
            if let Some(path) = &state_path {
                if let Err(e) = save_state(path, st) {
                    save_error.get_or_insert(e);
                }
            }
        };
        let every = Duration::from_secs_f64(args.checkpoint.max(0.1));
        search::run(&mut state, &limits, &progress, Some((every, &mut save)));
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        let _ = watcher.join();
    });
    if let Some(e) = save_error {
        return Err(e);
    }
    if let Some(path) = &state_path {
        save_state(path, &state)?;
    }
    let outcome = search::finish(&state, &limits).map_err(|e| e.to_string())?;
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
    if let Some(path) = &state_path {
        let open = state.jobs.iter().filter(|j| !j.done).count();
        say!(
            "state saved to {} ({open} of 128 jobs unfinished)",
            show(path)
        );
    }
    let provenance = Provenance {
        seed: Some(state.scan.seed),
        command: Some(match &args.resume {
            None => state.command.clone(),
            // The run that started the state, then this one: both shaped the set.
            Some(path) => {
                let mut c = format!(
                    "{}; then magic-gen search --resume {}",
                    state.command,
                    shell_quote(&show(path))
                );
                if let Some(s) = args.seconds {
                    c.push_str(&format!(" --seconds {s}"));
                }
                if let Some(s) = args.pack_seconds {
                    c.push_str(&format!(" --pack-seconds {s}"));
                }
                if let Some(out) = &args.out {
                    c.push_str(&format!(" --out {}", shell_quote(&show(out))));
                }
                c
            }
        }),
    };
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    if interrupted {
        eprintln!(
            "interrupted: the set above is complete and verified; unfinished squares fell back"
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// `magic-gen merge`.
pub fn merge(args: &MergeArgs) -> Result<ExitCode, String> {
    for path in args.out.iter().chain(args.state.iter()) {
        check_writable(path)?;
    }
    let states = args
        .states
        .iter()
        .map(|p| read_state(p))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = search::merge(&states).map_err(|e| format!("cannot merge: {e}"))?;
    if let Some(path) = &args.state {
        save_state(path, &merged)?;
    }
    let limits = Limits {
        pack_seconds: args.pack_seconds,
        ..Limits::default()
    };
    let outcome = search::finish(&merged, &limits).map_err(|e| e.to_string())?;
    let first = &states[0];
    say!(
        "merged {} of {} shards of `{}`",
        states.len(),
        first.scan.shard.count,
        first.command
    );
    summarise(&outcome);
    let names: Vec<String> = args.states.iter().map(|p| shell_quote(&show(p))).collect();
    let mut command = format!("magic-gen merge {}", names.join(" "));
    if let Some(s) = args.pack_seconds {
        command.push_str(&format!(" --pack-seconds {s}"));
    }
    if let Some(out) = &args.out {
        command.push_str(&format!(" --out {}", shell_quote(&show(out))));
    }
    let provenance = Provenance {
        seed: Some(first.scan.seed),
        command: Some(command),
    };
    write_set(args.out.as_deref(), &outcome, &provenance)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the set to `out` (atomically) if given.
fn write_set(
    out: Option<&Path>,
    outcome: &SearchOutcome,
    provenance: &Provenance,
) -> Result<(), String> {
    match out {
        Some(out) => {
            let text = render_set_file(out, &outcome.set, &outcome.report, provenance);
            write_atomic(out, text.as_bytes())?;
            say!("wrote {}", show(out));
        }
        None => say!("nothing written (give --out FILE.rs or --out FILE.txt to keep the set)"),
    }
    Ok(())
}

/// Prints the verified table's size and bits per piece, and the squares that fell back.
fn summarise(outcome: &SearchOutcome) {
    let r = &outcome.report;
    say!("verified: collision-free (every occupancy of all 128 squares checked)");
    say!(
        "table: {} entries ({:.1} KiB of u64), {} slots used",
        r.table_len,
        r.kib(8),
        r.slots_used
    );
    say!("piece   squares  index bits  below popcount  2^bits total");
    for piece in Piece::ALL {
        let bits = &r.bits[piece.index()];
        let (lo, hi) = (bits.iter().min(), bits.iter().max());
        let range = match (lo, hi) {
            (Some(lo), Some(hi)) if lo == hi => format!("{lo}"),
            (Some(lo), Some(hi)) => format!("{lo}..{hi}"),
            _ => String::new(),
        };
        let total: u64 = bits.iter().map(|&b| 1u64 << b).sum();
        let standard: u64 = (0..64u8)
            .map(|sq| 1u64 << relevant_mask(piece, sq).count_ones())
            .sum();
        say!(
            "{:<7} {:>7}  {:>10}  {:>14}  {:>12} (standard {standard})",
            piece.name(),
            64,
            range,
            r.squares_below_popcount(piece),
            total
        );
    }
    if !outcome.unmet.is_empty() {
        let names: Vec<String> = outcome
            .unmet
            .iter()
            .map(|&(p, s)| format!("{p} {}", square_name(s)))
            .collect();
        say!(
            "{} of the reduced-bit squares fell back to default bits: {}",
            names.len(),
            names.join(", ")
        );
    }
}
