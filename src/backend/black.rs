//! Black magics: `((occ | !mask) * magic) >> (64 - 12 or 9)`, a fixed shift per piece and
//! square ranges overlapping in one table (Annuss's scheme, the densest multiply layout).
//! The index is `black_magic.rs`'s.

use crate::backend::black_magic::{index, BISHOP_SHIFT, ROOK_SHIFT};
use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's black magic.
#[derive(Clone, Copy)]
pub(crate) struct BlackMagic {
    /// The complement of the relevant occupancy mask ([`index`]).
    pub not_mask: u64,
    /// The multiplier that hashes every key to a slot holding its attacks.
    pub magic: u64,
    /// The attack table from the square's offset to the end. An address rather than an
    /// offset: the load adds the hash to it, where an offset costs an `add` on the lookup's
    /// critical path (in position-independent x86-64 code a static's address is
    /// RIP-relative, and that addressing mode takes no index register).
    pub range: &'static [u64],
}

// ROOK, BISHOP: [BlackMagic; 64]; ATTACKS: the attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/black.rs"));

/// Returns the entry of `m`'s range that `occupied` hashes to.
#[inline(always)]
const fn entry(m: &BlackMagic, occupied: u64, shift: u32) -> u64 {
    let i = index(occupied, m.not_mask, m.magic, shift);
    // SAFETY: `occupied | m.not_mask` equals `(occupied & relevant) | !relevant`, one of the
    // keys build.rs verified for this square (magic_gen::verify by its set's rule, every
    // subset of the relevant mask, 12 or 9 bits as fixed here): each lands on a slot of the
    // table, whose length is one past the largest slot reached, so `i` is below the length
    // of the square's range, the table from its offset on. `m` comes from the same verified
    // set. The hint removes the bounds check of the read below (in release builds; debug
    // builds keep it): docs/benchmarks.md, "Unchecked reads".
    unsafe { core::hint::assert_unchecked(i < m.range.len()) };
    m.range[i]
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    entry(&ROOK[sq.index()], occupied, ROOK_SHIFT)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    entry(&BISHOP[sq.index()], occupied, BISHOP_SHIFT)
}

backend_common! {
    const,
    name: "black",
    table_bytes: ATTACKS_BYTES,
    tables: [|| Table {
        name: "ATTACKS",
        entries: Entries::U64(&ATTACKS.0),
        written_checksum: ATTACKS_CHECKSUM,
    }],
}
