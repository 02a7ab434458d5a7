//! The backends side by side, and the one place that decides which are compiled.
//!
//! `list.rs` names every backend once; build.rs reads the same list, decides which backends
//! the target gets (their feature is on, or one is the crate-level backend, and the target
//! offers what they need) and sets `mb_backend = "NAME"` for each. This file turns the list
//! into the modules, the crate-level choice (`mb_default`) and the registry that the tests
//! and benchmarks read, so none of them repeats a backend's cfg.

use crate::Square;

/// A lookup: the attacks of a piece on `sq` given the occupied squares.
pub type Lookup = fn(Square, u64) -> u64;

/// The entries of a static attack table, as its lookups read them.
#[derive(Clone, Copy, Debug)]
pub enum Entries {
    /// Attack sets.
    U64(&'static [u64]),
    /// Attack sets packed to the bits of the square's empty-board attacks (`pext_compact`).
    U16(&'static [u16]),
}

/// One static attack table of a backend, with the checksum build.rs recorded for it.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// The name of the static, e.g. `BLACK_TABLE`.
    pub name: &'static str,
    /// Its entries, read through the `transmute`d bytes (src/tables.rs).
    pub entries: Entries,
    /// [`checksum`] of the entries as build.rs computed them, before writing the bytes.
    pub written_checksum: u64,
}

impl Table {
    /// Returns the table's size in bytes.
    pub fn bytes(&self) -> usize {
        match self.entries {
            Entries::U64(e) => core::mem::size_of_val(e),
            Entries::U16(e) => core::mem::size_of_val(e),
        }
    }

    /// Returns [`checksum`] of the entries as read from the static now: every entry is read.
    /// An index loop rather than an iterator: the same sum, but Miri interprets it about ten
    /// times faster (no reference per entry to track), which is what makes reading every
    /// table end to end affordable there (`.ci/miri`).
    pub fn read_checksum(&self) -> u64 {
        let (mut hash, mut i) = (CHECKSUM_SEED, 0);
        match self.entries {
            Entries::U64(e) => {
                while i < e.len() {
                    hash = checksum_step(hash, e[i]);
                    i += 1;
                }
            }
            Entries::U16(e) => {
                while i < e.len() {
                    hash = checksum_step(hash, u64::from(e[i]));
                    i += 1;
                }
            }
        }
        hash
    }
}

/// What the registry knows of one compiled backend.
#[derive(Clone, Copy)]
pub struct Backend {
    /// The module's name, e.g. `"black"`.
    pub name: &'static str,
    /// Bytes of attack table it links in (its per-square records not counted).
    pub table_bytes: usize,
    /// Its `rook_attacks`.
    pub rook: Lookup,
    /// Its `bishop_attacks`.
    pub bishop: Lookup,
    /// Its `queen_attacks`.
    pub queen: Lookup,
    /// Its static attack tables (none for a table-free backend).
    pub tables: &'static [fn() -> Table],
    /// Whether its module is public (its cargo feature is on), not only compiled for the
    /// crate-level functions.
    pub public: bool,
}

/// A backend as a type, for code whose loops must inline the lookups (the benchmarks):
/// [`visit`] calls a generic method once per compiled backend.
pub trait Lookups: 'static {
    /// The module's name.
    const NAME: &'static str;
    /// The module's `rook_attacks`.
    fn rook(sq: Square, occupied: u64) -> u64;
    /// The module's `bishop_attacks`.
    fn bishop(sq: Square, occupied: u64) -> u64;
    /// The module's `queen_attacks`.
    fn queen(sq: Square, occupied: u64) -> u64;
}

/// Code run once per compiled backend by [`visit`].
pub trait Visitor {
    /// Called with the backend's type.
    fn visit<B: Lookups>(&mut self);
}

