//! Chess attack bitboards as static data: magic and PEXT tables for rooks, bishops and
//! queens, plus knight, king and pawn attacks, rays, `between` and `line`, all computed
//! and verified by the build script and linked into read-only data. There is no
//! initialisation call, no lazy static and no dependency, and the crate is `no_std`.
//!
//! ```
//! use magic_bitboards::{queen_attacks, Square};
//!
//! let e4: Square = "e4".parse().unwrap();
//! let occupied = Square::E7.bit() | Square::C2.bit() | Square::H4.bit();
//! let attacks = queen_attacks(e4, occupied);
//! assert!(attacks & Square::E7.bit() != 0); // the blocker is attacked
//! assert!(attacks & Square::E8.bit() == 0); // the square behind it is not
//! assert!(attacks & Square::B1.bit() == 0); // behind c2
//! assert!(attacks & Square::H4.bit() != 0);
//! ```
//!
//! Bitboards are plain `u64` (bit `i` is square `i`, a1 = 0, h8 = 63), so an engine with
//! its own bitboard type converts for free. Squares are a [`Square`], which is always on
//! the board: no lookup can panic or read out of bounds. [`squares`] walks the squares of
//! a bitboard; [`File`], [`Rank`], [`Square::flip_rank`] and [`Square::relative_to`] cover
//! the coordinates move generators need.
//!
//! ```
//! use magic_bitboards::{knight_attacks, squares, Color, Rank, Square};
//!
//! let knights = Square::B1.bit() | Square::G1.bit();
//! let moves: u32 = squares(knights).map(|sq| knight_attacks(sq).count_ones()).sum();
//! assert_eq!(moves, 6);
//! // Black's knights start on the same squares, seen from the other side.
//! assert_eq!(Square::G1.relative_to(Color::Black), Square::G8);
//! assert_eq!(Rank::Second.relative_to(Color::Black).bitboard(), 0x00ff_0000_0000_0000);
//! ```
//!
//! # Backends
//!
//! The crate-level [`rook_attacks`], [`bishop_attacks`] and [`queen_attacks`] use the
//! fastest backend for the target, chosen at compile time and named by [`BACKEND`]:
//!
//! * `pext_compact` where the target has BMI2 and the CPU runs PEXT in hardware: a CPU
//!   named by `-C target-cpu` (Intel from Haswell, AMD from Zen 3, `native` on such a
//!   host) or a level with AVX-512 (`x86-64-v4`). PEXT indices into 249 KiB of tables (u16
//!   rook entries expanded by PDEP, u64 bishop entries);
//! * otherwise `black` (black magics), the fastest multiply backend in perft: without
//!   BMI2, on AMD before Zen 3 (`znver1`, `znver2`, or `native` on such a host), which runs
//!   PEXT in microcode, and on a generic level such as `x86-64-v3`, which may run there;
//! * `hyperbola` on bare-metal targets (`target_os = "none"`), whose flash is counted in
//!   KiB, and on 16-bit targets, where no attack table fits. There `between` and `line` are
//!   computed from the rays instead of read from 32 KiB tables; on bare metal `--cfg
//!   magic_bitboards_line_tables` brings the tables back.
//!
//! `--cfg magic_bitboards_backend="NAME"` (in `RUSTFLAGS`) picks the crate-level backend
//! outright, e.g. `"hyperbola"` for the smallest binary, `"pext"` for the u64 PEXT table, or
//! `"hyperbola_avx2"` for 4.5 KiB of tables on AVX2 targets.
//!
//! # Credits
//!
//! The `black` backend, the crate-level default wherever PEXT is not fast, is built from
//! the magic set `magics/black.rs`. 65 of its 128 magics are Volker Annuss's black magics
//! as improved by Niklas Fiekas, published in the talkchess.com (CCC) forum thread "Black
//! magic bitboards" (2017): the 87,988-entry set that cozy-chess and Cfish ship. The other
//! 63 were found by this project's searches (`magic-gen`), which then chose between the
//! sets square by square to pack one shorter table. The set's `credit:` header line names
//! the squares, and `docs/regenerating.md` in the repository gives the commands that rebuild
//! it.
//!
//! # In const items
//!
//! The geometry lookups ([`knight_attacks`], [`king_attacks`], [`pawn_attacks`],
//! [`rook_rays`], [`bishop_rays`], [`between`], [`line()`]) are `const fn`, and so are the
//! lookups of the `fancy`, `plain`, `black` and `hyperbola` modules. The crate-level
//! slider lookups are not, since the backend behind them may be PEXT; their counterparts
//! [`rook_attacks_const`], [`bishop_attacks_const`] and [`queen_attacks_const`] are `const
//! fn` on every target (backed by [`CONST_BACKEND`]).
//!
//! ```
//! use magic_bitboards::{between, knight_attacks, queen_attacks_const, Square};
//!
//! const KNIGHT_E4: u64 = knight_attacks(Square::E4);
//! const CHECK_BLOCKS: u64 = between(Square::E1, Square::E8);
//! const QUEEN_D1: u64 = queen_attacks_const(Square::D1, 0xffff_0000_0000_ffff);
//! assert_eq!(KNIGHT_E4.count_ones(), 8);
//! assert_eq!(CHECK_BLOCKS.count_ones(), 6);
//! assert_eq!(QUEEN_D1, Square::C1.bit() | Square::E1.bit() | Square::C2.bit() | Square::D2.bit() | Square::E2.bit());
//! ```
//!
//! # Backend modules
//!
//! Each backend is also a module with the same three functions, compiled in when its
//! cargo feature is on: `fancy`, `plain`, `black`, `pext` and `pext_compact` (the last two
//! only on x86_64 targets with BMI2), the table-free `hyperbola`, and `hyperbola_avx2`
//! (vector Hyperbola Quintessence with 4.5 KiB of tables, only on x86_64 targets with AVX2).
//!
//! These docs describe the build they were generated from: they list the modules it
//! compiled, and [`BACKEND`] (with [`BACKEND_WHY`]), [`CONST_BACKEND`] and
//! [`PEXT_AVAILABLE`] say what it picked.
#![cfg_attr(
    docsrs,
    doc = "On docs.rs that is an x86-64 build with BMI2 and AVX2 and every feature, so \
           that every module is listed, each marked with the feature and target it needs."
)]
#![cfg_attr(
    not(docsrs),
    doc = "To list every module, as docs.rs does, give the target BMI2 and AVX2 and turn \
           on every feature: `RUSTFLAGS=\"-C target-cpu=x86-64-v3\" \
           RUSTDOCFLAGS=\"-C target-cpu=x86-64-v3\" cargo doc --all-features`."
)]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs, clippy::undocumented_unsafe_blocks)]

