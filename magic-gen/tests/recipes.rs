//! The README's recipes ("Regenerating the tables") are the committed sets' headers: every
//! `magic-gen` command there, less the `--state FILE` it adds, is a command of a header in
//! the header's order, every header command is there, and the recipe runs in a scratch
//! folder, so that it never writes over a committed file.

mod common;

use std::fs;

use common::{every_set, workspace};
use magic_gen::{read_set_file, Step};

/// Returns the lines of the shell blocks of the README's "Regenerating the tables"
/// section, a line continued with `\` joined to the next.
fn recipe_lines() -> Vec<String> {
    let readme = fs::read_to_string(workspace().join("README.md")).unwrap();
    let start = readme
        .find("\n## Regenerating the tables\n")
        .expect("a \"Regenerating the tables\" section");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
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
            "{path}: the README's commands are not its header's"
        );
        matched += recipe.len();
        // Each command of a search or a packing keeps a state to resume from.
        for command in commands
            .iter()
            .filter(|c| without_state(c).value("--out") == Some(&path))
        {
            let step = Step::parse(command).unwrap();
            assert!(step.value("--state").is_some(), "no --state: {command}");
        }
    }
    assert_eq!(
        matched,
        commands.len(),
        "the README has commands for no committed set"
    );
}
