use std::sync::atomic::Ordering;

use super::*;
use crate::verify::verify;

/// Returns the published black set (tests/data), whose layout is not every square's lowest.
fn published_black() -> MagicSet {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/published-black-87988.txt"
    );
    crate::read_set_file(std::path::Path::new(path))
        .expect("test data")
        .0
}

/// Returns each square's end (one past its last used slot) in `set`.
fn ends(set: &MagicSet) -> Vec<i64> {
    layout_of(set)
        .iter()
        .map(|(p, start)| (start + p.extent()) as i64)
        .collect()
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
    assert_eq!(progress.stage(), Some((Stage::Holes, 128, 128)));
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
    assert_eq!(progress.stage(), Some((Stage::Holes, 0, 128)));
}

#[test]
fn squares_are_taken_highest_end_first() {
    let placed = layout_of(&published_black());
    let order = highest_end_first(&placed);
    let end = |i: usize| placed[i].1 + placed[i].0.extent();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, (0..128).collect::<Vec<_>>());
    assert!(order
        .windows(2)
        .all(|w| end(w[0]) > end(w[1]) || (end(w[0]) == end(w[1]) && w[0] < w[1])));
    // Rook g2 ends the published black table (87,988).
    assert_eq!(end(order[0]), 87_988);
}
