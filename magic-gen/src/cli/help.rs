//! The defaults `--help` shows for `search`, `merge` and `pack`, written from the library's
//! typed defaults (`Options::for_variant`, `Hunt::repack_defaults`) so that the help
//! and a run cannot disagree. They depend on the variant, the preset or the state resumed,
//! which clap's own defaults cannot say, so they are notes on the options' help.

use std::fmt::Display;

use crate::hunt::{Hunt, Preset};
use crate::search::{Budget, Options};
use crate::settings::{Commands, Setting, Settings};
use crate::Variant;
use clap::{Arg, Command};

/// Returns `arg` with `[default: note]` after its help (short and long).
fn note(arg: Arg, note: &str) -> Arg {
    let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
    let long = arg.get_long_help().map(|h| h.to_string());
    let arg = arg.help(format!("{help} [default: {note}]"));
    match long {
        Some(long) => arg.long_help(format!("{long}\n\n[default: {note}]")),
        None => arg,
    }
}

/// The notes of one command's options: the argument's id and its default, as said.
type Notes = Vec<(&'static str, String)>;

/// Returns `command` with each of `notes` after its argument's help.
fn noted(command: Command, notes: Notes) -> Command {
    notes
        .into_iter()
        .fold(command, |c, (id, text)| c.mut_arg(id, |a| note(a, &text)))
}

/// Returns `cli` with the defaults of its `search`, `merge` and `pack` commands in their
/// help.
pub fn with_defaults(cli: Command) -> Command {
    cli.mut_subcommand("search", |c| {
        noted(c, search_notes()).mut_arg("preset", with_presets)
    })
    .mut_subcommand("merge", |c| noted(c, merge_notes()))
    .mut_subcommand("pack", |c| noted(c, pack_notes()))
}

/// Returns `--preset`'s argument with each preset's name and the committed set whose
/// header's first command it is, from [`Preset`] itself.
fn with_presets(arg: Arg) -> Arg {
    let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
    let names: Vec<String> = Preset::ALL
        .iter()
        .map(|p| format!("`{}` ({})", p.name(), p.file()))
        .collect();
    arg.help(format!(
        "A committed set's hunt: {}. {help}",
        names.join(", ")
    ))
}

/// The defaults of `search`: the variant's (black for the scan and finishing options of
/// packed sets), or the preset's, or the resumed state's.
fn search_notes() -> Notes {
    let packed = Options::for_variant(Variant::Black);
    let fresh = Options::for_variant(Variant::Fancy);
    let candidates = match packed.scan.budget {
        Budget::Candidates(n) => n,
        Budget::UntilFound => 0,
    };
    let (polish, pack) = (packed.limits.polish, packed.limits.pack);
    let preset = |v: &dyn Display| format!("{v}, or the preset's");
    let resumed =
        |v: &dyn Display| format!("{v}, or the preset's; a resumed search: as its state records");
    [
        ("variant", preset(&fresh.scan.variant)),
        (
            "candidates",
            format!(
                "fancy and plain: until the first valid magic; black and white: \
                 {candidates}, or until --seconds if given; or the preset's"
            ),
        ),
        ("pool", preset(&packed.scan.pool)),
        ("sparse_pool", preset(&packed.scan.sparse)),
        ("patience", preset(&packed.scan.patience)),
        ("seed", preset(&fresh.scan.seed)),
    ]
    .into_iter()
    .chain(defaults(&polish, |_, v| resumed(&v)))
    .chain(defaults(&pack, |_, v| resumed(&v)))
    .collect()
}

/// Returns the note of each setting of `settings` whose default the help shows, worded by
/// `say` from the setting and its value there.
fn defaults<S: Settings>(settings: &S, say: impl Fn(&Setting<S>, String) -> String) -> Notes {
    let shown = S::ALL
        .iter()
        .filter(|s| !s.switch && s.spec.default_shown && s.spec.commands == Commands::All);
    shown
        .map(|s| (s.spec.flag, say(s, (s.show)(settings))))
        .collect()
}

/// The defaults of `merge`: what the shards' states record.
fn merge_notes() -> Notes {
    let packed = Options::for_variant(Variant::Black);
    let (polish, pack) = (packed.limits.polish, packed.limits.pack);
    let merged = |v: &dyn Display| format!("as the shards' states record, which is {v}");
    // Where a plain search's value is not the setting's own default, the note says whose
    // it is.
    let said = |plain: bool, v: String| match plain {
        true => merged(&v) + " for a plain black or white search",
        false => merged(&v),
    };
    let mut notes = defaults(&polish, |s, v| said(!s.is_default(&polish), v));
    notes.extend(defaults(&pack, |s, v| said(!s.is_default(&pack), v)));
    notes
}

/// The defaults of `pack`: a repack's, of the exact packing.
fn pack_notes() -> Notes {
    defaults(&Hunt::repack_defaults(false), |_, v| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::search_args::SearchArgs;
    use crate::pack::PackSettings;
    use clap::{Args, FromArgMatches};

    /// The help of `magic-gen COMMAND`, long form.
    fn help(command: &str) -> String {
        let mut cli = with_defaults(<crate::cli::Cli as clap::CommandFactory>::command());
        cli.find_subcommand_mut(command)
            .unwrap()
            .render_long_help()
            .to_string()
    }

    #[test]
    fn the_help_shows_the_defaults_a_run_records() {
        // What a plain black search records is what `search --help` says it runs.
        let matches = SearchArgs::augment_args(clap::Command::new("search"))
            .try_get_matches_from(["search", "--variant", "black"])
            .unwrap();
        let recorded = SearchArgs::from_arg_matches(&matches)
            .unwrap()
            .recorded_options(&matches)
            .unwrap()
            .command;
        let step = crate::set_file::Step::parse(&recorded).unwrap();
        let words = step.args();
        let search = help("search");
        for pair in words.windows(2).filter(|w| w[0].starts_with("--")) {
            let (flag, value) = (pair[0].as_str(), pair[1].as_str());
            if value.starts_with("--") || flag == "--variant" {
                continue;
            }
            let section = search
                .split(&format!("{flag} <"))
                .nth(1)
                .unwrap_or_else(|| panic!("{flag} is not in the help"));
            let default = section.split("[default: ").nth(1).unwrap();
            assert!(
                default.contains(value),
                "{flag} runs with {value}, the help says [default: {}",
                &default[..default.find(']').unwrap()]
            );
        }
        let merge = help("merge");
        assert!(merge.contains("as the shards' states record, which is 10000"));
        let pack = help("pack");
        assert!(pack.contains(&format!("[default: {}]", PackSettings::REPACK_MOVES)));
    }
}
