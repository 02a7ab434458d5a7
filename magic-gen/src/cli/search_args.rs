//! The arguments of `magic-gen search`, and what a run takes from them beyond their values:
//! the defaults of a fixed-shift search, the named presets, and the refusal of options that
//! would do nothing in the mode chosen.

use std::path::PathBuf;

use clap::{ArgMatches, Args, FromArgMatches};
use magic_gen::search::state::{Scan, Shard};
use magic_gen::{Piece, Variant};

use super::args::{
    parse_piece, parse_pool, parse_seconds, parse_seed, parse_shard, parse_square_arg,
    parse_variant, PackArgs, PolishArgs, LONG_RUNS, POLISH_AND_PACKING, POOLS,
};
use super::output::{given, recorded_command, with_implied};
use super::progress::ProgressArgs;

/// The arguments that never change the set, left out of the recorded command: how many
/// threads, how often and where the state is saved, and the preset (its options are
/// recorded one by one instead). (`--resume` is recorded, but only after the command that
/// started the state.)
pub const UNRECORDED: [&str; 5] = ["threads", "checkpoint", "state", "preset", "progress_every"];

/// The arguments the recorded command spells out even at their default values, so the
/// command says what was searched without knowing the defaults.
const ALWAYS: [&str; 2] = ["variant", "seed"];

/// The help heading of the options that ask fewer index bits of some squares.
const FEWER_BITS: &str = "Fewer bits (fancy; black and white per-square shifts)";

/// The help heading of the scan's options.
const SCAN: &str = "Scan: how many candidates (see docs/record-hunts.md)";

/// What a fresh black or white search is given for each of these scan options it is not
/// given: with [`FINISH_DEFAULTS`], a table of at most 100,000 entries in under a minute on
/// two cores (the figures, and the command that measured them, are in
/// docs/record-hunts.md). Fancy and plain have no such defaults: their first valid magic
/// per square is the whole search.
pub const SCAN_DEFAULTS: [(&str, &str); 3] = [
    ("candidates", "8388608"),
    ("pool", "8"),
    ("sparse_pool", "8"),
];

/// What every command that finishes a black or white set (a search, fresh or resumed, and a
/// merge) is given for each of these options it is not given, so that merging the shards
/// of a search, or resuming it, packs as the one run did.
pub const FINISH_DEFAULTS: [(&str, &str); 2] = [("polish", "10000"), ("pack_iterations", "30000")];

/// A named recipe: `--preset NAME` gives each of its options that the command line does not.
#[derive(Debug)]
pub struct Preset {
    /// The name `--preset` takes.
    pub name: &'static str,
    /// The committed set whose header's command it spells out (without `--out`).
    pub file: &'static str,
    /// Its options, by argument id, with their values (`true` for a flag).
    pub options: &'static [(&'static str, &'static str)],
}

/// The record hunts of the committed sets, by name.
pub const PRESETS: [Preset; 3] = [
    Preset {
        name: "record",
        file: "magics/black.rs",
        options: &[
            ("variant", "black"),
            ("candidates", "33554432"),
            ("pool", "32"),
            ("sparse_pool", "16"),
            ("patience", "0"),
            ("polish", "100000"),
            ("pack_iterations", "5000000"),
            ("short_spans", "true"),
            ("seed", "1"),
        ],
    },
    Preset {
        name: "record-per-square",
        file: "magics/records/black-per-square.rs",
        options: &[
            ("variant", "black"),
            ("bits_under", "0"),
            ("also_fixed_shift", "true"),
            ("candidates", "33554432"),
            ("pool", "32"),
            ("sparse_pool", "16"),
            ("patience", "0"),
            ("polish", "100000"),
            ("pack_iterations", "5000000"),
            ("negative_offsets", "true"),
            ("seed", "1"),
        ],
    },
    Preset {
        name: "record-white",
        file: "magics/records/white.rs",
        options: &[
            ("variant", "white"),
            ("candidates", "67108864"),
            ("pool", "32"),
            ("sparse_pool", "16"),
            ("patience", "0"),
            ("polish", "100000"),
            ("clump", "30000"),
            ("pack_iterations", "3000000"),
            ("pack_spread", "0.03"),
            ("short_spans", "true"),
            ("pack_seed", "1"),
            ("seed", "2"),
        ],
    },
];

