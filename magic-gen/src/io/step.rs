//! The commands a set's header records: each a [`Step`], written as one line of words for
//! a POSIX shell, the steps of a set joined by `; then `. Quoting and unquoting live here
//! together, so that what a header writes reads back as the same steps.

use std::fmt;

/// The program whose runs a header records.
const PROGRAM: &str = "magic-gen";

/// Between two steps on one line: `A; then B`.
const THEN: &str = "; then ";

/// One command that made a set, e.g. `magic-gen pack a.rs --out b.rs`: its words as the
/// program is given them, unquoted. (A merged state records a note in its place, `merge
/// of 2 of 2 shards`, whose first word is no program: a step all the same.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    words: Vec<String>,
}

/// An argument of a command as a run was given it, for the step that records the run
/// ([`Step::recorded`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argument<'a> {
    /// Its long flag, without `--`; none for a positional argument (its values alone).
    pub long: Option<&'a str>,
    /// Whether it takes values; a switch is recorded as its flag alone.
    pub takes_values: bool,
    /// Its values as given on the command line; none if it was not given.
    pub given: Option<Vec<String>>,
}

/// A command line that does not read as steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// A single quote is not closed.
    OpenQuote,
    /// A backslash ends the line.
    TrailingBackslash,
    /// A `;` is not followed by ` then ` (the only way steps are joined).
    Separator,
    /// A step has no words.
    Empty,
}

impl Step {
    /// Returns the step `magic-gen SUBCOMMAND`, to which the arguments are pushed.
    pub fn new(subcommand: &str) -> Step {
        Step {
            words: vec![PROGRAM.to_string(), subcommand.to_string()],
        }
    }

    /// Returns the step that reproduces a run of `magic-gen subcommand` given `arguments`,
    /// in their order: each given with its values as given; one not given whose long flag
    /// `implied` names with the value the run took (a default spelled out, so that the step
    /// gives the same set whatever the defaults become; a switch is implied by any value);
    /// the others left out, as they never change the result.
    pub fn recorded(subcommand: &str, arguments: &[Argument], implied: &[(&str, String)]) -> Step {
        let mut step = Step::new(subcommand);
        for arg in arguments {
            let implied = implied.iter().find(|(flag, _)| arg.long == Some(*flag));
            let implied = implied.map(|(_, value)| vec![value.clone()]);
            let Some(values) = arg.given.clone().or(implied) else {
                continue;
            };
            let flag = arg.long.map(|long| format!("--{long}"));
            if !arg.takes_values {
                step.words.extend(flag);
                continue;
            }
            for value in values {
                step.words.extend(flag.clone());
                step.push(value);
            }
        }
        step
    }

    /// Adds `word` at the end.
    pub fn push(&mut self, word: impl Into<String>) {
        self.words.push(word.into());
    }

    /// Returns the subcommand of `magic-gen` this step runs (`search`, `pack`...), or `None`
    /// for a step of another program or a note.
    pub fn subcommand(&self) -> Option<&str> {
        match &self.words[..] {
            [program, subcommand, ..] if program == PROGRAM => Some(subcommand),
            _ => None,
        }
    }

    /// Returns the words given to the program: the subcommand, then its arguments.
    pub fn args(&self) -> &[String] {
        &self.words[1..]
    }

