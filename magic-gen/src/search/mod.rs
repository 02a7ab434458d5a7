//! The magic search: seeded, parallel, deterministic.
//!
//! Each (piece, square) is an independent job whose random stream is seeded from the run's
//! seed, the variant, the piece, the square and the requested bits, so the result does not
//! depend on how many threads run or in which order jobs finish. Only a time budget (for
//! fewer bits than the mask popcount) can make two runs differ.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::{relevant_mask, slow_attacks, square_name, subsets, Piece};
use crate::index::{magic_hash, Variant};
use crate::set::{Entry, MagicSet};
use crate::verify::{verify, Report};

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
    /// Set to stop: unfinished reduced-bit jobs fall back to default bits.
    pub stop: AtomicBool,
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

    /// Returns `Ok` if `magic` maps every `(key, attack id)` without a destructive
    /// collision, else the position of the occupancy that collided.
    pub fn try_magic(&mut self, entries: &[(u64, u8)], magic: u64, bits: u8) -> Result<(), usize> {
        self.epoch += 1;
        if self.epoch == 1 << 24 {
            self.slots.fill(0);
            self.epoch = 1;
        }
        let stamp = self.epoch << 8;
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
}

/// Returns a sparse random candidate: the AND of three random words.
pub fn sparse_candidate(rng: &mut Xoshiro256PlusPlus) -> u64 {
    rng.next_u64() & rng.next_u64() & rng.next_u64()
}

/// Returns the random stream of one job: a SplitMix64-style mix of its identity.
pub fn job_rng(seed: u64, variant: Variant, piece: Piece, sq: u8, bits: u8) -> Xoshiro256PlusPlus {
    let mut x = seed;
    for part in [variant as u64, piece as u64, sq as u64, bits as u64] {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15).wrapping_add(part);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
    }
    Xoshiro256PlusPlus::seed_from_u64(x)
}

/// Searches one magic for `data` with `bits` index bits. Returns `None` if `deadline`
/// passes or `stop` is set first (checked every few thousand candidates).
pub fn find_magic(
    data: &SquareData,
    bits: u8,
    rng: &mut Xoshiro256PlusPlus,
    deadline: Option<Instant>,
    progress: &Progress,
) -> Option<u64> {
    let mut table = EpochTable::new(bits);
    let mut entries: Vec<(u64, u8)> = data
        .keys
        .iter()
        .copied()
        .zip(data.attack_ids.iter().copied())
        .collect();
    let mut tried = 0u64;
    loop {
        for _ in 0..4096 {
            let magic = sparse_candidate(rng);
            // No top-byte filter (Stockfish's "popcount((mask * magic) >> 56) >= 6"): with
            // three-way AND candidates it rejects nine in ten and, averaged over 20 seeds,
            // made the full fancy search 1.7x slower than trying every candidate.
            tried += 1;
            match table.try_magic(&entries, magic, bits) {
                Ok(()) => {
                    progress.candidates.fetch_add(tried, Ordering::Relaxed);
                    return Some(magic);
                }
                // Move the occupancy that failed halfway to the front: occupancies that
                // collide often end up checked first, so bad candidates fail sooner. The
                // order never changes which candidate passes, only how fast others fail.
                Err(k) => entries.swap(k, k.saturating_sub(1)),
            }
        }
        progress.candidates.fetch_add(tried, Ordering::Relaxed);
        tried = 0;
        let late = deadline.is_some_and(|d| Instant::now() >= d);
        if late || progress.stop.load(Ordering::Relaxed) {
            return None;
        }
    }
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

/// Candidate magics tried per square by the fixed-shift search, keeping the one with the
/// fewest used slots (most constructive collisions), then the shortest used range, so
/// packing has less to place.
const FIXED_SHIFT_CANDIDATES: usize = 64;

/// One job's result.
struct Found {
    magic: u64,
    bits: u8,
    met: bool,
}

/// Runs the search described by `config`, reporting through `progress`.
pub fn search(config: &SearchConfig, progress: &Progress) -> Result<SearchOutcome, SearchError> {
    let variant = config.variant;
    if variant == Variant::Pext {
        return Err(SearchError(
            "PEXT needs no search: its index is the mask itself".into(),
        ));
    }
    if config.bits.is_some() && variant != Variant::Fancy {
        return Err(SearchError(format!(
            "{variant} magics have fixed bits (12 rook, 9 bishop); --bits is for fancy"
        )));
    }
    let threads = config.threads.max(1);
    let jobs: Vec<(Piece, u8)> = Piece::ALL
        .iter()
        .flat_map(|&p| (0..64u8).map(move |s| (p, s)))
        .collect();
    let is_target = |p: Piece, s: u8| config.targets.is_empty() || config.targets.contains(&(p, s));
    for &(p, s) in &config.targets {
        if let Some(b) = config.bits {
            let popcount = relevant_mask(p, s).count_ones() as u8;
            if b == 0 || b > popcount {
                return Err(SearchError(format!(
                    "--bits {b} out of range for {p} {}: 1..={popcount} (its mask popcount)",
                    square_name(s)
                )));
            }
        }
    }
    progress.total.store(jobs.len(), Ordering::Relaxed);
    let deadline = config
        .seconds
        .map(|s| Instant::now() + std::time::Duration::from_secs_f64(s.max(0.0)));
    let black = variant.is_black();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Found>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());

    let work = || loop {
        let j = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(piece, sq)) = jobs.get(j) else {
            break;
        };
        let data = SquareData::new(piece, sq, black);
        let popcount = data.mask.count_ones() as u8;
        let default_bits = if variant.has_fixed_shift() {
            piece.fixed_bits()
        } else {
            popcount
        };
        let wanted = if is_target(piece, sq) {
            config.bits.unwrap_or(default_bits)
        } else {
            default_bits
        };
        let found = if variant == Variant::Black || variant == Variant::White {
            find_fixed_shift(&data, wanted, black, config.seed, variant, progress)
        } else {
            let reduced = wanted < default_bits;
            let mut rng = job_rng(config.seed, variant, piece, sq, wanted);
            let limit = if reduced { deadline } else { None };
            match find_magic(&data, wanted, &mut rng, limit, progress) {
                Some(magic) => Found {
                    magic,
                    bits: wanted,
                    met: true,
                },
                None => {
                    // Fall back to default bits: always found, never interrupted.
                    let mut rng = job_rng(config.seed, variant, piece, sq, default_bits);
                    let idle = Progress::default();
                    let magic = find_magic(&data, default_bits, &mut rng, None, &idle)
                        .expect("a search without deadline or stop runs until it finds a magic");
                    Found {
                        magic,
                        bits: default_bits,
                        met: false,
                    }
                }
            }
        };
        results.lock().unwrap_or_else(|e| e.into_inner())[j] = Some(found);
        progress.done.fetch_add(1, Ordering::Relaxed);
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });

    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut set = MagicSet::new(variant);
    let mut unmet = Vec::new();
    for (&(piece, sq), found) in jobs.iter().zip(results) {
        let found = found.ok_or_else(|| {
            SearchError(format!(
                "internal: no result for {piece} {}",
                square_name(sq)
            ))
        })?;
        if !found.met {
            unmet.push((piece, sq));
        }
        *set.entry_mut(piece, sq) = Entry {
            magic: found.magic,
            bits: found.bits,
            offset: 0,
        };
    }
    match variant {
        Variant::Black | Variant::White => pack_first_fit(&mut set),
        _ => lay_out_back_to_back(&mut set),
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

/// Finds `FIXED_SHIFT_CANDIDATES` magics for a fixed-shift square and keeps the one with
/// the shortest used index range.
fn find_fixed_shift(
    data: &SquareData,
    bits: u8,
    black: bool,
    seed: u64,
    variant: Variant,
    progress: &Progress,
) -> Found {
    let mut rng = job_rng(seed, variant, data.piece, data.square, bits);
    let idle = Progress::default();
    let mut best: Option<((usize, u32), u64)> = None;
    for _ in 0..FIXED_SHIFT_CANDIDATES {
        let magic = find_magic(data, bits, &mut rng, None, &idle)
            .expect("a search without deadline or stop runs until it finds a magic");
        let used = used_slots(data, magic, bits, black);
        let span = used.last().map_or(0, |l| l.0) - used.first().map_or(0, |f| f.0);
        let score = (used.len(), span);
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, magic));
        }
    }
    progress
        .candidates
        .fetch_add(idle.candidates.load(Ordering::Relaxed), Ordering::Relaxed);
    let (_, magic) = best.expect("at least one candidate");
    Found {
        magic,
        bits,
        met: true,
    }
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

