//! Magics chosen for a layout's holes: each square of a packed set, highest end first, is
//! taken out and given the magic of its candidate stream (or its own) that ends lowest in
//! the slots the other squares leave free. A square that moves down frees its slots for those
//! above; the packing that follows works with the new magics.

use std::sync::atomic::Ordering;

use crate::geometry::SetSquare;
use crate::index::Variant;
use crate::pack::{Pattern, Table};
use crate::set::{Entry, MagicSet};
use crate::stages::{Progress, Stage};

use super::pools::pattern;
use crate::occupancy::SquareData;
use crate::search::candidates::Stream;
use crate::search::table::EpochTable;

/// Where a square's range lies in a layout: its pattern and its start, the slot its first
/// used index lands on.
#[derive(Clone)]
pub(crate) struct Placement {
    /// The slots its magic uses, from its first used index.
    pub pattern: Pattern,
    /// The slot its first used index lands on.
    pub start: usize,
}

impl Placement {
    /// Returns one past its last used slot.
    pub(crate) fn end(&self) -> usize {
        self.start + self.pattern.extent()
    }
}

/// Returns the placement of every square of the packed, verified `set`, rook a1 first.
pub(crate) fn layout_of(set: &MagicSet) -> Vec<Placement> {
    SetSquare::all()
        .map(|s| {
            let e = set.entry(s.piece, s.square);
            let pattern = pattern(
                &SquareData::new(s.piece, s.square, set.variant),
                e.magic,
                e.bits,
            );
            let start = (e.offset + pattern.first as i64) as usize;
            Placement { pattern, start }
        })
        .collect()
}

/// Returns the squares of `placed` by end, one past the last used slot, highest first;
/// ties in square order.
fn highest_end_first(placed: &[Placement]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..placed.len()).collect();
    order.sort_by_key(|&i| (core::cmp::Reverse(placed[i].end()), i));
    order
}

/// Returns `set` (black or white, verified) with magics chosen for its layout's holes:
/// each square, from the highest end (one past its last used slot) down, takes the valid
/// magic of the first `blocks` blocks of its candidate stream (seeded `seed`, at the
/// square's bits, 4,096 candidates a block), or its own, whose used slots fit in the slots
/// the other squares take with the lowest end, where that end is below its own; ties keep
/// the earlier candidate. The table never grows, and squares that move down leave room
/// that a packing from the set's layout ([`crate::hunt::Hunt::repack`] with
/// [`PackSettings::from_input`](crate::pack::PackSettings::from_input)) can use. A start
/// stays at or above the square's first used index unless `negative_offsets`. Counts its
/// squares in `progress` ([`Stage::Holes`]) and returns the squares done so far once its
/// stop flag is set. The stage [`Stage::Holes`].
pub(crate) fn into_holes(
    set: &MagicSet,
    seed: u64,
    blocks: u64,
    negative_offsets: bool,
    progress: &Progress,
) -> MagicSet {
    let draw = Draw {
        variant: set.variant,
        seed,
        blocks,
        negative_offsets,
    };
    let mut placed = layout_of(set);
    let mut table = Table::new();
    for p in &placed {
        table.place(&p.pattern, p.start);
    }
    progress.begin(Stage::Holes { blocks }, 128);
    for i in highest_end_first(&placed) {
        if progress.stop.load(Ordering::Relaxed) {
            break;
        }
        draw.refit(&mut table, &mut placed, i, progress);
        progress.advance(1);
    }
    set_of(set, &placed)
}

