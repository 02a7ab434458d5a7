//! Helpers shared by the runtime crate's integration tests: the backends compiled into
//! this build, and a seeded generator. Gated on the features and the target's cfgs only
//! (not on the cfgs build.rs gives the crate itself), so other packages (Miri's) can
//! compile the tests that use it as they are.

#![allow(dead_code)]

use magic_bitboards::Square;

/// A lookup: attacks of the piece on a square given the occupied squares.
pub type Lookup = fn(Square, u64) -> u64;

/// (name, rook, bishop, queen) of every backend compiled into this build, the crate-level
/// lookups first (named after the backend behind them).
pub fn backends() -> Vec<(&'static str, Lookup, Lookup, Lookup)> {
    #[allow(unused_mut)]
    let mut v: Vec<(&'static str, Lookup, Lookup, Lookup)> = vec![(
        magic_bitboards::BACKEND,
        magic_bitboards::rook_attacks,
        magic_bitboards::bishop_attacks,
        magic_bitboards::queen_attacks,
    )];
    #[allow(unused_macros)] // Used only when backend features are on.
    macro_rules! add {
        ($m:ident) => {
            v.push((
                magic_bitboards::$m::NAME,
                magic_bitboards::$m::rook_attacks,
                magic_bitboards::$m::bishop_attacks,
                magic_bitboards::$m::queen_attacks,
            ))
        };
    }
    #[cfg(feature = "fancy")]
    add!(fancy);
    #[cfg(feature = "plain")]
    add!(plain);
    #[cfg(feature = "black")]
    add!(black);
    #[cfg(all(
        feature = "pext",
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(magic_bitboards_no_pext)
    ))]
    add!(pext);
    #[cfg(all(
        feature = "pext_compact",
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(magic_bitboards_no_pext)
    ))]
    add!(pext_compact);
    #[cfg(feature = "hyperbola")]
    add!(hyperbola);
    v
}

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
