//! Settings declared once: each field of a settings struct ([`crate::pack::PackSettings`],
//! [`crate::search::PolishSettings`]) with its flag, its help, its default and where it is
//! written (a state's `finish` line, a checkpoint's `pack` line, a recorded command), from
//! which the command line's options, the files' lines, the help's defaults and the report of
//! a checkpoint that does not fit are all made. A new setting is one entry in one
//! declaration (`declare_settings!`).

use crate::io::{ReadError, Record};

/// When a setting is written to a file's line or to a recorded command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// Every time.
    Always,
    /// Only when its value is not the default (for a file: so that a file written before
    /// the setting existed reads as it did; for a command: when it differs from the run's
    /// defaults).
    UnlessDefault,
    /// Never.
    Never,
}

/// Which commands take a setting as an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Commands {
    /// `search`, `merge` and `pack`.
    All,
    /// `pack` alone: a setting of packing a set again.
    Repack,
}

/// What a setting is, without its field: the same for any struct it sits in.
// Its help, value name and the commands that take it are the command line's to read: a
// library built without it declares them all the same, so that they live in one place.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spec {
    /// The command-line option, without `--` (`pack-iterations`): also the setting's key in
    /// a search state's `finish` line, and its name in messages.
    pub flag: &'static str,
    /// The option's value as the help names it (`MOVES`); unused by a switch.
    pub value_name: &'static str,
    /// The option's help: its first line the short help, the whole the long one.
    pub help: &'static str,
    /// The option's help in `magic-gen pack`, where it says something else there; empty if
    /// the same.
    pub repack_help: &'static str,
    /// What a value is, for errors (`a count of moves`).
    pub what: &'static str,
    /// The values taken, where bounded: a value outside is refused.
    pub bounds: Option<(f64, f64)>,
    /// What a value above the bounds is told, `{max}` standing for the upper bound; empty:
    /// the bounds are said.
    pub above: &'static str,
    /// The options (flags without `--`) it cannot be given with: another way to say the
    /// same thing (a packing's moves, or its time).
    pub excludes: &'static [&'static str],
    /// The commands that take it.
    pub commands: Commands,
    /// Whether `--help` shows its default (a setting whose default is another's, such as
    /// the packing seed, says so in its help instead).
    pub default_shown: bool,
    /// When a search state's `finish` line holds it.
    pub in_state: Written,
    /// Its key in a pack checkpoint's `pack` line and when that line holds it; `None`: not
    /// saved there.
    pub in_checkpoint: Option<(&'static str, Written)>,
    /// When a fresh search's recorded command spells it out where not given.
    pub recorded: Written,
    /// Compared before the others when a checkpoint is checked against a run: a setting
    /// that decides how the file is laid out (the count of packings).
    pub compared_first: bool,
    /// Whether an overlay packing (`pack --overlay`) reads it.
    pub overlay: bool,
}

impl Spec {
    /// A setting of every command, bounded by nothing, its default shown, written to a
    /// state always and nowhere else, recorded when not its default: what a declaration
    /// changes.
    pub const BASE: Spec = Spec {
        flag: "",
        value_name: "",
        help: "",
        repack_help: "",
        what: "a number",
        bounds: None,
        above: "",
        excludes: &[],
        commands: Commands::All,
        default_shown: true,
        in_state: Written::Always,
        in_checkpoint: None,
        recorded: Written::UnlessDefault,
        compared_first: false,
        overlay: false,
    };
}

/// A setting's value as text: the one way each field type is written and read, in files
/// and on the command line.
pub(crate) trait Value: Sized {
    /// True for a switch: on when its option is given, `1` or `0` in files.
    const SWITCH: bool = false;
    /// Returns the value as written.
    fn show(&self) -> String;
    /// Returns the value `text` says, if it says one.
    fn read(text: &str) -> Option<Self>;
    /// Returns the value as a number, for the bounds.
    fn magnitude(&self) -> f64;
}

macro_rules! numeric_value {
    ($($ty:ty),*) => {$(
        impl Value for $ty {
            fn show(&self) -> String {
                self.to_string()
            }
            fn read(text: &str) -> Option<Self> {
                text.parse().ok()
            }
            fn magnitude(&self) -> f64 {
                *self as f64
            }
        }
    )*};
}

numeric_value!(u32, u64, f64);

impl Value for bool {
    const SWITCH: bool = true;
    fn show(&self) -> String {
        u8::from(*self).to_string()
    }
    fn read(text: &str) -> Option<Self> {
        match text {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        }
    }
    fn magnitude(&self) -> f64 {
        0.0
    }
}

/// One field of a settings struct `S`: its [`Spec`] and the reach into `S` that the
/// declaration writes.
pub(crate) struct Setting<S: 'static> {
    /// What it is.
    pub spec: Spec,
    /// Whether it is a switch: on when its option is given, `1` or `0` in files.
    pub switch: bool,
    /// Returns its value in `S` as text.
    pub show: fn(&S) -> String,
    /// Sets it in `S` from text, returning the value as a number; `None` if the text says
    /// no value of its type (nothing is changed).
    pub read: fn(&mut S, &str) -> Option<f64>,
    /// Returns true if it differs between the two.
    pub differs: fn(&S, &S) -> bool,
}

