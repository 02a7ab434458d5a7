//! The packer's checkpoint file: everything the annealing needs to go on after a move, so
//! a run resumed from it makes exactly the moves an uninterrupted run makes (floats as
//! their bits). One section of text per packing, written last in a search state file
//! (`crate::search`'s `state_file.rs`) or alone in the file of a repack's checkpoint. Read
//! through `crate::io`'s line reader; its specification is `docs/formats.md` ("The pack
//! checkpoint file"), the one place it is written.

use crate::geometry::SetSquare;
use crate::io::{read_error, HuntFile, Lines, ReadError, Record};

use super::checkpoint::{pool_name, PackCheckpoint, PackSquare};
use super::settings::PackSettings;
use crate::settings::Line;

/// The first line of a pack checkpoint file alone (a repack's).
const FILE_HEADER: &str = "magic-gen-pack 1";

impl PackCheckpoint {
    /// Appends the checkpoint's lines to `out`.
    fn write_lines(&self, out: &mut String) {
        // The settings first, then what they pack: a setting written only when not its
        // default leaves the lines of checkpoints from before it as they were.
        out.push_str(&format!(
            "pack{} pools {:#018x} squares {}\n",
            Line::Pack.pairs(&self.settings),
            self.pools,
            self.squares.len()
        ));
        out.push_str(&format!(
            "pack-progress moves {} draws {} temperature {:#018x} cool {:#018x} length {} best {}\n",
            self.moves, self.draws, self.temperature, self.cool, self.length, self.best_length
        ));
        for s in &self.squares {
            let starts = match s.starts {
                Some((start, best)) => format!(" start {start} best-start {best}"),
                None => String::new(),
            };
            out.push_str(&format!(
                "pack-square {} place {} member {} best-place {} best-member {}{starts}\n",
                pool_name(s.square),
                s.place,
                s.member,
                s.best_place,
                s.best_member
            ));
        }
    }

    /// Appends the lines of every packing's checkpoint to `out`, in order.
    pub(crate) fn write_sections(packings: &[PackCheckpoint], out: &mut String) {
        for p in packings {
            p.write_lines(out);
        }
    }

    /// Returns the checkpoints of a run's packings (one per seed, in seed order) as the
    /// file of a repack's checkpoint.
    pub fn file_text(packings: &[PackCheckpoint]) -> String {
        let mut out = format!("{FILE_HEADER}\n");
        PackCheckpoint::write_sections(packings, &mut out);
        out
    }

    /// Parses a file written by [`PackCheckpoint::file_text`]: one checkpoint per packing;
    /// errors name the file and line.
    pub fn parse_file(file: &str, bytes: &[u8]) -> Result<Vec<PackCheckpoint>, ReadError> {
        let mut lines = Lines::of(file, bytes)?;
        match lines.next() {
            Some((_, t)) if t.trim() == FILE_HEADER => {}
            Some((line, t)) => {
                let expected = format!("'{FILE_HEADER}'");
                return Err(lines.not_a(line, t, HuntFile::PackCheckpoint, &expected));
            }
            None => return Err(lines.whole("empty file".into())),
        }
        PackCheckpoint::parse_sections(file, &lines.rest())
    }

    /// Parses the sections of a run's packings, each from its `pack` line on, and checks
    /// that there are as many as the first one's seed count says.
    pub(crate) fn parse_sections(
        file: &str,
        lines: &[(usize, &str)],
    ) -> Result<Vec<PackCheckpoint>, ReadError> {
        let starts_section = |t: &str| t.split_whitespace().next() == Some("pack");
        let mut starts: Vec<usize> = (0..lines.len())
            .filter(|&k| starts_section(lines[k].1))
            .collect();
        // Lines before the first `pack` line are read as its section, which refuses them.
        if starts.first() != Some(&0) {
            starts.insert(0, 0);
        }
        let mut packings = Vec::with_capacity(starts.len());
        for (k, &from) in starts.iter().enumerate() {
            let to = starts.get(k + 1).copied().unwrap_or(lines.len());
            packings.push(PackCheckpoint::parse_lines(file, &lines[from..to])?);
        }
        let count = packings[0].settings.seeds;
        if packings.len() as u64 != count {
            let (line, message) =
                match lines.get(starts.get(count as usize).copied().unwrap_or(usize::MAX)) {
                    Some(&(line, _)) => (
                        Some(line),
                        format!("a packing past the {count} of the first 'pack' line's seeds"),
                    ),
                    None => (
                        None,
                        format!(
                            "{} of the {count} packings of the first 'pack' line's seeds are \
                         missing: a truncated file?",
                            count - packings.len() as u64
                        ),
                    ),
                };
            return Err(read_error(file, line, message));
        }
        Ok(packings)
    }

