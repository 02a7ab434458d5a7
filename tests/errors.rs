//! The crate's error types work with `?` in code that returns `Box<dyn Error>`, the way an
//! engine's UCI or FEN reader is usually written.

use std::error::Error;

use magic_bitboards::{ParseSquareError, Square, SquareOutOfRange};

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
