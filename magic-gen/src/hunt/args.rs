//! The values of a hunt's command-line options: the parser of each (it turns the text into
//! its type or says what is wrong), the help headings they sit under, and the finishing
//! settings given ([`Finishing`]), which `search` and `merge` take alike.

use crate::geometry::{parse_square, Piece};
use crate::index::Variant;
use crate::pack::PackSettings;
use crate::search::{Limits, PolishSettings, SearchState, Shard};
use crate::settings::{Given, Heading};

use super::presets::Preset;
use super::refusal::Refusal;

/// The help heading of the pool options.
pub(crate) const POOLS: &str = "Pools (black, white; see docs/record-hunts.md)";

/// The help heading of the packing options.
pub(crate) const PACKING: &str = "Packing (black, white; see docs/record-hunts.md)";

/// The help heading of the options for long and sharded runs.
pub(crate) const LONG_RUNS: &str = "Long runs: checkpoints, resuming, shards";

/// The help heading of the options that ask fewer index bits of some squares.
pub(crate) const FEWER_BITS: &str = "Fewer bits (fancy; black and white per-square shifts)";

/// The help heading of the scan's options.
pub(crate) const SCAN: &str = "Scan: how many candidates (see docs/record-hunts.md)";

impl Heading for PackSettings {
    const HEADING: &'static str = PACKING;

    fn check(&self, variant: Variant) -> Result<(), String> {
        PackSettings::check(self, variant).map(|_| ())
    }
}

impl Heading for PolishSettings {
    const HEADING: &'static str = POOLS;

    fn check(&self, variant: Variant) -> Result<(), String> {
        PolishSettings::check(self, variant)
    }
}

/// The settings given that finish a hunt after its scan: how the pools are shaped and
/// how the table is packed, each in place of the run's own where given.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct Finishing {
    #[command(flatten)]
    pub polish: Given<PolishSettings>,
    #[command(flatten)]
    pub pack: Given<PackSettings>,
}

impl Finishing {
    /// Returns the first option given, as its flag, if any.
    pub fn first_given(&self) -> Option<String> {
        self.polish
            .first_given()
            .or_else(|| self.pack.first_given())
    }

    /// Returns `polish` and `pack` (a run's own) with the settings given in their place,
    /// refused where they would do nothing or cannot be in a run of `variant`.
    pub fn on(
        &self,
        (polish, pack): (PolishSettings, PackSettings),
        variant: Variant,
    ) -> Result<(PolishSettings, PackSettings), String> {
        let polish = self.polish.checked(polish, variant)?;
        Ok((polish, self.pack.checked(pack, variant)?))
    }

    /// Returns the limits of the merge of shards of a search like `first`, on `threads`:
    /// finished as the one run of the search would be, as its states record, with the
    /// settings given in their place; refused where they would do nothing (the shards of
    /// fancy and plain searches) or cannot be.
    pub fn merging(&self, first: &SearchState, threads: usize) -> Result<Limits, Refusal> {
        let variant = first.scan.variant;
        if let (false, Some(flag)) = (variant.is_packed(), self.first_given()) {
            let shards = true;
            return Err(Refusal::NoOp {
                flag,
                variant,
                shards,
            });
        }
        let saved = (first.polish, first.pack);
        let (polish, pack) = self.on(saved, variant).map_err(Refusal::Unfit)?;
        Ok(Limits {
            threads,
            polish,
            pack,
            ..Limits::default()
        })
    }
}

/// Returns the threads to use: `asked`, or every available core.
pub(crate) fn threads_or_all(asked: Option<u32>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// Parses a preset name.
pub(crate) fn parse_preset(s: &str) -> Result<Preset, String> {
    Preset::parse(s).ok_or_else(|| {
        let names: Vec<String> = Preset::ALL
            .iter()
            .map(|p| format!("{}: the hunt of {}", p.name(), p.file()))
            .collect();
        format!("unknown preset '{s}' ({})", names.join("; "))
    })
}

/// Parses a seed: an unsigned 64-bit number. (Its options take negative numbers as values,
/// so that `--seed -1` gets this error rather than clap's `unexpected argument '-1'`.)
pub(crate) fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse::<u64>().map_err(|_| {
        format!(
            "seed '{s}' is not an unsigned number: seeds are 0 to {} (any one gives a \
             different, reproducible run)",
            u64::MAX
        )
    })
}

/// Parses a searchable variant (every one but PEXT).
pub(crate) fn parse_variant(s: &str) -> Result<Variant, String> {
    match Variant::parse(s) {
        Some(Variant::Pext) => Err("pext needs no search: its index is the mask itself".into()),
        Some(v) if v.is_overlay() => Err(format!(
            "{v} sets are packed, not searched: search --variant {} (then `magic-gen pack FILE \
             --overlay`, or give --overlay to a black search)",
            v.indexed_as()
        )),
        Some(v) => Ok(v),
        None => Err(format!(
            "unknown variant '{s}' (fancy, plain, black or white)"
        )),
    }
}

/// Parses `rook` or `bishop`.
pub(crate) fn parse_piece(s: &str) -> Result<Piece, String> {
    Piece::parse(s).ok_or_else(|| format!("unknown piece '{s}' (rook or bishop)"))
}

/// Parses a square name, `a1`..`h8`.
pub(crate) fn parse_square_arg(s: &str) -> Result<u8, String> {
    parse_square(s).ok_or_else(|| format!("unknown square '{s}' (a1..h8)"))
}

/// Parses a shard `K/N`.
pub(crate) fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s).map_err(|e| e.to_string())
}

/// Parses a pool size, 1..=4096.
pub(crate) fn parse_pool(s: &str) -> Result<usize, String> {
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
pub(crate) fn parse_seconds(s: &str) -> Result<f64, String> {
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
