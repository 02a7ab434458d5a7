//! What a search asks for: the one options type, with the settings a state file saves
//! ([`Scan`]) and the limits of one run ([`Limits`]) kept apart inside it, so a resumed run
//! takes its scan from the file and its limits from the new command.

use std::time::{Duration, Instant};

use crate::geometry::{relevant_bits, square_name, Piece};
use crate::index::Variant;

use super::climb::DENSITY_PATIENCE;
use super::space::Shard;
use super::state::{is_packed, Budget, Job, Scan, SearchState};

/// The seed a search uses unless told otherwise.
pub const DEFAULT_SEED: u64 = 1;

/// Valid magics each fixed-shift job keeps for the packer, by default.
pub const DEFAULT_POOL: usize = 16;

/// What one run is given beyond the saved scan: how far it may go (threads, seconds) and
/// how it packs a fixed-shift table. Never saved in a state file, so a resumed or merged
/// run may pack differently. Threads never change the result; a time budget that cuts a
/// scan short does, and so do the packing settings (deterministically).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Worker threads (at least 1; 0 counts as 1). Never changes the result.
    pub threads: usize,
    /// Seconds the scan may run; `None` runs until every job is done or stopped.
    pub seconds: Option<f64>,
    /// Moves of layout annealing after the greedy packing of a fixed-shift table (0: the
    /// greedy packing alone).
    pub pack_iterations: u64,
    /// Let packed ranges start before the table wherever every index stays at 0 or above
    /// (magic-gen's sets allow it; the runtime's `black` backend does not).
    pub negative_offsets: bool,
    /// Weight of the mean end of the ranges beside the table length when the packing's
    /// annealing judges a move (0: length alone). 0.03 packed white tables 0.5-1.8% shorter.
    pub pack_spread: f64,
    /// After annealing, give each square the pool member of the shortest span that keeps
    /// the table no longer: fewer holes in a range put its lookups on fewer cache lines.
    pub short_spans: bool,
    /// Seeds the packing's annealing; `None`: the scan's seed.
    pub pack_seed: Option<u64>,
    /// Before packing, climb every pool member of a fixed-shift job to a lower pack cost
    /// (twice the used slots plus the span) until this many moves bring no improvement
    /// (0: pack the pools as scanned).
    pub polish: u32,
    /// White: anneal every find of a job this many moves toward used slots gathered in few
    /// blocks, and add the result to the pool where it blocks fewer slots than the find
    /// (0: none). The scan's white finds spread their slots over the whole range.
    pub clump: u32,
}

/// Everything one search asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// What the scan keeps (saved in state files).
    pub scan: Scan,
    /// Squares that get the requested `bits` or `bits_under` (fancy only); every other
    /// square gets its variant's default bits. Empty means all 128.
    pub targets: Vec<(Piece, u8)>,
    /// Index bits for the targets (fancy only); `None` is the mask popcount.
    pub bits: Option<u8>,
    /// Ask the targets for this many bits fewer than their mask popcount (fancy), instead
    /// of an absolute `bits`.
    pub bits_under: Option<u8>,
    /// Black and white: scan each target whose requested bits differ from the fixed 12/9
    /// at the fixed bits too, so the packer chooses per square between both pools.
    pub also_fixed_shift: bool,
    /// The command line, recorded in state files.
    pub command: String,
    /// How far this run may go.
    pub limits: Limits,
}

impl Options {
    /// Returns the defaults for `variant`: every square at its default bits, seed
    /// [`DEFAULT_SEED`], the whole space until found, one thread, no time limit.
    pub fn new(variant: Variant) -> Options {
        Options {
            scan: Scan {
                variant,
                seed: DEFAULT_SEED,
                shard: Shard::WHOLE,
                budget: Budget::UntilFound,
                pool: DEFAULT_POOL,
                sparse: 0,
                patience: DENSITY_PATIENCE,
            },
            targets: Vec::new(),
            bits: None,
            bits_under: None,
            also_fixed_shift: false,
            command: String::new(),
            limits: Limits::default(),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            threads: 1,
            seconds: None,
            pack_iterations: 0,
            pack_seed: None,
            polish: 0,
            clump: 0,
            negative_offsets: false,
            pack_spread: 0.0,
            short_spans: false,
        }
    }
}

impl Limits {
    /// Returns the end of the scan if it starts now.
    pub fn deadline(&self) -> Option<Instant> {
        self.seconds.map(after)
    }
}

/// Returns the instant `seconds` from now (negative counts as zero).
fn after(seconds: f64) -> Instant {
    Instant::now() + Duration::from_secs_f64(seconds.max(0.0))
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

/// Returns the index bits a job asks for.
fn wanted_bits(options: &Options, piece: Piece, sq: u8) -> Result<u8, SearchError> {
    let popcount = relevant_bits(piece, sq);
    let default = options.scan.variant.default_bits(piece, sq);
    let is_target = options.targets.is_empty() || options.targets.contains(&(piece, sq));
    if !is_target {
        return Ok(default);
    }
    let bits = match (options.bits, options.bits_under) {
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

/// Returns a fresh state for `options`: one job per piece and square.
pub fn new_state(options: &Options) -> Result<SearchState, SearchError> {
    let variant = options.scan.variant;
    if variant == Variant::Pext {
        return Err(SearchError(
            "PEXT needs no search: its index is the mask itself".into(),
        ));
    }
    if (options.bits.is_some() || options.bits_under.is_some()) && variant == Variant::Plain {
        return Err(SearchError(format!(
            "{variant} magics have fixed bits (12 rook, 9 bishop); --bits is for fancy, black \
             and white"
        )));
    }
    if options.also_fixed_shift && !is_packed(variant) {
        return Err(SearchError(format!(
            "{variant} sets have one shift per square; --also-fixed-shift is for black and white"
        )));
    }
    let mut jobs = Vec::with_capacity(128);
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let default = variant.default_bits(piece, sq);
            let bits = wanted_bits(options, piece, sq)?;
            let also = Some(default).filter(|&d| options.also_fixed_shift && d != bits);
            for bits in core::iter::once(bits).chain(also) {
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
    }
    Ok(SearchState {
        scan: options.scan,
        command: options.command.clone(),
        jobs,
    })
}
