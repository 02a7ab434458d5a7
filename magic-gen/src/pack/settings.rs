//! The packing settings: what a checkpoint saves and a resumed run must repeat, each
//! declared once with its option (`crate::settings`).

use crate::index::Variant;
use crate::set_file::Step;
use crate::settings::{declare_settings, Commands, Settings, Spec, Written};

declare_settings! {
/// How the packer lays out a fixed-shift table: what a checkpoint saves and a resumed run
/// must repeat. The CLI's packing options, one field each.
///
/// ```
/// use magic_gen::pack::PackSettings;
///
/// // The committed white record's packing: 3,000,000 moves judged with a spread of 0.03,
/// // spans shortened after.
/// let white = PackSettings {
///     seed: 1,
///     iterations: 3_000_000,
///     negative_offsets: false,
///     spread: 0.03,
///     short_spans: true,
///     seeds: 1,
///     from_input: false,
///     seconds: 0.0,
///     overlay: false,
///     exact_bishops: false,
/// };
/// assert!(PackSettings::valid_spread(white.spread));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PackSettings {
    /// Annealing moves after the greedy pass; 0 keeps the greedy layout
    /// (`--pack-iterations`). A count, so the table is the same on any machine.
    pub iterations: u64 = 0 => Spec {
        flag: "pack-iterations",
        value_name: "MOVES",
        help: "Annealing moves after the greedy packing; 0 keeps the greedy layout. A count, \
               so the table is the same on any machine; at most 100000000000, about 100 days \
               at the fastest rate measured. Ctrl-C stops with the best layout so far; with \
               --state a checkpoint is saved that --resume continues to the uninterrupted \
               result.",
        what: "a count of moves",
        bounds: Some((0.0, PackSettings::MAX_ITERATIONS as f64)),
        above: "moves would not finish: a packing takes at most {max} (about 100 days at \
                the fastest rate measured); Ctrl-C stops any packing with its best layout met",
        in_checkpoint: Some(("iterations", Written::Always)),
        recorded: Written::Always,
        overlay: true,
        ..Spec::BASE
    },
    /// Wall-time seconds the packing may take (`--pack-seconds`; 0: no bound, the moves of
    /// `iterations`): the moves that fit are measured on this machine as the packing starts
    /// and take the place of `iterations`, so the set is the same on any machine given
    /// those moves ([`PackSettings::record_moves`]).
    pub seconds: f64 = 0.0 => Spec {
        flag: "pack-seconds",
        value_name: "SECONDS",
        help: "Pack for about SECONDS of wall time instead of a count of moves: the moves \
               that fit are measured on this machine as the packing starts (on a trial of \
               a twentieth of the time, at most 5 s), then made in full; the header records \
               them as --pack-iterations, so the set reruns byte for byte on any machine.",
        what: "a number of seconds",
        bounds: Some((0.0, 1e9)),
        excludes: &["pack-iterations"],
        default_shown: false,
        in_state: Written::UnlessDefault,
        recorded: Written::Never,
        overlay: true,
        ..Spec::BASE
    },
    /// Let ranges start before the table wherever every index stays at 0 or above
    /// (`--negative-offsets`; the runtime's `black` backend needs offsets from 0).
    pub negative_offsets: bool = false => Spec {
        flag: "negative-offsets",
        help: "Let packed ranges start before the table wherever every index stays at 0 or \
               above (a denser magic-gen set; the runtime's `black` backend needs offsets \
               from 0).",
        in_checkpoint: Some(("negative-offsets", Written::Always)),
        ..Spec::BASE
    },
    /// Weight of the mean end of the ranges beside the table length when a move is judged;
    /// 0 judges by length alone (`--pack-spread`, at most [`PackSettings::MAX_SPREAD`]).
    pub spread: f64 = 0.0 => Spec {
        flag: "pack-spread",
        value_name: "WEIGHT",
        help: "Judge each annealing move by the table length plus WEIGHT times the mean end \
               of the ranges (0: length alone), so a move that lowers ranges below the last \
               one counts.",
        bounds: Some((0.0, PackSettings::MAX_SPREAD)),
        in_checkpoint: Some(("spread", Written::Always)),
        ..Spec::BASE
    },
    /// After annealing, give squares shorter-span pool members where the table grows no
    /// longer (`--short-spans`): fewer holes put a square's lookups on fewer cache lines.
    pub short_spans: bool = false => Spec {
        flag: "short-spans",
        help: "After annealing, give each square the pool member with the shortest span \
               (first to last used slot) that keeps the table no longer: fewer holes, fewer \
               cache lines.",
        repack_help: "With --also: after annealing, give each square the magic of its sets' \
                      with the shortest span (first to last used slot) that keeps the table \
                      no longer: fewer cache lines. Refused without --also, where each square \
                      has one magic",
        in_checkpoint: Some(("short-spans", Written::UnlessDefault)),
        ..Spec::BASE
    },
    /// Seeds the annealing (`--pack-seed`).
    pub seed: u64 = 1 => Spec {
        flag: "pack-seed",
        value_name: "SEED",
        help: "Seed of the packing's annealing (default: the scan's --seed for `search` and \
               `merge`, 1 for `pack`). Another seed packs the same pools another way.",
        what: "an unsigned number",
        default_shown: false,
        in_checkpoint: Some(("seed", Written::Always)),
        overlay: true,
        ..Spec::BASE
    },
    /// Packings of the same pools, seeded `seed` to `seed + seeds - 1`, of which the
    /// shortest table is kept, ties to the lowest seed (`--pack-seeds`; at least 1).
    pub seeds: u64 = 1 => Spec {
        flag: "pack-seeds",
        value_name: "N",
        help: "Pack the same pools N times, seeded SEED to SEED+N-1 (SEED: the packing \
               seed), on up to --threads threads, and keep the shortest table (ties: the \
               lowest seed). The result does not depend on the threads; a checkpoint \
               holds every packing.",
        what: "a count of packings",
        bounds: Some((1.0, PackSettings::MAX_SEEDS as f64)),
        in_checkpoint: Some(("seeds", Written::UnlessDefault)),
        compared_first: true,
        overlay: true,
        ..Spec::BASE
    },
    /// Lay the pools out in an overlay table (`--overlay`, variant `black-overlay`, black
    /// magics only): a slot holds the OR of its squares' attacks and a lookup reads it
    /// through the square's attacks on an empty board, so squares share slots where they
    /// agree on the squares both can attack ([`crate::Variant::is_overlay`]). The settings
    /// it reads say so in their declaration; the others are refused with it
    /// ([`PackSettings::check`]).
    pub overlay: bool = false => Spec {
        flag: "overlay",
        help: "Pack into an overlay table (variant black-overlay): a slot holds the OR of \
               its squares' attacks and a lookup masks it with the square's attacks on an \
               empty board, so squares share slots where they agree on the squares both \
               can attack. Black magics (and fancy ones for `pack`: variant fancy-overlay); \
               --pack-iterations or --pack-seconds bounds a local search after the greedy \
               layout (seeded --pack-seed): some hundred moves a second over one magic a \
               square, a few over a hunt's pools.",
        in_state: Written::UnlessDefault,
        in_checkpoint: Some(("overlay", Written::UnlessDefault)),
        overlay: true,
        ..Spec::BASE
    },
    /// With an overlay of black magics (`--exact-bishops`, variant `black-rook-overlay`):
    /// a bishop shares a slot only with users that want there what it wants, so its lookup
    /// reads the slot as it is, without the rays ([`Variant::reads_through`]).
    pub exact_bishops: bool = false => Spec {
        flag: "exact-bishops",
        help: "With --overlay of black magics: a bishop shares a slot only with users that \
               want there what it wants, so its lookup reads the slot without the rays' AND \
               (variant black-rook-overlay, which the black_overlay backend builds from): \
               bishop and queen lookups as fast as black's or nearly, for a table a few \
               percent longer.",
        in_state: Written::UnlessDefault,
        in_checkpoint: Some(("exact-bishops", Written::UnlessDefault)),
        overlay: true,
        ..Spec::BASE
    },
    /// Start from the layout of the set being packed again, not from the greedy pass, and
    /// anneal it cool so that its structure is kept (`magic-gen pack --from-input`): the
    /// squares in an order whose first fits give that layout where one does. Only a
    /// packing given a layout ([`crate::hunt::Hunt::repack`]) has one to start from; a search's
    /// packing starts from the greedy pass whatever this says.
    pub from_input: bool = false => Spec {
        flag: "from-input",
        help: "Start from the set's own layout, not from the greedy pass: its squares in an \
               order whose first fits give that layout (where one does), annealed from a low \
               temperature so that its structure is kept. For a set packed well already, \
               such as a record or a published set.",
        commands: Commands::Repack,
        in_state: Written::Never,
        in_checkpoint: Some(("from-input", Written::UnlessDefault)),
        recorded: Written::Never,
        ..Spec::BASE
    },
}
}