#[macro_use]
mod tables;
mod backend;
mod coords;
mod geometry;
mod square;

#[allow(unused_imports)] // Empty when no backend feature is on.
pub use backend::public::*;
pub use coords::{Color, File, ParseColorError, ParseFileError, ParseRankError, Rank};
pub use square::{squares, ParseSquareError, Square, SquareOutOfRange, Squares};

use backend::{chosen, const_chosen};
use tables::{BISHOP_RAYS, KING, KNIGHT, PAWN, ROOK_RAYS};

/// The README's Rust example, compiled and run with the doctests so that it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;

/// The compiled backends as data, for this crate's tests and benchmarks: not a stable API.
#[doc(hidden)]
pub mod registry {
    pub use crate::backend::{
        checksum, visit, Backend, Entries, Lookup, Lookups, Table, Visitor, ALL_NAMES, BACKENDS,
    };
    pub use crate::geometry::{between_computed, line_computed};
}

/// Adds to a constant's docs the backend this build set in `$cfg` (`mb_default` or
/// `mb_const_default`, one name each, from build.rs), so that every build's docs name its
/// own choice rather than docs.rs's.
macro_rules! this_build {
    (@names [$($name:literal),*]) => {
        /// The backends `this_build!` can name, for the test that it can name them all.
        #[cfg(test)]
        const NAMED_BACKENDS: &[&str] = &[$($name),*];
    };
    (@doc [$($name:literal),*] $cfg:ident: $(#[$attr:meta])* pub const $n:ident: $t:ty = $e:expr;) => {
        $(#[$attr])*
        ///
        $(#[cfg_attr($cfg = $name, doc = concat!(
            "In the build these docs come from, it is `\"", $name, "\"`."
        ))])*
        pub const $n: $t = $e;
    };
    ($($rest:tt)*) => {
        this_build!(@$($rest)*);
    };
}

