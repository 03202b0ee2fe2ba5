//! The certificate verifier: checks a claimed [`ParitySolution`] without trusting any solver.
//!
//! Cost: O(d · (V + E)) for d priorities, usually far less (each round only re-examines the
//! strongly connected components that still contain a cycle).
//!
//! Why the local rules certify the answer: let `W_p` be the vertices claimed for player `p` and
//! `σ_p` the claimed moves. If (1) every claimed move is an edge, (2) `p`'s moves in `W_p` stay
//! in `W_p` and (3) every move of the opponent from `W_p` stays in `W_p` (a trap), then every
//! play from `W_p` in which `p` follows `σ_p` stays in the graph `H_p` = `W_p` with `p`'s edges
//! cut down to `σ_p`. Such a play eventually cycles inside one strongly connected component of
//! `H_p`, and the highest priority it sees infinitely often is the top of some cycle of `H_p`.
//! So if (4) every cycle of `H_p` has a top priority favouring `p`, `σ_p` wins every play from
//! `W_p`. As `W_0` and `W_1` partition the vertices, both regions are exactly the winning
//! regions (a vertex cannot be won by both players).
//!
//! Rule (4) is checked by nested SCC decomposition (as in Oink's verifier): in every
//! non-trivial SCC (or self-loop) the highest priority must favour `p`; its vertices are then
//! removed and the rest of the SCC decomposed again. A highest priority favouring the opponent
//! is a violation, reported with a cycle through it.

use std::fmt;

use crate::scc::Tarjan;
use crate::solution::NO_MOVE;
use crate::{favours, Arena, ParitySolution, Priority};
use zermelo::{NodeId, Player};

/// The first rule a claimed solution breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParityViolation {
    /// The solution does not have one entry per vertex.
    Length {
        /// Vertices in the solution.
        found: usize,
        /// Vertices in the arena.
        expected: usize,
    },
    /// The winner owns the vertex but no move is given.
    MissingMove {
        /// The vertex.
        vertex: NodeId,
        /// Its claimed winner.
        winner: Player,
    },
    /// The claimed move is not an edge.
    NotAnEdge {
        /// The vertex.
        vertex: NodeId,
        /// The claimed successor.
        successor: NodeId,
    },
    /// The winner's move leaves its region.
    MoveLeavesRegion {
        /// The vertex.
        vertex: NodeId,
        /// The claimed successor, won by the other player.
        successor: NodeId,
        /// The vertex's claimed winner.
        winner: Player,
    },
    /// The loser has a move out of the winner's region: the region is not a trap.
    Escape {
        /// The vertex, owned by the loser.
        vertex: NodeId,
        /// A successor claimed for the loser.
        successor: NodeId,
        /// The vertex's claimed winner.
        winner: Player,
    },
    /// A cycle the winner's strategy allows has a top priority that favours the other player.
    LosingCycle {
        /// The player whose region holds the cycle.
        winner: Player,
        /// The cycle's top priority.
        priority: Priority,
        /// The cycle, starting at a vertex of that priority (the last vertex moves to the first).
        cycle: Vec<NodeId>,
    },
}

impl fmt::Display for ParityViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParityViolation::Length { found, expected } => {
                write!(f, "the solution has {found} vertices, the game {expected}")
            }
            ParityViolation::MissingMove { vertex, winner } => write!(
                f,
                "vertex {vertex} is won by its owner, player {winner}, but no move is given"
            ),
            ParityViolation::NotAnEdge { vertex, successor } => {
                write!(f, "vertex {vertex}: the move to {successor} is not an edge")
            }
            ParityViolation::MoveLeavesRegion {
                vertex,
                successor,
                winner,
            } => write!(
                f,
                "vertex {vertex} is won by player {winner}, but its move goes to {successor}, \
                 won by player {}",
                winner.other()
            ),
            ParityViolation::Escape {
                vertex,
                successor,
                winner,
            } => write!(
                f,
                "vertex {vertex} is won by player {winner}, but its owner, player {}, can move \
                 to {successor}, won by player {}: the region is not a trap",
                winner.other(),
                winner.other()
            ),
            ParityViolation::LosingCycle {
                winner,
                priority,
                cycle,
            } => {
                let shown: Vec<String> = cycle.iter().take(20).map(|v| v.to_string()).collect();
                write!(
                    f,
                    "player {winner}'s strategy allows the cycle {}{} -> {} whose highest \
                     priority {priority} favours player {}",
                    shown.join(" -> "),
                    if cycle.len() > 20 { " -> ..." } else { "" },
                    cycle[0],
                    winner.other()
                )
            }
        }
    }
}

impl std::error::Error for ParityViolation {}

