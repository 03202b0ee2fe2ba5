//! Reachability, safety, Büchi and co-Büchi games: a target set instead of priorities.
//!
//! | objective of `player` | wins a play that | solved by | cost |
//! |---|---|---|---|
//! | [`reachability`] | visits the target | one attractor | O(V + E) |
//! | [`safety`] | never visits the target | the opponent's reachability | O(V + E) |
//! | [`buchi`] | visits the target infinitely often | iterated attractors | O(V · E) |
//! | [`co_buchi`] | visits the target finitely often | the opponent's Büchi | O(V · E) |
//!
//! Reference: seed 003 §8 and §9.2; the Büchi iteration is the classical one (e.g. Chatterjee,
//! Henzinger, Piterman, "Algorithms for Büchi games", 2006, §2). Every answer is a
//! [`ParitySolution`] with positional strategies for both players. [`objective_arena`] gives the
//! equivalent parity game (same vertex ids), which is how tests and `zermelo parity verify`
//! check these answers with the parity verifier and compare them with Zielonka.

use crate::attractor::{Attractor, Mode};
use crate::region::Masked;
use crate::solution::NO_MOVE;
use crate::verify::{verify, ParityViolation};
use crate::{Arena, ParitySolution, Priority};
use zermelo::graph::Csr;
use zermelo::{NodeId, Player};

/// A winning condition on a target set, for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Objective {
    /// Visit the target.
    Reach,
    /// Never visit the target.
    Safety,
    /// Visit the target infinitely often.
    Buchi,
    /// Visit the target only finitely often.
    CoBuchi,
}

impl Objective {
    /// The name the command line uses: `reach`, `safety`, `buchi`, `co-buchi`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Reach => "reach",
            Objective::Safety => "safety",
            Objective::Buchi => "buchi",
            Objective::CoBuchi => "co-buchi",
        }
    }
}

/// Solves `objective` for `player` on `arena` (priorities ignored) with target set `target`.
pub fn solve_objective(
    arena: &Arena,
    objective: Objective,
    player: Player,
    target: &[bool],
) -> ParitySolution {
    match objective {
        Objective::Reach => reachability(arena, player, target),
        Objective::Safety => safety(arena, player, target),
        Objective::Buchi => buchi(arena, player, target),
        Objective::CoBuchi => co_buchi(arena, player, target),
    }
}

/// `player` wins where it can force a visit to `target` (one entry per vertex).
pub fn reachability(arena: &Arena, player: Player, target: &[bool]) -> ParitySolution {
    reachability_by(arena, player, target, Mode::Auto)
}

/// [`reachability`] with the attractor `mode` chooses.
pub(crate) fn reachability_by(
    arena: &Arena,
    player: Player,
    target: &[bool],
    mode: Mode,
) -> ParitySolution {
    let n = arena.vertex_count();
    let alive = vec![true; n];
    let mut inside = target.to_vec();
    let mut strategy = vec![NO_MOVE; n];
    let mut queue: Vec<NodeId> = arena.vertices().filter(|&v| target[v as usize]).collect();
    for &v in &queue {
        // Once in the target the play is won; any move will do.
        strategy[v as usize] = arena.successors(v)[0];
    }
    let mut region = Masked {
        alive: &alive,
        inside: &mut inside,
        strategy: &mut strategy,
    };
    Attractor::with_mode(n, mode).attract(arena, player, &mut region, &mut queue);
    let mut solution = ParitySolution::new(n);
    for v in arena.vertices() {
        let winner = if inside[v as usize] {
            player
        } else {
            player.other()
        };
        solution.set(
            v,
            winner,
            own_move(arena, v, winner, &strategy, &inside, false),
        );
    }
    solution
}

/// The move to record at `v` for `winner`: the attractor's where it won by attraction, else a
/// move that keeps out of (`stay_in == false`) or inside the attractor.
fn own_move(
    arena: &Arena,
    v: NodeId,
    winner: Player,
    strategy: &[NodeId],
    inside: &[bool],
    stay_in: bool,
) -> Option<NodeId> {
    if arena.owner(v) != winner {
        return None;
    }
    if inside[v as usize] != stay_in {
        return Some(strategy[v as usize]);
    }
    arena
        .successors(v)
        .iter()
        .copied()
        .find(|&w| inside[w as usize] == stay_in)
}

/// `player` wins where it can keep the play out of `target` forever.
pub fn safety(arena: &Arena, player: Player, target: &[bool]) -> ParitySolution {
    reachability(arena, player.other(), target)
}

