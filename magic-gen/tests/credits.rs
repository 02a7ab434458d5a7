//! Credits in set headers (docs/formats.md, "Credits"): `pack --also` credits the squares
//! that took another set's magics, with that set's own credit line or, where its header
//! has none, its file; `emit` and a further `pack` keep them; the published sets in
//! `tests/data` credit their authors; the committed sets that hold published magics credit
//! exactly the squares that hold them.

mod common;

use std::fs;

use common::{every_set, magic_gen, scratch, test_data, workspace, Published};
use magic_gen::set_file::{Credit, Squares};
use magic_gen::{read_set_file, MagicSet, Piece};

/// Returns the squares of `set` whose magic and bits are those of `other`.
fn same(set: &MagicSet, other: &MagicSet) -> Squares {
    let mut squares = Squares::default();
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let (a, b) = (set.entry(piece, sq), other.entry(piece, sq));
            if (a.magic, a.bits) == (b.magic, b.bits) {
                squares.insert(piece, sq);
            }
        }
    }
    squares
}

/// Returns `a` without the squares of `b`.
fn minus(a: Squares, b: Squares) -> Squares {
    Squares {
        bits: [0, 1].map(|i| a.bits[i] & !b.bits[i]),
    }
}

#[test]
fn the_published_sets_credit_their_authors() {
    for published in Published::ALL {
        let (_, header) = published.read();
        let name = published.file_name();
        let [credit] = &header.credits[..] else {
            panic!("{name}: {:?}", header.credits);
        };
        assert!(
            credit.authors.contains("Volker Annuss"),
            "{name}: {credit:?}"
        );
        assert_eq!(credit.squares, Squares::ALL, "{name}");
    }
}

#[test]
fn pack_also_credits_the_squares_that_took_another_sets_magics() {
    let dir = scratch("credits");
    let (published, published_header) = Published::Black.read();
    let (pinned, pinned_header, _) = read_set_file(&test_data("pinned-black.txt")).unwrap();
    assert!(pinned_header.credits.is_empty());
    fs::copy(test_data("pinned-black.txt"), dir.join("pinned.txt")).unwrap();
    let published_text = Published::Black.text();
    fs::write(dir.join("published.txt"), &published_text).unwrap();
    // The same set with no credit line: whose its magics are is not recorded.
    let uncredited: String = published_text
        .lines()
        .filter(|l| !l.starts_with("# credit: "))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(dir.join("uncredited.txt"), uncredited).unwrap();
    // Few moves: the pinned set is long, and any packing with the published magics
    // beside its own takes some of them.
    let pack = |args: &[&str], out: &str| {
        let fixed = ["--pack-iterations", "2000", "--out", out];
        let run = magic_gen(&dir, &[&["pack"], args, &fixed[..]].concat());
        run.assert_success();
        let (set, header, _) = read_set_file(&dir.join(out)).unwrap();
        (set, header, run.stdout)
    };

    // The pinned set with the published magics beside its own: the squares that took a
    // published magic are credited to its authors, the others to no one.
    let (mixed, header, stdout) = pack(&["pinned.txt", "--also", "published.txt"], "a.txt");
    let took = minus(same(&mixed, &published), same(&pinned, &published));
    assert!(!took.is_empty(), "no square took a published magic");
    let expected = Credit {
        squares: took,
        ..published_header.credits[0].clone()
    };
    assert_eq!(header.credits, std::slice::from_ref(&expected));
    let total = took.count(Piece::Rook) + took.count(Piece::Bishop);
    assert!(
        stdout.contains(&format!("credited in the header: {total} of 128 squares")),
        "{stdout}"
    );
    let text = fs::read_to_string(dir.join("a.txt")).unwrap();
    assert!(
        text.contains(&format!("# credit: {}\n", expected.line())),
        "{text}"
    );

    // The same magics from a file that credits no one: the credit names the file.
    let (_, header, _) = pack(&["pinned.txt", "--also", "uncredited.txt"], "u.txt");
    let credit = Credit::unrecorded("uncredited.txt", took);
    assert_eq!(credit.authors, "not recorded");
    assert_eq!(header.credits, [credit]);

    // A packing with no other set keeps the credits (its magics are the input's), and so
    // does `emit`, into either format.
    let (_, again, _) = pack(&["a.txt"], "b.txt");
    assert_eq!(again.credits, std::slice::from_ref(&expected));
    let run = magic_gen(&dir, &["emit", "b.txt", "--out", "b.rs"]);
    run.assert_success();
    let (_, emitted, _) = read_set_file(&dir.join("b.rs")).unwrap();
    assert_eq!(emitted.credits, [expected]);
}

