//! A layout being changed in place: each square's member and start over the slots they
//! fill, squares taken out and put back one at a time.

use super::slots::Slots;
use super::wants::Wants;

/// Per square its (member, start): the table position of the member's lowest used index.
pub(super) type Choices = Vec<(usize, usize)>;

/// The squares laid out so far over their slots. `placed` marks who is in.
#[derive(Clone)]
pub(super) struct Layout<'a> {
    /// Each square's pool.
    pools: &'a [Vec<Wants>],
    /// The table.
    pub(super) slots: Slots,
    /// Each square's member and start (meaningless while it is out).
    pub(super) choices: Choices,
    /// Whether each square is in the table.
    placed: Vec<bool>,
}

impl<'a> Layout<'a> {
    /// Returns the empty layout of `pools`.
    pub(super) fn new(pools: &'a [Vec<Wants>]) -> Layout<'a> {
        Layout {
            pools,
            slots: Slots::default(),
            choices: vec![(0, 0); pools.len()],
            placed: vec![false; pools.len()],
        }
    }

    /// Returns the squares' pools.
    pub(super) fn pools(&self) -> &'a [Vec<Wants>] {
        self.pools
    }

    /// Returns the member `square` uses.
    fn wants(&self, square: usize) -> &'a Wants {
        &self.pools[square][self.choices[square].0]
    }

    /// Returns one past the last slot of `square`'s range.
    pub(super) fn end(&self, square: usize) -> usize {
        self.choices[square].1 + self.wants(square).extent
    }

    /// Returns the table length: one past the last slot any square in it uses.
    pub(super) fn len(&self) -> usize {
        (0..self.pools.len())
            .filter(|&s| self.placed[s])
            .map(|s| self.end(s))
            .max()
            .unwrap_or(0)
    }

    /// Returns the sum of the ranges' ends of the squares in the table.
    pub(super) fn end_sum(&self) -> usize {
        (0..self.pools.len())
            .filter(|&s| self.placed[s])
            .map(|s| self.end(s))
            .sum()
    }

    /// Puts `square` in with `member` at `start`, where it must fit.
    pub(super) fn put(&mut self, square: usize, (member, start): (usize, usize)) {
        debug_assert!(!self.placed[square]);
        self.choices[square] = (member, start);
        self.placed[square] = true;
        self.slots.place(&self.pools[square][member], start);
    }

    /// Puts `square` in at its first fit (every range starting at 0 or above) with the
    /// member of its pool that ends lowest (ties: the first). A member's search for its fit
    /// stops where it could no longer end below the best member before it: the same choice
    /// as trying every start of every member, in a fraction of the tests over a hunt's pools.
    pub(super) fn insert(&mut self, square: usize) {
        let mut best: Option<(usize, usize)> = None;
        let mut best_end = usize::MAX;
        for (k, w) in self.pools[square].iter().enumerate() {
            let limit = best_end.saturating_sub(w.extent);
            if let Some(start) = self.slots.first_fit_below(w, w.first, limit) {
                (best, best_end) = (Some((k, start)), start + w.extent);
            }
        }
        self.put(
            square,
            best.expect("every pool has a member, and it fits past the end"),
        );
    }

    /// Returns true if `square` fits with `member` at `start`: every index at 0 or above
    /// and every slot agreeing with its users.
    pub(super) fn fits(&self, square: usize, (member, start): (usize, usize)) -> bool {
        let w = &self.pools[square][member];
        start >= w.first && self.slots.first_fit_below(w, start, start + 1) == Some(start)
    }

    /// Takes `square` out of the table.
    pub(super) fn remove(&mut self, square: usize) {
        debug_assert!(self.placed[square]);
        let (member, start) = self.choices[square];
        self.slots.remove(&self.pools[square][member], start);
        self.placed[square] = false;
    }
}
