//! The black index, which `black` and `black_overlay` share: `((occ | !mask) * magic) >>
//! (64 - 12 or 9)`, a fixed shift per piece, into the square's range of one shared table.

/// One square's black magic.
#[derive(Clone, Copy)]
pub(crate) struct BlackMagic {
    /// The complement of the relevant occupancy mask: OR-ing it into the occupancy sets
    /// every square that cannot change the attacks, so the key depends only on those that can.
    pub not_mask: u64,
    /// The multiplier that hashes every such key to a slot holding its attacks.
    pub magic: u64,
    /// The attack table from the square's offset to the end. An address rather than an
    /// offset: the load adds the hash to it, where an offset costs an `add` on the lookup's
    /// critical path (in position-independent x86-64 code a static's address is
    /// RIP-relative, and that addressing mode takes no index register).
    pub range: &'static [u64],
}

/// `64 - index bits` for rooks (12) and bishops (9): fixed, so not stored per square.
pub(crate) const ROOK_SHIFT: u32 = 64 - 12;
pub(crate) const BISHOP_SHIFT: u32 = 64 - 9;

/// Returns the entry of `m`'s range that `occupied` hashes to.
#[inline(always)]
pub(crate) const fn entry(m: &BlackMagic, occupied: u64, shift: u32) -> u64 {
    let i = ((occupied | m.not_mask).wrapping_mul(m.magic) >> shift) as usize;
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
