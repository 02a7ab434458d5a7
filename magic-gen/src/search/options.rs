//! What a search asks for: the one options type, with the settings a state file saves
//! ([`Scan`]) and the limits of one run ([`Limits`]) kept apart inside it, so a resumed run
//! takes its scan from the file and its limits from the new command.

use std::time::{Duration, Instant};

use crate::geometry::{relevant_bits, square_name, Piece};
use crate::index::Variant;

use crate::pack::{PackMismatch, PackSettings};

use super::candidates::Shard;
use super::state::{Budget, Finish, Job, PolishSettings, Scan, SearchState};

/// What one run is given beyond the saved scan: how far it may go (threads, seconds), how
/// it shapes the pools and how it packs a fixed-shift table. Never saved in a state file,
/// so a resumed or merged run may polish and pack differently. Threads never change the
/// result; a time budget that cuts a scan short does, and so do the pool and packing
/// settings (deterministically).
///
/// ```
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::{Limits, PolishSettings};
///
/// // Two threads, at most a minute of scanning, pools polished, 10,000 packing moves.
/// let limits = Limits {
///     threads: 2,
///     seconds: Some(60.0),
///     polish: PolishSettings { polish: 1000, clump: 0 },
///     pack: PackSettings { iterations: 10_000, ..PackSettings::default() },
/// };
/// assert_eq!(limits.pack.seed, 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Worker threads (at least 1; 0 counts as 1). Never changes the result.
    pub threads: usize,
    /// Seconds the scan may run; `None` runs until every job is done or stopped.
    pub seconds: Option<f64>,
    /// How the pools are climbed before packing.
    pub polish: PolishSettings,
    /// How a fixed-shift table is packed.
    pub pack: PackSettings,
}

/// Everything one search asks for.
///
/// ```
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::{search, Options, PolishSettings, Progress};
/// use magic_gen::search::state::Budget;
/// use magic_gen::Variant;
///
/// // A small black hunt: 4096 candidates per square, pools of 2, each member polished, the
/// // pools packed by 1,000 annealing moves.
/// let mut options = Options::for_variant(Variant::Black);
/// options.scan.budget = Budget::Candidates(4096);
/// options.scan.pool = 2;
/// options.limits.polish = PolishSettings { polish: 100, clump: 0 };
/// options.limits.pack = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let outcome = search(&options, &Progress::default())?;
/// // A packed variant: the checkpoint of its one packing, every move made.
/// assert!(outcome.pack.len() == 1 && outcome.pack[0].finished());
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
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
    /// The candidates a fresh fixed-shift (black, white) search scans per square unless
    /// told otherwise: with the other defaults of [`Options::for_variant`], a black table
    /// of at most 100,000 entries within a minute on the slower kind of two-core
    /// development machine (docs/results/hunts.md, "Defaults").
    pub const PACKED_CANDIDATES: u64 = 4_194_304;

    /// The annealing moves of a fresh fixed-shift search's packing unless told otherwise.
    pub const PACKED_MOVES: u64 = 60_000;

    /// Returns the search of `variant` as `magic-gen search --variant NAME` runs it with no
    /// other option: every square at its default bits, seed [`Scan::DEFAULT_SEED`], one
    /// thread, no time limit. Fancy and plain scan each square until its first valid
    /// magic. Black and white scan [`Options::PACKED_CANDIDATES`] candidates a square, keep
    /// pools of [`Scan::DEFAULT_POOL`] and
    /// [`Scan::DEFAULT_SPARSE`] sparse finds, polish them 10,000 moves and anneal the packing
    /// [`Options::PACKED_MOVES`] moves. The one home of these defaults: the CLI takes them from here.
    ///
    /// ```
    /// use magic_gen::search::state::Budget;
    /// use magic_gen::search::Options;
    /// use magic_gen::Variant;
    ///
    /// let black = Options::for_variant(Variant::Black);
    /// assert_eq!(black.scan.budget, Budget::Candidates(Options::PACKED_CANDIDATES));
    /// assert_eq!((black.scan.pool, black.scan.sparse), (8, 8));
    /// assert_eq!(Options::for_variant(Variant::Fancy).scan.budget, Budget::UntilFound);
    /// ```
    pub fn for_variant(variant: Variant) -> Options {
        let mut options = Options {
            scan: Scan {
                variant,
                seed: Scan::DEFAULT_SEED,
                shard: Shard::WHOLE,
                budget: Budget::UntilFound,
                pool: Scan::DEFAULT_POOL,
                sparse: 0,
                patience: 0,
            },
            targets: Vec::new(),
            bits: None,
            bits_under: None,
            also_fixed_shift: false,
            command: String::new(),
            limits: Limits {
                threads: 1,
                ..Limits::default()
            },
        };
        if variant.is_packed() {
            options.scan.budget = Budget::Candidates(Options::PACKED_CANDIDATES);
            options.scan.sparse = Scan::DEFAULT_SPARSE;
            options.limits.polish.polish = 10_000;
            options.limits.pack.iterations = Options::PACKED_MOVES;
        }
        options.limits.pack.seed = options.scan.seed;
        options
    }
}

