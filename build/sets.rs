//! The build script's sets: the committed one for each backend, or the user's own
//! (`MAGIC_BITBOARDS_<BACKEND>_SET`, docs/own-set.md), read, verified and checked against
//! what the backend's lookup can index.

use std::env;
use std::path::PathBuf;

use magic_gen::set_file::{EntryLines, Provenance};
use magic_gen::{
    read_set_file, set_from_magics, square_name, verify, Failure, MagicSet, Piece, ReadError,
    Variant,
};

use crate::backends::{spec, BackendSpec, Layout};
use crate::report::{name_places, SquareProblem, Unfit};
use crate::{fail, magics};

/// The variable whose path replaces the committed set of `backend` (docs/own-set.md).
pub(crate) fn set_variable(backend: &str) -> String {
    format!("MAGIC_BITBOARDS_{}_SET", backend.to_uppercase())
}

/// Returns the set file the user's variable names for `backend`, if it is set and not
/// empty, and asks cargo to rerun when that file changes.
pub(crate) fn user_set(backend: &str) -> Result<Option<PathBuf>, String> {
    let var = set_variable(backend);
    let Some(value) = env::var_os(&var).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let path = PathBuf::from(value);
    let Some(text) = path.to_str() else {
        return Err(format!("{var}={}: not a UTF-8 path", path.display()));
    };
    // A build script runs in the directory of the crate being built (for a dependency,
    // somewhere in cargo's registry), never in the user's: a relative path would name
    // the wrong file, so it is refused rather than guessed at.
    if path.is_relative() {
        return Err(format!(
            "{var}={text}: a relative path, but build scripts run in the magic-bitboards \
             package's directory, not yours: give an absolute path, or set the variable in \
             .cargo/config.toml with `[env] {var} = {{ value = \"{text}\", relative = true }}` \
             (docs/own-set.md)"
        ));
    }
    println!("cargo:rerun-if-changed={text}");
    Ok(Some(path))
}

/// Whether the `backend` module's lookup can index a set of `variant` (its `reads` in
/// src/backend/list.rs: the fancy backend stores a shift and an offset per square, so it
/// reads every `occ & mask` layout; plain and black read their own variant only).
pub(crate) fn reads(backend: &BackendSpec, variant: Variant) -> bool {
    backend.reads.contains(&variant.name())
}

/// Why `backend` cannot take a set of `variant`, and where such a set goes instead.
pub(crate) fn unreadable(backend: &BackendSpec, variant: Variant) -> String {
    let names: Vec<&str> = Variant::ALL
        .into_iter()
        .filter(|&v| reads(backend, v))
        .map(Variant::name)
        .collect();
    let instead = magics::COMMITTED
        .iter()
        .find(|c| spec(c.backend).is_some_and(|b| reads(b, variant)))
        .map_or("no backend takes such a set".to_string(), |c| {
            format!("name it in {} instead", set_variable(c.backend))
        });
    format!(
        "a {variant} set, which the {} backend cannot index (it reads {} sets): {instead}",
        backend.name,
        names.join(", ")
    )
}

