//! Set assembly: a scan state becomes a verified set, each job's best find laid out back
//! to back (fancy, plain) or the fixed-shift pools packed into one table.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::geometry::{square_name, Piece};
use crate::index::Variant;
use crate::set::{Entry, MagicSet};
use crate::verify::{verify, Report};

use crate::pack::{pack, PackCheckpoint, PackHooks, PackSettings, Pattern};
use crate::stages::{Progress, Stage};

use super::candidates::Stream;
use super::climb::{clump_climb, density_climb};
use super::evolve::evolve_pool;
use super::options::{Error, Limits, PolishSettings};
use super::slots::used_slots;
use super::state::{Job, SearchState};
use super::table::{EpochTable, SquareData};

/// A finished hunt ([`run`](crate::hunt::run), [`finish`](crate::hunt::finish) or
/// [`repack`](crate::hunt::repack)): a verified set, with the targets that did not reach the
/// requested bits, where its packing ended and what each stage took.
///
/// ```
/// use magic_gen::hunt::{run, Hooks};
/// use magic_gen::search::{Options, SearchState};
/// use magic_gen::{render_set_file, Provenance, Variant};
/// use std::path::Path;
///
/// let options = Options::for_variant(Variant::Plain);
/// let mut state = SearchState::new(&options)?;
/// let outcome = run(&mut state, &[], &options.limits, true, Hooks::default())?;
/// // Verified already: the report of every square's slots, and the set ready to write.
/// let used: usize = outcome.report.squares.iter().flatten().map(|s| s.used).sum();
/// assert!(outcome.report.slots_used <= used);
/// let text = render_set_file(Path::new("plain.txt"), &outcome.set, &outcome.report, &Provenance::default());
/// assert!(text.contains("plain"));
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// The set, verified.
    pub set: MagicSet,
    /// What its verification measured.
    pub report: Report,
    /// Targets that fell back to default bits (time budget spent or stopped).
    pub unmet: Vec<(Piece, u8)>,
    /// Where the packer's annealing ended (fixed shift; empty otherwise): each packing's
    /// checkpoint after its last move, which is every move asked for unless the run was
    /// stopped.
    pub pack: Vec<PackCheckpoint>,
    /// Climbs of the polish finished, and asked for: fewer finished if the run was
    /// stopped during the polish (black and white; (0, 0) otherwise).
    pub polish: (u64, u64),
    /// Wall time of each stage that made the set, in order: the scan (a hunt's
    /// [`run`](crate::hunt::run) only), polish, pools and packing (black and white only),
    /// then verification.
    pub stages: Vec<(&'static str, Duration)>,
    /// Whether the run packed greedily: a shard that writes no set of its own, whose
    /// hunt's set is the merge of every shard's state ([`crate::hunt::run`]).
    pub greedy: bool,
    /// The first save of the run's state or checkpoint that failed, as the save function
    /// worded it: the run stopped there ([`crate::hunt::Hooks::save`]), so its set is
    /// what a stop at that moment gives, and the saves from then on were not made.
    pub save_failed: Option<String>,
}

impl SearchOutcome {
    /// Returns the packer's checkpoint to save with the state: where a stopped packing
    /// stopped, so that a resume goes on from there; empty if it finished, or never made
    /// its first move (a stop during the scan), whose checkpoint is where a fresh packing
    /// starts.
    pub fn pack_to_save(&self) -> &[PackCheckpoint] {
        let (made, total) = PackCheckpoint::moves_of(&self.pack);
        if made > 0 && made < total {
            &self.pack
        } else {
            &[]
        }
    }
}

/// Returns what `f` returns and the wall time it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    (f(), start.elapsed())
}

/// Returns the first valid magic of `job`'s stream with `bits` bits, scanning the whole
/// space (shard 0/1) until found: the fallback for targets that did not reach fewer bits.
fn first_magic(seed: u64, variant: Variant, piece: Piece, sq: u8, bits: u8) -> u64 {
    let data = SquareData::new(piece, sq, variant);
    let mut entries = data.entries();
    let mut table = EpochTable::new(bits);
    let stream = Stream {
        seed,
        variant,
        piece,
        square: sq,
        bits,
    };
    for block in 0.. {
        if let (_, Some(magic)) = table.first_accepted(&mut entries, bits, stream.magics(block)) {
            return magic;
        }
    }
    unreachable!("the candidate space is unbounded")
}

