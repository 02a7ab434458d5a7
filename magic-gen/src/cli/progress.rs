//! Progress of a search, merge or packing: a bar on a terminal, plain lines in a batch log
//! (standard error not a terminal: Slurm, nohup), each with the stage, its fraction done,
//! its rate and the time left, and what a stopped run is finishing.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use crate::hunt::{Progress, Stage, StageRate};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::{parse_seconds, LONG_RUNS};
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

/// What a watcher reads: the run's progress (stage, counters, stop flag), and whether it
/// scans, with the scan's time budget if it has one.
pub struct Watched<'a> {
    pub progress: &'a Progress,
    pub scan: Option<Option<f64>>,
}

/// Returns how far the scan's squares are: `3 of 128 squares done` where squares end at
/// their first finds; where each scans its whole budget (a count, or `timed`: seconds)
/// and none is done yet, the candidates each has tried (`1.05M of 4.19M candidates a
/// square`). Such squares advance side by side, a block each in turn, and all end in the
/// last round: a count of squares done would say 0 until the scan's end.
fn squares_done(p: &Progress, timed: bool) -> String {
    let (done, jobs) = (
        p.jobs_done.load(Ordering::Relaxed),
        p.jobs.load(Ordering::Relaxed),
    );
    let budget = p.budget.load(Ordering::Relaxed);
    if done > 0 || jobs == 0 || (budget == 0 && !timed) {
        return format!("{done} of {jobs} squares done");
    }
    let each = |n: u64| n as f64 / jobs as f64 / 1e6;
    if budget > 0 {
        let spent = p.spent.load(Ordering::Relaxed);
        format!(
            "{:.2}M of {:.2}M candidates a square",
            each(spent),
            each(budget)
        )
    } else {
        let tried = p.candidates.load(Ordering::Relaxed);
        format!("{:.2}M candidates a square", each(tried))
    }
}

/// Returns `, 12.5 moves a second` for `rate` steps a second of `what`, nothing before
/// the rate is measured.
fn per_second(rate: f64, what: &str) -> String {
    if rate > 0.0 {
        format!(", {rate:.1} {what} a second")
    } else {
        String::new()
    }
}

/// Returns the running stage, its fraction done (if it counts its steps:
/// [`Progress::fraction_done`]) and what it has done, as a progress line says it; `rate`
/// is its steps per second.
fn state_of(
    w: &Watched,
    start: Instant,
    since: Duration,
    rate: f64,
) -> (Stage, Option<f64>, String) {
    let p = w.progress;
    let Some((stage, done, total)) = p.stage() else {
        return (Stage::Scan, None, "starting".into());
    };
    let text = match stage {
        Stage::Scan => {
            let Some(seconds) = w.scan else {
                return (stage, None, String::new());
            };
            let tried = p.candidates.load(Ordering::Relaxed) as f64;
            format!(
                "{}, {:.1}M candidates tried, {:.2}M a second, {} reached",
                squares_done(p, seconds.is_some()),
                tried / 1e6,
                tried / 1e6 / start.elapsed().as_secs_f64().max(1e-3),
                p.reached.load(Ordering::Relaxed)
            )
        }
        Stage::Polish => format!("{done} of {total} climbs{}", per_second(rate, "climbs")),
        Stage::Pools => format!("{done} of {total} pools measured"),
        Stage::Holes { .. } => format!("{done} of {total} squares given magics for the holes"),
        Stage::Packing => {
            let moves = p.moves.load(Ordering::Relaxed);
            let total = p.moves_total.load(Ordering::Relaxed);
            if total == 0 {
                return (stage, None, "laying out greedily".into());
            }
            let best = p.best_len.load(Ordering::Relaxed);
            // The annealing's best: shortening the spans after it may give a shorter table.
            let spans = match p.spans_shortened_after.load(Ordering::Relaxed) {
                true => " before the spans are shortened",
                false => "",
            };
            format!(
                "{moves} of {total} moves{}, best {best} entries{spans}",
                per_second(rate, "moves")
            )
        }
        Stage::RooksFirst { .. } | Stage::Verification | Stage::Writing => String::new(),
    };
    let scan_seconds = w.scan.flatten();
    (stage, p.fraction_done(scan_seconds, since), text)
}

