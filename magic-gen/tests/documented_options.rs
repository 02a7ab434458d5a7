//! The options the guides name are the options `--help` lists, and the other way round:
//! every `magic-gen COMMAND ...` line in README.md and docs/*.md uses only options of
//! that command, every option written alone (`` `--pool N` ``) in the README's magic-gen
//! section, docs/magic-gen.md or the record-hunt guide exists, and every option of every command is named
//! somewhere in the README or the guides.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The commands of the tool.
const COMMANDS: [&str; 6] = ["search", "merge", "pack", "verify", "stats", "emit"];

/// Returns the long options `magic-gen COMMAND --help` lists, without `--help`.
fn help_options(command: &str) -> BTreeSet<String> {
    let out = common::command(&common::workspace(), &[command, "--help"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{command} --help failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-h, ").unwrap_or(l);
            l.starts_with("--").then(|| option_at(l))
        })
        .filter(|o| o != "--help")
        .collect()
}

/// Returns the option name at the start of `s` (`--pool` of `--pool <N>`).
fn option_at(s: &str) -> String {
    let name: String = s[2..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    format!("--{name}")
}

/// Returns every long option written in `text`.
fn options_in(text: &str) -> Vec<String> {
    text.match_indices("--")
        .filter(|(at, _)| {
            let before = text[..*at].chars().last();
            let next = text[at + 2..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
                && next.is_some_and(|c| c.is_ascii_lowercase())
        })
        .map(|(at, _)| option_at(&text[at..]))
        .collect()
}

/// Returns README.md and every guide in docs/, with their text.
fn guides() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Returns the logical lines of `text`: a line ending in `\` goes on on the next.
fn logical_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        match line.trim_end().strip_suffix('\\') {
            Some(head) => cur.push_str(head),
            None => {
                cur.push_str(line);
                out.push(std::mem::take(&mut cur));
            }
        }
    }
    out
}

/// Returns each `magic-gen COMMAND ...` invocation in `line` (the command, and its words
/// up to a shell separator, a comment or the end of a table cell).
fn invocations(line: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices("magic-gen ") {
        let rest = line[at + "magic-gen ".len()..].trim_start();
        let rest = rest.strip_prefix("-- ").unwrap_or(rest);
        let Some(&command) = COMMANDS.iter().find(|c| {
            rest.strip_prefix(**c)
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '`']))
        }) else {
            continue;
        };
        let args = &rest[command.len()..];
        let end = args.find(['|', ';', '#', '`', '&']).unwrap_or(args.len());
        out.push((command, args[..end].to_string()));
    }
    out
}

/// Returns the text of `text` outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Returns the options written alone in code spans of `text` (`` `--pool N` ``).
fn spanned_options(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.starts_with("--"))
        .flat_map(options_in)
        .collect()
}

#[test]
fn the_guides_and_help_name_the_same_options() {
    let help: BTreeMap<&str, BTreeSet<String>> =
        COMMANDS.iter().map(|&c| (c, help_options(c))).collect();
    let any: BTreeSet<&String> = help.values().flatten().collect();
    let mut problems = Vec::new();
    let mut named = BTreeSet::new();
    for (path, text) in guides() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for line in logical_lines(&text) {
            for (command, args) in invocations(&line) {
                for option in options_in(&args) {
                    if !help[command].contains(&option) {
                        problems.push(format!("{name}: `magic-gen {command}` has no {option}"));
                    }
                }
            }
        }
        // Options on their own: the guide's, and the README's magic-gen section.
        let own = match name.as_str() {
            "record-hunts.md" | "magic-gen.md" => prose(&text),
            "README.md" => text
                .split("\n## ")
                .filter(|s| s.starts_with("magic-gen"))
                .map(prose)
                .collect(),
            _ => String::new(),
        };
        for option in spanned_options(&own) {
            if option != "--help" && !any.contains(&option) {
                problems.push(format!("{name}: no command has {option}"));
            }
        }
        named.extend(options_in(&text));
    }
    for (command, options) in &help {
        for option in options {
            if !named.contains(option) {
                problems.push(format!(
                    "`magic-gen {command} {option}` is in --help but in no guide"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_finds_commands_and_options() {
    let line = "run `magic-gen search --variant black --pool 8` | x --y; then magic-gen merge a.state --out b.rs # --nope";
    let found = invocations(line);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].0, "search");
    assert_eq!(options_in(&found[0].1), ["--variant", "--pool"]);
    assert_eq!(options_in(&found[1].1), ["--out"]);
    assert_eq!(
        spanned_options("see `--pool N` and `cargo --release`"),
        ["--pool"]
    );
    assert_eq!(logical_lines("a \\\n--b\nc"), ["a --b", "c"]);
}
