//! The search's speed target: standard-bit fancy magics for all 128 piece/square cases on
//! one thread, including the exhaustive verification `search` always ends with.
//!
//! `cargo bench -p magic-gen --bench search` (Stockfish's start-up search takes 25-35 ms on
//! similar hardware; the target is at most 50 ms).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use magic_gen::search::{search, Progress, SearchConfig};
use magic_gen::{verify, Variant};

fn config(seed: u64) -> SearchConfig {
    SearchConfig {
        variant: Variant::Fancy,
        targets: Vec::new(),
        bits: None,
        seconds: None,
        threads: 1,
        seed,
    }
}

fn fancy_standard_bits(c: &mut Criterion) {
    let mut group = c.benchmark_group("fancy standard bits, 128 squares, 1 thread");
    group.sample_size(20);
    for seed in [1u64, 2, 3] {
        group.bench_function(format!("seed {seed}"), |b| {
            b.iter(|| {
                let outcome = search(black_box(&config(seed)), &Progress::default())
                    .expect("standard bits always succeed");
                black_box(outcome.report.table_len)
            })
        });
    }
    group.finish();

    // The verification alone, to split the figure above.
    let set = search(&config(1), &Progress::default()).unwrap().set;
    c.bench_function("verify fancy set", |b| {
        b.iter(|| black_box(verify(black_box(&set)).is_ok()))
    });
}

criterion_group!(benches, fancy_standard_bits);
criterion_main!(benches);
