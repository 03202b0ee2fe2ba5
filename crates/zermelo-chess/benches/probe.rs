//! Probe latency once a table is open: a generated (uncompressed) table, and the same table
//! written and read back with each codec. The positions cycle over 4,096 random legal ones
//! spread over the whole table, so most probes decode a block that is not cached.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{criterion_group, criterion_main, Criterion};
use zermelo_chess::{generate, Codec, Material, Position, Table, Tablebase, WriteOptions};

/// Every table `target` needs, generated in memory.
fn build(target: &str) -> (Tablebase, Material) {
    let tb = Tablebase::in_memory();
    let m: Material = target.parse().unwrap();
    for dep in Material::generation_order(std::slice::from_ref(&m)) {
        tb.insert(generate(&dep, &tb, &Default::default()).unwrap());
    }
    (tb, m)
}

/// `n` legal positions of `table`, at indices picked by a fixed pseudo-random sequence.
fn sample(table: &Table, n: usize) -> Vec<Position> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::new();
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if let Some(p) = table.indexer().legal(x % table.size()) {
            out.push(p);
        }
    }
    out
}

fn probe(c: &mut Criterion) {
    let (tb, m) = build("KQvKR");
    let generated = tb.table(&m).unwrap();
    let positions = sample(&generated, 4096);
    let codecs = [
        ("generated", None),
        ("raw", Some(Codec::Raw)),
        ("zstd", Some(Codec::Zstd(6))),
        ("run-length", Some(Codec::RunLength)),
    ];
    for (name, codec) in codecs {
        let probed = match codec {
            None => &tb,
            Some(codec) => {
                let mut bytes = Vec::new();
                let options = WriteOptions {
                    codec,
                    ..Default::default()
                };
                generated.write_with(&mut bytes, &options).unwrap();
                let other = Tablebase::in_memory();
                other.insert(Table::from_bytes(&bytes).unwrap());
                &*Box::leak(Box::new(other))
            }
        };
        let mut i = 0;
        c.bench_function(&format!("probe KQvKR {name}"), |b| {
            b.iter(|| {
                i = (i + 1) % positions.len();
                probed.probe(std::hint::black_box(&positions[i])).unwrap()
            })
        });
    }
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/K6Q w - - 0 1").unwrap();
    c.bench_function("probe_moves KQvK", |b| {
        b.iter(|| tb.probe_moves(std::hint::black_box(&pos)).unwrap())
    });
}

criterion_group!(benches, probe);
criterion_main!(benches);
