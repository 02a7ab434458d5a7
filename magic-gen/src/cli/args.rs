//! Argument parsers: each turns one command-line value into its type or says what is wrong.

use clap::Args;
use magic_gen::pack::PackSettings;
use magic_gen::search::{PolishSettings, Shard};
use magic_gen::{parse_square, Piece, Variant};

use super::failure::BadArgument;

/// The help heading of the pool options.
pub const POOLS: &str = "Pools (black, white; see docs/record-hunts.md)";

/// The help heading of the packing options.
pub const PACKING: &str = "Packing (black, white; see docs/record-hunts.md)";

/// The help heading of the options for long and sharded runs.
pub const LONG_RUNS: &str = "Long runs: checkpoints, resuming, shards";

/// How a fixed-shift table is packed: the options `search`, `merge` and `pack` share, one
/// field of [`PackSettings`] each.
#[derive(Args, Debug, Clone)]
pub struct PackArgs {
    /// Annealing moves after the greedy packing; 0 keeps the greedy layout. A count, so the
    /// table is the same on any machine; at most 100000000000, about 100 days at the fastest
    /// rate measured. Ctrl-C stops with the best layout so far; with --state a checkpoint is
    /// saved that --resume continues to the uninterrupted result.
    #[arg(long, value_name = "MOVES", value_parser = parse_pack_iterations, help_heading = PACKING)]
    pub pack_iterations: Option<u64>,
    /// Let packed ranges start before the table wherever every index stays at 0 or above
    /// (a denser magic-gen set; the runtime's `black` backend needs offsets from 0).
    #[arg(long, help_heading = PACKING)]
    pub negative_offsets: bool,
    /// Judge each annealing move by the table length plus WEIGHT times the mean end of the
    /// ranges (0: length alone), so a move that lowers ranges below the last one counts.
    #[arg(long, value_name = "WEIGHT", value_parser = parse_spread, help_heading = PACKING)]
    pub pack_spread: Option<f64>,
    /// After annealing, give each square the pool member with the shortest span (first to
    /// last used slot) that keeps the table no longer: fewer holes, fewer cache lines.
    #[arg(long, help_heading = PACKING)]
    pub short_spans: bool,
    /// Seed of the packing's annealing (default: the scan's --seed for `search` and
    /// `merge`, 1 for `pack`). Another seed packs the same pools another way.
    #[arg(long, value_name = "SEED", value_parser = parse_seed, allow_negative_numbers = true, help_heading = PACKING)]
    pub pack_seed: Option<u64>,
    /// Pack the same pools N times, seeded SEED to SEED+N-1 (SEED: the packing seed), on up
    /// to --threads threads, and keep the shortest table (ties: the lowest seed). The
    /// result does not depend on the threads; a checkpoint holds every packing.
    #[arg(long, value_name = "N", value_parser = parse_pack_seeds, help_heading = PACKING)]
    pub pack_seeds: Option<u64>,
}

impl PackArgs {
    /// Returns `pack` with the options given here in place of its own.
    pub fn apply(&self, pack: PackSettings) -> PackSettings {
        PackSettings {
            seed: self.pack_seed.unwrap_or(pack.seed),
            iterations: self.pack_iterations.unwrap_or(pack.iterations),
            negative_offsets: self.negative_offsets || pack.negative_offsets,
            spread: self.pack_spread.unwrap_or(pack.spread),
            short_spans: self.short_spans || pack.short_spans,
            seeds: self.pack_seeds.unwrap_or(pack.seeds),
            ..pack
        }
    }