/// Rebuilds the backend's set (the user's, the committed one, or the PEXT layout) and
/// verifies it exhaustively, returning it with its table, or why it is unfit, naming the
/// file and the line or the piece and square.
pub(crate) fn load(backend: &BackendSpec) -> Result<(MagicSet, Vec<u64>), Unfit> {
    if backend.layout.uses_pext_layout() {
        // Both PEXT backends share the perfect-index layout, which needs no committed file.
        let set = MagicSet::pext();
        let table = verify(&set)
            .unwrap_or_else(|_| fail("the PEXT layout failed verification"))
            .table;
        return Ok((set, table));
    }
    let name = backend.name;
    let Some(committed) = magics::committed(name) else {
        fail(&format!(
            "magics.rs: no committed set for the {name} backend"
        ));
    };
    let var = set_variable(name);
    let user = user_set(name).map_err(Unfit::line)?;
    let (file, which, fix) = match &user {
        Some(path) => (
            path.display().to_string(),
            format!("the {name} set {var} names"),
            format!(
                "fix it (`magic-gen verify {}`) or unset {var}",
                path.display()
            ),
        ),
        None => (
            committed.file.to_string(),
            format!("the committed {name} set"),
            "regenerate it with magic-gen".to_string(),
        ),
    };
    // Where each entry is in the file, for errors that name the line: read with the user's
    // set, and for a committed set (built from the included constants) read from its file
    // only when it fails.
    let mut lines: Option<EntryLines> = None;
    let set = match &user {
        Some(path) => {
            let (set, provenance, entry_lines) = read_set_file(path)
                .map_err(|e| Unfit::line(format!("{e} (the set {var} names)")))?;
            let subject = format!("{var} names an unfinished set");
            let finish = "finish the run as the note says (docs/own-set.md)";
            warn_if_unfinished(&provenance, &subject, &file, finish);
            lines = Some(entry_lines);
            set
        }
        None => {
            // Built from the included constants; the header, read from the file, says
            // whether a stopped run wrote it.
            if let Ok((provenance, _)) = read_committed(committed.file) {
                let subject = format!("{which} is unfinished");
                let redo = "regenerate it as docs/regenerating.md says";
                warn_if_unfinished(&provenance, &subject, &file, redo);
            }
            committed_set(committed, &which, &file, &fix)?
        }
    };
    if !reads(backend, set.variant) {
        return Err(Unfit::line(format!(
            "{file}: {}",
            unreadable(backend, set.variant)
        )));
    }
    let problems = unindexable(backend, &set, &file, lines.as_ref());
    if !problems.is_empty() {
        let (count, named) = name_places(&problems, 8);
        let summary = format!(
            "{which} ({file}) has {count} of 128 squares the {name} backend cannot index: {named}"
        );
        return Err(Unfit::squares(summary, &file, problems, fix));
    }
    let verified = verify(&set).map_err(|failures| {
        let lines = lines.or_else(|| read_committed(committed.file).ok().map(|(_, l)| l));
        failed(&which, &file, lines.as_ref(), &failures, &fix)
    })?;
    if user.is_none() && verified.table.len() != committed.table_len {
        return Err(Unfit::line(format!(
            "{file} declares TABLE_LEN = {} but its table has {} entries",
            committed.table_len,
            verified.table.len()
        )));
    }
    Ok((set, verified.table))
}

/// Rebuilds the committed set from the constants `magics.rs` includes, or returns why it is
/// unfit (`which` set, `file`, and `fix`, what to do), naming the lines of its file.
fn committed_set(
    committed: &magics::Committed,
    which: &str,
    file: &str,
    fix: &str,
) -> Result<MagicSet, Unfit> {
    set_from_magics(committed.variant, committed.rook, committed.bishop).map_err(|failures| {
        match read_committed(committed.file) {
            Ok((_, lines)) => failed(which, file, Some(&lines), &failures, fix),
            // magic-gen's reader checks what `set_from_magics` does (masks, shifts), and
            // its error names the line as well as the piece and square.
            Err(e) => Unfit {
                summary: format!("{which}: {e}"),
                details: vec![e.to_string(), format!("help: {file}: {fix}")],
            },
        }
    })
}

/// Warns, once per build, about a set whose header has `unfinished: NOTE` (a stopped run
/// wrote it): it verified and builds, but it is not what its command gives. One warning
/// for the committed sets and the users' own (docs/own-set.md): `subject` says which set
/// is unfinished, `fix` what to do.
fn warn_if_unfinished(provenance: &Provenance, subject: &str, file: &str, fix: &str) {
    if let Some(note) = &provenance.unfinished {
        println!(
            "cargo:warning={subject} ({file}: `unfinished: {note}`): it verifies, so the table \
             built from it is right, but the run that made it was stopped before its end; {fix}"
        );
    }
}

/// Returns the header and the line of each entry of the committed set `file` (relative
/// to the package), or why it cannot be read.
fn read_committed(file: &str) -> Result<(Provenance, EntryLines), ReadError> {
    let root = env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    // Named as the errors name the committed file, relative to the package.
    let named = |mut e: ReadError| {
        e.file = file.to_string();
        e
    };
    let (_, provenance, mut lines) =
        read_set_file(&PathBuf::from(root).join(file)).map_err(named)?;
    lines.file = file.to_string();
    Ok((provenance, lines))
}

