// The backends: one file each in src/backend/, one cargo feature each of the same name,
// listed once here. Read by both sides of the build (each defines `backends!` its own way):
// build.rs decides from it which backends the target gets and writes their tables;
// src/backend/mod.rs declares their modules and the registry.
//
// `needs` says what the target must offer: `tables` an address space of 32 bits or more
// (the attack tables are hundreds of KiB), `pext` x86_64 with BMI2 and PEXT not switched
// off by `--cfg magic_bitboards_no_pext`, `avx2` x86_64 with AVX2. `const fn` says whether
// the module's lookups are `const fn`: where the crate-level backend's are not, the
// crate-level `*_attacks_const` use the first `const fn` backend that needs nothing.
//
// For build.rs: `layout` is how it writes the backend's records and tables (`pext` and
// `pext_compact` from magic-gen's PEXT layout, the others from the committed set
// `magics/<name>.rs` or the user's, `none` no table); `reads` the variants of set its
// lookup can index (an overlay lookup's mask changes nothing on a set whose slots each
// hold one square's attacks, so it reads black sets too; its bishops read their slots as
// they are, so it reads no set whose bishops share slots through their rays); `default for` the kinds of target whose crate-level default it is, one
// backend per kind (`no_tables`: 16-bit; `bare_metal`: target_os "none"; `wasm`;
// `fast_pext`: BMI2, PEXT not switched off, and a CPU that runs PEXT in hardware, as
// build/cpu.rs judges it; `hosted`: the rest), chosen by the measurements in
// docs/backends.md.
backends! {
    fancy: "fancy", needs [tables], const fn: true,
        layout: fancy, reads ["fancy", "white", "plain"], default for [];
    plain: "plain", needs [tables], const fn: true,
        layout: plain, reads ["plain"], default for [];
    black: "black", needs [tables], const fn: true,
        layout: black, reads ["black"], default for [hosted, wasm];
    black_overlay: "black_overlay", needs [tables], const fn: true,
        layout: black_overlay, reads ["black-rook-overlay", "black"], default for [];
    pext: "pext", needs [tables, pext], const fn: false,
        layout: pext, reads [], default for [];
    pext_compact: "pext_compact", needs [tables, pext], const fn: false,
        layout: pext_compact, reads [], default for [fast_pext];
    hyperbola: "hyperbola", needs [], const fn: true,
        layout: none, reads [], default for [no_tables, bare_metal];
    hyperbola_avx2: "hyperbola_avx2", needs [avx2], const fn: false,
        layout: none, reads [], default for [];
}

/// The checksum build.rs records for each table it writes, and the tests recompute from
/// the static they read back: FNV-1a over the entries as numbers (so byte order matters),
/// starting from `CHECKSUM_SEED`, one `checksum_step` per entry.
#[allow(dead_code)]
pub fn checksum(entries: impl IntoIterator<Item = u64>) -> u64 {
    entries.into_iter().fold(CHECKSUM_SEED, checksum_step)
}

/// The checksum of no entries.
pub const CHECKSUM_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// The checksum after one more entry.
pub const fn checksum_step(hash: u64, entry: u64) -> u64 {
    (hash ^ entry).wrapping_mul(0x0100_0000_01b3)
}
