//! The command a run of `magic-gen search` records in its set's header and its state:
//! derived from clap's parsed arguments by [`recorded_command`], as every command's is,
//! with the options a fresh search ran with spelled out (the preset's and the defaults,
//! as the library's `Options::spelled_out` says), and the command that finishes an
//! interrupted run.

use std::path::Path;

use crate::search::Options;
use crate::set_file::Step;
use clap::{ArgMatches, Args};

use super::failure::BadArgument;
use super::output::{recorded_command, show};
use super::search_args::SearchArgs;

impl SearchArgs {
    /// Returns the options of a fresh search ([`crate::hunt::fresh::Asked::options`]), with
    /// the command that reproduces it, recorded from `matches`, this run's arguments as
    /// parsed.
    pub fn recorded_options(&self, matches: &ArgMatches) -> Result<Options, BadArgument> {
        let mut options = self.asked.options()?;
        options.command = recorded(matches, Some(&options)).to_string();
        Ok(options)
    }

    /// Returns the command that finishes an unfinished run of this search (`matches`: its
    /// arguments as parsed) whose state is saved in `state`: this resume with `state` in
    /// place of the file it read, or for a fresh search `--resume` alone, its state
    /// recording how it finishes; each writing to this run's --out.
    pub fn finishing_command(&self, state: &Path, matches: &ArgMatches) -> Step {
        if self.resume.is_some() {
            let mut step = recorded(matches, None);
            step.set_value("--resume", show(state));
            return step;
        }
        let mut step = Step::new("search");
        step.push("--resume");
        step.push(show(state));
        if let Some(out) = &self.out {
            step.push("--out");
            step.push(show(out));
        }
        step
    }
}

/// The arguments that never change the set, left out of the recorded command: the preset
/// (its options are recorded as if given, not its name), the state file and how often it
/// is saved, the progress display and the threads.
const UNRECORDED: [&str; 5] = ["preset", "state", "checkpoint", "progress_every", "threads"];

/// Returns the command that reproduces a run of `search` given `matches`
/// ([`recorded_command`]): what was given but what never changes the set, and for a fresh
/// search of `fresh` the options it ran with ([`Options::spelled_out`]), the preset's as if
/// given. A resume records what was given beside --resume: its state holds the rest.
pub fn recorded(matches: &ArgMatches, fresh: Option<&Options>) -> Step {
    let command = SearchArgs::augment_args(clap::Command::new("search"));
    let implied = fresh.map_or_else(Vec::new, Options::spelled_out);
    recorded_command(&command, matches, &UNRECORDED, &implied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::search_args::tests::{matches, parse};
    use crate::hunt::Preset;
    use clap::FromArgMatches;

    /// Returns the command a fresh search of `magic-gen search ARGS...` records.
    fn record(args: &[&str]) -> String {
        let matches = matches(args);
        let parsed = SearchArgs::from_arg_matches(&matches).unwrap();
        parsed.recorded_options(&matches).unwrap().command
    }

    #[test]
    fn the_recorded_command_holds_every_option_that_shapes_the_set() {
        let given = [
            "--variant",
            "black",
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
        assert_eq!(
            record(&given),
            "magic-gen search --variant black --piece bishop --square b1 --bits-under 1 \
             --also-fixed-shift --seconds 2 --candidates 4096 --shard 1/3 --pool 3 --sparse-pool 2 \
             --patience 7 --polish 5 --pack-iterations 1 --negative-offsets --pack-spread 0.03 \
             --short-spans --pack-seed 4 --pack-seeds 3 --seed 9 --out 'a b.rs'"
        );
        let white = record(&["--variant", "white", "--clump", "6"]);
        assert!(white.contains(" --polish 10000 --clump 6 "), "{white}");
    }

    #[test]
    fn fancy_and_plain_record_what_shapes_them_and_resumes_what_was_given() {
        assert_eq!(record(&[]), "magic-gen search --variant fancy --seed 1");
        assert_eq!(
            record(&["--variant", "plain", "--threads", "1"]),
            "magic-gen search --variant plain --seed 1"
        );
        let args = [
            "--resume",
            "x.state",
            "--seconds",
            "0",
            "--state",
            "y.state",
        ];
        let resumed = matches(&[&args[..], &["--threads", "2", "--out", "o.rs"]].concat());
        assert_eq!(
            recorded(&resumed, None).to_string(),
            "magic-gen search --resume x.state --seconds 0 --out o.rs"
        );
        // Finished from the state it saved, with what it was given.
        let finish = parse(&args).finishing_command(Path::new("y.state"), &resumed);
        assert_eq!(
            finish.to_string(),
            "magic-gen search --resume y.state --seconds 0 --out o.rs"
        );
        let fresh = ["--variant", "black", "--polish", "5", "--out", "a b.rs"];
        let finish = parse(&fresh).finishing_command(Path::new("s.state"), &matches(&fresh));
        assert_eq!(
            finish.to_string(),
            "magic-gen search --resume s.state --out 'a b.rs'"
        );
    }

    #[test]
    fn a_fixed_shift_search_records_the_defaults_it_runs_with() {
        // Spelled out, so the header's command gives the same set whatever the defaults
        // become; fancy and plain take none.
        assert_eq!(
            record(&["--variant", "black"]),
            "magic-gen search --variant black --candidates 4194304 --pool 8 --sparse-pool 8 \
             --patience 0 --polish 10000 --pack-iterations 60000 --seed 1"
        );
        // What is given wins; a time budget without a count stays one.
        assert_eq!(
            record(&[
                "--variant",
                "white",
                "--pool",
                "3",
                "--seconds",
                "5",
                "--seed",
                "4"
            ]),
            "magic-gen search --variant white --seconds 5 --pool 3 --sparse-pool 8 \
             --patience 0 --polish 10000 --pack-iterations 60000 --seed 4"
        );
    }

    #[test]
    fn each_preset_records_the_command_of_the_set_it_names() {
        for preset in Preset::ALL {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(preset.file());
            let (_, provenance, _) = crate::read_set_file(&path).unwrap();
            // The hunt comes first; a record packed again after it says so in a later step.
            let hunt = provenance.steps[0].to_string();
            let line = record(&["--preset", preset.name(), "--out", preset.file()]);
            assert_eq!(line, hunt, "{}", preset.name());
            // Options given override the preset's.
            let line = record(&["--preset", preset.name(), "--candidates", "4096"]);
            assert!(line.contains("--candidates 4096 "), "{line}");
            assert_eq!(line.matches("--candidates").count(), 1, "{line}");
        }
    }

    #[test]
    fn every_committed_search_records_its_own_command() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let folders = ["magics", "magics/records", "magic-gen/tests/data"];
        let mut checked = 0;
        for folder in folders {
            for file in std::fs::read_dir(root.join(folder)).unwrap() {
                let path = file.unwrap().path();
                let Ok((_, provenance, _)) = crate::read_set_file(&path) else {
                    continue;
                };
                for step in &provenance.steps {
                    let args: Vec<&str> = step.args()[1..].iter().map(String::as_str).collect();
                    if step.subcommand() == Some("search") && !step.has("--resume") {
                        assert_eq!(record(&args), step.to_string(), "{}", path.display());
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked >= 10, "{checked}");
    }
}
