//! A search as its user asks for it on the command line (`magic-gen search`'s options,
//! each `None` or `false` where not given): the variant it searches, the options a fresh
//! one runs with (the preset's or the variant's defaults, `Options::for_variant`, with
//! those given in their place), the limits of a run, and the refusal of options that would
//! do nothing in the search chosen ([`Refusal`]).

use crate::geometry::Piece;
use crate::index::Variant;
use crate::pack::PackSettings;
use crate::search::{Limits, Options, PolishSettings, SearchState, Shard};

use super::args::{
    parse_piece, parse_pool, parse_preset, parse_seconds, parse_seed, parse_shard,
    parse_square_arg, parse_variant, threads_or_all, Finishing, FEWER_BITS, LONG_RUNS, POOLS, SCAN,
};
use super::presets::Preset;
use super::refusal::Refusal;

/// A search as asked for: a resumed one takes the scan's options from its state. `--help`
/// shows the basic options first, then the hunt's under a heading per stage; the recorded
/// command keeps this order, which committed headers use.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct Asked {
    /// Index variant: fancy (bits per square), plain (12/9 bits, one array per square),
    /// black (fixed shift, `occ | !mask`, ranges packed into one table) or white (fixed
    /// shift, `occ & mask`, ranges packed). Black and white have defaults of their own (the
    /// notes below): a table within 15% of the record (its times, each with the CPU it was
    /// measured on: docs/results/hunts.md). A resumed search finishes (polishes and packs)
    /// as its state records, unless told otherwise.
    #[arg(long, value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Each of the hunt's options unless given; docs/results/hunts.md has their times. The
    /// header records the options, not the name.
    #[arg(long, value_name = "NAME", value_parser = parse_preset)]
    pub preset: Option<Preset>,
    /// Give --bits/--bits-under only to this piece's squares.
    #[arg(long, value_parser = parse_piece, help_heading = FEWER_BITS)]
    pub piece: Option<Piece>,
    /// Give --bits/--bits-under only to this square, e.g. e4.
    #[arg(long, value_parser = parse_square_arg, help_heading = FEWER_BITS)]
    pub square: Option<u8>,
    /// Index bits for the chosen squares (fancy, black and white; plain has fixed bits),
    /// at most the mask popcount (black and white: or their fixed 12/9). Every other square
    /// gets its default bits, so the output is always a complete set.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=12), help_heading = FEWER_BITS)]
    pub bits: Option<u8>,
    /// Ask the chosen squares for N bits fewer than their mask popcount (fancy: squares
    /// not reached fall back to default bits). 0 gives black and white sets a per-square
    /// shift: every chosen square at its mask popcount.
    #[arg(long, value_name = "N", conflicts_with = "bits", value_parser = clap::value_parser!(u8).range(0..=11), help_heading = FEWER_BITS)]
    pub bits_under: Option<u8>,
    /// Black and white with --bits-under: scan the chosen squares at the fixed 12/9 bits
    /// as well, and let the packer choose per square between both pools.
    #[arg(long, help_heading = FEWER_BITS)]
    pub also_fixed_shift: bool,
    /// Time budget of the whole scan, in seconds. Jobs still searching then stop:
    /// reduced-bit squares fall back to default bits, fixed-shift squares pack what they
    /// found. With --candidates the scan stops at whichever comes first; without it,
    /// fixed-shift jobs scan until the time is up. No machine repeats a time budget.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true, help_heading = SCAN)]
    pub seconds: Option<f64>,
    /// Scan exactly the first N candidates (random words tried as magics) of each square's
    /// space, of this shard's share, then stop: unlike --seconds, the same result on any
    /// machine. With --resume, raise the saved budget to N: the hunt goes on and ends as
    /// one run with budget N would.
    #[arg(long, value_name = "N", help_heading = SCAN)]
    pub candidates: Option<u64>,
    /// Run only shard K of N (K = 0..N-1) of the candidate space; run the others
    /// elsewhere and combine their --state files with `magic-gen merge`.
    #[arg(long, value_parser = parse_shard, value_name = "K/N", help_heading = LONG_RUNS)]
    pub shard: Option<Shard>,
    /// Black and white: valid magics each square keeps for the packer to choose from,
    /// those of the lowest pack cost (twice the used slots, the table entries its
    /// occupancies reach, plus the span, its first entry to its last).
    #[arg(long, value_name = "N", value_parser = parse_pool, help_heading = POOLS)]
    pub pool: Option<usize>,
    /// Black and white: magics each square keeps besides --pool, the sparsest of the rest
    /// (black: fewest used slots, a hole in the span costing a tenth of one; white: fewest
    /// blocked slots, the used ones and the holes under 16 entries between them). Their
    /// long spans rank them out of the pool, but other squares fill their holes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=4096), help_heading = POOLS)]
    pub sparse_pool: Option<u16>,
    /// Black and white: climb every valid candidate found during the scan to a lower pack
    /// cost until MOVES moves (changes of one to three bits) in a row bring no improvement
    /// (0: keep magics as found; --polish of the pools after the scan costs far less).
    #[arg(long, value_name = "MOVES", help_heading = SCAN)]
    pub patience: Option<u32>,
    #[command(flatten)]
    pub finish: Finishing,
    /// Worker threads (default: all available cores). Does not change the result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Seed of the search's random streams.
    #[arg(long, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

