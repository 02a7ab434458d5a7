//! A layout: the order squares are placed in and each square's pool member, every square
//! at its first fit. The greedy pass builds one; annealing moves change it, and only the
//! squares after the first change are placed again.

use super::fit::Table;
use super::pattern::Pattern;

/// What emptying a table and growing it again costs, in squares placed: a move whose
/// first change comes fewer than this many squares before the middle of the order takes
/// its squares out of a copy of the table rather than placing those before it afresh.
const REBUILD_COST: usize = 8;

/// Packs squares in `order` (indices into `pools`), returning each square's chosen pattern
/// and offset and the table length.
pub(super) fn pack_in_order(
    pools: &[Vec<Pattern>],
    order: &[usize],
    negative_offsets: bool,
) -> (Vec<(usize, usize)>, usize) {
    let mut table = Table::new();
    let mut choice = vec![(0usize, 0usize); pools.len()];
    for &sq in order {
        let mut best: Option<((usize, usize, usize), usize)> = None;
        for (k, p) in pools[sq].iter().enumerate() {
            let start = table.first_fit(p, p.lowest_start(negative_offsets));
            let end = table.len.max(start + p.extent());
            // Least growth first; then fewer used slots (more room for later squares).
            let cost = (end, p.used, start);
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, k));
            }
        }
        if let Some(((_, _, start), k)) = best {
            table.place(&pools[sq][k], start);
            choice[sq] = (k, start);
        }
    }
    (choice, table.len)
}

/// Returns the squares that have a pool and a start in `starts` (the start of the first
/// used slot of each square's first member), in an order whose first fits put each at its
/// start where some order does: at each step, of the squares left, the one of the lowest
/// start whose first fit is its start, or where none is, the one of the lowest start (it
/// goes where it fits). Squares with a pool and no start come last, in square order.
pub(super) fn input_order(
    pools: &[Vec<Pattern>],
    starts: &[Option<usize>],
    negative_offsets: bool,
) -> Vec<usize> {
    let start = |i: usize| starts.get(i).copied().flatten();
    let (mut left, unstarted): (Vec<usize>, Vec<usize>) = (0..pools.len())
        .filter(|&i| !pools[i].is_empty())
        .partition(|&i| start(i).is_some());
    left.sort_by_key(|&i| (start(i), i));
    let mut table = Table::new();
    let mut order = Vec::with_capacity(pools.len());
    while !left.is_empty() {
        let fit =
            |i: usize| table.first_fit(&pools[i][0], pools[i][0].lowest_start(negative_offsets));
        let (at, s) = left
            .iter()
            .enumerate()
            .map(|(at, &i)| (at, fit(i)))
            .find(|&(at, s)| Some(s) == start(left[at]))
            .unwrap_or_else(|| (0, fit(left[0])));
        let i = left.remove(at);
        table.place(&pools[i][0], s);
        order.push(i);
    }
    order.extend(unstarted);
    order
}

/// A packing being improved: the order squares are placed in, each square's pool member,
/// and where first fit put each one. The order and the members decide the layout; the
/// starts follow from them.
pub(super) struct Layout<'a> {
    pub(super) pools: &'a [Vec<Pattern>],
    /// Whether a range may start before the table (see [`Pattern::lowest_start`]).
    pub(super) negative_offsets: bool,
    /// Squares (indices into `pools`) in placing order.
    pub(super) order: Vec<usize>,
    /// Per square: the pool member it uses.
    pub(super) member: Vec<usize>,
    /// Per place in `order`: the start first fit gave it, and its end.
    pub(super) start: Vec<usize>,
    pub(super) end: Vec<usize>,
    pub(super) table: Table,
    /// The layout before the current move, with its table (an undo swaps it back: cheaper
    /// than taking the squares out and placing them again), and the refit's stretch
    /// lists: kept between moves so that a move allocates nothing.
    before: Before,
    table_before: Table,
    moved: Changed,
    spans: Spans,
}