// One list of the backends for both uses of `this_build!` (a test checks it against the
// crate's list, src/backend/list.rs).
macro_rules! with_backend_names {
    ($what:ident $($rest:tt)*) => {
        this_build!(@$what ["fancy", "plain", "black", "black_overlay", "pext", "pext_compact", "hyperbola", "hyperbola_avx2"] $($rest)*);
    };
}

with_backend_names!(names);

with_backend_names! { doc mb_default:
    /// The backend behind the crate-level [`rook_attacks`], [`bishop_attacks`] and
    /// [`queen_attacks`]: the name of a backend module, e.g. `"pext_compact"` under `-C
    /// target-cpu=haswell` and `"black"` on baseline x86-64 (see the crate documentation;
    /// [`BACKEND_WHY`] says why).
    ///
    /// ```
    /// // Only the table-free backend links no attack table.
    /// let table_free = magic_bitboards::BACKEND == "hyperbola";
    /// assert_eq!(table_free, magic_bitboards::BACKEND_TABLE_BYTES == 0);
    /// ```
    pub const BACKEND: &str = chosen::NAME;
}

/// Why the build chose [`BACKEND`], in a few words that follow its name: e.g. `black:
/// znver2 runs PEXT in microcode` under `-C target-cpu=znver2`, `pext_compact: haswell runs
/// PEXT in hardware`, or `black: x86-64-v3 names no CPU, ...` for a generic level, which
/// may run on AMD Zen 1 or 2 (docs/backends.md has the table of CPUs).
///
/// ```
/// println!("{}: {}", magic_bitboards::BACKEND, magic_bitboards::BACKEND_WHY);
/// # assert!(!magic_bitboards::BACKEND_WHY.is_empty());
/// ```
#[doc = concat!(
    "\nIn the build these docs come from: `",
    include_str!(concat!(env!("OUT_DIR"), "/backend_why.txt")),
    "`."
)]
pub const BACKEND_WHY: &str = include_str!(concat!(env!("OUT_DIR"), "/backend_why.txt"));

/// Whether this build has the PEXT backends: the target is `x86_64` with BMI2 (e.g. `-C
/// target-cpu=x86-64-v3`) and PEXT is not switched off with `--cfg
/// magic_bitboards_no_pext`. Where it is `false`, the `pext` and `pext_compact` features
/// compile nothing (so that one manifest serves every target) and [`BACKEND`] is neither
/// `"pext"` nor `"pext_compact"`.
///
/// ```
/// use magic_bitboards::{BACKEND, PEXT_AVAILABLE};
///
/// if BACKEND.starts_with("pext") {
///     assert!(PEXT_AVAILABLE);
/// }
/// ```
///
#[cfg_attr(mb_pext, doc = "In the build these docs come from, it is `true`.")]
#[cfg_attr(
    not(mb_pext),
    doc = "In the build these docs come from, it is `false`, so the `pext` and \
           `pext_compact` modules are not in them."
)]
#[cfg_attr(
    docsrs,
    doc = "docs.rs builds them for a BMI2 target so that they show the PEXT modules; a \
           build for a baseline x86-64 CPU has none."
)]
pub const PEXT_AVAILABLE: bool = cfg!(mb_pext);

/// Bytes of attack table the crate-level lookups link in.
pub const BACKEND_TABLE_BYTES: usize = chosen::TABLE_BYTES;