    /// Parses the checkpoint's lines (numbered as in `file`, blank lines left out), as
    /// [`PackCheckpoint::write_lines`] writes them.
    fn parse_lines(file: &str, lines: &[(usize, &str)]) -> Result<PackCheckpoint, ReadError> {
        let missing =
            |message: &str| read_error(file, None, format!("{message}: a truncated file?"));
        let mut lines = Lines::numbered(file, lines.to_vec());
        let head = lines
            .record("pack")
            .ok_or_else(|| missing("the pack checkpoint's 'pack' line is missing"))??;
        let (mut checkpoint, count) = PackCheckpoint::read_pack_line(&head)?;
        let progress = lines
            .record("pack-progress")
            .ok_or_else(|| missing("the pack checkpoint's 'pack-progress' line is missing"))??;
        checkpoint.read_progress_line(&progress)?;
        checkpoint.squares = read_square_lines(lines, count)?;
        if checkpoint.squares.len() < count {
            let after = match checkpoint.squares.last() {
                Some(s) => format!("after {}", pool_name(s.square)),
                None => "all of them".into(),
            };
            return Err(missing(&format!(
                "{} of the pack checkpoint's {count} squares are missing ({after})",
                count - checkpoint.squares.len()
            )));
        }
        Ok(checkpoint)
    }

    /// Reads a section's `pack` line: the packing's settings and the digest of its pools,
    /// in a checkpoint with no moves made and no squares yet, and the count of its squares.
    fn read_pack_line(head: &Record) -> Result<(PackCheckpoint, usize), ReadError> {
        let pools = head.hex("pools")?;
        let count = head.number("squares")? as usize;
        if let Some(key) = head
            .pairs(0)
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
            .find(|&k| !["pools", "squares"].contains(&k) && !Line::Pack.holds::<PackSettings>(k))
        {
            return Err(head.error(format!("unknown key '{key}' on the 'pack' line")));
        }
        // A setting the line leaves out was written before it existed: its default.
        let mut settings = PackSettings::default();
        Line::Pack.read(head, &mut settings)?;
        if count > 128 {
            return Err(head.error(format!("{count} squares: there are 128")));
        }
        let checkpoint = PackCheckpoint {
            settings,
            pools,
            moves: 0,
            draws: 0,
            temperature: 0,
            cool: 0,
            length: 0,
            best_length: 0,
            squares: Vec::with_capacity(count),
        };
        Ok((checkpoint, count))
    }

    /// Reads a section's `pack-progress` line into the checkpoint.
    fn read_progress_line(&mut self, progress: &Record) -> Result<(), ReadError> {
        let iterations = self.settings.iterations;
        self.moves = progress.number("moves")?;
        if self.moves > iterations {
            return Err(progress.error(format!(
                "{} moves made, past the run's {iterations}",
                self.moves
            )));
        }
        self.draws = progress.number("draws")?;
        self.temperature = progress.hex("temperature")?;
        self.cool = progress.hex("cool")?;
        self.length = progress.number("length")? as usize;
        self.best_length = progress.number("best")? as usize;
        Ok(())
    }
}

/// Reads a section's `pack-square` lines, the rest of its lines: in order, at most `count`.
fn read_square_lines(lines: Lines, count: usize) -> Result<Vec<PackSquare>, ReadError> {
    let mut lines = lines;
    let mut squares: Vec<PackSquare> = Vec::with_capacity(count);
    while let Some(f) = lines.record("pack-square") {
        let f = f?;
        let (piece, sq) = f.piece_square(0)?;
        let square = SetSquare { piece, square: sq }.index();
        if squares.last().is_some_and(|last| last.square >= square) {
            return Err(f.error(format!(
                "{piece} {} is out of order (squares go rook a1 to bishop h8, once each)",
                f.word(1)?
            )));
        }
        if squares.len() == count {
            return Err(f.error(format!("more squares than the {count} of its 'pack' line")));
        }
        squares.push(PackSquare {
            square,
            place: f.number("place")? as usize,
            member: f.number("member")? as usize,
            best_place: f.number("best-place")? as usize,
            best_member: f.number("best-member")? as usize,
            starts: match f.optional("start") {
                Some(_) => Some((
                    f.number("start")? as usize,
                    f.number("best-start")? as usize,
                )),
                None => None,
            },
        });
    }
    Ok(squares)
}
