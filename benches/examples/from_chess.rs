//! Moving from the `chess` crate's lookups to magic-bitboards: each `chess` call next to
//! its counterpart, checked to give the same bitboard (docs/migration.md has the table).
//!
//! `cargo run -p magic-bitboards-benches --example from_chess`; `cargo test` runs it.

use chess::{
    BitBoard, Color as ChessColor, Square as ChessSquare, ALL_FILES, ALL_RANKS, ALL_SQUARES,
};
use magic_bitboards::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks, rook_rays, squares, Color, File, Rank, Square,
};

/// chess's square as ours: both number a1 = 0 to h8 = 63.
fn ours(sq: ChessSquare) -> Square {
    Square::from_index_masked(sq.to_index() as u8)
}

/// Our square as chess's (its `Square::new` is `unsafe`; the table lookup is not).
fn theirs(sq: Square) -> ChessSquare {
    ALL_SQUARES[sq.index()]
}

/// Occupancies from empty to nearly full, from a fixed xorshift so that runs repeat.
fn occupancies() -> impl Iterator<Item = u64> {
    let mut x = 0x6a09_e667_f3bc_c909u64;
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
        let csq = theirs(sq);
        assert_eq!(ours(csq), sq);
        for occ in occupancies() {
            let blockers = BitBoard(occ); // chess wraps the u64; `.0` unwraps it
                                          // get_rook_moves(square, blockers) -> rook_attacks(square, occupied); the
                                          // `_bmi` forms have no counterpart, as the crate picks PEXT by itself.
            assert_eq!(
                rook_attacks(sq, occ),
                chess::get_rook_moves(csq, blockers).0
            );
            assert_eq!(
                bishop_attacks(sq, occ),
                chess::get_bishop_moves(csq, blockers).0
            );
            let queen =
                chess::get_rook_moves(csq, blockers) | chess::get_bishop_moves(csq, blockers);
            assert_eq!(queen_attacks(sq, occ), queen.0);
            // get_pawn_attacks(square, color, victims) keeps only the victims' squares:
            // pawn_attacks(color, square) & victims.
            for (color, ccolor) in [
                (Color::White, ChessColor::White),
                (Color::Black, ChessColor::Black),
            ] {
                assert_eq!(
                    pawn_attacks(color, sq) & occ,
                    chess::get_pawn_attacks(csq, ccolor, blockers).0
                );
            }
            lookups += 5;
        }
        assert_eq!(knight_attacks(sq), chess::get_knight_moves(csq).0);
        assert_eq!(king_attacks(sq), chess::get_king_moves(csq).0);
        assert_eq!(rook_rays(sq), chess::get_rook_rays(csq).0);
        assert_eq!(bishop_rays(sq), chess::get_bishop_rays(csq).0);
        for other in Square::ALL {
            let cother = theirs(other);
            assert_eq!(between(sq, other), chess::between(csq, cother).0);
            assert_eq!(line(sq, other), chess::line(csq, cother).0);
        }
        lookups += 4 + 2 * 64;
    }
    // get_file / get_rank -> File::bitboard / Rank::bitboard.
    for (i, (file, rank)) in File::ALL.into_iter().zip(Rank::ALL).enumerate() {
        assert_eq!(file.bitboard(), chess::get_file(ALL_FILES[i]).0);
        assert_eq!(rank.bitboard(), chess::get_rank(ALL_RANKS[i]).0);
        lookups += 2;
    }
    // Iterating a bitboard: `for sq in bitboard` -> `for sq in squares(u64)`, same order.
    let bb = chess::get_knight_moves(ChessSquare::G1);
    let theirs_in_order: Vec<Square> = bb.into_iter().map(ours).collect();
    let ours_in_order: Vec<Square> = squares(bb.0).collect();
    assert_eq!(ours_in_order, theirs_in_order);
    println!("magic-bitboards gave chess's bitboard in all {lookups} lookups");
}

#[test]
fn gives_the_same_bitboards_as_chess() {
    main();
}
