//! What a watcher of a hunt shows at each moment, read from its [`Progress`]: the running
//! stage, its fraction done, what it has done, its rate and the time left (each stage's rate
//! measured over its latest samples), or what a stopped run is finishing, as one line
//! ([`Reader`]). The CLI draws it as a bar or prints it to a batch log.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::stages::{Progress, Stage};

/// What a watcher reads: the run's progress (stage, counters, stop flag), and whether it
/// scans, with the scan's time budget if it has one.
pub(crate) struct Watched<'a> {
    /// The run's progress.
    pub progress: &'a Progress,
    /// The scan's time budget, if it has one, where the run scans.
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

/// Returns one progress line: `stage: 12% (what it has done), ~3 min 20 s left` (the
/// time left where the stage `ends`: [`has_an_end`]), or what a stopped run is finishing.
pub(crate) fn line(
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

/// One reading of a run's progress.
pub(crate) struct Snapshot {
    /// The running stage.
    pub stage: Stage,
    /// Its fraction done, if it counts its steps.
    pub fraction: Option<f64>,
    /// Whether the run was told to stop and is finishing.
    pub stopping: bool,
    /// The progress line ([`line`]).
    pub line: String,
}

/// Reads a run's progress again and again, measuring each stage's rate as it goes.
pub(crate) struct Reader<'a> {
    watched: &'a Watched<'a>,
    start: Instant,
    rate: Option<StageRate>,
}

impl<'a> Reader<'a> {
    /// Returns a reader of `watched`, a run that started at `start`.
    pub fn new(watched: &'a Watched<'a>, start: Instant) -> Reader<'a> {
        Reader {
            watched,
            start,
            rate: None,
        }
    }

    /// Returns the progress at `now`, sampled for the stage's rate.
    pub fn read(&mut self, now: Instant) -> Snapshot {
        let w = self.watched;
        let stage = w.progress.stage().map_or(Stage::Scan, |(s, ..)| s);
        if self.rate.as_ref().is_none_or(|r| r.stage != stage) {
            self.rate = Some(StageRate::new(stage, now));
        }
        let r = self.rate.as_mut().expect("set above");
        let per_second = r.steps_per_second();
        let since = now.duration_since(r.began);
        let (stage, fraction, text) = state_of(w, self.start, since, per_second);
        if let Some(f) = fraction {
            r.sample(now, f, w.progress.steps_done());
        }
        let stopping = w.progress.stop.load(Ordering::Relaxed);
        let line = line(stage, fraction, &text, (r.left(), has_an_end(w)), stopping);
        Snapshot {
            stage,
            fraction,
            stopping,
            line,
        }
    }

    /// Returns the line of a stop the reader had no time to see (the stage ended at once).
    pub fn stopping_line(&self) -> String {
        let stage = self
            .watched
            .progress
            .stage()
            .map_or(Stage::Scan, |(s, ..)| s);
        line(stage, None, "", (None, false), true)
    }
}

/// A stage's rate, measured over its latest samples once past its first moments (threads
/// starting, first blocks), and the time left that follows from it.
pub(crate) struct StageRate {
    /// The stage measured.
    pub stage: Stage,
    /// When it began.
    pub began: Instant,
    /// (when, fraction done, steps done) of the latest samples, oldest first.
    samples: VecDeque<(Instant, f64, u64)>,
}

impl StageRate {
    /// The first moments of a stage, left out of its rate.
    const WARM_UP: Duration = Duration::from_secs(1);

    /// How long a stage's rate must have been measured before it gives a time left.
    const STEADY: Duration = Duration::from_secs(2);

    /// The stretch of the latest samples a rate is measured over.
    const WINDOW: Duration = Duration::from_secs(60);

    /// Returns the rate of `stage`, begun `began`, with no samples yet.
    pub fn new(stage: Stage, began: Instant) -> StageRate {
        StageRate {
            stage,
            began,
            samples: VecDeque::new(),
        }
    }

    /// Takes a sample at `now`: `fraction` and `steps` done.
    pub fn sample(&mut self, now: Instant, fraction: f64, steps: u64) {
        if now.duration_since(self.began) < Self::WARM_UP {
            return;
        }
        self.samples.push_back((now, fraction, steps));
        while self.samples.len() > 2 && now.duration_since(self.samples[0].0) > Self::WINDOW {
            self.samples.pop_front();
        }
    }

    /// Returns the steps per second over the samples (0 before two).
    pub fn steps_per_second(&self) -> f64 {
        match (self.samples.front(), self.samples.back()) {
            (Some(a), Some(b)) if b.0 > a.0 => {
                b.2.saturating_sub(a.2) as f64 / (b.0 - a.0).as_secs_f64()
            }
            _ => 0.0,
        }
    }

    /// Returns the time left at the measured rate, once measured for a while and moving.
    pub fn left(&self) -> Option<Duration> {
        let (a, b) = (self.samples.front()?, self.samples.back()?);
        let over = b.0.duration_since(a.0);
        if over < Self::STEADY || b.1 <= a.1 {
            return None;
        }
        let per_second = (b.1 - a.1) / over.as_secs_f64();
        Duration::try_from_secs_f64((1.0 - b.1) / per_second).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            line(stage, fraction, &text, (left, has_an_end(&w)), false)
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

    #[test]
    fn the_time_left_follows_the_rate_measured_past_the_warm_up() {
        let began = Instant::now();
        let at = |s: f64| began + Duration::from_secs_f64(s);
        let mut rate = StageRate::new(Stage::Packing, began);
        // The warm-up is left out; a second of samples gives a rate but no time left yet.
        rate.sample(at(0.5), 0.05, 50);
        rate.sample(at(2.0), 0.1, 100);
        rate.sample(at(3.0), 0.11, 200);
        assert_eq!(rate.steps_per_second(), 100.0);
        assert_eq!(rate.left(), None);
        // 0.1 of the stage in 10 s: the 0.8 left takes 80 s.
        rate.sample(at(12.0), 0.2, 1100);
        assert_eq!(rate.steps_per_second(), 100.0);
        let left = rate.left().unwrap().as_secs_f64();
        assert!((left - 80.0).abs() < 1e-6, "{left}");
    }
}