impl PackSettings {
    /// The annealing moves `magic-gen pack` makes unless given `--pack-iterations`: enough
    /// to shorten the published 87,988-entry black set (to 87,925 entries) in well under a
    /// minute of one core (measured in docs/results/hunts.md, "Published sets repacked"). A
    /// count, so the table is the same on any machine.
    pub const REPACK_MOVES: u64 = 30_000;

    /// The largest spread the packer takes.
    pub const MAX_SPREAD: f64 = 1000.0;

    /// Returns true if `spread` is one the packer takes: a number in 0..=[`Self::MAX_SPREAD`].
    pub fn valid_spread(spread: f64) -> bool {
        (0.0..=Self::MAX_SPREAD).contains(&spread)
    }

    /// The most annealing moves a packing takes: about 100 days of one packing at the
    /// fastest rate measured (about 11,800 moves a second, docs/results/search-speed.md),
    /// 20,000 times the black record's 5,000,000. A count beyond it would not finish in any
    /// run one waits for (and its time left would be years): Ctrl-C, which keeps the best
    /// layout met, is the way to pack "until stopped".
    pub const MAX_ITERATIONS: u64 = 100_000_000_000;

    /// Returns true if a packing takes `iterations` moves: 0..=[`Self::MAX_ITERATIONS`].
    pub fn valid_iterations(iterations: u64) -> bool {
        iterations <= Self::MAX_ITERATIONS
    }

