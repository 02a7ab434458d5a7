//! Where the dependent-lookup gap to cozy-chess comes from: the cache lines a table's
//! slots put the benchmark's queries on.
//!
//! ```text
//! cargo build --release -p magic-bitboards-benches --example cache_lines
//! B=target/release/examples/cache_lines
//! $B footprint magics/black.rs magic-gen/tests/data/published-black-87988.txt
//! valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=2097152,16,64 $B chain default 20
//! valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=2097152,16,64 $B chain default 220
//! ```
//!
//! `chain IMPL REPS` runs the quick mode's dependent queen chain (`default` or `cozy`)
//! REPS times over its 8192 queries; the difference between two REPS counts is the loop
//! alone, without building the queries. `footprint FILE...` counts, for each set file, the
//! distinct 64-byte lines of its table that the queries' rook and bishop lookups reach (and
//! per piece, summed over its squares), and the misses per pass of a 32 KiB fully associative LRU cache of those lines (the D1 of
//! these machines holds 512 of them).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use magic_bitboards_benches::{self as common, Cozy, CrateLevel, Slider};
use magic_gen::{read_set_file, relevant_mask, table_index, Piece};

/// Table entries (u64) per 64-byte cache line.
const PER_LINE: i64 = 8;

/// Lines of a 32 KiB L1 data cache.
const L1_LINES: usize = 512;

/// Runs the dependent queen chain of `s` over the queries `reps` times.
fn chain<S: Slider>(s: &S, reps: usize) -> u64 {
    let queries = common::convert(s, &common::queries());
    (0..reps).fold(0, |acc, _| {
        acc ^ common::run_dependent(&queries, |sq, occ| s.queen(sq, occ))
    })
}

/// Returns the misses per pass of an LRU cache of `capacity` lines over `lines`, repeated
/// (the first pass, which fills the cache, not counted).
fn lru_misses(lines: &[i64], capacity: usize) -> usize {
    let mut last_use: HashMap<i64, usize> = HashMap::new();
    let mut by_age: BTreeMap<usize, i64> = BTreeMap::new();
    let mut misses = 0;
    let passes = 3;
    for (t, &line) in lines.iter().cycle().take(passes * lines.len()).enumerate() {
        match last_use.insert(line, t) {
            Some(before) => {
                by_age.remove(&before);
            }
            None if t >= lines.len() => misses += 1,
            None => {}
        }
        by_age.insert(t, line);
        if by_age.len() > capacity {
            let (_, oldest) = by_age.pop_first().expect("the cache is not empty");
            last_use.remove(&oldest);
        }
    }
    misses / (passes - 1)
}

fn footprint(path: &str) -> Result<(), String> {
    let (set, _, _) = read_set_file(Path::new(path)).map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    // Per piece: the (square, line) pairs its lookups reach.
    let mut per_square: [Vec<(u8, i64)>; 2] = Default::default();
    for (sq, occ) in common::queries() {
        for (p, piece) in [Piece::Rook, Piece::Bishop].into_iter().enumerate() {
            let e = &set.entries[p][sq as usize];
            let mask = relevant_mask(piece, sq);
            let i = table_index(set.variant, occ, mask, e.magic, e.bits, e.offset);
            lines.push(i.div_euclid(PER_LINE));
            per_square[p].push((sq, i.div_euclid(PER_LINE)));
        }
    }
    fn distinct<T: Ord>(mut v: Vec<T>) -> usize {
        v.sort_unstable();
        v.dedup();
        v.len()
    }
    let [rook, bishop] = per_square.map(distinct);
    println!(
        "{path}: {} lookups reach {} distinct lines (summed over squares: rook {rook}, \
         bishop {bishop}); LRU of {L1_LINES} lines misses {} a pass",
        lines.len(),
        distinct(lines.clone()),
        lru_misses(&lines, L1_LINES)
    );
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["chain", which, reps] => {
            let reps = reps.parse().expect("REPS is a count");
            let end = match *which {
                "default" => chain(&CrateLevel, reps),
                "cozy" => chain(&Cozy, reps),
                other => panic!("no implementation {other}: default or cozy"),
            };
            println!("{end:#018x}");
        }
        ["footprint", files @ ..] if !files.is_empty() => {
            for file in files {
                if let Err(e) = footprint(file) {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            }
        }
        _ => {
            eprintln!("usage: cache_lines chain default|cozy REPS | footprint FILE...");
            std::process::exit(2);
        }
    }
}
