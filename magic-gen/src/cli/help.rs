//! The defaults `--help` shows for `search`, `merge` and `pack`, written from the library's
//! typed defaults (`Options::for_variant`, `PackSettings::REPACK_MOVES`) so that the help
//! and a run cannot disagree. They depend on the variant, the preset or the state resumed,
//! which clap's own defaults cannot say, so they are notes on the options' help.

use clap::{Arg, Command};
use magic_gen::pack::PackSettings;
use magic_gen::search::state::Budget;
use magic_gen::search::Options;
use magic_gen::Variant;

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

/// Returns `cli` with the defaults of its `search`, `merge` and `pack` commands in their
/// help.
pub fn with_defaults(cli: Command) -> Command {
    let packed = Options::for_variant(Variant::Black);
    let fresh = Options::for_variant(Variant::Fancy);
    let candidates = match packed.scan.budget {
        Budget::Candidates(n) => n,
        Budget::UntilFound => 0,
    };
    let (polish, pack) = (packed.limits.polish, packed.limits.pack);
    let resumed = "a resumed search: as its state records";
    let merged = "as the shards' states record, which is";
    cli.mut_subcommand("search", |c| {
        c.mut_arg("variant", |a| {
            note(a, &format!("{}, or the preset's", fresh.scan.variant))
        })
        .mut_arg("candidates", |a| {
            note(
                a,
                &format!(
                    "fancy and plain: until the first valid magic; black and white: \
                         {candidates}, or until --seconds if given; or the preset's"
                ),
            )
        })
        .mut_arg("pool", |a| {
            note(a, &format!("{}, or the preset's", packed.scan.pool))
        })
        .mut_arg("sparse_pool", |a| {
            note(a, &format!("{}, or the preset's", packed.scan.sparse))
        })
        .mut_arg("patience", |a| {
            note(a, &format!("{}, or the preset's", packed.scan.patience))
        })
        .mut_arg("polish", |a| {
            note(a, &format!("{}, or the preset's; {resumed}", polish.polish))
        })
        .mut_arg("clump", |a| {
            note(a, &format!("{}, or the preset's; {resumed}", polish.clump))
        })
        .mut_arg("evolve", |a| {
            note(a, &format!("{}, or the preset's; {resumed}", polish.evolve))
        })
        .mut_arg("pack_iterations", |a| {
            note(
                a,
                &format!("{}, or the preset's; {resumed}", pack.iterations),
            )
        })
        .mut_arg("pack_spread", |a| {
            note(a, &format!("{}, or the preset's; {resumed}", pack.spread))
        })
        .mut_arg("pack_seeds", |a| {
            note(a, &format!("{}, or the preset's; {resumed}", pack.seeds))
        })
        .mut_arg("seed", |a| {
            note(a, &format!("{}, or the preset's", fresh.scan.seed))
        })
    })
    .mut_subcommand("merge", |c| {
        c.mut_arg("polish", |a| {
            note(
                a,
                &format!(
                    "{merged} {} for a plain black or white search",
                    polish.polish
                ),
            )
        })
        .mut_arg("clump", |a| note(a, &format!("{merged} {}", polish.clump)))
        .mut_arg("evolve", |a| {
            note(a, &format!("{merged} {}", polish.evolve))
        })
        .mut_arg("pack_iterations", |a| {
            note(
                a,
                &format!(
                    "{merged} {} for a plain black or white search",
                    pack.iterations
                ),
            )
        })
        .mut_arg("pack_spread", |a| {
            note(a, &format!("{merged} {}", pack.spread))
        })
        .mut_arg("pack_seeds", |a| {
            note(a, &format!("{merged} {}", pack.seeds))
        })
    })
    .mut_subcommand("pack", |c| {
        let pack = PackSettings::default();
        c.mut_arg("pack_iterations", |a| {
            note(a, &PackSettings::REPACK_MOVES.to_string())
        })
        .mut_arg("pack_spread", |a| note(a, &pack.spread.to_string()))
        .mut_arg("pack_seeds", |a| note(a, &pack.seeds.to_string()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::search_args::SearchArgs;
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
        let step = magic_gen::Step::parse(&recorded).unwrap();
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
