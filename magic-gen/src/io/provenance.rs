//! Where a set came from: the provenance its header records, in either set format.

use crate::geometry::Piece;
use crate::set::MagicSet;

use super::credit::{Credit, CreditError, Squares};
use super::step::{Step, StepError};

/// Where a set came from, recorded in the emitted header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The search seed, if the set was searched.
    pub seed: Option<u64>,
    /// The commands that produced the set, in order (a search, then the `emit` or `pack`
    /// of its output), written on the header's `command:` line ([`Step::chain_line`]). The
    /// last one wrote the file.
    pub steps: Vec<Step>,
    /// Set when the commands did not run to their end (an interrupted scan or packing), or
    /// a merge took only some shards: what was done and the command that finishes it. Such
    /// a set is not what its command gives, so no committed set may carry it.
    pub unfinished: Option<String>,
    /// The squares whose magics other authors published, one credit per source (no square
    /// in two): kept by every command that copies the header, and added to by `pack
    /// --also`, which knows the squares that took another set's magic
    /// ([`Provenance::credit_taken`]).
    pub credits: Vec<Credit>,
}

/// A set read from a file, with its header: one whose magics another set may take.
#[derive(Clone, Copy, Debug)]
pub struct CreditedSet<'a> {
    /// The file, as named to the command: the credit of the squares its header credits to
    /// no one.
    pub file: &'a str,
    /// The set.
    pub set: &'a MagicSet,
    /// Its header.
    pub provenance: &'a Provenance,
}

impl Provenance {
    /// Returns this provenance with `step`, the command of a run that took the set as its
    /// input, after the commands that made it; the seed and any unfinished note carry
    /// over, since the step changes neither how the magics were found nor whether their run
    /// ended.
    pub fn then(&self, step: Step) -> Provenance {
        let mut after = self.clone();
        after.steps.push(step);
        after
    }

