//! Perft tests for the legal move generator of this crate, against the published counts
//! and cozy-chess. The quick depths run in the debug test profile in seconds; the deep
//! ones are `#[ignore]`d: `cargo test --release -p perft --test perft -- --ignored`.

use perft::board::{Board, Move};
use perft::{divide, legal_moves, parse_fen, perft, FenError};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// Position 4 with colours reversed (same counts).
const POS4_MIRROR: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// Reference counts by depth 1, 2, 3, ...: the published perft results (the chessprogramming
/// wiki's "Perft Results" page: the start position, Kiwipete and positions 3 to 6).
const SUITE: &[(&str, &[u64])] = &[
    (
        START,
        &[
            20,
            400,
            8902,
            197_281,
            4_865_609,
            119_060_324,
            3_195_901_860,
        ],
    ),
    (
        KIWIPETE,
        &[48, 2039, 97_862, 4_085_603, 193_690_690, 8_031_647_685],
    ),
    (
        POS3,
        &[14, 191, 2812, 43_238, 674_624, 11_030_083, 178_633_661],
    ),
    (POS4, &[6, 264, 9467, 422_333, 15_833_292, 706_045_033]),
    (
        POS4_MIRROR,
        &[6, 264, 9467, 422_333, 15_833_292, 706_045_033],
    ),
    (POS5, &[44, 1486, 62_379, 2_103_487, 89_941_194]),
    (
        POS6,
        &[46, 2079, 89_890, 3_894_594, 164_075_551, 6_923_051_137],
    ),
];

fn check(fen: &str, depth: usize) {
    let counts = SUITE.iter().find(|(f, _)| *f == fen).unwrap().1;
    let board = parse_fen(fen).unwrap();
    for d in 1..=depth {
        assert_eq!(perft(&board, d as u32), counts[d - 1], "{fen} depth {d}");
    }
}

// Quick depths: a few seconds in total in the unoptimised test profile.
#[test]
fn start_position() {
    check(START, 4);
}
#[test]
fn kiwipete() {
    check(KIWIPETE, 3);
}
#[test]
fn position_3() {
    check(POS3, 4);
}
#[test]
fn position_4() {
    check(POS4, 3);
    check(POS4_MIRROR, 3);
}
#[test]
fn position_5() {
    check(POS5, 3);
}
#[test]
fn position_6() {
    check(POS6, 3);
}

// Deep: run with `cargo test --release --test perft -- --ignored` (about a minute).
#[test]
#[ignore]
fn deep_start_position() {
    check(START, 6);
}
#[test]
#[ignore]
fn deep_kiwipete() {
    check(KIWIPETE, 5);
}
#[test]
#[ignore]
fn deep_position_3() {
    check(POS3, 7);
}
#[test]
#[ignore]
fn deep_position_4() {
    check(POS4, 5);
    check(POS4_MIRROR, 5);
}
#[test]
#[ignore]
fn deep_position_5() {
    check(POS5, 5);
}
#[test]
#[ignore]
fn deep_position_6() {
    check(POS6, 5);
}

/// Positions aimed at single rules (en passant and its pins, castling through or into
/// check, promotions, stalemate and checkmate), with counts from the widely used
/// perft suite of tricky positions; each is also checked against cozy-chess below.
const TRICKY: &[(&str, u32, u64)] = &[
    // En passant that would expose the king along the rank (horizontal pin).
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1_134_888),
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1_015_133),
    // En passant capture gives check.
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1_440_467),
    // Castling gives check.
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661_072),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803_711),
    // Castling rights and attacked squares.
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1_274_206),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1_720_476),
    // Promotions (out of check, with check, under-promotions).
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3_821_001),
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1_004_658),
    ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217_342),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92_683),
    // Self-stalemate and stalemate / checkmate.
    ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2_217),
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567_584),
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23_527),
];

#[test]
fn tricky_positions() {
    for &(fen, depth, nodes) in TRICKY {
        // Debug builds: stop two plies short of the published depth, compare with cozy-chess
        // there, and check the published count itself only in optimised builds.
        let board = parse_fen(fen).unwrap();
        if cfg!(debug_assertions) {
            let d = depth - 2;
            assert_eq!(perft(&board, d), cozy_perft(&cozy(fen), d as u8), "{fen}");
        } else {
            assert_eq!(perft(&board, depth), nodes, "{fen}");
        }
    }
}

