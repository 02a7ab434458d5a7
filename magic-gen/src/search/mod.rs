//! The magic search: seeded, parallel, deterministic, shardable and resumable.
//!
//! Every (piece, square) is a job scanning its own candidate stream ([`space`]) block by
//! block. Workers take jobs round-robin, one block at a time, so all squares advance
//! together and a time budget is shared fairly. A job's result depends only on which
//! blocks it scanned, never on threads or timing, so the same seed and arguments give the
//! same set; a time budget (or Ctrl-C) only decides when scanning stops. The scan state
//! ([`state`]) is what checkpoints, resumes and shard merges work on; fixed-shift pools
//! are packed into one table by [`pack`].

pub mod pack;
pub mod space;
pub mod state;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::{relevant_mask, slow_attacks, square_name, subsets, Piece};
use crate::index::{magic_hash, Variant};
use crate::set::{Entry, MagicSet};
use crate::verify::{verify, Report};

use pack::{pack, Pattern};
use space::{Shard, Stream};
use state::{is_packed, Budget, Found, Job, SearchState};

/// What to search for.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Fancy, plain, black or white (PEXT needs no search).
    pub variant: Variant,
    /// Squares that get the requested `bits` (fancy only); every other square gets its
    /// variant's default bits. Empty means all 128.
    pub targets: Vec<(Piece, u8)>,
    /// Index bits for the targets (fancy only); `None` is the mask popcount.
    pub bits: Option<u8>,
    /// Time budget for targets below the mask popcount; `None` searches until found or stopped.
    pub seconds: Option<f64>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Seed of every job's random stream.
    pub seed: u64,
}

/// Shared counters a caller can watch (progress bar) and a flag that stops the search.
#[derive(Debug, Default)]
pub struct Progress {
    /// Candidate magics tried so far.
    pub candidates: AtomicU64,
    /// Jobs finished so far.
    pub done: AtomicUsize,
    /// Jobs in the run (set when the search starts).
    pub total: AtomicUsize,
    /// Set to stop: every job stops after its current block; unfinished ones fall back
    /// (default bits, or the first magic of the whole space) when the state is finished.
    pub stop: AtomicBool,
    /// Jobs with at least one valid magic at the bits they ask for.
    pub reached: AtomicUsize,
}

/// A finished search: a verified set, with the targets that did not reach the requested bits.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub set: MagicSet,
    pub report: Report,
    /// Targets that fell back to default bits (time budget spent or stopped).
    pub unmet: Vec<(Piece, u8)>,
}

/// Why a search could not run or did not produce a valid set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchError(pub String);

impl core::fmt::Display for SearchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SearchError {}

/// One square's occupancies and their attacks, in the order the search tries them.
pub struct SquareData {
    pub piece: Piece,
    pub square: u8,
    pub mask: u64,
    /// The key multiplied by the magic: `occ` (white) or `occ | !mask` (black).
    pub keys: Vec<u64>,
    pub attacks: Vec<u64>,
    /// Each occupancy's attack set as a small id (a square has at most 144 distinct sets),
    /// so the search's slot table stays 4 bytes a slot and fits in L1.
    pub attack_ids: Vec<u8>,
}

impl SquareData {
    /// Returns the occupancies of `piece` on `sq` with their attacks, keyed for `black` or not.
    pub fn new(piece: Piece, sq: u8, black: bool) -> SquareData {
        let mask = relevant_mask(piece, sq);
        let mut keys = Vec::with_capacity(1 << mask.count_ones());
        let mut attacks = Vec::with_capacity(keys.capacity());
        for occ in subsets(mask) {
            keys.push(if black { occ | !mask } else { occ });
            attacks.push(slow_attacks(piece, sq, occ));
        }
        // Fewest blockers first: those occupancies have the longest, most distinct attack
        // sets and collide first, so bad candidates fail early (about 2x faster than the
        // carry-rippler order, measured with the `probe` test below).
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| (keys[i] & mask).count_ones());
        let keys = order.iter().map(|&i| keys[i]).collect();
        let attacks: Vec<u64> = order.iter().map(|&i| attacks[i]).collect();
        let mut distinct: Vec<u64> = attacks.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let attack_ids = attacks
            .iter()
            .map(|a| distinct.binary_search(a).map_or(0, |i| i as u8))
            .collect();
        SquareData {
            piece,
            square: sq,
            mask,
            keys,
            attacks,
            attack_ids,
        }
    }
}

