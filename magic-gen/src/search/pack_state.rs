//! The packer's checkpoint: everything the annealing loop needs to go on after a move, so
//! a run resumed from it makes exactly the moves an uninterrupted run makes. It is one
//! section of text, written last in a search state file (`state.rs`) or alone in the file
//! of `magic-gen pack --state` (after a `magic-gen-pack 1` line):
//!
//! ```text
//! pack seed 1 iterations 1000000 negative-offsets 0 spread 0 pools 0x8d2f0c61a43be915 squares 128
//! pack-progress moves 250000 draws 1083411 temperature 0x4043d8a3f1c7e6b2 cool 0x3fefffffc8e4a3b1 length 93811 best 93790
//! pack-square rook a1 place 17 member 3 best-place 20 best-member 3
//! ```
//!
//! The `pack` line names the packing the checkpoint belongs to: its seed, its moves in
//! all, whether offsets may be negative, the weight of the mean end in the annealing's
//! energy (`--pack-spread`; a line without it, written before it existed, means 0), a
//! digest of the pools (variant, index bits and every magic of every pool, in order) and
//! how many squares have a pool. The progress line holds the moves made, the draws taken
//! from the random stream (a resume draws that many again), the temperature and its factor
//! per move as the bits of their `f64` (so the schedule goes on bit for bit), and the
//! table lengths of the current layout and of the best one met. Each square with a pool
//! has a line: its place in the placing order and its pool member, in the current layout
//! and in the best. The layouts follow from those (every square at its lowest fitting
//! start), and a resume checks that they give the saved lengths.

use crate::format::{text_lines, ReadError};
use crate::geometry::{parse_square, square_name, Piece};

use super::pack::parse_spread;

/// The first line of a pack checkpoint file (`magic-gen pack --state`).
const FILE_HEADER: &str = "magic-gen-pack 1";

/// One square of a [`PackCheckpoint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackSquare {
    /// Its pool: 0..64 rook a1..h8, 64..128 bishop a1..h8.
    pub square: usize,
    /// Its place in the placing order of the current layout.
    pub place: usize,
    /// Its pool member in the current layout.
    pub member: usize,
    /// Its place in the placing order of the best layout met.
    pub best_place: usize,
    /// Its pool member in the best layout met.
    pub best_member: usize,
}

/// The annealer between two moves (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct PackCheckpoint {
    /// Seed of the annealing.
    pub seed: u64,
    /// Moves of the whole run.
    pub iterations: u64,
    /// Whether ranges may start before the table.
    pub negative_offsets: bool,
    /// Weight of the mean end in the annealing's energy (`--pack-spread`; 0 where a
    /// checkpoint written before it existed does not say).
    pub spread: f64,
    /// Digest of the pools packed.
    pub pools: u64,
    /// Moves made.
    pub moves: u64,
    /// Numbers drawn from the annealing's random stream.
    pub draws: u64,
    /// The temperature after `moves` moves, as `f64::to_bits`.
    pub temperature: u64,
    /// The factor the temperature is multiplied by at each move, as `f64::to_bits`.
    pub cool: u64,
    /// Table length of the current layout.
    pub length: usize,
    /// Table length of the best layout met.
    pub best_length: usize,
    /// Every square with a pool, in square order.
    pub squares: Vec<PackSquare>,
}

/// A checkpoint that does not belong to the packing it was given to: the line at fault
/// (how it starts, for [`crate::search::line_of`]) and what differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackMismatch {
    /// How the line at fault starts: `"pack"`, `"pack-progress"` or `"pack-square rook a1"`.
    pub line: String,
    /// What differs, and how to go on.
    pub message: String,
}

impl std::fmt::Display for PackMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Returns the name of pool `i` (`rook a1`).
pub(crate) fn pool_name(i: usize) -> String {
    format!("{} {}", Piece::ALL[i / 64], square_name((i % 64) as u8))
}

impl PackCheckpoint {
    /// Returns true once every move of the run is made.
    pub fn finished(&self) -> bool {
        self.moves >= self.iterations
    }

