//! The workers: jobs taken round-robin one block at a time, so all squares advance
//! together; and the checkpoints, which hand a consistent copy of the state to the caller.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::candidates::{Stream, BLOCK_LEN};
use super::climb::{climb, climbs_per_block, density_climb, Effort};
use super::options::Limits;
use super::state::{Budget, Found, Job, Scan, SearchState};
use super::table::EpochTable;
use crate::index::Variant;
use crate::occupancy::SquareData;
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

/// One block of a job's candidate stream: the stream, the block's number in it, and the
/// candidate index the budget stops at.
struct Block {
    stream: Stream,
    number: u64,
    limit: u64,
}

/// Returns a find at candidate `index` whose slots are not measured: a find of a square
/// that keeps one magic (fancy and plain).
fn unmeasured(index: u64, magic: u64) -> Found {
    Found {
        index,
        magic,
        used: 0,
        span: 0,
        blocked: 0,
    }
}

/// Tries the candidates of block `job.next` of `job`'s shard, recording valid magics;
/// returns how many it tried.
fn scan_candidates(scan: &Scan, job: &mut Job, scratch: &mut Scratch) -> u64 {
    let block = Block {
        stream: Stream {
            seed: scan.seed,
            variant: scan.variant,
            piece: job.piece,
            square: job.square,
            bits: job.bits,
        },
        number: scan.shard.block(job.next),
        limit: match scan.budget {
            Budget::Candidates(limit) => limit,
            Budget::UntilFound => u64::MAX,
        },
    };
    let popcount = scratch.data.mask.count_ones() as u8;
    if scan.variant.is_packed() {
        keep_valid(scan, job, scratch, &block)
    } else if job.bits < popcount {
        climb_from_each(scan, job, scratch, &block, popcount)
    } else {
        keep_first_valid(scan, job, scratch, &block)
    }
}

/// Reduced bits: each candidate of the block starts a climb toward a magic at `job.bits`
/// (of a mask of `popcount` bits), until one gets there; returns the candidates tried.
fn climb_from_each(
    scan: &Scan,
    job: &mut Job,
    scratch: &mut Scratch,
    block: &Block,
    popcount: u8,
) -> u64 {
    let mut tried = 0;
    // A stream of its own, apart from the block's candidates.
    let mut rng = block.stream.block_rng(block.number | 1 << 63);
    for (index, start) in block
        .stream
        .climb_starts(block.number)
        .take(climbs_per_block(popcount) as usize)
    {
        if index >= block.limit {
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
            scan.insert(job, unmeasured(index, magic));
            break;
        }
    }
    tried
}

/// Fancy and plain keep the first find: the rest of the block cannot win. Returns the
/// candidates tried.
fn keep_first_valid(scan: &Scan, job: &mut Job, scratch: &mut Scratch, block: &Block) -> u64 {
    let start = block.number * BLOCK_LEN;
    let count = block.limit.saturating_sub(start);
    let magics = block.stream.magics(block.number).take_first(count);
    let (tried, found) = scratch
        .table
        .first_accepted(&mut scratch.entries, job.bits, magics);
    if let Some(magic) = found {
        scan.insert(job, unmeasured(start + tried - 1, magic));
    }
    tried
}

