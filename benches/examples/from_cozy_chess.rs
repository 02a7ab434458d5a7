//! Moving from cozy-chess's lookups to magic-bitboards: each cozy-chess call next to its
//! counterpart, checked to give the same bitboard (docs/migration.md has the table).
//!
//! `cargo run -p magic-bitboards-benches --example from_cozy_chess`; `cargo test` runs it.

use cozy_chess::{BitBoard, Color as CozyColor, Square as CozySquare};
use magic_bitboards::{
    between, bishop_attacks, bishop_attacks_const, bishop_rays, king_attacks, knight_attacks, line,
    pawn_attacks, queen_attacks, rook_attacks, rook_attacks_const, rook_rays, squares, Color,
    Square,
};

/// cozy-chess's square as ours: both number a1 = 0 to h8 = 63.
fn ours(sq: CozySquare) -> Square {
    Square::from_index_masked(sq as u8)
}

/// Our square as cozy-chess's.
fn theirs(sq: Square) -> CozySquare {
    CozySquare::index(sq.index())
}

/// Occupancies from empty to nearly full, from a fixed xorshift so that runs repeat.
fn occupancies() -> impl Iterator<Item = u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..300).map(move |i| match i % 3 {
        0 => next() & next() & next(), // sparse, as in a middlegame
        1 => next(),
        _ => next() | next(),
    })
}

fn main() {
    let mut lookups = 0;
    for sq in Square::ALL {
        let csq = theirs(sq);
        assert_eq!(ours(csq), sq);
        for occ in occupancies() {
            let blockers = BitBoard(occ); // cozy-chess wraps the u64; `.0` unwraps it
                                          // get_rook_moves(square, blockers) -> rook_attacks(square, occupied)
            assert_eq!(
                rook_attacks(sq, occ),
                cozy_chess::get_rook_moves(csq, blockers).0
            );
            assert_eq!(
                bishop_attacks(sq, occ),
                cozy_chess::get_bishop_moves(csq, blockers).0
            );
            // cozy-chess has no queen lookup: it is the two together in both crates.
            let queen = cozy_chess::get_rook_moves(csq, blockers)
                | cozy_chess::get_bishop_moves(csq, blockers);
            assert_eq!(queen_attacks(sq, occ), queen.0);
            // The const fn forms: get_*_moves_const -> *_attacks_const.
            assert_eq!(
                rook_attacks_const(sq, occ),
                cozy_chess::get_rook_moves_const(csq, blockers).0
            );
            assert_eq!(
                bishop_attacks_const(sq, occ),
                cozy_chess::get_bishop_moves_const(csq, blockers).0
            );
            lookups += 5;
        }
        assert_eq!(knight_attacks(sq), cozy_chess::get_knight_moves(csq).0);
        assert_eq!(king_attacks(sq), cozy_chess::get_king_moves(csq).0);
        assert_eq!(rook_rays(sq), cozy_chess::get_rook_rays(csq).0);
        assert_eq!(bishop_rays(sq), cozy_chess::get_bishop_rays(csq).0);
        // get_pawn_attacks(square, color) -> pawn_attacks(color, square): the order differs.
        for (color, ccolor) in [
            (Color::White, CozyColor::White),
            (Color::Black, CozyColor::Black),
        ] {
            assert_eq!(
                pawn_attacks(color, sq),
                cozy_chess::get_pawn_attacks(csq, ccolor).0
            );
        }
        for other in Square::ALL {
            let cother = theirs(other);
            // get_between_rays -> between; get_line_rays -> line (edge to edge, both ends
            // included; empty when not aligned or equal, in both crates).
            assert_eq!(
                between(sq, other),
                cozy_chess::get_between_rays(csq, cother).0
            );
            assert_eq!(line(sq, other), cozy_chess::get_line_rays(csq, cother).0);
        }
        lookups += 6 + 2 * 64;
    }
    // Iterating a bitboard: `for sq in bitboard` -> `for sq in squares(u64)`, same order.
    let bb = cozy_chess::get_knight_moves(CozySquare::G1);
    let theirs_in_order: Vec<Square> = bb.into_iter().map(ours).collect();
    let ours_in_order: Vec<Square> = squares(bb.0).collect();
    assert_eq!(ours_in_order, theirs_in_order);
    println!("magic-bitboards gave cozy-chess's bitboard in all {lookups} lookups");
}

#[test]
fn gives_the_same_bitboards_as_cozy_chess() {
    main();
}
