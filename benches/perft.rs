//! Perft benchmark: the `perft` crate's legal move generator with the crate-level lookups
//! and with every backend module compiled into this build (the crate's registry), against
//! cozy-chess, in the same process on the same positions, both bulk-counting at the
//! leaves. Prints a markdown table of the best-of-N times and the speed ratios.
//!
//! A second table is the same perft beside a hash table, as in an engine whose
//! transposition table competes with the attack tables for the caches: every node it
//! visits (all but the bulk-counted leaves) hashes its position and updates one entry of a
//! table of `PERFT_HASH_MIB` MiB (default 4; 0 skips the table) at the index the hash
//! picks. Node counts are unchanged, and checked.
//!
//! ```text
//! cargo bench --bench perft                      # default target CPU
//! RUSTFLAGS="-C target-cpu=x86-64-v3" CARGO_TARGET_DIR=target-v3 cargo bench --bench perft
//! PERFT_BENCH_REPS=3 cargo bench --bench perft   # repetitions (default 5)
//! cargo bench --bench perft -- start             # only the cases whose name has "start"
//! ```

use perft as chess;

use std::hint::black_box;
use std::time::{Duration, Instant};

use magic_bitboards::registry::{self, Lookups, Visitor};
use magic_bitboards_benches::timing::cpu_model;
use perft::{Board, CrateLevel, Sliders};

/// A perft function of one set of slider lookups.
type Perft = Box<dyn Fn(&Board, u32) -> u64>;

/// (name, bulk-counting perft, perft beside the hash table) for the crate-level lookups and
/// every backend module in the registry.
fn implementations(
    hash: &std::rc::Rc<std::cell::RefCell<Vec<u64>>>,
) -> Vec<(String, Perft, Perft)> {
    struct Collect<'a>(
        Vec<(String, Perft, Perft)>,
        &'a std::rc::Rc<std::cell::RefCell<Vec<u64>>>,
    );
    impl Collect<'_> {
        fn add<B: Sliders>(&mut self, name: String) {
            let table = self.1.clone();
            self.0.push((
                name,
                Box::new(|b, d| chess::perft_with::<B>(b, d)),
                Box::new(move |b, d| hashed_perft::<B>(b, d, &mut table.borrow_mut())),
            ));
        }
    }
    impl Visitor for Collect<'_> {
        fn visit<B: Lookups>(&mut self) {
            self.add::<B>(B::NAME.to_string());
        }
    }
    let mut c = Collect(Vec::new(), hash);
    c.add::<CrateLevel>(format!("crate-level ({})", magic_bitboards::BACKEND));
    registry::visit(&mut c);
    c.0
}

/// A hash of the position's pieces and side: three independent multiplies, the same few
/// cycles for every implementation.
#[inline(always)]
fn position_hash(b: &Board) -> u64 {
    let h = b.colors[0].wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ b.colors[1].wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        ^ (b.pieces[0] ^ b.pieces[3] ^ u64::from(b.side)).wrapping_mul(0x1656_67b1_9e37_79f9);
    h ^ h >> 32
}

/// Bulk-counting perft that, at every node it visits (every node above the leaves), reads
/// and rewrites one entry of `table` chosen by the position's hash: an engine's
/// transposition-table probe and store beside the move generation.
fn hashed_perft<B: Sliders>(b: &Board, depth: u32, table: &mut [u64]) -> u64 {
    let h = position_hash(b);
    let slot = &mut table[(h as usize) & (table.len() - 1)];
    *slot = slot.wrapping_add(h | 1);
    if depth <= 1 {
        return chess::perft_with::<B>(b, depth);
    }
    let moves = chess::legal_moves_with::<B>(b);
    let mut nodes = 0;
    for &m in moves.as_slice() {
        nodes += hashed_perft::<B>(&b.play(m), depth - 1, table);
    }
    nodes
}

