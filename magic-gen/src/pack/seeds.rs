//! Several packings of the same pools at once: one per seed, `seed` to `seed + seeds - 1`,
//! run on up to the hooks' threads, each from the one greedy layout. The shortest final
//! table wins, ties to the lowest seed, so the result never depends on the thread count.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::anneal::Annealer;
use super::checkpoint::{Mismatch, PackCheckpoint, PackKey, PackMismatch};
use super::layout::{pack_in_order, Layout};
use super::pattern::Pattern;
use super::run::{anneal, MoveThreads, PackHooks, SavePack};
use crate::stages::Progress;

/// The layout every packing starts from: the order its squares are placed in, each at its
/// first fit, and the pool member each takes.
pub(super) struct Start {
    /// The squares (indices of the pools) in placing order.
    pub order: Vec<usize>,
    /// Which member of its pool each square takes.
    pub members: Members,
}

/// Which member of its pool each square of a [`Start`] takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Members {
    /// Its own magic, the first member: the layout of a repacked set's `starts`.
    Own,
    /// The member the greedy pass picks, the one that grows the table least.
    Greedy,
}

/// Returns the annealers of the packings `key` asks for (`key.settings.seeds` of them),
/// each going on from its section of `resume`, or all from the layout of `start` when
/// `resume` is empty, with the key of each.
fn annealers<'a>(
    pools: &'a [Vec<Pattern>],
    Start { order, members }: Start,
    key: &PackKey,
    resume: &[PackCheckpoint],
) -> Result<Vec<(Annealer<'a>, PackKey)>, PackMismatch> {
    let count = key.settings.seeds.max(1);
    let keys = (0..count).map(|i| PackKey {
        settings: key.settings.seeded(i),
        ..*key
    });
    if resume.is_empty() {
        let negative_offsets = key.settings.negative_offsets;
        // The greedy pass does not depend on the seed: made once for every packing. From
        // the input, every square starts with its own magic, the first member.
        let member: Vec<usize> = match members {
            Members::Own => vec![0; pools.len()],
            Members::Greedy => {
                let (greedy, _) = pack_in_order(pools, &order, negative_offsets);
                greedy.iter().map(|&(k, _)| k).collect()
            }
        };
        return Ok(keys
            .map(|key| {
                // Placing the greedy members in the greedy order at their first fits is
                // the greedy layout again, so annealing starts from it and never ends longer.
                let layout = Layout::new(pools, order.clone(), member.clone(), negative_offsets);
                (Annealer::new(layout, &key.settings), key)
            })
            .collect());
    }
    let mut out = Vec::with_capacity(count as usize);
    for (i, key) in keys.enumerate() {
        let at = |mut m: PackMismatch| {
            m.packing = i;
            m
        };
        // The first section's settings hold the seed count, so another count is refused
        // there as other settings; a count that disagrees with its own sections is damage.
        let Some(saved) = resume.get(i) else {
            return Err(key.missing(resume.len()));
        };
        out.push((Annealer::resume(pools, &key, saved).map_err(at)?, key));
    }
    if resume.len() > out.len() {
        return Err(PackMismatch {
            line: "pack".into(),
            packing: count as usize,
            mismatch: Mismatch::Damaged(format!(
                "{} packings saved where its first 'pack' line says {count}",
                resume.len()
            )),
        });
    }
    Ok(out)
}

/// A packing run to its end or its stop: the checkpoint after its last move, and its
/// best layout (spans shortened if asked).
struct Ended<'a> {
    checkpoint: PackCheckpoint,
    best: Layout<'a>,
}

/// Runs `annealer` on `threads` until done or `progress`'s stop, counting in `progress` and
/// handing its checkpoints to `publish` every `every` and at its end.
fn run_one<'a>(
    annealer: &mut Annealer<'a>,
    key: &PackKey,
    progress: Option<&Progress>,
    every: Option<Duration>,
    threads: MoveThreads,
    publish: &mut dyn FnMut(PackCheckpoint),
) -> Ended<'a> {
    anneal(
        annealer,
        key,
        progress,
        every.map(|e| (e, publish)),
        threads,
    );
    let mut best = annealer.best_layout();
    if key.settings.short_spans {
        best.shorten_spans();
    }
    Ended {
        checkpoint: annealer.checkpoint(key),
        best,
    }
}

/// Packs `pools` placed in `start`'s order (see [`annealers`]) as `key` says (one packing
/// per seed), going on from `resume` (a section per packing) unless it is empty. Returns
/// the shortest best layout (ties: the lowest seed) and each packing's checkpoint after its
/// last move.
pub(super) fn pack_seeds<'a>(
    pools: &'a [Vec<Pattern>],
    start: Start,
    key: &PackKey,
    resume: &[PackCheckpoint],
    hooks: &mut PackHooks,
) -> Result<(Layout<'a>, Vec<PackCheckpoint>), PackMismatch> {
    let packings = annealers(pools, start, key, resume)?;
    if let Some(p) = hooks.progress {
        count_at_start(&packings, key, p);
    }
    let mut save = hooks.checkpoint.take();
    let run = Packings {
        slots: packings
            .iter()
            .map(|(a, key)| Mutex::new(a.checkpoint(key)))
            .collect(),
        progress: hooks.progress,
        every: save.as_ref().map(|(every, _)| *every),
        // A packing takes a helper thread where there are two threads for each.
        threads: if hooks.threads >= 2 * packings.len() {
            MoveThreads::Two
        } else {
            MoveThreads::One
        },
    };
    let threads = hooks.threads.clamp(1, packings.len());
    let ended = if threads == 1 {
        run.one_by_one(packings, &mut save)
    } else {
        run.on_threads(packings, threads, &mut save)
    };
    hooks.checkpoint = save;
    let checkpoints = ended.iter().map(|e| e.checkpoint.clone()).collect();
    // The shortest table; `min_by_key` keeps the first of equals, the lowest seed.
    let best = ended
        .into_iter()
        .min_by_key(|e| e.best.len())
        .expect("at least one packing");
    Ok((best.best, checkpoints))
}