/// Returns `set` with its rooks packed among themselves and its bishops laid into the
/// rooks' holes. The rook with the highest end, again and again, takes the place that ends
/// lowest among the other rooks' slots alone (bishops in the way are moved after), with its
/// own magic or one of the first `blocks` blocks of its candidate stream (seeded `seed`),
/// until it ends no lower. Then each bishop, the most used slots first, takes the fit that
/// ends lowest with its own magic or one of its stream's. A rook that ends the table
/// and meets only bishops below it moves down past them: what the packer's one-square
/// moves cannot do, since each bishop it displaces first lands above the end. The table
/// may come out longer (bishops that find no room); [`into_holes`] and a packing from the
/// layout follow. Returns the set so far once `progress`'s stop flag is set (a valid layout
/// at any point). The stage [`Stage::RooksFirst`].
pub(crate) fn rooks_first(
    set: &MagicSet,
    seed: u64,
    blocks: u64,
    negative_offsets: bool,
    progress: &Progress,
) -> MagicSet {
    let draw = Draw {
        variant: set.variant,
        seed,
        blocks,
        negative_offsets,
    };
    let mut placed = layout_of(set);
    let mut table = Table::new();
    for rook in &placed[..64] {
        table.place(&rook.pattern, rook.start);
    }
    while !progress.stop.load(Ordering::Relaxed) {
        let top = highest_end_first(&placed[..64])[0];
        let was = placed[top].end();
        if draw.refit(&mut table, &mut placed, top, progress) >= was {
            break;
        }
    }
    let mut bishops: Vec<usize> = (64..128).collect();
    bishops.sort_by_key(|&i| (core::cmp::Reverse(placed[i].pattern.used), i));
    for i in bishops {
        let pattern = placed[i].pattern.clone();
        let start = table.first_fit(&pattern, pattern.lowest_start(negative_offsets));
        let own = Placement { pattern, start };
        let p = draw.lowest_fit(&table, own, SetSquare::from_index(i), progress);
        table.place(&p.pattern, p.start);
        placed[i] = p;
    }
    set_of(set, &placed)
}

/// Returns `set` with each square's magic, bits and offset from `placed`.
fn set_of(set: &MagicSet, placed: &[Placement]) -> MagicSet {
    let mut out = set.clone();
    for (i, Placement { pattern: p, start }) in placed.iter().enumerate() {
        let s = SetSquare::from_index(i);
        *out.entry_mut(s.piece, s.square) = Entry {
            magic: p.magic,
            bits: p.bits,
            offset: *start as i64 - p.first as i64,
        };
    }
    out
}

/// Where the hole search draws its magics from, and how low a range may start.
#[derive(Clone, Copy)]
struct Draw {
    variant: Variant,
    seed: u64,
    blocks: u64,
    negative_offsets: bool,
}

impl Draw {
    /// Takes square `i` of `placed` out of `table` and puts it back where
    /// [`Draw::lowest_fit`] says, recording its new place; returns its new end.
    fn refit(
        self,
        table: &mut Table,
        placed: &mut [Placement],
        i: usize,
        progress: &Progress,
    ) -> usize {
        let own = placed[i].clone();
        table.remove(&own.pattern, own.start);
        let p = self.lowest_fit(table, own, SetSquare::from_index(i), progress);
        table.place(&p.pattern, p.start);
        placed[i] = p;
        placed[i].end()
    }

    /// Returns the placement, among `own` (one that fits `table` at its start, or lower) and the valid magics of the first [`Draw::blocks`] blocks of the
    /// candidate stream of `square`, whose used slots all land on free slots of `table`
    /// with the lowest end; ties keep the earlier candidate. Stops drawing candidates once
    /// `progress` is stopped.
    fn lowest_fit(
        self,
        table: &Table,
        own: Placement,
        square: SetSquare,
        progress: &Progress,
    ) -> Placement {
        let data = SquareData::new(square.piece, square.square, self.variant);
        let mut entries = data.entries();
        let bits = own.pattern.bits;
        let mut epoch = EpochTable::new(bits);
        let stream = Stream {
            seed: self.seed,
            variant: self.variant,
            piece: square.piece,
            square: square.square,
            bits,
        };
        let mut best = own;
        let stopped = || progress.stop.load(Ordering::Relaxed);
        let streamed = (0..self.blocks)
            .take_while(|_| !stopped())
            .flat_map(|block| stream.magics(block));
        for magic in core::iter::once(best.pattern.magic).chain(streamed) {
            if !epoch.accepts(&mut entries, magic, bits) {
                continue;
            }
            let p = pattern(&data, magic, bits);
            // Only a start whose range ends below the best end so far.
            let Some(limit) = best.end().checked_sub(p.extent()) else {
                continue;
            };
            let lowest = p.lowest_start(self.negative_offsets);
            if let Some(start) = table.first_fit_below(&p, lowest, limit) {
                best = Placement { pattern: p, start };
            }
        }
        best
    }
}

#[cfg(test)]
mod tests;
