//! The pools a packing packs, and what a hunt makes without one: the pools of a state's
//! finds or of a set's magics beside other sets', a fancy or plain state's best finds laid
//! out back to back, and the verification of what was made.

use crate::geometry::{Piece, SetSquare};
use crate::index::Variant;
use crate::occupancy::{used_slots, SquareData};
use crate::pack::Pattern;
use crate::search::candidates::Stream;
use crate::search::state::SearchState;
use crate::search::table::EpochTable;
use crate::search::Error;
use crate::set::{Entry, MagicSet};
use crate::stages::{Progress, Stage};
use crate::verify::{verify, Report};

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
/// fancy) with the magics of `also` beside its own (each once; of the same index, read
/// through the rays or not), as the packer's patterns,
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
    // An overlay set's magics index as its exact variant's: either may join the other.
    let index = variant.indexed_as();
    if let Some((at, other)) = also
        .iter()
        .enumerate()
        .find(|(_, o)| o.variant.indexed_as() != index)
    {
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