    /// Returns the values of option `flag` (e.g. `--also`), the word after each.
    pub fn values<'a>(&'a self, flag: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.words
            .windows(2)
            .filter(move |w| w[0] == flag)
            .map(|w| w[1].as_str())
    }

    /// Returns the value of option `flag` (e.g. `--out`), the word after it.
    pub fn value(&self, flag: &str) -> Option<&str> {
        let pair = self.words.windows(2).find(|w| w[0] == flag);
        pair.map(|w| w[1].as_str())
    }

    /// Returns true if the word `flag` is given.
    pub fn has(&self, flag: &str) -> bool {
        self.words.iter().any(|w| w == flag)
    }

    /// Returns this step without option `flag` and its value (e.g. `--shard K/N`).
    pub fn without(&self, flag: &str) -> Step {
        let mut words = Vec::new();
        let mut it = self.words.iter();
        while let Some(word) = it.next() {
            if word == flag {
                it.next();
            } else {
                words.push(word.clone());
            }
        }
        Step { words }
    }

    /// Gives option `flag` the value `value` in place of its own, if the step has it.
    pub fn set_value(&mut self, flag: &str, value: impl Into<String>) {
        if let Some(at) = self.words.iter().position(|w| w == flag) {
            if let Some(old) = self.words.get_mut(at + 1) {
                *old = value.into();
            }
        }
    }

    /// Returns `word` quoted for a POSIX shell where it needs it (a word of plain
    /// characters stays as it is), so that a recorded command can be pasted back.
    pub fn quote(word: &str) -> String {
        let plain = !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c));
        if plain {
            word.to_string()
        } else {
            format!("'{}'", word.replace('\'', r"'\''"))
        }
    }

    /// Reads one step, written as [`Step`]'s `Display` writes it.
    pub fn parse(line: &str) -> Result<Step, StepError> {
        let mut steps = Step::parse_chain(line)?;
        match steps.len() {
            1 => Ok(steps.remove(0)),
            _ => Err(StepError::Separator),
        }
    }

    /// Reads the steps of a header's command line, `A; then B`, as [`Step::chain_line`]
    /// writes them: words split at unquoted spaces, single quotes and backslashes taken as
    /// a POSIX shell takes them.
    pub fn parse_chain(text: &str) -> Result<Vec<Step>, StepError> {
        let mut steps = Vec::new();
        let mut words: Vec<String> = Vec::new();
        // Some once a word has begun: a quoted empty word ('') is one.
        let mut word: Option<String> = None;
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            match c {
                ' ' | '\t' => words.extend(word.take()),
                '\'' => {
                    let end = rest.find('\'').ok_or(StepError::OpenQuote)?;
                    word.get_or_insert_with(String::new).push_str(&rest[..end]);
                    rest = &rest[end + 1..];
                }
                '\\' => {
                    let next = rest.chars().next().ok_or(StepError::TrailingBackslash)?;
                    word.get_or_insert_with(String::new).push(next);
                    rest = &rest[next.len_utf8()..];
                }
                ';' => {
                    rest = rest.strip_prefix(&THEN[1..]).ok_or(StepError::Separator)?;
                    words.extend(word.take());
                    steps.push(Step::of(std::mem::take(&mut words))?);
                }
                c => word.get_or_insert_with(String::new).push(c),
            }
        }
        words.extend(word);
        steps.push(Step::of(words)?);
        Ok(steps)
    }

    /// Returns the command line of `steps`, each after the one before it (`A; then B`).
    pub fn chain_line(steps: &[Step]) -> String {
        let lines: Vec<String> = steps.iter().map(Step::to_string).collect();
        lines.join(THEN)
    }

    /// Gives each step of `chain` (the commands of a saved state) the `--state` of the file
    /// the next step resumes, and the last step that of `last_saves` if given, where the
    /// step does not save there already (its `--state`, else its `--resume`). Recorded
    /// commands leave `--state` out, since it never changes the set; but a chain in which a
    /// step resumes a state reruns from nothing only if the step before it saved that state.
    pub fn link_states(chain: &mut [Step], last_saves: Option<&str>) {
        for k in 0..chain.len() {
            let next = match chain.get(k + 1) {
                Some(next) => next.value("--resume").map(str::to_string),
                None => last_saves.map(str::to_string),
            };
            let step = &mut chain[k];
            let Some(file) = next else { continue };
            let saves = step.value("--state").or(step.value("--resume"));
            // A note in a step's place (a partial merge's) runs nothing to save.
            if step.subcommand().is_some() && !step.has("--state") && saves != Some(file.as_str()) {
                step.push("--state");
                step.push(file);
            }
        }
    }

    /// Returns the step of `words`, refusing none.
    fn of(words: Vec<String>) -> Result<Step, StepError> {
        match words.is_empty() {
            true => Err(StepError::Empty),
            false => Ok(Step { words }),
        }
    }
}

/// The step as one line for a POSIX shell, each word quoted where it needs it.
impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.words.iter().map(|w| Step::quote(w)).collect();
        f.write_str(&words.join(" "))
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StepError::OpenQuote => "a single quote is not closed",
            StepError::TrailingBackslash => "the line ends with a backslash",
            StepError::Separator => "a ';' is not followed by ' then '",
            StepError::Empty => "a step has no words",
        })
    }
}