/// Declares what every backend file repeats, after its `rook_attacks` and `bishop_attacks`:
/// `NAME`, `TABLE_BYTES`, `queen_attacks` (a `const fn` after `const`; none with
/// `own_queen`, where the file writes its own), and its registry entry.
macro_rules! backend_common {
    (name: $name:literal, table_bytes: $bytes:expr, tables: [$($table:expr),* $(,)?] $(,)?) => {
        /// Returns the squares a queen on `sq` attacks given the `occupied` squares: the
        /// rook's and the bishop's attacks together.
        #[inline]
        pub fn queen_attacks(sq: crate::Square, occupied: u64) -> u64 {
            rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
        }
        backend_common!(own_queen, name: $name, table_bytes: $bytes, tables: [$($table),*]);
    };
    (const, name: $name:literal, table_bytes: $bytes:expr, tables: [$($table:expr),* $(,)?] $(,)?) => {
        /// Returns the squares a queen on `sq` attacks given the `occupied` squares: the
        /// rook's and the bishop's attacks together.
        #[inline]
        pub const fn queen_attacks(sq: crate::Square, occupied: u64) -> u64 {
            rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
        }
        backend_common!(own_queen, name: $name, table_bytes: $bytes, tables: [$($table),*]);
    };
    (own_queen, name: $name:literal, table_bytes: $bytes:expr, tables: [$($table:expr),* $(,)?] $(,)?) => {
        /// The name of this backend.
        pub const NAME: &str = $name;

        /// Bytes of attack table this backend links in (its per-square records not counted).
        pub const TABLE_BYTES: usize = $bytes;

        /// This backend as a type, for [`crate::registry::visit`].
        #[doc(hidden)]
        pub struct Impl;

        impl crate::backend::Lookups for Impl {
            const NAME: &'static str = NAME;
            #[inline(always)]
            fn rook(sq: crate::Square, occupied: u64) -> u64 {
                rook_attacks(sq, occupied)
            }
            #[inline(always)]
            fn bishop(sq: crate::Square, occupied: u64) -> u64 {
                bishop_attacks(sq, occupied)
            }
            #[inline(always)]
            fn queen(sq: crate::Square, occupied: u64) -> u64 {
                queen_attacks(sq, occupied)
            }
        }

        /// This backend's registry entry.
        pub(crate) const ENTRY: crate::backend::Backend = crate::backend::Backend {
            name: NAME,
            table_bytes: TABLE_BYTES,
            rook: rook_attacks,
            bishop: bishop_attacks,
            queen: queen_attacks,
            tables: &[$($table),*],
            public: cfg!(feature = $name),
        };
    };
}

/// Turns the list into modules (public with their feature), the crate-level choice, the
/// registry and the visitor.
macro_rules! backends {
    ($($module:ident: $name:literal, needs [$($need:ident),*], const fn: $const_fn:tt,
        layout: $layout:ident, reads [$($reads:literal),*], default for [$($kind:ident),*];)*) => {
        $(
            backend_module!([] [$($need)*] $module $name);
            // The list's word, checked: the lookups run in a const item.
            #[cfg(mb_backend = $name)]
            const_lookups!($const_fn, $module);
        )*

        /// The backend modules whose cargo feature is on, re-exported at the crate root.
        pub mod public {
            $(
                #[cfg(all(mb_backend = $name, feature = $name))]
                pub use super::$module;
            )*
        }

        $(
            #[cfg(mb_default = $name)]
            pub(crate) use $module as chosen;
            #[cfg(mb_const_default = $name)]
            pub(crate) use $module as const_chosen;
        )*

        /// Every compiled backend, in the list's order.
        pub static BACKENDS: &[Backend] = &[$(
            #[cfg(mb_backend = $name)]
            $module::ENTRY,
        )*];

        /// Every backend the crate has, compiled here or not, in the list's order.
        pub const ALL_NAMES: &[&str] = &[$($name),*];

        /// Calls `visitor.visit::<B>()` for every compiled backend, in the list's order.
        pub fn visit<V: Visitor>(visitor: &mut V) {
            let _ = &visitor;
            $(
                #[cfg(mb_backend = $name)]
                visitor.visit::<$module::Impl>();
            )*
        }
    };
}

