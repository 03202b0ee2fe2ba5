//! The generator's compute on its own, without the engine and its cells: the layer loop's
//! un-moves of 100,000 random legal boards of a table, and seeding's legality test and move
//! count on 100,000 random indices. Four pieces against a bare king (the white side has ~40
//! un-moves a board), three against two without and with a pawn. Under callgrind
//! (`--toggle-collect='*Unmoves*run*'` or `'*Seeding*run*'`, one benchmark selected) the
//! instruction counts compare builds on a noisy machine.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zermelo_chess::bench_hooks::{Seeding, Unmoves};

const BOARDS: usize = 100_000;

fn unmoves(c: &mut Criterion) {
    let mut group = c.benchmark_group("unmoves");
    // Throughput in boards; the boards are drawn only for the benchmarks the filter runs (so
    // that `valgrind --tool=callgrind --toggle-collect='*Unmoves*run*'` on one benchmark
    // counts the instructions of its boards alone).
    group.throughput(Throughput::Elements(BOARDS as u64));
    for material in ["KQRNvK", "KRNvKN", "KNPvKN"] {
        let mut bench = None;
        group.bench_function(material, |b| {
            let bench =
                bench.get_or_insert_with(|| Unmoves::new(material, BOARDS).expect("a material"));
            b.iter(|| bench.run())
        });
    }
    group.finish();
}

/// Seeding's own work on 100,000 random indices (legal or not): the legality test, and the
/// quiet moves counted and the exits listed of the legal ones (the probes of the exits are
/// not made).
fn seeding(c: &mut Criterion) {
    let mut group = c.benchmark_group("seeding");
    group.throughput(Throughput::Elements(BOARDS as u64));
    for material in ["KQRNvK", "KRNvKN", "KNPvKN"] {
        let mut bench = None;
        group.bench_function(material, |b| {
            let bench =
                bench.get_or_insert_with(|| Seeding::new(material, BOARDS).expect("a material"));
            b.iter(|| bench.run())
        });
    }
    group.finish();
}

criterion_group!(benches, unmoves, seeding);
criterion_main!(benches);