/// Cozy-chess's bulk-counting perft beside the same hash table (probed with its
/// `Board::hash`).
fn cozy_hashed_perft(board: &cozy_chess::Board, depth: u8, table: &mut [u64]) -> u64 {
    let h = board.hash();
    let slot = &mut table[(h as usize) & (table.len() - 1)];
    *slot = slot.wrapping_add(h | 1);
    if depth <= 1 {
        return cozy_perft(board, depth);
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy_hashed_perft(&child, depth - 1, table);
        }
        false
    });
    nodes
}

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
    let hash_mib: usize = std::env::var("PERFT_HASH_MIB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    // A power of two of u64 entries (at least one), so that a mask picks the slot.
    let entries = ((hash_mib << 20) / 8).max(1).next_power_of_two();
    let table = std::rc::Rc::new(std::cell::RefCell::new(vec![0u64; entries]));
    let imps = implementations(&table);
    let names: Vec<&str> = imps.iter().map(|i| i.0.as_str()).collect();
    println!("CPU: {}", cpu_model());
    println!();
    println!(
        "Seconds (best of {reps}; median in brackets), and in the last columns each time over \
         the crate-level one's (below 1: faster)."
    );
    println!();
    let mut header = String::from("| position | depth | nodes |");
    for n in &names {
        header += &format!(" {n} |");
    }
    header += " cozy-chess |";
    for n in names.iter().skip(1) {
        header += &format!(" {n} / crate-level |");
    }
    println!("{header}");
    println!("|---|---|---|{}", "---:|".repeat(2 * names.len()));
    time_cases(
        filter.as_deref(),
        reps,
        &names,
        |k, board, depth| (imps[k].1)(board, depth),
        cozy_perft,
    );
    if hash_mib == 0 {
        return;
    }
    println!();
    println!(
        "Beside a hash table of {} MiB probed and written at every node above the leaves:",
        (entries * 8) >> 20
    );
    println!();
    println!("{header}");
    println!("|---|---|---|{}", "---:|".repeat(2 * names.len()));
    time_cases(
        filter.as_deref(),
        reps,
        &names,
        |k, board, depth| (imps[k].2)(board, depth),
        |board, depth| cozy_hashed_perft(board, depth, &mut table.borrow_mut()),
    );
}

/// Times every case whose name contains `filter`: `reps` rounds, each running every one of
/// `names` (`ours(k, board, depth)`) and then cozy-chess, interleaved so that machine noise
/// hits all alike; prints one row per case.
fn time_cases(
    filter: Option<&str>,
    reps: usize,
    names: &[&str],
    ours: impl Fn(usize, &Board, u32) -> u64,
    mut cozy: impl FnMut(&cozy_chess::Board, u8) -> u64,
) {
    for case in CASES {
        if filter.is_some_and(|f| !case.name.contains(f)) {
            continue;
        }
        let ours_board = chess::parse_fen(case.fen).expect("bench FEN");
        let cozy_board = cozy_chess::Board::from_fen(case.fen, false).expect("bench FEN");
        let mut ours_times = vec![Vec::with_capacity(reps); names.len()];
        let mut cozy_times = Vec::with_capacity(reps);
        for _ in 0..reps {
            for (k, name) in names.iter().enumerate() {
                ours_times[k].push(time(
                    || ours(k, black_box(&ours_board), u32::from(case.depth)),
                    case.nodes,
                    name,
                ));
            }
            cozy_times.push(time(
                || cozy(black_box(&cozy_board), case.depth),
                case.nodes,
                "cozy-chess",
            ));
        }
        print_row(
            case.name,
            case.depth,
            case.nodes,
            &mut ours_times,
            &mut cozy_times,
        );
    }
}

/// Prints one table row: best and median of each implementation, cozy-chess, and each
/// module's best over the crate-level best.
fn print_row(name: &str, depth: u8, nodes: u64, ours: &mut [Vec<Duration>], cozy: &mut [Duration]) {
    let best_median = |v: &mut [Duration]| {
        v.sort();
        (v[0].as_secs_f64(), v[v.len() / 2].as_secs_f64())
    };
    let mut line = format!("| {name} | {depth} | {nodes} |");
    let mut best = Vec::new();
    for v in ours.iter_mut() {
        let (b, m) = best_median(v);
        line += &format!(" {b:.3} ({m:.3}) |");
        best.push(b);
    }
    let (b, m) = best_median(cozy);
    line += &format!(" {b:.3} ({m:.3}) |");
    for b in &best[1..] {
        line += &format!(" **{:.3}** |", b / best[0]);
    }
    println!("{line}");
}