    /// Appends the checkpoint's lines to `out`.
    pub(crate) fn write_lines(&self, out: &mut String) {
        out.push_str(&format!(
            "pack seed {} iterations {} negative-offsets {} spread {} pools {:#018x} squares {}\n",
            self.seed,
            self.iterations,
            u8::from(self.negative_offsets),
            self.spread,
            self.pools,
            self.squares.len()
        ));
        out.push_str(&format!(
            "pack-progress moves {} draws {} temperature {:#018x} cool {:#018x} length {} best {}\n",
            self.moves, self.draws, self.temperature, self.cool, self.length, self.best_length
        ));
        for s in &self.squares {
            out.push_str(&format!(
                "pack-square {} place {} member {} best-place {} best-member {}\n",
                pool_name(s.square),
                s.place,
                s.member,
                s.best_place,
                s.best_member
            ));
        }
    }

    /// Returns the checkpoint as the file `magic-gen pack --state` writes.
    pub fn to_file_text(&self) -> String {
        let mut out = format!("{FILE_HEADER}\n");
        self.write_lines(&mut out);
        out
    }

    /// Parses a file written by [`PackCheckpoint::to_file_text`]; errors name the file and line.
    pub fn parse_file(file: &str, bytes: &[u8]) -> Result<PackCheckpoint, ReadError> {
        let lines = text_lines(file, bytes)?;
        let mut it = lines.into_iter().filter(|(_, t)| !t.trim().is_empty());
        match it.next() {
            Some((_, t)) if t.trim() == FILE_HEADER => {}
            Some((line, t)) => {
                let hint = if t.starts_with("magic-gen-state") {
                    ": this is a search state, resumed by `magic-gen search --resume`"
                } else {
                    ""
                };
                return Err(ReadError {
                    file: file.into(),
                    line: Some(line),
                    message: format!(
                        "not a magic-gen pack checkpoint (expected '{FILE_HEADER}'){hint}"
                    ),
                });
            }
            None => {
                return Err(ReadError {
                    file: file.into(),
                    line: None,
                    message: "empty file".into(),
                })
            }
        }
        let rest: Vec<(usize, &str)> = it.collect();
        PackCheckpoint::parse_lines(file, &rest)
    }

    /// Parses the checkpoint's lines (numbered as in `file`, blank lines left out), as
    /// [`PackCheckpoint::write_lines`] writes them.
    pub(crate) fn parse_lines(
        file: &str,
        lines: &[(usize, &str)],
    ) -> Result<PackCheckpoint, ReadError> {
        let at = |line: usize, message: String| ReadError {
            file: file.into(),
            line: Some(line),
            message,
        };
        let missing = |message: String| ReadError {
            file: file.into(),
            line: None,
            message: format!("{message}: a truncated file?"),
        };
        let mut it = lines.iter().copied();
        let (line, text) = it
            .next()
            .ok_or_else(|| missing("the pack checkpoint's 'pack' line is missing".into()))?;
        let head = Fields::of(text, "pack", line, &at)?;
        let seed = head.number("seed")?;
        let iterations = head.number("iterations")?;
        let negative_offsets = match head.value("negative-offsets")? {
            "0" => false,
            "1" => true,
            v => {
                return Err(at(
                    line,
                    format!("negative-offsets must be 0 or 1, found '{v}'"),
                ))
            }
        };
        let spread = match head.optional("spread") {
            None => 0.0,
            Some(v) => parse_spread(v).map_err(|e| at(line, e))?,
        };
        let pools = head.hex("pools")?;
        let count = head.number("squares")? as usize;
        if count > 128 {
            return Err(at(line, format!("{count} squares: there are 128")));
        }
        let (line, text) = it.next().ok_or_else(|| {
            missing("the pack checkpoint's 'pack-progress' line is missing".into())
        })?;
        let progress = Fields::of(text, "pack-progress", line, &at)?;
        let moves = progress.number("moves")?;
        if moves > iterations {
            return Err(at(
                line,
                format!("{moves} moves made, past the run's {iterations}"),
            ));
        }
        let draws = progress.number("draws")?;
        let temperature = progress.hex("temperature")?;
        let cool = progress.hex("cool")?;
        let length = progress.number("length")? as usize;
        let best_length = progress.number("best")? as usize;
        let mut squares: Vec<PackSquare> = Vec::with_capacity(count);
        for (line, text) in it {
            let f = Fields::of(text, "pack-square", line, &at)?;
            let (p, s) = (f.word(0)?, f.word(1)?);
            let piece = Piece::parse(p).ok_or_else(|| at(line, format!("unknown piece '{p}'")))?;
            let sq = parse_square(s).ok_or_else(|| at(line, format!("unknown square '{s}'")))?;
            let square = piece.index() * 64 + sq as usize;
            if squares.last().is_some_and(|last| last.square >= square) {
                return Err(at(
                    line,
                    format!(
                        "{piece} {s} is out of order (squares go rook a1 to bishop h8, once each)"
                    ),
                ));
            }
            if squares.len() == count {
                return Err(at(
                    line,
                    format!("more squares than the {count} of its 'pack' line"),
                ));
            }
            squares.push(PackSquare {
                square,
                place: f.number("place")? as usize,
                member: f.number("member")? as usize,
                best_place: f.number("best-place")? as usize,
                best_member: f.number("best-member")? as usize,
            });
        }
        if squares.len() < count {
            let after = match squares.last() {
                Some(s) => format!("after {}", pool_name(s.square)),
                None => "all of them".into(),
            };
            return Err(missing(format!(
                "{} of the pack checkpoint's {count} squares are missing ({after})",
                count - squares.len()
            )));
        }
        Ok(PackCheckpoint {
            seed,
            iterations,
            negative_offsets,
            spread,
            pools,
            moves,
            draws,
            temperature,
            cool,
            length,
            best_length,
            squares,
        })
    }
}