/// `player` wins where it can force infinitely many visits to `target`.
pub fn buchi(arena: &Arena, player: Player, target: &[bool]) -> ParitySolution {
    let n = arena.vertex_count();
    let mut alive = vec![true; n];
    let mut inside = vec![false; n];
    let mut strategy = vec![NO_MOVE; n];
    let mut solution = ParitySolution::new(n);
    let mut attractor = Attractor::new(n);
    loop {
        // R = Attr_player(target) in the subgame; its complement is a trap the opponent wins.
        let mut queue: Vec<NodeId> = arena
            .vertices()
            .filter(|&v| alive[v as usize] && target[v as usize])
            .collect();
        for &v in &queue {
            inside[v as usize] = true;
        }
        let mut region = Masked {
            alive: &alive,
            inside: &mut inside,
            strategy: &mut strategy,
        };
        attractor.attract(arena, player, &mut region, &mut queue);
        let trap: Vec<NodeId> = arena
            .vertices()
            .filter(|&v| alive[v as usize] && !inside[v as usize])
            .collect();
        if trap.is_empty() {
            for &v in &queue {
                // Target vertices of the player continue inside R; the rest attract.
                let mv = if arena.owner(v) != player {
                    None
                } else if target[v as usize] {
                    arena
                        .successors(v)
                        .iter()
                        .copied()
                        .find(|&w| alive[w as usize])
                } else {
                    Some(strategy[v as usize])
                };
                solution.set(v, player, mv);
            }
            return solution;
        }
        for &v in &queue {
            inside[v as usize] = false;
        }
        // The opponent wins the trap (staying in it) and its attractor in the subgame.
        let opponent = player.other();
        for &v in &trap {
            inside[v as usize] = true;
            if arena.owner(v) == opponent {
                let stay = arena
                    .successors(v)
                    .iter()
                    .copied()
                    .find(|&w| alive[w as usize] && trap_contains(&trap, w));
                strategy[v as usize] = stay.unwrap_or(NO_MOVE);
            }
        }
        let mut queue = trap;
        let mut region = Masked {
            alive: &alive,
            inside: &mut inside,
            strategy: &mut strategy,
        };
        attractor.attract(arena, opponent, &mut region, &mut queue);
        for &v in &queue {
            let mv = (arena.owner(v) == opponent).then_some(strategy[v as usize]);
            solution.set(v, opponent, mv);
            alive[v as usize] = false;
            inside[v as usize] = false;
        }
    }
}

fn trap_contains(trap: &[NodeId], v: NodeId) -> bool {
    trap.binary_search(&v).is_ok()
}

/// `player` wins where it can force the play to visit `target` only finitely often.
pub fn co_buchi(arena: &Arena, player: Player, target: &[bool]) -> ParitySolution {
    buchi(arena, player.other(), target)
}

/// The parity game equivalent to `objective` for `player` on `target`: same vertices and ids.
///
/// * Büchi: target priority 2, else 1 (player Even; shifted by one for Odd);
/// * co-Büchi: target 1, else 0 (shifted for Odd);
/// * reachability and safety: every target vertex becomes a sink (a self-loop) whose priority
///   says who won by reaching it; the other vertices get the priority favouring the player who
///   wins by avoiding the target forever.
pub fn objective_arena(
    arena: &Arena,
    objective: Objective,
    player: Player,
    target: &[bool],
) -> Arena {
    let shift = player.index() as Priority;
    let pr = |hit: Priority, miss: Priority| -> Vec<Priority> {
        target
            .iter()
            .map(|&t| if t { hit } else { miss } + shift)
            .collect()
    };
    match objective {
        Objective::Buchi => arena.with_priorities(pr(2, 1)),
        Objective::CoBuchi => arena.with_priorities(pr(1, 0)),
        Objective::Reach | Objective::Safety => {
            // Reach: the target favours `player` (0 + shift), elsewhere the opponent (1 + shift).
            let (hit, miss) = if objective == Objective::Reach {
                (0, 1)
            } else {
                (1, 0)
            };
            let edges = arena.vertices().flat_map(|v| {
                let row: Vec<(u64, u64)> = if target[v as usize] {
                    vec![(u64::from(v), u64::from(v))]
                } else {
                    arena
                        .successors(v)
                        .iter()
                        .map(|&w| (u64::from(v), u64::from(w)))
                        .collect()
                };
                row
            });
            let graph = Csr::from_edges(arena.vertex_count() as u64, edges)
                .expect("same vertices as a valid arena");
            let owner = arena.vertices().map(|v| arena.owner(v)).collect();
            Arena::new(graph, owner, pr(hit, miss)).expect("every vertex keeps a successor")
        }
    }
}

/// Checks a claimed solution of `player`'s `objective` on `target` with the parity verifier,
/// through the equivalent parity game of [`objective_arena`] (same vertex ids), and returns that
/// game. In reachability and safety games a target vertex becomes a sink there, so whatever
/// move the claim gives it is read as the sink's self-loop (a claim from [`solve_objective`] or
/// another tool need not know of the sink).
///
/// # Errors
/// The first [`ParityViolation`] of the claim.
pub fn verify_objective(
    arena: &Arena,
    objective: Objective,
    player: Player,
    target: &[bool],
    claim: &ParitySolution,
) -> Result<Arena, ParityViolation> {
    let reduced = objective_arena(arena, objective, player, target);
    let mut claim = claim.clone();
    if matches!(objective, Objective::Reach | Objective::Safety) {
        for v in (0..target.len() as NodeId).filter(|&v| target[v as usize]) {
            let mv = (reduced.owner(v) == claim.winner(v)).then_some(v);
            claim.set(v, claim.winner(v), mv);
        }
    }
    verify(&reduced, &claim)?;
    Ok(reduced)
}