/// Returns per job of `state` (fixed shift) the magics of its pool, in pool order, each
/// climbed by the density climb to a lower pack cost until `polish.polish` moves bring no
/// improvement, then its sparse finds as they are, then (white, with `polish.clump`) each
/// find annealed toward clumped slots (the clump climb) where that blocks fewer slots than
/// the find itself; duplicates dropped. A climb has its own stream per find, so the result
/// does not depend on the threads (`threads` share the jobs). Climbing only the finds a
/// pool keeps costs little next to the scan, where `--patience` climbs every valid
/// candidate (measured in docs/results/hunts.md). Once `progress`'s stop flag is set, a climb
/// keeps what it has reached and the finds not yet climbed go in as scanned; `progress`
/// counts the climbs.
/// Also returns the climbs finished and asked for (fewer finished only if stopped).
fn polish_pools(
    state: &SearchState,
    polish: &PolishSettings,
    threads: usize,
    progress: Option<&Progress>,
) -> (Vec<Vec<u64>>, (u64, u64)) {
    let stop = progress.map(|p| &p.stop);
    let variant = state.scan.variant;
    let clump = if variant == Variant::White {
        polish.clump
    } else {
        0
    };
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let asked: u64 = state
        .jobs
        .iter()
        .map(|job| {
            let polished = if polish.polish == 0 {
                0
            } else {
                job.found.len().min(state.scan.pool)
            };
            let clumped = if clump == 0 { 0 } else { job.found.len() };
            let evolved = usize::from(polish.evolve > 0);
            (polished + clumped + evolved) as u64
        })
        .sum();
    if let Some(progress) = progress {
        progress.begin(Stage::Polish, asked);
    }
    let finished = AtomicU64::new(0);
    // Counts a climb that ran to its end, before `stop`.
    let count = || {
        if !stopped() {
            finished.fetch_add(1, Ordering::Relaxed);
            if let Some(progress) = progress {
                progress.advance(1);
            }
        }
    };
    let climb_job = |job: &Job| -> Vec<u64> {
        if polish.polish == 0 && clump == 0 && polish.evolve == 0 {
            return job.found.iter().map(|f| f.magic).collect();
        }
        let mut out: Vec<u64> = Vec::with_capacity(job.found.len());
        let keep = |out: &mut Vec<u64>, m: u64| {
            if !out.contains(&m) {
                out.push(m);
            }
        };
        let data = SquareData::new(job.piece, job.square, variant);
        let entries = data.entries();
        let mut table = EpochTable::new(job.bits);
        let stream = Stream {
            seed: state.scan.seed,
            variant,
            piece: job.piece,
            square: job.square,
            bits: job.bits,
        };
        for (at, f) in job.found.iter().enumerate() {
            if at >= state.scan.pool || polish.polish == 0 || stopped() {
                // Without a polish every find goes in as scanned, and a sparse find always
                // does: it keeps its long span and its holes. Climbed to a lower pack
                // cost it uses fewer slots but leaves holes no square fills.
                keep(&mut out, f.magic);
                continue;
            }
            // Apart from the scan's streams and from the scan-time climbs (bit 63).
            let mut rng = stream.block_rng(f.index | 1 << 62);
            let (m, _) = density_climb(
                &entries,
                job.bits,
                f.magic,
                &mut rng,
                &mut table,
                (polish.polish, stop),
            );
            count();
            keep(&mut out, m);
        }
        if clump > 0 {
            for f in job.found.iter().take_while(|_| !stopped()) {
                // Apart from the polish's streams (bit 62) and the scan's.
                let mut rng = stream.block_rng(f.index | 1 << 61);
                // The climb returns the find itself unless it met one that blocks fewer.
                let climbed = clump_climb(
                    &entries,
                    job.bits,
                    f.magic,
                    &mut rng,
                    &mut table,
                    (clump, stop),
                );
                count();
                if let Some(m) = climbed.filter(|&m| m != f.magic) {
                    keep(&mut out, m);
                }
            }
        }
        if polish.evolve > 0 && !stopped() {
            // Apart from the scan's blocks and the climbs' streams (bits 61 to 63).
            let mut rng = stream.block_rng(1 << 60);
            let evolved = evolve_pool(
                &entries,
                job.bits,
                &out,
                &mut rng,
                &mut table,
                (polish.evolve, stop),
            );
            count();
            for m in evolved {
                keep(&mut out, m);
            }
        }
        out
    };
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Vec<u64>>> = Mutex::new(vec![Vec::new(); state.jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(state.jobs.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = state.jobs.get(i) else { break };
                let magics = climb_job(job);
                done.lock().unwrap_or_else(|e| e.into_inner())[i] = magics;
            });
        }
    });
    let pools = done.into_inner().unwrap_or_else(|e| e.into_inner());
    (pools, (finished.into_inner(), asked))
}

