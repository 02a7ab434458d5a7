//! What a search asks for: the one options type, with the settings a state file saves
//! ([`Scan`]) and the limits of one run ([`Limits`]) kept apart inside it, so a resumed run
//! takes its scan from the file and its limits from the new command.

use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use crate::geometry::{attack_set_count, Piece, SetSquare};
use crate::index::Variant;

use crate::pack::{Mismatch, PackMismatch, PackSettings};

use super::candidates::Shard;
use crate::settings::{declare_settings, Spec, Written};

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
///     polish: PolishSettings { polish: 1000, clump: 0, evolve: 0 },
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
/// use magic_gen::hunt::{Hooks, Hunt, Wanted};
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::{Options, PolishSettings, SearchState};
/// use magic_gen::search::Budget;
/// use magic_gen::Variant;
///
/// // A small black hunt: 4096 candidates per square, pools of 2, each member polished, the
/// // pools packed by 1,000 annealing moves.
/// let mut options = Options::for_variant(Variant::Black);
/// options.scan.budget = Budget::Candidates(4096);
/// options.scan.pool = 2;
/// options.limits.polish = PolishSettings { polish: 100, clump: 0, evolve: 0 };
/// options.limits.pack = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let mut state = SearchState::new(&options)?;
/// let outcome = Hunt::search(&mut state, &options.limits, Wanted::Set).run(Hooks::default())?;
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
    pub targets: Vec<SetSquare>,
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
    /// use magic_gen::search::Budget;
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

impl Options {
    /// Seeds the scan's random streams with `seed`, and the packing's too unless it has a
    /// seed of its own (a preset's), as the packing follows the scan's seed by default.
    pub fn reseed(&mut self, seed: u64) {
        if self.limits.pack.seed == self.scan.seed {
            self.limits.pack.seed = seed;
        }
        self.scan.seed = seed;
    }

    /// Gives the scan a budget of `candidates` a square if given; else, where the run has
    /// a time budget and these options do not fix the count (a variant's defaults, not a
    /// preset's), a count without end, so that the scan goes on until the time is up.
    pub fn budget_for(&mut self, candidates: Option<u64>, timed: bool, count_fixed: bool) {
        self.scan.budget = match candidates {
            Some(n) => Budget::Candidates(n),
            None if timed && !count_fixed => Budget::Candidates(u64::MAX),
            None => self.scan.budget,
        };
    }

    /// Returns the squares that get the bits asked of `piece`'s squares, of `square` (of
    /// both pieces), or of that one square; empty (all 128, [`Options::targets`]) if
    /// neither narrows it.
    pub fn targets_of(piece: Option<Piece>, square: Option<u8>) -> Vec<SetSquare> {
        let at = |piece, square| SetSquare { piece, square };
        match (piece, square) {
            (Some(p), Some(s)) => vec![at(p, s)],
            (Some(p), None) => (0..64).map(|s| at(p, s)).collect(),
            (None, Some(s)) => Piece::ALL.iter().map(|&p| at(p, s)).collect(),
            (None, None) => Vec::new(),
        }
    }
}