/// Returns the squares a rook on `sq` attacks given the `occupied` squares, with the
/// fastest backend for the target ([`BACKEND`]).
///
/// Bits of `occupied` off the rook's lines are ignored, so pass the whole board. The
/// first blocker on each ray is included (mask out your own pieces afterwards).
///
/// ```
/// use magic_bitboards::{rook_attacks, Square};
///
/// let attacks = rook_attacks(Square::A1, Square::A3.bit());
/// assert_eq!(attacks, Square::A2.bit() | Square::A3.bit() | 0xfe);
/// ```
#[inline]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    chosen::rook_attacks(sq, occupied)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares, with the
/// fastest backend for the target ([`BACKEND`]). Blockers are included.
///
/// ```
/// use magic_bitboards::{bishop_attacks, Square};
///
/// let attacks = bishop_attacks(Square::A1, Square::C3.bit());
/// assert_eq!(attacks, Square::B2.bit() | Square::C3.bit());
/// ```
#[inline]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    chosen::bishop_attacks(sq, occupied)
}

/// Returns the squares a queen on `sq` attacks given the `occupied` squares, with the
/// fastest backend for the target ([`BACKEND`]): rook and bishop attacks together.
///
/// ```
/// use magic_bitboards::{queen_attacks, Square};
///
/// assert_eq!(queen_attacks(Square::D4, 0).count_ones(), 27);
/// ```
#[inline]
pub fn queen_attacks(sq: Square, occupied: u64) -> u64 {
    chosen::queen_attacks(sq, occupied)
}

with_backend_names! { doc mb_const_default:
    /// The backend behind the `const fn` counterparts [`rook_attacks_const`],
    /// [`bishop_attacks_const`] and [`queen_attacks_const`]: [`BACKEND`] where its lookups
    /// are `const fn`, else (PEXT, AVX2) the table-free `"hyperbola"`, which links no table.
    ///
    /// ```
    /// use magic_bitboards::{BACKEND, CONST_BACKEND};
    ///
    /// let runtime_only = ["pext", "pext_compact", "hyperbola_avx2"];
    /// assert_eq!(CONST_BACKEND == BACKEND, !runtime_only.contains(&BACKEND));
    /// ```
    pub const CONST_BACKEND: &str = const_chosen::NAME;
}

/// Returns what [`rook_attacks`] returns, as a `const fn` on every target, with
/// [`CONST_BACKEND`]. For const items and tables built at compile time; at run time
/// [`rook_attacks`] is the fast one (it may be PEXT, which cannot be `const`).
///
/// ```
/// use magic_bitboards::{rook_attacks, rook_attacks_const, Square};
///
/// const A1_BEHIND_A3: u64 = rook_attacks_const(Square::A1, Square::A3.bit());
/// assert_eq!(A1_BEHIND_A3, rook_attacks(Square::A1, Square::A3.bit()));
/// ```
#[inline]
pub const fn rook_attacks_const(sq: Square, occupied: u64) -> u64 {
    const_chosen::rook_attacks(sq, occupied)
}

/// Returns what [`bishop_attacks`] returns, as a `const fn` on every target, with
/// [`CONST_BACKEND`] (see [`rook_attacks_const`]).
///
/// ```
/// use magic_bitboards::{bishop_attacks_const, Square};
///
/// const A1: u64 = bishop_attacks_const(Square::A1, Square::C3.bit());
/// assert_eq!(A1, Square::B2.bit() | Square::C3.bit());
/// ```
#[inline]
pub const fn bishop_attacks_const(sq: Square, occupied: u64) -> u64 {
    const_chosen::bishop_attacks(sq, occupied)
}

/// Returns what [`queen_attacks`] returns, as a `const fn` on every target, with
/// [`CONST_BACKEND`] (see [`rook_attacks_const`]).
///
/// ```
/// use magic_bitboards::{queen_attacks_const, Square};
///
/// // A table built at compile time: queen attacks of every square on an empty board.
/// const QUEEN: [u64; 64] = {
///     let mut t = [0; 64];
///     let mut i = 0;
///     while i < 64 {
///         t[i] = queen_attacks_const(Square::ALL[i], 0);
///         i += 1;
///     }
///     t
/// };
/// assert_eq!(QUEEN[Square::D4.index()].count_ones(), 27);
/// ```
#[inline]
pub const fn queen_attacks_const(sq: Square, occupied: u64) -> u64 {
    const_chosen::queen_attacks(sq, occupied)
}

