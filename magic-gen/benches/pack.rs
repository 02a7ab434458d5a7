//! The packer's speed: annealing moves a second, one core, on the published black magics
//! (`magic-gen/tests/data/published-black-87988.txt`), the packer's benchmark set.
//!
//! `cargo bench -p magic-gen --bench pack`. Two cases: the greedy pass alone and the greedy
//! pass plus 2,000 annealing moves; moves a second are 2,000 over the difference of the
//! two times. Instructions a move, which do not depend on the machine's load, come from
//! `valgrind --tool=callgrind` on `magic-gen pack` (docs/results/search-speed.md).

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use magic_gen::hunt::{Hooks, Hunt};
use magic_gen::pack::PackSettings;
use magic_gen::read_set_file;
use magic_gen::search::Limits;

/// Annealing moves of the measured packing.
const MOVES: u64 = 2_000;

fn published_black(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/published-black-87988.txt");
    let (set, _, _) = read_set_file(&path).expect("the published black set reads");
    let report = magic_gen::verify(&set)
        .expect("the published black set verifies")
        .report;
    let mut group = c.benchmark_group("pack published black magics, 1 thread");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for moves in [0, MOVES] {
        let pack = PackSettings {
            iterations: moves,
            ..PackSettings::default()
        };
        let limits = Limits {
            pack,
            ..Limits::default()
        };
        group.bench_function(format!("greedy + {moves} moves"), |b| {
            b.iter(|| {
                let outcome = Hunt::repack(black_box(&set), &report, &limits)
                    .run(Hooks::default())
                    .expect("the published set packs");
                black_box(outcome.packed_len)
            })
        });
    }
    group.finish();
}

criterion_group!(pack, published_black);
criterion_main!(pack);