impl<'a> Layout<'a> {
    /// Returns the layout of placing `order` with `member`s, each at its first fit.
    pub(super) fn new(
        pools: &'a [Vec<Pattern>],
        order: Vec<usize>,
        member: Vec<usize>,
        negative_offsets: bool,
    ) -> Layout<'a> {
        let n = order.len();
        let mut layout = Layout {
            pools,
            negative_offsets,
            order,
            member,
            start: vec![0; n],
            end: vec![0; n],
            table: Table::new(),
            table_before: Table::new(),
            before: Before {
                place: vec![usize::MAX; pools.len()],
                start: vec![0; pools.len()],
                end: vec![0; pools.len()],
                ..Before::default()
            },
            moved: Changed::default(),
            spans: Spans {
                kept: vec![false; pools.len()],
                ..Spans::default()
            },
        };
        layout.place_from(0);
        layout
    }

    /// Returns where this layout's squares are, for a copy of it to take.
    pub(super) fn placing(&self) -> Placing {
        Placing {
            order: self.order.clone(),
            member: self.member.clone(),
            start: self.start.clone(),
            end: self.end.clone(),
            table: self.table.clone(),
        }
    }

    /// Returns a layout that places its squares as this one does.
    pub(super) fn copy(&self) -> Layout<'a> {
        let mut copy = Layout::new(
            self.pools,
            self.order.clone(),
            self.member.clone(),
            self.negative_offsets,
        );
        copy.take_placing(&self.placing());
        copy
    }

    /// Puts the squares where `placing` (of a layout of the same pools) has them.
    pub(super) fn take_placing(&mut self, placing: &Placing) {
        self.order.clone_from(&placing.order);
        self.member.clone_from(&placing.member);
        self.start.clone_from(&placing.start);
        self.end.clone_from(&placing.end);
        self.table.clone_from(&placing.table);
    }

    /// Returns the pattern placed `at` in the order.
    pub(super) fn pattern(&self, at: usize) -> &'a Pattern {
        let sq = self.order[at];
        &self.pools[sq][self.member[sq]]
    }

    /// Places the squares from `from` on in order, each at its lowest fitting start.
    pub(super) fn place_from(&mut self, from: usize) {
        for at in from..self.order.len() {
            let p = self.pattern(at);
            let s = self
                .table
                .first_fit(p, p.lowest_start(self.negative_offsets));
            self.table.place(p, s);
            self.start[at] = s;
            self.end[at] = s + p.extent();
        }
    }

    /// Notes where the squares from `from` on are before a move that changes the order or
    /// `changed`'s member from `from` on (what [`Layout::place_from_known`] refits against
    /// and [`Layout::undo`] restores), and takes them out of the table: the table as it was
    /// is kept aside for an undo, and the squares before `from` are placed afresh in an
    /// empty one where they are fewer than the squares to take out of a copy.
    pub(super) fn begin_move(&mut self, from: usize, changed: Option<usize>) {
        if from + REBUILD_COST < self.order.len() - from {
            core::mem::swap(&mut self.table, &mut self.table_before);
            self.table.empty();
            for at in 0..from {
                self.table.place(self.pattern(at), self.start[at]);
            }
        } else {
            self.table_before.clone_from(&self.table);
            self.clear_from(from);
        }
        let b = &mut self.before;
        b.changed = changed;
        b.order.clear();
        b.order.extend_from_slice(&self.order[from..]);
        for at in from..self.order.len() {
            let y = self.order[at];
            (b.place[y], b.start[y], b.end[y]) = (at, self.start[at], self.end[at]);
        }
    }

    /// Puts back the layout noted by [`Layout::begin_move`] at `from`, with `member` for
    /// the square whose member the move changed.
    pub(super) fn undo(&mut self, from: usize, member: usize) {
        core::mem::swap(&mut self.table, &mut self.table_before);
        self.order[from..].copy_from_slice(&self.before.order);
        if let Some(sq) = self.before.changed {
            self.member[sq] = member;
        }
        for at in from..self.order.len() {
            let y = self.order[at];
            (self.start[at], self.end[at]) = (self.before.start[y], self.before.end[y]);
        }
    }

    /// Places the squares from `from` on in order, each at its lowest fitting start, as
    /// [`Layout::place_from`] does, knowing where they were before the move noted by
    /// [`Layout::begin_move`]. Every start below a square's old one collided in the old
    /// table under it, so it can only fit now if it meets a slot freed since: one in the
    /// old span of a square that moved or went. Its old start still fits unless it meets
    /// a slot taken since: one in the span of a square that moved or came. So only starts
    /// below the old one that meet a vacated stretch are tried, and the old start is kept
    /// if none fits and it still does: the same layout as placing afresh.
    ///
    /// Returns false, with the squares after it not placed, once `go` refuses a square's
    /// end (the table is then longer than the caller takes, or the move is no longer
    /// wanted): only [`Layout::undo`] follows.
    pub(super) fn place_from_known(&mut self, from: usize, go: impl Fn(usize) -> bool) -> bool {
        let before = core::mem::take(&mut self.before);
        let mut moved = core::mem::take(&mut self.moved);
        moved.clear();
        // Past the last place whose square the move changed, the squares under each one
        // are the squares under it before, so the changed stretches are those of the
        // squares refitted elsewhere (or with another member): `moved`, kept sorted.
        let last = (from..self.order.len())
            .rev()
            .find(|&k| before.place[self.order[k]] != k);
        let mut spans = core::mem::take(&mut self.spans);
        let mut done = true;
        if let Some(last) = last {
            spans.begin(&before, &before.order[..=last - from]);
        }
        for at in from..self.order.len() {
            let x = self.order[at];
            let p = self.pattern(at);
            let lowest = p.lowest_start(self.negative_offsets);
            let reordered = last.is_some_and(|last| at <= last);
            let s = if before.changed == Some(x) {
                self.table.first_fit(p, lowest)
            } else if reordered {
                // A stretch whose starts all lie above the old start is never tried.
                let (old, above) = (before.start[x], before.start[x] + p.extent());
                let vacated = spans.vacated_under(x, above, &before);
                let taken = || spans.taken_over(x, (old, above), &before);
                self.refit(p, lowest, old, vacated, taken)
            } else {
                let (old, end) = (before.start[x], before.start[x] + p.extent());
                let mut taken = moved.taken.iter().take_while(|&&(lo, _)| lo < end);
                let taken = || taken.any(|&(_, hi)| old < hi);
                self.refit(p, lowest, old, moved.vacated.iter().copied(), taken)
            };
            self.table.place(p, s);
            self.start[at] = s;
            self.end[at] = s + p.extent();
            if reordered {
                let kept = s == before.start[x] && before.changed != Some(x);
                spans.placed(x, before.place[x], s, self.end[at], kept);
            }
            if !go(self.end[at]) {
                done = false;
                break;
            }
            if s != before.start[x] || before.changed == Some(x) {
                moved.moved((before.start[x], before.end[x]), (s, self.end[at]));
            }
        }
        spans.end();
        self.before = before;
        self.moved = moved;
        self.spans = spans;
        done
    }

    /// Returns the first fit of `p` (no lower than `lowest`) in a table that differs from
    /// the one it fitted at `old` in only the `vacated` stretches (sorted) and the taken
    /// ones, of which `taken` says whether any meets the span at `old`.
    fn refit(
        &self,
        p: &Pattern,
        lowest: usize,
        old: usize,
        vacated: impl Iterator<Item = (usize, usize)>,
        taken: impl FnOnce() -> bool,
    ) -> usize {
        // The starts below `old` that meet each vacated stretch, in order; ones that overlap
        // or lie within a block of 64 starts of each other are joined (the fit search takes
        // whole blocks, and the starts between meet no vacated stretch, so none fits).
        let window = |(lo, hi): (usize, usize)| {
            let lo = lowest.max((lo + 1).saturating_sub(p.extent()));
            (lo, hi.min(old))
        };
        let mut windows = vacated.map(window);
        let mut next = windows.next();
        while let Some((lo, mut hi)) = next.filter(|&(lo, _)| lo < old) {
            next = windows.next();
            while let Some((_, next_hi)) = next.filter(|&(next_lo, _)| next_lo <= hi + 64) {
                hi = hi.max(next_hi);
                next = windows.next();
            }
            if let Some(fit) = self.table.first_fit_below(p, lo, hi) {
                return fit;
            }
        }
        // The old start still fits unless a taken stretch meets its span.
        if taken() && !self.table.fits_at(p, old) {
            return self.table.first_fit(p, old + 1);
        }
        old
    }

    /// Gives each square, in placing order, the pool member of the shortest extent that
    /// keeps the table no longer (ties: fewer used slots), every square still at its first
    /// fit. The length decides the packing; among equal lengths, a range with fewer holes
    /// puts its square's lookups on fewer cache lines.
    pub(super) fn shorten_spans(&mut self) {
        let mut len = self.len();
        for at in 0..self.order.len() {
            let sq = self.order[at];
            let pool = &self.pools[sq];
            let kept = self.member[sq];
            let mut shorter: Vec<usize> = (0..pool.len())
                .filter(|&k| pool[k].extent() < pool[kept].extent())
                .collect();
            shorter.sort_by_key(|&k| (pool[k].extent(), pool[k].used, k));
            let mut fitted = false;
            for k in shorter {
                self.clear_from(at);
                self.member[sq] = k;
                self.place_from(at);
                if self.len() <= len {
                    // Refitting the squares after it may even shorten the table.
                    len = self.len();
                    fitted = true;
                    break;
                }
            }
            if !fitted && self.member[sq] != kept {
                self.clear_from(at);
                self.member[sq] = kept;
                self.place_from(at);
            }
        }
    }

    /// Takes the squares from `from` on out of the table.
    pub(super) fn clear_from(&mut self, from: usize) {
        for at in from..self.order.len() {
            self.table.remove(self.pattern(at), self.start[at]);
        }
    }

    /// Returns one past the last slot any square uses: the table length.
    pub(super) fn len(&self) -> usize {
        self.end.iter().copied().max().unwrap_or(0)
    }

    /// Returns per square (pool member, start), `None` for squares without a pool.
    pub(super) fn choices(&self) -> Vec<Option<(usize, usize)>> {
        let mut out = vec![None; self.pools.len()];
        for (at, &sq) in self.order.iter().enumerate() {
            out[sq] = Some((self.member[sq], self.start[at]));
        }
        out
    }
}