impl std::error::Error for StepError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(words: &[&str]) -> Step {
        Step {
            words: words.iter().map(|w| w.to_string()).collect(),
        }
    }

    #[test]
    fn steps_read_back_as_written() {
        let steps = vec![
            step(&["magic-gen", "search", "--variant", "black", "--seed", "1"]),
            step(&["magic-gen", "pack", "a b.rs", "--out", "it's; then x", ""]),
            step(&["merge", "of", "2", "of", "3", "shards,", "missing", "2/3"]),
        ];
        let line = Step::chain_line(&steps);
        assert_eq!(
            line,
            "magic-gen search --variant black --seed 1; then magic-gen pack 'a b.rs' --out \
             'it'\\''s; then x' ''; then merge of 2 of 3 shards, missing 2/3"
        );
        assert_eq!(Step::parse_chain(&line), Ok(steps.clone()));
        assert_eq!(steps[0].subcommand(), Some("search"));
        assert_eq!(steps[2].subcommand(), None);
        assert_eq!(Step::parse(&steps[1].to_string()), Ok(steps[1].clone()));
        // A backslash outside quotes keeps the next character, as in a shell.
        assert_eq!(Step::parse(r"a\ b c"), Ok(step(&["a b", "c"])));
    }

    #[test]
    fn a_line_that_does_not_read_says_why() {
        for (line, error) in [
            ("magic-gen search --out 'a", StepError::OpenQuote),
            ("magic-gen search \\", StepError::TrailingBackslash),
            ("magic-gen search; magic-gen pack", StepError::Separator),
            ("magic-gen search; then ", StepError::Empty),
            ("", StepError::Empty),
        ] {
            assert_eq!(Step::parse_chain(line), Err(error), "{line}");
        }
        assert_eq!(Step::parse("a; then b"), Err(StepError::Separator));
    }

    #[test]
    fn options_are_read_changed_and_dropped_by_their_flag() {
        let mut s = Step::new("search");
        for word in ["--also", "a.txt", "--shard", "0/2", "--also", "b c.txt"] {
            s.push(word);
        }
        assert_eq!(s.values("--also").collect::<Vec<_>>(), ["a.txt", "b c.txt"]);
        assert_eq!(s.value("--shard"), Some("0/2"));
        assert!(s.has("--shard") && !s.has("--out"));
        assert_eq!(
            s.without("--shard").to_string(),
            "magic-gen search --also a.txt --also 'b c.txt'"
        );
        s.set_value("--shard", "1/2");
        assert_eq!(s.args()[3..5], ["--shard", "1/2"]);
    }

    #[test]
    fn each_step_of_a_chain_saves_the_state_the_next_resumes() {
        let link = |line: &str, last: Option<&str>| {
            let mut chain = Step::parse_chain(line).unwrap();
            Step::link_states(&mut chain, last);
            Step::chain_line(&chain)
        };
        // A fresh search stopped and resumed: the search saved what the resume reads.
        assert_eq!(
            link(
                "magic-gen search --seed 1 --out r.rs; then magic-gen search --resume r.state --out r.rs",
                None
            ),
            "magic-gen search --seed 1 --out r.rs --state r.state; then magic-gen search \
             --resume r.state --out r.rs"
        );
        // A resume saved elsewhere (its --state left out), then resumed from there; a step
        // that saves there already is left as it is, and so is a note.
        assert_eq!(
            link(
                "magic-gen search --seed 1; then magic-gen search --resume a.state; then \
                 magic-gen search --resume b.state",
                Some("b.state")
            ),
            "magic-gen search --seed 1 --state a.state; then magic-gen search --resume a.state \
             --state b.state; then magic-gen search --resume b.state"
        );
        let merged = "merge of 2 of 2 shards; then magic-gen search --resume m.state";
        assert_eq!(link(merged, Some("m.state")), merged);
        let shard = "magic-gen search --shard 0/2";
        assert_eq!(
            link(shard, Some("s0.state")),
            "magic-gen search --shard 0/2 --state s0.state"
        );
    }

    #[test]
    fn a_run_is_recorded_as_given_with_the_defaults_it_spells_out() {
        let arg = |long, takes_values, given: Option<&[&str]>| Argument {
            long,
            takes_values,
            given: given.map(|g| g.iter().map(|w| w.to_string()).collect()),
        };
        let arguments = [
            arg(None, true, Some(&["a b.rs"])),
            arg(Some("also"), true, Some(&["x.rs", "y.rs"])),
            arg(Some("seed"), true, None),
            arg(Some("short-spans"), false, None),
            arg(Some("overlay"), false, Some(&["true"])),
            arg(Some("out"), true, None),
        ];
        let implied = [("seed", "7".to_string()), ("short-spans", String::new())];
        assert_eq!(
            Step::recorded("pack", &arguments, &implied).to_string(),
            "magic-gen pack 'a b.rs' --also x.rs --also y.rs --seed 7 --short-spans --overlay"
        );
    }
}