impl Options {
    /// Refuses a fresh scan whose budget tries no candidate (a count of 0, or 0 seconds):
    /// it could find nothing, and would still polish and pack the nothing found. (A resumed
    /// scan may be given 0 seconds: it goes straight on to finish what its state holds.)
    ///
    /// ```
    /// use magic_gen::search::{EmptyBudget, Error, Options, SearchState};
    /// use magic_gen::search::Budget;
    /// use magic_gen::Variant;
    ///
    /// let mut options = Options::for_variant(Variant::Black);
    /// options.scan.budget = Budget::Candidates(0);
    /// let refused = SearchState::new(&options);
    /// assert_eq!(refused.unwrap_err(), Error::EmptyBudget(EmptyBudget::Candidates));
    /// ```
    pub fn check_budget(&self) -> Result<(), Error> {
        if self.scan.budget == Budget::Candidates(0) {
            return Err(Error::EmptyBudget(EmptyBudget::Candidates));
        }
        if self.limits.seconds.is_some_and(|s| s <= 0.0) {
            return Err(Error::EmptyBudget(EmptyBudget::Seconds));
        }
        Ok(())
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
///
/// A checkpoint resumed by another packing is refused at its line at fault, saying which
/// setting differs, as saved and as asked:
///
/// ```
/// use magic_gen::hunt::{Hooks, Hunt};
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::{Error, Limits};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// let report = magic_gen::verify(&set).unwrap().report;
/// let pack = PackSettings { iterations: 10, ..PackSettings::default() };
/// let limits = Limits { pack, ..Limits::default() };
/// let checkpoint = Hunt::repack(&set, &report, &limits).run(Hooks::default())?.pack;
/// let more = Limits { pack: PackSettings { iterations: 20, ..pack }, ..Limits::default() };
/// let resumed = Hunt::repack(&set, &report, &more).resuming(&checkpoint);
/// let Err(Error::Checkpoint { line, packing, mismatch }) = resumed.run(Hooks::default()) else {
///     panic!("a checkpoint of another packing resumed");
/// };
/// assert_eq!((line.as_str(), packing), ("pack", 0));
/// assert_eq!(mismatch.to_string(), "the checkpoint's pack-iterations is 10, this run's 20");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The options ask for what no search gives (or, an internal error, the set made fails
    /// verification): what is wrong.
    Search(String),
    /// The pack checkpoint to resume from belongs to another packing (or is damaged): its
    /// line at fault and what differs.
    Checkpoint {
        /// How the line at fault starts (`"pack"`, `"pack-progress"`, `"pack-square rook
        /// a1"`), for [`Error::line_in`].
        line: String,
        /// Which packing's section of the checkpoint holds that line (0: the first; see
        /// [`PackSettings::seeds`]).
        packing: usize,
        /// What differs.
        mismatch: Mismatch,
    },
    /// Shard states that do not merge: which state is at fault, the line of its file that
    /// shows it, and how it differs.
    Merge {
        /// Index of the state at fault among those merged.
        state: usize,
        /// Index of the state it was compared with (the first, or an earlier one of the
        /// same shard).
        with: usize,
        /// How the line at fault starts (`"seed"`, `"job rook e4"`), for
        /// [`Error::line_in`]; `None` when the state as a whole is at fault.
        line: Option<String>,
        /// How it differs.
        message: String,
    },
    /// A fresh scan's budget lets it try no candidate, so nothing could be found: which
    /// budget is empty.
    EmptyBudget(EmptyBudget),
    /// Index bits asked of a square that no search of the variant can give it: the
    /// square, the bits asked and those it may have, from the fewest whose slots hold its
    /// distinct attack sets (fewer, and the search never ends) to its mask popcount (or
    /// the variant's fixed bits).
    ///
    /// ```
    /// use magic_gen::search::{Error, Options, SearchState};
    /// use magic_gen::{Piece, SetSquare, Variant};
    ///
    /// // 5 bits give 32 slots; rook e4 has 144 attack sets.
    /// let mut options = Options::for_variant(Variant::Fancy);
    /// options.targets = Options::targets_of(Some(Piece::Rook), Some(28));
    /// options.bits = Some(5);
    /// let Err(Error::Bits { square, bits, allowed }) = SearchState::new(&options) else {
    ///     panic!("5 bits for rook e4 accepted");
    /// };
    /// assert_eq!((square, bits, allowed), (SetSquare { piece: Piece::Rook, square: 28 }, 5, 8..=10));
    /// ```
    Bits {
        /// The square asked for.
        square: SetSquare,
        /// The index bits asked of it.
        bits: u8,
        /// The index bits it may have.
        allowed: RangeInclusive<u8>,
    },
    /// A set given to join the pools of a packing is of another variant than the set
    /// packed: its index among those given, its variant and the packed set's.
    OtherVariant {
        /// Index of the set at fault among those given to join the pools.
        also: usize,
        /// Its variant.
        variant: Variant,
        /// The variant of the set packed.
        packed: Variant,
    },
}

/// A budget that tries no candidate ([`Error::EmptyBudget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyBudget {
    /// A count of 0 candidates a square ([`Budget::Candidates`]).
    Candidates,
    /// A time budget of 0 seconds ([`Limits::seconds`]).
    Seconds,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Search(what) => f.write_str(what),
            Error::Checkpoint { line, mismatch, .. } => {
                write!(f, "the '{line}' line: {mismatch}")
            }
            Error::Merge { message, .. } => f.write_str(message),
            Error::EmptyBudget(budget) => {
                let what = match budget {
                    EmptyBudget::Candidates => "0 candidates a square",
                    EmptyBudget::Seconds => "0 seconds",
                };
                write!(
                    f,
                    "a scan of {what} tries no candidate: every square would fall back and \
                     nothing found would be packed; give a budget above 0"
                )
            }
            Error::Bits {
                square,
                bits,
                allowed,
            } if bits < allowed.start() => write!(
                f,
                "{square} has {} distinct attack sets, more than the {} slots of {bits} index \
                 bits: no search for them ends; it needs at least {} bits",
                attack_set_count(square.piece, square.square),
                1u32 << bits,
                allowed.start()
            ),
            Error::Bits {
                square,
                bits,
                allowed,
            } => write!(
                f,
                "index bits {bits} out of range for {square}: {}..={}",
                allowed.start(),
                allowed.end()
            ),
            Error::OtherVariant {
                variant, packed, ..
            } => write!(
                f,
                "a {variant} set's magics cannot join a {packed} set's pools"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// Returns the error of a checkpoint that does not belong to the packing it was given to.
    pub(crate) fn checkpoint(m: PackMismatch) -> Error {
        Error::Checkpoint {
            line: m.line,
            packing: m.packing,
            mismatch: m.mismatch,
        }
    }
}

/// How long each job scans.
///
/// ```
/// use magic_gen::search::{Options};
/// use magic_gen::search::Budget;
/// use magic_gen::Variant;
///
/// // A budget of candidates gives the same set on any machine; a time limit does not.
/// let mut options = Options::for_variant(Variant::Black);
/// options.scan.budget = Budget::Candidates(1 << 20);
/// assert_eq!(options.scan.budget.to_string(), "candidates 1048576");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Fancy and plain: until the first valid magic. Fixed shift: until `pool` valid magics.
    UntilFound,
    /// Scan exactly the candidates with index below this (in the job's shard), keeping the
    /// first valid magic (fancy, plain) or the `pool` best (fixed shift).
    Candidates(u64),
}

