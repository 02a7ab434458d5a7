//! The stages between a scan and a verified set, as the hunt's driver runs them: the polish
//! of a state's finds, the pools (of a state's finds, or of a set's magics beside other
//! sets'), a fancy or plain state's best finds laid out back to back, and the verification
//! of what was made.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::geometry::{Piece, SetSquare};
use crate::index::Variant;
use crate::set::{Entry, MagicSet};
use crate::verify::{verify, Report};

use crate::pack::Pattern;
use crate::stages::{Progress, Stage};

use super::candidates::Stream;
use super::climb::{clump_climb, density_climb, Effort};
use super::evolve::evolve_pool;
use super::options::{Error, PolishSettings};
use super::slots::used_slots;
use super::state::{Job, SearchState};
use super::table::{EpochTable, SquareData};

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
pub(crate) fn polish_pools(
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

/// Each square's pool as the packer takes it, rook a1 first, and where a set's layout
/// starts each one (empty for a scan's pools, which have no layout).
pub(crate) struct Pools {
    /// The pools' members, as the packer's patterns.
    pub(crate) patterns: Vec<Vec<Pattern>>,
    /// Where the input set has each square's first used index.
    pub(crate) starts: Vec<Option<usize>>,
}

/// Returns each square's pool of the fixed-shift scan `state`: the magics `climbed` for each
/// of its jobs by the polish ([`polish_pools`], in job order), as the packer's patterns (a
/// square with several jobs, one per shift it may take, `--also-fixed-shift`, pools their
/// finds). A square none of whose jobs found a magic within the budget gets the first magic
/// of its whole stream, what an unbounded scan of shard 0/1 would have kept first. Counts
/// the jobs in `progress` ([`Stage::Pools`]).
pub(crate) fn pools_of_finds(
    state: &SearchState,
    climbed: Vec<Vec<u64>>,
    progress: &Progress,
) -> Result<Pools, Error> {
    let (variant, seed) = (state.scan.variant, state.scan.seed);
    let mut pools: Vec<Vec<Pattern>> = vec![Vec::new(); 128];
    progress.begin(Stage::Pools, state.jobs.len() as u64);
    for (job, magics) in state.jobs.iter().zip(climbed) {
        progress.advance(1);
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
    Ok(Pools {
        patterns: pools,
        starts: Vec::new(),
    })
}

/// Returns the set of the fancy or plain scan `state`: each job's best find, its ranges
/// laid out back to back, with the targets that fell back to default bits. A job without a
/// find (not reached within the budget, or stopped) takes the first default-bits magic of
/// its whole stream, which is also what an unbounded default-bits job finds, so only a job
/// that asked for fewer bits is unmet.
pub(crate) fn set_of_finds(state: &SearchState) -> (MagicSet, Vec<SetSquare>) {
    let (variant, seed) = (state.scan.variant, state.scan.seed);
    let mut set = MagicSet::new(variant);
    let mut unmet = Vec::new();
    for job in &state.jobs {
        let default = variant.default_bits(job.piece, job.square);
        let entry = set.entry_mut(job.piece, job.square);
        *entry = match job.found.first() {
            Some(f) => Entry {
                magic: f.magic,
                bits: job.bits,
                offset: 0,
            },
            None => {
                if job.bits != default {
                    unmet.push(SetSquare {
                        piece: job.piece,
                        square: job.square,
                    });
                }
                Entry {
                    magic: first_magic(seed, variant, job.piece, job.square, default),
                    bits: default,
                    offset: 0,
                }
            }
        };
    }
    lay_out_back_to_back(&mut set);
    (set, unmet)
}

/// Returns each square's pool of the black or white `set` (or, for an `overlay` packing,
/// fancy) with the magics of `also` beside its own (each once), as the packer's patterns,
/// with where the set has each square's first used index (never below 0 in a verified
/// set): the layout a packing from the input starts from.
pub(crate) fn pools_of_set(
    set: &MagicSet,
    also: &[MagicSet],
    overlay: bool,
) -> Result<Pools, Error> {
    let variant = set.variant;
    // Fancy magics are packed too, by the overlay rule alone.
    let overlaid = overlay && variant.overlaid().is_some();
    if !(variant.is_packed() || overlaid) {
        return Err(Error::Search(format!(
            "only black and white sets are packed; a {variant} set lays its ranges out by its \
             bits (or overlays them: --overlay)"
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
    for at in SetSquare::all() {
        let (piece, sq) = (at.piece, at.square);
        let e = set.entries[piece.index()][sq as usize];
        let data = SquareData::new(piece, sq, variant);
        let p = pattern(&data, e.magic, e.bits);
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
    Ok(Pools {
        patterns: pools,
        starts,
    })
}

/// Returns the report of `set`, which the search made: a failure is an internal error,
/// since every square's magic was checked before.
pub(crate) fn verified(set: &MagicSet) -> Result<Report, Error> {
    let verified = verify(set).map_err(|failures| {
        let list: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
        Error::Search(format!(
            "internal: the search produced a set that fails verification:\n{}",
            list.join("\n")
        ))
    })?;
    Ok(verified.report)
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
