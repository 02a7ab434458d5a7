//! The state of a search: the settings that decide what it keeps ([`Scan`]) and, per job,
//! how far it has scanned its shard of the candidate space and the valid magics it has kept. Written as text at every checkpoint (atomically, by the
//! caller), read back to resume, and combined across shards by [`merge`].
//!
//! ```text
//! magic-gen-state 1
//! variant black
//! seed 1
//! shard 0/4
//! budget candidates 1048576
//! pool 64
//! patience 1000
//! command magic-gen search --variant black --shard 0/4 --candidates 1048576 --out s0.state
//! job rook a1 12 next 3 done 0
//! found rook a1 0x0080001020400080 index 5021 used 2918 span 4095
//! ```
//!
//! A search that keeps sparse finds besides its pool (`--sparse-pool`) says so on the pool
//! line: `pool 32 sparse 16`.
//!
//! A packed (black, white) square may have one job per shift it may take, each with its
//! own `job` line and finds (`--also-fixed-shift`: the mask popcount and the fixed 12/9);
//! the packer chooses among all of them.
//!
//! A state saved while the packer runs (fixed shift, after the scan) is version 2: the same
//! lines, then the packer's checkpoint (`pack ...` lines, see `pack_state.rs`), which a
//! version 2 file must end with. Version 1 files read as before.

use crate::format::{parse_hex, text_lines, ReadError};
use crate::geometry::{parse_square, square_name, Piece};
use crate::index::Variant;

use super::pack_state::PackCheckpoint;
use super::space::{Shard, BLOCK_LEN};
use super::table::{EpochTable, SquareData};

/// The first line of a state file without a pack checkpoint, and of one with it.
const HEADER: &str = "magic-gen-state 1";
const HEADER_WITH_PACK: &str = "magic-gen-state 2";

/// How long each job scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Fancy and plain: until the first valid magic. Fixed shift: until `pool` valid magics.
    UntilFound,
    /// Scan exactly the candidates with index below this (in the job's shard), keeping the
    /// first valid magic (fancy, plain) or the `pool` best (fixed shift).
    Candidates(u64),
}

/// The settings that decide which magics a search keeps: saved in its state file and
/// shared by every shard of one search (merging checks they match).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// Fancy, plain, black or white (PEXT needs no search).
    pub variant: Variant,
    /// Seed of every job's random stream.
    pub seed: u64,
    /// The slice of the candidate space this run scans.
    pub shard: Shard,
    /// How long each job scans.
    pub budget: Budget,
    /// Valid magics each fixed-shift job keeps for the packer, the lowest pack cost first.
    pub pool: usize,
    /// Finds each fixed-shift job keeps besides the pool: those of the rest with the fewest
    /// used slots (black) or the fewest blocked slots (white), whose holes other squares
    /// can fill. Written on
    /// the pool line (`pool 32 sparse 16`) when not 0.
    pub sparse: usize,
    /// Moves without improvement before a fixed-shift density climb stops (0: no climb).
    pub patience: u32,
}

/// A valid magic a job found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Found {
    /// Its index in the job's candidate space.
    pub index: u64,
    /// The magic (after any density climb).
    pub magic: u64,
    /// Distinct slots its occupancies use (fixed shift; 0 otherwise).
    pub used: u32,
    /// One past the highest used index minus the lowest (fixed shift; 0 otherwise).
    pub span: u32,
    /// White: the slots it blocks for other squares (used slots and the short holes
    /// between them, see [`white_blocked_slots`](super::white_blocked_slots)); 0
    /// otherwise. Not saved: a state file's finds get it again when read.
    pub blocked: u32,
}

/// One (piece, square) search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchState {
    /// What the scan keeps; every shard of one search shares it but for the shard index.
    pub scan: Scan,
    /// The commands that shaped the state: the one that started it, then each resume
    /// (`A; then B`).
    pub command: String,
    /// Rook jobs then bishop jobs, a1 first (only those searched).
    pub jobs: Vec<Job>,
}

