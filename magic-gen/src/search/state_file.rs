//! The search state file: a hunt's [`SearchState`] written as text at every checkpoint
//! (atomically, by the caller), read back to resume, and combined across shards by
//! [`SearchState::merge`]. A state saved while the packer runs (version 2) ends with the
//! packer's checkpoint (`crate::pack`'s `checkpoint_file.rs`). Every field round-trips
//! exactly, so a resumed run goes on bit for bit. Read through `crate::io`'s line reader;
//! its specification is `docs/formats.md` ("The search state file"), the one place it is
//! written.

use crate::geometry::{square_name, Piece};
use crate::index::Variant;
use crate::io::{
    parse_hex, read_error, without_byte_order_mark, HuntFile, Lines, ReadError, Record,
};
use crate::pack::{PackCheckpoint, PackSettings};
use crate::settings::Line;

use super::candidates::Shard;
use super::options::{Budget, Options, PolishSettings, Scan};
use super::state::{allowed_bits, Found, Job, SearchState};

/// The first line of a state file without a pack checkpoint, and of one with it.
const HEADER: &str = "magic-gen-state 1";
const HEADER_WITH_PACK: &str = "magic-gen-state 2";

impl SearchState {
    /// Returns true if `bytes` begin as a search state file of any version does: how
    /// `magic-gen stats` tells a hunt's pools from a set.
    pub fn looks_like_state(bytes: &[u8]) -> bool {
        let name = HEADER.split(' ').next().unwrap_or(HEADER);
        without_byte_order_mark(bytes).starts_with(name.as_bytes())
    }

    /// Returns the state as text (specified in `docs/formats.md`).
    pub fn to_text(&self) -> String {
        self.to_text_with(&[])
    }

    /// Returns the state as text with the packer's checkpoint (one per packing; none for
    /// version 1) at the end
    /// (version 2).
    pub fn to_text_with(&self, pack: &[PackCheckpoint]) -> String {
        let scan = &self.scan;
        let mut out = format!(
            "{}\n",
            if !pack.is_empty() {
                HEADER_WITH_PACK
            } else {
                HEADER
            }
        );
        out.push_str(&format!(
            "variant {}\nseed {}\nshard {}\n",
            scan.variant, scan.seed, scan.shard
        ));
        out.push_str(&format!("budget {}\n", scan.budget));
        out.push_str(&format!(
            "pool {}\npatience {}\ncommand {}\n",
            scan.pool_text(),
            scan.patience,
            self.command
        ));
        if scan.variant.is_packed() {
            out.push_str(&format!(
                "finish{}{}\n",
                Line::Finish.pairs(&self.polish),
                Line::Finish.pairs(&self.pack)
            ));
        }
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
        PackCheckpoint::write_sections(pack, &mut out);
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
    ) -> Result<(SearchState, Vec<PackCheckpoint>), ReadError> {
        let mut lines = Lines::of(file, bytes)?;
        let with_pack = read_version(&mut lines)?;
        let scan = read_scan(&mut lines)?;
        let command = lines.value_line("command")?.1.to_string();
        let defaults = Options::for_variant(scan.variant).limits;
        let mut state = SearchState {
            scan,
            command,
            // A state written before the finish line existed finishes as a fresh search of
            // its variant did then: with the variant's defaults.
            polish: defaults.polish,
            pack: defaults.pack,
            jobs: Vec::new(),
        };
        let pack_lines = state.read_jobs(file, lines, with_pack)?;
        state.check_every_job(file)?;
        // A state file does not hold blocked slots: measure them again.
        state.measure_blocked();
        let pack = if with_pack {
            PackCheckpoint::parse_sections(file, &pack_lines)?
        } else {
            Vec::new()
        };
        Ok((state, pack))
    }