    /// Reads one header line (without its comment marker, e.g. `seed: 1`) into this
    /// provenance; returns false for a line that is not one of its fields.
    pub(crate) fn read_header_line(&mut self, text: &str) -> Result<bool, HeaderError> {
        if let Some(c) = text.strip_prefix("command: ") {
            self.steps = Step::parse_chain(c)?;
        } else if let Some(s) = text.strip_prefix("seed: ") {
            self.seed = Some(s.parse().map_err(|_| HeaderError::Seed(s.to_string()))?);
        } else if let Some(u) = text.strip_prefix("unfinished: ") {
            self.unfinished = Some(u.to_string());
        } else if let Some(c) = text.strip_prefix("credit: ") {
            let credit = Credit::parse(c)?;
            if let Some((piece, square)) = self.first_credited(credit.squares) {
                return Err(CreditError::SquareTwice { piece, square }.into());
            }
            self.credit(credit);
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// Returns the header lines of this provenance, without comment markers.
    pub(crate) fn header_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.steps.is_empty() {
            lines.push(format!("command: {}", Step::chain_line(&self.steps)));
        }
        if let Some(s) = self.seed {
            lines.push(format!("seed: {s}"));
        }
        for credit in &self.credits {
            lines.push(format!("credit: {}", credit.line()));
        }
        if let Some(u) = &self.unfinished {
            lines.push(format!("unfinished: {u}"));
        }
        lines
    }

    /// Returns the credit of `sq` of `piece`, if another author's magic is there.
    pub fn credit_of(&self, piece: Piece, sq: u8) -> Option<&Credit> {
        self.credits.iter().find(|c| c.squares.contains(piece, sq))
    }

    /// Returns the first of `squares` that a credit names already.
    fn first_credited(&self, squares: Squares) -> Option<(Piece, u8)> {
        Piece::ALL.into_iter().find_map(|piece| {
            (0..64u8)
                .find(|&sq| squares.contains(piece, sq) && self.credit_of(piece, sq).is_some())
                .map(|sq| (piece, sq))
        })
    }

    /// Adds `credit`: its squares leave any other credit (their magics are now its), and
    /// join an existing credit of the same authors and source.
    pub fn credit(&mut self, credit: Credit) {
        for other in &mut self.credits {
            for piece in Piece::ALL {
                other.squares.bits[piece.index()] &= !credit.squares.bits[piece.index()];
            }
        }
        self.credits.retain(|c| !c.squares.is_empty());
        let same = |c: &&mut Credit| (&c.authors, &c.source) == (&credit.authors, &credit.source);
        match self.credits.iter_mut().find(same) {
            Some(c) => {
                for piece in Piece::ALL {
                    c.squares.bits[piece.index()] |= credit.squares.bits[piece.index()];
                }
            }
            None => self.credits.push(credit),
        }
    }

    /// Credits the magics of `after`, a set made from `before` (whose header this is) with
    /// the magics of the sets `others` to choose from: a square that kept `before`'s magic
    /// keeps its credit; one that took the magic of one of `others` (the first that has it)
    /// takes that set's credit of the square, or, where its header gives none, a credit
    /// naming its file, the authors "not recorded"
    /// ([`Credit::unrecorded`](super::Credit::unrecorded)), unless that set was found by
    /// this generator ([`Provenance::found_here`]): its uncredited magics are this
    /// project's own. A square with a magic of none of them (found for it anew) has no
    /// credit.
    pub fn credit_taken(&mut self, before: &MagicSet, after: &MagicSet, others: &[CreditedSet]) {
        let key = |set: &MagicSet, piece: Piece, sq: u8| {
            let e = set.entry(piece, sq);
            (e.magic, e.bits)
        };
        let old = std::mem::take(&mut self.credits);
        // The credits kept first, in their order, then the new ones.
        for mut credit in old {
            for piece in Piece::ALL {
                for sq in 0..64u8 {
                    if key(after, piece, sq) != key(before, piece, sq) {
                        credit.squares.bits[piece.index()] &= !(1 << sq);
                    }
                }
            }
            if !credit.squares.is_empty() {
                self.credit(credit);
            }
        }
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let now = key(after, piece, sq);
                if now == key(before, piece, sq) {
                    continue;
                }
                let Some(other) = others.iter().find(|o| key(o.set, piece, sq) == now) else {
                    continue;
                };
                let mut square = Squares::default();
                square.insert(piece, sq);
                match other.provenance.credit_of(piece, sq) {
                    Some(c) => self.credit(Credit {
                        squares: square,
                        ..c.clone()
                    }),
                    None if other.provenance.found_here() => {}
                    None => self.credit(Credit::unrecorded(other.file, square)),
                }
            }
        }
    }

    /// Returns whether the set was found by this generator: its header's first step is a
    /// `magic-gen search` (a merge's header starts with its shards' searches), so a magic
    /// it holds that its credits do not name is the search's own.
    pub fn found_here(&self) -> bool {
        self.steps
            .first()
            .is_some_and(|s| s.subcommand() == Some("search"))
    }

    /// Returns each credit in words for a summary: `72 of 128 squares (rook 25, bishop
    /// 47): AUTHORS, SOURCE`.
    pub fn credit_summary(&self) -> Vec<String> {
        self.credits
            .iter()
            .map(|c| {
                let [rook, bishop] = Piece::ALL.map(|p| c.squares.count(p));
                format!(
                    "{} of 128 squares (rook {rook}, bishop {bishop}): {}; {}",
                    rook + bishop,
                    c.authors,
                    c.source
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Variant;

    /// A black set whose square `sq` of both pieces has magic `base + sq` (bits 12 and 9).
    fn set(base: u64) -> MagicSet {
        let mut set = MagicSet::new(Variant::Black);
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let e = set.entry_mut(piece, sq);
                (e.magic, e.bits) = (base + u64::from(sq), piece.fixed_bits());
            }
        }
        set
    }

    fn squares(list: &[(Piece, u8)]) -> Squares {
        let mut s = Squares::default();
        for &(piece, sq) in list {
            s.insert(piece, sq);
        }
        s
    }

    fn credit(authors: &str, list: &[(Piece, u8)]) -> Credit {
        Credit {
            authors: authors.to_string(),
            source: format!("{authors}'s thread, 2017"),
            squares: squares(list),
        }
    }

    #[test]
    fn a_credit_line_reads_back_as_written() {
        use Piece::{Bishop, Rook};
        for c in [
            credit(
                "A. Author, improved by B",
                &[(Rook, 0), (Rook, 63), (Bishop, 9)],
            ),
            credit("A", &[(Bishop, 7)]),
            Credit {
                squares: Squares::ALL,
                ..credit("A", &[])
            },
        ] {
            assert_eq!(Credit::parse(&c.line()), Ok(c.clone()), "{}", c.line());
        }
        let c = credit("A", &[(Rook, 0), (Rook, 2), (Bishop, 63)]);
        assert_eq!(
            c.line(),
            "A | A's thread, 2017 | rook a1 c1 (2), bishop h8 (1)"
        );
        let mut p = Provenance::default();
        assert_eq!(
            p.read_header_line(&format!("credit: {}", c.line())),
            Ok(true)
        );
        assert_eq!(p.credits, [c]);
        assert_eq!(
            p.header_lines()[0],
            format!("credit: {}", p.credits[0].line())
        );
    }

    #[test]
    fn a_bad_credit_line_says_what_is_wrong() {
        let bad = [
            ("A | B", "found 2 field(s)"),
            (" | B | all", "no authors"),
            ("A | B | knight a1 (1)", "unknown piece 'knight'"),
            ("A | B | rook a9 (1)", "unknown square 'a9'"),
            ("A | B | rook a1 a1 (2)", "rook a1 is credited twice"),
            ("A | B | rook a1 (2)", "end with (2), but 1 are listed"),
            ("A | B | rook a1", "must end with their count, (1)"),
            ("A | B | rook a1 (1) b1", "unknown square 'b1'"),
            (
                "A | B | rook a1 (1), rook b1 (1)",
                "rook squares are listed twice",
            ),
            ("A | B | ", "names no square"),
        ];
        for (line, message) in bad {
            let e = Provenance::default().read_header_line(&format!("credit: {line}"));
            assert!(
                e.as_ref().is_err_and(|e| e.to_string().contains(message)),
                "{line}: {e:?}"
            );
        }
        // Two lines may not credit one square.
        let mut p = Provenance::default();
        p.read_header_line("credit: A | B | rook a1 b1 (2)")
            .unwrap();
        let e = p
            .read_header_line("credit: C | D | rook b1 (1)")
            .unwrap_err();
        assert_eq!(
            e,
            HeaderError::Credit(CreditError::SquareTwice {
                piece: Piece::Rook,
                square: 1 // b1
            })
        );
    }

    #[test]
    fn credits_merge_per_source_and_a_square_has_one() {
        use Piece::{Bishop, Rook};
        let mut p = Provenance::default();
        p.credit(credit("A", &[(Rook, 0), (Rook, 1)]));
        p.credit(credit("B", &[(Rook, 1), (Bishop, 5)]));
        p.credit(credit("A", &[(Bishop, 6)]));
        assert_eq!(
            p.credits,
            [
                credit("A", &[(Rook, 0), (Bishop, 6)]),
                credit("B", &[(Rook, 1), (Bishop, 5)])
            ]
        );
        // A credit that takes every square of another leaves no empty one behind.
        p.credit(credit("C", &[(Rook, 0), (Bishop, 6)]));
        assert_eq!(p.credits.len(), 2);
        assert_eq!(p.credit_of(Rook, 0).unwrap().authors, "C");
        assert!(p.credit_of(Rook, 2).is_none());
    }

    #[test]
    fn taken_squares_take_their_sets_credit_and_changed_ones_lose_theirs() {
        use Piece::{Bishop, Rook};
        let before = set(0x1000);
        let (credited, uncredited) = (set(0x2000), set(0x3000));
        let mut header = Provenance::default();
        header.credit(credit("Old", &[(Rook, 0), (Rook, 1), (Rook, 2)]));
        let mut other_header = Provenance::default();
        other_header.credit(credit("Published", &[(Rook, 3), (Bishop, 4), (Bishop, 8)]));
        // Rook a1 keeps its magic, b1 takes the credited set's (which credits none there),
        // c1 a new magic, d1 and bishop e1 the credited set's credited ones, bishop f1 the
        // uncredited set's.
        let mut after = before.clone();
        after.entry_mut(Rook, 1).magic = credited.entry(Rook, 1).magic;
        after.entry_mut(Rook, 2).magic = 7;
        after.entry_mut(Rook, 3).magic = credited.entry(Rook, 3).magic;
        after.entry_mut(Bishop, 4).magic = credited.entry(Bishop, 4).magic;
        after.entry_mut(Bishop, 5).magic = uncredited.entry(Bishop, 5).magic;
        // Bishop g1 takes a magic of a set this generator found: this project's own.
        let ours = set(0x4000);
        after.entry_mut(Bishop, 6).magic = ours.entry(Bishop, 6).magic;
        let found = Provenance {
            steps: Step::parse_chain("magic-gen search --variant black --seed 1").unwrap(),
            ..Provenance::default()
        };
        assert!(found.found_here() && !other_header.found_here());
        let empty = Provenance::default();
        let others = [
            CreditedSet {
                file: "credited.txt",
                set: &credited,
                provenance: &other_header,
            },
            CreditedSet {
                file: "dir/un|credited.txt",
                set: &uncredited,
                provenance: &empty,
            },
            CreditedSet {
                file: "ours.rs",
                set: &ours,
                provenance: &found,
            },
        ];
        header.credit_taken(&before, &after, &others);
        let unrecorded = |list| Credit::unrecorded("credited.txt", squares(list));
        assert_eq!(
            header.credits,
            [
                credit("Old", &[(Rook, 0)]),
                unrecorded(&[(Rook, 1)]),
                credit("Published", &[(Rook, 3), (Bishop, 4)]),
                Credit::unrecorded("dir/un/credited.txt", squares(&[(Bishop, 5)])),
            ]
        );
        assert_eq!(header.credits[1].authors, crate::io::credit::NOT_RECORDED);
        assert_eq!(
            header.credit_summary()[2],
            "2 of 128 squares (rook 1, bishop 1): Published; Published's thread, 2017"
        );
        // Nothing taken, nothing changed: the credits stay as they were.
        let mut again = header.clone();
        again.credit_taken(&after, &after, &others);
        assert_eq!(again, header);
    }
}

/// A header line that names one of a provenance's fields but cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// The seed is not a number: the text found.
    Seed(String),
    /// The credit line does not read, or credits a square twice.
    Credit(CreditError),
    /// The command line does not read as steps.
    Command(StepError),
}

impl From<StepError> for HeaderError {
    fn from(e: StepError) -> HeaderError {
        HeaderError::Command(e)
    }
}

impl From<CreditError> for HeaderError {
    fn from(e: CreditError) -> HeaderError {
        HeaderError::Credit(e)
    }
}

impl std::fmt::Display for HeaderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderError::Seed(s) => write!(f, "bad seed '{s}'"),
            HeaderError::Credit(e) => e.fmt(f),
            HeaderError::Command(e) => write!(f, "command: {e}"),
        }
    }
}

impl std::error::Error for HeaderError {}
