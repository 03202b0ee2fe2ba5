//! The layer loop's move generation on its own: the un-moves of 100,000 random legal boards
//! of a table (no engine, no cells: the compute that the generator's memory traffic hides or
//! not). Four pieces against a bare king (the white side has ~40 un-moves a board), three
//! against two without and with a pawn.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zermelo_chess::bench_hooks::Unmoves;

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

criterion_group!(benches, unmoves);
criterion_main!(benches);
