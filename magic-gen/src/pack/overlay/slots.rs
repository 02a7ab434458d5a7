//! The overlay table being packed, slot by slot: what each slot holds and who uses it, so
//! that a square can leave as cheaply as it came.

use super::wants::Wants;

/// One slot: the OR of its users' attacks and of their rays (`through` 0: free, since
/// every square's rays are some squares).
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub(super) struct Cell {
    /// The OR of the users' attacks.
    pub(super) value: u64,
    /// The OR of the users' rays.
    pub(super) through: u64,
}

/// One user of a slot.
#[derive(Clone, Copy, Debug)]
struct User {
    /// Its square.
    square: usize,
    /// What its lookups read through.
    rays: u64,
    /// The attacks it wants here.
    attacks: u64,
}

/// The slots of a member that failed a fit test most recently, at most [`Recent::KEEP`],
/// the oldest replaced first.
#[derive(Default)]
struct Recent {
    /// Their places in the member's slots.
    slots: [usize; Recent::KEEP],
    /// How many are kept.
    len: usize,
    /// Where the next one goes.
    next: usize,
}

impl Recent {
    /// Slots kept: a fit test reads this many cells before the rest.
    const KEEP: usize = 24;

    /// Returns the slots kept.
    fn slots(&self) -> &[usize] {
        &self.slots[..self.len]
    }

    /// Keeps `slot`, dropping the oldest if full.
    fn add(&mut self, slot: usize) {
        self.slots[self.next] = slot;
        self.next = (self.next + 1) % Self::KEEP;
        self.len = (self.len + 1).min(Self::KEEP);
    }
}

/// The table: per slot its cell and its users. A cell is always the OR over its users, and
/// so is the same whatever order they came and went in.
#[derive(Clone, Default)]
pub(super) struct Slots {
    /// Per slot, what it holds: kept apart from the users for a dense fit scan.
    cells: Vec<Cell>,
    /// Per slot, its users.
    users: Vec<Vec<User>>,
}

impl Slots {
    /// Returns the cell at `k` (free past the end).
    #[cfg(test)]
    pub(super) fn cell(&self, k: usize) -> Cell {
        self.cells.get(k).copied().unwrap_or_default()
    }

    /// Returns true if `w` can take its slot `i` (index, attacks) from `start` on.
    #[inline]
    fn fits_at(&self, w: &Wants, start: usize, (i, a): (u32, u64)) -> bool {
        match self.cells.get(start + i as usize) {
            None => true,
            Some(c) => c.through == 0 || c.value & w.rays == a & c.through,
        }
    }

    /// Returns the lowest start from `lowest` on and below `limit` where `w` fits, if one
    /// is. The slot that failed the last start is tried first at the next: the values that
    /// clash stay under it for a stretch, so most starts fail at that one test, run in a
    /// tight loop over consecutive cells. A start that passes it meets the few slots that
    /// failed most recently next, then all of them in the member's check order (its widest
    /// attacks first): most of a member's slots fit almost anywhere, and a scan of all of
    /// them reads cells far apart.
    pub(super) fn first_fit_below(&self, w: &Wants, lowest: usize, limit: usize) -> Option<usize> {
        let mut hot = 0;
        let mut recent = Recent::default();
        let mut start = lowest;
        while start < limit {
            let (i, a) = w.slots[hot];
            let mut k = start + i as usize;
            // The slot `hot` of a start below `limit` is below this.
            let end = limit.saturating_add(i as usize);
            while let Some(c) = self.cells.get(k).filter(|_| k < end) {
                if c.through == 0 || c.value & w.rays == a & c.through {
                    break;
                }
                k += 1;
            }
            start = k - i as usize;
            if start >= limit {
                return None;
            }
            let fails = |&s: &usize| !self.fits_at(w, start, w.slots[s]);
            let failed = match recent.slots().iter().find(|s| fails(s)) {
                Some(&s) => Some(s),
                None => w
                    .check
                    .iter()
                    .map(|&s| s as usize)
                    .find(fails)
                    .inspect(|&s| recent.add(s)),
            };
            match failed {
                Some(s) => {
                    hot = s;
                    start += 1;
                }
                None => return Some(start),
            }
        }
        None
    }

    /// Puts `w` at `start` (where it fits).
    pub(super) fn place(&mut self, w: &Wants, start: usize) {
        let end = start + w.extent;
        if self.cells.len() < end {
            self.cells.resize(end, Cell::default());
            self.users.resize_with(end, Vec::new);
        }
        for &(i, a) in &w.slots {
            let k = start + i as usize;
            let c = &mut self.cells[k];
            c.value |= a;
            c.through |= w.rays;
            self.users[k].push(User {
                square: w.square,
                rays: w.rays,
                attacks: a,
            });
        }
    }

    /// Takes `w`, placed at `start`, out again: each of its slots holds what its other
    /// users put there, exactly as if `w` had never come.
    pub(super) fn remove(&mut self, w: &Wants, start: usize) {
        for &(i, _) in &w.slots {
            let k = start + i as usize;
            let users = &mut self.users[k];
            users.retain(|u| u.square != w.square);
            self.cells[k] = users.iter().fold(Cell::default(), |c, u| Cell {
                value: c.value | u.attacks,
                through: c.through | u.rays,
            });
        }
    }
}
