//! The solve kernel on graphs already in memory: sequential vs parallel, full vs reverse-only
//! graphs, random vs deep vs cyclic structure. `cargo bench -p zermelo --bench solve`.
#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use zermelo::graph::generate::{chain_edges, grid_pursuit, random_edges, GridSpec, RandomSpec};
use zermelo::graph::{Csr, ReverseCsr, Rules};
use zermelo::solve;

fn graphs() -> Vec<(&'static str, Csr)> {
    let spec = RandomSpec {
        nodes: 1_000_000,
        edges: 5_000_000,
        terminal_fraction: 0.03,
        seed: 2,
    };
    let grid = GridSpec {
        width: 30,
        height: 30,
        wall_fraction: 0.1,
        seed: 1,
    };
    let (grid_n, grid_edges) = grid_pursuit(grid);
    vec![
        (
            "random-1e6x5e6",
            Csr::from_edges(spec.nodes, random_edges(spec)).unwrap(),
        ),
        (
            "chain-1e6",
            Csr::from_edges(1_000_000, chain_edges(1_000_000)).unwrap(),
        ),
        ("grid-30x30", Csr::from_edges(grid_n, grid_edges).unwrap()),
    ]
}

fn bench(c: &mut Criterion) {
    let rules = Rules::normal();
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (name, g) in graphs() {
        group.throughput(Throughput::Elements(g.edge_count()));
        let reverse = ReverseCsr::from_csr(&g);
        group.bench_with_input(BenchmarkId::new("sequential", name), &g, |b, g| {
            b.iter(|| solve::retrograde(g, &rules))
        });
        group.bench_with_input(
            BenchmarkId::new("sequential-reverse", name),
            &reverse,
            |b, g| b.iter(|| solve::retrograde(g, &rules)),
        );
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let id = BenchmarkId::new(format!("parallel-{threads}t"), name);
            group.bench_with_input(id, &g, |b, g| {
                b.iter(|| pool.install(|| solve::retrograde_parallel(g, &rules)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