impl Asked {
    /// Returns the variant searched: the `resumed` state's, else the one asked, else the
    /// preset's, else fancy.
    pub fn variant(&self, resumed: Option<&SearchState>) -> Variant {
        resumed
            .map(|s| s.scan.variant)
            .or(self.variant)
            .or(self.preset.map(|p| p.options().scan.variant))
            .unwrap_or(Variant::Fancy)
    }

    /// Returns the options of the fresh search asked for: the preset's (or the variant's
    /// defaults) with every option asked in their place, its limits too; the command that
    /// reproduces it is the caller's to record.
    pub fn options(&self) -> Result<Options, Refusal> {
        let variant = self.variant(None);
        let mut o = match self.preset {
            Some(preset) => preset.options(),
            None => Options::for_variant(variant),
        };
        o.scan.variant = variant;
        let fewer_bits = self.bits.is_some() || self.bits_under.is_some();
        if variant == Variant::Plain && fewer_bits {
            return Err(Refusal::PlainBits);
        }
        if self.also_fixed_shift && !variant.is_packed() {
            return Err(Refusal::OneShift(variant));
        }
        let targeted = self.piece.is_some() || self.square.is_some() || self.also_fixed_shift;
        if targeted && !fewer_bits {
            return Err(Refusal::NoBits);
        }
        if let Some(seed) = self.seed {
            o.reseed(seed);
        }
        o.scan.shard = self.shard.unwrap_or(Shard::WHOLE);
        let timed = self.seconds.is_some();
        o.budget_for(self.candidates, timed, self.preset.is_some());
        o.scan.pool = self.pool.unwrap_or(o.scan.pool);
        o.scan.sparse = self.sparse_pool.map_or(o.scan.sparse, usize::from);
        o.scan.patience = self.patience.unwrap_or(o.scan.patience);
        o.targets = Options::targets_of(self.piece, self.square);
        if fewer_bits {
            (o.bits, o.bits_under) = (self.bits, self.bits_under);
        }
        o.also_fixed_shift |= self.also_fixed_shift;
        let finish = (o.limits.polish, o.limits.pack);
        o.limits = self.limits(finish, variant)?;
        Ok(o)
    }

    /// Returns the limits of this run: `finish`, the polish and packing of the fresh
    /// search or of the resumed state, with those given in their place.
    pub fn limits(
        &self,
        finish: (PolishSettings, PackSettings),
        variant: Variant,
    ) -> Result<Limits, Refusal> {
        let (polish, pack) = self.finish.on(finish, variant).map_err(Refusal::Unfit)?;
        Ok(Limits {
            threads: threads_or_all(self.threads),
            seconds: self.seconds,
            polish,
            pack,
        })
    }

    /// Refuses the options asked for (of the scan first, then of the polish and the
    /// packing) that would do nothing in a search of `variant`: pools, climbs and packing
    /// for fancy and plain, which keep the first valid magic of each square in a layout of
    /// their own.
    pub fn refuse_no_ops(&self, variant: Variant) -> Result<(), Refusal> {
        if variant.is_packed() {
            return Ok(());
        }
        let scan_only = [
            (self.pool.is_some(), "--pool"),
            (self.sparse_pool.is_some(), "--sparse-pool"),
            (self.patience.is_some(), "--patience"),
        ];
        let given = scan_only
            .into_iter()
            .find_map(|(given, flag)| given.then(|| flag.to_string()))
            .or_else(|| self.finish.first_given());
        match given {
            Some(flag) => Err(Refusal::NoOp {
                flag,
                variant,
                shards: false,
            }),
            None => Ok(()),
        }
    }
}
