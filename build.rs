//! Build script of the runtime crate: turns the committed magic sets into static tables.
//!
//! It runs on the host, so everything about the target comes from cargo's `CARGO_CFG_*`
//! variables, never from `cfg!(...)` (which would describe the host). It searches nothing
//! and executes no target instruction: PEXT indices are computed in software by
//! `magic_gen::pext`. It includes the sets in `magics/`, rebuilds and verifies them with
//! magic-gen's core (every square, every relevant occupancy), and writes to `OUT_DIR`:
//!
//! * `<table>.bin`: each table as raw bytes in the target's byte order, which
//!   `src/tables.rs` turns into a `static` array (no giant literal for rustc to parse);
//! * `<backend>.rs`: the backend's per-square records as literals and the `static`
//!   declarations of its tables, included by `src/backend/<backend>.rs`;
//! * `geometry.rs`: the same for the leaper, ray, `between` and `line` tables.
//!
//! Which backends the target gets is decided here, from `src/backend/list.rs`, and handed
//! to the crate as `cfg`s: `mb_backend = "NAME"` for each compiled backend, `mb_default` for
//! the crate-level one, `mb_const_default` for the one behind the crate-level `const fn`
//! lookups, `mb_pext` when PEXT is compiled, `mb_line_tables` when `between` and `line` are
//! tables (not on 16-bit targets).
//!
//! `MAGIC_BITBOARDS_FANCY_SET`, `MAGIC_BITBOARDS_PLAIN_SET` and `MAGIC_BITBOARDS_BLACK_SET`
//! replace a committed set with a file of the user's, in either format magic-gen writes
//! (docs/own-set.md). A set that fails to read or verify stops the build with the file and
//! the line, or the piece and square, named: every bad set is listed, then the script
//! exits with an error (no panic).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use magic_gen::{empty_board_attacks, pext, relevant_mask, MagicSet, Piece};

/// The geometry tables: leapers, rays, `between`, `line`.
#[path = "build/geometry.rs"]
mod geometry;
/// The committed sets (`magics.rs`).
mod magics;
/// Which set each backend builds from, read, verified and checked against what the
/// backend can index.
#[path = "build/sets.rs"]
mod sets;

use sets::{load, set_variable};

/// A backend of `src/backend/list.rs`: its name, what it needs of the target, and whether
/// its lookups are `const fn`.
struct BackendSpec {
    name: &'static str,
    needs: &'static [&'static str],
    const_fn: bool,
}

macro_rules! backends {
    ($($module:ident: $name:literal, needs [$($need:ident),*], const fn: $const_fn:literal;)*) => {
        /// Every backend, in the list's order.
        const BACKENDS: &[BackendSpec] = &[$(BackendSpec {
            name: $name,
            needs: &[$(stringify!($need)),*],
            const_fn: $const_fn,
        }),*];
    };
}

include!("src/backend/list.rs");

/// What cargo tells us about the target (not the host this script runs on).
struct Target {
    /// `x86_64` with `bmi2` enabled and PEXT not switched off by `--cfg magic_bitboards_no_pext`.
    pext: bool,
    /// `x86_64` with `avx2` enabled.
    avx2: bool,
    little_endian: bool,
    pointer_width: u32,
}

impl Target {
    fn from_env() -> Target {
        let var = |name: &str| env::var(name).unwrap_or_default();
        let features = var("CARGO_CFG_TARGET_FEATURE");
        let has = |feature: &str| features.split(',').any(|f| f == feature);
        let x86_64 = var("CARGO_CFG_TARGET_ARCH") == "x86_64";
        // Cargo sets CARGO_CFG_<NAME> for every cfg of the target, `--cfg` in RUSTFLAGS included.
        let no_pext = env::var_os("CARGO_CFG_MAGIC_BITBOARDS_NO_PEXT").is_some();
        let little_endian = match var("CARGO_CFG_TARGET_ENDIAN").as_str() {
            "little" => true,
            "big" => false,
            other => fail(&format!("unknown CARGO_CFG_TARGET_ENDIAN '{other}'")),
        };
        let pointer_width = var("CARGO_CFG_TARGET_POINTER_WIDTH")
            .parse()
            .unwrap_or_else(|_| fail("CARGO_CFG_TARGET_POINTER_WIDTH is not a number"));
        Target {
            pext: x86_64 && has("bmi2") && !no_pext,
            avx2: x86_64 && has("avx2"),
            little_endian,
            pointer_width,
        }
    }

