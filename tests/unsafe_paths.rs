//! The runtime crate's `unsafe` paths on a sample small enough for Miri (`.ci/miri`):
//! every table backend's unchecked read (`get_unchecked` in fancy, black, pext and
//! pext_compact, and the PEXT/PDEP intrinsics where compiled), the `transmute`d static
//! tables (first and last entry of each), on every square with the empty board, the full
//! relevant mask (every blocker), single blockers, and a few seeded random subsets.
//!
//! Natively `tests/backends.rs` covers the same reads exhaustively (every square, every
//! subset of its relevant mask: every key a lookup can form, so every index it can
//! compute, with the `debug_assert!` bound checks of the debug build); this file is what
//! Miri can interpret in minutes, where it checks each read against the allocation.

use magic_bitboards::Square;
use magic_gen::{relevant_mask, slow_attacks, Piece};

mod common;

use common::{backends, Lookup, Rng};

/// (name, rook, bishop) of every backend with a table compiled into this build.
fn table_backends() -> Vec<(&'static str, Lookup, Lookup)> {
    backends()
        .into_iter()
        .filter(|b| b.0 != "hyperbola")
        .map(|(name, rook, bishop, _)| (name, rook, bishop))
        .collect()
}

/// Squares to check: all 64 (Miri interprets the few occupancies of each in seconds).
fn squares() -> Vec<Square> {
    Square::ALL.to_vec()
}

#[test]
fn unchecked_reads_on_sampled_occupancies() {
    let mut rng = Rng(0x0da7_a5af_e000_0001);
    let random = if cfg!(miri) { 2 } else { 64 };
    for (name, rook, bishop) in table_backends() {
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

/// The `transmute`d statics: reading their first and last entries touches both ends of
/// each included byte array (Miri checks the reads; values are tests/backends.rs's job).
#[test]
fn static_tables_are_readable_end_to_end() {
    #[allow(unused_mut)]
    let mut ends: Vec<(&str, u64, u64)> = Vec::new();
    #[cfg(feature = "fancy")]
    {
        let t = magic_bitboards::fancy::raw_table();
        ends.push(("fancy", t[0], t[t.len() - 1]));
    }
    #[cfg(feature = "black")]
    {
        let t = magic_bitboards::black::raw_table();
        ends.push(("black", t[0], t[t.len() - 1]));
    }
    #[cfg(feature = "plain")]
    {
        let (rook, bishop) = magic_bitboards::plain::raw_tables();
        ends.push(("plain", rook[0][0], bishop[63][511]));
        assert_eq!(rook[0][0], slow_attacks(Piece::Rook, 0, 0));
    }
    #[cfg(all(
        feature = "pext",
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(magic_bitboards_no_pext)
    ))]
    {
        let t = magic_bitboards::pext::raw_table();
        ends.push(("pext", t[0], t[t.len() - 1]));
    }
    for (name, first, last) in ends {
        // Some square's attacks (or a zero of an unused slot): read, not judged; what
        // every entry holds is checked by tests/backends.rs against magic-gen's fill.
        std::hint::black_box((name, first, last));
    }
    // The geometry tables are `transmute`d statics too.
    for a in squares() {
        for b in squares() {
            let _ = magic_bitboards::between(a, b) | magic_bitboards::line(a, b);
        }
        let _ = magic_bitboards::knight_attacks(a) | magic_bitboards::king_attacks(a);
    }
}

/// The README's count of `unsafe` blocks ("Hardening", "Unsafe") is the count in the
/// source, each block follows a `// SAFETY:` comment, and magic-gen forbids `unsafe`.
#[cfg(not(miri))]
#[test]
fn unsafe_blocks_are_the_ones_the_readme_counts() {
    use std::fs;
    use std::path::Path;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = fs::read_dir(root.join("src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.push(root.join("build.rs"));
    let mut blocks = 0;
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.contains("unsafe {") && !line.trim_start().starts_with("//") {
                blocks += 1;
                let comment = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| l.trim_start().starts_with("//") || l.contains("let "))
                    .any(|l| l.contains("// SAFETY:"));
                assert!(comment, "{}:{}: no SAFETY comment", file.display(), i + 1);
            }
        }
    }
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let claimed = format!("has **{blocks}** `unsafe` blocks");
    assert!(readme.contains(&claimed), "README must say: {claimed}");
    let lib = fs::read_to_string(root.join("magic-gen/src/lib.rs")).unwrap();
    assert!(lib.contains("#![forbid(unsafe_code)]"));
}