/// The settings that decide which magics a search keeps: saved in its state file and
/// shared by every shard of one search (merging checks they match).
///
/// ```
/// use magic_gen::search::{Options};
/// use magic_gen::search::Scan;
/// use magic_gen::Variant;
///
/// let scan: Scan = Options::for_variant(Variant::White).scan;
/// assert_eq!((scan.seed, scan.pool, scan.sparse), (Scan::DEFAULT_SEED, 8, 8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// Fancy, plain, black or white (PEXT needs no search).
    pub variant: Variant,
    /// Seed of every job's random stream.
    pub seed: u64,
    /// The slice of the candidate space this run scans.
    pub shard: Shard,
    /// How long each job scans.
    pub budget: Budget,
    /// Valid magics each fixed-shift job keeps for the packer, the lowest pack cost first.
    pub pool: usize,
    /// Finds each fixed-shift job keeps besides the pool: those of the rest with the fewest
    /// used slots (black) or the fewest blocked slots (white), whose holes other squares
    /// can fill. Written on
    /// the pool line (`pool 32 sparse 16`) when not 0.
    pub sparse: usize,
    /// Moves without improvement before a fixed-shift density climb stops (0: no climb).
    pub patience: u32,
}

declare_settings! {
/// How a fixed-shift scan's pools are shaped after the scan and before packing: the CLI's
/// `--polish` and `--clump`.
///
/// ```
/// use magic_gen::search::PolishSettings;
///
/// // The committed white record's pool shaping.
/// let white = PolishSettings { polish: 100_000, clump: 30_000, evolve: 0 };
/// assert_eq!(PolishSettings::default(), PolishSettings { polish: 0, clump: 0, evolve: 0 });
/// # let _ = white;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolishSettings {
    /// Climb every pool member to a lower pack cost (twice the used slots plus the span)
    /// until this many moves bring no improvement; 0 packs the pools as scanned.
    pub polish: u32 = 0 => Spec {
        flag: "polish",
        value_name: "MOVES",
        help: "Before packing, climb every pool member to a lower pack cost (twice its used \
               slots plus its span) until MOVES moves in a row bring no improvement (0: pack \
               the pools as scanned).",
        what: "a count of moves",
        recorded: Written::Always,
        ..Spec::BASE
    },
    /// White: anneal every find this many moves toward used slots gathered in few blocks,
    /// and add the result to the pool where it blocks fewer slots (0: none).
    pub clump: u32 = 0 => Spec {
        flag: "clump",
        value_name: "MOVES",
        help: "White only: anneal every find MOVES moves toward used slots gathered in few \
               64-slot blocks, and add the result to the pool where it blocks fewer slots \
               (used ones and the holes under 16 slots between them) than the find (0: none).",
        what: "a count of moves",
        ..Spec::BASE
    },
    /// Black and white: evolve every job's pool this many evaluations toward fewer used
    /// slots and shorter spans (the new search of `polish/evolve.rs`), and add what it
    /// finds to the pool (0: none).
    pub evolve: u64 = 0 => Spec {
        flag: "evolve",
        value_name: "EVALUATIONS",
        help: "Black and white: after the polish, evolve every square's pool for EVALUATIONS \
               measured magics toward fewer used slots and shorter spans (climbs by several \
               weights, with carry moves), and add the best trade-offs met to the pool (0: \
               none).",
        what: "a count of evaluations",
        // Written only when asked, so the states of other hunts read and write as before.
        in_state: Written::UnlessDefault,
        ..Spec::BASE
    },
}
}

