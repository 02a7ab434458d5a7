//! Every backend against magic-gen's slow ray walk: every square, every subset of the
//! relevant mask, and random full-board occupancies (bits off the lines must not matter);
//! backends against each other; the static tables against magic-gen's own fill.

use magic_bitboards::Square;
use magic_gen::{relevant_mask, slow_attacks, subsets, Piece};

mod common;

use common::{backends, Rng, CONST_TABLES};
use magic_bitboards::registry::{Entries, ALL_NAMES, BACKENDS};

#[test]
fn every_backend_matches_the_ray_walk_on_every_relevant_subset() {
    for (name, rook, bishop, queen) in backends() {
        for sq in Square::ALL {
            let i = sq.index() as u8;
            for (piece, f) in [(Piece::Rook, rook), (Piece::Bishop, bishop)] {
                for occ in subsets(relevant_mask(piece, i)) {
                    assert_eq!(
                        f(sq, occ),
                        slow_attacks(piece, i, occ),
                        "{name} {piece} {sq} occupancy {occ:#018x}"
                    );
                }
            }
            // The queen is the union; check it on the rook's subsets with a bishop blocker.
            for occ in subsets(relevant_mask(Piece::Rook, i)).step_by(7) {
                let occ = occ | relevant_mask(Piece::Bishop, i) & 0x0055_aa55_aa55_aa00;
                let expected =
                    slow_attacks(Piece::Rook, i, occ) | slow_attacks(Piece::Bishop, i, occ);
                assert_eq!(queen(sq, occ), expected, "{name} queen {sq} {occ:#018x}");
            }
        }
        println!("{name}: exhaustive ok");
    }
}

#[test]
fn bits_off_the_lines_do_not_matter() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let all = backends();
    for sq in Square::ALL {
        let i = sq.index() as u8;
        for _ in 0..500 {
            let occ = rng.occupancy();
            let rook = slow_attacks(Piece::Rook, i, occ);
            let bishop = slow_attacks(Piece::Bishop, i, occ);
            for (name, r, b, q) in &all {
                assert_eq!(r(sq, occ), rook, "{name} rook {sq} {occ:#018x}");
                assert_eq!(b(sq, occ), bishop, "{name} bishop {sq} {occ:#018x}");
                assert_eq!(q(sq, occ), rook | bishop, "{name} queen {sq} {occ:#018x}");
            }
        }
        for occ in [0, u64::MAX, sq.bit(), !sq.bit()] {
            for (name, r, _, _) in &all {
                assert_eq!(r(sq, occ), slow_attacks(Piece::Rook, i, occ), "{name} {sq}");
            }
        }
    }
}

#[test]
fn backends_agree_with_each_other() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let all = backends();
    for _ in 0..20_000 {
        let sq = Square::ALL[(rng.next() % 64) as usize];
        let occ = rng.occupancy();
        let (first, r0, b0, q0) = &all[0];
        for (name, r, b, q) in &all[1..] {
            assert_eq!(r(sq, occ), r0(sq, occ), "{name} vs {first} rook {sq}");
            assert_eq!(b(sq, occ), b0(sq, occ), "{name} vs {first} bishop {sq}");
            assert_eq!(q(sq, occ), q0(sq, occ), "{name} vs {first} queen {sq}");
        }
    }
}

#[test]
fn crate_level_backend_is_the_one_for_the_target() {
    let pext_target = common::PEXT_TARGET;
    let chosen = [
        (cfg!(magic_bitboards_backend = "fancy"), "fancy"),
        (cfg!(magic_bitboards_backend = "plain"), "plain"),
        (cfg!(magic_bitboards_backend = "black"), "black"),
        (
            cfg!(magic_bitboards_backend = "black_overlay"),
            "black_overlay",
        ),
        (cfg!(magic_bitboards_backend = "pext"), "pext"),
        (
            cfg!(magic_bitboards_backend = "pext_compact"),
            "pext_compact",
        ),
        (cfg!(magic_bitboards_backend = "hyperbola"), "hyperbola"),
        (
            cfg!(magic_bitboards_backend = "hyperbola_avx2"),
            "hyperbola_avx2",
        ),
    ]
    .into_iter()
    .find_map(|(on, name)| on.then_some(name));
    // With BMI2, PEXT only where the build names a CPU that runs it in hardware
    // (build/cpu.rs; tests/build_choice.rs checks that decision CPU by CPU).
    let fast_pext = magic_bitboards::BACKEND_WHY.contains("PEXT in hardware");
    let expected = match chosen {
        Some(name) => name,
        None if pext_target && fast_pext => "pext_compact",
        None => "black",
    };
    assert_eq!(magic_bitboards::BACKEND, expected);
}

#[path = "../magics.rs"]
mod magics;

