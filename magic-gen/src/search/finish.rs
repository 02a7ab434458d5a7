//! Set assembly: a scan state becomes a verified set, each job's best find laid out back
//! to back (fancy, plain) or the fixed-shift pools packed into one table.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::geometry::{Piece, SetSquare};
use crate::index::Variant;
use crate::set::{Entry, MagicSet};
use crate::verify::{verify, Report};

use crate::pack::{pack, PackCheckpoint, PackHooks, PackInput, PackSettings, Pattern};
use crate::stages::{Progress, Stage};

use super::candidates::Stream;
use super::climb::{clump_climb, density_climb, Effort};
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
    let run = Polish {
        state,
        polish,
        clump: match state.scan.variant {
            Variant::White => polish.clump,
            _ => 0,
        },
        stop: progress.map(|p| &p.stop),
        progress,
        finished: AtomicU64::new(0),
    };
    let asked = run.climbs_asked();
    if let Some(progress) = progress {
        progress.begin(Stage::Polish, asked);
    }
    let pools = each_on_threads(state.jobs.len(), threads, |i| run.pool(&state.jobs[i]));
    (pools, (run.finished.into_inner(), asked))
}

/// Returns `f` of each of `0..count`, in order, computed on up to `threads` threads that
/// take the next index as they come free.
fn each_on_threads<T: Clone + Default + Send>(
    count: usize,
    threads: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<T>> = Mutex::new(vec![T::default(); count]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(count.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let value = f(i);
                done.lock().unwrap_or_else(|e| e.into_inner())[i] = value;
            });
        }
    });
    done.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The polish of a state's pools ([`polish_pools`]): its settings (the clump's moves, 0
/// but for white), the stop flag and progress it watches, and the climbs finished.
struct Polish<'a> {
    state: &'a SearchState,
    polish: &'a PolishSettings,
    clump: u32,
    stop: Option<&'a AtomicBool>,
    progress: Option<&'a Progress>,
    finished: AtomicU64,
}

/// What the climbs of one job share: its square's occupancies, a slot table of its bits
/// and its candidate stream, whose blocks seed each climb's random numbers.
struct JobClimbs {
    entries: Vec<(u64, u8)>,
    table: EpochTable,
    stream: Stream,
    bits: u8,
}

/// Adds `magic` to `pool` unless it is there already.
fn keep(pool: &mut Vec<u64>, magic: u64) {
    if !pool.contains(&magic) {
        pool.push(magic);
    }
}

