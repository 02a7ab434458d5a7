//! No wrong table can build: the runtime crate's build inputs (`build.rs`, `build/`,
//! `magics.rs`, `src/`, `magics/`) are copied into a temporary crate, one bit of one
//! committed set is flipped, and `cargo build` there must either fail with a message
//! naming the set file, the piece and the square, or (only when the flipped set still
//! verifies exhaustively, so the table it builds is right) succeed. The failure's first
//! line names the square with the line of its entry.
//!
//! Flips are seeded and cover the three sets the build can use (`--features
//! fancy,plain,black` makes build.rs load all of them): several magic bits, and one bit of
//! a mask, a shift and an offset, since an edited mask, shift or offset is as wrong as an
//! edited magic. One cargo build per flip, all sharing one target directory. Last, a build
//! whose compiler pass lacks the `bmi2` that build.rs saw must stop, not fall back. Before
//! the flips, a committed set marked `unfinished:` builds with a warning.

#![cfg(not(miri))]

use std::fs;
use std::path::{Path, PathBuf};

use magic_gen::{read_set_stream, verify, Piece};

mod common;

use common::{cargo, Rng, COMMITTED_SETS};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The manifest of the copy: the runtime crate's features and its build-dependency on the
/// real magic-gen, nothing else (no dev-dependencies, so the build needs no registry).
fn manifest() -> String {
    format!(
        r#"[package]
name = "magic-bitboards"
version = "0.1.0"
edition = "2021"
build = "build.rs"

[lib]
name = "magic_bitboards"

[features]
fancy = []
plain = []
black = []
pext = []
pext_compact = []
hyperbola = []
hyperbola_avx2 = []

[build-dependencies]
magic-gen = {{ path = {:?}, default-features = false }}

[profile.dev.package.magic-gen]
opt-level = 3

[workspace]
"#,
        Path::new(ROOT).join("magic-gen")
    )
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            fs::copy(entry.path(), dest).unwrap();
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Field {
    Magic,
    Mask,
    Shift,
    Offset,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Magic => "magic",
            Field::Mask => "mask",
            Field::Shift => "shift",
            Field::Offset => "offset",
        }
    }
}

/// Flips `bit` of `field` in the `piece` entry of `sq` of an emitted set.
fn flip(source: &str, piece: Piece, sq: u8, field: Field, bit: u32) -> String {
    let header = match piece {
        Piece::Rook => "pub const ROOK: [Magic; 64]",
        Piece::Bishop => "pub const BISHOP: [Magic; 64]",
    };
    let start = source.find(header).expect("array header");
    let line_start = start
        + source[start..]
            .match_indices("Magic {")
            .nth(sq as usize)
            .expect("64 entries")
            .0;
    let line_end = line_start + source[line_start..].find('\n').unwrap();
    let line = &source[line_start..line_end];
    let key = format!("{}: ", field.name());
    let value_start = line.find(&key).unwrap() + key.len();
    let value_end = value_start + line[value_start..].find([',', ' ']).unwrap();
    let value = &line[value_start..value_end];
    let new_value = match value.strip_prefix("0x") {
        Some(hex) => {
            let v = u64::from_str_radix(hex, 16).unwrap() ^ (1 << bit);
            format!("{v:#018x}")
        }
        None => (value.parse::<u64>().unwrap() ^ (1 << bit)).to_string(),
    };
    let mut out = source.to_string();
    out.replace_range(line_start + value_start..line_start + value_end, &new_value);
    out
}

