//! Criterion benchmarks of slider attack lookups: every backend of this crate, the
//! table-free baselines (slow ray walk, Kogge-Stone), a phf perfect-hash dictionary and
//! the peer crates, on one fixed, seeded query set (see `magic_bitboards_benches::queries`).
//!
//! Groups are `<piece>/<mode>` (rook, bishop, queen; independent, dependent), one
//! benchmark per implementation; throughput is counted in lookups, so criterion reports
//! lookups per second (and time per pass over the 8192 queries). Every implementation
//! is checked against the slow ray walk before it is timed.
//!
//! ```text
//! CARGO_TARGET_DIR=/work/target-bench cargo bench -p magic-bitboards-benches --bench attacks
//! CARGO_TARGET_DIR=/work/target-bench cargo bench -p magic-bitboards-benches --bench attacks -- 'queen/'
//! ```
//!
//! Measurement time is kept short (0.8 s per benchmark, 84 benchmarks: about two minutes)
//! because the machine is shared; pass `--measurement-time` to change it. For one table
//! of every figure side by side, run the quick mode (`benches/quick.rs`) instead.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};

use magic_bitboards_benches::{self as common, Group, ImplVisitor, Kind, Mode, Slider};

fn bench_impl<S: Slider>(c: &mut Criterion, imp: S, queries: &[(u8, u64)]) {
    common::check(&imp, queries);
    let typed = common::convert(&imp, queries);
    let name = imp.name().replace("**", "");
    for kind in Kind::ALL {
        for mode in Mode::ALL {
            let mut group: BenchmarkGroup<_> =
                c.benchmark_group(format!("{}/{}", kind.name(), mode.name()));
            group
                .throughput(Throughput::Elements(typed.len() as u64))
                .warm_up_time(Duration::from_millis(300))
                .measurement_time(Duration::from_millis(800))
                .sample_size(20);
            match (kind, mode) {
                (Kind::Rook, Mode::Independent) => group.bench_function(&name, |b| {
                    b.iter(|| common::run_independent(black_box(&typed), |s, o| imp.rook(s, o)))
                }),
                (Kind::Rook, Mode::Dependent) => group.bench_function(&name, |b| {
                    b.iter(|| common::run_dependent(black_box(&typed), |s, o| imp.rook(s, o)))
                }),
                (Kind::Bishop, Mode::Independent) => group.bench_function(&name, |b| {
                    b.iter(|| common::run_independent(black_box(&typed), |s, o| imp.bishop(s, o)))
                }),
                (Kind::Bishop, Mode::Dependent) => group.bench_function(&name, |b| {
                    b.iter(|| common::run_dependent(black_box(&typed), |s, o| imp.bishop(s, o)))
                }),
                (Kind::Queen, Mode::Independent) => group.bench_function(&name, |b| {
                    b.iter(|| common::run_independent(black_box(&typed), |s, o| imp.queen(s, o)))
                }),
                (Kind::Queen, Mode::Dependent) => group.bench_function(&name, |b| {
                    b.iter(|| common::run_dependent(black_box(&typed), |s, o| imp.queen(s, o)))
                }),
            };
            group.finish();
        }
    }
}

struct Bench<'a> {
    c: &'a mut Criterion,
    queries: Vec<(u8, u64)>,
}

impl ImplVisitor for Bench<'_> {
    fn visit<S: Slider + 'static>(&mut self, imp: S, _: Group) {
        bench_impl(self.c, imp, &self.queries);
    }
}

fn attacks(c: &mut Criterion) {
    let queries = common::queries();
    common::for_each_impl(&mut Bench { c, queries });
}

criterion_group!(benches, attacks);
criterion_main!(benches);
