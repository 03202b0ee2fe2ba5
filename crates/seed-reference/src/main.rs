//! The baseline for `scripts/bench.sh`: retrograde analysis written the way the seed documents
//! write it (seed 000, "Retrograde analysis with distance-to-win"): lines read and split one at a
//! time, reverse adjacency as a vector of vectors, a `VecDeque` worklist, and separate label,
//! distance and known arrays. It is deliberately straightforward — not a strawman: release
//! build, buffered input, no needless copies.
//!
//! Usage: `seed-reference GRAPH.txt` (zermelo's edge-list format); prints the same summary as
//! `zermelo solve --summary`.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};

const LOSE: u8 = 0;
const WIN: u8 = 1;
const DRAW: u8 = 2;

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: seed-reference GRAPH.txt");
    let file = std::fs::File::open(&path).expect("cannot open the graph");
    let mut lines = BufReader::new(file)
        .lines()
        .map(|l| l.expect("read error"))
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty());
    let header = lines.next().expect("empty file");
    let mut it = header
        .split_whitespace()
        .map(|t| t.parse::<usize>().expect("bad number"));
    let (n, m) = (it.next().unwrap(), it.next().unwrap());

    let mut rev: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut deg = vec![0usize; n];
    for _ in 0..m {
        let line = lines.next().expect("missing edge");
        let mut it = line
            .split_whitespace()
            .map(|t| t.parse::<usize>().expect("bad number"));
        let (u, v) = (it.next().unwrap(), it.next().unwrap());
        deg[u] += 1;
        rev[v].push(u);
    }

    let mut label = vec![DRAW; n];
    let mut dist = vec![-1i64; n];
    let mut known = vec![false; n];
    let mut queue = VecDeque::new();
    for u in 0..n {
        if deg[u] == 0 {
            label[u] = LOSE;
            dist[u] = 0;
            known[u] = true;
            queue.push_back(u);
        }
    }
    while let Some(v) = queue.pop_front() {
        for &u in &rev[v] {
            if known[u] {
                continue;
            }
            if label[v] == LOSE {
                label[u] = WIN;
                dist[u] = dist[v] + 1;
                known[u] = true;
                queue.push_back(u);
            } else {
                deg[u] -= 1;
                dist[u] = dist[u].max(dist[v] + 1);
                if deg[u] == 0 {
                    label[u] = LOSE;
                    known[u] = true;
                    queue.push_back(u);
                }
            }
        }
    }

    let count = |l: u8| label.iter().filter(|&&x| x == l).count();
    println!("nodes      {n}");
    println!("edges      {m}");
    println!("win        {}", count(WIN));
    println!("lose       {}", count(LOSE));
    println!("draw       {}", count(DRAW));
    let decided = dist.iter().zip(&known).filter(|(_, &k)| k).map(|(&d, _)| d);
    println!("max_depth  {}", decided.max().unwrap_or(-1));
}
