//! Criterion version of a serbench cell, timing the very operation body the runner times
//! (`CellOps::run` from the runner's library): the native harness of `serbench calibrate`
//! (docs/runner-protocol.md, section 12).
//!
//!     cargo bench -p serbench-rust-bench --bench cells -- --serializer S --dataset D
//!         --dataset-file F --operation OP --samples K --sample-ms M --warmup-ms W
//!
//! Criterion picks its own batch sizes (flat sampling, aiming at M ms per sample); each
//! sample is printed as one JSON line with its iteration count.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use serbench_runner::cell::{Op, Source, Verify};
use serbench_runner::model::builtin;
use serbench_runner::registry::registry;
use serbench_runner::serve::thread_cpu_ns;

#[global_allocator]
static ALLOC: serbench_runner::alloc::Counting = serbench_runner::alloc::Counting;

/// One call of the routine: operations, wall time, thread CPU time.
type Sample = (u64, Duration, u64);

fn main() {
    let args = parse_args();
    let arg = |name: &str| -> &str {
        args.get(name)
            .map(String::as_str)
            .unwrap_or_else(|| fail(&format!("missing --{name}")))
    };
    let number = |name: &str| -> f64 {
        arg(name)
            .parse()
            .unwrap_or_else(|_| fail(&format!("--{name}: not a number")))
    };
    let (ser, ds, file) = (arg("serializer"), arg("dataset"), arg("dataset-file"));
    let op = Op::parse(arg("operation")).unwrap_or_else(|| fail("--operation: encode or decode"));
    // criterion needs at least 10 samples
    let samples = (number("samples") as usize).max(10);
    let sample = Duration::from_secs_f64(number("sample-ms") / 1e3);
    let warm_up = Duration::from_secs_f64(number("warmup-ms") / 1e3);

    let entry = registry()
        .into_iter()
        .find(|e| e.name == ser)
        .unwrap_or_else(|| fail(&format!("unknown serializer {ser}")));
    let dataset = builtin(ds).unwrap_or_else(|| fail(&format!("unknown dataset {ds}")));
    let mut cell = (entry.make)(dataset).unwrap_or_else(|e| fail(&e));
    let source = Source {
        data: file,
        check_data: file,
        decode_from: None,
        types: None,
        schemas: None,
    };
    match cell.prepare(&source, Verify::Check) {
        Ok(p) if p.check_ok => {}
        Ok(p) => fail(&format!("check failed: {}", p.detail)),
        Err(_) => fail("prepare failed"),
    }

    let mut calls: Vec<Sample> = Vec::new();
    let mut c = Criterion::default()
        .sample_size(samples)
        .warm_up_time(warm_up)
        .measurement_time(sample * samples as u32)
        .without_plots();
    let mut group = c.benchmark_group(format!("{ser}__{ds}__{}", arg("operation")));
    // flat sampling: every sample runs the same number of operations, as serbench's do
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("cell", |b| {
        b.iter_custom(|iters| {
            let (t, c0) = (Instant::now(), thread_cpu_ns());
            cell.run(op, iters).unwrap_or_else(|e| fail(&e));
            let (wall, c1) = (t.elapsed(), thread_cpu_ns());
            calls.push((iters, wall, c1 - c0));
            wall
        })
    });
    group.finish();
    // criterion calls the routine for its warm-up, then once per sample: the samples are
    // the last `samples` calls (what it stores in new/sample.json)
    for (iters, wall, cpu) in &calls[calls.len().saturating_sub(samples)..] {
        println!(
            "{{\"wall_ns\": {}, \"cpu_ns\": {cpu}, \"iterations\": {iters}}}",
            wall.as_nanos()
        );
    }
}

/// `--name value` pairs; cargo's own `--bench` flag is passed through and ignored.
fn parse_args() -> HashMap<String, String> {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut out = HashMap::new();
    while let Some(name) = args.next() {
        let Some(name) = name.strip_prefix("--") else {
            fail(&format!("unexpected argument {name}"))
        };
        let value = args
            .next()
            .unwrap_or_else(|| fail(&format!("--{name} needs a value")));
        out.insert(name.to_owned(), value);
    }
    out
}

fn fail(message: &str) -> ! {
    eprintln!("serbench-rust-bench: {message}");
    std::process::exit(2)
}
