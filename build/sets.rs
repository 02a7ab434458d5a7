//! The build script's sets: the committed one for each backend, or the user's own
//! (`MAGIC_BITBOARDS_<BACKEND>_SET`, docs/own-set.md), read, verified and checked against
//! what the backend's lookup can index.

use std::env;
use std::path::PathBuf;

use magic_gen::{read_set_file, set_from_magics, verify, MagicSet, Piece, Variant};

use crate::backends::{spec, BackendSpec, Layout};
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
/// verifies it exhaustively, returning it with its table, or every problem found, each
/// naming the file and the line or the piece and square.
pub(crate) fn load(backend: &BackendSpec) -> Result<(MagicSet, Vec<u64>), Vec<String>> {
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
    let user = user_set(name).map_err(|e| vec![e])?;
    let file = match &user {
        Some(path) => path.display().to_string(),
        None => committed.file.to_string(),
    };
    // One line per failing square, then what to do about it.
    let report = |failures: Vec<magic_gen::Failure>| -> Vec<String> {
        let mut lines: Vec<String> = failures.iter().map(|f| format!("{file}: {f}")).collect();
        let fix = match &user {
            Some(_) => format!(
                "it is the set {} names: fix it (`magic-gen verify {file}`) or unset the variable",
                set_variable(name)
            ),
            None => "regenerate it with magic-gen".to_string(),
        };
        lines.push(format!(
            "{file} failed verification ({} square(s), listed above); {fix}",
            failures.len()
        ));
        lines
    };
    let set = match &user {
        Some(path) => {
            read_set_file(path)
                .map_err(|e| vec![format!("{e} (the set {} names)", set_variable(name))])?
                .0
        }
        None => {
            set_from_magics(committed.variant, committed.rook, committed.bishop).map_err(report)?
        }
    };
    if !reads(backend, set.variant) {
        return Err(vec![format!(
            "{file}: {}",
            unreadable(backend, set.variant)
        )]);
    }
    let unindexable = unindexable(backend, &set);
    if !unindexable.is_empty() {
        let count = unindexable.len();
        let mut lines: Vec<String> = unindexable
            .into_iter()
            .map(|m| format!("{file}: {m}"))
            .collect();
        lines.push(format!(
            "{file}: {count} square(s), listed above, that the {name} backend cannot index"
        ));
        return Err(lines);
    }
    let verified = verify(&set).map_err(report)?;
    if user.is_none() && verified.table.len() != committed.table_len {
        return Err(vec![format!(
            "{file} declares TABLE_LEN = {} but its table has {} entries",
            committed.table_len,
            verified.table.len()
        )]);
    }
    Ok((set, verified.table))
}

/// Returns what the `backend` module's lookup cannot index in `set`, one message per
/// square: plain and black shift by a constant 12 (rook) or 9 (bishop) bits, the plain
/// lookup finds each square's array by its index alone, and every record's range starts
/// inside the table (an offset of 0 or more).
/// (magic-gen's variants allow more: black and white sets may shift per square and start a
/// range before the table.)
pub(crate) fn unindexable(backend: &BackendSpec, set: &MagicSet) -> Vec<String> {
    let mut problems = Vec::new();
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entry(piece, sq);
            let place = format!("{piece} {}", magic_gen::square_name(sq));
            let fixed = piece.fixed_bits();
            if backend.layout.fixed_shift() && e.bits != fixed {
                problems.push(format!(
                    "{place}: {} index bits, but the {} backend's shift is fixed at {fixed}",
                    e.bits, backend.name
                ));
            }
            let plain_offset = MagicSet::plain_offset(piece, sq);
            if backend.layout == Layout::Plain && e.offset != i64::from(plain_offset) {
                problems.push(format!(
                    "{place}: offset {} is not the plain layout's {plain_offset}",
                    e.offset
                ));
            }
            if e.offset < 0 {
                problems.push(format!(
                    "{place}: offset {}, but the runtime's ranges start inside the table \
                     (magic-gen sets may start a range before the table, the runtime's lookups \
                     may not)",
                    e.offset
                ));
            }
        }
    }
    problems
}
