//! The workers: jobs taken round-robin one block at a time, so all squares advance
//! together; and the checkpoints, which hand a consistent copy of the state to the caller.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::candidates::{Stream, BLOCK_LEN};
use super::climb::{climb, climbs_per_block, density_climb};
use super::options::Limits;
use super::state::{Budget, Found, Job, Scan, SearchState};
use super::table::{EpochTable, SquareData};
use crate::index::Variant;
use crate::stages::Progress;

/// What a worker keeps between blocks of one job (not part of the saved state).
struct Scratch {
    data: SquareData,
    /// Occupancies in checking order, learnt from failures.
    entries: Vec<(u64, u8)>,
    table: EpochTable,
}

impl Scratch {
    /// Returns an empty scratch for `job` of a `variant` scan.
    fn new(job: &Job, variant: Variant) -> Scratch {
        let data = SquareData::new(job.piece, job.square, variant);
        Scratch {
            entries: data.entries(),
            data,
            table: EpochTable::new(job.bits),
        }
    }
}

/// Scans block `job.next` of `job`'s shard, recording valid magics, and moves the job on
/// to its next block; returns the candidates it tried.
fn scan_block(scan: &Scan, job: &mut Job, scratch: &mut Scratch) -> u64 {
    let tried = scan_candidates(scan, job, scratch);
    job.next += 1;
    job.done = scan.finished(job);
    tried
}

/// Tries the candidates of block `job.next` of `job`'s shard, recording valid magics;
/// returns how many it tried.
fn scan_candidates(scan: &Scan, job: &mut Job, scratch: &mut Scratch) -> u64 {
    let variant = scan.variant;
    let stream = Stream {
        seed: scan.seed,
        variant,
        piece: job.piece,
        square: job.square,
        bits: job.bits,
    };
    let block = scan.shard.block(job.next);
    let limit = match scan.budget {
        Budget::Candidates(limit) => limit,
        Budget::UntilFound => u64::MAX,
    };
    let packed = variant.is_packed();
    let popcount = scratch.data.mask.count_ones() as u8;
    if !packed && job.bits < popcount {
        // Reduced bits: each candidate of the block starts a climb.
        let mut tried = 0;
        // A stream of its own, apart from the block's candidates.
        let mut rng = stream.block_rng(block | 1 << 63);
        for (index, start) in stream
            .climb_starts(block)
            .take(climbs_per_block(popcount) as usize)
        {
            if index >= limit {
                break;
            }
            tried += 1;
            if let Some(magic) = climb(
                &scratch.entries,
                job.bits,
                start,
                &mut rng,
                &mut scratch.table,
            ) {
                scan.insert(
                    job,
                    Found {
                        index,
                        magic,
                        used: 0,
                        span: 0,
                        blocked: 0,
                    },
                );
                break;
            }
        }
        return tried;
    }
    if !packed {
        // Fancy and plain keep the first find: the rest of the block cannot win.
        let start = block * BLOCK_LEN;
        let count = limit.saturating_sub(start);
        let magics = stream.magics(block).take_first(count);
        let (tried, found) = scratch
            .table
            .first_accepted(&mut scratch.entries, job.bits, magics);
        if let Some(magic) = found {
            scan.insert(
                job,
                Found {
                    index: start + tried - 1,
                    magic,
                    used: 0,
                    span: 0,
                    blocked: 0,
                },
            );
        }
        return tried;
    }
    let mut tried = 0;
    for (index, magic) in stream.block(block) {
        if index >= limit {
            break;
        }
        tried += 1;
        if !scratch.table.accepts(&mut scratch.entries, magic, job.bits) {
            continue;
        }
        // Its own stream per find, so the climb depends only on the candidate.
        let mut rng = stream.block_rng(index | 1 << 63);
        let (magic, (used, span)) = density_climb(
            &scratch.entries,
            job.bits,
            magic,
            &mut rng,
            &mut scratch.table,
            // Not stopped inside: a stop ends the scan between blocks, where its state is
            // what a resume goes on from.
            (scan.patience, None),
        );
        let mut found = Found {
            index,
            magic,
            used,
            span,
            blocked: 0,
        };
        if scan.may_keep(job, &found) {
            found.blocked = scan.blocked(&mut scratch.table, &scratch.entries, magic, job.bits);
            scan.insert(job, found);
        }
        if scan.finished(job) && !matches!(scan.budget, Budget::Candidates(_)) {
            break;
        }
    }
    tried
}

/// Sets its flag when dropped by a panicking thread: a worker's alarm to the others.
struct PanicAlarm<'a>(&'a AtomicBool);

impl Drop for PanicAlarm<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// How often to save, and the function that saves a consistent copy of the state.
pub(crate) type Checkpoint<'a> = (Duration, &'a mut dyn FnMut(&SearchState));

