//! The library's time on edge rows held in memory: `GraphBuilder` (the CSR build) and
//! `solve::retrograde_auto`, timed separately. The baseline of the Python package's
//! `zermelo.solve(edges)` on the same rows (BENCHMARKS.md, "Python").
//!
//! `cargo run --release -p zermelo --example solve_rows FILE NODES` reads FILE as raw
//! little-endian `u32` pairs `(u, v)` (numpy: `edges.astype("<u4").tofile(FILE)`) and prints
//! the build, solve and total seconds, best of 3 runs.

use std::time::Instant;

use zermelo::graph::{GraphBuilder, Rules};
use zermelo::solve;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(file), Some(nodes)) = (args.next(), args.next()) else {
        return Err("usage: solve_rows FILE NODES".into());
    };
    let nodes: u64 = nodes.parse()?;
    let bytes = std::fs::read(&file)?;
    let ids: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    drop(bytes);
    let rules = Rules::normal();
    let mut best = [f64::MAX; 3];
    for _ in 0..3 {
        let start = Instant::now();
        let mut b = GraphBuilder::new(nodes)?;
        b.reserve(ids.len() / 2);
        for pair in ids.chunks_exact(2) {
            b.add_edge(u64::from(pair[0]), u64::from(pair[1]))?;
        }
        let graph = b.build()?;
        let built = start.elapsed().as_secs_f64();
        let solution = solve::retrograde_auto(&graph, &rules);
        let total = start.elapsed().as_secs_f64();
        let c = solution.counts();
        eprintln!(
            "build {built:.3} s, solve {:.3} s, total {total:.3} s ({} win, {} lose, {} draw)",
            total - built,
            c.win,
            c.lose,
            c.draw
        );
        for (b, t) in best.iter_mut().zip([built, total - built, total]) {
            *b = b.min(t);
        }
    }
    println!(
        "rows {} nodes {nodes}: build {:.3} s, solve {:.3} s, total {:.3} s (best of 3, {} threads)",
        ids.len() / 2,
        best[0],
        best[1],
        best[2],
        rayon::current_num_threads()
    );
    Ok(())
}
