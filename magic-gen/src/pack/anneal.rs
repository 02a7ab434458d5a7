//! Annealing the layout: the moves (swap two squares, move one, give one another pool
//! member), kept or undone by the Metropolis rule (`crate::annealing`), the random stream,
//! and the annealer between two moves, with the checkpoint it saves and resumes from.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::annealing::{cooling, metropolis};

use super::checkpoint::{pool_name, Mismatch, PackCheckpoint, PackKey, PackMismatch, PackSquare};
use super::layout::Layout;
use super::pattern::Pattern;
use super::settings::PackSettings;

/// Temperatures of the packing annealing, in table slots, at the first and the last move.
pub(super) const PACK_HOT: f64 = 300.0;
pub(super) const PACK_COLD: f64 = 0.5;
/// The first temperature of an annealing that starts from a given layout
/// ([`PackSettings::from_input`]): hot enough to leave a local minimum, cool enough to
/// keep the layout's structure, which [`PACK_HOT`] melts in the first moves (measured in
/// docs/results/hunts.md, "Published sets repacked").
pub(super) const PACK_WARM: f64 = 3.0;

/// The annealing's random stream, counting its draws: the generator does not expose its
/// state, so a checkpoint saves the count and a resume draws that many again (a few
/// milliseconds per million moves).
#[derive(Clone)]
pub(super) struct Draws {
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) drawn: u64,
}

impl Draws {
    /// Returns the stream of `seed` after `drawn` draws.
    pub(super) fn new(seed: u64, drawn: u64) -> Draws {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..drawn {
            rng.next_u64();
        }
        Draws { rng, drawn }
    }

    /// Returns the next number below `k` (as the packer has always drawn it: a remainder).
    /// A move draws three numbers (what kind of move, two places), one more for another
    /// pool member, and one more to accept a longer table: [`DRAWS_PER_MOVE`].
    pub(super) fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }

    /// Returns the next number of the stream.
    pub(super) fn next(&mut self) -> u64 {
        self.drawn += 1;
        self.rng.next_u64()
    }
}

/// The fewest and the most numbers one annealing move draws (see [`Draws::below`]).
pub(super) const DRAWS_PER_MOVE: (u64, u64) = (3, 5);

/// The annealer between two moves: the layout, the random stream, the move count, the
/// temperature and the best layout met. A move depends on nothing else, so a
/// [`PackCheckpoint`] of these resumes to exactly the moves an uninterrupted run makes.
pub(super) struct Annealer<'a> {
    pub(super) layout: Layout<'a>,
    pub(super) rng: Draws,
    /// Moves made, and of the whole run.
    pub(super) moves: u64,
    pub(super) iterations: u64,
    /// The temperature is multiplied by `cool` at each move: an uninterrupted run's
    /// schedule, which a checkpoint saves bit for bit rather than computing it again.
    pub(super) temperature: f64,
    pub(super) cool: f64,
    /// Table length of the current layout, and what a move is judged by (see
    /// [`Annealer::energy`]).
    pub(super) current: usize,
    pub(super) energy: f64,
    /// Weight of the mean end in the energy ([`Packing::spread`]).
    pub(super) spread: f64,
    /// The best layout met: its length, placing order and members.
    pub(super) best_len: usize,
    pub(super) best_order: Vec<usize>,
    pub(super) best_member: Vec<usize>,
}