impl Polish<'_> {
    /// Returns true once the stop flag is set.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Counts a climb that ran to its end, before the stop.
    fn count(&self) {
        if !self.stopped() {
            self.finished.fetch_add(1, Ordering::Relaxed);
            if let Some(progress) = self.progress {
                progress.advance(1);
            }
        }
    }

    /// Returns the climbs the polish asks for: per job, a density climb of each find its
    /// pool keeps, a clump climb of each find, and one evolution.
    fn climbs_asked(&self) -> u64 {
        let jobs = self.state.jobs.iter();
        jobs.map(|job| {
            let polished = if self.polish.polish == 0 {
                0
            } else {
                job.found.len().min(self.state.scan.pool)
            };
            let clumped = if self.clump == 0 { 0 } else { job.found.len() };
            let evolved = usize::from(self.polish.evolve > 0);
            (polished + clumped + evolved) as u64
        })
        .sum()
    }

    /// Returns the pool of `job`: its finds climbed, clumped and evolved as the polish
    /// asks.
    fn pool(&self, job: &Job) -> Vec<u64> {
        let polish = self.polish;
        if polish.polish == 0 && self.clump == 0 && polish.evolve == 0 {
            return job.found.iter().map(|f| f.magic).collect();
        }
        let data = SquareData::new(job.piece, job.square, self.state.scan.variant);
        let mut climbs = JobClimbs {
            entries: data.entries(),
            table: EpochTable::new(job.bits),
            stream: Stream {
                seed: self.state.scan.seed,
                variant: self.state.scan.variant,
                piece: job.piece,
                square: job.square,
                bits: job.bits,
            },
            bits: job.bits,
        };
        let mut out: Vec<u64> = Vec::with_capacity(job.found.len());
        self.density_climbs(job, &mut climbs, &mut out);
        if self.clump > 0 {
            self.clump_climbs(job, &mut climbs, &mut out);
        }
        if polish.evolve > 0 && !self.stopped() {
            self.evolve(&mut climbs, &mut out);
        }
        out
    }

    /// Adds each find of `job` to `out`, climbed to a lower pack cost if its pool keeps it
    /// and the polish climbs.
    fn density_climbs(&self, job: &Job, climbs: &mut JobClimbs, out: &mut Vec<u64>) {
        for (at, f) in job.found.iter().enumerate() {
            if at >= self.state.scan.pool || self.polish.polish == 0 || self.stopped() {
                // Without a polish every find goes in as scanned, and a sparse find always
                // does: it keeps its long span and its holes. Climbed to a lower pack
                // cost it uses fewer slots but leaves holes no square fills.
                keep(out, f.magic);
                continue;
            }
            // Apart from the scan's streams and from the scan-time climbs (bit 63).
            let mut rng = climbs.stream.block_rng(f.index | 1 << 62);
            let (m, _) = density_climb(
                &climbs.entries,
                climbs.bits,
                f.magic,
                &mut rng,
                &mut climbs.table,
                Effort {
                    steps: self.polish.polish,
                    stop: self.stop,
                },
            );
            self.count();
            keep(out, m);
        }
    }

    /// Adds to `out` each find of `job` annealed toward clumped slots, where the clump
    /// climb meets one that blocks fewer slots than the find.
    fn clump_climbs(&self, job: &Job, climbs: &mut JobClimbs, out: &mut Vec<u64>) {
        for f in job.found.iter().take_while(|_| !self.stopped()) {
            // Apart from the polish's streams (bit 62) and the scan's.
            let mut rng = climbs.stream.block_rng(f.index | 1 << 61);
            // The climb returns the find itself unless it met one that blocks fewer.
            let climbed = clump_climb(
                &climbs.entries,
                climbs.bits,
                f.magic,
                &mut rng,
                &mut climbs.table,
                Effort {
                    steps: self.clump,
                    stop: self.stop,
                },
            );
            self.count();
            if let Some(m) = climbed.filter(|&m| m != f.magic) {
                keep(out, m);
            }
        }
    }

    /// Adds to `out` the magics its evolution toward fewer used slots finds.
    fn evolve(&self, climbs: &mut JobClimbs, out: &mut Vec<u64>) {
        // Apart from the scan's blocks and the climbs' streams (bits 61 to 63).
        let mut rng = climbs.stream.block_rng(1 << 60);
        let evolved = evolve_pool(
            &climbs.entries,
            climbs.bits,
            out,
            &mut rng,
            &mut climbs.table,
            Effort {
                steps: self.polish.evolve,
                stop: self.stop,
            },
        );
        self.count();
        for m in evolved {
            keep(out, m);
        }
    }
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
            let at = SetSquare {
                piece: job.piece,
                square: job.square,
            };
            let pool = &mut pools[at.index()];
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
                "the state has no job for {}",
                SetSquare::from_index(i)
            )));
        }
        let stages = vec![("polish", polish), ("pools", pools_start.elapsed())];
        let input = PackInput {
            variant,
            pools: &pools,
            starts: &[],
        };
        let mut outcome = pack_pools(input, &limits.pack, resume, hooks, stages)?;
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
    let input = PackInput {
        variant,
        pools: &pools,
        starts: &starts,
    };
    pack_pools(input, settings, resume, hooks, Vec::new())
}

/// Returns the outcome of packing `input`'s pools as `settings` say (from the layout of its
/// `starts` if it asks and they are given), going on from `resume` unless it is empty, with
/// the packing's and the verification's times after `stages`.
fn pack_pools(
    input: PackInput,
    settings: &PackSettings,
    resume: &[PackCheckpoint],
    hooks: &mut PackHooks,
    mut stages: Vec<(&'static str, Duration)>,
) -> Result<SearchOutcome, Error> {
    if let Some(progress) = hooks.progress {
        // Its moves are counted in the progress's own counters.
        progress.begin(Stage::Packing, 0);
    }
    let (packed, packing) = timed(|| pack(input, settings, resume, hooks));
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
