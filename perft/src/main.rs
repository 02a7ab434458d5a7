//! Perft: counts the leaf nodes of the legal move tree of a position.
//!
//! ```text
//! cargo run --release -p perft -- "<fen>" <depth>
//! cargo run --release -p perft -- --divide "<fen>" <depth>
//! ```
//! `startpos` may stand for the FEN of the initial position. `--divide` prints each
//! legal root move with the node count below it (to compare with another program).

use perft as chess;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: perft [--divide] \"<fen>\"|startpos <depth>";

fn main() -> ExitCode {
    let mut divide = false;
    let mut rest = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--divide" | "-d" | "divide" => divide = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => rest.push(arg),
        }
    }
    let [fen, depth] = rest.as_slice() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let depth: u32 = match depth.parse() {
        Ok(d) if d <= 20 => d,
        _ => {
            eprintln!("error: depth must be an integer from 0 to 20, found {depth:?}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let board = if fen == "startpos" {
        chess::Board::startpos()
    } else {
        match chess::parse_fen(fen) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    };

    let cpu_start = thread_cpu_ns();
    let start = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        // Sorted by move, so the output diffs cleanly against other programs' divide.
        let mut split: Vec<(String, u64)> = chess::divide(&board, depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        split.sort();
        for (m, n) in split {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        total
    } else {
        chess::perft(&board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let cpu = thread_cpu_ns()
        .zip(cpu_start)
        .map(|(end, start)| (end - start) as f64 / 1e9);
    println!("fen: {}", board.to_fen());
    println!("depth: {depth}");
    println!("nodes: {nodes}");
    println!("time: {secs:.3} s");
    if let Some(cpu) = cpu {
        println!("cpu: {cpu:.3} s");
    }
    println!("nodes/s: {:.0}", nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}

/// CPU time of this thread in nanoseconds, where Linux reports it (`/proc/thread-self/
/// schedstat`): on a shared machine, steadier than the wall clock.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