impl<'a> Annealer<'a> {
    /// Returns an annealer about to make the first of `iterations` moves from `layout`,
    /// judging them with `spread` (see [`Annealer::energy`]).
    pub(super) fn new(layout: Layout<'a>, settings: &PackSettings) -> Annealer<'a> {
        let (seed, iterations, spread) = (settings.seed, settings.iterations, settings.spread);
        let len = layout.len();
        let hot = if settings.from_input {
            PACK_WARM
        } else {
            PACK_HOT
        };
        Annealer {
            energy: Annealer::energy(&layout, spread),
            spread,
            rng: Draws::new(seed, 0),
            moves: 0,
            iterations,
            temperature: hot,
            cool: cooling(hot, PACK_COLD, iterations),
            current: len,
            best_len: len,
            best_order: layout.order.clone(),
            best_member: layout.member.clone(),
            layout,
        }
    }

    /// Returns what a move is judged by: the table length of `layout`, plus `spread` times
    /// the mean end of its squares' ranges. With length alone most moves change nothing
    /// (only the last range decides it); the mean end also sees a move that lowers ranges
    /// below the last one, which makes room for the tail. Computed afresh from the layout,
    /// so a resumed run judges bit for bit as an uninterrupted one; with `spread` 0 it is
    /// the length.
    pub(super) fn energy(layout: &Layout, spread: f64) -> f64 {
        let ends: usize = layout.end.iter().sum();
        layout.len() as f64 + spread * (ends as f64 / layout.end.len().max(1) as f64)
    }

    /// Returns true once the run has made all its moves (or has fewer than two squares,
    /// where no move changes anything).
    pub(super) fn finished(&self) -> bool {
        self.moves >= self.iterations || self.layout.order.len() < 2
    }

    /// Makes one move: swaps two squares in the order, moves one to another place, or
    /// gives one square another pool member, keeping it by the Metropolis rule on the
    /// energy ([`Annealer::energy`]). Only the squares from the first changed place on are
    /// placed again. Returns true if it kept the move.
    pub(super) fn step(&mut self) -> bool {
        self.moves += 1;
        self.temperature *= self.cool;
        let Some(m) = Move::draw(&self.layout, &mut self.rng, self.temperature) else {
            return false;
        };
        let kept = m.try_on(&mut self.layout, self.energy, self.spread, || true);
        kept.map(|kept| self.keep(kept)).is_some()
    }

    /// Takes the table length and energy of the layout a move just kept.
    pub(super) fn keep(&mut self, (len, energy): (usize, f64)) {
        self.current = len;
        self.energy = energy;
        if len < self.best_len {
            self.best_len = len;
            self.best_order.clone_from(&self.layout.order);
            self.best_member.clone_from(&self.layout.member);
        }
    }

    /// Returns the longest table a move from `energy` at `temperature`, judged with the
    /// uniform draw `u`, may make and still be kept: any longer raises the energy by more
    /// than the Metropolis rule takes, as the mean end never goes below 0. With a margin far
    /// above rounding, so that a move is only cut short where the rule would undo it.
    pub(super) fn cap(energy: f64, temperature: f64, u: f64) -> usize {
        let rise = -temperature * u.ln() + 1e-6 * (1.0 + temperature);
        // A float cast saturates: no cap (usize::MAX) when `u` is 0.
        (energy + rise).floor() as usize
    }

    /// Returns the best layout met.
    pub(super) fn best_layout(&self) -> Layout<'a> {
        let l = &self.layout;
        Layout::new(
            l.pools,
            self.best_order.clone(),
            self.best_member.clone(),
            l.negative_offsets,
        )
    }

    /// Returns the checkpoint of the annealer as it stands, in the packing `key`.
    pub(super) fn checkpoint(&self, key: &PackKey) -> PackCheckpoint {
        let place_of = |order: &[usize]| {
            let mut place = vec![0; self.layout.pools.len()];
            for (at, &sq) in order.iter().enumerate() {
                place[sq] = at;
            }
            place
        };
        let (place, best_place) = (place_of(&self.layout.order), place_of(&self.best_order));
        let mut squares: Vec<usize> = self.layout.order.clone();
        squares.sort_unstable();
        PackCheckpoint {
            settings: key.settings,
            pools: key.pools,
            moves: self.moves,
            draws: self.rng.drawn,
            temperature: self.temperature.to_bits(),
            cool: self.cool.to_bits(),
            length: self.current,
            best_length: self.best_len,
            squares: squares
                .into_iter()
                .map(|sq| PackSquare {
                    square: sq,
                    place: place[sq],
                    member: self.layout.member[sq],
                    best_place: best_place[sq],
                    best_member: self.best_member[sq],
                    starts: None,
                })
                .collect(),
        }
    }