    /// The most packings one run makes at once.
    pub const MAX_SEEDS: u64 = 1024;

    /// Returns true if the packer makes `seeds` packings at once: 1..=[`Self::MAX_SEEDS`].
    pub fn valid_seeds(seeds: u64) -> bool {
        (1..=Self::MAX_SEEDS).contains(&seeds)
    }

    /// Returns the settings of packing `i` of the run (0-based): these, seeded `seed + i`.
    pub(crate) fn seeded(&self, i: u64) -> PackSettings {
        PackSettings {
            seed: self.seed.wrapping_add(i),
            ..*self
        }
    }
}

impl PackSettings {
    /// Returns the variant an overlay packing of `variant`'s magics makes (black-overlay,
    /// black-rook-overlay with exact bishops, or fancy-overlay), or refuses it: a variant
    /// whose index no overlay reads, or a setting only the exact packing reads given a
    /// value other than its default, which would do nothing. Settings of an exact packing
    /// return `variant` as it is, unless they ask for exact bishops.
    pub fn check(&self, variant: Variant) -> Result<Variant, String> {
        if !self.overlay {
            return match self.exact_bishops {
                true => Err(
                    "--exact-bishops lays out an overlay table's bishops: give it \
                             with --overlay"
                        .into(),
                ),
                false => Ok(variant),
            };
        }
        let Some(overlay) = variant.overlaid() else {
            return Err(format!(
                "an overlay table is packed from black or fancy magics; a {variant} set's \
                 occupancies index otherwise"
            ));
        };
        let exact = Self::ALL.iter().filter(|s| !s.spec.overlay);
        if let Some(s) = exact.into_iter().find(|s| !s.is_default(self)) {
            return Err(Self::not_overlay(&format!("--{}", s.spec.flag)));
        }
        match (overlay, self.exact_bishops) {
            (Variant::BlackOverlay, true) => Ok(Variant::BlackRookOverlay),
            (_, true) => Err(format!(
                "--exact-bishops lays out black magics; a {variant} set's overlay reads every \
                 square through its rays"
            )),
            (overlay, false) => Ok(overlay),
        }
    }

    /// Returns the refusal of `flag`, an option of the exact packing alone, with an overlay
    /// packing: what the overlay packing reads instead, from the declaration.
    pub(crate) fn not_overlay(flag: &str) -> String {
        let read = Self::ALL
            .iter()
            .filter(|s| s.spec.overlay && s.spec.flag != "overlay")
            .map(|s| format!("--{}", s.spec.flag));
        format!(
            "{flag} is an option of the exact packing; --overlay lays its table out from its \
             own moves alone ({}, --also)",
            read.collect::<Vec<_>>().join(", ")
        )
    }

    /// Returns these settings with the moves of a packing bounded by time fixed at
    /// `iterations`: no time bound left, so that a checkpoint, a resume and the recorded
    /// command carry the moves alone.
    pub(crate) fn with_moves(&self, iterations: u64) -> PackSettings {
        PackSettings {
            iterations,
            seconds: 0.0,
            ..*self
        }
    }

    /// Records in each of `steps` that packs for a time (`--pack-seconds`) the moves its
    /// packing made of it instead (`--pack-iterations MOVES`, in its place), so that the
    /// commands rerun the same set on any machine. `moves`: the packing's, as its
    /// checkpoint holds them.
    pub fn record_moves(steps: &mut [Step], moves: u64) {
        let (seconds, iterations) = ("--pack-seconds", "--pack-iterations");
        for step in steps.iter_mut().filter(|s| s.has(seconds)) {
            let args = step.args().to_vec();
            let mut timed = Step::new(&args[0]);
            for pair in args[1..].chunk_by(|_, b| !b.starts_with("--")) {
                match pair[0].as_str() {
                    w if w == seconds => {
                        timed.push(iterations);
                        timed.push(moves.to_string());
                    }
                    w if w == iterations => {}
                    _ => pair.iter().for_each(|w| timed.push(w.clone())),
                }
            }
            *step = timed;
        }
    }
}
