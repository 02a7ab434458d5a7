//! The progress bar of a search and of a packing, and the Ctrl-C handler that stops them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use magic_gen::pack::PackProgress;
use magic_gen::search::Progress;

/// A run shorter than this shows no progress bar.
const BAR_DELAY: Duration = Duration::from_secs(1);

/// What the bar is showing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The scan: the fraction of its budget done.
    Scan,
    /// Before the annealing: the greedy packing, or the layout of a set without a scan.
    Layout,
    /// The annealing: moves made.
    Pack,
}

/// Steps of the scan's bar: its position is the fraction of the budget done, in these.
const SCAN_STEPS: u64 = 10_000;

/// Returns the fraction of the scan done, 0 to 1: of the candidate budget if it is a count,
/// of the time budget if there is one (whichever is further: the scan stops at the first
/// spent), else of the jobs (fancy and plain until found).
fn scan_fraction(scan: &Progress, seconds: Option<f64>, elapsed: Duration) -> f64 {
    let budget = scan.budget.load(Ordering::Relaxed);
    let of_budget = (budget > 0).then(|| scan.spent.load(Ordering::Relaxed) as f64 / budget as f64);
    let of_time = seconds.map(|s| elapsed.as_secs_f64() / s.max(1e-3));
    let fraction = match (of_budget, of_time) {
        (Some(b), Some(t)) => b.max(t),
        (Some(f), None) | (None, Some(f)) => f,
        (None, None) => {
            let total = scan.total.load(Ordering::Relaxed).max(1);
            scan.done.load(Ordering::Relaxed) as f64 / total as f64
        }
    };
    fraction.clamp(0.0, 1.0)
}

/// Draws a progress bar on stderr once the run has gone on for [`BAR_DELAY`], until
/// `done`: the fraction of the scan's budget done (if there is a scan; `seconds` is its
/// time budget), then the packer's moves and best table length, each with an estimate of
/// the time left. `stop` is the flag Ctrl-C sets. The bar hides itself when stderr is not
/// a terminal.
pub fn watch(
    scan: Option<&Progress>,
    seconds: Option<f64>,
    pack: &PackProgress,
    stop: &AtomicBool,
    done: &AtomicBool,
    start: Instant,
) {
    let mut bar: Option<(ProgressBar, Stage)> = None;
    while !done.load(Ordering::Acquire) {
        std::thread::park_timeout(Duration::from_millis(100));
        if done.load(Ordering::Acquire) || start.elapsed() < BAR_DELAY {
            continue;
        }
        let total_moves = pack.total.load(Ordering::Relaxed);
        let scanning =
            scan.filter(|p| p.done.load(Ordering::Relaxed) < p.total.load(Ordering::Relaxed));
        let stage = match (total_moves, scanning) {
            (1.., _) => Stage::Pack,
            (0, Some(_)) => Stage::Scan,
            (0, None) => Stage::Layout,
        };
        let stopping = if stop.load(Ordering::Relaxed) {
            ", stopping"
        } else {
            ""
        };
        // What the bar shows now: its position (budget steps or moves) and message.
        let (position, message) = match (stage, scanning) {
            (Stage::Scan, Some(p)) => {
                let tried = p.candidates.load(Ordering::Relaxed) as f64;
                let rate = tried / start.elapsed().as_secs_f64().max(1e-3);
                let reached = p.reached.load(Ordering::Relaxed);
                let fraction = scan_fraction(p, seconds, start.elapsed());
                (
                    (fraction * SCAN_STEPS as f64) as u64,
                    format!(
                        "{} of {} squares done, {:.1}M candidates tried ({:.1}M/s), {reached} \
                         reached{stopping}",
                        p.done.load(Ordering::Relaxed),
                        p.total.load(Ordering::Relaxed),
                        tried / 1e6,
                        rate / 1e6
                    ),
                )
            }
            (Stage::Scan | Stage::Layout, _) => (0, format!("laying out, verifying{stopping}")),
            (Stage::Pack, _) => {
                let moves = pack.moves.load(Ordering::Relaxed);
                let best = pack.best.load(Ordering::Relaxed);
                let verifying = if moves >= total_moves {
                    ", verifying"
                } else {
                    ""
                };
                (moves, format!("best {best} entries{verifying}{stopping}"))
            }
        };
        match &bar {
            Some((b, shown)) if *shown == stage => {
                b.set_message(message);
                b.set_position(position);
            }
            _ => {
                let (len, template) = match stage {
                    Stage::Scan => (
                        SCAN_STEPS,
                        "{spinner} [{elapsed_precise}] {bar:24} {percent:>3}% of the scan's budget (~{eta} left), {msg}",
                    ),
                    Stage::Layout => (0, "{spinner} [{elapsed_precise}] {msg}"),
                    Stage::Pack => (
                        total_moves,
                        "{spinner} [{elapsed_precise}] {bar:24} {pos}/{len} packing moves (~{eta} left), {msg}",
                    ),
                };
                if let Some((old, _)) = bar.take() {
                    old.finish_and_clear();
                }
                let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
                    .with_style(
                        ProgressStyle::with_template(template)
                            .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    )
                    .with_elapsed(start.elapsed())
                    .with_message(message)
                    .with_position(position);
                // A resumed scan or packing starts part of the way: time the rest from here.
                b.reset_eta();
                bar = Some((b, stage));
            }
        }
        if let Some((b, _)) = &bar {
            b.tick();
        }
    }
    if let Some((b, _)) = bar {
        b.finish_and_clear();
    }
}

/// Makes the first Ctrl-C (or SIGTERM or SIGHUP, which batch systems send before they
/// kill a job) call `stop` (which stops the run: the result so far is still
/// verified and written, exit code 130) and the second exit at once without writing.
/// `stop` returns whether the run was stopped already.
pub fn stop_on_ctrl_c(stop: impl Fn() -> bool + Send + 'static) {
    let _ = ctrlc::set_handler(move || {
        if stop() {
            eprintln!("\ninterrupted twice: exiting without writing");
            std::process::exit(130);
        }
    });
}
