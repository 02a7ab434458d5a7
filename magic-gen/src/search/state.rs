//! A hunt's state: the settings that decide what a scan keeps ([`Scan`]) and, per job, how
//! far it has scanned its shard of the candidate space and the valid magics it keeps,
//! ranked for the packer. `state_file.rs` writes and reads its file; [`SearchState::merge`]
//! combines shards.

use crate::geometry::{least_bits, relevant_bits, Piece, SetSquare};
use crate::index::Variant;
use crate::pack::PackSettings;

pub use super::candidates::Shard;
use super::candidates::BLOCK_LEN;
pub use super::options::{Budget, Scan};
use super::options::{Error, Limits, Options, PolishSettings};
use super::table::EpochTable;
use crate::occupancy::SquareData;

/// A valid magic a job found: its index in the job's candidate space and what it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Found {
    /// Its index in the job's candidate space.
    pub index: u64,
    /// The magic (after any density climb).
    pub magic: u64,
    /// Distinct slots its occupancies use (fixed shift; 0 otherwise).
    pub used: u32,
    /// One past the highest used index minus the lowest (fixed shift; 0 otherwise).
    pub span: u32,
    /// White: the slots it blocks for other squares (used slots and the short holes
    /// between them, see `table::EpochTable::blocked`); 0
    /// otherwise. Not saved: a state file's finds get it again when read.
    pub blocked: u32,
}

/// One (piece, square) search: how far it has scanned its shard and the magics it keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Job {
    /// The piece searched for.
    pub piece: Piece,
    /// Its square, a1 = 0.
    pub square: u8,
    /// Index bits searched for.
    pub bits: u8,
    /// Blocks of this shard scanned so far.
    pub next: u64,
    /// Valid magics kept, best first.
    pub found: Vec<Found>,
    /// True once the budget is spent or the goal reached.
    pub done: bool,
}

/// A whole search: the settings that shape it and every job's progress.
///
/// ```
/// use magic_gen::search::{Options, SearchState};
/// use magic_gen::Variant;
///
/// // What a checkpoint writes and a resume or a merge reads.
/// let state = SearchState::new(&Options::for_variant(Variant::Fancy))?;
/// let text = state.to_text();
/// assert!(text.starts_with("magic-gen-state 1\nvariant fancy\n"));
/// assert_eq!(SearchState::parse("s.state", text.as_bytes()).unwrap(), state);
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SearchState {
    /// What the scan keeps; every shard of one search shares it but for the shard index.
    pub scan: Scan,
    /// The commands that shaped the state: the one that started it, then each resume
    /// (`A; then B`).
    pub command: String,
    /// How the hunt's pools are polished once scanned (fixed shift), chosen when it starts:
    /// what a resume or a merge polishes with unless told otherwise.
    pub polish: PolishSettings,
    /// How the hunt's pools are packed (fixed shift), chosen when it starts: what a resume
    /// or a merge packs with unless told otherwise.
    pub pack: PackSettings,
    /// Rook jobs then bishop jobs, a1 first (only those searched).
    pub(crate) jobs: Vec<Job>,
}

/// Returns what a fixed-shift magic with `used` slots in a span of `span` is worth to the
/// packer, lower is better: twice the used slots plus the span, so a used slot costs as
/// much as three holes. Ranking pools by span alone gives compact blocks that sit end to
/// end; by used slots alone, or with a tenth or a quarter of the span, holes that the other
/// squares cannot fill; half the span packed shorter than a quarter or twice the span
/// (docs/results/hunts.md).
pub(crate) fn pack_cost(used: u32, span: u32) -> u32 {
    2 * used + span
}

/// Returns how a fixed-shift magic with `used` slots in a span of `span` ranks among the
/// sparse finds of a pool ([`Scan::sparse`]), lower is better: a hole costs a tenth of a
/// used slot. Pools ranked by [`pack_cost`] alone hold few magics with many constructive
/// collisions, since their spans are long; the sparse finds beside them leave holes that
/// other squares fill (docs/results/hunts.md).
pub(crate) fn sparse_cost(used: u32, span: u32) -> u32 {
    10 * used + span
}

impl Scan {
    /// Returns the order in which finds are kept: the lowest candidate index when the budget
    /// stops at the first finds, else the lowest [`pack_cost`], then the shortest span, then
    /// the lowest index. Keeping by this key is what makes merged shards equal one run.
    pub(crate) fn rank(&self, f: &Found) -> (u32, u32, u64) {
        match (self.variant.is_packed(), self.budget) {
            (true, Budget::Candidates(_)) => (pack_cost(f.used, f.span), f.span, f.index),
            _ => (0, 0, f.index),
        }
    }

