//! The recipes of docs/regenerating.md are the committed sets' headers: every `magic-gen`
//! command there, less the `--state FILE` it adds, is a command of a header in the header's
//! order, every header command is there, and the recipe runs in a scratch folder, so that
//! it never writes over a committed file. Every other command line in the README and
//! docs/ that says it makes a committed set is a command of that set's header too.

mod common;

use std::fs;

use common::{every_set, workspace};
use magic_gen::read_set_file;
use magic_gen::set_file::Step;

/// Returns the lines of the shell blocks of docs/regenerating.md, a line continued with
/// `\` joined to the next.
fn recipe_lines() -> Vec<String> {
    let guide = fs::read_to_string(workspace().join("docs/regenerating.md")).unwrap();
    shell_lines(&guide)
}

/// Returns the lines of the shell blocks of `section`, a line continued with `\` joined
/// to the next.
fn shell_lines(section: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    for line in section.lines() {
        if line.starts_with("```") {
            in_block = line == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(part) => pending.push_str(part),
            None => {
                pending.push_str(line);
                lines.push(std::mem::take(&mut pending));
            }
        }
    }
    lines
}

/// Returns the recipe's `command` read as a header's step, without the `--state FILE`
/// that the headers leave out.
fn without_state(command: &str) -> Step {
    let step = Step::parse(command).unwrap_or_else(|e| panic!("{command}: {e}"));
    step.without("--state")
}

#[test]
fn the_readme_recipes_are_the_headers_commands() {
    let lines = recipe_lines();
    let commands: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("magic-gen "))
        .collect();
    assert!(!commands.is_empty(), "no magic-gen command in the recipes");
    // Before the first command, the recipe moves to a scratch folder of its own.
    let first = lines
        .iter()
        .position(|l| l.starts_with("magic-gen "))
        .unwrap();
    let scratch = lines[..first]
        .iter()
        .flat_map(|l| l.split("&&"))
        .filter_map(|part| part.trim().strip_prefix("cd "))
        .last()
        .expect("a `cd` into a scratch folder before the first command");
    assert!(
        scratch.starts_with("/tmp/"),
        "the recipes run in {scratch}, not a scratch folder"
    );
    let mut matched = 0;
    for path in every_set() {
        let (_, header, _) = read_set_file(&workspace().join(&path)).unwrap();
        let chain = header.steps;
        assert!(!chain.is_empty(), "{path}: no command in the header");
        // A chain that starts with another committed set's commands (a record packed beside
        // published magics) starts with that set's whole header: its recipe is that set's.
        let before = chain
            .iter()
            .take_while(|step| step.value("--out") != Some(path.as_str()))
            .count();
        if let Some(other) = chain[..before].last().and_then(|step| step.value("--out")) {
            let (_, theirs, _) = read_set_file(&workspace().join(other)).unwrap();
            assert_eq!(
                chain[..before],
                theirs.steps,
                "{path} starts with {other}'s commands"
            );
        }
        let headers = &chain[before..];
        let recipe: Vec<Step> = commands
            .iter()
            .map(|c| without_state(c))
            .filter(|step| step.value("--out") == Some(path.as_str()))
            .collect();
        assert_eq!(
            recipe, headers,
            "{path}: the recipe's commands are not its header's"
        );
        matched += recipe.len();
        // Each command of a search or an exact packing keeps a state to resume from (an
        // overlay packing of a set has none: it takes seconds).
        for command in commands
            .iter()
            .filter(|c| without_state(c).value("--out") == Some(&path))
        {
            let step = Step::parse(command).unwrap();
            let stateful = !(step.subcommand() == Some("pack") && step.has("--overlay"));
            assert_eq!(step.value("--state").is_some(), stateful, "{command}");
        }
    }
    assert_eq!(
        matched,
        commands.len(),
        "the recipe has commands for no committed set"
    );
}

/// Returns the README and every guide and script in docs/, by name, with their text.
fn docs() -> Vec<(String, String)> {
    let mut files = vec![("README.md".to_string(), workspace().join("README.md"))];
    for entry in fs::read_dir(workspace().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let name = format!("docs/{}", path.file_name().unwrap().to_string_lossy());
            files.push((name, path));
        }
    }
    files
        .into_iter()
        .map(|(name, path)| (name, fs::read_to_string(path).unwrap()))
        .collect()
}

