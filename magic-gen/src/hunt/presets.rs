//! The named hunts of the committed record sets, as values.

use crate::index::Variant;
use crate::search::Budget;
use crate::search::{Options, PolishSettings};

/// A committed record's hunt: the options whose header command regenerates its set.
///
/// ```
/// use magic_gen::hunt::Preset;
///
/// let record = Preset::Record.options();
/// assert_eq!(record.scan.pool, 32);
/// assert_eq!(Preset::parse("record-white"), Some(Preset::RecordWhite));
/// assert_eq!(Preset::Record.file(), "magics/records/own-black.rs");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The black fixed-shift record from this project's magics alone, evolved
    /// (`magics/records/own-black.rs`).
    Record,
    /// The black record with a shift per square from this project's magics alone, evolved
    /// (`magics/records/own-black-per-square.rs`).
    RecordPerSquare,
    /// The white fixed-shift record from this project's magics alone, evolved
    /// (`magics/records/own-white.rs`).
    RecordWhite,
    /// The black overlay record from this project's magics alone: the black record's scan,
    /// polish and evolution, its pools laid out by the overlay rule, each square choosing
    /// among its pool's members (`magics/records/own-black-overlay.rs`).
    RecordOverlay,
    /// The black overlay record of per-square shifts from this project's magics alone:
    /// the per-square record's scan, polish and evolution, its pools (both shifts) laid
    /// out by the overlay rule (`magics/records/own-black-per-square-overlay.rs`).
    RecordPerSquareOverlay,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 5] = [
        Preset::Record,
        Preset::RecordPerSquare,
        Preset::RecordWhite,
        Preset::RecordOverlay,
        Preset::RecordPerSquareOverlay,
    ];

    /// Returns the name `--preset` takes.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Record => "record",
            Preset::RecordPerSquare => "record-per-square",
            Preset::RecordWhite => "record-white",
            Preset::RecordOverlay => "record-overlay",
            Preset::RecordPerSquareOverlay => "record-per-square-overlay",
        }
    }

    /// Returns the committed set whose header's first command it spells out (a record
    /// packed again after its hunt records that `pack` after it).
    pub fn file(self) -> &'static str {
        match self {
            Preset::Record => "magics/records/own-black.rs",
            Preset::RecordPerSquare => "magics/records/own-black-per-square.rs",
            Preset::RecordWhite => "magics/records/own-white.rs",
            Preset::RecordOverlay => "magics/records/own-black-overlay.rs",
            Preset::RecordPerSquareOverlay => "magics/records/own-black-per-square-overlay.rs",
        }
    }

    /// Returns the preset named `name`, if one is.
    pub fn parse(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Returns the preset's options: its variant's defaults ([`Options::for_variant`]) with
    /// the record's scan, pools and packing.
    pub fn options(self) -> Options {
        let variant = match self {
            Preset::RecordWhite => Variant::White,
            Preset::Record
            | Preset::RecordPerSquare
            | Preset::RecordOverlay
            | Preset::RecordPerSquareOverlay => Variant::Black,
        };
        let mut o = Options::for_variant(variant);
        o.scan.budget = Budget::Candidates(33_554_432);
        o.scan.pool = 32;
        o.scan.sparse = 16;
        o.scan.patience = 0;
        o.limits.polish = PolishSettings {
            polish: 100_000,
            clump: 0,
            evolve: 0,
        };
        o.limits.pack.iterations = 5_000_000;
        match self {
            Preset::Record => {
                o.limits.polish.evolve = 1_000_000;
                o.limits.pack.short_spans = true;
            }
            Preset::RecordPerSquare => {
                o.limits.polish.evolve = 1_000_000;
                o.bits_under = Some(0);
                o.also_fixed_shift = true;
                o.limits.pack.negative_offsets = true;
            }
            Preset::RecordWhite => {
                o.scan.budget = Budget::Candidates(67_108_864);
                o.scan.seed = 2;
                o.limits.polish.clump = 30_000;
                o.limits.polish.evolve = 1_000_000;
                o.limits.pack.iterations = 3_000_000;
                o.limits.pack.spread = 0.03;
                o.limits.pack.short_spans = true;
                o.limits.pack.seed = 1;
            }
            Preset::RecordOverlay | Preset::RecordPerSquareOverlay => {
                o.limits.polish.evolve = 1_000_000;
                // The overlay packer's moves each lay out part of the table again, each
                // square trying every member of its pool: a few a second. Its seeds spread
                // by some hundred entries: two, one a thread of two cores.
                o.limits.pack.iterations = 3_000;
                o.limits.pack.seeds = 2;
                o.limits.pack.overlay = true;
                if self == Preset::RecordPerSquareOverlay {
                    o.bits_under = Some(0);
                    o.also_fixed_shift = true;
                }
            }
        }
        o
    }
}
