use super::squares::{measure_magic, Measured, RangeUse};
use super::*;
use crate::geometry::{parse_square, square_name, Piece};
use crate::index::Variant;
use crate::io::parse_interchange;
use crate::set::MagicSet;
use crate::verify::verify;

fn published(name: &str) -> MagicSet {
    let text = match name {
        "black" => include_str!("../../tests/data/published-black-87988.txt"),
        _ => include_str!("../../tests/data/published-white-88772.txt"),
    };
    parse_interchange(name, text.as_bytes()).unwrap()
}

/// Returns the fields after the piece and square of the line of `table` for `piece`'s `sq`.
fn row(table: &str, piece: Piece, sq: u8) -> Vec<String> {
    let start = format!("{:<6} {:<6} ", piece.to_string(), square_name(sq));
    let line = table
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no {start} line in\n{table}"));
    line.split_whitespace().skip(2).map(String::from).collect()
}

#[test]
fn a_sets_measures_agree_with_verification_square_by_square() {
    for name in ["black", "white"] {
        let set = published(name);
        let report = verify(&set).unwrap().report;
        let measured = PerSquare::of_set(&set).unwrap();
        assert_eq!(measured.measured(), 128);
        // No two squares share a slot: the squares' slots add up to the table's.
        assert_eq!(measured.total_used(), report.slots_used as u64, "{name}");
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let r = measured.get(piece, sq).unwrap().range;
                let e = set.entry(piece, sq);
                let table = report.squares[piece.index()][sq as usize];
                let start = |index: usize| (index as i64 - e.offset) as u32;
                assert_eq!(r.used as usize, table.used, "{name} {piece} {sq}");
                assert_eq!(r.last, start(table.last), "{name} {piece} {sq}");
                assert_eq!(r.tail, (1 << e.bits) - 1 - r.last);
                if set.variant.is_black() {
                    // No lone slot: the run is every slot, the lead all before it.
                    assert_eq!(r.first, start(table.first), "{name} {piece} {sq}");
                    assert_eq!(r.lead, r.first);
                } else {
                    // Verification's first slot is the empty occupancy's, the range's first.
                    assert_eq!(start(table.first), 0, "{name} {piece} {sq}");
                    assert!(r.first >= 1 && r.lead == r.first - 1, "{name} {piece} {sq}");
                }
            }
        }
    }
}

#[test]
fn a_white_run_leaves_out_the_empty_occupancys_slot_0() {
    // Annuss's rook b7 (shakmaty): slot 0, then every other occupancy in 3,424..4,096.
    let b7 = parse_square("b7").unwrap();
    let r = measure_magic(Variant::White, Piece::Rook, b7, 0x007f_ff75_ff7f_bfd8, 12).unwrap();
    assert_eq!((r.used, r.first, r.last), (544, 3424, 4095));
    assert_eq!((r.span(), r.lead, r.tail, r.ends()), (672, 3423, 0, 3423));
}

