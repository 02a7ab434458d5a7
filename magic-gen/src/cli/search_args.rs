//! The arguments of `magic-gen search`: the search asked for (its options, defaults and
//! refusals are the library's, `crate::hunt::fresh::Asked`) and the files a run reads and
//! keeps (the command it records: `search_record.rs`).

use std::path::PathBuf;

use crate::hunt::args::{parse_seconds, LONG_RUNS};
use crate::hunt::cut::Keeps;
use crate::hunt::fresh::Asked;
use crate::hunt::refusal::Refusal;
use crate::Variant;
use clap::Args;

use super::progress::ProgressArgs;

/// Arguments of `search`: the options of the search asked for, between the file it
/// resumes and those it keeps.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Continue the search saved in this state file with its own scan settings (and keep
    /// saving to it unless --state names another file); with --candidates, raise its
    /// budget. A state saved while packing goes on with the packing where it stopped,
    /// given the same packing options, and ends with the set of an uninterrupted run.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS, conflicts_with_all = ["piece", "square", "bits", "bits_under", "also_fixed_shift", "shard", "pool", "sparse_pool", "patience", "seed", "variant", "preset"])]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub asked: Asked,
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
    /// Write the set here: Rust source for `.rs`, interchange format for any other name
    /// (`-`: standard output, the messages then going to standard error). Without it
    /// nothing is written.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl SearchArgs {
    /// Refuses options given that would do nothing in a search of `variant`
    /// ([`Asked::refuse_no_ops`]), and checkpoints with no file to save.
    pub fn refuse_no_ops(&self, variant: Variant, checkpoint_given: bool) -> Result<(), Refusal> {
        self.asked.refuse_no_ops(variant)?;
        if checkpoint_given && self.state.is_none() && self.resume.is_none() {
            return Err(Refusal::NoFile(Keeps::State));
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::hunt::Preset;
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
            .asked
            .limits((state.polish, state.pack), Variant::Black)
            .unwrap();
        assert_eq!((limits.polish, limits.pack), (state.polish, state.pack));
        assert_eq!(limits.polish.polish, 100_000);
        let limits = parse(&["--resume", "s.state", "--polish", "5"])
            .asked
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
            let variant = parsed.asked.variant(None);
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