/// Packs fixed-shift ranges into one shared table, first fit: squares with the most used
/// slots first, each at the lowest offset where its used slots land on free slots or on
/// slots already holding the same attacks (a constructive overlap).
pub fn pack_first_fit(set: &mut MagicSet) {
    let black = set.variant.is_black();
    type Placement = (Piece, u8, Vec<(u32, u64)>);
    let mut squares: Vec<Placement> = Piece::ALL
        .iter()
        .flat_map(|&p| (0..64u8).map(move |s| (p, s)))
        .map(|(p, s)| {
            let data = SquareData::new(p, s, black);
            let e = set.entry(p, s);
            (p, s, used_slots(&data, e.magic, e.bits, black))
        })
        .collect();
    squares.sort_by_key(|(p, s, used)| (core::cmp::Reverse(used.len()), *p, *s));
    let mut table: Vec<Option<u64>> = Vec::new();
    for (piece, sq, used) in squares {
        let mut offset = 0usize;
        loop {
            let fits = used
                .iter()
                .all(|&(i, a)| match table.get(offset + i as usize) {
                    Some(Some(existing)) => *existing == a,
                    _ => true,
                });
            if fits {
                break;
            }
            offset += 1;
        }
        for &(i, a) in &used {
            let slot = offset + i as usize;
            if slot >= table.len() {
                table.resize(slot + 1, None);
            }
            table[slot] = Some(a);
        }
        set.entry_mut(piece, sq).offset = offset as u32;
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
        for variant in [Variant::Fancy, Variant::Black] {
            let one = search(&config(variant, 1), &Progress::default()).unwrap();
            let two = search(&config(variant, 2), &Progress::default()).unwrap();
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

#[cfg(test)]
mod probe {
    use super::*;

    #[test]
    #[ignore = "probe"]
    fn fixed_shift_sizes() {
        for v in [Variant::White, Variant::Black] {
            let t = Instant::now();
            let c = SearchConfig {
                variant: v,
                targets: vec![],
                bits: None,
                seconds: None,
                threads: 2,
                seed: 1,
            };
            let out = search(&c, &Progress::default()).unwrap();
            println!(
                "{v}: {:?} len {} used {}",
                t.elapsed(),
                out.report.table_len,
                out.report.slots_used
            );
        }
    }
}