/// A slot table cleared in O(1) between candidates by bumping an epoch stamp.
pub struct EpochTable {
    /// `epoch << 8 | attack id`: a slot belongs to the current candidate only if its
    /// epoch matches.
    slots: Vec<u32>,
    epoch: u32,
}

impl EpochTable {
    /// Returns a table of `2^bits` slots.
    pub fn new(bits: u8) -> EpochTable {
        EpochTable {
            slots: vec![0; 1 << bits],
            epoch: 0,
        }
    }

    /// Starts a new candidate: returns its stamp (`epoch << 8`), clearing the slots only
    /// when the 24-bit epoch wraps.
    fn next_stamp(&mut self) -> u32 {
        self.epoch += 1;
        if self.epoch == 1 << 24 {
            self.slots.fill(0);
            self.epoch = 1;
        }
        self.epoch << 8
    }

    /// Returns `Ok` if `magic` maps every `(key, attack id)` without a destructive
    /// collision, else the position of the occupancy that collided.
    pub fn try_magic(&mut self, entries: &[(u64, u8)], magic: u64, bits: u8) -> Result<(), usize> {
        let stamp = self.next_stamp();
        let shift = 64 - bits as u32;
        // The shift already bounds the index; the mask lets the compiler drop the bounds check.
        let last = self.slots.len() - 1;
        for (k, &(key, id)) in entries.iter().enumerate() {
            let slot = &mut self.slots[(key.wrapping_mul(magic) >> shift) as usize & last];
            if *slot & !0xff != stamp {
                *slot = stamp | id as u32;
            } else if *slot != stamp | id as u32 {
                return Err(k);
            }
        }
        Ok(())
    }

    /// Returns how many of `entries` collide destructively under `magic`: the fitness a
    /// reduced-bit climb minimises (0 means valid).
    pub fn conflicts(&mut self, entries: &[(u64, u8)], magic: u64, bits: u8) -> u32 {
        let stamp = self.next_stamp();
        let shift = 64 - bits as u32;
        let last = self.slots.len() - 1;
        let mut bad = 0;
        for &(key, id) in entries {
            let slot = &mut self.slots[(key.wrapping_mul(magic) >> shift) as usize & last];
            if *slot & !0xff != stamp {
                *slot = stamp | id as u32;
            } else if *slot != stamp | id as u32 {
                bad += 1;
            }
        }
        bad
    }

    /// Returns (used slots, span) of a valid `magic`, or `None` on a destructive collision:
    /// what a density climb minimises for fixed-shift tables.
    pub fn measure(&mut self, entries: &[(u64, u8)], magic: u64, bits: u8) -> Option<(u32, u32)> {
        let stamp = self.next_stamp();
        let shift = 64 - bits as u32;
        let last = self.slots.len() - 1;
        let (mut lo, mut hi, mut used) = (usize::MAX, 0, 0);
        for &(key, id) in entries {
            let i = (key.wrapping_mul(magic) >> shift) as usize & last;
            let slot = &mut self.slots[i];
            if *slot & !0xff != stamp {
                *slot = stamp | id as u32;
                used += 1;
                lo = lo.min(i);
                hi = hi.max(i);
            } else if *slot != stamp | id as u32 {
                return None;
            }
        }
        Some((used, (hi + 1).saturating_sub(lo) as u32))
    }
}

/// Moves without improvement after which a density climb gives up.
pub const DENSITY_PATIENCE: u32 = 1000;