    /// Whether the target offers `need` (a `needs` word of src/backend/list.rs).
    fn has(&self, need: &str) -> bool {
        match need {
            "tables" => self.pointer_width >= 32,
            "pext" => self.pext,
            "avx2" => self.avx2,
            other => fail(&format!("src/backend/list.rs: unknown need `{other}`")),
        }
    }

    /// Why the target cannot have `backend`, if it cannot.
    fn lacks(&self, backend: &BackendSpec) -> Option<String> {
        let need = backend.needs.iter().find(|n| !self.has(n))?;
        Some(match *need {
            "tables" => format!(
                "`{}` needs tables of hundreds of KiB, which a {}-bit target cannot address; \
                 use the table-free `hyperbola` backend",
                backend.name, self.pointer_width
            ),
            "avx2" => format!(
                "`{}` needs an x86_64 target with avx2 (e.g. -C target-cpu=x86-64-v3)",
                backend.name
            ),
            _ => format!(
                "`{}` needs an x86_64 target with bmi2 (e.g. -C target-cpu=x86-64-v3) and no \
                 --cfg magic_bitboards_no_pext",
                backend.name
            ),
        })
    }
}

/// Stops the build with a message on stderr (cargo shows it in full on failure).
fn fail(message: &str) -> ! {
    fail_with(&[format!("magic-bitboards build script: {message}")])
}

/// Stops the build with one `error:` line per message: an exit status, not a panic, so
/// that what cargo shows is the messages and nothing about the script's own code.
fn fail_with(messages: &[String]) -> ! {
    for m in messages {
        eprintln!("error: {m}");
    }
    std::process::exit(1)
}

fn feature(name: &str) -> bool {
    env::var_os(format!("CARGO_FEATURE_{}", name.to_uppercase())).is_some()
}

/// Output being assembled: `.rs` sources plus the binary table files.
struct Out {
    dir: PathBuf,
    little_endian: bool,
}

impl Out {
    /// Writes `words` as `file` in the target's byte order and returns the declaration of
    /// `static NAME: Aligned<ty>` over them, with `NAME_BYTES` and `NAME_CHECKSUM`.
    fn table<const N: usize>(
        &self,
        file: &str,
        name: &str,
        ty: &str,
        words: impl Iterator<Item = [u8; N]> + Clone,
        checksum: u64,
    ) -> String {
        let mut bytes = Vec::new();
        for mut w in words {
            if !self.little_endian {
                w.reverse();
            }
            bytes.extend_from_slice(&w);
        }
        write(&self.dir.join(file), &bytes);
        format!(
            "/// {len} bytes, generated by build.rs.\n\
             pub(crate) static {name}: Aligned<{ty}> = Aligned(include_table!(\"/{file}\", {ty}));\n\
             /// The size of [`{name}`] in bytes.\n\
             #[allow(dead_code)]\n\
             pub(crate) const {name}_BYTES: usize = {len};\n\
             /// The checksum of [`{name}`]'s entries as build.rs computed them.\n\
             #[allow(dead_code)]\n\
             pub(crate) const {name}_CHECKSUM: u64 = {checksum:#018x};\n",
            len = bytes.len()
        )
    }

    /// Declares `static NAME: Aligned<[u64; len]>` (or rows of `cols`) over `table`.
    fn u64_table(&self, file: &str, name: &str, table: &[u64], cols: Option<usize>) -> String {
        let ty = match cols {
            Some(cols) => format!("[[u64; {cols}]; {}]", table.len() / cols),
            None => format!("[u64; {}]", table.len()),
        };
        let words = table.iter().map(|w| w.to_le_bytes());
        self.table(file, name, &ty, words, checksum(table.iter().copied()))
    }
}