    /// Returns the annealer `checkpoint` saved, for `pools` packed as `key` says.
    /// Refuses a checkpoint of another packing, one whose places are not each square's
    /// own, or one whose layouts do not give its lengths.
    pub(super) fn resume(
        pools: &'a [Vec<Pattern>],
        key: &PackKey,
        checkpoint: &PackCheckpoint,
    ) -> Result<Annealer<'a>, PackMismatch> {
        key.check(checkpoint)?;
        check_draws(checkpoint)?;
        let saved = SavedLayouts::of(pools, checkpoint)?;
        let negative_offsets = key.settings.negative_offsets;
        let layout = Layout::new(pools, saved.order, saved.member, negative_offsets);
        let best = Layout::new(
            pools,
            saved.best_order.clone(),
            saved.best_member.clone(),
            negative_offsets,
        );
        check_lengths(checkpoint, (layout.len(), best.len()))?;
        Ok(Annealer {
            energy: Annealer::energy(&layout, key.settings.spread),
            spread: key.settings.spread,
            layout,
            rng: Draws::new(key.settings.seed, checkpoint.draws),
            moves: checkpoint.moves,
            iterations: key.settings.iterations,
            temperature: f64::from_bits(checkpoint.temperature),
            cool: f64::from_bits(checkpoint.cool),
            current: checkpoint.length,
            best_len: checkpoint.best_length,
            best_order: saved.best_order,
            best_member: saved.best_member,
        })
    }
}

/// Returns the error of a damaged checkpoint at its line that starts with `line`.
pub(super) fn damaged(line: String, message: String) -> PackMismatch {
    PackMismatch {
        line,
        packing: 0,
        mismatch: Mismatch::Damaged(message),
    }
}

/// Refuses a checkpoint whose count of random draws no run of its moves makes: also what
/// keeps a damaged count from drawing for hours.
pub(super) fn check_draws(checkpoint: &PackCheckpoint) -> Result<(), PackMismatch> {
    let (fewest, most) = DRAWS_PER_MOVE;
    let moves = checkpoint.moves;
    let drawn = fewest.saturating_mul(moves)..=most.saturating_mul(moves);
    if drawn.contains(&checkpoint.draws) {
        return Ok(());
    }
    Err(damaged(
        "pack-progress".into(),
        format!(
            "{} draws in {moves} moves, where each move draws {fewest} to {most}",
            checkpoint.draws
        ),
    ))
}

/// Refuses a checkpoint whose lengths are not `(current, best)`, those its current and
/// best layouts pack (either packer's).
pub(super) fn check_lengths(
    checkpoint: &PackCheckpoint,
    (current, best): (usize, usize),
) -> Result<(), PackMismatch> {
    for (what, saved, laid_out) in [
        ("length", checkpoint.length, current),
        ("best", checkpoint.best_length, best),
    ] {
        if saved != laid_out {
            return Err(damaged(
                "pack-progress".into(),
                format!("{what} {saved}, where its layout packs {laid_out} entries"),
            ));
        }
    }
    Ok(())
}

/// The current and the best layout of a checkpoint, as its squares' places and members
/// give them: the order of the squares and each square's member.
pub(super) struct SavedLayouts {
    pub(super) order: Vec<usize>,
    pub(super) member: Vec<usize>,
    pub(super) best_order: Vec<usize>,
    pub(super) best_member: Vec<usize>,
}

impl SavedLayouts {
    /// Returns the layouts of `checkpoint`'s squares, refusing one that is not the next
    /// square with a pool in `pools`, a member past its pool, or a place taken twice or
    /// past the last.
    pub(super) fn of(
        pools: &[Vec<Pattern>],
        checkpoint: &PackCheckpoint,
    ) -> Result<Self, PackMismatch> {
        let n = checkpoint.squares.len();
        let (mut placed, mut best_placed) = (vec![false; n], vec![false; n]);
        let mut saved = SavedLayouts {
            order: vec![0; n],
            member: vec![0; pools.len()],
            best_order: vec![0; n],
            best_member: vec![0; pools.len()],
        };
        let mut with_pool = (0..pools.len()).filter(|&i| !pools[i].is_empty());
        for s in &checkpoint.squares {
            check_square(pools, s, with_pool.next(), (&mut placed, &mut best_placed))?;
            saved.order[s.place] = s.square;
            saved.best_order[s.best_place] = s.square;
            saved.member[s.square] = s.member;
            saved.best_member[s.square] = s.best_member;
        }
        Ok(saved)
    }
}

