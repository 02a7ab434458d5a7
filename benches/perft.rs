//! Perft benchmark: the `perft` crate's legal move generator against
//! cozy-chess, in the same process on the same positions, both bulk-counting at the
//! leaves. Prints a markdown table of the best-of-N times and the speed ratio.
//!
//! ```text
//! cargo bench --bench perft                      # default target CPU
//! RUSTFLAGS="-C target-cpu=x86-64-v3" CARGO_TARGET_DIR=target-v3 cargo bench --bench perft
//! PERFT_BENCH_REPS=3 cargo bench --bench perft   # repetitions (default 5)
//! ```

use perft as chess;

use std::hint::black_box;
use std::time::{Duration, Instant};

fn cozy_perft(board: &cozy_chess::Board, depth: u8) -> u64 {
    // cozy-chess's own bulk-counting perft (its examples/perft.rs, `perft_bulk`).
    let mut nodes = 0;
    match depth {
        0 => nodes += 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut board = board.clone();
                    board.play_unchecked(mv);
                    nodes += cozy_perft(&board, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u8,
    nodes: u64,
}

const CASES: &[Case] = &[
    Case {
        name: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        nodes: 119_060_324,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        nodes: 193_690_690,
    },
    Case {
        name: "position 3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        depth: 7,
        nodes: 178_633_661,
    },
    Case {
        name: "position 4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        depth: 5,
        nodes: 15_833_292,
    },
    Case {
        name: "position 5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        depth: 5,
        nodes: 89_941_194,
    },
    Case {
        name: "position 6",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        depth: 5,
        nodes: 164_075_551,
    },
];

/// CPU time of this thread in nanoseconds (Linux), so that other processes on a shared
/// machine inflate the figures less than wall-clock time does.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn time<F: FnMut() -> u64>(mut f: F, expect: u64, what: &str) -> Duration {
    let cpu0 = thread_cpu_ns();
    let start = Instant::now();
    let n = black_box(f());
    let wall = start.elapsed();
    let cpu = thread_cpu_ns()
        .zip(cpu0)
        .map(|(b, a)| Duration::from_nanos(b - a));
    assert_eq!(n, expect, "{what}: wrong node count");
    cpu.unwrap_or(wall)
}

fn main() {
    let reps: usize = std::env::var("PERFT_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(5);
    // `cargo bench -- <filter>`: run only the cases whose name contains the filter.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let features: Vec<&str> = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
    ]
    .iter()
    .filter(|f| f.1)
    .map(|f| f.0)
    .collect();
    println!(
        "perft, bulk counting at the leaves; best of {reps} runs (median in brackets); \
         time: {}; magic_bitboards backend: {}; target features: {}",
        if thread_cpu_ns().is_some() {
            "thread CPU time"
        } else {
            "wall clock"
        },
        magic_bitboards::BACKEND,
        if features.is_empty() {
            "baseline".to_string()
        } else {
            features.join(" ")
        }
    );
    println!();
    println!("| position | depth | nodes | this crate (s) | cozy-chess (s) | Mnodes/s (ours) | speed ratio |");
    println!("|---|---|---|---|---|---|---|");
    for case in CASES {
        if let Some(f) = &filter {
            if !case.name.contains(f.as_str()) {
                continue;
            }
        }
        let ours_board = chess::parse_fen(case.fen).expect("bench FEN");
        let cozy_board = cozy_chess::Board::from_fen(case.fen, false).expect("bench FEN");
        let mut ours = Vec::with_capacity(reps);
        let mut cozy = Vec::with_capacity(reps);
        // Interleave the two so that machine noise hits both alike.
        for _ in 0..reps {
            ours.push(time(
                || chess::perft(black_box(&ours_board), u32::from(case.depth)),
                case.nodes,
                "this crate",
            ));
            cozy.push(time(
                || cozy_perft(black_box(&cozy_board), case.depth),
                case.nodes,
                "cozy-chess",
            ));
        }
        ours.sort();
        cozy.sort();
        let (o, c) = (ours[0].as_secs_f64(), cozy[0].as_secs_f64());
        let (om, cm) = (ours[reps / 2].as_secs_f64(), cozy[reps / 2].as_secs_f64());
        println!(
            "| {} | {} | {} | {:.3} ({:.3}) | {:.3} ({:.3}) | {:.0} | **{:.2}x** ({:.2}x) |",
            case.name,
            case.depth,
            case.nodes,
            o,
            om,
            c,
            cm,
            case.nodes as f64 / o / 1e6,
            c / o,
            cm / om
        );
    }
}
