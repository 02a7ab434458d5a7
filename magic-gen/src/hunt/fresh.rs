//! A fresh search as its user asks for it, each option `None` (or `false`) where not given:
//! the variant it searches, the options it runs with (the preset's or the variant's
//! defaults, `Options::for_variant`, with those given in their place), and the refusal of
//! options that would do nothing in the search chosen ([`Refusal`]).

use crate::geometry::Piece;
use crate::index::Variant;
use crate::search::{Options, SearchState, Shard};

use super::presets::Preset;
use super::refusal::Refusal;

/// A fresh search as asked for; a resumed one takes the scan's options from its state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Asked {
    /// The variant searched.
    pub variant: Option<Variant>,
    /// The record hunt whose options are the defaults.
    pub preset: Option<Preset>,
    /// The piece whose squares are asked for fewer bits.
    pub piece: Option<Piece>,
    /// The square asked for fewer bits.
    pub square: Option<u8>,
    /// The index bits asked of the chosen squares.
    pub bits: Option<u8>,
    /// The index bits asked below the chosen squares' mask popcount.
    pub bits_under: Option<u8>,
    /// Whether the chosen squares are scanned at the fixed shift as well.
    pub also_fixed_shift: bool,
    /// The scan's time budget.
    pub seconds: Option<f64>,
    /// The scan's budget of candidates per square.
    pub candidates: Option<u64>,
    /// The shard of the candidate space scanned.
    pub shard: Option<Shard>,
    /// The magics each pool keeps by pack cost.
    pub pool: Option<usize>,
    /// The magics each pool keeps besides, the sparsest.
    pub sparse_pool: Option<u16>,
    /// The moves in a row without improvement that end a climb.
    pub patience: Option<u32>,
    /// The seed of the search's streams.
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
    /// defaults) with every option asked in their place; the limits are the defaults', for
    /// the caller to set, and the command that reproduces it the caller's to record.
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
        Ok(o)
    }

    /// Refuses the scan's options asked for, or the `finishing` one given (the first option
    /// of the polish or the packing, as its flag), that would do nothing in a search of
    /// `variant`: pools, climbs and packing for fancy and plain, which keep the first valid
    /// magic of each square in a layout of their own.
    pub fn refuse_no_ops(
        &self,
        variant: Variant,
        finishing: Option<String>,
    ) -> Result<(), Refusal> {
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
            .or(finishing);
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
