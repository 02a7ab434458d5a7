//! The committed sets in `magics/`: each one verifies, records the command that produced
//! it, and that command run again gives the committed file byte for byte.

mod common;

use std::fs;

use common::{committed, every_set, magic_gen, record, scratch, COMMITTED};
use magic_gen::set_file::Step;
use magic_gen::{read_set_file, relevant_mask, verify, Piece, Variant};

/// No set in `magics/` or `magics/records/` comes from a run that stopped short.
#[test]
fn no_committed_set_is_unfinished() {
    for path in every_set() {
        let problem = common::not_committable(&common::workspace().join(&path));
        assert_eq!(problem, None, "{path}");
    }
}

#[test]
fn every_committed_set_verifies() {
    for name in COMMITTED {
        let (set, provenance, _) = read_set_file(&committed(name)).expect("committed set reads");
        // A set is named after its backend, whose variant it is; `black_overlay` reads
        // rook overlays, its bishops reading their slots as they are.
        let variant = match name {
            "black_overlay" => "black-rook-overlay".to_string(),
            _ => name.replace('_', "-"),
        };
        assert_eq!(set.variant.name(), variant, "{name}");
        let v = verify(&set).unwrap_or_else(|f| panic!("{name}: {f:?}"));
        let header = fs::read_to_string(committed(name)).unwrap();
        let recorded = format!("TABLE_LEN: usize = {};", v.report.table_len);
        assert!(header.contains(&recorded), "{name}: stale TABLE_LEN");
        let steps = &provenance.steps;
        let (first, last) = (&steps[0], &steps[steps.len() - 1]);
        // Its chain starts with a search of its variant (of black, for an overlay set
        // laid out from black magics) and ends by writing it.
        let searched = first.value("--variant").and_then(Variant::parse);
        let overlaid =
            searched
                .filter(|_| last.has("--overlay"))
                .map(|_| match last.has("--exact-bishops") {
                    true => Variant::BlackRookOverlay,
                    false => Variant::BlackOverlay,
                });
        assert!(
            first.subcommand() == Some("search")
                && overlaid.or(searched) == Some(set.variant)
                && last.value("--out") == Some(format!("magics/{name}.rs").as_str()),
            "{name}: {}",
            Step::chain_line(steps)
        );
        assert!(provenance.seed.is_some(), "{name}: no seed in the header");
        match set.variant {
            Variant::Fancy => assert!(v.report.table_len <= 107_648),
            Variant::Plain => assert!(v.report.table_len <= 64 * 4096 + 64 * 512),
            _ => {
                for piece in Piece::ALL {
                    assert!(set.entries[piece.index()]
                        .iter()
                        .all(|e| e.bits == piece.fixed_bits()));
                }
            }
        }
    }
}

/// Returns the commands that regenerate the set at `path` from its recorded provenance:
/// the last one that wrote the file from something else (a search, a packing of another
/// committed set, a resume of a committed state), and the packings of the file in place
/// after it (`pack PATH ... --out PATH`), which read what it wrote.
fn commands_to_run<'a>(recorded: &'a [Step], path: &str) -> &'a [Step] {
    let in_place =
        |step: &Step| matches!(step.args(), [pack, input, ..] if pack == "pack" && input == path);
    let mut first = recorded.len() - 1;
    while first > 0 && in_place(&recorded[first]) {
        first -= 1;
    }
    &recorded[first..]
}

/// What regenerating a set costs, by the commands its header records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cost {
    /// Seconds: no scan budget, no annealing budget (fancy and plain).
    Seconds,
    /// Minutes of CPU: packings of a `--pack-iterations` budget (a million moves each).
    Packing,
    /// Minutes to an hour: a record hunt's `--candidates` scan.
    Hunt,
}

/// Returns what running `commands` costs.
fn cost(commands: &[Step]) -> Cost {
    if commands.iter().any(|c| c.has("--candidates")) {
        Cost::Hunt
    } else if commands.iter().any(|c| c.has("--pack-iterations")) {
        Cost::Packing
    } else {
        Cost::Seconds
    }
}