/// Returns each `magic-gen COMMAND ...` written in `line` (after a backtick, a `then`, or
/// at the start of a shell line), up to the next backtick, `;`, `|` or ` (`.
fn commands_in(line: &str) -> Vec<String> {
    line.match_indices("magic-gen ")
        .filter(|(at, _)| {
            let before = line[..*at].trim_end();
            before.is_empty() || before.ends_with('`') || before.ends_with("then")
        })
        .map(|(at, _)| {
            let rest = &line[at..];
            let end = rest.find(['`', ';', '|']).unwrap_or(rest.len());
            let rest = &rest[..end];
            let end = rest.find(" (").unwrap_or(rest.len());
            rest[..end].trim().to_string()
        })
        .collect()
}

/// Returns the committed set `written` names (`magics/X.rs`, or `records/X.rs` as the
/// record-hunt guide's table writes them), if it names one.
fn committed_set(written: &str, sets: &[String]) -> Option<String> {
    let path = match written.starts_with("records/") {
        true => format!("magics/{written}"),
        false => written.to_string(),
    };
    sets.contains(&path).then_some(path)
}

/// Returns the options of `step` as (option, value) pairs, sorted: two commands with the
/// same options in another order make the same set.
fn options(step: &Step) -> Vec<(String, Option<String>)> {
    let mut pairs = Vec::new();
    let mut words = step.args().iter().skip(1).peekable();
    while let Some(word) = words.next() {
        let value = words.next_if(|w| !w.starts_with("--")).cloned();
        pairs.push((word.clone(), value));
    }
    pairs.sort();
    pairs
}

/// Every command line in the README and docs/ that says it makes a committed set is a
/// command of that set's header (less `--state`, which no header records): a command
/// that writes the set (`--out magics/...`), a row of the record-hunt guide's table of
/// the committed sets (its hunt's `search` options), and a sharded hunt
/// (`hunt-parallel.sh HOSTS CANDIDATES OPTIONS`) whose paragraph names the set.
#[test]
fn every_documented_command_of_a_committed_set_is_its_headers() {
    let sets = every_set();
    let header = |path: &str| read_set_file(&workspace().join(path)).unwrap().1.steps;
    let mut problems = Vec::new();
    let mut checked = 0;
    for (name, text) in docs() {
        let mut named: Option<String> = None;
        let mut lines = shell_lines(&text);
        lines.extend(text.lines().map(str::to_string));
        for line in &lines {
            for command in commands_in(line) {
                // `emit` brings a set from elsewhere: it makes none of the headers' sets.
                let Ok(step) = Step::parse(&command) else {
                    continue;
                };
                if step.subcommand() == Some("emit") {
                    continue;
                }
                let Some(path) = step.value("--out").and_then(|o| committed_set(o, &sets)) else {
                    continue;
                };
                checked += 1;
                if !header(&path).contains(&step.without("--state")) {
                    problems.push(format!("{name}: `{command}` is not in {path}'s header"));
                }
            }
        }
        let (mut in_block, mut in_paragraph) = (false, false);
        for line in text.lines() {
            if line.starts_with("```") {
                in_block = !in_block;
            }
            // The paragraph before a block names the set a sharded hunt makes.
            let prose = !in_block && !line.starts_with("```") && !line.trim().is_empty();
            if prose && !in_paragraph {
                named = None;
            }
            in_paragraph = prose;
            if let Some(set) = line
                .split('`')
                .skip(1)
                .step_by(2)
                .find_map(|w| committed_set(w, &sets))
                .filter(|_| prose)
            {
                named = Some(set);
            }
            let cells: Vec<&str> = line.split(" | ").collect();
            if let [first, _, hunt, ..] = cells[..] {
                let file = first.trim_start_matches("| ").trim_matches('`');
                let args = hunt.trim_end_matches(" |");
                if let (Some(path), Some(args)) = (
                    committed_set(file, &sets),
                    args.strip_prefix('`').and_then(|a| a.split('`').next()),
                ) {
                    if args.starts_with("--") {
                        checked += 1;
                        let step = Step::parse(&format!("magic-gen search {args}")).unwrap();
                        if header(&path)[0].without("--out") != step {
                            problems.push(format!("{name}: the row of {path} is not its hunt"));
                        }
                    }
                }
            }
            if let Some(rest) = line.trim().strip_prefix("hunt-parallel.sh ") {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let Some(path) = &named else {
                    problems.push(format!("{name}: `{line}` names no committed set"));
                    continue;
                };
                checked += 1;
                let step = Step::parse(&format!(
                    "magic-gen search {} --candidates {}",
                    words[2..].join(" "),
                    words[1]
                ))
                .unwrap();
                let hunt = header(path)[0].without("--out");
                if options(&step) != options(&hunt) {
                    problems.push(format!("{name}: `{line}` is not the hunt of {path}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 10, "only {checked} documented commands checked");
}
