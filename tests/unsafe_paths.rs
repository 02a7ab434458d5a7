//! The runtime crate's `unsafe` paths on a sample small enough for Miri (`.ci/miri`):
//! every table backend's unchecked read (`assert_unchecked` of the bound, and the
//! PEXT/PDEP intrinsics where compiled) and the AVX2 backend's vector loads and
//! intrinsics, on every square with the empty board, the full relevant mask (every
//! blocker), single blockers and a few seeded random subsets; and every `transmute`d
//! static table read end to end against the checksum build.rs recorded when it wrote it.
//!
//! Natively `tests/backends.rs` covers the same reads exhaustively (every square, every
//! subset of its relevant mask: every key a lookup can form, so every index it can
//! compute, with the bounds checks the debug build keeps); this file is what
//! Miri can interpret in minutes, where it checks each read against the allocation.

use magic_bitboards::Square;
use magic_gen::{relevant_mask, slow_attacks, Piece};

mod common;

use common::{Rng, CONST_TABLES};
use magic_bitboards::registry::BACKENDS;

/// Squares to check: all 64 (Miri interprets the few occupancies of each in seconds).
fn squares() -> Vec<Square> {
    Square::ALL.to_vec()
}

#[test]
fn unchecked_reads_on_sampled_occupancies() {
    let mut rng = Rng(0x0da7_a5af_e000_0001);
    let random = if cfg!(miri) { 2 } else { 64 };
    // The backends with `unsafe` reads: table reads, and the vector backend's loads.
    let with_unsafe = BACKENDS
        .iter()
        .filter(|b| !b.tables.is_empty() || CONST_TABLES.contains(&b.name));
    for backend in with_unsafe {
        let (name, rook, bishop) = (backend.name, backend.rook, backend.bishop);
        for sq in squares() {
            let i = sq.index() as u8;
            for (piece, f) in [(Piece::Rook, rook), (Piece::Bishop, bishop)] {
                let mask = relevant_mask(piece, i);
                let mut occs = vec![0, mask, u64::MAX, !mask];
                let mut bits = mask;
                let singles = if cfg!(miri) { 2 } else { 12 };
                for _ in 0..singles {
                    if bits == 0 {
                        break;
                    }
                    occs.push(bits & bits.wrapping_neg());
                    bits &= bits - 1;
                }
                for _ in 0..random {
                    occs.push(rng.next() & rng.next());
                }
                for occ in occs {
                    assert_eq!(
                        f(sq, occ),
                        slow_attacks(piece, i, occ),
                        "{name} {piece} {sq} {occ:#018x}"
                    );
                }
            }
        }
        println!("{name}: sampled reads ok");
    }
}

/// The `transmute`d statics hold what build.rs wrote: each table read entry by entry
/// (Miri checks every read against the included bytes) has the checksum build.rs computed
/// from the words before turning them into bytes, so a wrong length, byte order or file
/// fails here; and their sizes add up to the backend's `TABLE_BYTES`.
#[test]
fn static_tables_read_back_what_build_rs_wrote() {
    let mut tables = 0;
    for backend in BACKENDS {
        let mut bytes = 0;
        for table in backend.tables.iter().map(|t| t()) {
            assert_eq!(
                table.read_checksum(),
                table.written_checksum,
                "{} {}: the static does not hold the words build.rs wrote",
                backend.name,
                table.name
            );
            bytes += table.bytes();
            tables += 1;
        }
        if !CONST_TABLES.contains(&backend.name) {
            assert_eq!(bytes, backend.table_bytes, "{}: TABLE_BYTES", backend.name);
        }
    }
    let with_tables = BACKENDS
        .iter()
        .filter(|b| b.table_bytes > 0 && !CONST_TABLES.contains(&b.name))
        .count();
    assert!(
        tables >= with_tables,
        "{tables} tables for {with_tables} backends"
    );
}

/// The geometry tables are `transmute`d statics too: where `between` and `line` are tables,
/// all 4096 entries of each equal the computation 16-bit targets use instead.
#[test]
fn between_and_line_tables_match_their_computation() {
    use magic_bitboards::registry::{between_computed, line_computed};
    for a in squares() {
        for b in squares() {
            assert_eq!(
                magic_bitboards::between(a, b),
                between_computed(a, b),
                "{a} {b}"
            );
            assert_eq!(magic_bitboards::line(a, b), line_computed(a, b), "{a} {b}");
        }
    }
}

/// Every `unsafe` block of the runtime crate (src/, build.rs, build/) follows a `// SAFETY:`
/// comment, and every unchecked read is an `assert_unchecked` of its bound followed by an
/// ordinary index (no `get_unchecked`), so the debug build, which keeps the bounds check,
/// checks every index the exhaustive tests (tests/backends.rs) form. magic-gen forbids
/// `unsafe`.
#[cfg(not(miri))]
#[test]
fn every_unsafe_block_is_justified_and_every_unchecked_read_bounded() {
    use std::fs;
    use std::path::{Path, PathBuf};
    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("build.rs")];
    rust_files(&root.join("build"), &mut files);
    rust_files(&root.join("src"), &mut files);
    let (mut blocks, mut unchecked) = (0, 0);
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let at = format!("{}:{}", file.display(), i + 1);
            if code.contains("unsafe {") {
                blocks += 1;
                // The comment block right above (a `let` may open the statement).
                let safety = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| l.trim_start().starts_with("//") || l.contains("let "))
                    .any(|l| l.contains("// SAFETY:"));
                assert!(safety, "{at}: `unsafe` block without a SAFETY comment");
            }
            assert!(
                !code.contains("get_unchecked("),
                "{at}: read without a bounds check"
            );
            if let Some(hint) = code.split("assert_unchecked(").nth(1) {
                unchecked += 1;
                // `assert_unchecked(i < TABLE.len())`, then `TABLE[i]` on the next line.
                let table = hint
                    .split(" < ")
                    .nth(1)
                    .and_then(|t| t.strip_suffix(".len()) };"));
                let table = table.unwrap_or_else(|| panic!("{at}: expected `i < TABLE.len()`"));
                let read = format!("{table}[i]");
                assert!(
                    lines[i + 1].contains(&read),
                    "{at}: the hinted read `{read}` follows"
                );
            }
        }
    }
    println!(
        "{blocks} unsafe blocks, {unchecked} unchecked reads, in {} files",
        files.len()
    );
    assert!(
        blocks >= unchecked && unchecked > 0,
        "the scan found no unchecked read"
    );
    let lib = fs::read_to_string(root.join("magic-gen/src/lib.rs")).unwrap();
    assert!(lib.contains("#![forbid(unsafe_code)]"));
}