/// Where a layout's squares are: the order, members, starts and ends that decide it and the
/// table they take. Its scratch (what a move notes to refit and undo) is not part of it.
pub(super) struct Placing {
    order: Vec<usize>,
    member: Vec<usize>,
    start: Vec<usize>,
    end: Vec<usize>,
    table: Table,
}

/// Where the squares from some place in the order on were before a move: per square (an
/// index into the pools), its place in the order, its start and end; the order from that
/// place on; and the square whose pool member the move changed, if any.
#[derive(Default)]
pub(super) struct Before {
    pub(super) place: Vec<usize>,
    pub(super) start: Vec<usize>,
    pub(super) end: Vec<usize>,
    pub(super) order: Vec<usize>,
    pub(super) changed: Option<usize>,
}

/// Where the table under a square differs from the table under it before a move: the
/// stretches where slots may have been freed (the old spans of squares that moved or went)
/// and where they may have been taken (the spans of squares that moved or came), each
/// sorted by first slot.
#[derive(Default)]
pub(super) struct Changed {
    vacated: Vec<(usize, usize)>,
    taken: Vec<(usize, usize)>,
}

impl Changed {
    fn clear(&mut self) {
        self.vacated.clear();
        self.taken.clear();
    }

    /// Notes that a square left `old` for `new`: the one vacated, the other taken, each
    /// list kept in order.
    fn moved(&mut self, old: (usize, usize), new: (usize, usize)) {
        for (list, stretch) in [(&mut self.vacated, old), (&mut self.taken, new)] {
            let i = list.partition_point(|&m| m < stretch);
            list.insert(i, stretch);
        }
    }
}