/// Returns true if the running stage has a known end, so that its rate gives a time left:
/// every stage but a scan with no budget (fancy and plain until found, without --candidates
/// or --seconds), whose squares end when they find, if ever: the pace of the squares done
/// says nothing of when the last one ends.
fn has_an_end(w: &Watched) -> bool {
    match w.progress.stage() {
        Some((Stage::Scan, ..)) => {
            w.scan.flatten().is_some() || w.progress.budget.load(Ordering::Relaxed) > 0
        }
        _ => true,
    }
}

/// Returns `d` as a person reads it: `45 s`, `3 min 20 s`, `2 h 5 min`, `16 d 2 h`.
fn human(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        3600..=86_399 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86_400, s % 86_400 / 3600),
    }
}

/// Returns one progress report: `stage: 12% (what it has done), ~3 min 20 s left` (the
/// time left where the stage `ends`: [`has_an_end`]), or what a stopped run is finishing.
fn report(
    stage: Stage,
    fraction: Option<f64>,
    text: &str,
    (left, ends): (Option<Duration>, bool),
    stopping: bool,
) -> String {
    if stopping {
        return format!(
            "stopping: finishing the {} with the best so far{}",
            stage.name(),
            if text.is_empty() {
                String::new()
            } else {
                format!(" ({text})")
            }
        );
    }
    let mut out = stage.name().to_string();
    if let Some(f) = fraction {
        out += &format!(": {:.0}%", 100.0 * f);
    }
    if !text.is_empty() {
        out += &format!(", {text}");
    }
    out += &match (fraction, left) {
        _ if !ends => String::new(),
        (Some(_), Some(left)) => format!(", ~{} left", human(left)),
        (Some(_), None) => ", time left: measuring".into(),
        (None, _) => String::new(),
    };
    out
}

/// Reports progress on stderr until `done`, once the run has gone on for [`BAR_DELAY`]: on
/// a terminal a bar, in a batch log a line as each stage begins and every `every` (and one
/// at once when the run is stopped, and as each stage it then finishes begins).
fn watch(w: &Watched, every: Duration, done: &AtomicBool, start: Instant) {
    let batch = batch_log();
    let mut bar: Option<ProgressBar> = None;
    let mut rate: Option<StageRate> = None;
    let mut last_line = Instant::now();
    // The stage of the last line printed, and whether it said the run is stopping.
    let mut printed: Option<(Stage, bool)> = None;
    while !done.load(Ordering::Acquire) {
        std::thread::park_timeout(Duration::from_millis(100));
        if done.load(Ordering::Acquire) {
            break;
        }
        let now = Instant::now();
        let stage = w.progress.stage().map_or(Stage::Scan, |(s, ..)| s);
        if rate.as_ref().is_none_or(|r| r.stage != stage) {
            rate = Some(StageRate::new(stage, now));
        }
        let r = rate.as_mut().expect("set above");
        let per_second = r.steps_per_second();
        let (stage, fraction, text) = state_of(w, start, now.duration_since(r.began), per_second);
        if let Some(f) = fraction {
            r.sample(now, f, w.progress.steps_done());
        }
        let stopping = w.progress.stop.load(Ordering::Relaxed);
        let line = report(stage, fraction, &text, (r.left(), has_an_end(w)), stopping);
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
        let stage = w.progress.stage().map_or(Stage::Scan, |(s, ..)| s);
        let line = report(stage, None, "", (None, false), true);
        tell!("{} {line}", stamp(start));
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
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let watcher = s.spawn(|| watch(w, every, &done, start));
        // Ends the watcher however `work` ends: the scope waits for it before a panic of
        // `work` goes on, so a watcher left running would hang the command for good.
        let _ends = EndsWatcher {
            done: &done,
            watcher: watcher.thread().clone(),
        };
        work()
    })
}