#[test]
fn a_multiplier_that_is_no_magic_is_a_collision_on_its_square() {
    // Times 0 every key lands on slot 0, and a1's occupancies differ in attacks.
    let err = measure_magic(Variant::Black, Piece::Rook, 0, 0, 12).unwrap_err();
    assert_eq!(
        err,
        MeasureError::Collision {
            piece: Piece::Rook,
            square: 0,
            magic: 0,
            bits: 12
        }
    );
    // A set's entry outside its variant's rules is named, not measured.
    let mut set = published("black");
    set.entry_mut(Piece::Bishop, 9).bits = 13;
    let err = PerSquare::of_set(&set).unwrap_err();
    assert!(
        matches!(
            err,
            MeasureError::Entry {
                piece: Piece::Bishop,
                square: 9,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_comparison_counts_each_square_where_ours_uses_no_more_slots() {
    let theirs = PerSquare::of_set(&published("black")).unwrap();
    // Ours: theirs with one square better and two worse, by slots measured on their own.
    let mut ours = theirs.clone();
    let mut set_use = |piece: Piece, sq: u8, used: u32| {
        let m = ours.squares[piece.index()][sq as usize].as_mut().unwrap();
        m.range.used = used;
    };
    let b1 = theirs.get(Piece::Rook, 1).unwrap().range.used;
    let c1 = theirs.get(Piece::Rook, 2).unwrap().range.used;
    let h8 = theirs.get(Piece::Bishop, 63).unwrap().range.used;
    set_use(Piece::Rook, 1, b1 - 10);
    set_use(Piece::Rook, 2, c1 + 3);
    set_use(Piece::Bishop, 63, h8 + 4);
    ours.squares[Piece::Bishop.index()][0] = None;
    let c = ours.compare(&theirs).unwrap();
    let t = c.tally;
    assert_eq!((t.squares, t.unmatched), (127, 1));
    assert_eq!((t.fewer, t.fewer_by, t.more, t.more_by), (1, 10, 2, 7));
    assert_eq!(t.no_more, 125);
    let a1 = theirs.get(Piece::Bishop, 0).unwrap().range.used as u64;
    assert_eq!(t.theirs_used, theirs.total_used() - a1);
    assert_eq!(t.ours_used, t.theirs_used - 10 + 7);
    assert_eq!(c.rows.len(), 128);
    assert_eq!(c.rows[1].difference(), Some(-10));
    assert_eq!(c.rows[64].difference(), None);
    // Sets of two variants do not compare.
    let white = PerSquare::of_set(&published("white")).unwrap();
    assert_eq!(
        white.compare(&theirs).unwrap_err(),
        MeasureError::Variants {
            ours: Variant::White,
            theirs: Variant::Black
        }
    );
}

#[cfg(feature = "search")]
#[test]
fn pools_are_measured_as_the_scan_measured_them_and_the_best_uses_fewest_slots() {
    use crate::search::Budget;
    use crate::search::{Options, SearchState};
    use crate::stages::Progress;
    for variant in [Variant::Black, Variant::White] {
        let mut o = Options::for_variant(variant);
        o.scan.budget = Budget::Candidates(4096);
        o.scan.pool = 3;
        o.scan.sparse = 1;
        o.scan.patience = 0;
        o.limits.threads = 2;
        let mut state = SearchState::new(&o).unwrap();
        crate::search::run(&mut state, &o.limits, &Progress::default(), None);
        let pools = Pools::of_state(&state).unwrap();
        let found: Vec<_> = state
            .jobs
            .iter()
            .flat_map(|j| j.found.iter().copied())
            .collect();
        assert_eq!(pools.members.len(), found.len());
        for (m, f) in pools.members.iter().zip(&found) {
            let r = m.measured.range;
            assert_eq!((r.used, r.span()), (f.used, f.span), "{variant} {m:?}");
        }
        let best = pools.best();
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let fewest = pools
                    .of_square(piece, sq)
                    .map(|m| m.measured.range.used)
                    .min();
                let got = best.get(piece, sq).map(|m| m.range.used);
                assert_eq!(got, fewest, "{variant} {piece} {sq}");
            }
        }
        assert!(best.measured() > 0);
        check_pools_tables(&pools);
        // A state's magic that is no magic on its square is named.
        state.jobs[0].found.insert(0, found[0]);
        state.jobs[0].found[0].magic = 0;
        assert!(matches!(
            Pools::of_state(&state),
            Err(MeasureError::Collision {
                piece: Piece::Rook,
                square: 0,
                magic: 0,
                ..
            })
        ));
    }
}

#[test]
fn a_sets_table_holds_verifications_slots_and_the_measured_ends() {
    for name in ["black", "white"] {
        let set = published(name);
        let report = verify(&set).unwrap().report;
        let measured = PerSquare::of_set(&set).unwrap();
        let table = measured.set_tables(&report);
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let u = report.squares[piece.index()][sq as usize];
                let r = measured.get(piece, sq).unwrap().range;
                let want = [u.first, u.last, u.span(), u.used, u.holes()]
                    .map(|n| n.to_string())
                    .into_iter()
                    .chain([r.lead, r.tail].map(|n| n.to_string()));
                assert_eq!(row(&table, piece, sq), want.collect::<Vec<_>>());
            }
        }
        let (spans, saving) = report.spans_and_saving();
        let last = table.lines().last().unwrap();
        assert_eq!(
            last,
            format!(
                "sum of spans {spans}: interleaving saves {saving} entries over ranges end to end"
            )
        );
        let boards = table.matches("    a   b   c   d   e   f   g   h").count();
        assert_eq!(boards, 4, "two boards of two file lines each");
    }
}