    /// Returns the order in which sparse finds are kept: the lowest [`sparse_cost`] (black)
    /// or the fewest blocked slots (white), then the lowest index.
    ///
    /// White keys have a lone slot 0 and runs: blocked slots (used ones and the short holes
    /// between them) say better than the sparse cost what a white find leaves to other
    /// squares. Black keeps the sparse cost, by which the committed black sets were kept.
    pub(crate) fn sparse_rank(&self, f: &Found) -> (u32, u64) {
        if self.ranks_by_blocked() {
            (f.blocked, f.index)
        } else {
            (sparse_cost(f.used, f.span), f.index)
        }
    }

    /// Returns true if sparse finds rank by their blocked slots (white).
    pub(crate) fn ranks_by_blocked(&self) -> bool {
        self.variant == Variant::White
    }

    /// Returns the blocked slots a find of `magic` carries ([`Found::blocked`]): measured in
    /// `table` where sparse finds rank by them, else 0. An invalid magic, which only an
    /// edited state file holds, ranks last; verification refuses it.
    pub(crate) fn blocked(
        &self,
        table: &mut EpochTable,
        entries: &[(u64, u8)],
        magic: u64,
        bits: u8,
    ) -> u32 {
        if !self.ranks_by_blocked() {
            return 0;
        }
        table.blocked(entries, magic, bits).unwrap_or(u32::MAX)
    }

    /// Returns how many finds a job keeps in its pool, and besides it.
    fn kept(&self) -> (usize, usize) {
        if self.variant.is_packed() {
            (self.pool.max(1), self.sparse)
        } else {
            (1, 0)
        }
    }

    /// Returns how many finds a job keeps in all.
    pub(crate) fn keep(&self) -> usize {
        let (pool, sparse) = self.kept();
        pool + sparse
    }

    /// Inserts `f` into `job.found`, which holds the best [`Scan::pool`] finds by rank,
    /// then the best [`Scan::sparse`] of the rest by sparse rank. A find pushed out of the
    /// pool competes for the sparse places, so the finds kept are those of the set of all
    /// finds, in whatever order they come (shards merge to one run).
    pub(crate) fn insert(&self, job: &mut Job, f: Found) {
        let (pool, sparse) = self.kept();
        let in_pool = job.found.len().min(pool);
        let at = self.pool_place(job, &f);
        let out = if at < pool {
            job.found.insert(at, f);
            if in_pool < pool {
                return;
            }
            job.found.remove(pool)
        } else {
            f
        };
        let key = self.sparse_rank(&out);
        let at = pool + job.found[pool..].partition_point(|g| self.sparse_rank(g) <= key);
        if at < pool + sparse {
            job.found.insert(at, out);
            job.found.truncate(pool + sparse);
        }
    }

    /// Returns where `f` goes among `job`'s pool by [`Scan::rank`]: at the pool size or
    /// beyond, it is not in the pool.
    fn pool_place(&self, job: &Job, f: &Found) -> usize {
        let in_pool = job.found.len().min(self.kept().0);
        let key = self.rank(f);
        job.found[..in_pool].partition_point(|g| self.rank(g) <= key)
    }

    /// Returns false if [`Scan::insert`] would drop `f` whatever its blocked slots, which
    /// are at least its used ones: then they need not be measured. A find out of the pool
    /// with more used slots than the last sparse find blocks is dropped.
    pub(crate) fn may_keep(&self, job: &Job, f: &Found) -> bool {
        let (pool, sparse) = self.kept();
        if self.pool_place(job, f) < pool {
            return true;
        }
        if sparse == 0 || !self.ranks_by_blocked() {
            return sparse > 0;
        }
        job.found
            .get(pool + sparse - 1)
            .is_none_or(|last| last.blocked >= f.used)
    }

    /// Returns true when `job` has reached its goal or spent its budget.
    pub(crate) fn finished(&self, job: &Job) -> bool {
        let enough = job.found.len() >= self.keep();
        match self.budget {
            Budget::UntilFound => enough,
            Budget::Candidates(limit) => {
                // A shard's n-th block is block n or later, so the second test never
                // decides alone; it ends the scan even if the block numbering were wrong.
                let spent = self.shard.block(job.next) * BLOCK_LEN >= limit
                    || job.next * BLOCK_LEN >= limit;
                spent || (enough && !self.variant.is_packed())
            }
        }
    }