/// A local search that makes a valid fixed-shift magic denser: flip one or two random
/// bits, keep the change if the magic stays valid and its span (then its used slots) does
/// not grow. The span is what the table pays for: the packer mostly lays ranges end to end,
/// since the gaps of one square's range rarely fit another's. Span first brought the sum of
/// the shortest spans of a black search from 138k to 117k entries (used slots plus span:
/// no better than no climb). Returns the magic with its (used, span).
pub fn density_climb(
    entries: &[(u64, u8)],
    bits: u8,
    start: u64,
    rng: &mut Xoshiro256PlusPlus,
    table: &mut EpochTable,
    patience: u32,
) -> (u64, (u32, u32)) {
    use rand_xoshiro::rand_core::RngCore;
    let score = |(used, span): (u32, u32)| (span as u64) << 16 | used as u64;
    let mut magic = start;
    let Some(mut current) = table.measure(entries, magic, bits) else {
        return (start, (u32::MAX, u32::MAX));
    };
    let mut stale = 0;
    while stale < patience {
        let r = rng.next_u64();
        let mut trial = magic ^ (1 << (r & 63));
        if r & 64 != 0 {
            trial ^= 1 << ((r >> 8) & 63);
        }
        stale += 1;
        if let Some(m) = table.measure(entries, trial, bits) {
            if score(m) < score(current) {
                stale = 0;
            }
            if score(m) <= score(current) {
                magic = trial;
                current = m;
            }
        }
    }
    (magic, current)
}

/// Returns the climbs a reduced-bit job starts per block: one per 4096 occupancies
/// evaluated per move, so a block costs about the same on every square and round-robin
/// scheduling shares time fairly (64 climbs for a 6-bit bishop, 1 for a 12-bit rook).
pub const fn climbs_per_block(popcount: u8) -> u64 {
    1 << (12 - if popcount < 12 { popcount } else { 12 })
}

/// Moves without improvement after which a climb gives up. Measured on bishop a3 and b3 at
/// one bit under: 1000 found them 2-10x sooner than 100, 300 or 3000.
const CLIMB_PATIENCE: u32 = 1000;

/// A local search for a magic with fewer bits than the mask popcount, guided by
/// constructive collisions: from `start`, flip one or two random bits at a time and keep
/// the change when it does not add destructive collisions, until none are left or
/// [`CLIMB_PATIENCE`] moves bring no improvement. Random sparse candidates almost never
/// work below the popcount (none of 128 squares in 1.4 billion tries); climbing finds
/// bishop a1 at 5 bits in about 100,000 evaluations.
pub fn climb(
    entries: &[(u64, u8)],
    bits: u8,
    start: u64,
    rng: &mut Xoshiro256PlusPlus,
    table: &mut EpochTable,
) -> Option<u64> {
    use rand_xoshiro::rand_core::RngCore;
    let mut magic = start;
    let mut current = table.conflicts(entries, magic, bits);
    let mut stale = 0;
    while current > 0 && stale < CLIMB_PATIENCE {
        let r = rng.next_u64();
        let mut trial = magic ^ (1 << (r & 63));
        if r & 64 != 0 {
            trial ^= 1 << ((r >> 8) & 63);
        }
        let c = table.conflicts(entries, trial, bits);
        stale = if c < current { 0 } else { stale + 1 };
        if c <= current {
            magic = trial;
            current = c;
        }
    }
    (current == 0).then_some(magic)
}