#[test]
fn a_comparisons_table_holds_each_squares_slots_and_the_tally() {
    let theirs = PerSquare::of_set(&published("black")).unwrap();
    let mut ours = theirs.clone();
    ours.squares[Piece::Rook.index()][1]
        .as_mut()
        .unwrap()
        .range
        .used -= 10;
    ours.squares[Piece::Bishop.index()][63] = None;
    let c = ours.compare(&theirs).unwrap();
    let text = c.to_string();
    for r in &c.rows {
        let fields = row(&text, r.piece, r.square);
        let show = |m: Option<Measured>| m.map(|m| m.range);
        let used = |m| show(m).map_or("-".to_string(), |u: RangeUse| u.used.to_string());
        assert_eq!(fields[0], used(r.ours));
        assert_eq!(fields[1], used(r.theirs));
        let diff = r.difference().map_or("-".to_string(), |d| format!("{d:+}"));
        assert_eq!(fields[2], diff);
        let t = show(r.theirs).unwrap();
        assert_eq!(fields[5..], [t.lead.to_string(), t.tail.to_string()]);
    }
    assert_eq!(row(&text, Piece::Rook, 1)[2], "-10");
    let t = c.tally;
    let totals = format!(
        "slots used: ours {}, theirs {}, ours minus theirs -10, over 127 squares",
        t.ours_used, t.theirs_used
    );
    assert!(text.contains(&totals), "{text}");
    assert!(text.contains("squares where ours uses no more slots than theirs: 127 of 127"));
    assert!(text.contains("ours uses fewer on 1 squares (10 slots in all), as many on 126"));
    let ends = format!("ours {}, theirs {}", t.ours_ends, t.theirs_ends);
    assert!(text.contains(&ends));
    assert!(text.ends_with("left out: 1 squares where only one side has a magic"));
    // Nothing left out, no line for it.
    assert!(!theirs
        .compare(&theirs)
        .unwrap()
        .to_string()
        .contains("left out"));
}

/// Checks the pools' tables and summary line against the pools' measures.
#[cfg(feature = "search")]
fn check_pools_tables(pools: &Pools) {
    let (best, table) = (pools.best(), pools.best_table());
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let fields = row(&table, piece, sq);
            assert_eq!(fields[0], pools.of_square(piece, sq).count().to_string());
            match best.get(piece, sq) {
                Some(m) => {
                    assert_eq!(fields[2], m.range.used.to_string());
                    assert_eq!(fields[6], format!("{:#018x}", m.magic));
                }
                None => assert_eq!(fields[1..], ["-"; 6]),
            }
        }
    }
    let total = format!(
        "slots used by these magics: {} in all, over {} squares",
        best.total_used(),
        best.measured()
    );
    assert_eq!(table.lines().last(), Some(total.as_str()));
    let members = pools.members_table();
    let rows: Vec<&str> = members.lines().skip(2).collect();
    assert_eq!(rows.len(), pools.members.len());
    for (line, m) in rows.iter().zip(&pools.members) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[2], m.rank.to_string());
        assert_eq!(fields[8], format!("{:#018x}", m.measured.magic));
    }
    let counts = format!(
        "{} magics in the pools of {} of 128 squares",
        pools.members.len(),
        best.measured()
    );
    assert!(pools.summary().contains(&counts));
}
