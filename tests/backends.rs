//! Every backend against magic-gen's slow ray walk: every square, every subset of the
//! relevant mask, and random full-board occupancies (bits off the lines must not matter);
//! backends against each other; the static tables against magic-gen's own fill.
//!

use magic_bitboards::Square;
use magic_gen::{relevant_mask, slow_attacks, subsets, Piece};

mod common;

use common::{backends, Rng};

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
        let (first, r0, b0, q0) = all[0];
        for (name, r, b, q) in &all[1..] {
            assert_eq!(r(sq, occ), r0(sq, occ), "{name} vs {first} rook {sq}");
            assert_eq!(b(sq, occ), b0(sq, occ), "{name} vs {first} bishop {sq}");
            assert_eq!(q(sq, occ), q0(sq, occ), "{name} vs {first} queen {sq}");
        }
    }
}

#[test]
fn crate_level_backend_is_the_one_for_the_target() {
    let pext_target = cfg!(all(
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(magic_bitboards_no_pext)
    ));
    let chosen = [
        (cfg!(magic_bitboards_backend = "fancy"), "fancy"),
        (cfg!(magic_bitboards_backend = "plain"), "plain"),
        (cfg!(magic_bitboards_backend = "black"), "black"),
        (cfg!(magic_bitboards_backend = "pext"), "pext"),
        (
            cfg!(magic_bitboards_backend = "pext_compact"),
            "pext_compact",
        ),
        (cfg!(magic_bitboards_backend = "hyperbola"), "hyperbola"),
    ]
    .into_iter()
    .find_map(|(on, name)| on.then_some(name));
    let expected = match chosen {
        Some(name) => name,
        None if pext_target => "pext",
        None => "black",
    };
    assert_eq!(magic_bitboards::BACKEND, expected);
}

/// The committed sets, included exactly as build.rs includes them.
#[allow(dead_code)]
mod sets {
    pub mod fancy {
        use magic_gen::Magic;
        include!("../magics/fancy.rs");
    }
    pub mod plain {
        use magic_gen::Magic;
        include!("../magics/plain.rs");
    }
    pub mod black {
        use magic_gen::Magic;
        include!("../magics/black.rs");
    }
}

#[allow(dead_code)]
fn fill(variant: &str, rook: &[magic_gen::Magic; 64], bishop: &[magic_gen::Magic; 64]) -> Vec<u64> {
    let set = magic_gen::set_from_magics(variant, rook, bishop).expect("committed set is valid");
    magic_gen::verify(&set)
        .expect("committed set verifies")
        .table
}

#[cfg(feature = "fancy")]
#[test]
fn fancy_table_is_magic_gens_fill() {
    let table = fill(
        sets::fancy::VARIANT,
        &sets::fancy::ROOK,
        &sets::fancy::BISHOP,
    );
    assert!(magic_bitboards::fancy::raw_table() == &table[..]);
}

#[cfg(feature = "black")]
#[test]
fn black_table_is_magic_gens_fill() {
    let table = fill(
        sets::black::VARIANT,
        &sets::black::ROOK,
        &sets::black::BISHOP,
    );
    assert!(magic_bitboards::black::raw_table() == &table[..]);
}

#[cfg(feature = "plain")]
#[test]
fn plain_tables_are_magic_gens_fill() {
    let mut table = fill(
        sets::plain::VARIANT,
        &sets::plain::ROOK,
        &sets::plain::BISHOP,
    );
    table.resize(64 * 4096 + 64 * 512, 0);
    let (rook, bishop) = magic_bitboards::plain::raw_tables();
    let flat: Vec<u64> = rook
        .iter()
        .flatten()
        .chain(bishop.iter().flatten())
        .copied()
        .collect();
    assert!(flat == table);
}

#[cfg(all(
    feature = "pext",
    target_arch = "x86_64",
    target_feature = "bmi2",
    not(magic_bitboards_no_pext)
))]
#[test]
fn pext_table_is_magic_gens_fill() {
    let table = magic_gen::verify(&magic_gen::MagicSet::pext())
        .unwrap()
        .table;
    assert!(magic_bitboards::pext::raw_table() == &table[..]);
}

#[cfg(all(
    feature = "pext_compact",
    target_arch = "x86_64",
    target_feature = "bmi2",
    not(magic_bitboards_no_pext)
))]
#[test]
fn compact_table_expands_to_magic_gens_fill() {
    let set = magic_gen::MagicSet::pext();
    let table = magic_gen::verify(&set).unwrap().table;
    let compact = magic_bitboards::pext_compact::raw_table();
    assert_eq!(compact.len(), table.len());
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let e = set.entry(piece, sq);
            let rays = magic_gen::empty_board_attacks(piece, sq);
            for i in e.offset as usize..e.offset as usize + (1 << e.bits) {
                assert_eq!(magic_gen::pdep(compact[i].into(), rays), table[i]);
            }
        }
    }
}