/// Returns the indices (before the offset) that `magic` gives `data`'s occupancies, paired
/// with their attacks, sorted by index and without duplicates.
pub fn used_slots(data: &SquareData, magic: u64, bits: u8, black: bool) -> Vec<(u32, u64)> {
    let mut used: Vec<(u32, u64)> = data
        .keys
        .iter()
        .zip(&data.attacks)
        .map(|(&key, &attacks)| {
            (
                magic_hash(black, key, data.mask, magic, bits) as u32,
                attacks,
            )
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// Valid magics each fixed-shift job keeps for the packer, by default.
pub const DEFAULT_POOL: usize = 16;

/// The search options beyond [`SearchConfig`]: what record hunts and long runs need.
#[derive(Clone, Debug, PartialEq)]
pub struct HuntOptions {
    /// The slice of the candidate space this run scans.
    pub shard: Shard,
    /// How long each job scans.
    pub budget: Budget,
    /// Valid magics each fixed-shift job keeps for the packer.
    pub pool: usize,
    /// Moves without improvement before a fixed-shift density climb stops (0: no climb).
    pub patience: u32,
    /// Ask the targets for this many bits fewer than their mask popcount (fancy), instead
    /// of an absolute `bits`.
    pub bits_under: Option<u8>,
    /// Seconds the packer may spend improving a fixed-shift table after the scan.
    pub pack_seconds: Option<f64>,
    /// The command line, recorded in state files.
    pub command: String,
}

impl Default for HuntOptions {
    fn default() -> Self {
        HuntOptions {
            shard: Shard::WHOLE,
            budget: Budget::UntilFound,
            pool: DEFAULT_POOL,
            patience: DENSITY_PATIENCE,
            bits_under: None,
            pack_seconds: None,
            command: String::new(),
        }
    }
}

/// Returns the index bits a job asks for.
fn wanted_bits(
    config: &SearchConfig,
    hunt: &HuntOptions,
    piece: Piece,
    sq: u8,
) -> Result<u8, SearchError> {
    let popcount = relevant_mask(piece, sq).count_ones() as u8;
    let default = if config.variant.has_fixed_shift() {
        piece.fixed_bits()
    } else {
        popcount
    };
    let is_target = config.targets.is_empty() || config.targets.contains(&(piece, sq));
    if !is_target {
        return Ok(default);
    }
    let bits = match (config.bits, hunt.bits_under) {
        (Some(b), _) => b,
        (None, Some(under)) => popcount.saturating_sub(under),
        (None, None) => default,
    };
    if bits == 0 || bits > popcount.max(default) {
        return Err(SearchError(format!(
            "index bits {bits} out of range for {piece} {}: 1..={popcount} (its mask popcount)",
            square_name(sq)
        )));
    }
    Ok(bits)
}

/// Returns a fresh state for `config` and `hunt`: one job per piece and square.
pub fn new_state(config: &SearchConfig, hunt: &HuntOptions) -> Result<SearchState, SearchError> {
    let variant = config.variant;
    if variant == Variant::Pext {
        return Err(SearchError(
            "PEXT needs no search: its index is the mask itself".into(),
        ));
    }
    if (config.bits.is_some() || hunt.bits_under.is_some()) && variant != Variant::Fancy {
        return Err(SearchError(format!(
            "{variant} magics have fixed bits (12 rook, 9 bishop); --bits is for fancy"
        )));
    }
    let mut jobs = Vec::with_capacity(128);
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let bits = wanted_bits(config, hunt, piece, sq)?;
            jobs.push(Job {
                piece,
                square: sq,
                bits,
                next: 0,
                found: Vec::new(),
                done: false,
            });
        }
    }
    Ok(SearchState {
        variant,
        seed: config.seed,
        shard: hunt.shard,
        budget: hunt.budget,
        pool: hunt.pool,
        patience: hunt.patience,
        command: hunt.command.clone(),
        jobs,
    })
}

/// What a worker keeps between blocks of one job (not part of the saved state).
struct Scratch {
    data: SquareData,
    /// Occupancies in checking order, learnt from failures.
    entries: Vec<(u64, u8)>,
    table: EpochTable,
}

/// Scans block `job.next` of `job`'s shard, recording valid magics.
fn scan_block(
    state_policy: &state::Policy,
    seed: u64,
    job: &mut Job,
    scratch: &mut Scratch,
) -> u64 {
    let variant = state_policy.variant;
    let stream = Stream {
        seed,
        variant,
        piece: job.piece,
        square: job.square,
        bits: job.bits,
    };
    let block = state_policy.shard.block(job.next);
    let limit = match state_policy.budget {
        Budget::Candidates(limit) => limit,
        Budget::UntilFound => u64::MAX,
    };
    let packed = is_packed(variant);
    let popcount = scratch.data.mask.count_ones() as u8;
    if !packed && job.bits < popcount {
        // Reduced bits: each candidate of the block starts a climb.
        let mut tried = 0;
        // A stream of its own, apart from the block's candidates.
        let mut rng = stream.block_rng(block | 1 << 63);
        for (index, start) in stream
            .block(block)
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
                state_policy.insert(
                    job,
                    Found {
                        index,
                        magic,
                        used: 0,
                        span: 0,
                    },
                );
                break;
            }
        }
        job.next += 1;
        job.done = state_policy.finished(job);
        return tried;
    }
    let mut tried = 0;
    for (index, magic) in stream.block(block) {
        if index >= limit {
            break;
        }
        tried += 1;
        match scratch.table.try_magic(&scratch.entries, magic, job.bits) {
            Ok(()) => {
                let (magic, (used, span)) = if packed {
                    // Its own stream per find, so the climb depends only on the candidate.
                    let mut rng = stream.block_rng(index | 1 << 63);
                    density_climb(
                        &scratch.entries,
                        job.bits,
                        magic,
                        &mut rng,
                        &mut scratch.table,
                        state_policy.patience,
                    )
                } else {
                    (magic, (0, 0))
                };
                state_policy.insert(
                    job,
                    Found {
                        index,
                        magic,
                        used,
                        span,
                    },
                );
                if state_policy.finished(job)
                    && !matches!(state_policy.budget, Budget::Candidates(_))
                {
                    break;
                }
                if !packed {
                    // Fancy and plain keep the first find: the rest of the block cannot win.
                    break;
                }
            }
            // Move the occupancy that failed one step forward: occupancies that collide
            // often drift to the front, so bad candidates fail sooner. The order never
            // changes which candidate passes, only how fast the others fail.
            Err(k) => scratch.entries.swap(k, k.saturating_sub(1)),
        }
    }
    job.next += 1;
    job.done = state_policy.finished(job);
    tried
}

