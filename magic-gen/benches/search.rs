//! The search's speed target: standard-bit fancy magics for all 128 piece/square cases on
//! one thread, including the exhaustive verification `search` always ends with.
//!
//! `cargo bench -p magic-gen --bench search` (Stockfish's start-up search takes 25-35 ms on
//! similar hardware; the target is at most 40 ms for every seed from 1 to 10). Ten flat
//! samples of one search each per seed and clock keep the whole run near a minute.
//!
//! Each case is measured twice: in wall-clock time (criterion's default) and, on Unix, in
//! CPU time of the whole process (`CLOCK_PROCESS_CPUTIME_ID`, which counts the search's
//! worker thread too), which stays honest when other jobs share the machine's cores: time
//! spent waiting for a core is not counted.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use magic_gen::hunt::{Hooks, Hunt, Outcome, Wanted};
use magic_gen::search::{Options, SearchState};
use magic_gen::{verify, Variant};

/// Standard-bit fancy magics from `seed` on one thread.
fn config(seed: u64) -> Options {
    let mut options = Options::for_variant(Variant::Fancy);
    options.scan.seed = seed;
    options.limits.threads = 1;
    options
}

/// Returns the hunt of `options`, which ends with `verify` and fails if the set does not
/// verify.
fn hunt(options: &Options) -> Outcome {
    let mut state = SearchState::new(options).expect("a fancy search");
    Hunt::search(&mut state, &options.limits, Wanted::Set)
        .run(Hooks::default())
        .expect("standard bits always succeed")
}

fn fancy_standard_bits<M: Measurement + 'static>(c: &mut Criterion<M>, label: &str) {
    let mut group = c.benchmark_group(format!(
        "fancy standard bits, 128 squares, 1 thread, {label}"
    ));
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    for seed in 1u64..=10 {
        group.bench_function(format!("seed {seed}"), |b| {
            b.iter(|| {
                let outcome = hunt(black_box(&config(seed)));
                black_box(outcome.report.table_len)
            })
        });
    }
    group.finish();

    // The verification alone, to split the figure above.
    let set = hunt(&config(1)).set;
    c.bench_function(&format!("verify fancy set, {label}"), |b| {
        b.iter(|| black_box(verify(black_box(&set)).is_ok()))
    });
}

fn wall(c: &mut Criterion) {
    fancy_standard_bits(c, "wall time");
}

fn cpu(c: &mut Criterion<ProcessCpu>) {
    if ProcessCpu::now().is_some() {
        fancy_standard_bits(c, "process CPU time");
    }
}

/// CPU time consumed by the process (all its threads), in nanoseconds.
struct ProcessCpu;

impl ProcessCpu {
    #[cfg(unix)]
    fn now() -> Option<u64> {
        use nix::time::{clock_gettime, ClockId};
        let t = clock_gettime(ClockId::CLOCK_PROCESS_CPUTIME_ID).ok()?;
        Some(t.tv_sec() as u64 * 1_000_000_000 + t.tv_nsec() as u64)
    }

    #[cfg(not(unix))]
    fn now() -> Option<u64> {
        None
    }
}

impl Measurement for ProcessCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        ProcessCpu::now().unwrap_or(0)
    }
    fn end(&self, start: u64) -> u64 {
        ProcessCpu::now().unwrap_or(0).saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanoseconds
    }
}

/// Formats nanosecond values like criterion's wall-time formatter.
struct Nanoseconds;

impl ValueFormatter for Nanoseconds {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let per = match throughput {
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => *n as f64,
            Throughput::Elements(n) | Throughput::Bits(n) => *n as f64,
            Throughput::ElementsAndBytes { elements, .. } => *elements as f64,
        };
        values.iter_mut().for_each(|v| *v = per * 1e9 / *v);
        "elem/s"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

criterion_group!(wall_time, wall);
criterion_group! {
    name = cpu_time;
    config = Criterion::default().with_measurement(ProcessCpu);
    targets = cpu
}
criterion_main!(wall_time, cpu_time);