/// Returns the pools [`polish_pools`] gives when nothing watches or stops it, after
/// checking that it finished every climb it counted as asked, which it returns.
#[cfg(test)]
pub(crate) fn polished(
    state: &SearchState,
    polish: &PolishSettings,
    threads: usize,
) -> (Vec<Vec<u64>>, u64) {
    let (pools, (finished, asked)) = polish_pools(state, polish, threads, None);
    assert_eq!(finished, asked, "climbs finished and asked");
    (pools, asked)
}

/// Returns the verified set of a scan state, as [`crate::hunt::finish`] says, with the
/// packer's hooks (its progress, stop flag, checkpoint saves and threads) in `hooks`.
pub(crate) fn finish(
    state: &SearchState,
    limits: &Limits,
    resume: &[PackCheckpoint],
    hooks: &mut PackHooks,
) -> Result<SearchOutcome, Error> {
    let variant = state.scan.variant;
    let seed = state.scan.seed;
    let mut set = MagicSet::new(variant);
    let mut unmet = Vec::new();
    if variant.is_packed() {
        // A square may have several jobs, one per shift it may take (`--also-fixed-shift`):
        // their finds share the square's pool.
        let mut pools: Vec<Vec<Pattern>> = vec![Vec::new(); 128];
        let ((magics, climbs), polish) =
            timed(|| polish_pools(state, &limits.polish, limits.threads, hooks.progress));
        let pools_start = Instant::now();
        if let Some(progress) = hooks.progress {
            progress.begin(Stage::Pools, state.jobs.len() as u64);
        }
        for (job, magics) in state.jobs.iter().zip(magics) {
            if let Some(progress) = hooks.progress {
                progress.advance(1);
            }
            let data = SquareData::new(job.piece, job.square, variant);
            let pool = &mut pools[job.piece.index() * 64 + job.square as usize];
            let before = pool.len();
            pool.extend(
                magics
                    .into_iter()
                    .map(|magic| pattern(&data, magic, job.bits)),
            );
            if pool.len() == before {
                // Not reached within the budget: the first magic of the whole space, what
                // an unbounded scan of shard 0/1 would have kept first.
                let magic = first_magic(seed, variant, job.piece, job.square, job.bits);
                pool.push(pattern(&data, magic, job.bits));
            }
        }
        if let Some(i) = pools.iter().position(|p| p.is_empty()) {
            return Err(Error::Search(format!(
                "the state has no job for {} {}",
                Piece::ALL[i / 64],
                square_name((i % 64) as u8)
            )));
        }
        let stages = vec![("polish", polish), ("pools", pools_start.elapsed())];
        let mut outcome = pack_pools((variant, &pools, &[]), &limits.pack, resume, hooks, stages)?;
        outcome.polish = climbs;
        return Ok(outcome);
    } else {
        for job in &state.jobs {
            let default = variant.default_bits(job.piece, job.square);
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
                    let magic = first_magic(seed, variant, job.piece, job.square, default);
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
    outcome(set, unmet, Vec::new(), Vec::new(), hooks.progress)
}

/// Returns the outcome of a set the search made, verified (the stage `stages` is told of):
/// a failure is an internal error, since every square's magic was checked before.
fn outcome(
    set: MagicSet,
    unmet: Vec<(Piece, u8)>,
    pack: Vec<PackCheckpoint>,
    mut stages: Vec<(&'static str, Duration)>,
    progress: Option<&Progress>,
) -> Result<SearchOutcome, Error> {
    if let Some(progress) = progress {
        progress.begin(Stage::Verification, 0);
    }
    let (verified, verification) = timed(|| verify(&set));
    stages.push(("verification", verification));
    let verified = verified.map_err(|failures| {
        let list: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
        Error::Search(format!(
            "internal: the search produced a set that fails verification:\n{}",
            list.join("\n")
        ))
    })?;
    Ok(SearchOutcome {
        set,
        report: verified.report,
        unmet,
        pack,
        polish: (0, 0),
        stages,
        greedy: false,
        save_failed: None,
    })
}

/// Returns `set` packed again with the magics of `also` beside its own, as
/// [`crate::hunt::Repack`]'s packing stage says, with the packer's hooks in `hooks`.
pub(crate) fn repack(
    set: &MagicSet,
    also: &[MagicSet],
    settings: &PackSettings,
    resume: &[PackCheckpoint],
    hooks: &mut PackHooks,
) -> Result<SearchOutcome, Error> {
    let variant = set.variant;
    if !variant.is_packed() {
        return Err(Error::Search(format!(
            "only black and white sets are packed; a {variant} set lays its ranges out by its bits"
        )));
    }
    if let Some((at, other)) = also.iter().enumerate().find(|(_, o)| o.variant != variant) {
        return Err(Error::OtherVariant {
            also: at,
            variant: other.variant,
            packed: variant,
        });
    }
    let (mut pools, mut starts) = (Vec::with_capacity(128), Vec::with_capacity(128));
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entries[piece.index()][sq as usize];
            let data = SquareData::new(piece, sq, variant);
            let p = pattern(&data, e.magic, e.bits);
            // Where the set has its first used index: never below 0 in a verified set.
            starts.push(usize::try_from(e.offset + p.first as i64).ok());
            let mut pool = vec![p];
            for other in also {
                let o = other.entries[piece.index()][sq as usize];
                if !pool.iter().any(|q| (q.magic, q.bits) == (o.magic, o.bits)) {
                    pool.push(pattern(&data, o.magic, o.bits));
                }
            }
            pools.push(pool);
        }
    }
    let input = (variant, pools.as_slice(), starts.as_slice());
    pack_pools(input, settings, resume, hooks, Vec::new())
}

/// Returns the outcome of packing `pools` of `variant` as `settings` say (from the layout
/// of `starts`, each square's first used slot, if it asks and they are given), going on
/// from `resume` unless it is empty, with the packing's and the verification's times after
/// `stages`.
fn pack_pools(
    (variant, pools, starts): (Variant, &[Vec<Pattern>], &[Option<usize>]),
    settings: &PackSettings,
    resume: &[PackCheckpoint],
    hooks: &mut PackHooks,
    mut stages: Vec<(&'static str, Duration)>,
) -> Result<SearchOutcome, Error> {
    if let Some(progress) = hooks.progress {
        // Its moves are counted in the progress's own counters.
        progress.begin(Stage::Packing, 0);
    }
    let (packed, packing) = timed(|| pack(variant, (pools, starts), settings, resume, hooks));
    let (set, end) = packed.map_err(Error::checkpoint)?;
    stages.push(("packing", packing));
    outcome(set, Vec::new(), end, stages, hooks.progress)
}

/// Returns the packer's pattern of `magic` with `bits` index bits on the square of `data`.
pub(crate) fn pattern(data: &SquareData, magic: u64, bits: u8) -> Pattern {
    let used = used_slots(data, magic, bits);
    Pattern::new(magic, bits, used.into_iter().map(|s| s.0))
}

/// Gives fancy and plain sets their offsets: ranges of `2^bits` back to back, rook first.
pub(crate) fn lay_out_back_to_back(set: &mut MagicSet) {
    let mut offset = 0i64;
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entry_mut(piece, sq);
            e.offset = offset;
            offset += 1 << e.bits;
        }
    }
}
