//! `magic-gen search`: run the seeded search with a progress bar and Ctrl-C handling,
//! print a summary and write the set atomically.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use magic_gen::search::{search, Progress, SearchConfig};
use magic_gen::{relevant_mask, square_name, Piece, Provenance};

use super::{render, shell_quote, show, write_atomic};
use crate::SearchArgs;

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
    if let Some(s) = args.seconds {
        c.push_str(&format!(" --seconds {s}"));
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
            b.set_message(format!("{:.1}M tried, {stage}", tried / 1e6));
            b.tick();
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// `magic-gen search`.
pub fn run(args: &SearchArgs) -> Result<ExitCode, String> {
    let threads = args
        .threads
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = SearchConfig {
        variant: args.variant,
        targets: targets(args),
        bits: args.bits,
        seconds: args.seconds,
        threads,
        seed: args.seed,
    };
    if let Some(out) = &args.out {
        // Fail before a long search, not after it.
        let dir = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
        if !dir.is_dir() {
            return Err(format!(
                "{}: cannot write: directory {} does not exist",
                show(out),
                show(dir)
            ));
        }
    }
    let progress = Arc::new(Progress::default());
    {
        // First Ctrl-C: stop reduced-bit jobs and keep the verified set; second: exit now.
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
    let outcome = std::thread::scope(|s| {
        let watcher = s.spawn(|| watch(&progress, &done, start));
        let outcome = search(&config, &progress);
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        let _ = watcher.join();
        outcome
    })
    .map_err(|e| e.to_string())?;
    let elapsed = start.elapsed();
    let interrupted = progress.stop.load(Ordering::SeqCst);

    let r = &outcome.report;
    say!(
        "searched {} magics, seed {}: 128 squares in {:.3} s on {threads} thread{}, {} candidates tried",
        args.variant,
        args.seed,
        elapsed.as_secs_f64(),
        if threads == 1 { "" } else { "s" },
        progress.candidates.load(Ordering::Relaxed)
    );
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
            "{} of the --bits squares fell back to default bits: {}",
            names.len(),
            names.join(", ")
        );
    }

    match &args.out {
        Some(out) => {
            let provenance = Provenance {
                seed: Some(args.seed),
                command: Some(canonical_command(args)),
            };
            let text = render(out, &outcome.set, r, &provenance);
            write_atomic(out, text.as_bytes())?;
            say!("wrote {}", show(out));
        }
        None => say!("nothing written (give --out FILE.rs or --out FILE.txt to keep the set)"),
    }
    if interrupted {
        eprintln!("interrupted: the set above is complete and verified; unfinished --bits squares use default bits");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