fn write(path: &Path, bytes: &[u8]) {
    // Skip identical content so that rustc's inputs keep their timestamps.
    if fs::read(path).map(|old| old == bytes).unwrap_or(false) {
        return;
    }
    fs::write(path, bytes)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
}

/// Returns the per-square record literal the backend's lookup reads (the struct is
/// declared in src/backend/<backend>.rs). `load` has checked that the backend indexes
/// every square of `set` (`unindexable`).
fn record(backend: &str, set: &MagicSet, piece: Piece, sq: u8) -> String {
    let e = set.entry(piece, sq);
    let mask = relevant_mask(piece, sq);
    let (magic, not_mask) = (e.magic, set.variant.stored_mask(mask));
    let range = range_from("ATTACKS", e.offset);
    match backend {
        "fancy" => format!(
            "FancyMagic {{ mask: {mask:#018x}, magic: {magic:#018x}, range: {range}, shift: {} }}",
            64 - e.bits
        ),
        "plain" => format!("PlainMagic {{ mask: {mask:#018x}, magic: {magic:#018x} }}"),
        "black" => format!(
            "BlackMagic {{ not_mask: {not_mask:#018x}, magic: {magic:#018x}, range: {range} }}"
        ),
        "pext" => format!("PextSquare {{ mask: {mask:#018x}, range: {range} }}"),
        other => fail(&format!("no per-square record for backend `{other}`")),
    }
}

/// Returns the expression of a record's `range`: the static table `table` from slot
/// `offset` to its end. The lookup then indexes the range with the hash alone, which the
/// CPU adds to the range's address in the load itself (src/backend/black.rs).
fn range_from(table: &str, offset: impl std::fmt::Display) -> String {
    format!("{table}.0.split_at({offset}).1")
}

/// Writes `<backend>.rs` (records and table declarations) and the table's bytes, from
/// the backend's verified set and its table.
fn backend_tables(out: &Out, backend: &str, set: &MagicSet, table: Vec<u64>) {
    let mut src = String::from("// @generated by build.rs of magic-bitboards: do not edit.\n\n");
    if backend == "pext_compact" {
        src += &compact_pext(out, set, &table);
        write(&out.dir.join(format!("{backend}.rs")), src.as_bytes());
        return;
    }
    for (piece, name) in [(Piece::Rook, "ROOK"), (Piece::Bishop, "BISHOP")] {
        let ty = record(backend, set, piece, 0);
        let ty = &ty[..ty.find(' ').unwrap_or(ty.len())];
        writeln!(
            src,
            "/// {piece} records, a1 = 0.\npub(crate) static {name}: [{ty}; 64] = ["
        )
        .unwrap();
        for sq in 0..64u8 {
            writeln!(src, "    {},", record(backend, set, piece, sq)).unwrap();
        }
        src.push_str("];\n");
    }
    let file = |table: &str| format!("{backend}_{table}.bin");
    match backend {
        "plain" => {
            // Pad the verified table (cut after its last used slot) to the full layout so
            // that lookups index fixed-size arrays and need no bounds check.
            let row = |piece| Some(MagicSet::plain_row(piece) as usize);
            let mut full = table;
            full.resize(MagicSet::PLAIN_LEN as usize, 0);
            let (rook, bishop) = full.split_at(MagicSet::plain_offset(Piece::Bishop, 0) as usize);
            src += &out.u64_table(&file("rook"), "ROOK_ATTACKS", rook, row(Piece::Rook));
            src += &out.u64_table(
                &file("bishop"),
                "BISHOP_ATTACKS",
                bishop,
                row(Piece::Bishop),
            );
        }
        _ => src += &out.u64_table(&file("attacks"), "ATTACKS", &table, None),
    }
    write(&out.dir.join(format!("{backend}.rs")), src.as_bytes());
}

