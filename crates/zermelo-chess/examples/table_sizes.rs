//! The size of every table in a directory under each codec, as a Markdown table (the figures
//! in BENCHMARKS.md): `cargo run --release -p zermelo-chess --example table_sizes -- DIR`.
//!
//! Each table is read, then written to memory raw and with each codec in blocks of 8,192
//! entries (zstd also in other block sizes). Each cell gives the size, then the mean time of a
//! lookup that decodes its block (one lookup per block, so the block cache never hits).

use std::path::PathBuf;
use std::time::Instant;

use zermelo_chess::{Codec, Material, Table, WriteOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).ok_or("usage: table_sizes DIR")?);
    let mut materials: Vec<Material> = std::fs::read_dir(&dir)?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".zct")?.parse().ok()
        })
        .collect();
    materials.sort_by_key(|m| (m.piece_count(), m.to_string()));
    let configs = [
        ("raw", Codec::Raw, 1 << 13),
        ("run-length 4K", Codec::RunLength, 1 << 12),
        ("run-length 8K", Codec::RunLength, 1 << 13),
        ("zstd 3, 2K", Codec::Zstd(3), 1 << 11),
        ("zstd 3, 4K", Codec::Zstd(3), 1 << 12),
        ("zstd 9, 4K", Codec::Zstd(9), 1 << 12),
        ("zstd 19, 4K", Codec::Zstd(19), 1 << 12),
        ("zstd 9, 8K", Codec::Zstd(9), 1 << 13),
        ("zstd 9, 64K", Codec::Zstd(9), 1 << 16),
    ];
    print!("| table | entries |");
    for (name, _, _) in &configs {
        print!(" {name} |");
    }
    println!();
    println!("|---|---:|{}", "---:|".repeat(configs.len()));
    let mut totals = vec![(0u64, 0f64, 0u64); configs.len()];
    for m in &materials {
        let table = Table::open(&dir.join(Table::file_name(m)))?;
        print!("| {m} | {} |", table.size());
        for (k, &(_, codec, block_entries)) in configs.iter().enumerate() {
            let options = WriteOptions {
                codec,
                block_entries,
            };
            let mut bytes = Vec::new();
            table.write_with(&mut bytes, &options)?;
            let read = Table::from_bytes(&bytes)?;
            let started = Instant::now();
            let mut lookups = 0u64;
            for idx in (0..read.size()).step_by(block_entries as usize) {
                let mid = (idx + block_entries as u64 / 2).min(read.size() - 1);
                std::hint::black_box(read.value(mid)?);
                lookups += 1;
            }
            let secs = started.elapsed().as_secs_f64();
            totals[k].0 += bytes.len() as u64;
            totals[k].1 += secs;
            totals[k].2 += lookups;
            print!(
                " {}, {:.1} us |",
                human(bytes.len() as u64),
                secs * 1e6 / lookups as f64
            );
        }
        println!();
    }
    print!("| all {} tables | |", materials.len());
    for (bytes, secs, lookups) in &totals {
        print!(
            " **{}**, {:.1} us |",
            human(*bytes),
            secs * 1e6 / *lookups as f64
        );
    }
    println!();
    Ok(())
}

fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 10 << 20 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 10 << 10 => format!("{:.0} kB", b as f64 / 1e3),
        b => format!("{b} B"),
    }
}