/// Runs the command that wrote the set at `path` (relative to the workspace, e.g.
/// `magics/black.rs`) from a scratch copy of the workspace layout (with the state it
/// resumes from and the sets it takes magics from, if any, copied from the repository) and asserts it writes the committed
/// file byte for byte, at the same path.
fn assert_regenerates(dir: &std::path::Path, path: &str) {
    let committed_file = common::workspace().join(path);
    if let Some(problem) = common::not_committable(&committed_file) {
        panic!("{problem}");
    }
    let (_, provenance, _) = read_set_file(&committed_file).unwrap();
    let commands = commands_to_run(&provenance.steps, path);
    // The other sets a packing takes magics from (`--also FILE`), and the committed set a
    // last packing reads if it is another (a record packed beside published magics), from
    // the repository.
    for command in commands {
        let input = match command.args() {
            [pack, input, ..] if pack == "pack" => Some(input.as_str()),
            _ => None,
        };
        for file in command.values("--also").chain(input) {
            let to = dir.join(file);
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::copy(common::workspace().join(file), &to)
                .unwrap_or_else(|e| panic!("{path} takes magics from {file}: {e}"));
        }
    }
    for command in &commands[..commands.len() - 1] {
        fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        magic_gen(dir, command.args()).assert_success();
    }
    let command = &commands[commands.len() - 1];
    assert!(command.subcommand().is_some(), "{path}: {command}");
    assert!(
        !command.has("--seconds"),
        "{path} was written by a time-budgeted run, which no machine repeats: {command}"
    );
    assert_eq!(
        command.value("--out"),
        Some(path),
        "{path}: its command writes elsewhere: {command}"
    );
    if let Some(state) = command.value("--resume") {
        let to = dir.join(state);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(common::workspace().join(state), &to)
            .unwrap_or_else(|e| panic!("{path} resumes from {state}: {e}"));
    }
    fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
    let run = magic_gen(dir, command.args());
    run.assert_success();
    // Finishing a finished state must leave it as committed, or the next run would differ.
    if let Some(state) = command.value("--resume") {
        assert!(
            fs::read(dir.join(state)).unwrap()
                == fs::read(common::workspace().join(state)).unwrap(),
            "`{command}` rewrote {state}"
        );
    }
    let fresh = fs::read(dir.join(path)).unwrap();
    let old = fs::read(&committed_file).unwrap();
    assert!(
        fresh == old,
        "{path} is stale: `{command}` now writes a different file; regenerate it \
         with `cargo run --release -p magic-gen -- {}`",
        &command.to_string()["magic-gen ".len()..]
    );
}

/// Regenerates every set in `magics/` and `magics/records/` whose commands cost `cost`, and
/// returns the paths it checked.
fn regenerate(dir: &std::path::Path, cost_wanted: Cost) -> Vec<String> {
    let mut checked = Vec::new();
    for path in every_set() {
        let (_, provenance, _) = read_set_file(&common::workspace().join(&path)).unwrap();
        if cost(commands_to_run(&provenance.steps, &path)) == cost_wanted {
            assert_regenerates(dir, &path);
            checked.push(path);
        }
    }
    checked
}

/// Asserts that `checked` holds each of `paths`.
fn assert_checked(checked: &[String], paths: &[&str]) {
    for path in paths {
        assert!(
            checked.iter().any(|c| c == path),
            "{path} was not regenerated (checked: {checked:?})"
        );
    }
}

/// The sets of commands that take seconds regenerate identically in every `cargo test`:
/// the fancy and plain sets the runtime builds from.
#[test]
fn committed_sets_regenerate_identically_from_their_recorded_command() {
    let checked = regenerate(&scratch("regenerate"), Cost::Seconds);
    assert_checked(&checked, &["magics/fancy.rs", "magics/plain.rs"]);
}

/// The packed records regenerate identically: the white record, packed twice from the
/// committed own-only white set, the per-square record, packed once, and the overlay
/// sets packed from committed sets, black and fancy magics laid out by the overlay rule. Their packings of
/// a million moves take minutes of CPU, so `cargo test` leaves them to `.ci/run`:
/// `cargo test -p magic-gen --test committed -- --ignored --exact
/// packed_sets_regenerate_identically_from_their_recorded_command`.
#[test]
#[ignore = "minutes of CPU: packings of a million moves; .ci/run runs it"]
fn packed_sets_regenerate_identically_from_their_recorded_command() {
    let checked = regenerate(&scratch("regenerate-packed"), Cost::Packing);
    assert_checked(
        &checked,
        &[
            "magics/records/white.rs",
            "magics/records/black-per-square.rs",
            "magics/black_overlay.rs",
            "magics/records/fancy-overlay.rs",
        ],
    );
}

