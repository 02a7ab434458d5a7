//! Small polished black and white hunts, a small evolved black one and a small fancy one
//! below the popcount, pinned byte for byte: each command below must write
//! exactly its committed set (magic-gen/tests/data/pinned-*.txt, whose `# command:` line is
//! the command), so a change to a climb's move, a ranking, the packer or a default shows
//! here at once. Each run takes about a second or two in the test build.
//!
//! After a deliberate change of what a hunt produces, write the sets anew and commit them
//! with the reason: `MAGIC_GEN_BLESS=1 cargo test -p magic-gen --test pinned_hunts`.

mod common;

use std::fs;

use common::{magic_gen, scratch};

/// What the polished hunts share: two blocks of candidates per square, small pools, the
/// scan-time density climbs and the pools' polish; with each one's packing, every stage
/// has work.
const POLISHED: &[&str] = &[
    "--candidates",
    "8192",
    "--pool",
    "2",
    "--sparse-pool",
    "1",
    "--patience",
    "50",
    "--polish",
    "200",
    "--threads=2",
];

/// Returns the black hunt's command line.
fn black() -> Vec<&'static str> {
    let packing = ["--pack-iterations", "1000", "--out", "pinned-black.txt"];
    [&["search", "--variant", "black"], POLISHED, &packing].concat()
}

/// Returns the white hunt's command line: with the clump climb of white pools, and fewer
/// packing moves (white's cost more).
fn white() -> Vec<&'static str> {
    let packing = [
        "--clump",
        "100",
        "--pack-iterations",
        "300",
        "--out",
        "pinned-white.txt",
    ];
    [&["search", "--variant", "white"], POLISHED, &packing].concat()
}

/// Returns the evolved black hunt's command line: the polished hunt with an evolution of
/// each pool (`--evolve`, which made the committed own-only sets; their regeneration is an
/// ignored test), long enough that its fronts join the pools and the packed set.
fn evolved() -> Vec<&'static str> {
    let evolution = [
        "--evolve",
        "4000",
        "--pack-iterations",
        "1000",
        "--out",
        "pinned-evolved.txt",
    ];
    [&["search", "--variant", "black"], POLISHED, &evolution].concat()
}

/// Bishops one bit under their mask popcount, one block of candidates each: the
/// reduced-bits climb and the fallback of the squares it does not reach.
const FANCY: &[&str] = &[
    "search",
    "--piece",
    "bishop",
    "--bits-under",
    "1",
    "--candidates",
    "4096",
    "--threads=2",
    "--out",
    "pinned-fancy.txt",
];

/// Runs `args` (ending in `--out NAME`) and compares the set it writes with
/// tests/data/NAME, or writes it there when `MAGIC_GEN_BLESS` is set.
fn pinned(args: &[&str]) {
    let name = *args.last().unwrap();
    let dir = scratch(name.trim_end_matches(".txt"));
    let run = magic_gen(&dir, args);
    run.assert_success();
    let written = fs::read_to_string(dir.join(name)).unwrap();
    assert!(
        magic_gen(&dir, &["verify", name]).code == 0,
        "{name} fails verification"
    );
    let pinned = common::test_data(name);
    if std::env::var_os("MAGIC_GEN_BLESS").is_some() {
        fs::write(&pinned, &written).unwrap();
        eprintln!("blessed {}", pinned.display());
        return;
    }
    let expected = fs::read_to_string(&pinned).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (write it with MAGIC_GEN_BLESS=1 cargo test -p magic-gen --test pinned_hunts)",
            pinned.display()
        )
    });
    if written != expected {
        let first = written
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .map_or("its length".to_string(), |k| format!("line {}", k + 1));
        panic!(
            "{name}: the hunt no longer writes its pinned set (first difference at {first}; \
             written: {}). If the change is meant, bless it: MAGIC_GEN_BLESS=1 cargo test -p \
             magic-gen --test pinned_hunts",
            dir.join(name).display()
        );
    }
}

#[test]
fn a_small_polished_black_hunt_writes_its_pinned_set() {
    pinned(&black());
}

#[test]
fn a_small_polished_white_hunt_writes_its_pinned_set() {
    pinned(&white());
}

#[test]
fn a_small_evolved_black_hunt_writes_its_pinned_set() {
    pinned(&evolved());
}

#[test]
fn a_small_fancy_hunt_one_bit_under_writes_its_pinned_set() {
    pinned(FANCY);
}