/// The spans of the squares a move reordered (the places from the move's first to its last
/// changed one), before the move and as placed again so far, each sorted by first slot, so
/// that a square's changed stretches come out in order without sorting them per square.
#[derive(Default)]
struct Spans {
    /// (first slot, end, place before the move, square): before the move, and placed by
    /// it so far. The place is here rather than looked up: a square's changed stretches
    /// are picked from these lists for every square a move reorders.
    before: Vec<(usize, usize, usize, usize)>,
    now: Vec<(usize, usize, usize, usize)>,
    /// Per square: whether this move has placed it again at its old start with its old
    /// member (its slots are those it had).
    kept: Vec<bool>,
}

impl Spans {
    /// Starts a move that reorders `squares`, noted in `before`.
    fn begin(&mut self, before: &Before, squares: &[usize]) {
        self.before.clear();
        self.before.extend(
            squares
                .iter()
                .map(|&y| (before.start[y], before.end[y], before.place[y], y)),
        );
        self.before.sort_unstable();
        self.now.clear();
    }

    /// Notes that square `y`, at place `place` before the move, was placed over `lo..hi`,
    /// `kept` if at its old start with its old member.
    fn placed(&mut self, y: usize, place: usize, lo: usize, hi: usize, kept: bool) {
        self.kept[y] = kept;
        let i = self.now.partition_point(|&(l, _, _, _)| l < lo);
        self.now.insert(i, (lo, hi, place, y));
    }

    /// Ends the move: no square is placed by it any more.
    fn end(&mut self) {
        for &(_, _, _, y) in &self.now {
            self.kept[y] = false;
        }
    }

    /// Returns the old spans, in order, first slots below `above`, of the reordered
    /// squares that were under square `x` before the move and are not now at the same
    /// start with the same member: where the table under it may have been freed.
    fn vacated_under<'s>(
        &'s self,
        x: usize,
        above: usize,
        before: &Before,
    ) -> impl Iterator<Item = (usize, usize)> + 's {
        let under = before.place[x];
        self.before
            .iter()
            .take_while(move |span| span.0 < above)
            .filter(move |&&(_, _, place, y)| place < under && !self.kept[y])
            .map(|&(lo, hi, _, _)| (lo, hi))
    }

    /// Returns true if the span of a reordered square placed under square `x` now that was
    /// not there so before meets the stretch `old..above`: where the table under it may
    /// have been taken. (`x` is not placed yet, so it is not among them.)
    fn taken_over(&self, x: usize, (old, above): (usize, usize), before: &Before) -> bool {
        let under = before.place[x];
        let below = |span: &&(usize, usize, usize, usize)| span.0 < above;
        self.now
            .iter()
            .take_while(below)
            .any(|&(_, hi, place, y)| old < hi && !(place < under && self.kept[y]))
    }
}
