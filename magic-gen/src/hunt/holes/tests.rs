use std::sync::atomic::Ordering;

use super::*;
use crate::geometry::{Piece, SetSquare};
use crate::verify::verify;

use crate::pack::test_support::published_set as published;

/// Returns the published black set, whose layout is not every square's lowest.
fn published_black() -> MagicSet {
    published("published-black-87988.txt")
}

/// Returns each square's end (one past its last used slot) in `set`.
fn ends(set: &MagicSet) -> Vec<i64> {
    layout_of(set).iter().map(|p| p.end() as i64).collect()
}

#[test]
fn squares_move_only_down_into_free_slots_and_the_set_verifies() {
    let set = published_black();
    let before = ends(&set);
    let progress = Progress::default();
    let lowered = into_holes(&set, 1, 1, false, &progress);
    let after = ends(&lowered);
    assert!(before.iter().zip(&after).all(|(b, a)| a <= b));
    let moved = before.iter().zip(&after).filter(|(b, a)| a < b).count();
    // Bishops find lower places in the table's holes; in a block of candidates no rook
    // does below the published one, locked in by its neighbours.
    assert!(moved > 30, "{moved} squares moved");
    let other = |piece: Piece| {
        (0..64u8)
            .filter(|&sq| lowered.entry(piece, sq).magic != set.entry(piece, sq).magic)
            .count()
    };
    // Most of them with another magic of their streams (56 bishops with 16 blocks).
    assert_eq!(other(Piece::Rook), 0);
    assert!(
        other(Piece::Bishop) > 30,
        "{} bishops",
        other(Piece::Bishop)
    );
    let report = verify(&lowered).expect("a valid set").report;
    assert!(report.table_len <= verify(&set).unwrap().report.table_len);
    assert_eq!(
        progress.stage(),
        Some((Stage::Holes { blocks: 1 }, 128, 128))
    );
    // The same seed and blocks, the same set.
    assert_eq!(into_holes(&set, 1, 1, false, &Progress::default()), lowered);
}

#[test]
fn a_square_lifted_above_the_table_comes_back_down_with_its_own_magic() {
    let mut set = published_black();
    let len = verify(&set).unwrap().report.table_len as i64;
    let before = ends(&set);
    // Bishop d4 moved past the end: still valid, its slots all free there.
    set.entry_mut(Piece::Bishop, 27).offset += len;
    let lowered = into_holes(&set, 1, 0, false, &Progress::default());
    assert_eq!(
        lowered.entry(Piece::Bishop, 27).magic,
        set.entry(Piece::Bishop, 27).magic
    );
    assert!(ends(&lowered)[64 + 27] <= before[64 + 27]);
    assert!(verify(&lowered).unwrap().report.table_len <= len as usize);
}

#[test]
fn a_stop_returns_the_set_as_it_stands() {
    let set = published_black();
    let progress = Progress::default();
    progress.stop.store(true, Ordering::Relaxed);
    assert_eq!(into_holes(&set, 1, 64, false, &progress), set);
    assert_eq!(
        progress.stage(),
        Some((Stage::Holes { blocks: 64 }, 0, 128))
    );
}

#[test]
fn squares_are_taken_highest_end_first() {
    let placed = layout_of(&published_black());
    let order = highest_end_first(&placed);
    let end = |i: usize| placed[i].end();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, (0..128).collect::<Vec<_>>());
    assert!(order
        .windows(2)
        .all(|w| end(w[0]) > end(w[1]) || (end(w[0]) == end(w[1]) && w[0] < w[1])));
    // Rook g2 ends the published black table (87,988).
    assert_eq!(end(order[0]), 87_988);
}

/// Returns the published white set, whose last rook ends 305 slots above the
/// next square's end.
fn published_white() -> MagicSet {
    published("published-white-88772.txt")
}

#[test]
fn rooks_first_moves_the_last_rook_past_the_bishops_and_lays_the_bishops_into_holes() {
    let set = published_white();
    let before = ends(&set);
    let rooks_end = |e: &[i64]| *e[..64].iter().max().unwrap();
    assert_eq!(rooks_end(&before), 88_772);
    let out = rooks_first(&set, 1, 0, false, &Progress::default());
    let after = ends(&out);
    // Rook c5 (34) meets only bishops on its way down to 58,134; then rook h4 (31), which
    // ends the rooks' table next, drops into the gap below it.
    assert_eq!(after[34], 58_134);
    assert_eq!(rooks_end(&after), 88_055);
    assert!(after[..64].iter().zip(&before).all(|(a, b)| a <= b));
    // With no other magics drawn, every square keeps its own.
    assert!(SetSquare::all()
        .all(|s| out.entry(s.piece, s.square).magic == set.entry(s.piece, s.square).magic));
    // The bishops go into the rooks' holes, the largest first; three central ones find
    // none and end above the rooks.
    let above = (64..128).filter(|&i| after[i] > 88_055).count();
    assert_eq!(above, 3);
    let report = verify(&out).expect("a valid set").report;
    assert_eq!(report.table_len, 89_591);
    assert_eq!(rooks_first(&set, 1, 0, false, &Progress::default()), out);
}

#[test]
fn rooks_first_stopped_still_lays_every_bishop() {
    let set = published_white();
    let progress = Progress::default();
    progress.stop.store(true, Ordering::Relaxed);
    let out = rooks_first(&set, 1, 64, false, &progress);
    // No rook moved and no magic drawn; the bishops laid again by first fit.
    assert!((0..64).all(|sq| out.entry(Piece::Rook, sq) == set.entry(Piece::Rook, sq)));
    assert!(verify(&out).is_ok());
}