/// Refuses square `s` of a checkpoint unless it is `next`, the next square with a pool,
/// its members are in its pool, and its places are free in `placed` (the current layout's
/// and the best one's), which it then takes.
fn check_square(
    pools: &[Vec<Pattern>],
    s: &PackSquare,
    next: Option<usize>,
    (placed, best_placed): (&mut [bool], &mut [bool]),
) -> Result<(), PackMismatch> {
    let at_square =
        |message: String| damaged(format!("pack-square {}", pool_name(s.square)), message);
    // Same digest, so the same pools: only an edited file gets here.
    if next != Some(s.square) {
        return Err(at_square(format!(
            "{} is not the next square with a pool",
            pool_name(s.square)
        )));
    }
    let len = pools[s.square].len();
    if s.member.max(s.best_member) >= len {
        return Err(at_square(format!(
            "member {} is past the square's pool of {len}",
            s.member.max(s.best_member)
        )));
    }
    let n = placed.len();
    for (what, place, taken) in [
        ("place", s.place, placed),
        ("best-place", s.best_place, best_placed),
    ] {
        match taken.get_mut(place) {
            Some(t) if !*t => *t = true,
            Some(_) => return Err(at_square(format!("{what} {place} is taken twice"))),
            None => {
                return Err(at_square(format!(
                    "{what} {place} is past the last place, {}",
                    n - 1
                )))
            }
        }
    }
    Ok(())
}

/// One annealing move as drawn, before it is made on a layout.
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    change: Change,
    /// The first place in the order it changes, and the member the square at place `i`
    /// had before.
    from: usize,
    member: usize,
    /// The temperature it is judged at and the uniform draw that judges it.
    temperature: f64,
    u: f64,
}

#[derive(Clone, Copy, Debug)]
enum Change {
    /// Swap the squares at two places.
    Swap(usize, usize),
    /// Move the square at one place to the other.
    Shift(usize, usize),
    /// Give a square (an index into the pools) another member.
    Member(usize, usize),
}

impl Move {
    /// Returns the next move drawn from `rng` for `layout`, judged at `temperature`, or
    /// `None` for one that changes nothing (a square swapped or moved onto itself). It
    /// draws what kind of move, two places, another member where it gives one, then the
    /// number that judges it: the numbers the packer has always drawn, in that order.
    pub(super) fn draw(layout: &Layout, rng: &mut Draws, temperature: f64) -> Option<Move> {
        let n = layout.order.len();
        let (kind, i, j) = (rng.below(4), rng.below(n), rng.below(n));
        let sq = layout.order[i];
        let pool_len = layout.pools[sq].len();
        let member = layout.member[sq];
        let change = match kind {
            _ if i == j && (kind < 2 || pool_len < 2) => return None,
            1 => Change::Shift(i, j),
            2 | 3 if pool_len > 1 => {
                Change::Member(sq, (member + 1 + rng.below(pool_len - 1)) % pool_len)
            }
            _ => Change::Swap(i, j),
        };
        let from = if matches!(change, Change::Member(..)) {
            i
        } else {
            i.min(j)
        };
        let u = (rng.below(1 << 53) as f64) / (1u64 << 53) as f64;
        Some(Move {
            change,
            from,
            member,
            temperature,
            u,
        })
    }

    /// Makes this move on `layout`, whose energy is `energy`, and keeps it by the
    /// Metropolis rule: returns the new table length and energy, or `None` with the move
    /// undone. Stops placing, and undoes the move, once the table outgrows what the
    /// rule could keep ([`Annealer::cap`]) or `go` returns false.
    pub(super) fn try_on(
        &self,
        layout: &mut Layout,
        energy: f64,
        spread: f64,
        go: impl Fn() -> bool,
    ) -> Option<(usize, f64)> {
        let changed = match self.change {
            Change::Member(sq, _) => Some(sq),
            _ => None,
        };
        layout.begin_move(self.from, changed);
        match self.change {
            Change::Swap(i, j) => layout.order.swap(i, j),
            Change::Shift(i, j) => {
                let moved = layout.order.remove(i);
                layout.order.insert(j, moved);
            }
            Change::Member(sq, k) => layout.member[sq] = k,
        }
        let cap = Annealer::cap(energy, self.temperature, self.u);
        if layout.place_from_known(self.from, |end| end <= cap && go()) {
            let now = Annealer::energy(layout, spread);
            if metropolis(now - energy, self.temperature, self.u) {
                return Some((layout.len(), now));
            }
        }
        layout.undo(self.from, self.member);
        None
    }
}