/// The attack table magic-gen fills for the backend: from its committed set, or the PEXT
/// layout for the PEXT backends; with the set, for the compact table's expansion.
fn magic_gens_fill(backend: &str) -> (magic_gen::MagicSet, Vec<u64>) {
    let committed = magics::committed(backend);
    let set = match committed {
        Some(c) => magic_gen::set_from_magics(c.variant, c.rook, c.bishop)
            .unwrap_or_else(|e| panic!("{}: {e:?}", c.file)),
        None => magic_gen::MagicSet::pext(),
    };
    let table = magic_gen::verify(&set).expect("the set verifies").table;
    if let Some(c) = committed {
        assert_eq!(table.len(), c.table_len, "{}: TABLE_LEN", c.file);
    }
    (set, table)
}

#[test]
fn every_static_table_is_magic_gens_fill() {
    let mut checked = 0;
    for backend in BACKENDS.iter().filter(|b| !b.tables.is_empty()) {
        let (set, fill) = magic_gens_fill(backend.name);
        let range = |piece, sq| {
            let e = set.entry(piece, sq);
            e.offset as usize..e.offset as usize + (1 << e.bits)
        };
        let mut u64s = Vec::new();
        for table in backend.tables.iter().map(|t| t()) {
            match table.entries {
                Entries::U64(entries) => u64s.extend_from_slice(entries),
                // The rook ranges in square order (zeros between them: padding), each entry
                // packed to the bits of its square's empty-board rook attacks: expand them.
                Entries::U16(packed) => {
                    let mut slots = packed.iter().filter(|&&e| e != 0);
                    for sq in 0..64u8 {
                        let rays = magic_gen::empty_board_attacks(Piece::Rook, sq);
                        for _ in range(Piece::Rook, sq) {
                            let entry = slots.next().expect("a slot for every rook index");
                            u64s.push(magic_gen::pdep((*entry).into(), rays));
                        }
                    }
                    assert!(slots.next().is_none(), "{} {}", backend.name, table.name);
                }
            }
        }
        // The compact layout splits the fill by piece, each piece's ranges in square order
        // with zeros between them (no attack set is empty, so a zero is padding).
        let fill: Vec<u64> = if backend.name == "pext_compact" {
            u64s.retain(|&e| e != 0);
            Piece::ALL
                .into_iter()
                .flat_map(|piece| (0..64u8).flat_map(move |sq| range(piece, sq)))
                .map(|i| fill[i])
                .collect()
        } else {
            fill
        };
        // Every slot magic-gen fills holds its attacks; past its fill (the plain layout's
        // padding to whole arrays) there are only empty slots.
        assert!(
            u64s.len() >= fill.len(),
            "{}: table too short",
            backend.name
        );
        assert!(
            u64s[..fill.len()] == fill[..],
            "{}: table differs",
            backend.name
        );
        assert!(
            u64s[fill.len()..].iter().all(|&e| e == 0),
            "{}",
            backend.name
        );
        let bytes: usize = backend.tables.iter().map(|t| t().bytes()).sum();
        assert_eq!(bytes, backend.table_bytes, "{}: TABLE_BYTES", backend.name);
        checked += 1;
    }
    let with_tables = BACKENDS
        .iter()
        .filter(|b| b.table_bytes > 0 && !CONST_TABLES.contains(&b.name))
        .count();
    assert_eq!(checked, with_tables);
}

#[test]
fn registry_lists_the_crate_level_backend_and_every_feature() {
    let names: Vec<&str> = BACKENDS.iter().map(|b| b.name).collect();
    assert!(names.contains(&magic_bitboards::BACKEND), "{names:?}");
    for b in BACKENDS {
        assert!(ALL_NAMES.contains(&b.name));
        assert!(
            b.public
                || b.name == magic_bitboards::BACKEND
                || b.name == magic_bitboards::CONST_BACKEND,
            "{} is compiled for nothing",
            b.name
        );
    }
    let chosen = BACKENDS.iter().find(|b| b.name == magic_bitboards::BACKEND);
    assert_eq!(
        chosen.map(|b| b.table_bytes),
        Some(magic_bitboards::BACKEND_TABLE_BYTES)
    );
}

/// The README's backend table states each compiled backend's table bytes as this build
/// links them (the table cannot drift from the code without this test failing).
#[test]
fn readme_backend_table_states_the_table_bytes() {
    let readme = include_str!("../README.md");
    for b in BACKENDS {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", b.name)))
            .unwrap_or_else(|| panic!("README.md: no row for backend `{}`", b.name));
        let mut digits = b.table_bytes.to_string();
        let len = digits.len();
        for i in (1..len).rev().filter(|i| (len - i) % 3 == 0) {
            digits.insert(i, ',');
        }
        assert!(
            row.contains(&format!("| {digits} |")),
            "README.md row of `{}` must state {digits} table bytes: {row}",
            b.name
        );
    }
}