/// Tells the progress watcher to end when dropped, as `work` returns or unwinds.
struct EndsWatcher<'a> {
    done: &'a AtomicBool,
    watcher: std::thread::Thread,
}

impl Drop for EndsWatcher<'_> {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Release);
        self.watcher.unpark();
    }
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

    /// Returns the text of the scan's progress line for `progress`, scanned with `seconds`.
    fn scan_text(progress: &Progress, seconds: Option<f64>) -> String {
        progress.begin(Stage::Scan, 0);
        let w = Watched {
            progress,
            scan: Some(seconds),
        };
        state_of(&w, Instant::now(), Duration::ZERO, 0.0).2
    }

    #[test]
    fn a_scan_of_squares_side_by_side_says_how_far_each_is() {
        // A black scan a quarter through its budget: no square is done before the last round.
        let p = Progress::default();
        p.jobs.store(128, Ordering::Relaxed);
        p.budget.store(128 * 4_194_304, Ordering::Relaxed);
        p.spent.store(128 * 1_048_576, Ordering::Relaxed);
        let text = scan_text(&p, None);
        assert!(
            text.starts_with("1.05M of 4.19M candidates a square, "),
            "{text}"
        );
        // A time budget: the candidates each square has tried.
        let p = Progress::default();
        p.jobs.store(128, Ordering::Relaxed);
        p.candidates.store(128 * 2_000_000, Ordering::Relaxed);
        let text = scan_text(&p, Some(60.0));
        assert!(text.starts_with("2.00M candidates a square, "), "{text}");
        // Squares that end at their first finds are counted as they end.
        let p = Progress::default();
        p.jobs.store(128, Ordering::Relaxed);
        p.jobs_done.store(3, Ordering::Relaxed);
        let text = scan_text(&p, None);
        assert!(text.starts_with("3 of 128 squares done, "), "{text}");
    }

    #[test]
    fn a_scan_without_a_budget_shows_no_time_left() {
        // Fancy until found: 126 squares found, two that may never be (too few bits).
        let p = Progress::default();
        p.begin(Stage::Scan, 0);
        p.jobs.store(128, Ordering::Relaxed);
        p.jobs_done.store(126, Ordering::Relaxed);
        let line = |seconds: Option<f64>| {
            let w = Watched {
                progress: &p,
                scan: Some(seconds),
            };
            let (stage, fraction, text) = state_of(&w, Instant::now(), Duration::ZERO, 0.0);
            let left = Some(Duration::from_secs(2));
            report(stage, fraction, &text, (left, has_an_end(&w)), false)
        };
        let unbounded = line(None);
        assert!(
            unbounded.starts_with("scan: 98%, 126 of 128 squares done, ")
                && !unbounded.contains("left"),
            "{unbounded}"
        );
        // A time budget ends the scan, and so does a count of candidates.
        let timed = line(Some(60.0));
        assert!(timed.ends_with(", ~2 s left"), "{timed}");
        p.budget.store(128 * 4096, Ordering::Relaxed);
        let counted = line(None);
        assert!(counted.ends_with(", ~2 s left"), "{counted}");
        // Stages after the scan count toward their ends.
        p.begin(Stage::Polish, 10);
        let polish = line(None);
        assert!(polish.ends_with(", ~2 s left"), "{polish}");
    }

    #[test]
    fn a_time_left_of_days_says_days() {
        assert_eq!(human(Duration::from_secs(45)), "45 s");
        assert_eq!(human(Duration::from_secs(3 * 3600 + 120)), "3 h 2 min");
        assert_eq!(
            human(Duration::from_secs(16 * 86_400 + 2 * 3600)),
            "16 d 2 h"
        );
    }
}