/// Checks that `claim` is a certificate: both regions traps for the loser, the winner's moves
/// edges that stay inside, and every cycle the winner allows won by the winner.
///
/// # Errors
/// The first [`ParityViolation`] found (local rules first, in vertex order; then cycles).
pub fn verify(arena: &Arena, claim: &ParitySolution) -> Result<(), ParityViolation> {
    if claim.len() != arena.vertex_count() {
        return Err(ParityViolation::Length {
            found: claim.len(),
            expected: arena.vertex_count(),
        });
    }
    for v in arena.vertices() {
        check_local(arena, claim, v)?;
    }
    for player in Player::BOTH {
        check_cycles(arena, claim, player)?;
    }
    Ok(())
}

fn check_local(arena: &Arena, claim: &ParitySolution, v: NodeId) -> Result<(), ParityViolation> {
    let winner = claim.winner(v);
    if arena.owner(v) == winner {
        let Some(to) = claim.strategy(v) else {
            return Err(ParityViolation::MissingMove { vertex: v, winner });
        };
        if !arena.successors(v).contains(&to) {
            return Err(ParityViolation::NotAnEdge {
                vertex: v,
                successor: to,
            });
        }
        if claim.winner(to) != winner {
            return Err(ParityViolation::MoveLeavesRegion {
                vertex: v,
                successor: to,
                winner,
            });
        }
    } else if let Some(&to) = arena
        .successors(v)
        .iter()
        .find(|&&w| claim.winner(w) != winner)
    {
        return Err(ParityViolation::Escape {
            vertex: v,
            successor: to,
            winner,
        });
    }
    Ok(())
}

/// Rule (4) for `player`'s region, by nested SCC decomposition.
fn check_cycles(
    arena: &Arena,
    claim: &ParitySolution,
    player: Player,
) -> Result<(), ParityViolation> {
    let n = arena.vertex_count();
    // `set[v]`: the id of the vertex set `v` is examined in; NONE once it is out of the game.
    let mut set: Vec<u32> = (0..n as NodeId)
        .map(|v| if claim.winner(v) == player { 0 } else { NONE })
        .collect();
    let region: Vec<NodeId> = arena.vertices().filter(|&v| set[v as usize] == 0).collect();
    let edges = Edges {
        arena,
        moves: claim.moves(),
        player,
    };
    let mut tarjan = Tarjan::new(n);
    let mut work: Vec<Vec<NodeId>> = vec![region];
    let mut next_id = 1u32;
    while let Some(vertices) = work.pop() {
        let Some(&first) = vertices.first() else {
            continue;
        };
        let id = set[first as usize];
        let components = tarjan.components(&vertices, |v| edges.of(v), |w| set[w as usize] == id);
        for scc in components.iter() {
            if scc.len() == 1 && !edges.of(scc[0]).contains(&scc[0]) {
                set[scc[0] as usize] = NONE;
                continue;
            }
            let top = scc.iter().map(|&v| arena.priority(v)).max().unwrap_or(0);
            if favours(top) != player {
                let at = scc.iter().copied().find(|&v| arena.priority(v) == top);
                let cycle = at.map_or_else(Vec::new, |v| cycle_through(v, scc, &edges, &set));
                return Err(ParityViolation::LosingCycle {
                    winner: player,
                    priority: top,
                    cycle,
                });
            }
            let id = next_id;
            next_id += 1;
            let mut rest = Vec::with_capacity(scc.len());
            for &v in scc {
                if arena.priority(v) == top {
                    set[v as usize] = NONE;
                } else {
                    set[v as usize] = id;
                    rest.push(v);
                }
            }
            if !rest.is_empty() {
                work.push(rest);
            }
        }
    }
    Ok(())
}

const NONE: u32 = u32::MAX;

/// The edges of `H_p`: the winner's strategy move at its own vertices, all moves elsewhere.
struct Edges<'a> {
    arena: &'a Arena,
    moves: &'a [NodeId],
    player: Player,
}

impl Edges<'_> {
    #[inline]
    fn of(&self, v: NodeId) -> &[NodeId] {
        if self.arena.owner(v) == self.player {
            let m = &self.moves[v as usize];
            if *m == NO_MOVE {
                &[]
            } else {
                std::slice::from_ref(m)
            }
        } else {
            self.arena.successors(v)
        }
    }
}

/// A cycle through `start` inside one strongly connected component (breadth-first search).
fn cycle_through(start: NodeId, scc: &[NodeId], edges: &Edges, set: &[u32]) -> Vec<NodeId> {
    use std::collections::HashMap;
    let id = set[start as usize];
    let _ = scc;
    let mut parent: HashMap<NodeId, NodeId> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in edges.of(v) {
            if set[w as usize] != id {
                continue;
            }
            if w == start {
                let mut cycle = vec![v];
                let mut at = v;
                while at != start {
                    at = parent[&at];
                    cycle.push(at);
                }
                cycle.reverse();
                return cycle;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                e.insert(v);
                queue.push_back(w);
            }
        }
    }
    vec![start]
}
