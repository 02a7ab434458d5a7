//! Magics chosen for a layout's holes: each square of a packed set, highest end first, is
//! taken out and given the magic of its candidate stream (or its own) that ends lowest in
//! the slots the other squares leave free. A square that moves down frees its slots for those
//! above; the packing that follows works with the new magics.

use std::sync::atomic::Ordering;

use crate::geometry::Piece;
use crate::pack::{Pattern, Table};
use crate::set::{Entry, MagicSet};
use crate::stages::{Progress, Stage};

use super::candidates::Stream;
use super::finish::pattern;
use super::table::{EpochTable, SquareData};

/// Returns the pattern and start (the slot its first used index lands on) of every square
/// of the packed, verified `set`, rook a1 first.
pub(crate) fn layout_of(set: &MagicSet) -> Vec<(Pattern, usize)> {
    (0..128)
        .map(|i| {
            let (piece, sq) = (Piece::ALL[i / 64], (i % 64) as u8);
            let e = set.entry(piece, sq);
            let p = pattern(&SquareData::new(piece, sq, set.variant), e.magic, e.bits);
            let start = (e.offset + p.first as i64) as usize;
            (p, start)
        })
        .collect()
}

/// Returns the squares of `placed` (pattern and start each) by end, one past the last
/// used slot, highest first; ties in square order.
fn highest_end_first(placed: &[(Pattern, usize)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..placed.len()).collect();
    order.sort_by_key(|&i| (core::cmp::Reverse(placed[i].1 + placed[i].0.extent()), i));
    order
}

/// Returns `set` (black or white, verified) with magics chosen for its layout's holes:
/// each square, from the highest end (one past its last used slot) down, takes the valid
/// magic of the first `blocks` blocks of its candidate stream (seeded `seed`, at the
/// square's bits, 4,096 candidates a block), or its own, whose used slots fit in the slots
/// the other squares take with the lowest end, where that end is below its own; ties keep
/// the earlier candidate. The table never grows, and squares that move down leave room
/// that a packing from the set's layout ([`crate::hunt::repack`] with
/// [`PackSettings::from_input`](crate::pack::PackSettings::from_input)) can use. A start
/// stays at or above the square's first used index unless `negative_offsets`. Counts its
/// squares in `progress` ([`Stage::Holes`]) and returns the squares done so far once its
/// stop flag is set.
///
/// ```
/// use magic_gen::hunt::into_holes;
/// use magic_gen::search::Progress;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// let lowered = into_holes(&set, 1, 1, false, &Progress::default());
/// let len = |s| magic_gen::verify(s).unwrap().report.table_len;
/// assert!(len(&lowered) <= len(&set));
/// assert_ne!(lowered, set);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn into_holes(
    set: &MagicSet,
    seed: u64,
    blocks: u64,
    negative_offsets: bool,
    progress: &Progress,
) -> MagicSet {
    let variant = set.variant;
    let square = |i: usize| (Piece::ALL[i / 64], (i % 64) as u8);
    let mut placed = layout_of(set);
    let mut table = Table::new();
    for (p, start) in &placed {
        table.place(p, *start);
    }
    progress.begin(Stage::Holes, 128);
    let mut out = set.clone();
    for i in highest_end_first(&placed) {
        if progress.stop.load(Ordering::Relaxed) {
            break;
        }
        let (piece, sq) = square(i);
        let (own, own_start) = placed[i].clone();
        table.remove(&own, own_start);
        let data = SquareData::new(piece, sq, variant);
        let mut entries = data.entries();
        let mut epoch = EpochTable::new(own.bits);
        let stream = Stream {
            seed,
            variant,
            piece,
            square: sq,
            bits: own.bits,
        };
        let own_magic = own.magic;
        let mut best = (own_start, own);
        let stopped = || progress.stop.load(Ordering::Relaxed);
        let streamed = (0..blocks)
            .take_while(|_| !stopped())
            .flat_map(|block| stream.magics(block));
        for magic in core::iter::once(own_magic).chain(streamed) {
            if !epoch.accepts(&mut entries, magic, best.1.bits) {
                continue;
            }
            let p = pattern(&data, magic, best.1.bits);
            // Only a start whose range ends below the best end so far.
            let Some(limit) = (best.0 + best.1.extent()).checked_sub(p.extent()) else {
                continue;
            };
            if let Some(start) = table.first_fit_below(&p, p.lowest_start(negative_offsets), limit)
            {
                best = (start, p);
            }
        }
        let (start, p) = best;
        table.place(&p, start);
        *out.entry_mut(piece, sq) = Entry {
            magic: p.magic,
            bits: p.bits,
            offset: start as i64 - p.first as i64,
        };
        placed[i] = (p, start);
        progress.advance(1);
    }
    out
}

#[cfg(test)]
mod tests;
