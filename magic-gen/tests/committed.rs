//! The committed sets in `magics/`: each one verifies, records the command that produced
//! it, and that command run again gives the committed file byte for byte.

mod common;

use std::fs;

use common::{committed, magic_gen, scratch, COMMITTED};
use magic_gen::{read_set_file, verify, Piece, Variant};

#[test]
fn every_committed_set_verifies() {
    for name in COMMITTED {
        let (set, provenance) = read_set_file(&committed(name)).expect("committed set reads");
        assert_eq!(set.variant, Variant::parse(name).unwrap(), "{name}");
        let v = verify(&set).unwrap_or_else(|f| panic!("{name}: {f:?}"));
        let header = fs::read_to_string(committed(name)).unwrap();
        let recorded = format!("TABLE_LEN: usize = {};", v.report.table_len);
        assert!(header.contains(&recorded), "{name}: stale TABLE_LEN");
        let command = provenance.command.expect("a command in the header");
        assert!(
            command.starts_with(&format!("magic-gen search --variant {name} "))
                && command.ends_with(&format!(" --out magics/{name}.rs")),
            "{name}: {command}"
        );
        assert!(provenance.seed.is_some(), "{name}: no seed in the header");
        match set.variant {
            Variant::Fancy => assert!(v.report.table_len <= 107_648),
            Variant::Plain => assert!(v.report.table_len <= 64 * 4096 + 64 * 512),
            _ => {
                for piece in Piece::ALL {
                    assert!(set.entries[piece.index()]
                        .iter()
                        .all(|e| e.bits == piece.fixed_bits()));
                }
            }
        }
    }
}

/// Returns true for a record-hunt command: a `--candidates` budget (deterministic but
/// minutes long) or a `--seconds` budget (depends on the machine).
fn is_hunt(command: &str) -> bool {
    command.contains("--candidates") || command.contains("--seconds")
}

/// Runs `name`'s recorded command from a scratch copy of the workspace layout and asserts
/// it writes the committed file byte for byte.
fn assert_regenerates(dir: &std::path::Path, name: &str) {
    let (_, provenance) = read_set_file(&committed(name)).unwrap();
    let command = provenance.command.unwrap();
    let args: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(args[0], "magic-gen");
    let run = magic_gen(dir, &args[1..]);
    run.assert_success();
    let fresh = fs::read(dir.join("magics").join(format!("{name}.rs"))).unwrap();
    let old = fs::read(committed(name)).unwrap();
    assert!(
        fresh == old,
        "magics/{name}.rs is stale: `{command}` now writes a different file; regenerate it \
         with `cargo run --release -p magic-gen -- {}`",
        args[1..].join(" ")
    );
}

/// The fast sets (no hunt budget in their command) regenerate identically; each takes
/// well under a second in release.
#[test]
fn committed_sets_regenerate_identically_from_their_recorded_command() {
    let dir = scratch("regenerate");
    fs::create_dir_all(dir.join("magics")).unwrap();
    for name in COMMITTED {
        let (_, provenance) = read_set_file(&committed(name)).unwrap();
        if !is_hunt(&provenance.command.unwrap()) {
            assert_regenerates(&dir, name);
        }
    }
}

/// The hunted sets with a `--candidates` budget regenerate identically too, in minutes:
/// `cargo test --release -p magic-gen --test committed -- --ignored`.
#[test]
#[ignore = "minutes long: a record hunt's --candidates budget"]
fn hunted_sets_regenerate_identically_from_their_recorded_command() {
    let dir = scratch("regenerate-hunts");
    fs::create_dir_all(dir.join("magics")).unwrap();
    for name in COMMITTED {
        let (_, provenance) = read_set_file(&committed(name)).unwrap();
        let command = provenance.command.unwrap();
        if command.contains("--candidates") && !command.contains("--seconds") {
            assert_regenerates(&dir, name);
        }
    }
}

/// The densest sets the record hunts found (README, "Record hunts"), kept beside the ones
/// the runtime builds from: they verify, beat the standard size, and say how they were made.
#[test]
fn the_densest_sets_found_verify() {
    let (set, provenance) = read_set_file(&committed("fancy-dense")).expect("the set reads");
    let v = verify(&set).unwrap_or_else(|f| panic!("fancy-dense: {f:?}"));
    assert_eq!(set.variant, Variant::Fancy);
    assert!(v.report.table_len < 107_648, "{}", v.report.table_len);
    assert!(v.report.squares_below_popcount(Piece::Bishop) > 0);
    let command = provenance.command.expect("a command in the header");
    assert!(command.contains("--bits-under 1"), "{command}");
}