/// Returns true for the variants whose ranges are packed into one overlapping table.
pub(crate) fn is_packed(variant: Variant) -> bool {
    matches!(variant, Variant::Black | Variant::White)
}

/// Returns what a fixed-shift magic with `used` slots in a span of `span` is worth to the
/// packer, lower is better: twice the used slots plus the span, so a used slot costs as
/// much as three holes. Ranking pools by span alone gives compact blocks that sit end to
/// end; by used slots alone, or with a tenth or a quarter of the span, holes that the other
/// squares cannot fill. In scratch runs (pools of 32 from 4 million candidates per rook
/// square, 100,000 annealing moves) half the span packed 4-5% shorter than a quarter or
/// twice the span.
pub(crate) fn pack_cost(used: u32, span: u32) -> u32 {
    2 * used + span
}

/// Returns how a fixed-shift magic with `used` slots in a span of `span` ranks among the
/// sparse finds of a pool ([`Scan::sparse`]), lower is better: a hole costs a tenth of a
/// used slot. Pools ranked by [`pack_cost`] alone hold few magics with many constructive
/// collisions, since their spans are long: on rook g4 every one of the best 64 of 4 million
/// candidates uses all 1,024 slots, where the record's magic uses 608. In scratch runs (the
/// 4M pools of 32, polished, 300,000 annealing moves) adding the 16 sparsest of each
/// square packed 91,832 entries, against 96,153 without them.
pub(crate) fn sparse_cost(used: u32, span: u32) -> u32 {
    10 * used + span
}

impl Scan {
    /// Returns the order in which finds are kept: the lowest candidate index when the budget
    /// stops at the first finds, else the lowest [`pack_cost`], then the shortest span, then
    /// the lowest index. Keeping by this key is what makes merged shards equal one run.
    pub(crate) fn rank(&self, f: &Found) -> (u32, u32, u64) {
        match (is_packed(self.variant), self.budget) {
            (true, Budget::Candidates(_)) => (pack_cost(f.used, f.span), f.span, f.index),
            _ => (0, 0, f.index),
        }
    }

    /// Returns the order in which sparse finds are kept: the lowest [`sparse_cost`] (black)
    /// or the fewest blocked slots (white), then the lowest index.
    ///
    /// White: the published white magics block 82,486 slots ([`EpochTable::blocked`]) and
    /// pack to 88,772 entries; the white pools kept by sparse cost
    /// held, per square, no better than 97,587 from 4,194,304 candidates per job, and ranked
    /// by blocked slots 91,021. With polish and 100,000 moves the table went from 101,776 to
    /// 100,608 entries (seed 1). On black keys the sparse cost stays: the committed black
    /// sets were kept by it.
    pub(crate) fn sparse_rank(&self, f: &Found) -> (u32, u64) {
        if self.ranks_by_blocked() {
            (f.blocked, f.index)
        } else {
            (sparse_cost(f.used, f.span), f.index)
        }
    }

