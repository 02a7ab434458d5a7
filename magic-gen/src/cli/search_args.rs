//! The arguments of `magic-gen search`, what a run takes from them (the options of a fresh
//! search, with the preset's or the variant's defaults where not given; the limits of a
//! resumed one, with its state's finish where not given), and the refusal of options that
//! would do nothing in the mode chosen (the command it records: `search_record.rs`). The
//! defaults and the refusals themselves live in the library: `crate::hunt::fresh::Asked`,
//! `Options::for_variant` and `crate::hunt::Preset`.

use std::path::PathBuf;

use crate::hunt::cut::Keeps;
use crate::hunt::fresh::Asked;
use crate::hunt::refusal::Refusal;
use crate::hunt::Preset;
use crate::pack::PackSettings;
use crate::search::{Limits, PolishSettings, Shard};
use crate::{Piece, Variant};
use clap::Args;

use super::args::{
    parse_piece, parse_pool, parse_seconds, parse_seed, parse_shard, parse_square_arg,
    parse_variant, threads_or_all, Given, LONG_RUNS, POOLS,
};
use super::failure::BadArgument;
use super::progress::ProgressArgs;

/// The help heading of the options that ask fewer index bits of some squares.
const FEWER_BITS: &str = "Fewer bits (fancy; black and white per-square shifts)";

/// The help heading of the scan's options.
const SCAN: &str = "Scan: how many candidates (see docs/record-hunts.md)";

/// Parses a preset name.
fn parse_preset(s: &str) -> Result<Preset, String> {
    Preset::parse(s).ok_or_else(|| {
        let names: Vec<String> = Preset::ALL
            .iter()
            .map(|p| format!("{}: the hunt of {}", p.name(), p.file()))
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
    pub polish: Given<PolishSettings>,
    #[command(flatten)]
    pub pack: Given<PackSettings>,
    /// Save the search state here at every checkpoint and at the end (atomically), to
    /// resume with --resume or to merge shards with `magic-gen merge`. Once the scan is
    /// done, the checkpoints hold the packer's progress too.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    pub state: Option<PathBuf>,
    /// Seconds between checkpoints of --state (or of the --resume file), during the scan
    /// and the packing: an interrupted run loses at most this much.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds, allow_negative_numbers = true, help_heading = LONG_RUNS)]
    pub checkpoint: f64,
    #[command(flatten)]
    pub progress: ProgressArgs,
    /// Worker threads (default: all available cores). Does not change the result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Seed of the search's random streams.
    #[arg(long, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Write the set here: Rust source for `.rs`, interchange format for any other name
    /// (`-`: standard output, the messages then going to standard error). Without it
    /// nothing is written.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl SearchArgs {
    /// Returns the fresh search these arguments ask for: its variant, options and
    /// refusals are the library's ([`Asked`]).
    pub fn asked(&self) -> Asked {
        Asked {
            variant: self.variant,
            preset: self.preset,
            piece: self.piece,
            square: self.square,
            bits: self.bits,
            bits_under: self.bits_under,
            also_fixed_shift: self.also_fixed_shift,
            seconds: self.seconds,
            candidates: self.candidates,
            shard: self.shard,
            pool: self.pool,
            sparse_pool: self.sparse_pool,
            patience: self.patience,
            seed: self.seed,
        }
    }

    /// Returns the limits of this run: `polish` and `pack` (the fresh search's, or the
    /// resumed state's) with the finishing options given in their place.
    pub fn limits(
        &self,
        (polish, pack): (PolishSettings, PackSettings),
        variant: Variant,
    ) -> Result<Limits, BadArgument> {
        Ok(Limits {
            threads: threads_or_all(self.threads),
            seconds: self.seconds,
            polish: self.polish.checked(polish, variant)?,
            pack: self.pack.checked(pack, variant)?,
        })
    }

    /// Refuses options given that would do nothing in a search of `variant`
    /// ([`Asked::refuse_no_ops`]), and checkpoints with no file to save.
    pub fn refuse_no_ops(&self, variant: Variant, checkpoint_given: bool) -> Result<(), Refusal> {
        let finishing = self
            .polish
            .first_given()
            .or_else(|| self.pack.first_given());
        self.asked().refuse_no_ops(variant, finishing)?;
        if checkpoint_given && self.state.is_none() && self.resume.is_none() {
            return Err(Refusal::NoFile(Keeps::State));
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::search::{Budget, SearchState};
    use clap::{ArgMatches, FromArgMatches};

    /// Parses `magic-gen search ARGS...` with clap.
    pub fn matches(args: &[&str]) -> ArgMatches {
        SearchArgs::augment_args(clap::Command::new("search"))
            .try_get_matches_from([&["search"][..], args].concat())
            .unwrap()
    }

    /// Parses `magic-gen search ARGS...`.
    pub fn parse(args: &[&str]) -> SearchArgs {
        SearchArgs::from_arg_matches(&matches(args)).unwrap()
    }

    #[test]
    fn a_resumed_search_finishes_with_its_state_unless_told_otherwise() {
        let mut options = Preset::Record.options();
        options.scan.budget = Budget::Candidates(64);
        let state = SearchState::new(&options).unwrap();
        let limits = parse(&["--resume", "s.state"])
            .limits((state.polish, state.pack), Variant::Black)
            .unwrap();
        assert_eq!((limits.polish, limits.pack), (state.polish, state.pack));
        assert_eq!(limits.polish.polish, 100_000);
        let limits = parse(&["--resume", "s.state", "--polish", "5"])
            .limits((state.polish, state.pack), Variant::Black)
            .unwrap();
        assert_eq!(
            (limits.polish.polish, limits.pack.iterations),
            (5, 5_000_000)
        );
    }

    #[test]
    fn options_that_do_nothing_in_the_mode_chosen_are_refused() {
        let refused = |args: &[&str]| {
            let parsed = parse(args);
            let variant = parsed.asked().variant(None);
            let checkpoint = args.contains(&"--checkpoint");
            parsed
                .refuse_no_ops(variant, checkpoint)
                .err()
                .map(|e| e.to_string())
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
            &["--clump", "5"],
            &["--pack-iterations", "5"],
            &["--negative-offsets"],
            &["--pack-spread", "0.1"],
            &["--short-spans"],
            &["--pack-seed", "2"],
            &["--pack-seeds", "2"],
        ] {
            let args = [&["--variant", "plain"][..], option].concat();
            let why = refused(&args).unwrap_or_else(|| panic!("{args:?}"));
            assert!(why.starts_with(option[0]), "{why}");
        }
        let why = refused(&["--checkpoint", "5"]).unwrap();
        assert!(why.contains("give --state FILE"), "{why}");
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
