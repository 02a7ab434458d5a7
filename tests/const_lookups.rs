//! The `const fn` lookups evaluated in const items, against their run-time calls and the
//! ray walk: geometry (leapers, rays, `between`, `line`) on every square and pair, the
//! crate-level `*_attacks_const` and every compiled `const fn` table backend on every
//! square with occupancies of every density. (Run-time calls of the same functions are
//! checked exhaustively in tests/backends.rs and tests/geometry.rs.)

use magic_bitboards::{
    between, bishop_attacks, bishop_attacks_const, bishop_rays, king_attacks, knight_attacks, line,
    pawn_attacks, queen_attacks, queen_attacks_const, rook_attacks, rook_attacks_const, rook_rays,
    Color, Square, BACKEND, CONST_BACKEND,
};
use magic_gen::{slow_attacks, Piece};

/// xorshift64 step, for const tables.
const fn step(x: u64) -> u64 {
    let x = x ^ (x << 13);
    let x = x ^ (x >> 7);
    x ^ (x << 17)
}

/// Eight occupancies: empty, full, and seeded sparse, half and dense boards.
const fn occupancies() -> [u64; 8] {
    let mut out = [0, u64::MAX, 0, 0, 0, 0, 0, 0];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut i = 2;
    while i < 8 {
        let a = step(x);
        let b = step(a);
        let c = step(b);
        x = c;
        out[i] = match i % 3 {
            0 => a & b & c,
            1 => a & b,
            _ => a | b,
        };
        i += 1;
    }
    out
}

const OCC: [u64; 8] = occupancies();

/// A lookup table over every square and every occupancy of [`OCC`], built at compile time.
macro_rules! const_table {
    ($f:path) => {{
        let mut t = [[0u64; 8]; 64];
        let mut sq = 0;
        while sq < 64 {
            let mut o = 0;
            while o < 8 {
                t[sq][o] = $f(Square::ALL[sq], OCC[o]);
                o += 1;
            }
            sq += 1;
        }
        t
    }};
}

/// Checks a const table of a slider lookup against the ray walk.
fn check_slider(name: &str, table: &[[u64; 8]; 64], pieces: &[Piece]) {
    for sq in Square::ALL {
        for (o, &occ) in OCC.iter().enumerate() {
            let want = pieces
                .iter()
                .fold(0, |a, &p| a | slow_attacks(p, sq.index() as u8, occ));
            assert_eq!(table[sq.index()][o], want, "{name} {sq} {occ:#018x}");
        }
    }
}

const ROOK: [[u64; 8]; 64] = const_table!(rook_attacks_const);
const BISHOP: [[u64; 8]; 64] = const_table!(bishop_attacks_const);
const QUEEN: [[u64; 8]; 64] = const_table!(queen_attacks_const);

#[test]
fn crate_level_const_lookups_match_the_run_time_ones_and_the_ray_walk() {
    check_slider("rook_attacks_const", &ROOK, &[Piece::Rook]);
    check_slider("bishop_attacks_const", &BISHOP, &[Piece::Bishop]);
    check_slider("queen_attacks_const", &QUEEN, &Piece::ALL);
    for sq in Square::ALL {
        for (o, &occ) in OCC.iter().enumerate() {
            assert_eq!(ROOK[sq.index()][o], rook_attacks(sq, occ));
            assert_eq!(BISHOP[sq.index()][o], bishop_attacks(sq, occ));
            assert_eq!(QUEEN[sq.index()][o], queen_attacks(sq, occ));
        }
    }
    println!("crate-level {BACKEND}, const {CONST_BACKEND}");
}

/// Every compiled `const fn` backend module, each in const items.
macro_rules! const_backends {
    ($($feature:literal: $module:ident),*) => {
        #[test]
        fn every_const_backend_module_matches_the_ray_walk_in_const_items() {
            #[allow(unused_mut)] // Nothing is pushed without backend features.
            let mut checked = Vec::<&str>::new();
            $(
                #[cfg(feature = $feature)]
                {
                    use magic_bitboards::$module as m;
                    const ROOK: [[u64; 8]; 64] = const_table!(m::rook_attacks);
                    const BISHOP: [[u64; 8]; 64] = const_table!(m::bishop_attacks);
                    const QUEEN: [[u64; 8]; 64] = const_table!(m::queen_attacks);
                    check_slider(concat!($feature, " rook"), &ROOK, &[Piece::Rook]);
                    check_slider(concat!($feature, " bishop"), &BISHOP, &[Piece::Bishop]);
                    check_slider(concat!($feature, " queen"), &QUEEN, &Piece::ALL);
                    checked.push($feature);
                }
            )*
            println!("const fn backends checked: {checked:?}");
        }
    };
}

const_backends!("fancy": fancy, "plain": plain, "black": black, "hyperbola": hyperbola);

/// One table per geometry lookup, for every square (and colour, and pair).
struct Geometry {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    rook_rays: [u64; 64],
    bishop_rays: [u64; 64],
    between: [[u64; 64]; 64],
    line: [[u64; 64]; 64],
}

const GEOMETRY: Geometry = {
    let mut g = Geometry {
        knight: [0; 64],
        king: [0; 64],
        pawn: [[0; 64]; 2],
        rook_rays: [0; 64],
        bishop_rays: [0; 64],
        between: [[0; 64]; 64],
        line: [[0; 64]; 64],
    };
    let mut a = 0;
    while a < 64 {
        let sq = Square::ALL[a];
        g.knight[a] = knight_attacks(sq);
        g.king[a] = king_attacks(sq);
        g.pawn[0][a] = pawn_attacks(Color::White, sq);
        g.pawn[1][a] = pawn_attacks(Color::Black, sq);
        g.rook_rays[a] = rook_rays(sq);
        g.bishop_rays[a] = bishop_rays(sq);
        let mut b = 0;
        while b < 64 {
            g.between[a][b] = between(sq, Square::ALL[b]);
            g.line[a][b] = line(sq, Square::ALL[b]);
            b += 1;
        }
        a += 1;
    }
    g
};

#[test]
fn geometry_in_const_items_matches_its_run_time_calls() {
    let g = &GEOMETRY;
    for a in Square::ALL {
        let i = a.index();
        assert_eq!(g.knight[i], knight_attacks(a), "knight {a}");
        assert_eq!(g.king[i], king_attacks(a), "king {a}");
        for color in Color::ALL {
            assert_eq!(g.pawn[color.index()][i], pawn_attacks(color, a), "pawn {a}");
        }
        assert_eq!(g.rook_rays[i], slow_attacks(Piece::Rook, i as u8, 0), "{a}");
        assert_eq!(
            g.bishop_rays[i],
            slow_attacks(Piece::Bishop, i as u8, 0),
            "{a}"
        );
        for b in Square::ALL {
            assert_eq!(g.between[i][b.index()], between(a, b), "between {a} {b}");
            assert_eq!(g.line[i][b.index()], line(a, b), "line {a} {b}");
        }
    }
    // Known values, so that a table of zeros cannot pass.
    assert_eq!(
        g.knight[Square::A1.index()],
        Square::B3.bit() | Square::C2.bit()
    );
    assert_eq!(g.king[Square::E4.index()].count_ones(), 8);
    assert_eq!(
        g.between[Square::A1.index()][Square::D4.index()],
        Square::B2.bit() | Square::C3.bit()
    );
    assert_eq!(
        g.line[Square::B2.index()][Square::C3.index()],
        0x8040_2010_0804_0201
    );
}
