//! Progress of a search, merge or packing: a bar on a terminal, plain lines in a batch log
//! (standard error not a terminal: Slurm, nohup), each with the stage, its fraction done,
//! its rate and the time left, and what a stopped run is finishing.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use crate::hunt::args::{parse_seconds, LONG_RUNS};
use crate::hunt::snapshot::{Reader, Snapshot, Watched};
use crate::hunt::{Progress, Stage};
use crate::threads::while_watched;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::stop::stop_on_signal;

/// How progress is reported: the option `search`, `merge` and `pack` share.
#[derive(Args, Debug, Clone)]
pub struct ProgressArgs {
    /// Seconds between progress lines (stage, fraction done, rate, time left) when standard
    /// error is not a terminal, as in a batch log; each stage's start and a stop are
    /// reported at once. On a terminal a bar shows the same.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds, allow_negative_numbers = true, help_heading = LONG_RUNS)]
    pub progress_every: f64,
}

impl ProgressArgs {
    /// Returns the time between progress lines in a batch log.
    pub fn every(&self) -> Duration {
        Duration::from_secs_f64(self.progress_every)
    }
}

/// The environment variable that holds a run at the start of the stage it names (`scan`,
/// `polish`, `pools`, `packing`, `verification`, `writing`) until it is stopped: how the
/// tests stop a run in a stage too short to catch otherwise.
const HOLD_AT: &str = "MAGIC_GEN_HOLD_AT";

/// A run shorter than this shows no progress bar.
const BAR_DELAY: Duration = Duration::from_secs(1);

/// Steps of the bar: its position is the fraction of the stage done, in these.
const BAR_STEPS: u64 = 10_000;

/// Returns true if progress goes to a batch log: standard error is not a terminal.
fn batch_log() -> bool {
    !std::io::stderr().is_terminal()
}

/// Returns `[  12.3 s]`: the time since `start`, as progress lines begin.
fn stamp(start: Instant) -> String {
    format!("[{:>8.1} s]", start.elapsed().as_secs_f64())
}

/// Returns what the run does as each stage begins: with `MAGIC_GEN_HOLD_AT` naming the
/// stage, it says so and waits until `stopped` returns true (at most a minute); otherwise
/// nothing.
pub fn holder(
    start: Instant,
    stopped: impl Fn() -> bool + Send + Sync + 'static,
) -> impl Fn(Stage, u64) + Send + Sync + 'static {
    let hold = std::env::var(HOLD_AT).ok();
    move |stage: Stage, _| {
        if hold.as_deref() == Some(stage.name()) {
            tell!(
                "{} holding at {} until stopped ({HOLD_AT})",
                stamp(start),
                stage.name()
            );
            let held = Instant::now();
            while !stopped() && held.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Reports progress on stderr until `done`, once the run has gone on for [`BAR_DELAY`]: on
/// a terminal a bar, in a batch log a line as each stage begins and every `every` (and one
/// at once when the run is stopped, and as each stage it then finishes begins).
fn watch(w: &Watched, every: Duration, done: &AtomicBool, start: Instant) {
    let batch = batch_log();
    let mut bar: Option<ProgressBar> = None;
    let mut reader = Reader::new(w, start);
    let mut last_line = Instant::now();
    // The stage of the last line printed, and whether it said the run is stopping.
    let mut printed: Option<(Stage, bool)> = None;
    while !done.load(Ordering::Acquire) {
        std::thread::park_timeout(Duration::from_millis(100));
        if done.load(Ordering::Acquire) {
            break;
        }
        let now = Instant::now();
        let Snapshot {
            stage,
            fraction,
            stopping,
            line,
        } = reader.read(now);
        if batch {
            // Quiet in a run's first moments (a short run prints nothing), except a stop.
            let quiet = start.elapsed() < BAR_DELAY && !stopping;
            let due = !every.is_zero() && last_line.elapsed() >= every;
            let news = printed != Some((stage, stopping));
            if !quiet && (due || news) {
                tell!("{} {line}", stamp(start));
                last_line = now;
                printed = Some((stage, stopping));
            }
            continue;
        }
        if start.elapsed() < BAR_DELAY {
            continue;
        }
        let b = bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(Some(BAR_STEPS), ProgressDrawTarget::stderr())
                .with_elapsed(start.elapsed());
            b.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:24} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        });
        b.set_position((fraction.unwrap_or(0.0) * BAR_STEPS as f64) as u64);
        b.set_message(line);
        b.tick();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // A stop the loop had no time to see (the stage ended at once): said now, before the
    // run writes its set.
    let said = printed.is_some_and(|(_, stopping)| stopping);
    if w.progress.stop.load(Ordering::Relaxed) && !said {
        tell!("{} {}", stamp(start), reader.stopping_line());
    }
}

/// A command's run as its progress display sees it: its progress (stages, counters and
/// the stop flag, which the stop signals set and every stage reads) and its start. One per
/// `search`, `merge` or `pack`.
pub struct Shown {
    /// The run's progress and stop flag.
    pub progress: Arc<Progress>,
    /// When the run started.
    pub start: Instant,
}

impl Shown {
    /// Returns a run whose stop flag the first Ctrl-C, SIGTERM or SIGHUP sets.
    pub fn new() -> Shown {
        let start = Instant::now();
        // The hold at a stage waits for the stop flag of the progress it is part of.
        let progress = Arc::new_cyclic(|me: &Weak<Progress>| {
            let me = me.clone();
            let stopped = move || me.upgrade().is_some_and(|p| p.stop.load(Ordering::SeqCst));
            Progress::new(holder(start, stopped))
        });
        let stop = Arc::clone(&progress);
        stop_on_signal(move || stop.stop.store(true, Ordering::SeqCst));
        Shown { progress, start }
    }

    /// Returns true once the run was told to stop.
    pub fn stopped(&self) -> bool {
        self.progress.stop.load(Ordering::SeqCst)
    }

    /// Runs `work` while its progress is shown every `every` (in a batch log): the scan's
    /// too if `scan_seconds` is given (its time budget, if any). Returns what `work` returns.
    pub fn watch<T>(
        &self,
        scan_seconds: Option<Option<f64>>,
        every: Duration,
        work: impl FnOnce() -> T,
    ) -> T {
        let watched = Watched {
            progress: &self.progress,
            scan: scan_seconds,
        };
        watching(&watched, every, self.start, work)
    }
}

/// Runs `work` on this thread while another reports its progress (see [`watch`]); returns
/// what `work` returns, or passes its panic on.
pub fn watching<T>(w: &Watched, every: Duration, start: Instant, work: impl FnOnce() -> T) -> T {
    while_watched(|done| watch(w, every, done, start), work)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_of_the_watched_work_ends_the_watcher_and_goes_on() {
        // Before the watcher was ended on unwinding, this never returned: the scope waited
        // for a watcher waiting for work that had panicked.
        let progress = Progress::default();
        let w = Watched {
            progress: &progress,
            scan: None,
        };
        let every = Duration::from_secs(3600);
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            watching(&w, every, Instant::now(), || -> u32 {
                panic!("a packer's bug")
            })
        }));
        assert!(out.is_err());
        assert_eq!(watching(&w, every, Instant::now(), || 7), 7);
    }
}
