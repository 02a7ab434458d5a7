//! The static tables written by `build.rs` to `OUT_DIR`.

/// Gives a table the alignment of a cache line, so no entry straddles two lines.
#[repr(C, align(64))]
pub(crate) struct Aligned<T>(pub T);

/// One square's index parameters, as written by `build.rs`.
#[derive(Clone, Copy)]
#[allow(dead_code)] // Each backend reads only the fields its index formula needs.
pub(crate) struct Magic {
    /// The relevant occupancy mask (inverted for black magics).
    pub mask: u64,
    /// The multiplier; for `pext_compact`, the empty-board attacks.
    pub magic: u64,
    /// Start of the square's range in the shared table.
    pub offset: u32,
    /// `64 - index bits`.
    pub shift: u32,
}

/// Turns a binary file of `OUT_DIR` into a value of type `$ty`.
///
/// `build.rs` writes each table as raw bytes in the target's byte order. Reading them
/// with `include_bytes!` costs rustc next to nothing, where the same table as an array
/// literal of up to 300,000 numbers costs seconds of parsing and const evaluation in
/// every clean build of every dependent (see README, "Build cost").
macro_rules! include_table {
    ($file:literal, $ty:ty) => {
        // SAFETY: `transmute` checks at compile time that the sizes are equal (the file
        // length is part of the type of `include_bytes!`), every bit pattern is a valid
        // `u64` or `u16` (and arrays of them), and the bytes are in the target's byte
        // order, written for it by build.rs from CARGO_CFG_TARGET_ENDIAN.
        unsafe {
            core::mem::transmute::<[u8; core::mem::size_of::<$ty>()], $ty>(*include_bytes!(
                concat!(env!("OUT_DIR"), $file)
            ))
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));