/// Fixed shift: every valid candidate of the block is climbed toward fewer used slots and
/// offered to the job's pool; returns the candidates tried.
fn keep_valid(scan: &Scan, job: &mut Job, scratch: &mut Scratch, block: &Block) -> u64 {
    let mut tried = 0;
    for (index, magic) in block.stream.block(block.number) {
        if index >= block.limit {
            break;
        }
        tried += 1;
        if !scratch.table.accepts(&mut scratch.entries, magic, job.bits) {
            continue;
        }
        // Its own stream per find, so the climb depends only on the candidate.
        let mut rng = block.stream.block_rng(index | 1 << 63);
        let (magic, (used, span)) = density_climb(
            &scratch.entries,
            job.bits,
            magic,
            &mut rng,
            &mut scratch.table,
            // Not stopped inside: a stop ends the scan between blocks, where its state is
            // what a resume goes on from.
            Effort::unstopped(scan.patience),
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

/// A job as the workers share it: the job, and the scratch kept between its blocks.
type SharedJob = Mutex<(Job, Option<Scratch>)>;

/// Locks `job`, as a panicking worker left it if one did.
fn lock(job: &SharedJob) -> MutexGuard<'_, (Job, Option<Scratch>)> {
    job.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `state`'s unfinished jobs on `limits.threads` workers until every job is done,
/// `limits.seconds` have passed or `progress.stop` is set. Every `checkpoint.0` it hands a
/// consistent copy of the state to `checkpoint.1` (to be saved); the state is left
/// consistent at any stop. The scan stage of a hunt ([`crate::hunt::Stage::Scan`]).
pub(crate) fn run(
    state: &mut SearchState,
    limits: &Limits,
    progress: &Progress,
    mut checkpoint: Option<Checkpoint<'_>>,
) {
    let deadline = limits.deadline();
    let threads = limits.threads.max(1);
    count_at_start(state, progress);
    let workers = Workers {
        scan: state.scan,
        jobs: state
            .jobs
            .drain(..)
            .map(|j| Mutex::new((j, None)))
            .collect(),
        cursor: AtomicUsize::new(0),
        panicked: AtomicBool::new(false),
        deadline,
        progress,
    };
    match checkpoint.as_mut() {
        None => workers.run(threads),
        Some((every, save)) => workers.run_saving(threads, *every, save, state),
    }
    state.jobs = workers
        .jobs
        .into_iter()
        .map(|j| j.into_inner().unwrap_or_else(|e| e.into_inner()).0)
        .collect();
}

/// Sets `progress`'s counts for the scan of `state` as it starts: the budget and what is
/// spent of it, the jobs, those done and those with a find.
fn count_at_start(state: &SearchState, progress: &Progress) {
    let (spent, budget) = state.budget_used().unwrap_or((0, 0));
    progress.budget.store(budget, Ordering::Relaxed);
    progress.spent.store(spent, Ordering::Relaxed);
    let jobs = &state.jobs;
    progress.jobs.store(jobs.len(), Ordering::Relaxed);
    let done = jobs.iter().filter(|j| j.done).count();
    progress.jobs_done.store(done, Ordering::Relaxed);
    let reached = jobs.iter().filter(|j| !j.found.is_empty()).count();
    progress.reached.store(reached, Ordering::Relaxed);
}

/// What the workers of one scan share: its settings, its jobs, where the round-robin is,
/// when to stop and the progress they count into.
struct Workers<'a> {
    scan: Scan,
    jobs: Vec<SharedJob>,
    /// The next job to try, modulo their count.
    cursor: AtomicUsize,
    /// A worker that panics (a bug) leaves its job locked and poisoned, never done: the
    /// others stop too, so the panic reaches the caller instead of every worker waiting for
    /// that job.
    panicked: AtomicBool,
    deadline: Option<Instant>,
    progress: &'a Progress,
}

impl Workers<'_> {
    /// Returns true once the scan must stop: its time is up, it was told to stop, or a
    /// worker panicked.
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.progress.stop.load(Ordering::Relaxed)
            || self.panicked.load(Ordering::Relaxed)
    }

    /// One worker: takes the jobs round-robin, a block at a time, until every job is done
    /// or the scan must stop.
    fn work(&self) {
        let _alarm = PanicAlarm(&self.panicked);
        let jobs = self.jobs.len();
        // Jobs seen in a row that were done or busy on another worker.
        let mut idle = 0;
        while !self.out_of_time() {
            if idle >= jobs {
                if self.progress.jobs_done.load(Ordering::Relaxed) >= jobs {
                    break;
                }
                // Fewer open jobs than workers: wait instead of spinning.
                std::thread::sleep(Duration::from_millis(1));
                idle = 0;
            }
            let i = self.cursor.fetch_add(1, Ordering::Relaxed) % jobs;
            let Ok(mut guard) = self.jobs[i].try_lock() else {
                idle += 1;
                continue;
            };
            if guard.0.done {
                idle += 1;
                continue;
            }
            idle = 0;
            self.scan_next_block(&mut guard);
        }
    }

    /// Scans the next block of a job not done, counting into the progress what it spent,
    /// tried and reached, and freeing the job's scratch once it is done.
    fn scan_next_block(&self, shared: &mut (Job, Option<Scratch>)) {
        let (job, scratch) = shared;
        let progress = self.progress;
        let scratch = scratch.get_or_insert_with(|| Scratch::new(job, self.scan.variant));
        let had = !job.found.is_empty();
        let spent = self.scan.budget_spent(job).unwrap_or(0);
        let tried = scan_block(&self.scan, job, scratch);
        let spent = self.scan.budget_spent(job).unwrap_or(0) - spent;
        progress.spent.fetch_add(spent, Ordering::Relaxed);
        progress.candidates.fetch_add(tried, Ordering::Relaxed);
        if !had && !job.found.is_empty() {
            progress.reached.fetch_add(1, Ordering::Relaxed);
        }
        if job.done {
            // Free the scratch of finished jobs: 128 of them would hold ~10 MB.
            shared.1 = None;
            progress.jobs_done.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Runs `threads` workers with nothing to save on the way: the caller's thread is one
    /// of them.
    fn run(&self, threads: usize) {
        std::thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(|| self.work());
            }
            self.work();
        });
    }

    /// Runs `threads` workers while the caller's thread hands `save` a copy of `state`
    /// (its jobs drained into the workers') with the jobs as they are, every `every`.
    fn run_saving(
        &self,
        threads: usize,
        every: Duration,
        save: &mut dyn FnMut(&SearchState),
        state: &SearchState,
    ) {
        let finished = AtomicUsize::new(0);
        std::thread::scope(|s| {
            // Workers count themselves out and wake this thread when they finish; it also
            // wakes for each checkpoint. (A finished count, not `JoinHandle::is_finished`:
            // a thread that has unparked us may not count as finished yet, and parking again
            // then slept through a whole checkpoint interval.)
            let saver = std::thread::current();
            for _ in 0..threads {
                let (saver, finished) = (saver.clone(), &finished);
                s.spawn(move || {
                    self.work();
                    finished.fetch_add(1, Ordering::Release);
                    saver.unpark();
                });
            }
            let mut last = Instant::now();
            while finished.load(Ordering::Acquire) < threads
                && !self.panicked.load(Ordering::Relaxed)
            {
                std::thread::park_timeout(every.saturating_sub(last.elapsed()));
                if last.elapsed() >= every {
                    let mut copy = state.clone();
                    copy.jobs = self.snapshot();
                    save(&copy);
                    last = Instant::now();
                }
            }
        });
    }

    /// Returns a copy of the jobs as they are between blocks.
    fn snapshot(&self) -> Vec<Job> {
        self.jobs.iter().map(|j| lock(j).0.clone()).collect()
    }
}

#[cfg(test)]
mod tests;
