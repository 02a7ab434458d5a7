//! How the tables `build.rs` writes to `OUT_DIR` become `static` data, and the geometry
//! tables (leapers, rays, `between`, `line`). Each backend includes its own tables.

/// Gives a table the alignment of a cache line, so no entry straddles two lines.
#[repr(C, align(64))]
pub(crate) struct Aligned<T>(pub T);

/// Turns a binary file of `OUT_DIR` into a value of type `$ty`.
///
/// `build.rs` writes each table as raw bytes in the target's byte order. Reading them
/// with `include_bytes!` costs rustc next to nothing, where the same table as an array
/// literal of up to 300,000 numbers costs seconds of parsing and const evaluation in
/// every clean build of every dependent (see docs/build-cost.md).
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

include!(concat!(env!("OUT_DIR"), "/geometry.rs"));
