//! The polish: a scan's pools shaped before packing. Each pool member climbs to a lower
//! pack cost (the scan's density climb), white finds anneal toward clumped slots, and with
//! `--evolve` a population per square evolves toward fewer used slots for its span
//! (`evolve.rs`).

mod evolve;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::index::Variant;
use crate::occupancy::SquareData;
use crate::search::candidates::Stream;
use crate::search::climb::{clump_climb, density_climb, Effort};
use crate::search::state::{Job, SearchState};
use crate::search::table::EpochTable;
use crate::search::PolishSettings;
use crate::stages::{Progress, Stage};
use crate::threads::each_on_threads;

use evolve::evolve_pool;

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
