//! The search state file: a hunt's [`SearchState`] written as text at every checkpoint
//! (atomically, by the caller), read back to resume, and combined across shards by
//! [`SearchState::merge`]. A state saved while the packer runs (version 2) ends with the
//! packer's checkpoint (`checkpoint_file.rs`). Its specification is `docs/formats.md` ("The
//! search state file"), the one place it is written.

use crate::geometry::{parse_square, square_name, Piece};
use crate::index::Variant;
use crate::pack::{PackCheckpoint, PackSettings};
use crate::search::state::{Budget, Found, Job, Scan, Shard};
use crate::search::{allowed_bits, Options, PolishSettings, SearchState};

use super::lines::{number, parse_hex, Lines, ReadError};

/// The first line of a state file without a pack checkpoint, and of one with it.
const HEADER: &str = "magic-gen-state 1";
const HEADER_WITH_PACK: &str = "magic-gen-state 2";

impl SearchState {
    /// Returns true if `bytes` begin as a search state file of any version does: how
    /// `magic-gen stats` tells a hunt's pools from a set.
    pub fn looks_like_state(bytes: &[u8]) -> bool {
        let name = HEADER.split(' ').next().unwrap_or(HEADER);
        bytes.starts_with(name.as_bytes())
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
            let (polish, pack) = (&self.polish, &self.pack);
            out.push_str(&format!(
                "finish polish {} clump {} pack-seed {} pack-iterations {} negative-offsets {} \
                 pack-spread {} short-spans {} pack-seeds {}{}\n",
                polish.polish,
                polish.clump,
                pack.seed,
                pack.iterations,
                u8::from(pack.negative_offsets),
                pack.spread,
                u8::from(pack.short_spans),
                pack.seeds,
                match polish.evolve {
                    0 => String::new(),
                    n => format!(" evolve {n}"),
                }
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
        let mut it = Lines::of(file, bytes)?;
        let err = |line: usize, message: String| ReadError {
            file: file.to_string(),
            line: Some(line),
            message,
        };
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
            None => return Err(it.whole("empty file".into())),
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
        let shard = Shard::parse(&v).map_err(|m| err(l, m.to_string()))?;
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
        let defaults = Options::for_variant(variant).limits;
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
            // A state written before the finish line existed finishes as a fresh search of
            // its variant did then: with the variant's defaults.
            polish: defaults.polish,
            pack: defaults.pack,
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
            let num = |s: &str| number(s).map_err(|m| err(line, m.to_string()));
            // The finish line ends with `evolve N` when the hunt evolves its pools: written
            // only then, so the states of other hunts read and write as before.
            let (f, evolve) = match f[..] {
                [.., "evolve", n] if f[0] == "finish" => (&f[..f.len() - 2], num(n)?),
                _ => (&f[..], 0),
            };
            match f[..] {
                ["finish", "polish", polish, "clump", clump, "pack-seed", seed, "pack-iterations", iterations, "negative-offsets", negative, "pack-spread", spread, "short-spans", short, "pack-seeds", seeds]
                    if state.jobs.is_empty() && state.scan.variant.is_packed() =>
                {
                    let flag = |v: &str| match v {
                        "0" => Ok(false),
                        "1" => Ok(true),
                        _ => Err(err(line, format!("expected 0 or 1, found '{v}'"))),
                    };
                    let u32_of = |v: &str| {
                        u32::try_from(num(v)?).map_err(|_| err(line, format!("'{v}' is too large")))
                    };
                    let spread: f64 = spread
                        .parse()
                        .ok()
                        .filter(|&x| PackSettings::valid_spread(x))
                        .ok_or_else(|| err(line, format!("bad pack-spread '{spread}'")))?;
                    let seeds = num(seeds)?;
                    if !PackSettings::valid_seeds(seeds) {
                        return Err(err(line, format!("bad pack-seeds '{seeds}'")));
                    }
                    state.polish = PolishSettings {
                        polish: u32_of(polish)?,
                        clump: u32_of(clump)?,
                        evolve,
                    };
                    state.pack = PackSettings {
                        seed: num(seed)?,
                        iterations: num(iterations)?,
                        negative_offsets: flag(negative)?,
                        spread,
                        short_spans: flag(short)?,
                        seeds,
                        // A search packs from its greedy pass.
                        from_input: false,
                    };
                }
                ["job", p, s, bits, "next", next, "done", done] => {
                    let (piece, square) = place(p, s)?;
                    let bits = num(bits)?;
                    // Past them a table could not even be allocated to measure its finds.
                    let allowed = allowed_bits(state.scan.variant, piece, square);
                    if !u8::try_from(bits).is_ok_and(|b| allowed.contains(&b)) {
                        return Err(err(
                            line,
                            format!(
                                "index bits {bits} out of range for {piece} {s}: {}..={}",
                                allowed.start(),
                                allowed.end()
                            ),
                        ));
                    }
                    // A packed square may have a job per shift (their finds share its
                    // pool); any other square has one.
                    let packed = state.scan.variant.is_packed();
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
                    let magic = parse_hex(magic).map_err(|m| err(line, m.to_string()))?;
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
        state.measure_blocked();
        let pack = if with_pack {
            PackCheckpoint::parse_sections(file, &pack_lines)?
        } else {
            Vec::new()
        };
        Ok((state, pack))
    }
}
