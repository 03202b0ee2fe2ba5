//! Writes a table file again with another zstd level and block size (the same entries), to
//! measure what the codec costs a probe: `cargo run --release -p zermelo-chess --example
//! rewrite_table -- IN OUT LEVEL LOG2_BLOCK_ENTRIES`.

use std::path::PathBuf;

use zermelo_chess::{Codec, Table, WriteOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, level, log] = &args[..] else {
        return Err("usage: rewrite_table IN OUT LEVEL LOG2_BLOCK_ENTRIES".into());
    };
    let log: u32 = log.parse()?;
    if !(10..=20).contains(&log) {
        return Err(format!("LOG2_BLOCK_ENTRIES {log}: expected 10 to 20").into());
    }
    let table = Table::open(&PathBuf::from(input))?;
    let options = WriteOptions {
        codec: Codec::Zstd(level.parse()?),
        block_entries: 1 << log,
    };
    let mut bytes = Vec::new();
    // Raw first: a file already in zstd with this block size would be copied as it is.
    table.write_with(
        &mut bytes,
        &WriteOptions {
            codec: Codec::Raw,
            block_entries: options.block_entries,
        },
    )?;
    let raw = Table::from_bytes(&bytes)?;
    bytes.clear();
    raw.write_with(&mut bytes, &options)?;
    std::fs::write(output, &bytes)?;
    println!("{output}: {} bytes", bytes.len());
    Ok(())
}
