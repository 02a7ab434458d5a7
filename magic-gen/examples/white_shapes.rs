//! Prints, per square, the fewest slots the finds of a white search state block (used
//! slots and the holes shorter than 16 between them) beside what the published white
//! magics (Annuss, 88,772 entries) block there, and the totals: how far a hunt's pools are
//! from magics that pack like the record's.
//!
//! `cargo run --release -p magic-gen --example white_shapes -- STATE [SET] [--clump N]`
//! (SET defaults to the published white set in the test data). With `--clump N` the
//! state's finds are counted with the members `search --clump N` adds to the pools.

use std::path::Path;
use std::process::ExitCode;

use magic_gen::search::{polished, white_blocked_slots, Limits, SearchState};
use magic_gen::{read_set_file, square_name, Variant};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut limits = Limits::default();
    if let Some(at) = args.iter().position(|a| a == "--clump") {
        match args.get(at + 1).and_then(|n| n.parse().ok()) {
            Some(n) => limits.clump = n,
            None => {
                eprintln!("error: --clump needs a number of moves");
                return ExitCode::FAILURE;
            }
        }
        args.drain(at..at + 2);
        limits.threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    }
    let Some(state_path) = args.first() else {
        eprintln!("usage: white_shapes STATE [SET] [--clump N]");
        return ExitCode::FAILURE;
    };
    let published = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/published-white-88772.txt"
    );
    let set_path = args.get(1).map_or(published, String::as_str);
    let state = match std::fs::read(state_path)
        .map_err(|e| format!("{state_path}: {e}"))
        .and_then(|bytes| SearchState::parse(state_path, &bytes).map_err(|e| e.to_string()))
    {
        Ok(state) => state,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let set = match read_set_file(Path::new(set_path)) {
        Ok((set, _)) => set,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if state.scan.variant != Variant::White || set.variant != Variant::White {
        eprintln!("error: both the state and the set must be white");
        return ExitCode::FAILURE;
    }
    println!("piece  square  set  state  (fewest blocked slots)");
    let (mut ours, mut theirs) = (0u64, 0u64);
    let pools = polished(&state, &limits);
    for (job, pool) in state.jobs.iter().zip(&pools) {
        let e = set.entry(job.piece, job.square);
        let Some(set_blocked) = white_blocked_slots(job.piece, job.square, e.magic, e.bits) else {
            eprintln!(
                "error: {set_path}: {} {} is not a magic",
                job.piece,
                square_name(job.square)
            );
            return ExitCode::FAILURE;
        };
        let best = pool
            .iter()
            .filter_map(|&m| white_blocked_slots(job.piece, job.square, m, job.bits))
            .min();
        let Some(best) = best else {
            eprintln!(
                "error: {state_path}: {} {} has no find",
                job.piece,
                square_name(job.square)
            );
            return ExitCode::FAILURE;
        };
        println!(
            "{:<6} {:<7} {:>4} {:>6}",
            job.piece.name(),
            square_name(job.square),
            set_blocked,
            best
        );
        ours += u64::from(best);
        theirs += u64::from(set_blocked);
    }
    println!("total: set {theirs}, state {ours}");
    ExitCode::SUCCESS
}
