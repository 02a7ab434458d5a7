//! Credits: which squares of a set hold magics another author published, and whose they
//! are. One `credit: AUTHORS | SOURCE | SQUARES` header line each, in both set formats;
//! the line is specified in `docs/formats.md` ("Credits").

use core::fmt;

use crate::geometry::{parse_square, square_name, Piece};

/// Some of the 128 piece-squares of a set: bit `sq` of `bits[piece.index()]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Squares {
    /// Rook squares, then bishop squares, a1 = bit 0.
    pub bits: [u64; 2],
}

impl Squares {
    /// All 128 squares: a whole published set.
    pub const ALL: Squares = Squares {
        bits: [u64::MAX; 2],
    };

    /// Returns true if `sq` of `piece` is one of these squares.
    pub fn contains(&self, piece: Piece, sq: u8) -> bool {
        self.bits[piece.index()] >> sq & 1 == 1
    }

    /// Adds `sq` of `piece`.
    pub fn insert(&mut self, piece: Piece, sq: u8) {
        self.bits[piece.index()] |= 1 << sq;
    }

    /// Returns how many squares of `piece` these are.
    pub fn count(&self, piece: Piece) -> u32 {
        self.bits[piece.index()].count_ones()
    }

    /// Returns true if there are none.
    pub fn is_empty(&self) -> bool {
        self.bits == [0; 2]
    }

    /// Returns the squares of `piece`, a1 first.
    fn of(&self, piece: Piece) -> impl Iterator<Item = u8> + '_ {
        (0..64u8).filter(move |&sq| self.contains(piece, sq))
    }
}

impl fmt::Display for Squares {
    /// `all`, or each piece's squares with their count: `rook a1 c1 (2), bishop h8 (1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Squares::ALL {
            return f.write_str("all");
        }
        let mut groups = Vec::new();
        for piece in Piece::ALL.into_iter().filter(|&p| self.count(p) > 0) {
            let names: Vec<String> = self.of(piece).map(square_name).collect();
            groups.push(format!("{piece} {} ({})", names.join(" "), names.len()));
        }
        f.write_str(&groups.join(", "))
    }
}

/// Magics of a set that another author published: whose they are, where they were
/// published, and which squares of the set hold them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credit {
    /// Who found them, e.g. `Volker Annuss, improved by Niklas Fiekas`; `not recorded`
    /// where the set they came from did not say.
    pub authors: String,
    /// Where they were published (a forum thread, the crates that ship them), or the file
    /// they were read from where that file did not say.
    pub source: String,
    /// The squares that hold them.
    pub squares: Squares,
}

/// The authors of magics taken from a set file whose header credits no one for them.
pub(crate) const NOT_RECORDED: &str = "not recorded";

/// Why a `credit:` header line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CreditError {
    /// Not three fields separated by ` | `.
    Fields {
        /// How many fields there were.
        found: usize,
    },
    /// The authors or the source is empty.
    Empty {
        /// `authors` or `source`.
        field: &'static str,
    },
    /// A word that should be `rook` or `bishop`.
    Piece {
        /// The word found.
        word: String,
    },
    /// A piece's squares given twice.
    PieceTwice {
        /// The piece.
        piece: Piece,
    },
    /// A word that should be a square (`a1`..`h8`) or the `(N)` that ends a piece's squares.
    Square {
        /// The word found.
        word: String,
    },
    /// A square listed twice, or credited by two lines.
    SquareTwice {
        /// The piece.
        piece: Piece,
        /// The square, a1 = 0.
        square: u8,
    },
    /// A piece's squares without their `(N)`, or with a count they do not have.
    Count {
        /// The piece.
        piece: Piece,
        /// The count the line gives, if any.
        said: Option<String>,
        /// The squares listed.
        found: u32,
    },
    /// No square at all.
    NoSquares,
}

impl fmt::Display for CreditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CreditError::Fields { found } => write!(
                f,
                "expected 'credit: AUTHORS | SOURCE | SQUARES', found {found} field(s)"
            ),
            CreditError::Empty { field } => write!(f, "credit with no {field}"),
            CreditError::Piece { word } => {
                write!(f, "credit: unknown piece '{word}' (rook or bishop)")
            }
            CreditError::PieceTwice { piece } => {
                write!(f, "credit: the {piece} squares are listed twice")
            }
            CreditError::Square { word } => {
                write!(f, "credit: unknown square '{word}' (a1..h8)")
            }
            CreditError::SquareTwice { piece, square } => write!(
                f,
                "credit: {piece} {} is credited twice",
                square_name(*square)
            ),
            CreditError::Count { piece, said, found } => match said {
                Some(said) => write!(
                    f,
                    "credit: the {piece} squares end with ({said}), but {found} are listed"
                ),
                None => write!(
                    f,
                    "credit: the {piece} squares must end with their count, ({found})"
                ),
            },
            CreditError::NoSquares => write!(f, "credit names no square"),
        }
    }
}

impl Credit {
    /// The credit of the `squares` taken from the set file `file`, whose header does not
    /// say whose they are: the file is all that is known of their source.
    pub fn unrecorded(file: &str, squares: Squares) -> Credit {
        Credit {
            authors: NOT_RECORDED.to_string(),
            // The field separator and line breaks would change the line's shape.
            source: file.replace('|', "/").replace(['\n', '\r'], " "),
            squares,
        }
    }

    /// Returns the header line's value (after `credit: `).
    pub fn line(&self) -> String {
        format!("{} | {} | {}", self.authors, self.source, self.squares)
    }

    /// Reads a header line's value (after `credit: `).
    pub(crate) fn parse(text: &str) -> Result<Credit, CreditError> {
        let fields: Vec<&str> = text.split(" | ").map(str::trim).collect();
        let [authors, source, squares] = fields[..] else {
            return Err(CreditError::Fields {
                found: fields.len(),
            });
        };
        for (field, value) in [("authors", authors), ("source", source)] {
            if value.is_empty() {
                return Err(CreditError::Empty { field });
            }
        }
        Ok(Credit {
            authors: authors.to_string(),
            source: source.to_string(),
            squares: parse_squares(squares)?,
        })
    }
}

/// Reads `all` or `PIECE SQUARE... (N)` groups separated by commas.
fn parse_squares(text: &str) -> Result<Squares, CreditError> {
    if text == "all" {
        return Ok(Squares::ALL);
    }
    let mut squares = Squares::default();
    let mut seen = Vec::new();
    for group in text.split(',').filter(|g| !g.trim().is_empty()) {
        let mut words = group.split_whitespace();
        let word = words.next().unwrap_or_default();
        let piece = Piece::parse(word).ok_or_else(|| CreditError::Piece {
            word: word.to_string(),
        })?;
        if seen.contains(&piece) {
            return Err(CreditError::PieceTwice { piece });
        }
        seen.push(piece);
        let mut said = None;
        for word in words {
            if said.is_some() {
                return Err(CreditError::Square {
                    word: word.to_string(),
                });
            }
            if let Some(count) = word.strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
                said = Some(count.to_string());
                continue;
            }
            let sq = parse_square(word).ok_or_else(|| CreditError::Square {
                word: word.to_string(),
            })?;
            if squares.contains(piece, sq) {
                return Err(CreditError::SquareTwice { piece, square: sq });
            }
            squares.insert(piece, sq);
        }
        let found = squares.count(piece);
        if said.as_deref() != Some(found.to_string().as_str()) {
            return Err(CreditError::Count { piece, said, found });
        }
    }
    if squares.is_empty() {
        return Err(CreditError::NoSquares);
    }
    Ok(squares)
}