/// The words of one checkpoint line after its keyword: positional words first, then
/// `key value` pairs, each key where the writer puts it.
struct Fields<'a, E> {
    words: Vec<&'a str>,
    line: usize,
    keyword: &'static str,
    at: &'a E,
}

impl<'a, E: Fn(usize, String) -> ReadError> Fields<'a, E> {
    /// Returns the fields of `text`, which must start with `keyword`.
    fn of(text: &'a str, keyword: &'static str, line: usize, at: &'a E) -> Result<Self, ReadError> {
        let mut words = text.split_whitespace();
        if words.next() != Some(keyword) {
            return Err(at(line, format!("expected a '{keyword} ...' line")));
        }
        Ok(Fields {
            words: words.collect(),
            line,
            keyword,
            at,
        })
    }

    /// Returns positional word `i`.
    fn word(&self, i: usize) -> Result<&'a str, ReadError> {
        self.words.get(i).copied().ok_or_else(|| {
            (self.at)(
                self.line,
                format!("the '{}' line is cut short", self.keyword),
            )
        })
    }

    /// Returns the value after `key`, if the line has one.
    fn optional(&self, key: &str) -> Option<&'a str> {
        let i = self.words.iter().position(|&w| w == key);
        i.and_then(|i| self.words.get(i + 1).copied())
    }

    /// Returns the value after `key`.
    fn value(&self, key: &str) -> Result<&'a str, ReadError> {
        self.optional(key).ok_or_else(|| {
            (self.at)(
                self.line,
                format!("the '{}' line has no '{key}' value", self.keyword),
            )
        })
    }

    /// Returns the decimal number after `key`.
    fn number(&self, key: &str) -> Result<u64, ReadError> {
        let v = self.value(key)?;
        v.parse()
            .map_err(|_| (self.at)(self.line, format!("{key} '{v}' is not a number")))
    }

    /// Returns the 64-bit hex number (`0x` and 16 digits at most) after `key`.
    fn hex(&self, key: &str) -> Result<u64, ReadError> {
        let v = self.value(key)?;
        v.strip_prefix("0x")
            .filter(|d| (1..=16).contains(&d.len()))
            .and_then(|d| u64::from_str_radix(d, 16).ok())
            .ok_or_else(|| (self.at)(self.line, format!("{key} '{v}' is not 64-bit hex")))
    }
}
