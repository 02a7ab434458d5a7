//! Moving from shakmaty's `attacks` module to magic-bitboards: each shakmaty call next to
//! its counterpart, checked to give the same bitboard (docs/migration.md has the table).
//!
//! `cargo run -p magic-bitboards-benches --example from_shakmaty`; `cargo test` runs it.

use magic_bitboards::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks, squares, Color, Square,
};
use shakmaty::{attacks, Bitboard, Color as ShakmatyColor, Square as ShakmatySquare};

/// shakmaty's square as ours: both number a1 = 0 to h8 = 63.
fn ours(sq: ShakmatySquare) -> Square {
    Square::from_index_masked(sq.to_u32() as u8)
}

/// Our square as shakmaty's.
fn theirs(sq: Square) -> ShakmatySquare {
    ShakmatySquare::new(sq.index() as u32)
}

/// Occupancies from empty to nearly full, from a fixed xorshift so that runs repeat.
fn occupancies() -> impl Iterator<Item = u64> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..300).map(move |i| match i % 3 {
        0 => next() & next() & next(),
        1 => next(),
        _ => next() | next(),
    })
}

fn main() {
    let mut lookups = 0;
    for sq in Square::ALL {
        let ssq = theirs(sq);
        assert_eq!(ours(ssq), sq);
        for occ in occupancies() {
            let occupied = Bitboard(occ); // shakmaty wraps the u64; `.0` or u64::from unwraps it
                                          // attacks::rook_attacks(square, occupied) -> rook_attacks(square, occupied)
            assert_eq!(
                rook_attacks(sq, occ),
                attacks::rook_attacks(ssq, occupied).0
            );
            assert_eq!(
                bishop_attacks(sq, occ),
                attacks::bishop_attacks(ssq, occupied).0
            );
            assert_eq!(
                queen_attacks(sq, occ),
                u64::from(attacks::queen_attacks(ssq, occupied))
            );
            lookups += 3;
        }
        assert_eq!(knight_attacks(sq), attacks::knight_attacks(ssq).0);
        assert_eq!(king_attacks(sq), attacks::king_attacks(ssq).0);
        // attacks::pawn_attacks(color, square): the same order as ours.
        for (color, scolor) in [
            (Color::White, ShakmatyColor::White),
            (Color::Black, ShakmatyColor::Black),
        ] {
            assert_eq!(
                pawn_attacks(color, sq),
                attacks::pawn_attacks(scolor, ssq).0
            );
        }
        for other in Square::ALL {
            let sother = theirs(other);
            // attacks::ray is the whole line through both squares, edge to edge: our
            // `line`, not a ray from one square through the other.
            assert_eq!(line(sq, other), attacks::ray(ssq, sother).0);
            assert_eq!(between(sq, other), attacks::between(ssq, sother).0);
            // attacks::aligned(a, b, c) -> line(a, b) & c.bit() != 0
            for third in [Square::A1, Square::D4, Square::E5, Square::H8, other] {
                assert_eq!(
                    line(sq, other) & third.bit() != 0,
                    attacks::aligned(ssq, sother, theirs(third))
                );
            }
        }
        lookups += 4 + 7 * 64;
    }
    // Iterating a bitboard: `for sq in bitboard` -> `for sq in squares(u64)`, same order.
    let bb = attacks::knight_attacks(ShakmatySquare::G1);
    let theirs_in_order: Vec<Square> = bb.into_iter().map(ours).collect();
    let ours_in_order: Vec<Square> = squares(bb.0).collect();
    assert_eq!(ours_in_order, theirs_in_order);
    println!("magic-bitboards gave shakmaty's bitboard in all {lookups} lookups");
}

#[test]
fn gives_the_same_bitboards_as_shakmaty() {
    main();
}