/// Parses a preset name.
fn parse_preset(s: &str) -> Result<&'static Preset, String> {
    PRESETS.iter().find(|p| p.name == s).ok_or_else(|| {
        let names: Vec<String> = PRESETS
            .iter()
            .map(|p| format!("{}: the hunt of {}", p.name, p.file))
            .collect();
        format!("unknown preset '{s}' ({})", names.join("; "))
    })
}

/// Arguments of `search`. `--help` shows the basic ones first, then the hunt's under a
/// heading per stage; the recorded command keeps this order, which committed headers use.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Continue the search saved in this state file with its own scan settings (and keep
    /// saving to it unless --state names another file); with --candidates, raise its
    /// budget. A state saved while packing goes on with the packing where it stopped,
    /// given the same packing options, and ends with the set of an uninterrupted run.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS, conflicts_with_all = ["piece", "square", "bits", "bits_under", "also_fixed_shift", "shard", "pool", "sparse_pool", "patience", "seed", "variant", "preset"])]
    pub resume: Option<PathBuf>,
    /// Index variant: fancy (bits per square), plain (12/9 bits, one array per square),
    /// black (fixed shift, `occ | !mask`, ranges packed into one table) or white (fixed
    /// shift, `occ & mask`, ranges packed). Black and white take, unless given,
    /// --candidates 8388608 (not with --seconds), --pool 8, --sparse-pool 8, --polish 10000
    /// and --pack-iterations 30000: a table within 15% of the record in about a minute
    /// (docs/record-hunts.md). A resumed search polishes and anneals only as told
    /// (default 0).
    #[arg(long, default_value = "fancy", value_parser = parse_variant)]
    pub variant: Variant,
    /// A committed set's hunt, each of its options unless given: `record` (magics/black.rs),
    /// `record-per-square` (magics/records/black-per-square.rs) or `record-white`
    /// (magics/records/white.rs); docs/results/hunts.md has their times. The header records
    /// the options, not the name.
    #[arg(long, value_name = "NAME", value_parser = parse_preset)]
    pub preset: Option<&'static Preset>,
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
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, help_heading = SCAN)]
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
    #[arg(long, value_name = "N", default_value_t = Scan::DEFAULT_POOL, value_parser = parse_pool, help_heading = POOLS)]
    pub pool: usize,
    /// Black and white: magics each square keeps besides --pool, the sparsest of the rest
    /// (black: fewest used slots, a hole in the span costing a tenth of one; white: fewest
    /// blocked slots, the used ones and the holes under 16 entries between them). Their
    /// long spans rank them out of the pool, but other squares fill their holes.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=4096), help_heading = POOLS)]
    pub sparse_pool: u16,
    /// Black and white: climb every valid candidate found during the scan to a lower pack
    /// cost until MOVES moves (changes of one to three bits) in a row bring no improvement
    /// (0: keep magics as found; --polish of the pools after the scan costs far less).
    #[arg(long, value_name = "MOVES", default_value_t = 0, help_heading = SCAN)]
    pub patience: u32,
    #[command(flatten)]
    pub polish: PolishArgs,
    #[command(flatten)]
    pub pack: PackArgs,
    /// Save the search state here at every checkpoint and at the end (atomically), to
    /// resume with --resume or to merge shards with `magic-gen merge`. Once the scan is
    /// done, the checkpoints hold the packer's progress too.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    pub state: Option<PathBuf>,
    /// Seconds between checkpoints of --state (or of the --resume file), during the scan
    /// and the packing: an interrupted run loses at most this much.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds, help_heading = LONG_RUNS)]
    pub checkpoint: f64,
    #[command(flatten)]
    pub progress: ProgressArgs,
    /// Worker threads (default: all available cores). Does not change the result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Seed of the search's random streams.
    #[arg(long, default_value_t = Scan::DEFAULT_SEED, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Write the set here: Rust source for `.rs`, interchange format for any other name
    /// (`-`: standard output, the messages then going to standard error). Without it
    /// nothing is written.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Returns the command `search` parses with.
