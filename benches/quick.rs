//! Quick mode: every implementation (our backends, table-free baselines, the phf
//! dictionary, the peer crates) in one run of well under a minute, printed as one
//! markdown table of ns per lookup with the ratio to the fastest peer crate.
//!
//! ```text
//! CARGO_TARGET_DIR=/work/target-bench cargo bench -p magic-bitboards-benches --bench quick
//! RUSTFLAGS="-C target-cpu=x86-64-v3" CARGO_TARGET_DIR=/work/target-bench-v3 \
//!     cargo bench -p magic-bitboards-benches --bench quick
//! ```
//!
//! Method: every implementation is first checked against the slow ray walk on the whole
//! query set (and on the dependent chain). Each cell (implementation x piece x mode) is
//! then timed as samples of whole passes over the 8192 queries, about
//! `QUICK_SAMPLE_MS` (default 2) ms each; the samples go round-robin over all cells,
//! `QUICK_SAMPLES` (default 31) rounds, so that load from other processes hits every
//! cell alike, and the table shows each cell's fastest sample.
//!
//! The first-lookup table runs this binary again once per implementation and sample
//! (`QUICK_FIRST_RUNS`, default 15; 0 skips it) in a fresh process that times its very
//! first queen lookup (tables not yet touched: page faults and cache misses) and the same
//! lookup again, with `Instant` around each, and counts the minor page faults of the first
//! (the binary's pages are in the page cache: a warm disk, a cold process).

use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

use magic_bitboards_benches::timing::{self, cpu_model, env_or, row, Row};
use magic_bitboards_benches::{self as common, Group, ImplVisitor, Kind, Mode, Slider};

/// Minor page faults of this process so far (field 10 of `/proc/self/stat`), or 0.
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    rest.split_whitespace()
        .nth(7)
        .and_then(|f| f.parse().ok())
        .unwrap_or(0)
}

/// Child mode: time the first queen lookup of a fresh process, then the same again, and
/// count the page faults the first one took.
fn first_lookup<S: Slider>(imp: &S) -> ! {
    // e4 in the Kiwipete position.
    let occ = common::fen_occupancy("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R");
    let sq = imp.square(28);
    minor_faults(); // warm the /proc read path
    let f0 = minor_faults();
    let t0 = Instant::now();
    let t1 = Instant::now();
    let a = imp.queen(black_box(sq), black_box(occ));
    let t2 = Instant::now();
    let b = imp.queen(black_box(sq), black_box(occ ^ black_box(0)));
    let t3 = Instant::now();
    let faults = minor_faults() - f0;
    assert_eq!(a, b);
    assert_eq!(a, common::reference(Kind::Queen, 28, occ), "{}", imp.name());
    let empty = (t1 - t0).as_nanos();
    println!(
        "{} {} {faults}",
        (t2 - t1).as_nanos().saturating_sub(empty),
        (t3 - t2).as_nanos().saturating_sub(empty)
    );
    std::process::exit(0)
}

/// Whether the first-lookup table times `imp`: everything but the phf maps (built at run
/// time) and the ray walk.
fn in_first_lookup_table<S: Slider>(imp: &S, group: Group) -> bool {
    group != Group::Baseline || imp.name() == "Kogge-Stone fill"
}

/// Child mode: runs [`first_lookup`] on the implementation named `which`.
fn child(which: &str) {
    struct Pick<'a>(&'a str);
    impl ImplVisitor for Pick<'_> {
        fn visit<S: Slider + 'static>(&mut self, imp: S, group: Group) {
            if in_first_lookup_table(&imp, group) && imp.name() == self.0 {
                first_lookup(&imp);
            }
        }
        fn wants_run_time_tables(&self) -> bool {
            false
        }
    }
    common::for_each_impl(&mut Pick(which));
    panic!("unknown implementation {which}");
}