/// The hunted sets with a `--candidates` budget regenerate identically too, in minutes
/// each (docs/results/hunts.md has the measured times):
/// `cargo test --release -p magic-gen --test committed -- --ignored --exact
/// hunted_sets_regenerate_identically_from_their_recorded_command`.
#[test]
#[ignore = "minutes to an hour: a record hunt's --candidates budget"]
fn hunted_sets_regenerate_identically_from_their_recorded_command() {
    let checked = regenerate(&scratch("regenerate-hunts"), Cost::Hunt);
    assert_checked(
        &checked,
        &[
            "magics/black.rs",
            "magics/records/own-black-overlay.rs",
            "magics/records/own-black-per-square-overlay.rs",
        ],
    );
}

/// The densest sets the record hunts found (docs/record-hunts.md), kept in
/// `magics/records/` beside the ones the runtime builds from: they verify, beat the
/// standard size (and the published records where there are some), and say how they
/// were made.
#[test]
fn the_densest_sets_found_verify() {
    let (set, provenance, _) = read_set_file(&record("fancy-dense")).expect("the set reads");
    let v = verify(&set).unwrap_or_else(|f| panic!("fancy-dense: {f:?}"));
    assert_eq!(set.variant, Variant::Fancy);
    assert!(v.report.table_len < 107_648, "{}", v.report.table_len);
    assert!(v.report.squares_below_popcount(Piece::Bishop) > 0);
    let hunt = &provenance.steps[0];
    assert_eq!(hunt.value("--bits-under"), Some("1"), "{hunt}");
    // The densest black set of any shift: each square at its mask popcount or the fixed
    // 12/9 bits, ranges free to start before the table; below the published per-square
    // record of 86,491 entries.
    let (set, provenance, _) = read_set_file(&record("black-per-square")).expect("the set reads");
    let v = verify(&set).unwrap_or_else(|f| panic!("black-per-square: {f:?}"));
    assert_eq!(set.variant, Variant::Black);
    assert!(v.report.table_len < 86_491, "{}", v.report.table_len);
    for piece in Piece::ALL {
        let shifts: Vec<(u8, u8)> = (0..64u8)
            .map(|sq| {
                let popcount = relevant_mask(piece, sq).count_ones() as u8;
                (set.entry(piece, sq).bits, popcount)
            })
            .collect();
        assert!(shifts
            .iter()
            .all(|&(bits, popcount)| bits == popcount || bits == piece.fixed_bits()));
        // Both shifts are taken where a square had the choice.
        let chose = |fixed: bool| {
            shifts.iter().any(|&(bits, popcount)| {
                popcount < piece.fixed_bits() && (bits == piece.fixed_bits()) == fixed
            })
        };
        assert!(chose(true) && chose(false), "{piece}");
    }
    // Packed with ranges free to start before the table (whether the layout found uses
    // that is the packing's choice: the seed-6 packing needs none).
    let hunt = &provenance.steps[0];
    let packing = &provenance.steps[provenance.steps.len() - 1];
    assert!(
        hunt.value("--bits-under") == Some("0")
            && hunt.has("--also-fixed-shift")
            && packing.has("--negative-offsets"),
        "{hunt}"
    );
    // The densest white set: fixed 12/9 bits, ranges from 0 up, made with the white tools
    // (clumped finds, the spread energy); below the published white record of 88,772
    // entries (Annuss's, in shakmaty).
    let (set, provenance, _) = read_set_file(&record("white")).expect("the set reads");
    let v = verify(&set).unwrap_or_else(|f| panic!("white: {f:?}"));
    assert_eq!(set.variant, Variant::White);
    assert!(v.report.table_len < 88_772, "{}", v.report.table_len);
    for piece in Piece::ALL {
        assert!(set.entries[piece.index()]
            .iter()
            .all(|e| e.bits == piece.fixed_bits() && e.offset >= 0));
    }
    let hunt = &provenance.steps[0];
    assert!(hunt.has("--clump") && hunt.has("--pack-spread"), "{hunt}");
}