fn command() -> clap::Command {
    SearchArgs::augment_args(clap::Command::new("search"))
}

/// Returns the [`FINISH_DEFAULTS`] a run finishing a set of `variant` takes: those its
/// command line does not give, none for fancy and plain.
pub fn finish_defaults(
    variant: Variant,
    matches: &ArgMatches,
) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    FINISH_DEFAULTS
        .into_iter()
        .filter(move |&(id, _)| variant.is_packed() && !given(matches, id))
}

/// Returns the arguments with the preset's options and the fixed-shift defaults filled in
/// where the command line does not give them, parsed again as if given, so that they are
/// checked and recorded as the options they stand for. `resumed` is the variant of the
/// state resumed, if one is.
pub fn expand(
    args: SearchArgs,
    matches: &ArgMatches,
    resumed: Option<Variant>,
) -> Result<(SearchArgs, ArgMatches), String> {
    let mut implied: Vec<(&str, &str)> = Vec::new();
    if let Some(preset) = args.preset {
        implied.extend(preset.options.iter().filter(|(id, _)| !given(matches, id)));
    }
    let preset_variant = implied
        .iter()
        .find(|&&(id, _)| id == "variant")
        .and_then(|&(_, v)| Variant::parse(v));
    let variant = resumed.or(preset_variant).unwrap_or(args.variant);
    // A resumed state keeps its scan's settings, and takes the shaping and packing given,
    // as a merge does: the finishing command an unfinished set records spells them out.
    if variant.is_packed() && resumed.is_none() {
        let time_budget = given(matches, "seconds");
        for &(id, value) in &SCAN_DEFAULTS {
            // A time budget without a count scans until the time is up, as asked.
            let skip = (id == "candidates" && time_budget)
                || given(matches, id)
                || implied.iter().any(|&(i, _)| i == id);
            if !skip {
                implied.push((id, value));
            }
        }
    }
    for (id, value) in finish_defaults(variant, matches) {
        if !implied.iter().any(|&(i, _)| i == id) {
            implied.push((id, value));
        }
    }
    if implied.is_empty() {
        return Ok((args, matches.clone()));
    }
    let matches = with_implied(&command(), matches, &implied)?;
    let args = SearchArgs::from_arg_matches(&matches).map_err(|e| e.to_string())?;
    Ok((args, matches))
}

/// Refuses options given on the command line that would do nothing in this search, saying
/// why: pools, climbs and packing for fancy and plain (which keep the first valid magic of
/// each square in a layout of their own), and checkpoints with no file to save.
pub fn refuse_no_ops(
    args: &SearchArgs,
    matches: &ArgMatches,
    variant: Variant,
) -> Result<(), String> {
    if !variant.is_packed() {
        const SCAN_ONLY: [&str; 3] = ["pool", "sparse_pool", "patience"];
        let packed_only = SCAN_ONLY.iter().chain(&POLISH_AND_PACKING);
        if let Some(id) = packed_only.into_iter().find(|id| given(matches, id)) {
            return Err(format!(
                "--{} does nothing in a {variant} search: {variant} keeps the first valid magic \
                 of each square and lays its ranges out by their bits; pools, climbs and \
                 packing are for black and white",
                id.replace('_', "-")
            ));
        }
    }
    if given(matches, "checkpoint") && args.state.is_none() && args.resume.is_none() {
        return Err(
            "--checkpoint says how often the state file is saved: give --state FILE (or \
             --resume FILE), or leave it out"
                .into(),
        );
    }
    Ok(())
}

