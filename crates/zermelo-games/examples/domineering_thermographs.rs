//! Thermographs of every Domineering position up to 4x4: every set of empty cells of every
//! board of 1x1 to 4x4 (2^(w h) positions each), its value and its thermograph, timed; the
//! benchmark of docs/benchmarks/values.md. `cargo run --release -p zermelo-games --example
//! domineering_thermographs [N]` (N = the largest side, 4 by default).

use std::time::Instant;

use zermelo_cgt::{Dyadic, Thermographs};
use zermelo_games::domineering::{Board, Domineering};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(4), |a| a.parse())?;
    let started = Instant::now();
    let mut solver = Domineering::new();
    let mut thermographs = Thermographs::new();
    let (mut positions, mut hottest) = (0u64, Dyadic::integer(-1));
    for h in 1..=n {
        for w in 1..=n {
            for bits in 0u64..1 << (w * h) {
                let rows: Vec<String> = (0..h)
                    .map(|r| {
                        (0..w)
                            .map(|c| {
                                if bits >> (r * w + c) & 1 == 1 {
                                    '.'
                                } else {
                                    '#'
                                }
                            })
                            .collect()
                    })
                    .collect();
                let board = Board::parse(&rows.join("/"))?;
                let v = solver.value(&board)?;
                let t = thermographs.of(v)?;
                hottest = hottest.max(t.temperature());
                positions += 1;
            }
        }
    }
    println!(
        "{positions} positions of boards up to {n}x{n}: values and thermographs in {:.3} s; \
         {} regions valued; hottest temperature {hottest}",
        started.elapsed().as_secs_f64(),
        solver.regions_valued()
    );
    Ok(())
}
