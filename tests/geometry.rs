//! The non-magic tables and the `Square` type, against independent computations.

use magic_bitboards::*;
use magic_gen::{empty_board_attacks, parse_square, square_name, Piece};

/// The square `(df, dr)` away from `sq`, if on the board.
fn step(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = sq.file() as i8 + df;
    let r = sq.rank() as i8 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Square::from_file_rank(f as u8, r as u8)
    } else {
        None
    }
}

fn leaper(sq: Square, deltas: &[(i8, i8)]) -> u64 {
    deltas
        .iter()
        .filter_map(|&(df, dr)| step(sq, df, dr))
        .fold(0, |b, s| b | s.bit())
}

#[test]
fn leapers() {
    for sq in Square::ALL {
        let knight = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        assert_eq!(knight_attacks(sq), leaper(sq, &knight), "knight {sq}");
        let king = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        assert_eq!(king_attacks(sq), leaper(sq, &king), "king {sq}");
        assert_eq!(
            pawn_attacks(Color::White, sq),
            leaper(sq, &[(-1, 1), (1, 1)]),
            "{sq}"
        );
        assert_eq!(
            pawn_attacks(Color::Black, sq),
            leaper(sq, &[(-1, -1), (1, -1)]),
            "{sq}"
        );
    }
}

#[test]
fn rays_are_empty_board_attacks() {
    for sq in Square::ALL {
        let i = sq.index() as u8;
        assert_eq!(rook_rays(sq), empty_board_attacks(Piece::Rook, i));
        assert_eq!(bishop_rays(sq), empty_board_attacks(Piece::Bishop, i));
    }
}

#[test]
fn between_and_line_follow_the_eight_directions() {
    let dirs = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    for a in Square::ALL {
        let mut expected_between = [0u64; 64];
        let mut expected_line = [0u64; 64];
        for (df, dr) in dirs {
            // The full line through a in this direction, both ways.
            let mut full = a.bit();
            for sign in [1, -1] {
                let mut s = a;
                while let Some(n) = step(s, df * sign, dr * sign) {
                    full |= n.bit();
                    s = n;
                }
            }
            let mut s = a;
            let mut passed = 0u64;
            while let Some(b) = step(s, df, dr) {
                expected_between[b.index()] = passed;
                expected_line[b.index()] = full;
                passed |= b.bit();
                s = b;
            }
        }
        for b in Square::ALL {
            assert_eq!(
                between(a, b),
                expected_between[b.index()],
                "between {a} {b}"
            );
            assert_eq!(line(a, b), expected_line[b.index()], "line {a} {b}");
            assert_eq!(between(a, b), between(b, a));
            assert_eq!(line(a, b), line(b, a));
        }
        assert_eq!(line(a, a), 0);
        assert_eq!(between(a, a), 0);
    }
}

#[test]
fn square_conversions() {
    for (i, sq) in Square::ALL.into_iter().enumerate() {
        assert_eq!(sq.index(), i);
        assert_eq!(u8::from(sq) as usize, i);
        assert_eq!(usize::from(sq), i);
        assert_eq!(Square::new(i as u8), Some(sq));
        assert_eq!(Square::try_from(i), Ok(sq));
        assert_eq!(sq.bit(), 1 << i);
        assert_eq!(
            Square::from_file_rank(sq.file() as u8, sq.rank() as u8),
            Some(sq)
        );
        let name = sq.to_string();
        assert_eq!(name, square_name(i as u8));
        assert_eq!(name.parse::<Square>(), Ok(sq));
        assert_eq!(name.to_uppercase().parse::<Square>(), Ok(sq));
    }
    for i in 64..=255u8 {
        assert_eq!(Square::new(i), None);
        assert_eq!(Square::try_from(i), Err(SquareOutOfRange));
    }
    assert_eq!(Square::try_from(usize::MAX), Err(SquareOutOfRange));
    assert_eq!(Square::from_file_rank(8, 0), None);
    assert_eq!(Square::from_file_rank(0, 255), None);
    // Every two-byte string and some odd ones parse exactly when magic-gen's parser agrees.
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            let bytes = [a, b];
            if let Ok(s) = core::str::from_utf8(&bytes) {
                let ours = s.parse::<Square>().ok().map(|sq| sq.index() as u8);
                assert_eq!(ours, parse_square(s), "{s:?}");
            }
        }
    }
    for bad in ["", "e", "e44", "é4", "e4 ", " e4", "\u{0}4"] {
        assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad:?}");
    }
    assert_eq!(!Color::White, Color::Black);
    assert_eq!(Color::Black.opposite(), Color::White);
}
