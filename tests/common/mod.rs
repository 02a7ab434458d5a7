//! Helpers shared by the runtime crate's integration tests: the backends compiled into
//! this build (from the crate's registry, so no test repeats a backend's cfg), cargo run on
//! a crate of a test's own, and a seeded generator.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use magic_bitboards::registry::{Lookup, BACKENDS};

/// The committed sets the runtime builds its tables from, `magics/<name>.rs`, named by
/// their backend (tests/own_set.rs checks this against the files in `magics/`).
pub const COMMITTED_SETS: [&str; 4] = ["fancy", "plain", "black", "black_overlay"];

/// Returns the command `cargo ARGS --offline` in the crate at `dir`, building into `target`,
/// without this process's RUSTFLAGS or `MAGIC_BITBOARDS_*_SET` variables: a test's crate
/// builds from what the test gives it (its own sets, flags and variables), nothing else.
pub fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut command = Command::new(cargo);
    command
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS");
    for backend in ["FANCY", "PLAIN", "BLACK"] {
        command.env_remove(format!("MAGIC_BITBOARDS_{backend}_SET"));
    }
    command
}

/// (name, rook, bishop, queen) of every backend compiled into this build, the crate-level
/// lookups first (named `crate-level (NAME)` after the backend behind them), then their
/// `const fn` counterparts (`crate-level const (NAME)`).
pub fn backends() -> Vec<(String, Lookup, Lookup, Lookup)> {
    let crate_level = (
        format!("crate-level ({})", magic_bitboards::BACKEND),
        magic_bitboards::rook_attacks as Lookup,
        magic_bitboards::bishop_attacks as Lookup,
        magic_bitboards::queen_attacks as Lookup,
    );
    let crate_level_const = (
        format!("crate-level const ({})", magic_bitboards::CONST_BACKEND),
        magic_bitboards::rook_attacks_const as Lookup,
        magic_bitboards::bishop_attacks_const as Lookup,
        magic_bitboards::queen_attacks_const as Lookup,
    );
    let modules = BACKENDS
        .iter()
        .map(|b| (b.name.to_string(), b.rook, b.bishop, b.queen));
    [crate_level, crate_level_const]
        .into_iter()
        .chain(modules)
        .collect()
}

/// Whether this build's target has PEXT: x86_64 with BMI2, not switched off.
// tests/unsafe_paths.rs also runs from .ci/miri's package, which build.rs's check-cfg list
// does not reach.
#[allow(unexpected_cfgs)]
pub const PEXT_TARGET: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "bmi2",
    not(magic_bitboards_no_pext)
));

/// Backends whose small tables are `static`s const-evaluated in their own module, not
/// written by build.rs: they list no registry tables, and their lookups (checked
/// exhaustively in tests/backends.rs) are what proves those tables.
pub const CONST_TABLES: &[&str] = &["hyperbola_avx2"];

/// xorshift64: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Occupancies of every density: sparse, half, dense.
    pub fn occupancy(&mut self) -> u64 {
        match self.next() % 4 {
            0 => self.next() & self.next() & self.next(),
            1 => self.next() & self.next(),
            2 => self.next(),
            _ => self.next() | self.next(),
        }
    }
}
