//! Probe latency on one compressed table, memory-mapped, at random positions (so nearly
//! every probe decodes a block the cache does not hold): the 5-piece figure of BENCHMARKS.md.
//!
//! `cargo run --release -p zermelo-chess --example probe_latency -- DIR MATERIAL [COUNT]`
//!
//! It times the DTM table (`.zct`) and, when it is there, the DTZ table (`.zdz`: class under
//! the 50-move rule and distance to zeroing) on the same positions.

use std::path::PathBuf;
use std::time::Instant;

use zermelo_chess::{Indexer, Material, Position, Tablebase};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, material) = match &args[..] {
        [d, m, ..] => (PathBuf::from(d), m.parse::<Material>()?),
        _ => return Err("usage: probe_latency DIR MATERIAL [COUNT]".into()),
    };
    let count: usize = args.get(2).map_or(Ok(20_000), |c| c.parse())?;
    // SAFETY: nothing writes the table files while this program runs.
    #[allow(unsafe_code)]
    let tb = unsafe { Tablebase::open_mapped(&dir) };
    tb.table(&material)?;
    let ix = Indexer::new(&material);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut positions: Vec<Position> = Vec::with_capacity(count);
    while positions.len() < count {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        if let Some(pos) = ix.legal(seed % ix.size()) {
            positions.push(pos);
        }
    }
    let t0 = Instant::now();
    let mut wins = 0;
    for pos in &positions {
        if tb.probe(pos)?.plies().is_some_and(|p| p % 2 == 1) {
            wins += 1;
        }
    }
    let per = t0.elapsed().as_secs_f64() / count as f64;
    println!(
        "{material}: {count} random positions, {:.2} us per DTM probe ({wins} wins)",
        per * 1e6
    );
    if tb.has_dtz(&material) {
        tb.dtz_table(&material)?;
        let t0 = Instant::now();
        let mut cursed = 0;
        for pos in &positions {
            let class = zermelo_chess::Wdl50::of(tb.probe_dtz(pos)?, tb.rule());
            if class == zermelo_chess::Wdl50::CursedWin {
                cursed += 1;
            }
        }
        let per = t0.elapsed().as_secs_f64() / count as f64;
        println!(
            "{material}: {count} random positions, {:.2} us per DTZ probe ({cursed} cursed wins)",
            per * 1e6
        );
    }
    Ok(())
}
