//! Adding a game to zermelo: about fifty lines from rules to a verified solution.
//!
//! "Climb": a counter starts at 0; a move adds 1 or 2 without passing 10, and on the slippery
//! rungs 1 and 5 a player may instead step back 1. Whoever brings the counter to exactly 10
//! wins. Stepping back makes the game graph cyclic, so a forward search would loop; retrograde
//! analysis labels every position win, lose or draw, with its depth.
//!
//! Run with `cargo run -p zermelo --example custom_game`.

use zermelo::game::{dense_graph, solve_dense, solve_reachable, Game, Ranked, Unmoves};
use zermelo::{solve, Outcome};

const TOP: u8 = 10;
const SLIPPERY: [u8; 2] = [1, 5];

/// The rules. `Game` is all that is required.
struct Climb;

impl Game for Climb {
    type Position = u8; // the counter (whose turn it is does not matter: the game is impartial)

    fn moves(&self, &c: &u8, out: &mut Vec<u8>) {
        out.extend([c + 1, c + 2].into_iter().filter(|&n| n <= TOP));
        out.extend(SLIPPERY.contains(&c).then(|| c - 1));
    }

    fn verdict(&self, &c: &u8) -> Option<Outcome> {
        // The opponent has just reached the top: the player to move has lost.
        (c == TOP).then_some(Outcome::Lose)
    }
}

/// Optional: a dense index and un-moves let `solve_dense` run without storing any edges.
impl Ranked for Climb {
    fn index_count(&self) -> u64 {
        u64::from(TOP) + 1
    }
    fn rank(&self, &c: &u8) -> u64 {
        u64::from(c)
    }
    fn unrank(&self, index: u64) -> Option<u8> {
        u8::try_from(index).ok()
    }
}

impl Unmoves for Climb {
    fn unmoves(&self, &c: &u8, out: &mut Vec<u8>) {
        // Who can move to c: c - 1 and c - 2 by climbing, c + 1 by slipping back.
        out.extend([c.checked_sub(1), c.checked_sub(2)].into_iter().flatten());
        out.extend(SLIPPERY.contains(&(c + 1)).then_some(c + 1));
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let solved = solve_reachable(&Climb, [0])?; // explore from the start, then retrograde
    let dense = solve_dense(&Climb)?; // no edges stored: un-moves instead
    for c in 0..=TOP {
        let v = solved.value(&c).expect("every counter is reachable from 0");
        assert_eq!(
            (v.outcome(), v.depth()),
            (dense.outcome(c.into()), dense.depth(c.into()))
        );
        let depth = v.depth().map_or("-".to_string(), |d| d.to_string());
        let best = solved
            .best_move(&c)
            .map_or("-".to_string(), |m| m.to_string());
        println!(
            "counter {c:>2}: {:<4}  depth {depth:>2}  best move -> {best}",
            v.outcome()
        );
    }
    // The same certificate check as for any explicit graph.
    let (graph, rules) = dense_graph(&Climb)?;
    solve::verify(&graph, &rules, &dense, None)?;
    println!("both solvers agree, and the verifier accepts the solution");
    Ok(())
}