/// Returns why `which` set (`file`) failed verification: the first line names the squares
/// at fault, the likeliest first, with their lines where `lines` knows them; the details
/// name the file and line of each failure.
fn failed(
    which: &str,
    file: &str,
    lines: Option<&EntryLines>,
    failures: &[Failure],
    fix: &str,
) -> Unfit {
    let problems: Vec<SquareProblem> = failures
        .iter()
        .map(|f| failure_problem(f, file, lines))
        .collect();
    let (squares, named) = match lines {
        Some(lines) => lines.name_squares(failures, 8),
        None => name_places(&problems, 8),
    };
    let summary =
        format!("{which} ({file}) failed verification on {squares} of 128 squares: {named}");
    Unfit::squares(summary, file, problems, fix.to_string())
}

/// A failure of magic-gen's verification as a problem of its square, at its line in
/// `file` where `lines` knows it.
fn failure_problem(failure: &Failure, file: &str, lines: Option<&EntryLines>) -> SquareProblem {
    let magic_gen::SetSquare { piece, square: sq } = failure.place();
    let (kind, figure) = match failure {
        Failure::Collision(c) => {
            let other_line = lines.map_or(String::new(), |l| {
                format!(" at line {}", l.line(c.other_piece, c.other_square))
            });
            (
                "destructive collisions (occupancies that need different attacks on one slot)"
                    .to_string(),
                format!(
                    "index {}, against {} {}{other_line}",
                    c.index,
                    c.other_piece,
                    square_name(c.other_square)
                ),
            )
        }
        Failure::Entry { reason, .. } => (reason.to_string(), String::new()),
    };
    SquareProblem {
        place: format!("{piece} {}", square_name(sq)),
        line: lines.map(|l| l.line(piece, sq)),
        detail: match lines {
            Some(lines) => lines.locate(failure),
            None => format!("{file}: {failure}"),
        },
        kind,
        figure,
    }
}

/// Returns what the `backend` module's lookup cannot index in `set`, square by square:
/// plain and black shift by a constant 12 (rook) or 9 (bishop) bits, the plain lookup
/// finds each square's array by its index alone, and every record's range starts inside
/// the table (an offset of 0 or more).
/// (magic-gen's variants allow more: black and white sets may shift per square and start a
/// range before the table.)
pub(crate) fn unindexable(
    backend: &BackendSpec,
    set: &MagicSet,
    file: &str,
    lines: Option<&EntryLines>,
) -> Vec<SquareProblem> {
    let mut problems = Vec::new();
    let name = backend.name;
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entry(piece, sq);
            let place = format!("{piece} {}", square_name(sq));
            let line = lines.map(|l| l.line(piece, sq));
            let at = line.map_or(String::new(), |l| format!(":{l}"));
            let mut problem = |message: String, kind: String, figure: String| {
                problems.push(SquareProblem {
                    place: place.clone(),
                    line,
                    detail: format!("{file}{at}: {place}: {message}"),
                    kind,
                    figure,
                })
            };
            let fixed = piece.fixed_bits();
            if backend.layout.fixed_shift() && e.bits != fixed {
                problem(
                    format!(
                        "{} index bits, but the {name} backend's shift is fixed at {fixed}",
                        e.bits
                    ),
                    format!(
                        "index bits (in brackets) other than the {name} backend's fixed \
                         shift (rook 12, bishop 9)"
                    ),
                    e.bits.to_string(),
                );
            }
            let plain_offset = MagicSet::plain_offset(piece, sq);
            if backend.layout == Layout::Plain && e.offset != i64::from(plain_offset) {
                problem(
                    format!(
                        "offset {} is not the plain layout's {plain_offset}",
                        e.offset
                    ),
                    "offsets other than the plain layout's (theirs, then the layout's)".to_string(),
                    format!("{}, not {plain_offset}", e.offset),
                );
            }
            if e.offset < 0 {
                problem(
                    format!(
                        "offset {}, but the runtime's ranges start inside the table \
                         (magic-gen sets may start a range before the table, the runtime's \
                         lookups may not)",
                        e.offset
                    ),
                    "ranges that start before the table (offset in brackets; magic-gen sets \
                     may, the runtime's lookups may not)"
                        .to_string(),
                    e.offset.to_string(),
                );
            }
        }
    }
    problems
}
