//! Probing Syzygy's published tables, mapped and warm: WDL and DTZ of random legal positions of
//! every 4-piece material (`../shared/syzygy-3-4`, or `ZERMELO_SYZYGY_DIR`), through the reader
//! ([`SyzygyTables`]) and through the tablebase the answers use ([`Tablebase::wdl_of`],
//! [`Tablebase::dtz_of`]). The positions are written to `target/syzygy-bench-fens.txt` so that
//! `scripts/syzygy-bench.sh` times python-chess on the same ones in the same run.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use zermelo_chess::{Indexer, Material, Position, SyzygyTables, Tablebase};

/// The published tables, if present.
fn table_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("ZERMELO_SYZYGY_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy-3-4"),
        PathBuf::from,
    );
    dir.join("KQvKR.rtbw").is_file().then_some(dir)
}

/// `n` legal positions spread over every 4-piece material, from a fixed pseudo-random
/// sequence (each material in turn, a random index of it).
fn sample(n: usize) -> Vec<Position> {
    let materials: Vec<Indexer> = Material::all_up_to(4)
        .iter()
        .filter(|m| m.piece_count() == 4)
        .map(Indexer::new)
        .collect();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::new();
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let ix = &materials[out.len() % materials.len()];
        if let Some(p) = ix.legal(x % ix.size()) {
            out.push(p);
        }
    }
    out
}

fn syzygy(c: &mut Criterion) {
    let Some(dir) = table_dir() else {
        eprintln!("skipped: no Syzygy tables at ../shared/syzygy-3-4 (set ZERMELO_SYZYGY_DIR)");
        return;
    };
    let positions = sample(10_000);
    let fens: Vec<String> = positions.iter().map(Position::fen).collect();
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/syzygy-bench-fens.txt");
    std::fs::write(&out, fens.join("\n") + "\n").unwrap();
    let dirs = [dir];
    // SAFETY: the published tables are read-only files nothing rewrites during the bench.
    #[allow(unsafe_code)]
    let (tables, tb) = unsafe {
        (
            SyzygyTables::open_mapped(&dirs).unwrap(),
            Tablebase::open_mapped_all(&dirs),
        )
    };
    // Warm: every table opened and its pages read once.
    for p in &positions {
        tables.probe_dtz(p).unwrap();
        tb.dtz_of(p).unwrap().unwrap();
    }
    let mut i = 0;
    let mut next = || {
        i = (i + 1) % positions.len();
        std::hint::black_box(&positions[i])
    };
    c.bench_function("syzygy probe_wdl (4 pieces, mapped, warm)", |b| {
        b.iter(|| tables.probe_wdl(next()).unwrap())
    });
    c.bench_function("syzygy probe_dtz (4 pieces, mapped, warm)", |b| {
        b.iter(|| tables.probe_dtz(next()).unwrap())
    });
    c.bench_function("tablebase wdl_of (Syzygy, 4 pieces)", |b| {
        b.iter(|| tb.wdl_of(next()).unwrap())
    });
    c.bench_function("tablebase dtz_of (Syzygy, 4 pieces)", |b| {
        b.iter(|| tb.dtz_of(next()).unwrap())
    });
}

criterion_group!(benches, syzygy);
criterion_main!(benches);