    /// Returns the candidates of a counted budget in the first `blocks` blocks of this
    /// shard's share, or `None` for a budget that is not a count or has no bound (a time
    /// budget's). A job done before its budget is spent counts its whole share in
    /// [`Scan::budget_spent`].
    fn candidates_in(&self, blocks: u64) -> Option<u64> {
        let Budget::Candidates(limit) = self.budget else {
            return None;
        };
        if limit == u64::MAX {
            return None;
        }
        let (index, count) = (u64::from(self.shard.index), u64::from(self.shard.count));
        // Global blocks under the budget, this shard's among them, and the last one's size.
        let global = limit.div_ceil(BLOCK_LEN);
        let share = if index < global {
            (global - 1 - index) / count + 1
        } else {
            0
        };
        let taken = blocks.min(share);
        let mut candidates = taken * BLOCK_LEN;
        if taken > 0 && taken == share && index + (share - 1) * count == global - 1 {
            candidates -= global * BLOCK_LEN - limit;
        }
        Some(candidates)
    }

    /// Returns how much of a counted budget `job` has used up, in candidates: those of the
    /// blocks it scanned, or its whole share once it is done. `None` as for
    /// [`Scan::budget_total`].
    pub(crate) fn budget_spent(&self, job: &Job) -> Option<u64> {
        let blocks = if job.done { u64::MAX } else { job.next };
        self.candidates_in(blocks)
    }

    /// Returns the candidates of a counted budget in one job's share, `None` for a budget
    /// that is not a count (fancy and plain until found) or has no bound (a time budget).
    pub fn budget_total(&self) -> Option<u64> {
        self.candidates_in(u64::MAX)
    }

    /// Returns the pool sizes as the state's pool line writes them (`32`, `32 sparse 16`).
    pub(crate) fn pool_text(&self) -> String {
        match self.sparse {
            0 => self.pool.to_string(),
            n => format!("{} sparse {n}", self.pool),
        }
    }
}

impl SearchState {
    /// Returns how many (piece, square, bits) jobs the search has: 128, or more where a
    /// square may take two shifts (`--also-fixed-shift`).
    ///
    /// ```
    /// use magic_gen::search::{Options, SearchState};
    /// use magic_gen::Variant;
    ///
    /// let state = SearchState::new(&Options::for_variant(Variant::Black))?;
    /// assert_eq!((state.job_count(), state.jobs_left()), (128, 128));
    /// # Ok::<(), magic_gen::search::Error>(())
    /// ```
    pub fn job_count(&self) -> usize {
        self.jobs.len()
    }

    /// Returns how many jobs have not finished their scan (0: the scan is done).
    pub fn jobs_left(&self) -> usize {
        self.jobs.iter().filter(|j| !j.done).count()
    }

    /// Returns how much of its counted budget the scan has used up, in candidates over all
    /// jobs, and the whole budget; `None` when the budget is not a count.
    pub fn budget_used(&self) -> Option<(u64, u64)> {
        let total = self.scan.budget_total()?;
        // Saturating: a budget near 2^64 per job (from a state file or `--candidates`)
        // would overflow the sum over jobs.
        let spent = self
            .jobs
            .iter()
            .filter_map(|j| self.scan.budget_spent(j))
            .fold(0u64, u64::saturating_add);
        Some((spent, total.saturating_mul(self.jobs.len() as u64)))
    }

    /// Raises the candidate budget to `limit`, so a finished hunt goes on where it stopped:
    /// jobs that spent the old budget without reaching their goal are reopened. Each job
    /// scans its blocks in order and keeps its finds by a rank that does not depend on the
    /// limit, so the result is what one run with budget `limit` gives. The old budget must
    /// end on a block boundary (a multiple of 4096), where no block was cut short.
    pub fn raise_budget(&mut self, limit: u64) -> Result<(), RaiseError> {
        match self.scan.budget {
            Budget::UntilFound => return Err(RaiseError::UntilFound),
            Budget::Candidates(old) if limit < old => {
                return Err(RaiseError::Below { limit, budget: old })
            }
            Budget::Candidates(old) if old % BLOCK_LEN != 0 => {
                return Err(RaiseError::InsideABlock { budget: old })
            }
            Budget::Candidates(_) => {}
        }
        self.scan.budget = Budget::Candidates(limit);
        let scan = self.scan;
        for job in &mut self.jobs {
            job.done = scan.finished(job);
        }
        Ok(())
    }

    /// Records a resume by the command `step`, which finishes as `limits` say, and returns
    /// the commands that shape the set it writes (`A; then step`). A state that still scans
    /// records the step and how it finishes, since they shape what it keeps from here on;
    /// a finished one (repacked, say) is left as it was, so that a committed state and the
    /// set written from it regenerate byte for byte however often the command runs.
    pub fn resumed_by(&mut self, step: &str, limits: &Limits) -> String {
        let history = format!("{}; then {step}", self.command);
        if self.jobs_left() > 0 {
            self.command = history.clone();
            (self.polish, self.pack) = (limits.polish, limits.pack);
        }
        history
    }