    /// Reads the lines after the header: the finish line, the jobs and their finds, and
    /// returns the pack checkpoint's lines (everything from a `pack...` line on).
    fn read_jobs<'a>(
        &mut self,
        file: &'a str,
        lines: Lines<'a>,
        with_pack: bool,
    ) -> Result<Vec<(usize, &'a str)>, ReadError> {
        let mut pack_lines = Vec::new();
        for (line, text) in lines {
            let record = Record::any(file, line, text);
            if record.keyword().starts_with("pack") || !pack_lines.is_empty() {
                if !with_pack {
                    return Err(record.error(format!(
                        "a pack checkpoint needs '{HEADER_WITH_PACK}' on the first line"
                    )));
                }
                // The checkpoint ends the file: everything from its first line on is its.
                pack_lines.push((line, text));
                continue;
            }
            match record.keyword() {
                "finish" => self.read_finish(record)?,
                "job" => self.read_job(&record)?,
                "found" => self.read_found(&record)?,
                _ => return Err(record.unexpected()),
            }
        }
        Ok(pack_lines)
    }

    /// Reads the `finish` line of a packed variant's state, before its jobs: how the hunt
    /// polishes and packs.
    fn read_finish(&mut self, record: Record) -> Result<(), ReadError> {
        let in_place = self.jobs.is_empty() && self.scan.variant.is_packed();
        let known = |k: &str| {
            Line::Finish.holds::<PolishSettings>(k) || Line::Finish.holds::<PackSettings>(k)
        };
        match record.pairs(0) {
            Some(pairs) if in_place && pairs.iter().all(|&(k, _)| known(k)) => {}
            _ => return Err(record.unexpected()),
        }
        // A setting the line leaves out keeps the variant's default (read before it): so a
        // state from before the setting existed finishes as it did then.
        Line::Finish.read(&record, &mut self.polish)?;
        Line::Finish.read(&record, &mut self.pack)?;
        Ok(())
    }

    /// Reads a `job` line: a new job, checked against its square and the jobs before it.
    fn read_job(&mut self, record: &Record) -> Result<(), ReadError> {
        let Some([next, done]) = record.laid_out(3, ["next", "done"]) else {
            return Err(record.unexpected());
        };
        let (piece, square) = record.piece_square(0)?;
        let s = record.word(1)?;
        let bits = record.number_in("bits", record.word(2)?)?;
        // Past them a table could not even be allocated to measure its finds.
        let allowed = allowed_bits(self.scan.variant, piece, square);
        if !u8::try_from(bits).is_ok_and(|b| allowed.contains(&b)) {
            return Err(record.error(format!(
                "index bits {bits} out of range for {piece} {s}: {}..={}",
                allowed.start(),
                allowed.end()
            )));
        }
        // A packed square may have a job per shift (their finds share its pool); any other
        // square has one.
        let packed = self.scan.variant.is_packed();
        if self.jobs.iter().any(|j| {
            (j.piece, j.square) == (piece, square) && (!packed || u64::from(j.bits) == bits)
        }) {
            return Err(record.error(format!("duplicate job {piece} {s}")));
        }
        let done = record.flag_in("done", done)?;
        self.jobs.push(Job {
            piece,
            square,
            bits: bits as u8,
            next: record.number_in("next", next)?,
            found: Vec::new(),
            done,
        });
        Ok(())
    }

    /// Reads a `found` line: a magic kept by the job on the line before it.
    fn read_found(&mut self, record: &Record) -> Result<(), ReadError> {
        let Some([index, used, span]) = record.laid_out(3, ["index", "used", "span"]) else {
            return Err(record.unexpected());
        };
        let (piece, square) = record.piece_square(0)?;
        let magic = parse_hex(record.word(2)?).map_err(|m| record.error(m.to_string()))?;
        let found = Found {
            index: record.number_in("index", index)?,
            magic,
            used: record.number_in("used", used)? as u32,
            span: record.number_in("span", span)? as u32,
            blocked: 0,
        };
        let s = record.word(1)?;
        let job = self.jobs.last_mut();
        let job = job.filter(|j| (j.piece, j.square) == (piece, square));
        let job = job.ok_or_else(|| {
            record.error(format!(
                "'found' for {piece} {s} does not follow its 'job' line"
            ))
        })?;
        job.found.push(found);
        Ok(())
    }

    /// Refuses a state without a job for every piece and square: every search has one, so
    /// fewer means a cut-off file.
    fn check_every_job(&self, file: &str) -> Result<(), ReadError> {
        let missing: Vec<String> = Piece::ALL
            .iter()
            .flat_map(|&p| (0..64u8).map(move |sq| (p, sq)))
            .filter(|&(p, sq)| !self.jobs.iter().any(|j| (j.piece, j.square) == (p, sq)))
            .map(|(p, sq)| format!("{p} {}", square_name(sq)))
            .collect();
        match missing.first() {
            Some(first) => Err(read_error(
                file,
                None,
                format!(
                    "{} of the 128 jobs are missing (the first is {first}): a truncated state \
                     file?",
                    missing.len()
                ),
            )),
            None => Ok(()),
        }
    }
}

/// Reads a state's first line: whether the state ends with a pack checkpoint (version 2).
fn read_version(lines: &mut Lines) -> Result<bool, ReadError> {
    match lines.next() {
        Some((_, HEADER)) => Ok(false),
        Some((_, HEADER_WITH_PACK)) => Ok(true),
        Some((line, t)) => Err(lines.not_a(
            line,
            t,
            HuntFile::SearchState,
            &format!("'{HEADER}' or '{HEADER_WITH_PACK}'"),
        )),
        None => Err(lines.whole("empty file".into())),
    }
}

/// Reads the header lines that say what the scan keeps, each its keyword and value.
fn read_scan(lines: &mut Lines) -> Result<Scan, ReadError> {
    let (l, v) = lines.value_line("variant")?;
    let variant = Variant::parse(v).ok_or_else(|| lines.at(l, format!("unknown variant '{v}'")))?;
    let (l, v) = lines.value_line("seed")?;
    let seed = v
        .parse()
        .map_err(|_| lines.at(l, format!("bad seed '{v}'")))?;
    let (l, v) = lines.value_line("shard")?;
    let shard = Shard::parse(v).map_err(|m| lines.at(l, m.to_string()))?;
    let (l, v) = lines.value_line("budget")?;
    let budget = match v.split_whitespace().collect::<Vec<_>>()[..] {
        ["until-found"] => Budget::UntilFound,
        ["candidates", n] => Budget::Candidates(
            n.parse()
                .map_err(|_| lines.at(l, format!("bad candidate count '{n}'")))?,
        ),
        _ => return Err(lines.at(l, format!("bad budget '{v}'"))),
    };
    let (l, v) = lines.value_line("pool")?;
    let bad = || lines.at(l, format!("bad pool size '{v}'"));
    let (pool, sparse) = match v.split(' ').collect::<Vec<_>>()[..] {
        [pool] => (pool.parse().map_err(|_| bad())?, 0),
        [pool, "sparse", sparse] => (
            pool.parse().map_err(|_| bad())?,
            sparse.parse().map_err(|_| bad())?,
        ),
        _ => return Err(bad()),
    };
    let (l, v) = lines.value_line("patience")?;
    let patience = v
        .parse()
        .map_err(|_| lines.at(l, format!("bad patience '{v}'")))?;
    Ok(Scan {
        variant,
        seed,
        shard,
        budget,
        pool,
        sparse,
        patience,
    })
}

#[cfg(test)]
mod tests;