/// Returns the command that reproduces this run, normalised: program name `magic-gen`,
/// variant and seed always spelled out, the options that never change the result left out.
/// A resumed run records only what it was given (the state holds the rest).
pub fn recorded(args: &SearchArgs, matches: &ArgMatches) -> String {
    let always: &[&str] = if args.resume.is_some() { &[] } else { &ALWAYS };
    recorded_command(&command(), matches, &UNRECORDED, always)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Parses `magic-gen search ARGS...`, fills in a preset and the defaults as a fresh
    /// search does, and returns the recorded command.
    fn record(args: &[&str]) -> String {
        let (parsed, matches) = parse(args);
        let (parsed, matches) = expand(parsed, &matches, None).unwrap();
        recorded(&parsed, &matches)
    }

    /// Parses `magic-gen search ARGS...`.
    fn parse(args: &[&str]) -> (SearchArgs, ArgMatches) {
        let matches = command()
            .try_get_matches_from([&["search"][..], args].concat())
            .unwrap();
        (SearchArgs::from_arg_matches(&matches).unwrap(), matches)
    }

    #[test]
    fn the_recorded_command_holds_every_option_that_shapes_the_set() {
        let given = [
            "--variant",
            "fancy",
            "--piece",
            "bishop",
            "--square",
            "b1",
            "--bits-under",
            "1",
            "--also-fixed-shift",
            "--seconds",
            "2",
            "--candidates",
            "4096",
            "--shard",
            "1/3",
            "--pool",
            "3",
            "--sparse-pool",
            "2",
            "--patience",
            "7",
            "--polish",
            "5",
            "--clump",
            "6",
            "--pack-iterations",
            "1",
            "--negative-offsets",
            "--pack-spread",
            "0.03",
            "--short-spans",
            "--pack-seed",
            "4",
            "--pack-seeds",
            "3",
            "--state",
            "s.state",
            "--checkpoint",
            "5",
            "--threads",
            "2",
            "--seed",
            "9",
            "--out",
            "a b.rs",
        ];
        let line = record(&given);
        assert_eq!(
            line,
            "magic-gen search --variant fancy --piece bishop --square b1 --bits-under 1 \
             --also-fixed-shift --seconds 2 --candidates 4096 --shard 1/3 --pool 3 --sparse-pool 2 --patience 7 --polish 5 --clump 6 \
             --pack-iterations 1 --negative-offsets --pack-spread 0.03 --short-spans --pack-seed 4 --pack-seeds 3 --seed 9 --out 'a b.rs'"
        );
        // Derived, not listed: every option but the unrecorded ones and --resume (which
        // conflicts with them) appears, so a new option cannot drop out unnoticed.
        for arg in command().get_arguments() {
            let id = arg.get_id().as_str();
            if !UNRECORDED.contains(&id) && id != "resume" && id != "bits" {
                let long = format!("--{}", arg.get_long().unwrap());
                assert!(line.contains(&long), "{long} missing from {line}");
            }
        }
    }

    #[test]
    fn options_not_given_are_left_out_but_variant_and_seed() {
        assert_eq!(record(&[]), "magic-gen search --variant fancy --seed 1");
        // Given at their defaults they are kept: a header's command then gives the same
        // header again after a default changes (as --patience's did, from 1000 to 0).
        let at_defaults = record(&["--pool", "16", "--patience", "0", "--threads", "1"]);
        assert_eq!(
            at_defaults,
            "magic-gen search --variant fancy --pool 16 --patience 0 --seed 1"
        );
        assert_eq!(
            record(&["--resume", "x.state", "--seconds", "0", "--out", "o.rs"]),
            "magic-gen search --resume x.state --seconds 0 --out o.rs"
        );
    }

    #[test]
    fn a_fixed_shift_search_records_the_defaults_it_was_given() {
        // Spelled out, so the header's command gives the same set whatever the defaults
        // become; fancy and plain take none.
        assert_eq!(
            record(&["--variant", "black"]),
            "magic-gen search --variant black --candidates 8388608 --pool 8 --sparse-pool 8 \
             --polish 10000 --pack-iterations 30000 --seed 1"
        );
        // What is given wins; a time budget without a count stays one.
        assert_eq!(
            record(&["--variant", "white", "--pool", "3", "--seconds", "5"]),
            "magic-gen search --variant white --seconds 5 --pool 3 --sparse-pool 8 \
             --polish 10000 --pack-iterations 30000 --seed 1"
        );
        assert_eq!(
            record(&["--variant", "plain"]),
            "magic-gen search --variant plain --seed 1"
        );
        // A resumed state keeps its scan settings, and finishes as a fresh search does:
        // the finishing defaults unless given.
        let resume = |args: &[&str], variant| {
            let (parsed, matches) = parse(args);
            let (parsed, matches) = expand(parsed, &matches, Some(variant)).unwrap();
            recorded(&parsed, &matches)
        };
        assert_eq!(
            resume(&["--resume", "s.state", "--polish", "5"], Variant::White),
            "magic-gen search --resume s.state --polish 5 --pack-iterations 30000"
        );
        assert_eq!(
            resume(&["--resume", "s.state", "--out", "o.rs"], Variant::Fancy),
            "magic-gen search --resume s.state --out o.rs"
        );
    }

    #[test]
    fn each_preset_records_the_command_of_the_set_it_names() {
        for preset in &PRESETS {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(preset.file);
            let (_, provenance) = magic_gen::read_set_file(&path).unwrap();
            let header = provenance.command.unwrap();
            let out = format!("--out {}", preset.file);
            let line = record(&["--preset", preset.name, "--out", preset.file]);
            assert_eq!(line, header, "{} ({out})", preset.name);
            // Options given override the preset's.
            let line = record(&["--preset", preset.name, "--candidates", "4096"]);
            assert!(line.contains("--candidates 4096 "), "{line}");
            assert_eq!(line.matches("--candidates").count(), 1, "{line}");
        }
    }

    #[test]
    fn options_that_do_nothing_in_the_mode_chosen_are_refused() {
        let refused = |args: &[&str]| {
            let (parsed, matches) = parse(args);
            let (parsed, matches) = expand(parsed, &matches, None).unwrap();
            refuse_no_ops(&parsed, &matches, parsed.variant).err()
        };
        let why = refused(&["--variant", "fancy", "--pool", "4"]).unwrap();
        assert!(
            why.starts_with("--pool does nothing in a fancy search"),
            "{why}"
        );
        for option in [
            &["--sparse-pool", "2"][..],
            &["--patience", "5"],
            &["--polish", "5"],
            &["--pack-iterations", "5"],
            &["--negative-offsets"],
            &["--pack-spread", "0.1"],
            &["--short-spans"],
            &["--pack-seed", "2"],
            &["--pack-seeds", "2"],
        ] {
            let args = [&["--variant", "plain"][..], option].concat();
            assert!(refused(&args).is_some(), "{args:?}");
        }
        let why = refused(&["--checkpoint", "5"]).unwrap();
        assert!(why.contains("give --state FILE"), "{why}");
        // The same options where they act, and --seconds with --candidates, which stops
        // the scan at whichever comes first.
        for args in [
            &["--variant", "black", "--pool", "4"][..],
            &["--preset", "record", "--pool", "4"],
            &["--checkpoint", "5", "--state", "s.state"],
            &[
                "--variant",
                "black",
                "--seconds",
                "5",
                "--candidates",
                "4096",
            ],
        ] {
            assert_eq!(refused(args), None, "{args:?}");
        }
    }
}
