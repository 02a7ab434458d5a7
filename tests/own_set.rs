//! Bring your own set (docs/own-set.md): a small consumer crate depends on the runtime crate
//! by path, names its own sets in `MAGIC_BITBOARDS_{FANCY,PLAIN,BLACK}_SET`, and prints
//! each backend's table size, table checksums and a hash of its lookups, which this test
//! compares with magic-gen's verification of the same sets and its ray walk. Then it checks
//! the rebuild triggers (an edited file, a removed variable) and that bad sets stop the
//! build with the file and the line or the piece and square, and that a variable for a
//! backend the build does not compile is not read, with a warning.
//!
//! The sets are the committed ones with known changes, so their sizes are known: the
//! committed one-bit-under fancy set (a file in the consumer named through Cargo's `[env]`
//! with `relative = true`), the black set in interchange text with every offset moved up,
//! and the plain set with one rook magic replaced by a neighbouring magic. All builds share
//! one target directory; after the first, each only reruns the build script and recompiles
//! the runtime crate.

#![cfg(not(miri))]

use std::fs;
use std::path::{Path, PathBuf};

mod common;

use common::COMMITTED_SETS;
use magic_bitboards::registry::checksum;
use magic_gen::{
    empty_board_attacks, read_set_file, read_set_stream, slow_attacks, verify, write_interchange,
    MagicSet, Piece,
};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The list the tests iterate is the sets in `magics/`, no more, no fewer.
#[test]
fn the_committed_sets_are_the_files_in_magics() {
    let mut files: Vec<String> = fs::read_dir(Path::new(ROOT).join("magics"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    files.sort();
    let mut listed = COMMITTED_SETS.map(str::to_string).to_vec();
    listed.sort();
    assert_eq!(files, listed);
}

/// The occupancy of the consumer's const lookups.
const OCCUPIED: u64 = 0x0010_0000_0440_1000;

/// A consumer crate named `name` on the runtime crate with `features`, nothing else.
fn manifest(name: &str, features: &[&str]) -> String {
    format!(
        r#"[package]
name = "{name}"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
magic-bitboards = {{ path = {ROOT:?}, features = {features:?} }}

[workspace]
"#
    )
}

/// The consumer's program. It prints a line of const-evaluated lookups, then for each magic
/// backend its name, `TABLE_BYTES`, the checksum of each table as read from the static, and
/// the checksum of its rook and bishop attacks for every subset of the empty-board rays (a
/// superset of the relevant occupancies) of every square.
const MAIN: &str = r#"
use magic_bitboards::registry::{checksum, BACKENDS};
use magic_bitboards::{bishop_rays, rook_rays, Square};

/// Queen attacks from e4 evaluated at compile time, from the tables of the user's sets.
const E4: [u64; 3] = [
    magic_bitboards::fancy::queen_attacks(Square::E4, OCCUPIED),
    magic_bitboards::plain::queen_attacks(Square::E4, OCCUPIED),
    magic_bitboards::black::queen_attacks(Square::E4, OCCUPIED),
];
const OCCUPIED: u64 = @OCCUPIED@;

fn main() {
    println!("const {:#x} {:#x} {:#x}", E4[0], E4[1], E4[2]);
    for b in BACKENDS.iter().filter(|b| @SETS@.contains(&b.name)) {
        let tables: Vec<String> =
            b.tables.iter().map(|t| format!("{:#x}", t().read_checksum())).collect();
        let mut attacks = Vec::new();
        for sq in Square::ALL {
            for (rays, lookup) in [(rook_rays(sq), b.rook), (bishop_rays(sq), b.bishop)] {
                let mut occ = 0u64;
                loop {
                    attacks.push(lookup(sq, occ));
                    occ = occ.wrapping_sub(rays) & rays;
                    if occ == 0 {
                        break;
                    }
                }
            }
        }
        println!("{} {} {} {:#x}", b.name, b.table_bytes, tables.join(","), checksum(attacks));
    }
}
"#;

/// The consumer's expected line for `backend` built from `set`.
fn expected(backend: &str, set: &MagicSet) -> String {
    let mut table = verify(set).expect("the test's own sets verify").table;
    let tables = if backend == "plain" {
        // build.rs pads the plain table to whole arrays and splits it by piece.
        table.resize(64 * 4096 + 64 * 512, 0);
        let (rook, bishop) = table.split_at(64 * 4096);
        vec![rook.to_vec(), bishop.to_vec()]
    } else {
        vec![table]
    };
    let bytes: usize = tables.iter().map(|t| 8 * t.len()).sum();
    let sums: Vec<String> = tables
        .iter()
        .map(|t| format!("{:#x}", checksum(t.iter().copied())))
        .collect();
    let mut attacks = Vec::new();
    for sq in 0..64u8 {
        for piece in Piece::ALL {
            let rays = empty_board_attacks(piece, sq);
            let mut occ = 0u64;
            loop {
                attacks.push(slow_attacks(piece, sq, occ));
                occ = occ.wrapping_sub(rays) & rays;
                if occ == 0 {
                    break;
                }
            }
        }
    }
    format!(
        "{backend} {bytes} {} {:#x}",
        sums.join(","),
        checksum(attacks)
    )
}

fn committed(backend: &str) -> MagicSet {
    let file = Path::new(ROOT).join("magics").join(format!("{backend}.rs"));
    read_set_file(&file).unwrap().0
}

struct Consumer {
    dir: PathBuf,
    target: PathBuf,
}

impl Consumer {
    /// Runs `cargo ARGS --offline` in the consumer with `env` as the only set variables of
    /// the process; returns success, stdout and stderr.
    fn cargo(&self, args: &[&str], env: &[(&str, &Path)]) -> (bool, String, String) {
        let mut cmd = common::cargo(&self.dir, &self.target, args);
        for (var, value) in env {
            cmd.env(var, value);
        }
        let out = cmd.output().expect("run cargo");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn run(&self, env: &[(&str, &Path)]) -> Vec<String> {
        let (ok, stdout, stderr) = self.cargo(&["run", "-q"], env);
        assert!(ok, "the consumer must build and run:\n{stderr}");
        stdout.lines().map(str::to_string).collect()
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        path
    }
}

/// `set` in the interchange format.
fn text(set: &MagicSet) -> String {
    write_interchange(set, &["written by tests/own_set.rs".to_string()])
}

/// Returns `piece square (line N`: how errors name a square of the set file `path` and the
/// line of its entry.
fn at_line(path: &Path, piece: Piece, sq: u8) -> String {
    let (_, _, lines) = read_set_file(path).unwrap();
    let line = lines.line(piece, sq);
    format!("{piece} {} (line {line}", magic_gen::square_name(sq))
}

/// Returns the line of the entry of `piece` on `sq` in the set file `path`.
fn line_of(path: &Path, piece: Piece, sq: u8) -> usize {
    read_set_file(path).unwrap().2.line(piece, sq)
}

/// The plain set with rook a1's magic replaced by the first one-bit neighbour that still
/// verifies (about half of them do) and puts some attacks in other slots.
fn plain_with_a_new_magic() -> MagicSet {
    let original = committed("plain");
    let table = verify(&original).unwrap().table;
    (0..64)
        .map(|bit| {
            let mut set = original.clone();
            set.entry_mut(Piece::Rook, 0).magic ^= 1 << bit;
            set
        })
        .find(|set| verify(set).is_ok_and(|v| v.table != table))
        .expect("a one-bit neighbour of rook a1's magic that verifies")
}

#[test]
fn a_consumer_builds_from_its_own_sets_and_bad_sets_stop_its_build() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("own-set");
    let consumer = Consumer {
        dir: tmp.join("consumer"),
        target: tmp.join("target"),
    };
    let _ = fs::remove_dir_all(tmp.join("bare"));
    let _ = fs::remove_dir_all(&consumer.dir);
    // The magic backends.
    consumer.write("Cargo.toml", &manifest("own-set-consumer", &COMMITTED_SETS));
    consumer.write(
        "src/main.rs",
        &MAIN
            .replace("@OCCUPIED@", &format!("{OCCUPIED:#x}"))
            .replace("@SETS@", &format!("{COMMITTED_SETS:?}")),
    );

    // Fancy: a file of the consumer's, named relative to its .cargo/config.toml.
    let dense = fs::read_to_string(Path::new(ROOT).join("magics/records/fancy-dense.rs")).unwrap();
    consumer.write("sets/fancy.rs", &dense);
    consumer.write(
        ".cargo/config.toml",
        "[env]\nMAGIC_BITBOARDS_FANCY_SET = { value = \"sets/fancy.rs\", relative = true }\n",
    );
    let fancy = read_set_stream("fancy-dense", dense.as_bytes()).unwrap().0;
    // Black: interchange text, every range moved up by 7 slots, so 7 more entries.
    let mut black = committed("black");
    for piece in Piece::ALL {
        for sq in 0..64 {
            black.entry_mut(piece, sq).offset += 7;
        }
    }
    let black_file = consumer.write("sets/black.txt", &text(&black));
    let plain = plain_with_a_new_magic();
    let plain_file = consumer.write("sets/plain.txt", &text(&plain));
    let own = [
        ("MAGIC_BITBOARDS_PLAIN_SET", plain_file.as_path()),
        ("MAGIC_BITBOARDS_BLACK_SET", black_file.as_path()),
    ];

    let lines = consumer.run(&own);
    let e4 = slow_attacks(Piece::Rook, 28, OCCUPIED) | slow_attacks(Piece::Bishop, 28, OCCUPIED);
    let const_line = format!("const {e4:#x} {e4:#x} {e4:#x}");
    assert_eq!(lines[0], const_line);
    let lines = &lines[1..];
    let want = [
        expected("fancy", &fancy),
        expected("plain", &plain),
        expected("black", &black),
        expected("black_overlay", &committed("black_overlay")),
    ];
    assert_eq!(lines, want);
    // The known changes, as sizes: the dense set's 107,200 entries, the black set's 7 more.
    assert!(lines[0].starts_with(&format!("fancy {} ", 8 * 107_200)));
    let black_len = verify(&committed("black")).unwrap().table.len() + 7;
    assert!(lines[2].starts_with(&format!("black {} ", 8 * black_len)));
    assert_ne!(want[1], expected("plain", &committed("plain")));

    // The file changes (fancy) and a variable goes (plain, black): all rebuild from
    // the committed sets.
    let standard = fs::read_to_string(Path::new(ROOT).join("magics/fancy.rs")).unwrap();
    consumer.write("sets/fancy.rs", &standard);
    let lines = consumer.run(&[]);
    let want = COMMITTED_SETS.map(|b| expected(b, &committed(b)));
    assert_eq!(lines[0], const_line);
    assert_eq!(lines[1..], want);

    // An unfinished set (a stopped run's, `unfinished:` in its header) verifies and builds,
    // with a warning that says so (docs/own-set.md). Not quiet: `-q` hides warnings.
    let unfinished = consumer.write(
        "sets/unfinished.txt",
        &format!(
            "# unfinished: scan stopped at 3 of 128 jobs\n{}",
            text(&black)
        ),
    );
    let (ok, _, stderr) = consumer.cargo(
        &["build"],
        &[("MAGIC_BITBOARDS_BLACK_SET", unfinished.as_path())],
    );
    assert!(ok, "an unfinished set that verifies builds:\n{stderr}");
    let warning = format!(
        "warning: magic-bitboards@0.1.0: MAGIC_BITBOARDS_BLACK_SET names an unfinished set ({}: \
         `unfinished: scan stopped at 3 of 128 jobs`)",
        unfinished.display()
    );
    assert!(stderr.contains(&warning), "{stderr}");

    // Bad sets: every one is reported in one failed build, none by a panic.
    let bad = |env: &[(&str, &Path)], messages: &[String]| {
        let (ok, _, stderr) = consumer.cargo(&["build", "-q"], env);
        assert!(!ok, "a bad set must fail the build");
        assert!(!stderr.contains("panicked"), "{stderr}");
        for m in messages {
            assert!(stderr.contains(m), "expected `{m}` in:\n{stderr}");
        }
        // The build script's one-line summary is what cargo prints first.
        let first = stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error: magic-bitboards@"),
            "the summary must lead:\n{stderr}"
        );
        stderr
    };
    let missing = consumer.dir.join("sets/missing.rs");
    let mut lines: Vec<String> = text(&black).lines().map(str::to_string).collect();
    let at = lines.iter().position(|l| l.starts_with("rook ")).unwrap();
    lines[at + 2] = "rook c1 0x12 12".to_string();
    let malformed = consumer.write("sets/malformed.txt", &(lines.join("\n") + "\n"));
    bad(
        &[
            ("MAGIC_BITBOARDS_FANCY_SET", black_file.as_path()),
            ("MAGIC_BITBOARDS_PLAIN_SET", missing.as_path()),
            ("MAGIC_BITBOARDS_BLACK_SET", malformed.as_path()),
        ],
        &[
            format!(
                "error: {}: a black set, which the fancy backend cannot index",
                black_file.display()
            ),
            format!("error: {}: cannot read: ", missing.display()),
            format!(
                "error: {}:{}: expected 'PIECE SQUARE MAGIC BITS OFFSET', found 4 fields",
                malformed.display(),
                at + 3
            ),
        ],
    );

    // A magic of 1 keeps only the key's top bits: bishop e4 collides with itself.
    let mut colliding = committed("fancy");
    colliding.entry_mut(Piece::Bishop, 28).magic = 1;
    let colliding = consumer.write("sets/colliding.txt", &text(&colliding));
    // magic-gen's black sets may shift per square, but the black backend's shift is fixed
    // at 12 bits for rooks: an 11-bit rook h8 cannot be indexed.
    let mut shifted = black.clone();
    shifted.entry_mut(Piece::Rook, 63).bits = 11;
    let shifted = consumer.write("sets/shifted.txt", &text(&shifted));
    // Each error names the file and the line; the summaries that lead name the squares.
    bad(
        &[
            ("MAGIC_BITBOARDS_FANCY_SET", colliding.as_path()),
            ("MAGIC_BITBOARDS_PLAIN_SET", Path::new("sets/plain.txt")),
            ("MAGIC_BITBOARDS_BLACK_SET", shifted.as_path()),
        ],
        &[
            format!(
                "({}) failed verification on 1 of 128 squares: {})\n",
                colliding.display(),
                at_line(&colliding, Piece::Bishop, 28)
            ),
            format!(
                "error: {}:{}: bishop e4: destructive collision",
                colliding.display(),
                line_of(&colliding, Piece::Bishop, 28)
            ),
            "error: MAGIC_BITBOARDS_PLAIN_SET=sets/plain.txt: a relative path".to_string(),
            format!(
                "({}) has 1 of 128 squares the black backend cannot index: {})\n",
                shifted.display(),
                at_line(&shifted, Piece::Rook, 63)
            ),
            format!(
                "error: {}:{}: rook h8: 11 index bits, but the black backend's shift is fixed at 12",
                shifted.display(),
                line_of(&shifted, Piece::Rook, 63)
            ),
        ],
    );

    // A damaged offset moves rook e1's range over others' (it was blamed on the other
    // square alone): the summary names rook e1 first, with its line, and each collision
    // names both squares and both lines.
    let mut overlapping = black.clone();
    overlapping.entry_mut(Piece::Rook, 4).offset += 4096;
    let overlapping = consumer.write("sets/overlapping.txt", &text(&overlapping));
    let e1 = line_of(&overlapping, Piece::Rook, 4);
    let stderr = bad(
        &[("MAGIC_BITBOARDS_BLACK_SET", overlapping.as_path())],
        &[format!(
            "({}) failed verification on ",
            overlapping.display()
        )],
    );
    let summary = stderr.lines().next().unwrap();
    assert!(
        summary.contains(&format!("128 squares: rook e1 (line {e1}, in ")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "error: {}:{e1}: rook e1 and ",
            overlapping.display()
        )) || stderr.contains(&format!(" against rook e1 at line {e1})")),
        "{stderr}"
    );

    // magic-gen's black sets may also start a range before the table; the runtime's ranges
    // start inside it. The per-square record of 84,589 entries (tests/data: the committed
    // one has moved on) has both problems (rook h6: -299), several of each.
    // The summary names the set, file and count; repeats are grouped by kind, each square
    // still named (it was 84 `error:` lines, one per problem).
    let per_square = Path::new(ROOT).join("tests/data/black-per-square-84589.rs");
    let file = per_square.display();
    let stderr = bad(
        &[("MAGIC_BITBOARDS_BLACK_SET", per_square.as_path())],
        &[
            format!(
                "error: magic-bitboards@0.1.0: the black set MAGIC_BITBOARDS_BLACK_SET names \
                 ({file}) has 81 of 128 squares the black backend cannot index: {}), {}), ",
                at_line(&per_square, Piece::Rook, 3),
                at_line(&per_square, Piece::Rook, 8),
            ),
            " and 73 more\n".to_string(),
            format!("error: {file}: 78 squares with index bits (in brackets) other than the black backend's fixed shift"),
            format!(
                "rook d1 (line {}: 11), rook a2 (line {}: 11)",
                line_of(&per_square, Piece::Rook, 3),
                line_of(&per_square, Piece::Rook, 8)
            ),
            format!("error: {file}: 4 squares with ranges that start before the table"),
            // Wrapped after the third.
            format!(
                "rook h6 (line {}: -299), rook c8 (line {}: -16), bishop a5 (line {}: -368),\n",
                line_of(&per_square, Piece::Rook, 47),
                line_of(&per_square, Piece::Rook, 58),
                line_of(&per_square, Piece::Bishop, 32),
            ),
            format!(
                " bishop g7 (line {}: -209)\n",
                line_of(&per_square, Piece::Bishop, 54)
            ),
        ],
    );
    let errors = stderr.lines().filter(|l| l.contains("error:")).count();
    assert!(errors <= 5, "{errors} error lines:\n{stderr}");

    // A variable for a backend the build does not compile: not read (a bad file builds),
    // and a warning says why.
    let bare = Consumer {
        dir: tmp.join("bare"),
        target: consumer.target.clone(),
    };
    // No backend feature: the build compiles the crate-level backend only (black without
    // BMI2), so a fancy set is not read, and the build says so.
    bare.write("Cargo.toml", &manifest("own-set-bare", &[]));
    bare.write("src/lib.rs", "pub use magic_bitboards::BACKEND;\n");
    // Not quiet: `-q` hides warnings.
    let (ok, _, stderr) = bare.cargo(&["build"], &[("MAGIC_BITBOARDS_FANCY_SET", &colliding)]);
    assert!(
        ok,
        "a set for a backend not compiled is not read:\n{stderr}"
    );
    assert!(
        stderr.contains(
            "MAGIC_BITBOARDS_FANCY_SET is set, but this build does not compile the fancy backend"
        ),
        "{stderr}"
    );
}
