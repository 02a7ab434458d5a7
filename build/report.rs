//! How the build script reports a set it cannot use: one line that says what failed, then
//! the details, a set's per-square problems grouped by kind so that 80 squares with the
//! same problem take a few lines, not 80.

use std::env;
use std::process::Command;

/// One problem of one square.
pub(crate) struct SquareProblem {
    /// `rook e4`.
    pub place: String,
    /// The line of its entry in the set file, where known.
    pub line: Option<usize>,
    /// The problem as one error line of its own: the file, the line where known, the piece
    /// and square, and what is wrong.
    pub detail: String,
    /// The kind of problem, as said of several squares; squares with the same kind are
    /// listed together.
    pub kind: String,
    /// This square's figure in a grouped listing (may be empty).
    pub figure: String,
}

/// Why one set cannot build its backend.
pub(crate) struct Unfit {
    /// One line: which set, which file, and how much of it fails.
    pub summary: String,
    /// The details, each naming the file and the line or the piece and square; lines that
    /// start with a space continue the one before, `help:` lines say what to do, the
    /// others are `error:` lines.
    pub details: Vec<String>,
}

impl Unfit {
    /// A problem that one line says in full.
    pub(crate) fn line(summary: String) -> Unfit {
        Unfit {
            details: vec![summary.clone()],
            summary,
        }
    }

    /// The per-square `problems` of `file`, grouped by kind in order of first appearance,
    /// under `summary`, followed by `fix` (what to do about it).
    pub(crate) fn squares(
        summary: String,
        file: &str,
        problems: Vec<SquareProblem>,
        fix: String,
    ) -> Unfit {
        let mut kinds: Vec<(&str, Vec<&SquareProblem>)> = Vec::new();
        for p in &problems {
            match kinds.iter_mut().find(|(k, _)| *k == p.kind) {
                Some((_, list)) => list.push(p),
                None => kinds.push((&p.kind, vec![p])),
            }
        }
        let mut details = Vec::new();
        for (kind, list) in kinds {
            if let [one] = list[..] {
                details.push(one.detail.clone());
                continue;
            }
            details.push(format!("{file}: {} squares with {kind}:", list.len()));
            let items = list.iter().map(|p| match (p.line, p.figure.as_str()) {
                (None, "") => p.place.clone(),
                (None, figure) => format!("{} ({figure})", p.place),
                (Some(line), "") => format!("{} (line {line})", p.place),
                (Some(line), figure) => format!("{} (line {line}: {figure})", p.place),
            });
            details.extend(wrap(items, 96));
        }
        details.push(format!("help: {file}: {fix}"));
        Unfit { summary, details }
    }
}

/// Returns the distinct squares of `problems`, in order of first appearance, as
/// `rook e4 (line 12), ...`: at most `shown` named, then how many more.
pub(crate) fn name_places(problems: &[SquareProblem], shown: usize) -> (usize, String) {
    let mut places: Vec<(&str, Option<usize>)> = Vec::new();
    for p in problems {
        if !places.iter().any(|(place, _)| *place == p.place) {
            places.push((&p.place, p.line));
        }
    }
    let mut names: Vec<String> = places
        .iter()
        .take(shown)
        .map(|(place, line)| match line {
            Some(l) => format!("{place} (line {l})"),
            None => place.to_string(),
        })
        .collect();
    if places.len() > shown {
        names.push(format!("and {} more", places.len() - shown));
    }
    (places.len(), names.join(", "))
}

/// Joins `items` with commas into indented lines of at most about `width` characters.
fn wrap(items: impl Iterator<Item = String>, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::from("   ");
    for item in items {
        if line.len() > 3 && line.len() + item.len() + 2 > width {
            line.push(',');
            lines.push(std::mem::replace(&mut line, String::from("   ")));
        }
        if line.len() > 3 {
            line.push(',');
        }
        line.push(' ');
        line.push_str(&item);
    }
    lines.push(line);
    lines
}

/// Stops the build: each summary as the first lines cargo prints, then every detail on
/// stderr (which cargo shows after the script's stdout). An exit status, not a panic, so
/// that what cargo shows is the messages and nothing about the script's own code.
pub(crate) fn stop(unfit: &[Unfit]) -> ! {
    let directive = if cargo_has_error_directive() {
        "cargo::error="
    } else {
        // Older cargo fails on the unknown directive; a warning still comes first.
        "cargo:warning=error: magic-bitboards: "
    };
    if unfit.len() > 1 {
        println!(
            "{directive}{} problems stop the build, one a line here, detailed below",
            unfit.len()
        );
    }
    for u in unfit {
        println!("{directive}{}", u.summary);
    }
    for u in unfit {
        for line in &u.details {
            if line.starts_with(' ') || line.starts_with("help: ") {
                eprintln!("{line}");
            } else {
                eprintln!("error: {line}");
            }
        }
    }
    std::process::exit(1)
}

/// Whether cargo knows `cargo::error` (Rust 1.84), judged by the rustc it runs, which
/// comes with it. Asked only when the build fails.
fn cargo_has_error_directive() -> bool {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let Ok(out) = Command::new(rustc).arg("--version").output() else {
        return false;
    };
    // `rustc 1.95.0 (...)`
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.split_whitespace().nth(1).unwrap_or("");
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (1, 84)
}
