//! Round-robin timing of implementations on the query set, shared by the benchmarks that
//! print markdown tables (`quick`, `unchecked`).

use std::hint::black_box;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::{Group, Kind, Mode, Slider, QUERIES};

/// Times `n` passes over the query set.
pub type Runner = Box<dyn Fn(u32) -> Duration>;

/// One implementation's timed cells and their best times.
pub struct Row {
    /// The implementation's name.
    pub name: String,
    /// Ours, a baseline or a peer.
    pub group: Group,
    /// Kind-major, then mode: (rook, independent), (rook, dependent), ...
    pub runners: Vec<Runner>,
    /// Passes per sample of each cell, set by calibration.
    pub passes: Vec<u32>,
    /// Fastest ns per lookup of each cell so far.
    pub best: Vec<f64>,
}

fn runner<S, F>(imp: Rc<S>, typed: Rc<Vec<(S::Sq, u64)>>, mode: Mode, f: F) -> Runner
where
    S: Slider + 'static,
    F: Fn(&S, S::Sq, u64) -> u64 + Copy + 'static,
{
    match mode {
        Mode::Independent => Box::new(move |passes| {
            let start = Instant::now();
            for _ in 0..passes {
                // `black_box(&typed)`: without it LLVM may hoist a pure pass out of this loop.
                black_box(crate::run_independent(black_box(&typed), |s, o| {
                    f(&imp, s, o)
                }));
            }
            start.elapsed()
        }),
        Mode::Dependent => Box::new(move |passes| {
            let start = Instant::now();
            for _ in 0..passes {
                black_box(crate::run_dependent(black_box(&typed), |s, o| {
                    f(&imp, s, o)
                }));
            }
            start.elapsed()
        }),
    }
}

/// Checks `imp` on the queries, then returns its row of cells (every piece in both modes).
pub fn row<S: Slider + 'static>(imp: S, group: Group, queries: &[(u8, u64)]) -> Row {
    crate::check(&imp, queries);
    let name = imp.name();
    let typed = Rc::new(crate::convert(&imp, queries));
    let imp = Rc::new(imp);
    let mut runners = Vec::new();
    for kind in Kind::ALL {
        for mode in Mode::ALL {
            let (i, t) = (imp.clone(), typed.clone());
            runners.push(match kind {
                Kind::Rook => runner(i, t, mode, |s: &S, q, o| s.rook(q, o)),
                Kind::Bishop => runner(i, t, mode, |s: &S, q, o| s.bishop(q, o)),
                Kind::Queen => runner(i, t, mode, |s: &S, q, o| s.queen(q, o)),
            });
        }
    }
    let n = runners.len();
    Row {
        name,
        group,
        runners,
        passes: vec![1; n],
        best: vec![f64::INFINITY; n],
    }
}

/// The environment variable `name` parsed, or `default`.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The CPU's model name from /proc/cpuinfo.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// Calibrates each cell to samples of about `sample`, then takes `samples` rounds of one
/// sample of every cell in turn (so that load from other processes hits every cell alike),
/// keeping each cell's fastest.
pub fn round_robin(rows: &mut [Row], samples: usize, sample: Duration) {
    // Calibrate: passes per sample so that a sample takes about `sample`.
    for r in rows.iter_mut() {
        for (i, run) in r.runners.iter().enumerate() {
            run(1);
            let one = run(1).max(Duration::from_nanos(1));
            r.passes[i] = (sample.as_nanos() / one.as_nanos()).clamp(1, 10_000) as u32;
        }
    }
    for _ in 0..samples {
        for r in rows.iter_mut() {
            for (i, run) in r.runners.iter().enumerate() {
                let t = run(r.passes[i]).as_secs_f64() * 1e9;
                let ns = t / (f64::from(r.passes[i]) * QUERIES as f64);
                if ns < r.best[i] {
                    r.best[i] = ns;
                }
            }
        }
    }
}
