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
    for material in ["KQRNvK", "KRNvKN", "KNPvKN"] {
        let mut bench = Unmoves::new(material, BOARDS).expect("a material");
        let (count, _) = bench.run();
        group.throughput(Throughput::Elements(count));
        group.bench_function(material, |b| b.iter(|| bench.run()));
    }
    group.finish();
}

criterion_group!(benches, unmoves);
criterion_main!(benches);
