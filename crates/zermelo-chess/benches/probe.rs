//! Probe latency once a table is open.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{criterion_group, criterion_main, Criterion};
use zermelo_chess::{generate, Material, Position, Tablebase};

fn probe(c: &mut Criterion) {
    let tb = Tablebase::in_memory();
    for m in Material::generation_order(&["KRvK".parse().unwrap()]) {
        let t = generate(&m, &tb, &Default::default()).unwrap();
        tb.insert(t);
    }
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/K6R w - - 0 1").unwrap();
    c.bench_function("probe KRvK", |b| {
        b.iter(|| tb.probe(std::hint::black_box(&pos)).unwrap())
    });
    c.bench_function("probe_moves KRvK", |b| {
        b.iter(|| tb.probe_moves(std::hint::black_box(&pos)).unwrap())
    });
}

criterion_group!(benches, probe);
criterion_main!(benches);