fn median(v: &mut [u128]) -> u128 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Runs `child` for every implementation with tables and prints first and repeated
/// lookup times (medians over fresh processes).
fn first_lookups(runs: usize) {
    let exe = std::env::current_exe().expect("path of this binary");
    struct Names(Vec<String>);
    impl ImplVisitor for Names {
        fn visit<S: Slider + 'static>(&mut self, imp: S, group: Group) {
            if in_first_lookup_table(&imp, group) {
                self.0.push(imp.name());
            }
        }
        fn wants_run_time_tables(&self) -> bool {
            false
        }
    }
    let mut names = Names(Vec::new());
    common::for_each_impl(&mut names);
    println!("\nFirst queen lookup in a fresh process (median of {runs} processes, ns):\n");
    println!("| implementation | first lookup | same lookup again | page faults |");
    println!("|---|---:|---:|---:|");
    for name in names.0 {
        let (mut first, mut again, mut faults) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let out = Command::new(&exe)
                .env("QUICK_FIRST_LOOKUP", &name)
                .output()
                .expect("run the bench binary again");
            let text = String::from_utf8_lossy(&out.stdout);
            let mut it = text.split_whitespace().map(|w| w.parse::<u128>().unwrap());
            first.push(it.next().expect("first lookup time"));
            again.push(it.next().expect("second lookup time"));
            faults.push(it.next().expect("page faults"));
        }
        println!(
            "| {name} | {} | {} | {} |",
            median(&mut first),
            median(&mut again),
            median(&mut faults)
        );
    }
}

fn main() {
    if let Ok(which) = std::env::var("QUICK_FIRST_LOOKUP") {
        child(&which);
    }
    let samples: usize = env_or("QUICK_SAMPLES", 31);
    let sample = Duration::from_micros((env_or("QUICK_SAMPLE_MS", 2.0f64) * 1000.0) as u64);
    let first_runs: usize = env_or("QUICK_FIRST_RUNS", 15);
    let started = Instant::now();

    struct Rows {
        queries: Vec<(u8, u64)>,
        rows: Vec<Row>,
    }
    impl ImplVisitor for Rows {
        fn visit<S: Slider + 'static>(&mut self, imp: S, group: Group) {
            self.rows.push(row(imp, group, &self.queries));
        }
    }
    let mut all = Rows {
        queries: common::queries(),
        rows: Vec::new(),
    };
    common::for_each_impl(&mut all);
    let mut rows = all.rows;
    let setup = started.elapsed();

    timing::round_robin(&mut rows, samples, sample);

    let cells = rows[0].best.len();
    let fastest_peer: Vec<f64> = (0..cells)
        .map(|i| {
            rows.iter()
                .filter(|r| r.group == Group::Peer)
                .map(|r| r.best[i])
                .fold(f64::INFINITY, f64::min)
        })
        .collect();

    let bmi2 = cfg!(all(target_arch = "x86_64", target_feature = "bmi2"));
    println!(
        "\nns per lookup (fastest of {samples} samples) and, in brackets, the ratio to the \
         fastest peer crate in the column; {} queries (half from perft positions, half \
         sparse random); {} build, {}.\n",
        common::QUERIES,
        if bmi2 { "BMI2" } else { "no-BMI2" },
        cpu_model()
    );
    let mut header = String::from("| implementation |");
    let mut rule = String::from("|---|");
    for mode in Mode::ALL {
        for kind in Kind::ALL {
            header += &format!(" {} {} |", kind.name(), &mode.name()[..3]);
            rule += "---:|";
        }
    }
    println!("{header}\n{rule}");
    for r in &rows {
        let mut line = format!("| {} |", r.name);
        // Columns mode-major: independent rook, bishop, queen, then dependent.
        for m in 0..2 {
            for k in 0..3 {
                let i = k * 2 + m;
                line += &format!(" {:.2} ({:.2}) |", r.best[i], r.best[i] / fastest_peer[i]);
            }
        }
        println!("{line}");
    }
    let missing = common::missing_backends();
    if !missing.is_empty() {
        println!(
            "\nNot in this build: {} (PEXT needs BMI2 in the target).",
            missing.join(", ")
        );
    }
    println!(
        "\nThe phf dictionary holds {} bytes of keys, attack sets and displacements.",
        common::PhfDict::new().bytes()
    );
    let measured = started.elapsed();
    if first_runs > 0 {
        first_lookups(first_runs);
    }
    eprintln!(
        "\nset-up and checks {:.1} s, timing {:.1} s, total {:.1} s",
        setup.as_secs_f64(),
        (measured - setup).as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}