/// Runs `state`'s unfinished jobs on `limits.threads` workers until every job is done,
/// `limits.seconds` have passed or `progress.stop` is set. Every `checkpoint.0` it hands a
/// consistent copy of the state to `checkpoint.1` (to be saved); the state is left
/// consistent at any stop. The scan stage of `crate::hunt::run`.
pub(crate) fn run(
    state: &mut SearchState,
    limits: &Limits,
    progress: &Progress,
    mut checkpoint: Option<Checkpoint<'_>>,
) {
    let deadline = limits.deadline();
    let threads = limits.threads.max(1);
    let scan = state.scan;
    let (spent, budget) = state.budget_used().unwrap_or((0, 0));
    progress.budget.store(budget, Ordering::Relaxed);
    progress.spent.store(spent, Ordering::Relaxed);
    let jobs: Vec<Mutex<(Job, Option<Scratch>)>> = state
        .jobs
        .drain(..)
        .map(|j| Mutex::new((j, None)))
        .collect();
    let count_done = |jobs: &[Mutex<(Job, Option<Scratch>)>]| {
        jobs.iter()
            .filter(|j| j.lock().unwrap_or_else(|e| e.into_inner()).0.done)
            .count()
    };
    progress.jobs.store(jobs.len(), Ordering::Relaxed);
    progress
        .jobs_done
        .store(count_done(&jobs), Ordering::Relaxed);
    let reached = jobs
        .iter()
        .filter(|j| {
            !j.lock()
                .unwrap_or_else(|e| e.into_inner())
                .0
                .found
                .is_empty()
        })
        .count();
    progress.reached.store(reached, Ordering::Relaxed);
    let cursor = AtomicUsize::new(0);
    // A worker that panics (a bug) leaves its job locked and poisoned, never done: the others
    // stop too, so the panic reaches the caller instead of every worker waiting for that job.
    let panicked = AtomicBool::new(false);
    let out_of_time = || {
        deadline.is_some_and(|d| Instant::now() >= d)
            || progress.stop.load(Ordering::Relaxed)
            || panicked.load(Ordering::Relaxed)
    };

    let work = || {
        let _alarm = PanicAlarm(&panicked);
        // Jobs seen in a row that were done or busy on another worker.
        let mut idle = 0;
        while !out_of_time() {
            if idle >= jobs.len() {
                if progress.jobs_done.load(Ordering::Relaxed) >= jobs.len() {
                    break;
                }
                // Fewer open jobs than workers: wait instead of spinning.
                std::thread::sleep(Duration::from_millis(1));
                idle = 0;
            }
            let i = cursor.fetch_add(1, Ordering::Relaxed) % jobs.len();
            let Ok(mut guard) = jobs[i].try_lock() else {
                idle += 1;
                continue;
            };
            let (job, scratch) = &mut *guard;
            if job.done {
                idle += 1;
                continue;
            }
            idle = 0;
            let scratch = scratch.get_or_insert_with(|| Scratch::new(job, scan.variant));
            let had = !job.found.is_empty();
            let spent = scan.budget_spent(job).unwrap_or(0);
            let tried = scan_block(&scan, job, scratch);
            let spent = scan.budget_spent(job).unwrap_or(0) - spent;
            progress.spent.fetch_add(spent, Ordering::Relaxed);
            progress.candidates.fetch_add(tried, Ordering::Relaxed);
            if !had && !job.found.is_empty() {
                progress.reached.fetch_add(1, Ordering::Relaxed);
            }
            if job.done {
                // Free the scratch of finished jobs: 128 of them would hold ~10 MB.
                guard.1 = None;
                progress.jobs_done.fetch_add(1, Ordering::Relaxed);
            }
        }
    };
    let snapshot = |jobs: &[Mutex<(Job, Option<Scratch>)>]| -> Vec<Job> {
        jobs.iter()
            .map(|j| j.lock().unwrap_or_else(|e| e.into_inner()).0.clone())
            .collect()
    };
    let finished = AtomicUsize::new(0);
    match checkpoint.as_mut() {
        // Nothing to save on the way: the caller's thread is the only worker, or one of them.
        None => std::thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(work);
            }
            work();
        }),
        Some((every, save)) => std::thread::scope(|s| {
            // Workers count themselves out and wake this thread when they finish; it also
            // wakes for each checkpoint. (A finished count, not `JoinHandle::is_finished`:
            // a thread that has unparked us may not count as finished yet, and parking again
            // then slept through a whole checkpoint interval.)
            let saver = std::thread::current();
            let workers = threads;
            for _ in 0..workers {
                let (saver, finished) = (saver.clone(), &finished);
                s.spawn(move || {
                    work();
                    finished.fetch_add(1, Ordering::Release);
                    saver.unpark();
                });
            }
            let mut last = Instant::now();
            while finished.load(Ordering::Acquire) < workers && !panicked.load(Ordering::Relaxed) {
                std::thread::park_timeout(every.saturating_sub(last.elapsed()));
                if last.elapsed() >= *every {
                    let mut copy = state.clone();
                    copy.jobs = snapshot(&jobs);
                    save(&copy);
                    last = Instant::now();
                }
            }
        }),
    }
    state.jobs = jobs
        .into_iter()
        .map(|j| j.into_inner().unwrap_or_else(|e| e.into_inner()).0)
        .collect();
}

#[cfg(test)]
mod tests;
