//! The progress bar of a search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use magic_gen::search::Progress;

/// A search shorter than this shows no progress bar.
const BAR_DELAY: Duration = Duration::from_secs(1);

/// Draws a progress bar on stderr once the search has run for [`BAR_DELAY`], until `done`.
/// The bar hides itself when stderr is not a terminal.
pub fn watch(progress: &Progress, done: &AtomicBool, start: Instant) {
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
