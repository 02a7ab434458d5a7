//! The moves of a packing: what each seed was asked and what all made, and the trial that
//! turns a time bound into moves, for either packer.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::stages::Progress;

use super::checkpoint::PackCheckpoint;

/// The moves of a packing's annealing, summed over its seeds, and what each seed was
/// asked: the `--pack-iterations` that reruns it, even where it packed for a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PackMoves {
    /// The moves asked of each seed.
    pub(crate) each: u64,
    /// The moves made: fewer than asked once stopped.
    pub(crate) made: u64,
    /// The moves asked of every seed together.
    pub(crate) asked: u64,
}

impl PackMoves {
    /// Returns the moves of the exact packing that ended with `checkpoints` (one per seed),
    /// if it packed.
    pub(crate) fn of(checkpoints: &[PackCheckpoint]) -> Option<PackMoves> {
        let (made, asked) = PackCheckpoint::moves_of(checkpoints);
        let first = checkpoints.first()?;
        Some(PackMoves {
            each: first.settings.iterations,
            made,
            asked,
        })
    }
}

/// Returns the moves a second that `run` makes, counted in the progress it is given, from
/// the moment it sets that progress's total of moves (as its annealing starts) for at most
/// `seconds`: then (or once `user_stop` is set) the progress's stop flag is set, which
/// `run` must heed. The trial of a packing bounded by time, for either packer.
pub(super) fn rate_over(
    seconds: f64,
    user_stop: Option<&AtomicBool>,
    run: impl FnOnce(&Progress),
) -> f64 {
    let until = Duration::from_secs_f64(seconds);
    let trial = Progress::default();
    let stopped = || user_stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let ended = AtomicBool::new(false);
    let (first_move, end) = std::thread::scope(|scope| {
        let timer = scope.spawn(|| {
            // The moves are counted from the first: the total is set as they start.
            let mut first_move = None;
            while !stopped() && !ended.load(Ordering::Relaxed) {
                if first_move.is_none() && trial.moves_total.load(Ordering::Relaxed) > 0 {
                    first_move = Some(Instant::now());
                }
                if first_move.is_some_and(|t: Instant| t.elapsed() >= until) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            trial.stop.store(true, Ordering::Relaxed);
            first_move
        });
        run(&trial);
        let end = Instant::now();
        ended.store(true, Ordering::Relaxed);
        (timer.join().expect("the trial's timer ends"), end)
    });
    let moves = trial.moves.load(Ordering::Relaxed) as f64;
    let timed = first_move.map_or(0.0, |t| (end - t).as_secs_f64());
    moves / timed.max(1e-6)
}