/// The compact PEXT layout from the PEXT set and its verified `table`: one record per square
/// with both pieces' parameters (a queen reads one cache line of them), the rook ranges
/// in `ROOK_ATTACKS` as `u16` entries packed to the bits of the empty-board attacks, the
/// bishop ranges in `BISHOP_ATTACKS` as plain `u64` entries (41 KiB: a bishop lookup needs
/// no `pdep`), each piece's ranges in square order, a cache line apart. Returns the
/// declarations.
fn compact_pext(out: &Out, set: &MagicSet, table: &[u64]) -> String {
    let mut src = String::from("/// Both pieces' records, a1 = 0.\npub(crate) static SQUARES: [CompactPextSquare; 64] = [\n");
    let (mut rook, mut bishop) = (Vec::new(), Vec::new());
    for sq in 0..64u8 {
        let range = |piece| {
            let e = set.entry(piece, sq);
            e.offset as usize..e.offset as usize + (1usize << e.bits)
        };
        let rays = empty_board_attacks(Piece::Rook, sq);
        let (rook_offset, bishop_offset) = (rook.len(), bishop.len());
        for &attacks in &table[range(Piece::Rook)] {
            rook.push(
                u16::try_from(pext(attacks, rays))
                    .unwrap_or_else(|_| fail("compact entry does not fit 16 bits")),
            );
        }
        bishop.extend_from_slice(&table[range(Piece::Bishop)]);
        // Every range has a power-of-two length, so back to back they would all start on a
        // multiple of 2 KiB (rooks) or 256 bytes (bishops): the entries a sparse board hits
        // most (the low indices) would crowd a few cache sets. One cache line of padding
        // after each square staggers the starts (measured: dependent rook lookups 30%
        // slower without it; 4 KiB + 4 KiB of zeros, which no index reaches).
        rook.resize(rook.len() + 64 / 2, 0);
        bishop.resize(bishop.len() + 64 / 8, 0);
        writeln!(
            src,
            "    CompactPextSquare {{ rook_mask: {:#018x}, rook_rays: {rays:#018x}, \
             bishop_mask: {:#018x}, rook_range: {}, bishop_range: {} }},",
            relevant_mask(Piece::Rook, sq),
            relevant_mask(Piece::Bishop, sq),
            range_from("ROOK_ATTACKS", rook_offset),
            range_from("BISHOP_ATTACKS", bishop_offset),
        )
        .unwrap();
    }
    src.push_str("];\n");
    let ty = format!("[u16; {}]", rook.len());
    let sum = checksum(rook.iter().map(|&x| u64::from(x)));
    let words = rook.iter().map(|w| w.to_le_bytes());
    src += &out.table("pext_compact_rook.bin", "ROOK_ATTACKS", &ty, words, sum);
    src += &out.u64_table("pext_compact_bishop.bin", "BISHOP_ATTACKS", &bishop, None);
    src
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=magics.rs");
    println!("cargo:rerun-if-changed=src/backend/list.rs");
    for set in magics::COMMITTED {
        println!("cargo:rerun-if-changed={}", set.file);
        println!("cargo:rerun-if-env-changed={}", set_variable(set.backend));
    }
    let values = BACKENDS
        .iter()
        .map(|b| format!("\"{}\"", b.name))
        .collect::<Vec<_>>()
        .join(", ");
    println!("cargo:rustc-check-cfg=cfg(magic_bitboards_no_pext)");
    println!("cargo:rustc-check-cfg=cfg(magic_bitboards_backend, values({values}))");
    println!("cargo:rustc-check-cfg=cfg(mb_backend, values({values}))");
    println!("cargo:rustc-check-cfg=cfg(mb_default, values({values}))");
    println!("cargo:rustc-check-cfg=cfg(mb_const_default, values({values}))");
    println!("cargo:rustc-check-cfg=cfg(mb_pext)");
    println!("cargo:rustc-check-cfg=cfg(mb_line_tables)");

    let target = Target::from_env();
    let spec = |name: &str| BACKENDS.iter().find(|b| b.name == name);
    let default = match env::var("CARGO_CFG_MAGIC_BITBOARDS_BACKEND") {
        // `--cfg magic_bitboards_backend="NAME"` picks the crate-level backend outright.
        Ok(name) => {
            let Some(backend) = spec(&name) else {
                let names: Vec<&str> = BACKENDS.iter().map(|b| b.name).collect();
                fail(&format!(
                    "--cfg magic_bitboards_backend=\"{name}\": expected one of {names:?}"
                ));
            };
            if let Some(why) = target.lacks(backend) {
                fail(&format!("--cfg magic_bitboards_backend=\"{name}\": {why}"));
            }
            backend.name
        }
        // By measurement (docs/backends.md, "The x86-64-v3 default"): with BMI2, compact
        // PEXT ties u64 PEXT in perft and on independent lookups, wins on dependent ones
        // and links 249 KiB instead of 841; black magics are first elsewhere; hyperbola on
        // 16-bit targets, where no table fits the address space.
        Err(_) if target.has("pext") => "pext_compact",
        Err(_) if target.has("tables") => "black",
        Err(_) => "hyperbola",
    };
    // The crate-level `const fn` lookups: the crate-level backend if its lookups are
    // `const fn` (PEXT and vector intrinsics are not), else the first `const fn` backend
    // that needs nothing of the target (the table-free one, so nothing is linked for it).
    let const_default = match spec(default) {
        Some(b) if b.const_fn => default,
        _ => {
            BACKENDS
                .iter()
                .find(|b| b.const_fn && b.needs.is_empty())
                .unwrap_or_else(|| fail("src/backend/list.rs: no const fn backend needs nothing"))
                .name
        }
    };
    let mut compiled = Vec::new();
    for backend in BACKENDS {
        if backend.name == default || backend.name == const_default {
            compiled.push(backend.name);
        } else if feature(backend.name) {
            match target.lacks(backend) {
                None => compiled.push(backend.name),
                // PEXT and AVX2 features compile nothing without BMI2 or AVX2, so that one
                // feature list serves every target; a table on a 16-bit target is an error.
                Some(_)
                    if backend.needs.iter().any(|n| matches!(*n, "pext" | "avx2"))
                        && target.has("tables") => {}
                Some(why) => fail(&format!("feature {why}")),
            }
        }
    }

    let out = Out {
        dir: PathBuf::from(env::var_os("OUT_DIR").unwrap_or_else(|| fail("OUT_DIR is not set"))),
        little_endian: target.little_endian,
    };
    println!("cargo:rustc-cfg=mb_default=\"{default}\"");
    println!("cargo:rustc-cfg=mb_const_default=\"{const_default}\"");
    if target.has("pext") {
        println!("cargo:rustc-cfg=mb_pext");
    }
    // Every set is read and verified before anything is written, so that one build
    // reports every bad set. Backends that need no `tables` keep what little they have in
    // their module.
    let mut sets = Vec::new();
    let mut errors = Vec::new();
    for &name in &compiled {
        if spec(name).is_some_and(|b| b.needs.contains(&"tables")) {
            match load(name) {
                Ok((set, table)) => sets.push((name, set, table)),
                Err(e) => errors.extend(e),
            }
        }
    }
    if !errors.is_empty() {
        fail_with(&errors);
    }
    for set in magics::COMMITTED {
        let var = set_variable(set.backend);
        if !compiled.contains(&set.backend) && env::var_os(&var).is_some_and(|v| !v.is_empty()) {
            println!(
                "cargo:warning={var} is set, but this build does not compile the {} backend, \
                 so the set is not read (turn on its feature, docs/own-set.md)",
                set.backend
            );
        }
    }
    for &name in &compiled {
        println!("cargo:rustc-cfg=mb_backend=\"{name}\"");
    }
    for (name, set, table) in sets {
        backend_tables(&out, name, &set, table);
    }
    let line_tables = target.has("tables");
    if line_tables {
        println!("cargo:rustc-cfg=mb_line_tables");
    }
    geometry::write_tables(&out, line_tables);
}
