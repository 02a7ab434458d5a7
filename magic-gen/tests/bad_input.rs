//! Set files through `magic-gen verify`: one test per malformed-file case, each a clean
//! failure (exit 1 or 2, no panic) whose message names the file and line, and the piece
//! and square where there are some; and the published black record, whose negative
//! offsets verify as long as every index stays at zero or above.

mod common;

use std::fs;
use std::path::Path;

use common::{committed, magic_gen, scratch, Published};
use magic_gen::{read_set_file, write_interchange};

/// Returns the committed fancy set in the interchange format, as lines.
fn fancy_interchange() -> Vec<String> {
    let (set, _, _) = read_set_file(&committed("fancy")).expect("committed set reads");
    write_interchange(&set, &["test input".to_string()])
        .lines()
        .map(str::to_string)
        .collect()
}

/// Returns the 1-based number of the line that starts with `prefix`.
fn line_of(lines: &[String], prefix: &str) -> usize {
    lines
        .iter()
        .position(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with {prefix:?}"))
        + 1
}

/// Writes `lines` to `dir/name` and runs `verify` on it; returns the run.
fn verify_lines(dir: &Path, name: &str, lines: &[String]) -> common::Run {
    fs::write(dir.join(name), lines.join("\n") + "\n").unwrap();
    magic_gen(dir, &["verify", name])
}

/// Asserts a clean failure whose message names `file:line:` and contains every `needle`.
fn assert_error_at(run: &common::Run, file: &str, line: usize, needles: &[&str]) {
    run.assert_clean_failure();
    let at = format!("error: {file}:{line}: ");
    assert!(
        run.stderr.contains(&at),
        "expected {at:?} in:\n{}",
        run.stderr
    );
    for n in needles {
        assert!(run.stderr.contains(n), "expected {n:?} in:\n{}", run.stderr);
    }
}

#[test]
fn bad_hex_is_reported_with_file_and_line() {
    let dir = scratch("bad-hex");
    let mut lines = fancy_interchange();
    let at = line_of(&lines, "rook   e4 ");
    lines[at - 1] = "rook   e4 0x12G4 10 1234".to_string();
    let run = verify_lines(&dir, "bad.txt", &lines);
    assert_error_at(&run, "bad.txt", at, &["magic '0x12G4'"]);
    // Too many digits and a missing prefix are bad hex too.
    lines[at - 1] = "rook   e4 0x1234567890abcdef0 10 1234".to_string();
    assert_error_at(
        &verify_lines(&dir, "bad.txt", &lines),
        "bad.txt",
        at,
        &["hex"],
    );
    lines[at - 1] = "rook   e4 1234 10 1234".to_string();
    assert_error_at(
        &verify_lines(&dir, "bad.txt", &lines),
        "bad.txt",
        at,
        &["0x prefix"],
    );
}

#[test]
fn unknown_square_is_reported_with_file_and_line() {
    let dir = scratch("bad-square");
    let mut lines = fancy_interchange();
    let at = line_of(&lines, "bishop c3 ");
    lines[at - 1] = lines[at - 1].replacen("c3", "c9", 1);
    let run = verify_lines(&dir, "bad.txt", &lines);
    assert_error_at(&run, "bad.txt", at, &["unknown square 'c9'"]);
    lines[at - 1] = lines[at - 1].replacen("bishop", "queen", 1);
    let run = verify_lines(&dir, "bad.txt", &lines);
    assert_error_at(&run, "bad.txt", at, &["unknown piece 'queen'"]);
}

#[test]
fn missing_entries_are_listed_by_piece_and_square() {
    let dir = scratch("missing");
    let mut lines = fancy_interchange();
    let at = line_of(&lines, "bishop h8 ");
    lines.remove(at - 1);
    let at = line_of(&lines, "rook   a5 ");
    lines.remove(at - 1);
    let last = lines.len();
    let run = verify_lines(&dir, "bad.txt", &lines);
    assert_error_at(
        &run,
        "bad.txt",
        last,
        &["missing 2 of 128 entries", "rook a5", "bishop h8"],
    );
}

#[test]
fn a_duplicate_entry_names_both_lines() {
    let dir = scratch("duplicate");
    let mut lines = fancy_interchange();
    let first = line_of(&lines, "rook   e4 ");
    lines.push(lines[first - 1].clone());
    let run = verify_lines(&dir, "bad.txt", &lines);
    let expected = format!("duplicate entry for rook e4 (first on line {first})");
    assert_error_at(&run, "bad.txt", lines.len(), &[&expected]);
}

#[test]
fn bits_out_of_range_are_rejected_with_file_and_line() {
    let dir = scratch("bits");
    let mut lines = fancy_interchange();
    let at = line_of(&lines, "rook   e4 ");
    let fields: Vec<String> = lines[at - 1]
        .split_whitespace()
        .map(str::to_string)
        .collect();
    for bits in ["11", "0", "64", "-3", "x"] {
        lines[at - 1] = format!("rook e4 {} {bits} {}", fields[2], fields[4]);
        let run = verify_lines(&dir, "bad.txt", &lines);
        assert_error_at(&run, "bad.txt", at, &["out of range"]);
    }
    // A plain set uses 12 bits for every rook square; a packed (black) set may shift per
    // square, but by no more index bits than the fixed 12.
    for (name, from, to, needle) in [
        ("plain", " 12 ", " 11 ", "12 index bits"),
        ("black", " 12 ", " 13 ", "out of range 1..=12"),
    ] {
        let (set, _, _) = read_set_file(&committed(name)).unwrap();
        let mut lines: Vec<String> = write_interchange(&set, &[])
            .lines()
            .map(str::to_string)
            .collect();
        let at = line_of(&lines, "rook   a1 ");
        lines[at - 1] = lines[at - 1].replace(from, to);
        let file = format!("{name}.txt");
        let run = verify_lines(&dir, &file, &lines);
        assert_error_at(&run, &file, at, &["rook a1", needle]);
    }
}

#[test]
fn mixed_variants_are_rejected_with_file_and_line() {
    let dir = scratch("mixed");
    let mut lines = fancy_interchange();
    let first = line_of(&lines, "variant fancy");
    let at = line_of(&lines, "bishop a1 ");
    lines.insert(at - 1, "variant black".to_string());
    let run = verify_lines(&dir, "bad.txt", &lines);
    let expected = format!("mixed variants: 'black' here, 'fancy' on line {first}");
    assert_error_at(&run, "bad.txt", at, &[&expected]);
}

#[test]
fn an_empty_file_is_rejected_with_file_and_line() {
    let dir = scratch("empty");
    fs::write(dir.join("empty.txt"), "").unwrap();
    let run = magic_gen(&dir, &["verify", "empty.txt"]);
    assert_error_at(&run, "empty.txt", 1, &["empty file"]);
    // Only comments and blank lines count as empty too.
    fs::write(dir.join("comments.txt"), "# nothing here\n\n   \n").unwrap();
    let run = magic_gen(&dir, &["verify", "comments.txt"]);
    assert_error_at(&run, "comments.txt", 3, &["empty file"]);
    // So does an empty Rust file.
    fs::write(dir.join("empty.rs"), "").unwrap();
    let run = magic_gen(&dir, &["verify", "empty.rs"]);
    assert_error_at(&run, "empty.rs", 1, &["not a magic-gen set"]);
}

#[test]
fn binary_garbage_is_rejected_with_file_and_line_never_a_panic() {
    let dir = scratch("garbage");
    // A deterministic byte soup with every byte value, newlines included.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    for name in ["garbage.txt", "garbage.rs", "garbage.bin"] {
        fs::write(dir.join(name), &bytes).unwrap();
        for command in ["verify", "stats", "emit"] {
            let mut args = vec![command, name];
            if command == "emit" {
                args.extend(["--out", "out.rs"]);
            }
            let run = magic_gen(&dir, &args);
            run.assert_clean_failure();
            assert!(
                run.stderr.contains(&format!("error: {name}:")),
                "{}",
                run.stderr
            );
            assert!(run.stderr.contains("binary"), "{}", run.stderr);
        }
    }
    // Text that is valid UTF-8 but not a set: named by line.
    fs::write(dir.join("prose.txt"), "variant fancy\nhello world\n").unwrap();
    let run = magic_gen(&dir, &["verify", "prose.txt"]);
    assert_error_at(&run, "prose.txt", 2, &["PIECE SQUARE MAGIC BITS OFFSET"]);
    assert!(!dir.join("out.rs").exists());
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let dir = scratch("no-file");
    for command in ["verify", "stats"] {
        let run = magic_gen(&dir, &[command, "nope.txt"]);
        run.assert_clean_failure();
        assert!(
            run.stderr.contains("error: nope.txt: cannot read"),
            "{}",
            run.stderr
        );
    }
    // A directory, and an endless file, are refused without reading them whole.
    let run = magic_gen(&dir, &["verify", "."]);
    run.assert_clean_failure();
    #[cfg(unix)]
    {
        let run = magic_gen(&dir, &["verify", "/dev/zero"]);
        run.assert_clean_failure();
        assert!(
            run.stderr.contains("error: /dev/zero: larger than"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_destructive_collision_is_rejected_by_piece_and_square() {
    let dir = scratch("collision");
    // In the Rust source: replace rook e4's magic by one that collides.
    let source = fs::read_to_string(committed("fancy")).unwrap();
    let is_rook_e4 = |l: &str| l.ends_with("// e4") && l.contains("shift: 54");
    let e4_line = source.lines().position(is_rook_e4).unwrap() + 1;
    let broken: String = source
        .lines()
        .map(|l| {
            if is_rook_e4(l) {
                let start = l.find("magic: 0x").unwrap() + "magic: ".len();
                format!("{}0x0000000000000001{}", &l[..start], &l[start + 18..])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(broken, source.trim_end());
    fs::write(dir.join("broken.rs"), broken).unwrap();
    for command in ["verify", "stats", "emit"] {
        let mut args = vec![command, "broken.rs"];
        if command == "emit" {
            args.extend(["--out", "out.rs"]);
        }
        let run = magic_gen(&dir, &args);
        run.assert_clean_failure();
        let at = format!("error: broken.rs:{e4_line}: rook e4: destructive collision");
        assert!(run.stderr.contains(&at), "{}", run.stderr);
        let summary = format!(
            "error: broken.rs: rejected: 1 verification failure on 1 square: rook e4 (line {e4_line})\n"
        );
        assert!(run.stderr.contains(&summary), "{}", run.stderr);
    }
    assert!(!dir.join("out.rs").exists());

    // In the interchange format: two bishop squares get a magic of 1, which keeps only
    // the key's top bits and collides on every square.
    let mut lines = fancy_interchange();
    let mut at = Vec::new();
    for square in ["c1", "f1"] {
        at.push(line_of(&lines, &format!("bishop {square} ")));
        let i = at[at.len() - 1] - 1;
        let old = lines[i].split_whitespace().nth(2).unwrap().to_string();
        lines[i] = lines[i].replace(&old, "0x1");
    }
    let run = verify_lines(&dir, "collide.txt", &lines);
    run.assert_clean_failure();
    for (square, line) in ["c1", "f1"].iter().zip(&at) {
        let error = format!("error: collide.txt:{line}: bishop {square}: destructive collision");
        assert!(run.stderr.contains(&error), "{}", run.stderr);
    }
    let summary = format!(
        "rejected: 2 verification failures on 2 squares: bishop c1 (line {}), bishop f1 (line {})",
        at[0], at[1]
    );
    assert!(run.stderr.contains(&summary), "{}", run.stderr);
}

/// A damaged offset moves one range over others: each collision names both squares and
/// both lines, at the line of the square verified first, and the summary names the square
/// that is in every collision first. (The offset of the published set's rook e1 moved
/// into the middle of the table: it used to be blamed on the other square alone.)
#[test]
fn a_collision_between_two_squares_names_both_and_their_lines() {
    let dir = scratch("overlap");
    let mut lines = published(Published::Black);
    let e1 = line_of(&lines, "rook e1 ");
    let fields: Vec<String> = lines[e1 - 1]
        .split_whitespace()
        .map(str::to_string)
        .collect();
    lines[e1 - 1] = format!(
        "{} {} {} {} 69760",
        fields[0], fields[1], fields[2], fields[3]
    );
    let run = verify_lines(&dir, "c2.txt", &lines);
    run.assert_clean_failure();
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("destructive collision"))
        .collect();
    assert!(errors.len() >= 2, "{}", run.stderr);
    for error in &errors {
        // `c2.txt:E1: rook e1 and SQUARE (line N): ...`, N that square's line.
        let prefix = format!("error: c2.txt:{e1}: rook e1 and ");
        let rest = error
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{error}"));
        let (other, rest) = rest.split_once(" (line ").unwrap();
        let line: usize = rest.split_once(')').unwrap().0.parse().unwrap();
        assert!(lines[line - 1].starts_with(&format!("{other} ")), "{error}");
        assert!(error.contains("one of the two is wrong"), "{error}");
    }
    let summary = format!(
        "rejected: {n} verification failures on {} squares: rook e1 (line {e1}, in {n} failures), ",
        errors.len() + 1,
        n = errors.len()
    );
    assert!(run.stderr.contains(&summary), "{}", run.stderr);
}

/// Returns the published set `which` as interchange lines.
fn published(which: Published) -> Vec<String> {
    which.text().lines().map(str::to_string).collect()
}

/// Returns `lines` with every entry's offset changed by `f(piece square, offset)`.
fn with_offsets(lines: &[String], f: impl Fn(&str, i64) -> i64) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            match fields[..] {
                [piece @ ("rook" | "bishop"), square, magic, bits, offset] => {
                    let place = format!("{piece} {square}");
                    let offset = f(&place, offset.parse().unwrap());
                    format!("{place} {magic} {bits} {offset}")
                }
                _ => l.clone(),
            }
        })
        .collect()
}

#[test]
fn the_published_black_record_verifies_with_its_exact_size() {
    let dir = scratch("published-black");
    let run = verify_lines(&dir, "published.txt", &published(Published::Black));
    run.assert_success();
    assert!(
        run.stdout.contains("table length: 87988 entries"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("slots used:   72118"), "{}", run.stdout);
    assert!(run.stdout.contains("holes:        15870"), "{}", run.stdout);
}

#[test]
fn the_published_white_set_verifies_with_its_exact_size() {
    // Annuss's fixed-shift white magics and offsets, as shakmaty 0.30 ships them.
    let dir = scratch("published-white");
    let run = verify_lines(&dir, "white.txt", &published(Published::White));
    run.assert_success();
    assert!(
        run.stdout.contains("white set, collision-free"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("table length: 88772 entries"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("slots used:   73195"), "{}", run.stdout);
}

#[test]
fn negative_offsets_verify_while_every_index_stays_at_zero_or_above() {
    let dir = scratch("negative-offsets");
    // Bishop b2's hashes are 488..=504 (17 slots). Move every other square 17 slots up and
    // bishop b2 to the front: its offset becomes -488 and its indices 0..=16.
    let lines = with_offsets(&published(Published::Black), |place, offset| match place {
        "bishop b2" => -488,
        _ => offset + 17,
    });
    let run = verify_lines(&dir, "moved.txt", &lines);
    run.assert_success();
    assert!(
        run.stdout.contains("table length: 88005 entries"),
        "{}",
        run.stdout
    );
    // One slot further down and its lowest index would be -1: rejected by piece and square.
    let lines = with_offsets(
        &lines,
        |place, offset| {
            if place == "bishop b2" {
                -489
            } else {
                offset
            }
        },
    );
    let run = verify_lines(&dir, "below.txt", &lines);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("bishop b2: offset -489 puts occupancy")
            && run.stderr.contains("at index -1, below 0"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_set_named_for_the_other_format_is_told_which_format_it_holds() {
    let dir = scratch("other-format");
    // The interchange format named `.rs`: Rust source is what `.rs` means.
    fs::write(dir.join("x.rs"), fancy_interchange().join("\n") + "\n").unwrap();
    let run = magic_gen(&dir, &["verify", "x.rs"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains(
            "error: x.rs: a `.rs` file is read as Rust source (what `--out X.rs` writes), and \
             this one is the interchange format"
        ),
        "{}",
        run.stderr
    );
    // Rust source named otherwise.
    fs::copy(committed("fancy"), dir.join("y.txt")).unwrap();
    let run = magic_gen(&dir, &["verify", "y.txt"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains(
            "error: y.txt: a file not named `.rs` is read as the interchange format, and this \
             one is Rust source"
        ),
        "{}",
        run.stderr
    );
    // A `.rs` file that is neither says how `.rs` is read.
    fs::write(dir.join("z.rs"), "fn main() {}\n").unwrap();
    let run = magic_gen(&dir, &["verify", "z.rs"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("(a `.rs` file is read as Rust source;"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_extension_picks_the_format_in_any_case() {
    // `--out up.RS` writes Rust source, and reads back as it.
    let dir = scratch("extension-case");
    let fancy = committed("fancy");
    let run = magic_gen(&dir, &["emit", fancy.to_str().unwrap(), "--out", "up.RS"]);
    run.assert_success();
    let text = fs::read_to_string(dir.join("up.RS")).unwrap();
    assert!(text.contains("pub const VARIANT"), "{text}");
    magic_gen(&dir, &["verify", "up.RS"]).assert_success();
}

#[test]
fn a_set_of_another_variant_given_to_join_the_pools_is_named() {
    // The black set is fine; the white one given with --also is the file at fault.
    let dir = scratch("also-variant");
    let white = Published::White.copy_to(&dir, "white.txt");
    let black = committed("black");
    let args = ["pack", black.to_str().unwrap(), "--also", white];
    let run = magic_gen(&dir, &args);
    run.assert_clean_failure();
    assert!(
        run.stderr
            .contains("error: white.txt: a white set's magics cannot join a black set's pools"),
        "{}",
        run.stderr
    );
}

/// A file given for a set says what it is: a hunt's file (a search state, a pack
/// checkpoint) names itself and what resumes it, whatever its name; a file that is no set
/// at all (a `Cargo.toml`) shows how it begins. An entry before the variant line is still
/// one line too early.
#[test]
fn a_file_that_is_not_a_set_says_what_it_is() {
    use magic_gen::pack::PackCheckpoint;
    use magic_gen::search::{Options, SearchState};
    use magic_gen::Variant;

    let dir = scratch("not-a-set");
    let state = SearchState::new(&Options::for_variant(Variant::Black)).unwrap();
    state.save(&dir.join("b.state"), &[]).unwrap();
    fs::copy(dir.join("b.state"), dir.join("b.rs")).unwrap();
    fs::write(dir.join("p.pack"), PackCheckpoint::file_text(&[])).unwrap();
    for (args, file, says) in [
        (
            &["verify", "b.state"][..],
            "b.state",
            "this is a magic-gen search state, resumed by `magic-gen search --resume`",
        ),
        (
            &["verify", "b.rs"],
            "b.rs",
            "this is a magic-gen search state, resumed by `magic-gen search --resume`",
        ),
        (
            &["pack", "b.state"],
            "b.state",
            "this is a magic-gen search state, resumed by `magic-gen search --resume`",
        ),
        (
            &["verify", "p.pack"],
            "p.pack",
            "this is a magic-gen pack checkpoint, resumed by `magic-gen pack SET --resume FILE`",
        ),
    ] {
        let run = magic_gen(&dir, args);
        assert_error_at(&run, file, 1, &["not a magic set: ", says]);
    }
    fs::write(
        dir.join("Cargo.toml"),
        "# a manifest\n[package]\nname = \"x\"\n",
    )
    .unwrap();
    let run = magic_gen(&dir, &["verify", "Cargo.toml"]);
    assert_error_at(
        &run,
        "Cargo.toml",
        2,
        &[
            "not a magic set: the interchange format begins with a 'variant NAME' line \
           (docs/formats.md), this file with '[package]'",
        ],
    );
    assert!(!run.stderr.contains("must come before"), "{}", run.stderr);
    let mut lines = fancy_interchange();
    let variant = line_of(&lines, "variant ");
    let moved = lines.remove(variant - 1);
    lines.push(moved);
    let run = verify_lines(&dir, "late.txt", &lines);
    let first = line_of(&lines, "rook ");
    assert_error_at(
        &run,
        "late.txt",
        first,
        &["the 'variant NAME' line must come before the entries"],
    );
}
