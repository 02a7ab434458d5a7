//! Argument parsers: each turns one command-line value into its type or says what is wrong.

use clap::Args;
use magic_gen::search::{parse_spread, Limits, Shard};
use magic_gen::{parse_square, Piece, Variant};

/// How a fixed-shift table is packed: the options `search`, `merge` and `pack` share.
#[derive(Args, Debug, Clone)]
pub struct PackArgs {
    /// Moves of layout annealing after the greedy packing (fixed shift; default 0: the
    /// greedy packing alone). A count, so the table is the same on any machine. Ctrl-C
    /// stops the annealing with the best layout so far; with --state, `search` and `pack`
    /// save checkpoints that --resume continues to the uninterrupted result.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub pack_iterations: u64,
    /// Let packed ranges start before the table wherever every index stays at 0 or above
    /// (a denser magic-gen set; the runtime's `black` backend needs offsets from 0).
    #[arg(long)]
    pub negative_offsets: bool,
    /// Judge each annealing move by the table length plus this times the mean end of the
    /// ranges (default 0: length alone). A move that lowers ranges below the last one then
    /// counts, which length alone does not see; 0.03 packed white tables 0.5-1.8% shorter.
    #[arg(long, value_name = "WEIGHT", default_value_t = 0.0, value_parser = parse_spread)]
    pub pack_spread: f64,
    /// After annealing, give each square the pool member of the shortest span that keeps
    /// the table no longer (fewer holes in a range: its lookups reach fewer cache lines)
    #[arg(long)]
    pub short_spans: bool,
}

/// How the pools are shaped before a fixed-shift packing: the options `search` and `merge`
/// share. Neither is saved in a state file, so a resumed or merged run gives them again.
#[derive(Args, Debug, Clone)]
pub struct PolishArgs {
    /// Before packing (fixed shift), climb every pool member to a lower pack cost until
    /// this many moves bring no improvement (default 0: pack the pools as scanned). Unlike
    /// --patience it climbs only the finds a pool keeps, so it costs little next to the
    /// scan; like --pack-iterations it is not saved in --state, so a resumed run may
    /// polish differently.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub polish: u32,
    /// White: before packing, anneal every find of each square N moves toward used slots
    /// gathered in few 64-slot blocks, and add the result to the square's pool where it
    /// blocks fewer slots (used ones and holes under 16) than the find (default 0: none).
    /// Not saved in --state, like --polish.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub clump: u32,
}

impl PolishArgs {
    /// Returns `limits` with these options.
    pub fn apply(&self, limits: Limits) -> Limits {
        Limits {
            polish: self.polish,
            clump: self.clump,
            ..limits
        }
    }

    /// Refuses `limits` that clump the pools of a search that is not white: the clump
    /// climb measures white magics' used slots, so elsewhere it would be silently ignored.
    pub fn check(limits: &Limits, variant: Variant) -> Result<(), String> {
        if limits.clump > 0 && variant != Variant::White {
            return Err(format!(
                "--clump gathers the used slots of white magics; this search is {variant}: leave it out"
            ));
        }
        Ok(())
    }
}

/// The packing's own seed: the option of `search` and `merge`, whose packings otherwise
/// take the scan's seed (`pack` has only a packing, seeded by its `--seed`).
#[derive(Args, Debug, Clone)]
pub struct PackSeedArgs {
    /// Seed the packing's annealing with this instead of the scan's seed: the same pools
    /// packed another way, without scanning again (with --resume of a finished state, say).
    /// A packing checkpoint resumes only with the seed it was saved with.
    #[arg(long, value_name = "SEED")]
    pub pack_seed: Option<u64>,
}

impl PackArgs {
    /// Returns `limits` with these packing options.
    pub fn apply(&self, limits: Limits) -> Limits {
        Limits {
            pack_iterations: self.pack_iterations,
            negative_offsets: self.negative_offsets,
            pack_spread: self.pack_spread,
            short_spans: self.short_spans,
            ..limits
        }
    }
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
    Shard::parse(s)
}

/// Parses a pool size, 1..=4096.
pub fn parse_pool(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        _ => Err(format!("pool '{s}' must be a number in 1..=4096")),
    }
}

/// Parses a number of seconds, 0..=1e9.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1e9).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds")),
    }
}