/// Returns the squares a knight on `sq` attacks.
///
/// ```
/// use magic_bitboards::{knight_attacks, Square};
///
/// assert_eq!(knight_attacks(Square::A1), Square::B3.bit() | Square::C2.bit());
/// ```
#[inline]
pub const fn knight_attacks(sq: Square) -> u64 {
    KNIGHT.0[sq.index()]
}

/// Returns the squares a king on `sq` attacks.
///
/// ```
/// use magic_bitboards::{king_attacks, Square};
///
/// assert_eq!(king_attacks(Square::E4).count_ones(), 8);
/// ```
#[inline]
pub const fn king_attacks(sq: Square) -> u64 {
    KING.0[sq.index()]
}

/// Returns the squares a pawn of `color` on `sq` attacks (diagonally forward; nothing
/// from the last rank).
///
/// ```
/// use magic_bitboards::{pawn_attacks, Color, Square};
///
/// assert_eq!(pawn_attacks(Color::White, Square::E4), Square::D5.bit() | Square::F5.bit());
/// assert_eq!(pawn_attacks(Color::Black, Square::A7), Square::B6.bit());
/// ```
#[inline]
pub const fn pawn_attacks(color: Color, sq: Square) -> u64 {
    PAWN.0[color.index()][sq.index()]
}

/// Returns the rook's attacks from `sq` on an empty board: its rank and file, without `sq`.
///
/// ```
/// use magic_bitboards::{rook_rays, Square};
///
/// assert_eq!(rook_rays(Square::E4).count_ones(), 14);
/// ```
#[inline]
pub const fn rook_rays(sq: Square) -> u64 {
    ROOK_RAYS.0[sq.index()]
}

/// Returns the bishop's attacks from `sq` on an empty board: its diagonals, without `sq`.
///
/// ```
/// use magic_bitboards::{bishop_rays, Square};
///
/// assert_eq!(bishop_rays(Square::A1), 0x8040_2010_0804_0200);
/// ```
#[inline]
pub const fn bishop_rays(sq: Square) -> u64 {
    BISHOP_RAYS.0[sq.index()]
}

/// Returns the squares strictly between `a` and `b` if they share a rank, file or
/// diagonal, else 0 (also 0 for neighbours and for `a == b`). For check blocks: a piece
/// that lands on `between(king, checker)` blocks the check.
///
/// ```
/// use magic_bitboards::{between, Square};
///
/// assert_eq!(between(Square::A1, Square::D4), Square::B2.bit() | Square::C3.bit());
/// assert_eq!(between(Square::A1, Square::B3), 0);
/// ```
#[inline]
pub const fn between(a: Square, b: Square) -> u64 {
    #[cfg(mb_line_tables)]
    return tables::BETWEEN.0[a.index()][b.index()];
    #[cfg(not(mb_line_tables))]
    return geometry::between_computed(a, b);
}

/// Returns the whole line (rank, file or diagonal, edge to edge, both squares included)
/// through `a` and `b`, or 0 if they are not aligned or equal. For pins: a pinned piece
/// may only move along `line(king, piece)`.
///
/// ```
/// use magic_bitboards::{line, Square};
///
/// assert_eq!(line(Square::B2, Square::C3), 0x8040_2010_0804_0201);
/// assert_eq!(line(Square::A1, Square::B3), 0);
/// ```
#[inline]
pub const fn line(a: Square, b: Square) -> u64 {
    #[cfg(mb_line_tables)]
    return tables::LINE.0[a.index()][b.index()];
    #[cfg(not(mb_line_tables))]
    return geometry::line_computed(a, b);
}

#[cfg(test)]
mod tests {
    /// Every backend gets its line in the docs of `BACKEND` and `CONST_BACKEND`: a backend
    /// added to src/backend/list.rs but not to `with_backend_names!` would leave its builds'
    /// docs without one.
    #[test]
    fn the_build_docs_can_name_every_backend() {
        assert_eq!(super::NAMED_BACKENDS, super::registry::ALL_NAMES);
    }
}
