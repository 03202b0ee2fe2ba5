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

/// One group of benchmarks over the three materials: `make` builds a material's sample (only
/// for the benchmarks the filter runs, so that `valgrind --tool=callgrind
/// --toggle-collect='*Unmoves*run*'` on one benchmark counts its own work alone), `run` is
/// timed. Throughput in boards (or indices).
fn materials<T, R>(
    c: &mut Criterion,
    name: &str,
    make: impl Fn(&str, usize) -> T,
    run: impl Fn(&mut T) -> R,
) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(BOARDS as u64));
    for material in ["KQRNvK", "KRNvKN", "KNPvKN"] {
        let mut sample = None;
        group.bench_function(material, |b| {
            let sample = sample.get_or_insert_with(|| make(material, BOARDS));
            b.iter(|| run(sample))
        });
    }
    group.finish();
}

/// The un-moves of 100,000 random legal boards.
fn unmoves(c: &mut Criterion) {
    materials(
        c,
        "unmoves",
        |m, n| Unmoves::new(m, n).expect("a material"),
        Unmoves::run,
    );
}

/// Seeding's own work on 100,000 random indices (legal or not): the legality test, and the
/// quiet moves counted and the exits listed of the legal ones (the probes of the exits are
/// not made).
fn seeding(c: &mut Criterion) {
    materials(
        c,
        "seeding",
        |m, n| Seeding::new(m, n).expect("a material"),
        |s: &mut Seeding| s.run(),
    );
}

criterion_group!(benches, unmoves, seeding);
criterion_main!(benches);
