//! The shape of the source: no import cycle between magic-gen's modules, or between the
//! files of one module, and no Rust source file in the workspace over 600 lines.
//!
//! `cargo test -p magic-gen --test layout -- --nocapture` also prints the module graph.
//! Imports are read from the text: every `crate::a::b` and `super::x` path outside test
//! code, resolved to the file that defines the module it names. A folder's `mod.rs` may
//! use its files (it declares and re-exports them); a file never uses its folder's
//! `mod.rs`, so the folder reads from the top down.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a Rust source file may have.
const MAX_LINES: usize = 600;

/// Returns every `.rs` file under `dir`, skipping build output and fuzz corpora.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !["target", "corpus", "artifacts", ".git"].contains(&name.as_str()) {
                out.extend(rust_files(&path));
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Returns `text` without its test code (from the first `#[cfg(test)]` on: test modules
/// sit at the end of a file) and without comments.
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Returns the module path of a file under `src` (`pack/fit.rs` is `pack::fit`,
/// `pack/mod.rs` is `pack`, `lib.rs` is the crate root, empty).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// Returns the paths after every `prefix` in `code` (`crate::pack::fit::Table` gives
/// `pack`, `fit`, `Table`), a brace group counting as each of its first words.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        let mut path = Vec::new();
        let mut words = rest;
        loop {
            let word: String = words
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if word.is_empty() {
                break;
            }
            path.push(word.clone());
            words = &words[word.len()..];
            match words.strip_prefix("::") {
                Some(w) => words = w,
                None => break,
            }
        }
        if let Some(group) = words.strip_prefix('{') {
            // `use super::{a, b::C}`: each group member is a path of its own.
            let group: String = group.chars().take_while(|&c| c != '}').collect();
            for member in group.split(',') {
                let mut p = path.clone();
                p.extend(
                    member
                        .trim()
                        .split("::")
                        .map(|w| {
                            w.chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect::<String>()
                        })
                        .take_while(|w| !w.is_empty()),
                );
                if p.len() > path.len() {
                    out.push(p);
                }
            }
        } else if !path.is_empty() {
            out.push(path);
        }
    }
    out
}

/// The module graph of one source tree: each file's module and the modules it uses.
struct Graph {
    uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
}

impl Graph {
    /// Reads the tree under `src`.
    fn read(src: &Path) -> Graph {
        let files = rust_files(src);
        let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
        // The longest module that `path` (from the crate root) starts with.
        let resolve = |path: &[String]| -> Option<Vec<String>> {
            (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p))
        };
        let mut uses = BTreeMap::new();
        for file in &files {
            let module = module_of(src, file);
            let is_folder = ["mod.rs", "lib.rs", "main.rs"]
                .iter()
                .any(|n| file.ends_with(n));
            let text = code(&fs::read_to_string(file).unwrap());
            let mut to = BTreeSet::new();
            for path in paths_after(&text, "crate::") {
                to.extend(resolve(&path));
            }
            // `super::` names the parent of the file's module: for a folder's mod.rs the
            // folder's parent, for any other file its folder.
            let parent = module[..module.len().saturating_sub(1)].to_vec();
            for path in paths_after(&text, "super::") {
                let mut full = parent.clone();
                full.extend(path);
                // A name defined in the folder's own mod.rs resolves to the folder.
                to.insert(resolve(&full).unwrap_or_else(|| parent.clone()));
            }
            // `use name::...` of a child module, from a folder's mod.rs.
            if is_folder {
                for path in paths_after(&text, "use ") {
                    let mut full = module.clone();
                    full.extend(path);
                    if let Some(m) = resolve(&full).filter(|m| m.len() > module.len()) {
                        to.insert(m);
                    }
                }
            }
            to.remove(&module);
            to.retain(|m| !m.is_empty());
            uses.insert(module, to);
        }
        Graph { uses }
    }

    /// Returns the graph between the modules at `depth` (1: `pack`, `search`, ...) inside
    /// `within`, each edge the uses of any file in one toward any file in the other.
    fn at(&self, within: &[String], depth: usize) -> BTreeMap<String, BTreeSet<String>> {
        let key = |m: &Vec<String>| -> Option<String> {
            (m.len() >= depth && m.starts_with(within) && m.len() > within.len())
                .then(|| m[..depth].join("::"))
        };
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, tos) in &self.uses {
            let Some(a) = key(from) else { continue };
            let entry = g.entry(a.clone()).or_default();
            for to in tos {
                if let Some(b) = key(to).filter(|b| *b != a) {
                    entry.insert(b);
                }
            }
        }
        g
    }
}

/// Returns a cycle of `g`, if it has one.
fn cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut c = path[i..].to_vec();
            c.push(node.to_string());
            return Some(c);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in g.get(node).into_iter().flatten() {
            if let Some(c) = visit(g, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    g.keys()
        .find_map(|n| visit(g, n, &mut Vec::new(), &mut done))
}

/// Returns the folders (modules with files inside) of the graph.
fn folders(graph: &Graph) -> BTreeSet<Vec<String>> {
    graph
        .uses
        .keys()
        .filter(|m| !m.is_empty())
        .map(|m| m[..m.len() - 1].to_vec())
        .collect()
}

/// Checks one source tree: its top-level modules, and the files of each folder.
fn check_tree(src: &Path) -> Vec<String> {
    let graph = Graph::read(src);
    let mut problems = Vec::new();
    for folder in folders(&graph) {
        let g = graph.at(&folder, folder.len() + 1);
        println!("{} {}:", src.display(), folder.join("::"));
        for (from, to) in &g {
            println!(
                "  {from} -> {}",
                to.iter().cloned().collect::<Vec<_>>().join(", ")
            );
        }
        if let Some(c) = cycle(&g) {
            problems.push(format!(
                "{}: import cycle {}",
                src.display(),
                c.join(" -> ")
            ));
        }
    }
    // A file using its own folder's mod.rs closes a loop through it.
    for (from, tos) in &graph.uses {
        let Some((_, folder)) = from.split_last() else {
            continue;
        };
        // Test code drives its folder through its front door.
        if from.iter().any(|m| m == "tests" || m == "test_support") {
            continue;
        }
        if !folder.is_empty() && tos.iter().any(|t| t.as_slice() == folder) {
            problems.push(format!(
                "{}: {} uses its folder's mod.rs",
                src.display(),
                from.join("::")
            ));
        }
    }
    problems
}

#[test]
fn no_module_or_file_imports_in_a_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let problems = check_tree(&root.join("src"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checker_sees_a_cycle() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.into(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(cycle(&g).unwrap(), ["a", "b", "c", "a"]);
    let text = "use super::{fit::Table, pattern::Pattern};\nuse crate::pack::PackSettings;";
    assert_eq!(
        paths_after(text, "super::"),
        [vec!["fit", "Table"], vec!["pattern", "Pattern"]]
    );
    assert_eq!(paths_after(text, "crate::"), [vec!["pack", "PackSettings"]]);
}

#[test]
fn no_rust_source_is_over_600_lines() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let long: Vec<String> = rust_files(workspace)
        .into_iter()
        .filter_map(|f| {
            let lines = fs::read_to_string(&f).ok()?.lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines: {}",
        long.join(", ")
    );
}