/// Each committed set's credits name exactly the squares that hold the magic of the
/// published set its header's `pack --also` took them from: no more, no fewer (a set of
/// this project's own that it took magics from is credited nowhere).
#[test]
fn committed_sets_credit_the_published_magics_they_hold() {
    let mut credited = 0;
    for path in every_set() {
        let (set, header, _) = read_set_file(&workspace().join(&path)).unwrap();
        let also: Vec<&str> = header
            .steps
            .iter()
            .flat_map(|s| s.values("--also"))
            .collect();
        if also.is_empty() {
            assert!(header.credits.is_empty(), "{path}: {:?}", header.credits);
            continue;
        }
        for file in also {
            let (other, other_header, _) = read_set_file(&workspace().join(file)).unwrap();
            let Some(credit) = other_header.credits.first() else {
                // A set this generator found: its magics are this project's own.
                assert!(other_header.found_here(), "{path}: {file} credits no one");
                continue;
            };
            let holds = same(&set, &other);
            let of_it: Vec<&Credit> = header
                .credits
                .iter()
                .filter(|c| (&c.authors, &c.source) == (&credit.authors, &credit.source))
                .collect();
            assert_eq!(of_it.len(), 1, "{path}: {:?}", header.credits);
            assert_eq!(
                of_it[0].squares, holds,
                "{path}: the squares credited to {file}"
            );
            credited += 1;
        }
    }
    assert!(credited >= 3, "{credited}");
}

/// A credit line that does not read stops the reader at its line, as any bad header line.
#[test]
fn a_bad_credit_line_is_refused_at_its_line() {
    let dir = scratch("bad-credit");
    let text = Published::White
        .text()
        .replace("| all\n", "| rook a1 a9 (2)\n");
    let line = text
        .lines()
        .position(|l| l.starts_with("# credit: "))
        .unwrap()
        + 1;
    fs::write(dir.join("bad.txt"), text).unwrap();
    let run = magic_gen(&dir, &["verify", "bad.txt"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains(&format!(
            "bad.txt:{line}: credit: unknown square 'a9' (a1..h8)"
        )),
        "{}",
        run.stderr
    );
}

/// The README's credits table and the crate docs give the counts the headers credit.
#[test]
fn the_readme_and_the_crate_docs_give_the_credited_counts() {
    let readme = fs::read_to_string(workspace().join("README.md")).unwrap();
    // The crate docs as one line of prose.
    let docs: Vec<String> = fs::read_to_string(workspace().join("src/lib.rs"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("//!").map(|t| t.trim().to_string()))
        .collect();
    let docs = docs.join(" ");
    for path in every_set() {
        let (_, header, _) = read_set_file(&workspace().join(&path)).unwrap();
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{path}`")))
            .unwrap_or_else(|| panic!("no row for {path} in the README's credits"));
        let credited: u32 = header
            .credits
            .iter()
            .map(|c| c.squares.count(Piece::Rook) + c.squares.count(Piece::Bishop))
            .sum();
        let said = match credited {
            0 => "| none |".to_string(),
            n => format!("| {n} of 128 |"),
        };
        assert!(
            row.contains(&said),
            "{path}: {credited} credited, README: {row}"
        );
        if path == "magics/black.rs" {
            // Of its own magics, those its own-only sibling has on the same square: a reader
            // can count them from the two files.
            let (ours, _, _) = read_set_file(&workspace().join(&path)).unwrap();
            let (sibling, _, _) =
                read_set_file(&workspace().join("magics/records/own-black.rs")).unwrap();
            let shared = Piece::ALL
                .iter()
                .flat_map(|&piece| (0..64u8).map(move |sq| (piece, sq)))
                .filter(|&(piece, sq)| {
                    ours.entry(piece, sq).magic == sibling.entry(piece, sq).magic
                })
                .count();
            let said = format!(
                "{shared} of them are the magics `magics/records/own-black.rs` has on the same"
            );
            assert!(
                readme.replace('\n', " ").contains(&said),
                "the README does not say: {said}"
            );
            let own = 128 - credited;
            assert!(
                docs.contains(&format!("{credited} of its 128 magics"))
                    && docs.contains(&format!("The other {own} were found")),
                "src/lib.rs does not give {credited} and {own}"
            );
        }
    }
}
