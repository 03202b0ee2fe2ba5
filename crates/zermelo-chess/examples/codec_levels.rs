//! Encode time, size and decode time of table files under zstd levels and block sizes:
//! `cargo run --release -p zermelo-chess --example codec_levels -- FILE...`.

use std::path::PathBuf;
use std::time::Instant;

use zermelo_chess::{Codec, Table, WriteOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let configs = [
        (6, 12),
        (5, 12),
        (4, 12),
        (3, 12),
        (1, 12),
        (6, 11),
        (5, 11),
        (4, 11),
        (3, 11),
        (1, 11),
    ];
    for f in std::env::args().skip(1) {
        let opened = Table::open(&PathBuf::from(&f))?;
        // Raw first, so that every configuration below is encoded afresh.
        let mut raw = Vec::new();
        opened.write_with(
            &mut raw,
            &WriteOptions {
                codec: Codec::Raw,
                block_entries: 1 << 13,
            },
        )?;
        drop(opened);
        let table = Table::from_bytes(&raw)?;
        for &(level, log) in &configs {
            let options = WriteOptions {
                codec: Codec::Zstd(level),
                block_entries: 1 << log,
            };
            let t0 = Instant::now();
            let mut bytes = Vec::new();
            table.write_with(&mut bytes, &options)?;
            let enc = t0.elapsed().as_secs_f64();
            let read = Table::from_bytes(&bytes)?;
            let t1 = Instant::now();
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            let n = 200_000;
            for _ in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                std::hint::black_box(read.value(x % read.size())?);
            }
            let dec = t1.elapsed().as_secs_f64();
            println!(
                "{f} zstd {level} block 2^{log}: {:.1} MB, encode {enc:.2} s, random probe {:.2} us",
                bytes.len() as f64 / 1e6,
                dec * 1e6 / n as f64
            );
        }
    }
    Ok(())
}
