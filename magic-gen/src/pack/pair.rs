//! One packing on two threads: the next two moves tried at once, the second by a helper
//! thread on its own copy of the layout, as if the first is undone. Most moves are undone,
//! so most pairs make two moves in the time of one; where the first is kept, the second is
//! dropped (cut short) and drawn again from the new layout. The moves kept are those of a
//! run on one thread, so the table never depends on the threads.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::anneal::{Annealer, Move};
use super::layout::Placing;

/// What the helper is asked: to try a move against an energy, or to take a placing.
enum Job {
    Try(Move, f64),
    Take(Box<Placing>),
}

/// The helper's answer to a move: its table length, energy and placing if it kept it.
type Tried = Option<(usize, f64, Box<Placing>)>;

/// A queue from one thread to the other whose reader waits by spinning, then by yielding:
/// a move takes about a tenth of a millisecond, and waking a parked thread costs a good
/// part of that. Closed by its sender's [`Closer`], even one dropped by a panic.
struct Mailbox<T> {
    queue: Mutex<VecDeque<T>>,
    len: AtomicUsize,
    closed: AtomicBool,
}

/// Spins before a waiting reader starts to yield its core.
const SPINS: u32 = 1 << 16;

impl<T> Mailbox<T> {
    fn new() -> Mailbox<T> {
        Mailbox {
            queue: Mutex::new(VecDeque::new()),
            len: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
        }
    }

    fn send(&self, value: T) {
        self.queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(value);
        self.len.fetch_add(1, Ordering::Release);
    }

    /// Returns the next value, waiting for one, or `None` once closed and empty (each
    /// mailbox has one reader).
    fn recv(&self) -> Option<T> {
        let mut spins = 0;
        loop {
            if self.len.load(Ordering::Acquire) > 0 {
                self.len.fetch_sub(1, Ordering::Relaxed);
                return self
                    .queue
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .pop_front();
            }
            if self.closed.load(Ordering::Acquire) {
                return None;
            }
            if spins < SPINS {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// Closes a mailbox when dropped.
struct Closer<'m, T>(&'m Mailbox<T>);

impl<T> Drop for Closer<'_, T> {
    fn drop(&mut self) {
        self.0.closed.store(true, Ordering::Release);
    }
}

/// The calling thread's side of a helper thread.
pub(super) struct Helper<'h> {
    jobs: Closer<'h, Job>,
    tried: &'h Mailbox<Tried>,
    /// Set when the helper's move is no longer wanted: it stops placing and undoes it.
    drop: &'h AtomicBool,
}

/// Runs `run` with a helper thread holding a copy of `annealer`'s layout, which ends when
/// `run` returns.
pub(super) fn with_helper<R>(
    annealer: &mut Annealer,
    run: impl FnOnce(&mut Annealer, &mut Helper) -> R,
) -> R {
    let mut mirror = annealer.layout.copy();
    let spread = annealer.spread;
    let drop = AtomicBool::new(false);
    let (jobs, tried) = (Mailbox::new(), Mailbox::new());
    std::thread::scope(|scope| {
        let (mirror, drop, inbox, outbox) = (&mut mirror, &drop, &jobs, &tried);
        scope.spawn(move || {
            let outbox = Closer(outbox);
            let go = || !drop.load(Ordering::Relaxed);
            while let Some(job) = inbox.recv() {
                match job {
                    Job::Try(m, energy) => {
                        let kept = m.try_on(mirror, energy, spread, go);
                        let answer = kept.map(|(len, e)| (len, e, Box::new(mirror.placing())));
                        outbox.0.send(answer);
                    }
                    Job::Take(placing) => mirror.take_placing(&placing),
                }
            }
        });
        let mut helper = Helper {
            jobs: Closer(&jobs),
            tried: &tried,
            drop,
        };
        run(annealer, &mut helper)
        // `helper` goes here, closing the helper's jobs, so the scope's join returns.
    })
}

impl Helper<'_> {
    /// Makes the annealer's next two moves, the second on the helper, or one where only
    /// one is left or either changes nothing. Returns the moves made.
    pub(super) fn step_two(&mut self, a: &mut Annealer) -> u64 {
        if a.iterations - a.moves < 2 {
            return self.step_one(a);
        }
        // Both drawn from the layout as it is: the second as the run draws it if the
        // first is undone.
        let (first_t, mut draws) = (a.temperature * a.cool, a.rng.clone());
        let first = Move::draw(&a.layout, &mut draws, first_t);
        let after_first = draws.clone();
        let second_t = first_t * a.cool;
        let second = Move::draw(&a.layout, &mut draws, second_t);
        let (Some(first), Some(second)) = (first, second) else {
            return self.step_one(a);
        };
        self.drop.store(false, Ordering::Relaxed);
        self.jobs.0.send(Job::Try(second, a.energy));
        let kept = first.try_on(&mut a.layout, a.energy, a.spread, || true);
        (a.moves, a.temperature, a.rng) = (a.moves + 1, first_t, after_first);
        if let Some(kept) = kept {
            self.drop.store(true, Ordering::Relaxed);
            a.keep(kept);
            self.take(a);
            // The dropped move's answer, read so that the next one is the next move's.
            let _ = self.tried.recv();
            return 1;
        }
        let Some(answer) = self.tried.recv() else {
            // The helper is gone (it panicked, which the scope reports): go on alone.
            return 1;
        };
        (a.moves, a.temperature, a.rng) = (a.moves + 1, second_t, draws);
        if let Some((len, energy, placing)) = answer {
            a.layout.take_placing(&placing);
            a.keep((len, energy));
        }
        2
    }

    /// Makes the annealer's next move on this thread alone, the helper's copy following.
    fn step_one(&mut self, a: &mut Annealer) -> u64 {
        if a.step() {
            self.take(a);
        }
        1
    }

    /// Gives the helper the annealer's layout as it now is.
    fn take(&mut self, a: &Annealer) {
        self.jobs.0.send(Job::Take(Box::new(a.layout.placing())));
    }
}