/// How often to save, and the function that saves a consistent copy of the state.
pub type Checkpoint<'a> = (Duration, &'a mut dyn FnMut(&SearchState));

/// Runs `state`'s unfinished jobs on `threads` workers until every job is done, `deadline`
/// passes or `progress.stop` is set. Every `checkpoint.0` it hands a consistent copy of the
/// state to `checkpoint.1` (to be saved); the state is left consistent at any stop.
pub fn run(
    state: &mut SearchState,
    threads: usize,
    deadline: Option<Instant>,
    progress: &Progress,
    mut checkpoint: Option<Checkpoint<'_>>,
) {
    let policy = state.policy();
    let seed = state.seed;
    let black = state.variant.is_black();
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
    progress.total.store(jobs.len(), Ordering::Relaxed);
    progress.done.store(count_done(&jobs), Ordering::Relaxed);
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
    let out_of_time =
        || deadline.is_some_and(|d| Instant::now() >= d) || progress.stop.load(Ordering::Relaxed);

    let work = || {
        // Jobs seen in a row that were done or busy on another worker.
        let mut idle = 0;
        while !out_of_time() {
            if idle >= jobs.len() {
                if progress.done.load(Ordering::Relaxed) >= jobs.len() {
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
            let scratch = scratch.get_or_insert_with(|| {
                let data = SquareData::new(job.piece, job.square, black);
                let entries = data
                    .keys
                    .iter()
                    .copied()
                    .zip(data.attack_ids.iter().copied())
                    .collect();
                Scratch {
                    data,
                    entries,
                    table: EpochTable::new(job.bits),
                }
            });
            let had = !job.found.is_empty();
            let tried = scan_block(&policy, seed, job, scratch);
            progress.candidates.fetch_add(tried, Ordering::Relaxed);
            if !had && !job.found.is_empty() {
                progress.reached.fetch_add(1, Ordering::Relaxed);
            }
            if job.done {
                // Free the scratch of finished jobs: 128 of them would hold ~10 MB.
                guard.1 = None;
                progress.done.fetch_add(1, Ordering::Relaxed);
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
            for _ in 1..threads.max(1) {
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
            let workers = threads.max(1);
            for _ in 0..workers {
                let (saver, finished) = (saver.clone(), &finished);
                s.spawn(move || {
                    work();
                    finished.fetch_add(1, Ordering::Release);
                    saver.unpark();
                });
            }
            let mut last = Instant::now();
            while finished.load(Ordering::Acquire) < workers {
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

/// Returns the first valid magic of `job`'s stream with `bits` bits, scanning the whole
/// space (shard 0/1) until found: the fallback for targets that did not reach fewer bits.
fn first_magic(seed: u64, variant: Variant, piece: Piece, sq: u8, bits: u8) -> u64 {
    let data = SquareData::new(piece, sq, variant.is_black());
    let mut entries: Vec<(u64, u8)> = data
        .keys
        .iter()
        .copied()
        .zip(data.attack_ids.iter().copied())
        .collect();
    let mut table = EpochTable::new(bits);
    let stream = Stream {
        seed,
        variant,
        piece,
        square: sq,
        bits,
    };
    for block in 0.. {
        for (_, magic) in stream.block(block) {
            match table.try_magic(&entries, magic, bits) {
                Ok(()) => return magic,
                Err(k) => entries.swap(k, k.saturating_sub(1)),
            }
        }
    }
    unreachable!("the candidate space is unbounded")
}

/// Turns a scan state into a verified set: each job's best find (fancy, plain; jobs
/// without one fall back to default bits, listed as unmet) or the packed pools (fixed
/// shift). `pack_deadline` lets the packer improve the table until then.
pub fn finish(
    state: &SearchState,
    pack_deadline: Option<Instant>,
) -> Result<SearchOutcome, SearchError> {
    let variant = state.variant;
    let mut set = MagicSet::new(variant);
    let mut unmet = Vec::new();
    if is_packed(variant) {
        let mut pools: Vec<Vec<Pattern>> = vec![Vec::new(); 128];
        for job in &state.jobs {
            let data = SquareData::new(job.piece, job.square, variant.is_black());
            let mut pool: Vec<Pattern> = job
                .found
                .iter()
                .map(|f| {
                    Pattern::new(
                        f.magic,
                        used_slots(&data, f.magic, job.bits, variant.is_black())
                            .into_iter()
                            .map(|s| s.0),
                    )
                })
                .collect();
            if pool.is_empty() {
                // Not reached within the budget: the first magic of the whole space, what
                // an unbounded scan of shard 0/1 would have kept first.
                let magic = first_magic(state.seed, variant, job.piece, job.square, job.bits);
                pool.push(Pattern::new(
                    magic,
                    used_slots(&data, magic, job.bits, variant.is_black())
                        .into_iter()
                        .map(|s| s.0),
                ));
            }
            pools[job.piece.index() * 64 + job.square as usize] = pool;
        }
        if state.jobs.len() != 128 {
            return Err(SearchError(format!(
                "a state needs 128 jobs, found {}",
                state.jobs.len()
            )));
        }
        set = pack(variant, &pools, state.seed, pack_deadline);
    } else {
        for job in &state.jobs {
            let default = if variant.has_fixed_shift() {
                job.piece.fixed_bits()
            } else {
                relevant_mask(job.piece, job.square).count_ones() as u8
            };
            let entry = set.entry_mut(job.piece, job.square);
            match job.found.first() {
                Some(f) => {
                    *entry = Entry {
                        magic: f.magic,
                        bits: job.bits,
                        offset: 0,
                    }
                }
                None => {
                    // Not reached within the budget (or stopped): the first default-bits
                    // magic of the whole space, which is also what an unbounded default-bits
                    // job finds, so only a job that asked for fewer bits is unmet.
                    let magic = first_magic(state.seed, variant, job.piece, job.square, default);
                    *entry = Entry {
                        magic,
                        bits: default,
                        offset: 0,
                    };
                    if job.bits != default {
                        unmet.push((job.piece, job.square));
                    }
                }
            }
        }
        lay_out_back_to_back(&mut set);
    }
    let verified = verify(&set).map_err(|failures| {
        let list: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
        SearchError(format!(
            "internal: the search produced a set that fails verification:\n{}",
            list.join("\n")
        ))
    })?;
    Ok(SearchOutcome {
        set,
        report: verified.report,
        unmet,
    })
}

/// Searches the set described by `config` (default hunt options, the time budget of
/// `config.seconds`), reporting through `progress`.
pub fn search(config: &SearchConfig, progress: &Progress) -> Result<SearchOutcome, SearchError> {
    search_with(config, &HuntOptions::default(), progress)
}

/// Searches with explicit hunt options: scan, then finish.
pub fn search_with(
    config: &SearchConfig,
    hunt: &HuntOptions,
    progress: &Progress,
) -> Result<SearchOutcome, SearchError> {
    let mut state = new_state(config, hunt)?;
    let deadline = config
        .seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    run(&mut state, config.threads, deadline, progress, None);
    let pack_deadline = hunt
        .pack_seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    finish(&state, pack_deadline)
}

/// Gives fancy and plain sets their offsets: ranges of `2^bits` back to back, rook first.
pub fn lay_out_back_to_back(set: &mut MagicSet) {
    let mut offset = 0u32;
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entry_mut(piece, sq);
            e.offset = offset;
            offset += 1 << e.bits;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(variant: Variant, threads: usize) -> SearchConfig {
        SearchConfig {
            variant,
            targets: vec![],
            bits: None,
            seconds: None,
            threads,
            seed: 7,
        }
    }

    #[test]
    fn search_is_deterministic_across_thread_counts() {
        let hunt = HuntOptions {
            pool: 2,
            ..HuntOptions::default()
        };
        for variant in [Variant::Fancy, Variant::Black] {
            let one = search_with(&config(variant, 1), &hunt, &Progress::default()).unwrap();
            let two = search_with(&config(variant, 2), &hunt, &Progress::default()).unwrap();
            assert_eq!(one.set, two.set, "{variant}");
            assert!(one.unmet.is_empty());
        }
    }

    #[test]
    fn fancy_standard_bits_give_the_standard_table() {
        let out = search(&config(Variant::Fancy, 2), &Progress::default()).unwrap();
        assert_eq!(out.report.table_len, 107_648);
    }

    #[test]
    fn plain_layout_is_one_array_per_square() {
        let out = search(&config(Variant::Plain, 2), &Progress::default()).unwrap();
        assert!(out.report.table_len <= 64 * 4096 + 64 * 512);
        assert_eq!(out.set.entry(Piece::Bishop, 1).offset, 64 * 4096 + 512);
    }

    #[test]
    fn bits_are_rejected_for_fixed_shift_and_out_of_range() {
        let mut c = config(Variant::Black, 1);
        c.bits = Some(11);
        assert!(search(&c, &Progress::default()).is_err());
        let mut c = config(Variant::Fancy, 1);
        c.targets = vec![(Piece::Bishop, 27)];
        c.bits = Some(10);
        let e = search(&c, &Progress::default()).unwrap_err();
        assert!(e.0.contains("bishop d4"), "{e}");
    }

    #[test]
    fn climbing_finds_bishop_a1_one_bit_under() {
        let mut c = config(Variant::Fancy, 2);
        c.targets = vec![(Piece::Bishop, 0)];
        let hunt = HuntOptions {
            bits_under: Some(1),
            budget: Budget::Candidates(4 * space::BLOCK_LEN),
            ..HuntOptions::default()
        };
        let out = search_with(&c, &hunt, &Progress::default()).unwrap();
        assert!(out.unmet.is_empty());
        assert_eq!(out.set.entry(Piece::Bishop, 0).bits, 5);
        assert_eq!(out.report.table_len, 107_648 - 32);
    }

    /// Runs `config` over the first `candidates` of each job's space as `shards` shards,
    /// merges their states and finishes: the set one run over the same space gives.
    fn sharded(config: &SearchConfig, hunt: &HuntOptions, shards: u32) -> MagicSet {
        let states: Vec<SearchState> = (0..shards)
            .map(|index| {
                let hunt = HuntOptions {
                    shard: Shard {
                        index,
                        count: shards,
                    },
                    ..hunt.clone()
                };
                let mut st = new_state(config, &hunt).unwrap();
                run(&mut st, 1, None, &Progress::default(), None);
                // Through text, as between machines.
                SearchState::parse("shard", st.to_text().as_bytes()).unwrap()
            })
            .collect();
        finish(&state::merge(&states).unwrap(), None).unwrap().set
    }

    #[test]
    fn merged_shards_equal_one_run_over_the_same_space() {
        for (variant, bits_under) in [
            (Variant::Black, None),
            (Variant::Fancy, Some(1)),
            (Variant::Fancy, None),
        ] {
            let mut c = config(variant, 2);
            if bits_under.is_some() {
                // Bishops one bit under: some reached within the budget (a1, b1), some not
                // (d4 cannot be: Fiekas proved it).
                c.targets = [0, 1, 2, 27].map(|s| (Piece::Bishop, s)).to_vec();
            }
            let hunt = HuntOptions {
                budget: Budget::Candidates(2 * space::BLOCK_LEN),
                pool: 2,
                patience: 20,
                bits_under,
                ..HuntOptions::default()
            };
            let whole = sharded(&c, &hunt, 1);
            if bits_under.is_some() {
                assert_eq!(whole.entry(Piece::Bishop, 0).bits, 5, "a1 is reached");
                assert_eq!(whole.entry(Piece::Bishop, 27).bits, 9, "d4 falls back");
            }
            for shards in [2, 3] {
                assert_eq!(
                    sharded(&c, &hunt, shards),
                    whole,
                    "{variant} in {shards} shards"
                );
            }
        }
    }

    #[test]
    fn a_resumed_run_equals_an_uninterrupted_one() {
        let c = config(Variant::Black, 2);
        let hunt = HuntOptions {
            budget: Budget::Candidates(3 * space::BLOCK_LEN),
            pool: 2,
            patience: 20,
            ..HuntOptions::default()
        };
        let mut whole = new_state(&c, &hunt).unwrap();
        run(&mut whole, 2, None, &Progress::default(), None);
        // Stop after the first checkpoint, as a kill would, then resume from the saved text.
        let mut part = new_state(&c, &hunt).unwrap();
        let progress = Progress::default();
        let mut saved = None;
        let mut save = |s: &SearchState| {
            if saved.is_none() {
                saved = Some(s.to_text());
                progress.stop.store(true, Ordering::Relaxed);
            }
        };
        run(
            &mut part,
            2,
            None,
            &progress,
            Some((Duration::ZERO, &mut save)),
        );
        let saved = saved.expect("a checkpoint was taken");
        let mut resumed = SearchState::parse("state", saved.as_bytes()).unwrap();
        run(&mut resumed, 2, None, &Progress::default(), None);
        assert_eq!(
            finish(&resumed, None).unwrap().set,
            finish(&whole, None).unwrap().set
        );
        assert!(resumed.jobs.iter().all(|j| j.done));
    }

    #[test]
    fn a_run_with_checkpoints_returns_when_its_jobs_are_done() {
        // Regression: the saver thread could miss its wake-up and sleep through a whole
        // checkpoint interval (an hour here) after the last job. A liveness check: a hang
        // fails after two minutes instead of blocking the suite.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for _ in 0..20 {
                let mut st =
                    new_state(&config(Variant::Plain, 1), &HuntOptions::default()).unwrap();
                let mut save = |_: &SearchState| {};
                run(
                    &mut st,
                    1,
                    None,
                    &Progress::default(),
                    Some((Duration::from_secs(3600), &mut save)),
                );
                assert!(st.jobs.iter().all(|j| j.done));
            }
            tx.send(()).unwrap();
        });
        rx.recv_timeout(Duration::from_secs(120))
            .expect("20 short runs return, not wait for a checkpoint");
    }

    #[test]
    fn an_impossible_target_falls_back_when_the_budget_runs_out() {
        // 3 bits cannot index the 108 distinct attack sets of a bishop on d4.
        let mut c = config(Variant::Fancy, 1);
        c.targets = vec![(Piece::Bishop, 27)];
        c.bits = Some(3);
        c.seconds = Some(0.05);
        let out = search(&c, &Progress::default()).unwrap();
        assert_eq!(out.unmet, vec![(Piece::Bishop, 27)]);
        assert_eq!(out.set.entry(Piece::Bishop, 27).bits, 9);
    }
}