    /// Measures again the blocked slots of every find where pools rank by them (white): a
    /// state file does not hold them.
    pub(crate) fn measure_blocked(&mut self) {
        if !self.scan.ranks_by_blocked() {
            return;
        }
        for job in &mut self.jobs {
            let data = SquareData::new(job.piece, job.square, Variant::White);
            let entries = data.entries();
            let mut table = EpochTable::new(job.bits);
            for f in &mut job.found {
                f.blocked = self.scan.blocked(&mut table, &entries, f.magic, job.bits);
            }
        }
    }
}

/// Returns the index bits a job of `variant` on `piece` `sq` may have: from the fewest
/// whose slots hold its distinct attack sets ([`least_bits`]: no search for fewer ends)
/// up to its mask popcount, or up to the variant's default bits where those are more
/// (plain's fixed 12/9).
pub(crate) fn allowed_bits(variant: Variant, piece: Piece, sq: u8) -> std::ops::RangeInclusive<u8> {
    least_bits(piece, sq)..=relevant_bits(piece, sq).max(variant.default_bits(piece, sq))
}

/// Returns the index bits a job asks for.
fn wanted_bits(options: &Options, piece: Piece, sq: u8) -> Result<u8, Error> {
    let popcount = relevant_bits(piece, sq);
    let default = options.scan.variant.default_bits(piece, sq);
    let is_target =
        options.targets.is_empty() || options.targets.contains(&SetSquare { piece, square: sq });
    if !is_target {
        return Ok(default);
    }
    let bits = match (options.bits, options.bits_under) {
        (Some(b), _) => b,
        (None, Some(under)) => popcount.saturating_sub(under),
        (None, None) => default,
    };
    let allowed = allowed_bits(options.scan.variant, piece, sq);
    if !allowed.contains(&bits) {
        return Err(Error::Bits {
            square: SetSquare { piece, square: sq },
            bits,
            allowed,
        });
    }
    Ok(bits)
}

impl SearchState {
    /// Returns a fresh state for `options`: one job per piece and square; or why no search
    /// of them can run (a budget that tries nothing, bits the variant cannot have).
    pub fn new(options: &Options) -> Result<SearchState, Error> {
        options.check_budget()?;
        let variant = options.scan.variant;
        if variant == Variant::Pext {
            return Err(Error::Search(
                "PEXT needs no search: its index is the mask itself".into(),
            ));
        }
        if (options.bits.is_some() || options.bits_under.is_some()) && variant == Variant::Plain {
            return Err(Error::Search(format!(
                "{variant} magics have fixed bits (12 rook, 9 bishop): other bits are for fancy, \
                 black and white"
            )));
        }
        if options.also_fixed_shift && !variant.is_packed() {
            return Err(Error::Search(format!(
            "{variant} sets have one shift per square: a second, fixed shift is for black and white"
        )));
        }
        let mut jobs = Vec::with_capacity(128);
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let default = variant.default_bits(piece, sq);
                let bits = wanted_bits(options, piece, sq)?;
                let also = Some(default).filter(|&d| options.also_fixed_shift && d != bits);
                for bits in core::iter::once(bits).chain(also) {
                    jobs.push(Job {
                        piece,
                        square: sq,
                        bits,
                        next: 0,
                        found: Vec::new(),
                        done: false,
                    });
                }
            }
        }
        Ok(SearchState {
            scan: options.scan,
            command: options.command.clone(),
            polish: options.limits.polish,
            pack: options.limits.pack,
            jobs,
        })
    }
}

/// Why a state's candidate budget cannot be raised ([`SearchState::raise_budget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaiseError {
    /// The state scans until found: it has no candidate budget.
    UntilFound,
    /// The limit asked is below the state's budget.
    Below {
        /// The limit asked.
        limit: u64,
        /// The state's budget.
        budget: u64,
    },
    /// The state's budget ends inside a block, so a block was cut short.
    InsideABlock {
        /// The state's budget.
        budget: u64,
    },
}

impl core::fmt::Display for RaiseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RaiseError::UntilFound => {
                f.write_str("the state scans until found: it has no candidate budget")
            }
            RaiseError::Below { limit, budget } => {
                write!(f, "{limit} candidates is below its budget of {budget}")
            }
            RaiseError::InsideABlock { budget } => write!(
                f,
                "its budget of {budget} candidates ends inside a block (only a multiple of \
                 {BLOCK_LEN} can be raised)"
            ),
        }
    }
}

impl std::error::Error for RaiseError {}