#[test]
fn en_passant_horizontal_pin() {
    // bxc6 e.p. would leave the a5 king to the h5 rook.
    let board = parse_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 1").unwrap();
    let moves: Vec<String> = names(legal_moves(&board).as_slice());
    assert!(!moves.contains(&"b5c6".to_string()), "{moves:?}");
    assert_eq!(moves, ["a5a4", "a5a6", "a5b6", "b5b6"]);
    // Without the rook the capture is legal.
    let board = parse_fen("8/8/8/KPp5/8/8/8/7k w - c6 0 1").unwrap();
    assert!(names(legal_moves(&board).as_slice()).contains(&"b5c6".to_string()));
    // En passant that removes the checking pawn.
    let board = parse_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1").unwrap();
    assert!(names(legal_moves(&board).as_slice()).contains(&"e4d3".to_string()));
}

fn names(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn divide_sums_to_perft() {
    for &(fen, counts) in SUITE {
        let board = parse_fen(fen).unwrap();
        let split = divide(&board, 3);
        assert_eq!(split.len() as u64, counts[0], "{fen}");
        assert_eq!(
            split.iter().map(|&(_, n)| n).sum::<u64>(),
            counts[2],
            "{fen}"
        );
    }
    // Per-move counts of the start position at depth 2: 20 each.
    let split = divide(&Board::startpos(), 2);
    assert!(split.iter().all(|&(_, n)| n == 20));
}

#[test]
fn divide_matches_cozy_chess() {
    // Per root move, at depth 3, for every suite position: catches a wrong move even when
    // errors cancel in the total.
    for &(fen, _) in SUITE {
        let board = parse_fen(fen).unwrap();
        let cboard = cozy(fen);
        let mut ours: Vec<(String, u64)> = divide(&board, 3)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        let mut theirs = Vec::new();
        cboard.generate_moves(|moves| {
            for mv in moves {
                let mut b = cboard.clone();
                b.play_unchecked(mv);
                theirs.push((uci_cozy(&cboard, mv), cozy_perft(&b, 2)));
            }
            false
        });
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{fen}");
    }
}

#[test]
fn random_games_match_cozy_chess() {
    // Random playouts (fixed seed): legal move sets and perft(2) agree at every ply.
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    // Unoptimised test builds play a few short games; optimised ones many long ones.
    let (games, plies) = if cfg!(debug_assertions) {
        (2, 40)
    } else {
        (40, 120)
    };
    for &(fen, _) in SUITE {
        for _game in 0..games {
            let mut board = parse_fen(fen).unwrap();
            for _ply in 0..plies {
                let cboard = cozy(&board.to_fen());
                let moves = legal_moves(&board);
                let mut theirs = Vec::new();
                cboard.generate_moves(|ms| {
                    theirs.extend(ms.into_iter().map(|m| uci_cozy(&cboard, m)));
                    false
                });
                theirs.sort();
                assert_eq!(names(moves.as_slice()), theirs, "{}", board.to_fen());
                assert_eq!(
                    perft(&board, 2),
                    cozy_perft(&cboard, 2),
                    "{}",
                    board.to_fen()
                );
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
                board = board.play(m);
            }
        }
    }
}

#[test]
fn many_moves() {
    // The 218-move position, and nine queens with no other blockers: the move list
    // holds every move the parser's material limits allow.
    let b = parse_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    assert_eq!(legal_moves(&b).len(), 218);
    assert_eq!(perft(&b, 1), 218);
    let b = parse_fen("QQQQQQQQ/Q7/8/8/8/8/6pp/K5bk w - - 0 1").unwrap();
    assert_eq!(legal_moves(&b).len() as u64, perft(&b, 1));
    assert_eq!(
        perft(&b, 2),
        cozy_perft(&cozy("QQQQQQQQ/Q7/8/8/8/8/6pp/K5bk w - - 0 1"), 2)
    );
}

#[test]
fn fen_round_trip() {
    for &(fen, _) in SUITE {
        assert_eq!(parse_fen(fen).unwrap().to_fen(), fen);
    }
    assert_eq!(parse_fen(START).unwrap(), Board::startpos());
    // The counters may be omitted.
    assert_eq!(
        parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap(),
        Board::startpos()
    );
}

#[test]
fn bad_fens_are_errors() {
    use FenError::*;
    type Check = fn(&FenError) -> bool;
    let cases: &[(&str, Check)] = &[
        ("", |e| matches!(e, FieldCount(0))),
        ("8/8/8/8/8/8/8/8", |e| matches!(e, FieldCount(1))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", |e| {
            matches!(e, RankCount(7))
        }),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            |e| matches!(e, BadPiece { rank: 1, ch: 'X' }),
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, BadPiece { rank: 6, ch: '9' }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
            |e| matches!(e, RankTooLong { rank: 1 }),
        ),
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, AdjacentDigits { rank: 6 }),
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, RankTooShort { rank: 7, files: 7 }),
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            |e| matches!(e, MissingKing { color: "black" }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            |e| {
                matches!(
                    e,
                    TooManyKings {
                        color: "white",
                        count: 2
                    }
                )
            },
        ),
        (
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
            |e| matches!(e, PawnOnBackRank { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            |e| matches!(e, BadSide(_)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            |e| matches!(e, BadCastling(_)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
            |e| matches!(e, BadCastling(_)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            |e| matches!(e, CastlingWithoutPieces { right: 'K' }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            |e| matches!(e, BadEnPassantSquare(_)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            |e| matches!(e, ImpossibleEnPassant { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            |e| matches!(e, ImpossibleEnPassant { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            |e| matches!(e, BadHalfmove(_)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            |e| matches!(e, BadFullmove(_)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
            |e| matches!(e, BadHalfmove(_)),
        ),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1 extra", |e| {
            matches!(e, FieldCount(7))
        }),
        ("QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/k1K5 w - - 0 1", |e| {
            matches!(
                e,
                TooMuchMaterial {
                    color: "white",
                    reason: "more than 16 pieces"
                }
            )
        }),
        ("k7/8/8/8/8/P7/PPPPPPPP/K7 w - - 0 1", |e| {
            matches!(
                e,
                TooMuchMaterial {
                    color: "white",
                    reason: "more than 8 pawns"
                }
            )
        }),
        ("k7/8/8/8/8/8/PPPPPPPP/KQQ5 w - - 0 1", |e| {
            matches!(
                e,
                TooMuchMaterial {
                    reason: "more promoted pieces than missing pawns",
                    ..
                }
            )
        }),
        // Black king in check with white to move.
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", |e| {
            matches!(e, OpponentInCheck)
        }),
        // Non-ASCII input must not panic.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNé w - - 0 1",
            |e| matches!(e, BadPiece { .. }),
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", |e| {
            matches!(e, MissingKing { color: "white" })
        }),
    ];
    for (fen, ok) in cases {
        match parse_fen(fen) {
            Ok(b) => panic!("{fen:?} parsed as {}", b.to_fen()),
            Err(e) => {
                let msg = e.to_string();
                assert!(ok(&e), "{fen:?}: unexpected error {e:?}");
                assert!(msg.starts_with("invalid FEN: "), "{msg}");
            }
        }
    }
}

#[test]
fn fen_error_messages_name_the_field() {
    let e = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2 3").unwrap_err();
    assert!(e.to_string().contains("found 8"), "{e}");
    let e = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid FEN: piece placement: rank 1: bad character 'X' (expected one of \
         PNBRQKpnbrqk or a digit 1-8)"
    );
    let e = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").map(|_| ());
    assert!(e.is_ok());
}

// cozy-chess helpers (reference implementation).

fn cozy(fen: &str) -> cozy_chess::Board {
    cozy_chess::Board::from_fen(fen, false).unwrap()
}

fn cozy_perft(board: &cozy_chess::Board, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut b = board.clone();
            b.play_unchecked(mv);
            nodes += cozy_perft(&b, depth - 1);
        }
        false
    });
    nodes
}

/// cozy-chess encodes castling as king-takes-rook; convert to the king's UCI move.
fn uci_cozy(board: &cozy_chess::Board, mv: cozy_chess::Move) -> String {
    let mut mv = mv;
    if board.king(board.side_to_move()) == mv.from && board.colors(board.side_to_move()).has(mv.to)
    {
        let file = if mv.to.file() > mv.from.file() {
            cozy_chess::File::G
        } else {
            cozy_chess::File::C
        };
        mv.to = cozy_chess::Square::new(file, mv.to.rank());
    }
    mv.to_string()
}