/// Sets `progress`'s counters for `packings` as they start: the moves made and asked for,
/// whether spans are shortened after, and the shortest best table.
fn count_at_start(packings: &[(Annealer, PackKey)], key: &PackKey, progress: &Progress) {
    let sum = |f: fn(&Annealer) -> u64| packings.iter().map(|(a, _)| f(a)).sum::<u64>();
    progress.moves.store(sum(|a| a.moves), Ordering::Relaxed);
    progress
        .moves_total
        .store(sum(|a| a.iterations), Ordering::Relaxed);
    progress
        .spans_shortened_after
        .store(key.settings.short_spans, Ordering::Relaxed);
    let best = packings.iter().map(|(a, _)| a.best_len).min().unwrap_or(0);
    progress.best_len.store(best, Ordering::Relaxed);
}

/// What the packings of one run share: each one's latest checkpoint, the progress (and
/// its stop flag) they watch, how often they publish a checkpoint (none: nothing saves),
/// and the threads each makes its moves on.
struct Packings<'w> {
    /// The latest checkpoint of each packing, as a save writes them.
    slots: Vec<Mutex<PackCheckpoint>>,
    progress: Option<&'w Progress>,
    every: Option<Duration>,
    threads: MoveThreads,
}

impl Packings<'_> {
    /// Returns the latest checkpoint of every packing.
    fn snapshot(&self) -> Vec<PackCheckpoint> {
        self.slots
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).clone())
            .collect()
    }

    /// Keeps `checkpoint` as packing `i`'s latest.
    fn publish(&self, i: usize, checkpoint: PackCheckpoint) {
        *self.slots[i].lock().unwrap_or_else(|e| e.into_inner()) = checkpoint;
    }

    /// Runs `packing` (number `i`) to its end or its stop, publishing its checkpoints.
    fn run<'a>(
        &self,
        i: usize,
        (mut annealer, key): (Annealer<'a>, PackKey),
        also: &mut dyn FnMut(),
    ) -> Ended<'a> {
        let mut publish = |c: PackCheckpoint| {
            self.publish(i, c);
            also();
        };
        run_one(
            &mut annealer,
            &key,
            self.progress,
            self.every,
            self.threads,
            &mut publish,
        )
    }

    /// Runs the packings one after the other on this thread, saving every checkpoint one
    /// publishes.
    fn one_by_one<'a>(
        &self,
        packings: Vec<(Annealer<'a>, PackKey)>,
        save: &mut Option<SavePack>,
    ) -> Vec<Ended<'a>> {
        let mut ended = Vec::with_capacity(packings.len());
        for (i, packing) in packings.into_iter().enumerate() {
            let mut saved = || {
                if let Some((_, save)) = save {
                    save(&self.snapshot());
                }
            };
            ended.push(self.run(i, packing, &mut saved));
        }
        ended
    }

    /// Runs the packings on `threads` threads, each taking the next packing as it comes
    /// free, while this thread saves what they last published.
    fn on_threads<'a>(
        &self,
        packings: Vec<(Annealer<'a>, PackKey)>,
        threads: usize,
        save: &mut Option<SavePack>,
    ) -> Vec<Ended<'a>> {
        let queue: Vec<Mutex<Option<(Annealer<'a>, PackKey)>>> =
            packings.into_iter().map(|p| Mutex::new(Some(p))).collect();
        let results: Vec<Mutex<Option<Ended<'a>>>> =
            queue.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        let (done, finished) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let done = done.clone();
                let (queue, results, next) = (&queue, &results, &next);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(cell) = queue.get(i) else { break };
                    let taken = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
                    let Some(packing) = taken else {
                        break;
                    };
                    let end = self.run(i, packing, &mut || {});
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(end);
                    // The receiver only stops listening once every packing has ended.
                    let _ = done.send(());
                });
            }
            drop(done);
            self.save_until_ended(results.len(), &finished, save);
        });
        results
            .into_iter()
            .map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
            .map(|e| e.expect("every packing ends"))
            .collect()
    }

    /// Saves what the packings last published, every interval and at each packing's end,
    /// until `left` packings have told `finished` they ended.
    fn save_until_ended(
        &self,
        mut left: usize,
        finished: &mpsc::Receiver<()>,
        save: &mut Option<SavePack>,
    ) {
        let mut last = Instant::now();
        while left > 0 {
            let wait = match &save {
                Some((every, _)) => every.saturating_sub(last.elapsed()),
                None => Duration::from_secs(3600),
            };
            match finished.recv_timeout(wait) {
                // A packing's end is saved at once: the others' last checkpoints and
                // its final one, which a resume then takes as done.
                Ok(()) => {
                    left -= 1;
                    if let Some((_, save)) = save {
                        save(&self.snapshot());
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some((_, save)) = save {
                        save(&self.snapshot());
                    }
                    last = Instant::now();
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    }
}