/// A settings struct declared by `declare_settings!`: its fields, in order.
pub(crate) trait Settings: Sized + Clone + Default + 'static {
    /// Every field, in the order options and lines list them.
    const ALL: &'static [Setting<Self>];
}

/// Declares a settings struct: each field with its type, its default and its [`Spec`]. The
/// struct, its `Default` and its [`Settings`] come from here.
macro_rules! declare_settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:expr])*
                pub $field:ident : $ty:ty = $default:expr => $spec:expr
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::settings::Settings for $name {
            const ALL: &'static [$crate::settings::Setting<Self>] = &[$(
                $crate::settings::Setting {
                    spec: $spec,
                    switch: <$ty as $crate::settings::Value>::SWITCH,
                    show: |s| $crate::settings::Value::show(&s.$field),
                    read: |s, text| {
                        let value: $ty = $crate::settings::Value::read(text)?;
                        s.$field = value;
                        Some($crate::settings::Value::magnitude(&value))
                    },
                    differs: |a, b| a.$field != b.$field,
                },
            )*];
        }
    };
}
pub(crate) use declare_settings;

/// A setting whose value differs between a checkpoint and the run given it: what keeps the
/// checkpoint from resuming ([`crate::pack::Mismatch::Setting`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Differs {
    /// The setting's option, without `--`.
    pub flag: &'static str,
    /// Whether it is a switch (its values `1` and `0`).
    pub switch: bool,
    /// Its value in the checkpoint, as written.
    pub saved: String,
    /// Its value in the run.
    pub asked: String,
}

impl core::fmt::Display for Differs {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let Differs {
            flag, saved, asked, ..
        } = self;
        write!(f, "the checkpoint's {flag} is {saved}, this run's {asked}")
    }
}

impl<S: Settings> Setting<S> {
    /// Sets it in `settings` from `text`, or says why `text` is no value of it (`settings`
    /// unchanged).
    pub fn set(&self, settings: &mut S, text: &str) -> Result<(), String> {
        let mut read = settings.clone();
        let spec = &self.spec;
        let range = |(lo, hi): (f64, f64)| format!(" in {lo}..={hi}");
        let not_a = || {
            let what = match self.switch {
                true => "0 or 1".to_string(),
                false => format!(
                    "{}{}",
                    spec.what,
                    spec.bounds.map_or_else(String::new, range)
                ),
            };
            format!("'{text}' is not {what}")
        };
        let value = (self.read)(&mut read, text).ok_or_else(not_a)?;
        if let Some((lo, hi)) = spec.bounds {
            if value > hi && !spec.above.is_empty() {
                return Err(format!(
                    "{text} {}",
                    spec.above.replace("{max}", &hi.to_string())
                ));
            }
            if !(lo..=hi).contains(&value) {
                return Err(not_a());
            }
        }
        *settings = read;
        Ok(())
    }

    /// Returns true if `settings` holds its default.
    pub fn is_default(&self, settings: &S) -> bool {
        !(self.differs)(settings, &S::default())
    }

    /// Returns true if a line of a kind written `when` holds it for `settings`.
    fn written(&self, when: Written, settings: &S) -> bool {
        match when {
            Written::Always => true,
            Written::UnlessDefault => !self.is_default(settings),
            Written::Never => false,
        }
    }
}

/// The lines of the search's files that hold settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A search state's `finish` line, by each setting's flag.
    Finish,
    /// A pack checkpoint's `pack` line, by each setting's checkpoint key.
    Pack,
}

impl Line {
    /// Returns the key of `setting` on this line and when it is written there.
    fn key<S>(self, setting: &Setting<S>) -> Option<(&'static str, Written)> {
        match self {
            Line::Finish => Some((setting.spec.flag, setting.spec.in_state)),
            Line::Pack => setting.spec.in_checkpoint,
        }
    }

