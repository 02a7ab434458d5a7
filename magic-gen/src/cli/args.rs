//! Argument parsers: each turns one command-line value into its type or says what is wrong.

use std::marker::PhantomData;

use crate::pack::PackSettings;
use crate::search::{PolishSettings, Shard};
use crate::settings::{Commands, Setting, Settings};
use crate::{parse_square, Piece, Variant};
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use super::failure::BadArgument;

/// The help heading of the pool options.
pub const POOLS: &str = "Pools (black, white; see docs/record-hunts.md)";

/// The help heading of the packing options.
pub const PACKING: &str = "Packing (black, white; see docs/record-hunts.md)";

/// The help heading of the options for long and sharded runs.
pub const LONG_RUNS: &str = "Long runs: checkpoints, resuming, shards";

/// What the command line says of a settings struct beside its declaration: its options'
/// help heading, and the library's check of the settings a run of a variant is given.
pub trait Heading {
    /// The heading.
    const HEADING: &'static str;

    /// Refuses settings that would do nothing, or cannot be, in a run of `variant`.
    fn check(&self, variant: Variant) -> Result<(), String>;
}

impl Heading for PackSettings {
    const HEADING: &'static str = PACKING;

    fn check(&self, variant: Variant) -> Result<(), String> {
        PackSettings::check(self, variant).map(|_| ())
    }
}

impl Heading for PolishSettings {
    const HEADING: &'static str = POOLS;

    fn check(&self, variant: Variant) -> Result<(), String> {
        PolishSettings::check(self, variant)
    }
}

/// The options of the settings `S` (how the pools are shaped, how a table is packed), made
/// from their declaration (`crate::settings`), and those given: a run takes them in
/// place of its own (a fresh search's defaults or preset, a resumed or merged state's).
/// `REPACK`: `pack`'s options, which take the settings of packing a set again too.
#[derive(Clone, Debug)]
pub struct Given<S, const REPACK: bool = false> {
    /// Each setting given, by its place in `S::ALL`, with its value as given (`1`: a switch).
    values: Vec<(usize, String)>,
    settings: PhantomData<S>,
}

impl<S: Settings, const REPACK: bool> Given<S, REPACK> {
    /// Returns the settings of `S` that are options of this command, with their places.
    fn taken() -> impl Iterator<Item = (usize, &'static Setting<S>)> {
        let all = S::ALL.iter().enumerate();
        all.filter(|(_, s)| REPACK || s.spec.commands == Commands::All)
    }

    /// Returns `settings` with the options given in place of its own.
    pub fn apply(&self, mut settings: S) -> S {
        for (i, text) in &self.values {
            S::ALL[*i]
                .set(&mut settings, text)
                .expect("an option's value is checked when parsed");
        }
        settings
    }

    /// Returns `settings` with the options given in place of its own, refused where they
    /// would do nothing or cannot be in a run of `variant` ([`Heading::check`]).
    pub fn checked(&self, settings: S, variant: Variant) -> Result<S, BadArgument>
    where
        S: Heading,
    {
        let settings = self.apply(settings);
        settings.check(variant).map_err(BadArgument)?;
        Ok(settings)
    }

    /// Returns the settings given, in order.
    pub fn each(&self) -> impl Iterator<Item = &'static Setting<S>> + '_ {
        self.values.iter().map(|(i, _)| &S::ALL[*i])
    }

    /// Returns the first of these options given, as its flag, if any.
    pub fn first_given(&self) -> Option<String> {
        self.each().next().map(|s| format!("--{}", s.spec.flag))
    }
}

/// Returns the argument of setting `s`: a switch, or a value checked by the declaration.
fn argument<S: Settings + Heading>(s: &'static Setting<S>, repack: bool) -> Arg {
    let spec = &s.spec;
    let help = match repack && !spec.repack_help.is_empty() {
        true => spec.repack_help,
        false => spec.help,
    };
    let arg = Arg::new(spec.flag)
        .long(spec.flag)
        .help(help.strip_suffix('.').unwrap_or(help))
        .help_heading(S::HEADING)
        .conflicts_with_all(spec.excludes);
    match s.switch {
        true => arg.action(ArgAction::SetTrue),
        false => arg
            .value_name(spec.value_name)
            .allow_negative_numbers(true)
            .value_parser(move |text: &str| {
                s.set(&mut S::default(), text).map(|()| text.to_string())
            }),
    }
}

impl<S: Settings + Heading, const REPACK: bool> Args for Given<S, REPACK> {
    fn augment_args(command: Command) -> Command {
        command.args(Self::taken().map(|(_, s)| argument(s, REPACK)))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl<S: Settings + Heading, const REPACK: bool> FromArgMatches for Given<S, REPACK> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let values = Self::taken()
            .filter_map(|(i, s)| {
                let flag = s.spec.flag;
                let value = match s.switch {
                    true => matches.get_flag(flag).then(|| "1".to_string()),
                    false => matches.get_one::<String>(flag).cloned(),
                };
                Some((i, value?))
            })
            .collect();
        Ok(Given {
            values,
            settings: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// Parses a seed: an unsigned 64-bit number. (Its options take negative numbers as values,
/// so that `--seed -1` gets this error rather than clap's `unexpected argument '-1'`.)
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse::<u64>().map_err(|_| {
        format!(
            "seed '{s}' is not an unsigned number: seeds are 0 to {} (any one gives a \
             different, reproducible run)",
            u64::MAX
        )
    })
}

/// Returns the threads to use: `asked`, or every available core.
pub fn threads_or_all(asked: Option<u32>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// Parses a searchable variant (every one but PEXT).
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    match Variant::parse(s) {
        Some(Variant::Pext) => Err("pext needs no search: its index is the mask itself".into()),
        Some(v) if v.is_overlay() => Err(format!(
            "{v} sets are packed, not searched: search --variant {} (then `magic-gen pack FILE \
             --overlay`, or give --overlay to a black search)",
            v.indexed_as()
        )),
        Some(v) => Ok(v),
        None => Err(format!(
            "unknown variant '{s}' (fancy, plain, black or white)"
        )),
    }
}

/// Parses `rook` or `bishop`.
pub fn parse_piece(s: &str) -> Result<Piece, String> {
    Piece::parse(s).ok_or_else(|| format!("unknown piece '{s}' (rook or bishop)"))
}

/// Parses a square name, `a1`..`h8`.
pub fn parse_square_arg(s: &str) -> Result<u8, String> {
    parse_square(s).ok_or_else(|| format!("unknown square '{s}' (a1..h8)"))
}

/// Parses a shard `K/N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s).map_err(|e| e.to_string())
}

/// Parses a pool size, 1..=4096.
pub fn parse_pool(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        _ => Err(format!("pool '{s}' must be a number in 1..=4096")),
    }
}

/// The most seconds any option takes: about 32 years.
const MAX_SECONDS: f64 = 1e9;

/// Parses a number of seconds, 0..=[`MAX_SECONDS`]. (Its options take negative numbers as
/// values, so that `--seconds -1` gets this error rather than clap's `unexpected argument
/// '-1'`.)
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=MAX_SECONDS).contains(&x) => Ok(x),
        Ok(x) if x < 0.0 => Err(format!(
            "'{s}' is a negative number of seconds: give 0 to {MAX_SECONDS:e}"
        )),
        _ => Err(format!(
            "'{s}' is not a number of seconds in 0 to {MAX_SECONDS:e}"
        )),
    }
}
