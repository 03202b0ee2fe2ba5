//! Measures this machine's memory latency the way a big graph solve meets it: a chain of
//! dependent loads at random places in an array far larger than any cache (a single cycle
//! through a random permutation, Sattolo's algorithm), so every load waits for the one before.
//!
//! `cargo run --release -p zermelo --example memory_latency [MiB]` prints nanoseconds per load;
//! `scripts/bench.sh` records it next to the CPU model, because the solver's and the loader's
//! times depend on it more than on clock speed.

use std::time::Instant;

use zermelo::graph::generate::SplitMix64;

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1024);
    let n = mib * (1 << 20) / std::mem::size_of::<u64>();
    let mut next: Vec<u64> = (0..n as u64).collect();
    let mut rng = SplitMix64::new(1);
    for i in (1..n).rev() {
        let j = rng.below(i as u64) as usize;
        next.swap(i, j);
    }
    let loads = 20_000_000usize;
    let mut at = 0u64;
    let start = Instant::now();
    for _ in 0..loads {
        at = next[at as usize];
    }
    let ns = start.elapsed().as_nanos() as f64 / loads as f64;
    println!("{ns:.1} ns per dependent random load ({mib} MiB array, end {at})");
}