impl Limits {
    /// Returns how a hunt with these limits finishes: their polish and packing.
    pub fn finish(&self) -> Finish {
        Finish {
            polish: self.polish,
            pack: self.pack,
        }
    }

    /// Returns the end of the scan if it starts now.
    pub fn deadline(&self) -> Option<Instant> {
        self.seconds.map(after)
    }
}

/// Returns the instant `seconds` from now (negative counts as zero).
fn after(seconds: f64) -> Instant {
    Instant::now() + Duration::from_secs_f64(seconds.max(0.0))
}

/// Why a hunt could not run or finish.
///
/// ```
/// use magic_gen::search::{Error, Options, SearchState};
/// use magic_gen::Variant;
///
/// // PEXT indexes by the mask itself: there is nothing to search.
/// let refused = SearchState::new(&Options::for_variant(Variant::Pext));
/// assert!(matches!(refused, Err(Error::Search(_))));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The options ask for what no search gives (or, an internal error, the set made fails
    /// verification): what is wrong.
    Search(String),
    /// The pack checkpoint to resume from belongs to another packing: its line at fault
    /// and what differs.
    Checkpoint(PackMismatch),
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Search(what) => f.write_str(what),
            Error::Checkpoint(m) => write!(f, "the '{}' line: {m}", m.line),
        }
    }
}

impl std::error::Error for Error {}

/// Returns the index bits a job of `variant` on `piece` `sq` may have: 1 up to its mask
/// popcount, or up to the variant's default bits where those are more (plain's fixed 12/9).
pub(crate) fn allowed_bits(variant: Variant, piece: Piece, sq: u8) -> std::ops::RangeInclusive<u8> {
    1..=relevant_bits(piece, sq).max(variant.default_bits(piece, sq))
}

/// Returns the index bits a job asks for.
fn wanted_bits(options: &Options, piece: Piece, sq: u8) -> Result<u8, Error> {
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
    if !allowed_bits(options.scan.variant, piece, sq).contains(&bits) {
        return Err(Error::Search(format!(
            "index bits {bits} out of range for {piece} {}: 1..={popcount} (its mask popcount)",
            square_name(sq)
        )));
    }
    Ok(bits)
}

impl SearchState {
    /// Returns a fresh state for `options`: one job per piece and square.
    pub fn new(options: &Options) -> Result<SearchState, Error> {
        let variant = options.scan.variant;
        if variant == Variant::Pext {
            return Err(Error::Search(
                "PEXT needs no search: its index is the mask itself".into(),
            ));
        }
        if (options.bits.is_some() || options.bits_under.is_some()) && variant == Variant::Plain {
            return Err(Error::Search(format!(
                "{variant} magics have fixed bits (12 rook, 9 bishop): other bits are for fancy, \
                 black and white"
            )));
        }
        if options.also_fixed_shift && !variant.is_packed() {
            return Err(Error::Search(format!(
            "{variant} sets have one shift per square: a second, fixed shift is for black and white"
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
            finish: options.limits.finish(),
            jobs,
        })
    }
}