    /// Returns the first of these options given, as its flag, if any.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (self.pack_iterations.is_some(), "--pack-iterations"),
            (self.negative_offsets, "--negative-offsets"),
            (self.pack_spread.is_some(), "--pack-spread"),
            (self.short_spans, "--short-spans"),
            (self.pack_seed.is_some(), "--pack-seed"),
            (self.pack_seeds.is_some(), "--pack-seeds"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// How the pools are shaped before a fixed-shift packing: the options `search` and `merge`
/// share. A hunt's state records them, so a resumed or merged run takes them from there
/// unless given.
#[derive(Args, Debug, Clone)]
pub struct PolishArgs {
    /// Before packing, climb every pool member to a lower pack cost (twice its used slots
    /// plus its span) until MOVES moves in a row bring no improvement (0: pack the pools
    /// as scanned).
    #[arg(long, value_name = "MOVES", help_heading = POOLS)]
    pub polish: Option<u32>,
    /// White only: anneal every find MOVES moves toward used slots gathered in few 64-slot
    /// blocks, and add the result to the pool where it blocks fewer slots (used ones and
    /// the holes under 16 slots between them) than the find (0: none).
    #[arg(long, value_name = "MOVES", help_heading = POOLS)]
    pub clump: Option<u32>,
    /// Black and white: after the polish, evolve every square's pool for EVALUATIONS
    /// measured magics toward fewer used slots and shorter spans (climbs by several
    /// weights, with carry moves), and add the best trade-offs met to the pool (0: none).
    #[arg(long, value_name = "EVALUATIONS", help_heading = POOLS)]
    pub evolve: Option<u64>,
}

impl PolishArgs {
    /// Returns `polish` with the options given here in place of its own, refusing --clump
    /// on a search that is not white: the clump climb measures white magics, so elsewhere
    /// it would do nothing.
    pub fn apply(
        &self,
        polish: PolishSettings,
        variant: Variant,
    ) -> Result<PolishSettings, BadArgument> {
        if self.clump.is_some_and(|c| c > 0) && variant != Variant::White {
            return Err(BadArgument(format!(
                "--clump gathers the used slots of white magics; this search is {variant}: leave it out"
            )));
        }
        Ok(PolishSettings {
            polish: self.polish.unwrap_or(polish.polish),
            clump: self.clump.unwrap_or(polish.clump),
            evolve: self.evolve.unwrap_or(polish.evolve),
        })
    }

    /// Returns the first of these options given, as its flag, if any.
    pub fn first_given(&self) -> Option<&'static str> {
        match (self.polish, self.clump, self.evolve) {
            (Some(_), _, _) => Some("--polish"),
            (None, Some(_), _) => Some("--clump"),
            (None, None, Some(_)) => Some("--evolve"),
            (None, None, None) => None,
        }
    }
}

/// Parses a seed: an unsigned 64-bit number. (Its options take negative numbers as values,
/// so that `--seed -1` gets this error rather than clap's `unexpected argument '-1'`.)
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse::<u64>().map_err(|_| {
        format!(
            "seed '{s}' is not an unsigned number: seeds are 0 to {} (any one gives a \
             different, reproducible run)",
            u64::MAX
        )
    })
}

/// Parses a packing spread: a number in 0..=`PackSettings::MAX_SPREAD`.
pub fn parse_spread(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if PackSettings::valid_spread(x) => Ok(x),
        _ => Err(format!(
            "spread '{s}' is not a number in 0..={}",
            PackSettings::MAX_SPREAD
        )),
    }
}

/// Parses a count of annealing moves: a number in 0..=`PackSettings::MAX_ITERATIONS`.
pub fn parse_pack_iterations(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if PackSettings::valid_iterations(n) => Ok(n),
        Ok(_) => Err(format!(
            "{s} moves would not finish: a packing takes at most {} (about 100 days at the \
             fastest rate measured); Ctrl-C stops any packing with its best layout met",
            PackSettings::MAX_ITERATIONS
        )),
        Err(_) => Err(format!("'{s}' is not a count of moves")),
    }
}

/// Parses a count of packings: a number in 1..=`PackSettings::MAX_SEEDS`.
pub fn parse_pack_seeds(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if PackSettings::valid_seeds(n) => Ok(n),
        _ => Err(format!(
            "'{s}' is not a count of packings in 1..={}",
            PackSettings::MAX_SEEDS
        )),
    }
}

/// Returns the threads to use: `asked`, or every available core.
pub fn threads_or_all(asked: Option<u32>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// Parses a searchable variant (every one but PEXT).
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    match Variant::parse(s) {
        Some(Variant::Pext) => Err("pext needs no search: its index is the mask itself".into()),
        Some(v) => Ok(v),
        None => Err(format!(
            "unknown variant '{s}' (fancy, plain, black or white)"
        )),
    }
}

/// Parses `rook` or `bishop`.
pub fn parse_piece(s: &str) -> Result<Piece, String> {
    Piece::parse(s).ok_or_else(|| format!("unknown piece '{s}' (rook or bishop)"))
}

/// Parses a square name, `a1`..`h8`.
pub fn parse_square_arg(s: &str) -> Result<u8, String> {
    parse_square(s).ok_or_else(|| format!("unknown square '{s}' (a1..h8)"))
}

/// Parses a shard `K/N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s).map_err(|e| e.to_string())
}

/// Parses a pool size, 1..=4096.
pub fn parse_pool(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        _ => Err(format!("pool '{s}' must be a number in 1..=4096")),
    }
}

/// The most seconds any option takes: about 32 years.
const MAX_SECONDS: f64 = 1e9;

/// Parses a number of seconds, 0..=[`MAX_SECONDS`]. (Its options take negative numbers as
/// values, so that `--seconds -1` gets this error rather than clap's `unexpected argument
/// '-1'`.)
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=MAX_SECONDS).contains(&x) => Ok(x),
        Ok(x) if x < 0.0 => Err(format!(
            "'{s}' is a negative number of seconds: give 0 to {MAX_SECONDS:e}"
        )),
        _ => Err(format!(
            "'{s}' is not a number of seconds in 0 to {MAX_SECONDS:e}"
        )),
    }
}
