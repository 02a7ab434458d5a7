//! The crate's error types work with `?` in code that returns `Box<dyn Error>`, the way an
//! engine's UCI or FEN reader is usually written.

use std::error::Error;

use magic_bitboards::{
    Color, File, ParseColorError, ParseFileError, ParseRankError, ParseSquareError, Rank, Square,
    SquareOutOfRange,
};

/// Parses a UCI move such as `e2e4` into its two squares, and the square of a bit index.
/// Compiles only if both error types convert into `Box<dyn Error>`.
fn uci_move(text: &str, bit: u32) -> Result<(Square, Square, Square), Box<dyn Error>> {
    let from: Square = text.get(..2).unwrap_or("").parse()?;
    let to: Square = text.get(2..).unwrap_or("").parse()?;
    let sq = Square::try_from(bit)?;
    Ok((from, to, sq))
}

#[test]
fn square_errors_pass_through_question_mark_into_box_dyn_error() {
    assert_eq!(
        uci_move("e2e4", 63).ok(),
        Some((Square::E2, Square::E4, Square::H8))
    );
    let bad_name = uci_move("e2e9", 0).unwrap_err();
    assert!(bad_name.is::<ParseSquareError>(), "{bad_name:?}");
    assert!(bad_name.to_string().contains("not a square name"));
    let bad_index = uci_move("e2e4", 64).unwrap_err();
    assert!(bad_index.is::<SquareOutOfRange>(), "{bad_index:?}");
    assert_eq!(bad_index.to_string(), "square index out of range 0..64");
    // Neither wraps another error.
    assert!(bad_name.source().is_none() && bad_index.source().is_none());
}

/// Reads `side file rank`, e.g. `w e 4`, as a UCI `go` option or a puzzle file might hold it.
fn side_file_rank(text: &str) -> Result<(Color, File, Rank), Box<dyn Error>> {
    let mut words = text.split(' ');
    let mut next = || words.next().unwrap_or("");
    Ok((next().parse()?, next().parse()?, next().parse()?))
}

#[test]
fn coordinate_errors_pass_through_question_mark_into_box_dyn_error() {
    assert_eq!(
        side_file_rank("b e 4").ok(),
        Some((Color::Black, File::E, Rank::Fourth))
    );
    let colour = side_file_rank("red e 4").unwrap_err();
    assert!(colour.is::<ParseColorError>(), "{colour:?}");
    let file = side_file_rank("w j 4").unwrap_err();
    assert!(file.is::<ParseFileError>(), "{file:?}");
    let rank = side_file_rank("w e 0").unwrap_err();
    assert!(rank.is::<ParseRankError>(), "{rank:?}");
    for (e, says) in [
        (colour, "not a colour"),
        (file, "not a file"),
        (rank, "not a rank"),
    ] {
        assert!(e.to_string().starts_with(says), "{e}");
    }
}