    /// Returns true if sparse finds rank by their blocked slots (white).
    fn ranks_by_blocked(&self) -> bool {
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
        if is_packed(self.variant) {
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
        let key = self.rank(&f);
        let at = job.found[..in_pool].partition_point(|g| self.rank(g) <= key);
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

    /// Returns true when `job` has reached its goal or spent its budget.
    pub(crate) fn finished(&self, job: &Job) -> bool {
        let enough = job.found.len() >= self.keep();
        match self.budget {
            Budget::UntilFound => enough,
            Budget::Candidates(limit) => {
                let spent = self.shard.block(job.next) * BLOCK_LEN >= limit;
                spent || (enough && !is_packed(self.variant))
            }
        }
    }
}

impl SearchState {
    /// Raises the candidate budget to `limit`, so a finished hunt goes on where it stopped:
    /// jobs that spent the old budget without reaching their goal are reopened. Each job
    /// scans its blocks in order and keeps its finds by a rank that does not depend on the
    /// limit, so the result is what one run with budget `limit` gives. The old budget must
    /// end on a block boundary (a multiple of 4096), where no block was cut short.
    pub fn raise_budget(&mut self, limit: u64) -> Result<(), String> {
        match self.scan.budget {
            Budget::UntilFound => {
                return Err("the state scans until found: it has no candidate budget".into())
            }
            Budget::Candidates(old) if limit < old => {
                return Err(format!("{limit} candidates is below its budget of {old}"))
            }
            Budget::Candidates(old) if old % BLOCK_LEN != 0 => {
                return Err(format!(
                    "its budget of {old} candidates ends inside a block (only a multiple of \
                     {BLOCK_LEN} can be raised)"
                ))
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

    /// Returns the state as text (see the module documentation).
    pub fn to_text(&self) -> String {
        self.to_text_with(None)
    }

    /// Returns the state as text with the packer's checkpoint, if given, at the end
    /// (version 2).
    pub fn to_text_with(&self, pack: Option<&PackCheckpoint>) -> String {
        let scan = &self.scan;
        let mut out = format!(
            "{}\n",
            if pack.is_some() {
                HEADER_WITH_PACK
            } else {
                HEADER
            }
        );
        out.push_str(&format!(
            "variant {}\nseed {}\nshard {}\n",
            scan.variant, scan.seed, scan.shard
        ));
        out.push_str(&format!("budget {}\n", budget_text(scan.budget)));
        out.push_str(&format!(
            "pool {}\npatience {}\ncommand {}\n",
            pool_text(scan),
            scan.patience,
            self.command
        ));
        for j in &self.jobs {
            out.push_str(&format!(
                "job {} {} {} next {} done {}\n",
                j.piece,
                square_name(j.square),
                j.bits,
                j.next,
                j.done as u8
            ));
            for f in &j.found {
                out.push_str(&format!(
                    "found {} {} {:#018x} index {} used {} span {}\n",
                    j.piece,
                    square_name(j.square),
                    f.magic,
                    f.index,
                    f.used,
                    f.span
                ));
            }
        }
        if let Some(pack) = pack {
            pack.write_lines(&mut out);
        }
        out
    }

    /// Parses a state written by [`SearchState::to_text`]; errors name the file and line.
    /// A pack checkpoint at its end is checked and left out (see
    /// [`SearchState::parse_with_pack`]).
    pub fn parse(file: &str, bytes: &[u8]) -> Result<SearchState, ReadError> {
        Ok(SearchState::parse_with_pack(file, bytes)?.0)
    }

    /// Parses a state written by [`SearchState::to_text_with`], and its pack checkpoint if
    /// it has one; errors name the file and line.
    pub fn parse_with_pack(
        file: &str,
        bytes: &[u8],
    ) -> Result<(SearchState, Option<PackCheckpoint>), ReadError> {
        let err = |line: usize, message: String| ReadError {
            file: file.to_string(),
            line: Some(line),
            message,
        };
        let lines = text_lines(file, bytes)?;
        let mut it = lines.into_iter().filter(|(_, t)| !t.trim().is_empty());
        let with_pack = match it.next() {
            Some((_, HEADER)) => false,
            Some((_, HEADER_WITH_PACK)) => true,
            Some((line, t)) => {
                let hint = if t.starts_with("magic-gen-pack") {
                    ": this is a pack checkpoint, resumed by `magic-gen pack SET --resume FILE`"
                } else {
                    ""
                };
                return Err(err(
                    line,
                    format!(
                        "not a magic-gen search state (expected '{HEADER}' or \
                         '{HEADER_WITH_PACK}'){hint}"
                    ),
                ));
            }
            None => {
                return Err(ReadError {
                    file: file.into(),
                    line: None,
                    message: "empty file".into(),
                })
            }
        };
        let mut header = |key: &str| -> Result<(usize, String), ReadError> {
            match it.next() {
                Some((line, t)) => t
                    .strip_prefix(key)
                    .and_then(|r| r.strip_prefix(' '))
                    .map(|r| (line, r.to_string()))
                    .ok_or_else(|| err(line, format!("expected '{key} ...'"))),
                None => Err(ReadError {
                    file: file.into(),
                    line: None,
                    message: format!("missing '{key}' line"),
                }),
            }
        };
        let (l, v) = header("variant")?;
        let variant = Variant::parse(&v).ok_or_else(|| err(l, format!("unknown variant '{v}'")))?;
        let (l, v) = header("seed")?;
        let seed = v.parse().map_err(|_| err(l, format!("bad seed '{v}'")))?;
        let (l, v) = header("shard")?;
        let shard = Shard::parse(&v).map_err(|m| err(l, m))?;
        let (l, v) = header("budget")?;
        let budget = match v.split_whitespace().collect::<Vec<_>>()[..] {
            ["until-found"] => Budget::UntilFound,
            ["candidates", n] => Budget::Candidates(
                n.parse()
                    .map_err(|_| err(l, format!("bad candidate count '{n}'")))?,
            ),
            _ => return Err(err(l, format!("bad budget '{v}'"))),
        };
        let (l, v) = header("pool")?;
        let bad = || err(l, format!("bad pool size '{v}'"));
        let (pool, sparse) = match v.split(' ').collect::<Vec<_>>()[..] {
            [pool] => (pool.parse().map_err(|_| bad())?, 0),
            [pool, "sparse", sparse] => (
                pool.parse().map_err(|_| bad())?,
                sparse.parse().map_err(|_| bad())?,
            ),
            _ => return Err(bad()),
        };
        let (l, v) = header("patience")?;
        let patience = v
            .parse()
            .map_err(|_| err(l, format!("bad patience '{v}'")))?;
        let (_, command) = header("command")?;
        let mut state = SearchState {
            scan: Scan {
                variant,
                seed,
                shard,
                budget,
                pool,
                sparse,
                patience,
            },
            command,
            jobs: Vec::new(),
        };
        let mut pack_lines = Vec::new();
        for (line, text) in it {
            let f: Vec<&str> = text.split_whitespace().collect();
            if f.first().is_some_and(|w| w.starts_with("pack")) || !pack_lines.is_empty() {
                if !with_pack {
                    return Err(err(
                        line,
                        format!("a pack checkpoint needs '{HEADER_WITH_PACK}' on the first line"),
                    ));
                }
                // The checkpoint ends the file: everything from its first line on is its.
                pack_lines.push((line, text));
                continue;
            }
            let place = |p: &str, s: &str| -> Result<(Piece, u8), ReadError> {
                let piece =
                    Piece::parse(p).ok_or_else(|| err(line, format!("unknown piece '{p}'")))?;
                let sq =
                    parse_square(s).ok_or_else(|| err(line, format!("unknown square '{s}'")))?;
                Ok((piece, sq))
            };
            let num = |s: &str| -> Result<u64, ReadError> {
                s.parse()
                    .map_err(|_| err(line, format!("'{s}' is not a number")))
            };
            match f[..] {
                ["job", p, s, bits, "next", next, "done", done] => {
                    let (piece, square) = place(p, s)?;
                    let bits = num(bits)?;
                    if !(1..=63).contains(&bits) {
                        return Err(err(line, format!("index bits {bits} out of range")));
                    }
                    // A packed square may have a job per shift (their finds share its
                    // pool); any other square has one.
                    let packed = is_packed(state.scan.variant);
                    if state.jobs.iter().any(|j| {
                        (j.piece, j.square) == (piece, square)
                            && (!packed || u64::from(j.bits) == bits)
                    }) {
                        return Err(err(line, format!("duplicate job {piece} {s}")));
                    }
                    let done = match done {
                        "0" => false,
                        "1" => true,
                        _ => return Err(err(line, format!("done must be 0 or 1, found '{done}'"))),
                    };
                    state.jobs.push(Job {
                        piece,
                        square,
                        bits: bits as u8,
                        next: num(next)?,
                        found: Vec::new(),
                        done,
                    });
                }
                ["found", p, s, magic, "index", index, "used", used, "span", span] => {
                    let (piece, square) = place(p, s)?;
                    let magic = parse_hex(magic).map_err(|m| err(line, m))?;
                    let found = Found {
                        index: num(index)?,
                        magic,
                        used: num(used)? as u32,
                        span: num(span)? as u32,
                        blocked: 0,
                    };
                    let job = state
                        .jobs
                        .last_mut()
                        .filter(|j| (j.piece, j.square) == (piece, square))
                        .ok_or_else(|| {
                            err(
                                line,
                                format!("'found' for {piece} {s} does not follow its 'job' line"),
                            )
                        })?;
                    job.found.push(found);
                }
                _ => return Err(err(line, format!("unexpected line '{text}'"))),
            }
        }
        // Every search has a job per piece and square, so fewer means a cut-off file.
        let missing: Vec<String> = Piece::ALL
            .iter()
            .flat_map(|&p| (0..64u8).map(move |sq| (p, sq)))
            .filter(|&(p, sq)| !state.jobs.iter().any(|j| (j.piece, j.square) == (p, sq)))
            .map(|(p, sq)| format!("{p} {}", square_name(sq)))
            .collect();
        if let Some(first) = missing.first() {
            return Err(ReadError {
                file: file.into(),
                line: None,
                message: format!(
                    "{} of the 128 jobs are missing (the first is {first}): a truncated state file?",
                    missing.len()
                ),
            });
        }
        // A state file does not hold blocked slots: measure them again.
        if state.scan.ranks_by_blocked() {
            for job in &mut state.jobs {
                let data = SquareData::new(job.piece, job.square, false);
                let entries = data.entries();
                let mut table = EpochTable::new(job.bits);
                for f in &mut job.found {
                    f.blocked = state.scan.blocked(&mut table, &entries, f.magic, job.bits);
                }
            }
        }
        let pack = if with_pack {
            Some(PackCheckpoint::parse_lines(file, &pack_lines)?)
        } else {
            None
        };
        Ok((state, pack))
    }
}

/// Returns a scan's pool sizes as its state line writes them, after `pool `.
fn pool_text(scan: &Scan) -> String {
    match scan.sparse {
        0 => scan.pool.to_string(),
        n => format!("{} sparse {n}", scan.pool),
    }
}

/// Returns a budget as its state line writes it, after `budget `.
fn budget_text(budget: Budget) -> String {
    match budget {
        Budget::UntilFound => "until-found".into(),
        Budget::Candidates(n) => format!("candidates {n}"),
    }
}

/// Why shard states do not merge: which state is at fault, the line of its file that shows
/// it, and how it differs from the first state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError {
    /// Index of the state at fault among those merged.
    pub state: usize,
    /// Index of the state it was compared with (the first, or an earlier one of the same shard).
    pub with: usize,
    /// How the line at fault starts (`"seed"`, `"job rook e4"`), for [`line_of`]; `None`
    /// when the state as a whole is at fault.
    pub line: Option<String>,
    /// How it differs.
    pub message: String,
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Returns the 1-based number of the first line of a state file's `bytes` that is `key` or
/// starts with `key` and a space: where a [`MergeError`] points.
pub fn line_of(bytes: &[u8], key: &str) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    let with_space = format!("{key} ");
    text.lines()
        .position(|l| {
            let l = l.trim();
            l == key || l.starts_with(&with_space)
        })
        .map(|i| i + 1)
}

/// Combines shard states of one search into one: same variant, seed, budget, pool and jobs,
/// distinct shards of the same count. Each job keeps the best finds of all shards by
/// the search's ranking (`Scan::rank`), so merging the N shards of a space gives what one run over it gives.
pub fn merge(states: &[SearchState]) -> Result<SearchState, MergeError> {
    let Some(first) = states.first() else {
        return Err(MergeError {
            state: 0,
            with: 0,
            line: None,
            message: "nothing to merge".into(),
        });
    };
    const SHARED: &str =
        "the shards of one search share variant, seed, shard count, budget, pool, patience and jobs";
    let mut seen = Vec::new();
    for (i, s) in states.iter().enumerate() {
        let fault = |line: &str, message: String| MergeError {
            state: i,
            with: 0,
            line: Some(line.to_string()),
            message: format!("{message} ({SHARED})"),
        };
        let (this, that) = (&s.scan, &first.scan);
        // In the order of the file's header; the line at fault starts with the first word.
        let settings = [
            (
                "variant",
                this.variant.to_string(),
                that.variant.to_string(),
            ),
            ("seed", this.seed.to_string(), that.seed.to_string()),
            (
                "shard count",
                this.shard.count.to_string(),
                that.shard.count.to_string(),
            ),
            ("budget", budget_text(this.budget), budget_text(that.budget)),
            ("pool", pool_text(this), pool_text(that)),
            (
                "patience",
                this.patience.to_string(),
                that.patience.to_string(),
            ),
        ];
        if let Some((what, a, b)) = settings.iter().find(|(_, a, b)| a != b) {
            let line = what.split(' ').next().unwrap_or(what);
            return Err(fault(line, format!("{what} {a} differs from its {b}")));
        }
        // Anything else the scan holds must match too.
        if (Scan {
            shard: that.shard,
            ..*this
        }) != *that
        {
            return Err(MergeError {
                state: i,
                with: 0,
                line: None,
                message: format!("other settings than its own ({SHARED})"),
            });
        }
        let key = |j: &Job| (j.piece, j.square, j.bits);
        let jobs = s.jobs.len().max(first.jobs.len());
        if let Some(k) = (0..jobs).find(|&k| s.jobs.get(k).map(key) != first.jobs.get(k).map(key)) {
            let theirs = match first.jobs.get(k) {
                Some(j) => format!("{} {} with {} bits", j.piece, square_name(j.square), j.bits),
                None => "none".into(),
            };
            return Err(match s.jobs.get(k) {
                Some(j) => fault(
                    &format!("job {} {}", j.piece, square_name(j.square)),
                    format!(
                        "job {} {} with {} bits, where its job {} is {theirs}",
                        j.piece,
                        square_name(j.square),
                        j.bits,
                        k + 1
                    ),
                ),
                None => MergeError {
                    state: i,
                    with: 0,
                    line: None,
                    message: format!(
                        "{} jobs, where it has {} ({SHARED})",
                        s.jobs.len(),
                        first.jobs.len()
                    ),
                },
            });
        }
        if let Some(&(_, earlier)) = seen.iter().find(|&&(index, _)| index == this.shard.index) {
            return Err(MergeError {
                state: i,
                with: earlier,
                line: Some("shard".into()),
                message: format!("shard {} given twice", this.shard),
            });
        }
        seen.push((this.shard.index, i));
    }
    let mut merged = first.clone();
    merged.command = format!(
        "merge of {} of {} shards",
        states.len(),
        first.scan.shard.count
    );
    for (i, job) in merged.jobs.iter_mut().enumerate() {
        job.found.clear();
        job.done = states.iter().all(|s| s.jobs[i].done);
        job.next = states.iter().map(|s| s.jobs[i].next).min().unwrap_or(0);
    }
    let scan = merged.scan;
    for s in states {
        for (i, job) in s.jobs.iter().enumerate() {
            for &f in &job.found {
                scan.insert(&mut merged.jobs[i], f);
            }
        }
    }
    Ok(merged)
}
