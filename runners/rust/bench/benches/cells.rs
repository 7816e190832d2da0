//! Criterion versions of serbench cells, timing the very operation bodies the runner
//! times (`CellOps::run` from the runner's library). Cells come from SERBENCH_CELLS:
//! `serializer:dataset:operation:data-file`, separated by `;`. Each benchmark is named
//! `serializer__dataset__operation/cell`.

use std::time::Instant;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use serbench_runner::cell::{Op, Source};
use serbench_runner::registry::registry;
use serbench_runner::types::builtin;

#[global_allocator]
static ALLOC: serbench_runner::alloc::Counting = serbench_runner::alloc::Counting;

fn cells(c: &mut Criterion) {
    let spec = std::env::var("SERBENCH_CELLS")
        .expect("SERBENCH_CELLS=serializer:dataset:operation:file;...");
    let entries = registry();
    for cell in spec.split(';').filter(|s| !s.is_empty()) {
        let parts: Vec<&str> = cell.splitn(4, ':').collect();
        let [ser, ds, op, file] = parts[..] else {
            panic!("bad cell {cell}")
        };
        let entry = entries.iter().find(|e| e.name == ser).expect("serializer");
        let mut boxed = (entry.make)(builtin(ds).expect("dataset")).expect("applicable");
        let p = boxed
            .prepare(&Source {
                data: file,
                check_data: file,
                decode_from: None,
                types: None,
                schemas: None,
            })
            .unwrap_or_else(|_| panic!("prepare {cell}"));
        assert!(p.check_ok, "{}", p.detail);
        let op = Op::parse(op).expect("operation");
        // Flat sampling: every sample runs the same number of operations, as serbench's do.
        let mut group = c.benchmark_group(format!("{ser}__{ds}__{}", parts[2]));
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function("cell", |b| {
            b.iter_custom(|iters| {
                let t = Instant::now();
                boxed.run(op, iters).unwrap();
                t.elapsed()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, cells);
criterion_main!(benches);