/// Declares a backend's module, compiled where build.rs said so (`mb_backend`), and for
/// the documentation (`docsrs`, docs.rs) marks it with what a user must give for it: its
/// feature, and the target each of its `needs` stands for.
macro_rules! backend_module {
    ([] [] $module:ident $name:literal) => {
        #[cfg(mb_backend = $name)]
        #[cfg_attr(docsrs, doc(cfg(feature = $name)))]
        pub mod $module;
    };
    ([$($pred:tt)+] [] $module:ident $name:literal) => {
        #[cfg(mb_backend = $name)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $name $($pred)*))))]
        pub mod $module;
    };
    ([$($pred:tt)*] [tables $($rest:ident)*] $module:ident $name:literal) => {
        backend_module!(
            [$($pred)*, any(target_pointer_width = "32", target_pointer_width = "64")]
            [$($rest)*] $module $name
        );
    };
    ([$($pred:tt)*] [pext $($rest:ident)*] $module:ident $name:literal) => {
        backend_module!(
            [$($pred)*, target_arch = "x86_64", target_feature = "bmi2", not(magic_bitboards_no_pext)]
            [$($rest)*] $module $name
        );
    };
    ([$($pred:tt)*] [avx2 $($rest:ident)*] $module:ident $name:literal) => {
        backend_module!(
            [$($pred)*, target_arch = "x86_64", target_feature = "avx2"]
            [$($rest)*] $module $name
        );
    };
}

/// For a backend whose lookups the list says are `const fn`: evaluates each of them in a
/// const item (against the empty-board rays), so the list cannot say so wrongly.
macro_rules! const_lookups {
    (true, $module:ident) => {
        const _: () = {
            let d4 = Square::D4;
            let rays = crate::rook_rays(d4) | crate::bishop_rays(d4);
            assert!($module::rook_attacks(d4, 0) | $module::bishop_attacks(d4, 0) == rays);
            assert!($module::queen_attacks(d4, 0) == rays);
        };
    };
    (false, $module:ident) => {};
}

include!("list.rs");

// The black index and record, shared by the backends that read black magics.
#[cfg(any(mb_backend = "black", mb_backend = "black_overlay"))]
mod black_magic;

// PEXT instructions in a binary whose compiler pass does not target BMI2 would be unsound
// (SIGILL on a CPU without it), so the two views of the target must agree. rustdoc is the
// exception: it takes RUSTDOCFLAGS, not RUSTFLAGS, and neither documenting the crate nor
// collecting its doctests runs its code (doctests link the library rustc built).
#[cfg(all(
    mb_pext,
    not(all(target_arch = "x86_64", target_feature = "bmi2")),
    not(any(doc, doctest))
))]
compile_error!(
    "magic-bitboards: build.rs saw `bmi2` in CARGO_CFG_TARGET_FEATURE and compiled the PEXT \
     backends, but this compiler pass does not enable `bmi2`. Give rustc the same target \
     flags cargo gave the build script (RUSTFLAGS, e.g. `-C target-cpu=x86-64-v3`), or pass \
     `--cfg magic_bitboards_no_pext` to build without PEXT."
);
// The same for AVX2: build.rs compiled the vector backend from CARGO_CFG_TARGET_FEATURE.
#[cfg(all(
    mb_backend = "hyperbola_avx2",
    not(all(target_arch = "x86_64", target_feature = "avx2")),
    not(any(doc, doctest))
))]
compile_error!(
    "magic-bitboards: build.rs saw `avx2` in CARGO_CFG_TARGET_FEATURE and compiled the \
     `hyperbola_avx2` backend, but this compiler pass does not enable `avx2`. Give rustc the \
     same target flags cargo gave the build script (RUSTFLAGS, e.g. `-C target-cpu=x86-64-v3`)."
);