    /// Returns ` key value` for each setting of `settings` this line holds: those written
    /// always first, in order, then those written unless default (so the lines of files
    /// written before such a setting existed are unchanged).
    pub(crate) fn pairs<S: Settings>(self, settings: &S) -> String {
        let mut out = String::new();
        for pass in [Written::Always, Written::UnlessDefault] {
            for s in S::ALL {
                match self.key(s) {
                    Some((key, when)) if when == pass && s.written(when, settings) => {
                        out.push_str(&format!(" {key} {}", (s.show)(settings)));
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Returns true if `key` is the key of one of `S`'s settings on this line.
    pub(crate) fn holds<S: Settings>(self, key: &str) -> bool {
        S::ALL
            .iter()
            .any(|s| self.key(s).is_some_and(|(k, _)| k == key))
    }

    /// Sets each setting of `settings` whose key the `key value` pairs of `record` (after
    /// its keyword) hold on this line, in any order (a setting the line leaves out keeps the
    /// value it has), or says which is wrong. A value that reads as a key is still a value.
    pub(crate) fn read<S: Settings>(
        self,
        record: &Record,
        settings: &mut S,
    ) -> Result<(), ReadError> {
        for (key, text) in record.pairs(0).into_iter().flatten() {
            let Some(s) = S::ALL
                .iter()
                .find(|s| self.key(s).is_some_and(|(k, _)| k == key))
            else {
                continue;
            };
            s.set(settings, text)
                .map_err(|why| record.error(format!("{key} {why}")))?;
        }
        Ok(())
    }
}

/// Returns every setting of `saved` (a checkpoint's) that differs from `asked` (a run's):
/// those compared first ([`Spec::compared_first`]), then the rest in order.
pub(crate) fn differences<S: Settings>(saved: &S, asked: &S) -> Vec<Differs> {
    let first = S::ALL.iter().filter(|s| s.spec.compared_first);
    let rest = S::ALL.iter().filter(|s| !s.spec.compared_first);
    first
        .chain(rest)
        .filter(|s| s.spec.in_checkpoint.is_some() && (s.differs)(saved, asked))
        .map(|s| Differs {
            flag: s.spec.flag,
            switch: s.switch,
            saved: (s.show)(saved),
            asked: (s.show)(asked),
        })
        .collect()
}

/// Returns the settings of `settings` a fresh search's command spells out where not given,
/// by flag, with their values (a switch's the empty one): those recorded always, and those
/// recorded unless default that differ from `base`, the run's defaults.
pub(crate) fn recorded<S: Settings>(settings: &S, base: &S) -> Vec<(&'static str, String)> {
    S::ALL
        .iter()
        .filter(|s| match s.spec.recorded {
            Written::Always => true,
            Written::UnlessDefault => (s.differs)(settings, base),
            Written::Never => false,
        })
        .filter_map(|s| match (s.switch, (s.show)(settings)) {
            // A switch is spelled out when on; off, it is left out.
            (true, on) => (on == "1").then(|| (s.spec.flag, String::new())),
            (false, value) => Some((s.spec.flag, value)),
        })
        .collect()
}

/// What the command line says of a settings struct beside its declaration: its options'
/// help heading, and the library's check of the settings a run of a variant is given.
#[cfg(feature = "cli")]
pub(crate) trait Heading {
    /// The heading.
    const HEADING: &'static str;

    /// Refuses settings that would do nothing, or cannot be, in a run of `variant`.
    fn check(&self, variant: crate::index::Variant) -> Result<(), String>;
}

/// The options of the settings `S` (how the pools are shaped, how a table is packed), made
/// from their declaration, and those given: a run takes them in place of its own (a fresh
/// search's defaults or preset, a resumed or merged state's). `REPACK`: `pack`'s options,
/// which take the settings of packing a set again too.
#[cfg(feature = "cli")]
#[derive(Clone, Debug, Default)]
pub(crate) struct Given<S, const REPACK: bool = false> {
    /// Each setting given, by its place in `S::ALL`, with its value as given (`1`: a switch).
    values: Vec<(usize, String)>,
    settings: core::marker::PhantomData<S>,
}

#[cfg(feature = "cli")]
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
    pub fn checked(&self, settings: S, variant: crate::index::Variant) -> Result<S, String>
    where
        S: Heading,
    {
        let settings = self.apply(settings);
        settings.check(variant)?;
        Ok(settings)
    }

    /// Returns the first of these options given, as its flag, if any.
    pub fn first_given(&self) -> Option<String> {
        let first = self.values.first();
        first.map(|(i, _)| format!("--{}", S::ALL[*i].spec.flag))
    }
}

/// Returns the argument of setting `s`: a switch, or a value checked by the declaration.
#[cfg(feature = "cli")]
fn argument<S: Settings + Heading>(s: &'static Setting<S>, repack: bool) -> clap::Arg {
    let spec = &s.spec;
    let help = match repack && !spec.repack_help.is_empty() {
        true => spec.repack_help,
        false => spec.help,
    };
    let arg = clap::Arg::new(spec.flag)
        .long(spec.flag)
        .help(help.strip_suffix('.').unwrap_or(help))
        .help_heading(S::HEADING)
        .conflicts_with_all(spec.excludes);
    match s.switch {
        true => arg.action(clap::ArgAction::SetTrue),
        false => arg
            .value_name(spec.value_name)
            .allow_negative_numbers(true)
            .value_parser(move |text: &str| {
                s.set(&mut S::default(), text).map(|()| text.to_string())
            }),
    }
}

#[cfg(feature = "cli")]
impl<S: Settings + Heading, const REPACK: bool> clap::Args for Given<S, REPACK> {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.args(Self::taken().map(|(_, s)| argument(s, REPACK)))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

#[cfg(feature = "cli")]
impl<S: Settings + Heading, const REPACK: bool> clap::FromArgMatches for Given<S, REPACK> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
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
            settings: core::marker::PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