#[test]
fn a_flipped_bit_in_a_committed_set_fails_the_build_by_piece_and_square() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corrupt-set");
    let krate = tmp.join("crate");
    let _ = fs::remove_dir_all(&krate);
    fs::create_dir_all(&krate).unwrap();
    for file in ["build.rs", "magics.rs"] {
        fs::copy(Path::new(ROOT).join(file), krate.join(file)).unwrap();
    }
    copy_dir(&Path::new(ROOT).join("build"), &krate.join("build"));
    copy_dir(&Path::new(ROOT).join("src"), &krate.join("src"));
    copy_dir(&Path::new(ROOT).join("magics"), &krate.join("magics"));
    fs::write(krate.join("Cargo.toml"), manifest()).unwrap();

    let features = ["build", "--features", "fancy,plain,black"];
    let build = || {
        let out = cargo(&krate, &tmp.join("target"), &features)
            .output()
            .expect("run cargo");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, stderr) = build();
    assert!(ok, "the unmodified copy must build:\n{stderr}");
    assert!(!stderr.contains("unfinished"), "{stderr}");

    // A committed set that a stopped run wrote (`unfinished:` in its header) builds, since
    // it verifies, with the warning a user's unfinished set gets (docs/own-set.md).
    let file = "magics/black.rs";
    let original = fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    let note = "packing stopped after 3 of 1000000 moves; rerun `magic-gen pack ...`";
    let seed_line = original.find("// seed: ").expect("a seed line");
    let mut unfinished = original.clone();
    unfinished.insert_str(seed_line, &format!("// unfinished: {note}\n"));
    fs::write(krate.join(file), &unfinished).unwrap();
    let (ok, stderr) = build();
    fs::write(krate.join(file), &original).unwrap();
    assert!(
        ok,
        "an unfinished committed set that verifies builds:\n{stderr}"
    );
    let warning = format!(
        "warning: magic-bitboards@0.1.0: the committed black set is unfinished ({file}: \
         `unfinished: {note}`): it verifies"
    );
    assert!(stderr.contains(&warning), "{stderr}");

    // (set, field, number of flips): mostly magics, one of each other field.
    let mut plan = Vec::new();
    let mut rng = Rng(0x5eed_f1b1_7500);
    for _ in 0..4 {
        plan.push(Field::Magic);
    }
    plan.extend([Field::Mask, Field::Shift, Field::Offset]);
    let (mut failed, mut still_valid) = (0, 0);
    for (n, field) in plan.into_iter().enumerate() {
        let set = COMMITTED_SETS[n % COMMITTED_SETS.len()];
        let file = format!("magics/{set}.rs");
        let original = fs::read_to_string(Path::new(ROOT).join(&file)).unwrap();
        let piece = if rng.next() % 2 == 0 {
            Piece::Rook
        } else {
            Piece::Bishop
        };
        let sq = (rng.next() % 64) as u8;
        let bit = match field {
            Field::Magic | Field::Mask => (rng.next() % 64) as u32,
            Field::Shift => (rng.next() % 3) as u32,
            Field::Offset => (rng.next() % 17) as u32,
        };
        let corrupted = flip(&original, piece, sq, field, bit);
        assert_ne!(corrupted, original);
        let place = format!("{piece} {}", magic_gen::square_name(sq));
        let what = format!("{file}: {place} {} bit {bit}", field.name());
        // Whether the flipped set is still a valid one, by magic-gen's own reader and verify.
        let valid =
            read_set_stream(&file, corrupted.as_bytes()).is_ok_and(|(s, _, _)| verify(&s).is_ok());
        fs::write(krate.join(&file), &corrupted).unwrap();
        let (ok, stderr) = build();
        fs::write(krate.join(&file), &original).unwrap();
        println!(
            "{what}: {}",
            match (ok, valid) {
                (false, _) => "build failed",
                (true, true) => "still verifies, build succeeded",
                (true, false) => "BUILT A SET THAT DOES NOT VERIFY",
            }
        );
        if ok {
            assert!(
                valid,
                "{what}: the build accepted a set that does not verify"
            );
            still_valid += 1;
        } else {
            assert!(
                !valid,
                "{what}: the build rejected a set that verifies:\n{stderr}"
            );
            // The build script's first line names the square at fault with its line; the
            // details, the file and line.
            // The line of the entry: where the reader stops, or where verification points.
            let line = match read_set_stream(&file, corrupted.as_bytes()) {
                Ok((_, _, lines)) => lines.line(piece, sq),
                Err(e) => e.line.expect("a flipped value is reported at its line"),
            };
            let first = stderr
                .lines()
                .find(|l| l.starts_with("error: magic-bitboards@"))
                .unwrap_or("");
            assert!(
                first.contains(&place)
                    && (first.contains(&format!("{place} (line {line}"))
                        || first.contains(&format!("{file}:{line}: {place}: "))),
                "{what}: the first line must name {place} and line {line}:\n{stderr}"
            );
            assert!(
                stderr.contains(&format!("error: {file}:")),
                "{what}: the message must name the file and line:\n{stderr}"
            );
            failed += 1;
        }
    }
    println!("{failed} flips failed the build, {still_valid} still verified and built");
    assert!(failed > 0);

    // No silent fallback: build.rs sees `bmi2` (RUSTFLAGS reach cargo's probe of the target),
    // the compiler pass has it switched off (flags after `--` reach rustc alone), so PEXT
    // would be compiled for a CPU that may lack it. The build must stop and say why. With an
    // explicit --target, RUSTFLAGS stay away from the host's build-dependencies, so the
    // magic-gen built above is reused.
    #[cfg(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu"))]
    {
        let pass = ["rustc", "--lib", "--target", "x86_64-unknown-linux-gnu"];
        let out = cargo(&krate, &tmp.join("target"), &pass)
            .args(["--", "-C", "target-feature=-bmi2"])
            .env("RUSTFLAGS", "-C target-cpu=x86-64-v3")
            .output()
            .expect("run cargo");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "PEXT without bmi2 must not build:\n{stderr}"
        );
        assert!(
            stderr.contains("this compiler pass does not enable `bmi2`"),
            "the failure must explain the mismatch:\n{stderr}"
        );
    }
}

/// How often a one-bit flip of a magic leaves a set that still verifies (and so builds a
/// correct table): counted over seeded random flips with magic-gen's verify alone, no build
/// (the build runs the same verify, as the test above checks for a few flips).
#[test]
fn flipped_magic_bits_are_counted_against_verify() {
    let mut rng = Rng(0x00b1_7f11_9000);
    for set in COMMITTED_SETS {
        let file = format!("magics/{set}.rs");
        let original = fs::read_to_string(Path::new(ROOT).join(&file)).unwrap();
        let (mut rejected, mut valid) = (0, 0);
        for _ in 0..100 {
            let piece = if rng.next() % 2 == 0 {
                Piece::Rook
            } else {
                Piece::Bishop
            };
            let sq = (rng.next() % 64) as u8;
            let bit = (rng.next() % 64) as u32;
            let corrupted = flip(&original, piece, sq, Field::Magic, bit);
            match read_set_stream(&file, corrupted.as_bytes()) {
                Ok((s, _, _)) if verify(&s).is_ok() => valid += 1,
                _ => rejected += 1,
            }
        }
        println!("{file}: of 100 one-bit magic flips, {rejected} rejected, {valid} still verify");
        // Magics are far from unique: many one-bit neighbours of a magic are magics too
        // (measured: about half for these sets), and then the table built is right.
        assert!(rejected > 0, "{file}: no flip broke the set");
    }
}