impl PolishSettings {
    /// Refuses a clump climb of a variant that is not white: it measures white magics, so
    /// elsewhere it would do nothing.
    pub fn check(&self, variant: Variant) -> Result<(), String> {
        match self.clump > 0 && variant != Variant::White {
            true => Err(format!(
                "--clump gathers the used slots of white magics; this search is {variant}: \
                 leave it out"
            )),
            false => Ok(()),
        }
    }
}

impl Scan {
    /// The seed a search uses unless told otherwise.
    pub const DEFAULT_SEED: u64 = 1;

    /// Valid magics each fixed-shift job keeps for the packer, unless told otherwise.
    pub const DEFAULT_POOL: usize = 8;

    /// Sparse finds each fixed-shift job keeps besides its pool, unless told otherwise.
    pub const DEFAULT_SPARSE: usize = 8;
}

impl std::fmt::Display for Budget {
    /// Writes the budget as its state line and merge messages spell it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::UntilFound => f.write_str("until-found"),
            Budget::Candidates(n) => write!(f, "candidates {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hunt::Preset;

    #[test]
    fn the_packing_follows_the_scans_seed_unless_it_has_its_own() {
        let mut o = Options::for_variant(Variant::Black);
        o.reseed(7);
        assert_eq!((o.scan.seed, o.limits.pack.seed), (7, 7));
        // The white record's packing has a seed of its own.
        let mut o = Preset::RecordWhite.options();
        o.reseed(7);
        assert_eq!((o.scan.seed, o.limits.pack.seed), (7, 1));
    }

    #[test]
    fn a_time_budget_scans_until_the_time_is_up_unless_the_count_is_fixed() {
        let mut o = Options::for_variant(Variant::Black);
        o.budget_for(None, true, false);
        assert_eq!(o.scan.budget, Budget::Candidates(u64::MAX));
        let mut o = Preset::Record.options();
        o.budget_for(None, true, true);
        assert_eq!(o.scan.budget, Budget::Candidates(33_554_432));
        o.budget_for(Some(5), true, true);
        assert_eq!(o.scan.budget, Budget::Candidates(5));
        assert_eq!(Options::targets_of(Some(Piece::Rook), None).len(), 64);
        assert_eq!(Options::targets_of(None, Some(3)).len(), 2);
        assert!(Options::targets_of(None, None).is_empty());
    }
}
