//! SCC decomposition before solving: bottom components first, their regions attracted upwards.
//!
//! Cost: O(V + E) for the decomposition (iterative Tarjan, no recursion), plus the solver on
//! each component and one attractor per player and component; a component broken up by
//! attractors from below is decomposed again (its rest is smaller each time).
//!
//! Reference: the SCC loop of Oink (T. van Dijk, TACAS 2018, "Oink: an implementation and
//! evaluation of modern parity game solvers", §3): solve a bottom SCC, attract both players'
//! regions in the whole remaining game, remove them, repeat.
//!
//! Invariant: the unsolved vertices form a subgame whose edges into solved vertices are all
//! bad for the mover: an unsolved vertex of player `p` has no move into `p`'s solved region
//! (the attractor would have taken it), so dropping those edges changes no winner and leaves
//! every remaining vertex a successor. When a component's turn comes, every component below it
//! is solved, so its unsolved part is closed (no move to another unsolved vertex): the winning
//! regions of that part, solved alone, are winning in the whole game, and so are their
//! attractors, with attractor moves as strategies.

use crate::outcome::{NodeId, Player};
use crate::parity::attractor::{Attractor, Masked};
use crate::parity::solution::NO_MOVE;
use crate::parity::{favours, solve_subgame, Arena, ParitySolution, Solver};

/// No index yet (Tarjan) / not in the piece (local ids).
const NONE: u32 = u32::MAX;

/// Strongly connected components in one flat list, bottom first: a component comes before
/// every component with a move into it.
#[derive(Default)]
pub(crate) struct Components {
    vertices: Vec<NodeId>,
    ends: Vec<usize>,
}

impl Components {
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn get(&self, i: usize) -> &[NodeId] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.vertices[start..self.ends[i]]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &[NodeId]> {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// Iterative Tarjan: reusable scratch of 9 bytes per vertex.
pub(crate) struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
}

impl Tarjan {
    pub(crate) fn new(n: usize) -> Tarjan {
        Tarjan {
            index: vec![NONE; n],
            low: vec![0; n],
            on_stack: vec![false; n],
        }
    }

    /// The SCCs of the subgraph induced by `vertices` (`member` says which vertices are in it;
    /// moves to other vertices are ignored), bottom first.
    pub(crate) fn components<'g>(
        &mut self,
        vertices: &[NodeId],
        successors: impl Fn(NodeId) -> &'g [NodeId],
        member: impl Fn(NodeId) -> bool,
    ) -> Components {
        let mut out = Components::default();
        let mut counter = 0u32;
        let mut stack: Vec<NodeId> = Vec::new();
        // The call stack of the depth-first search: a vertex and its next successor to look at.
        let mut call: Vec<(NodeId, usize)> = Vec::new();
        for &root in vertices {
            if self.index[root as usize] != NONE {
                continue;
            }
            self.open(root, &mut counter, &mut stack);
            call.push((root, 0));
            while let Some(&mut (v, ref mut next)) = call.last_mut() {
                if let Some(&w) = successors(v).get(*next) {
                    *next += 1;
                    if !member(w) {
                        continue;
                    }
                    if self.index[w as usize] == NONE {
                        self.open(w, &mut counter, &mut stack);
                        call.push((w, 0));
                    } else if self.on_stack[w as usize] {
                        self.low[v as usize] = self.low[v as usize].min(self.index[w as usize]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    self.low[parent as usize] = self.low[parent as usize].min(self.low[v as usize]);
                }
                if self.low[v as usize] == self.index[v as usize] {
                    while let Some(w) = stack.pop() {
                        self.on_stack[w as usize] = false;
                        out.vertices.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.ends.push(out.vertices.len());
                }
            }
        }
        for &v in vertices {
            self.index[v as usize] = NONE;
        }
        out
    }

    fn open(&mut self, v: NodeId, counter: &mut u32, stack: &mut Vec<NodeId>) {
        self.index[v as usize] = *counter;
        self.low[v as usize] = *counter;
        *counter += 1;
        stack.push(v);
        self.on_stack[v as usize] = true;
    }
}

/// Solves the subgame `alive` of `arena` component by component into `solution`; `dense`
/// says the arena's priorities are compressed (then the last piece may be solved in place).
pub(crate) fn solve_by_components(
    arena: &Arena,
    alive: Vec<bool>,
    solver: Solver,
    dense: bool,
    solution: &mut ParitySolution,
) {
    let n = arena.vertex_count();
    let all: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    let mut d = Decomposition {
        arena,
        solver,
        dense,
        remaining: all.len(),
        alive,
        mark: vec![false; n],
        local: vec![NONE; n],
        strategy: vec![NO_MOVE; n],
        tarjan: Tarjan::new(n),
        attractor: Attractor::new(n),
    };
    let first = d.decompose(&all);
    d.run(first, solution);
}

struct Decomposition<'a> {
    arena: &'a Arena,
    solver: Solver,
    dense: bool,
    /// Unsolved vertices.
    alive: Vec<bool>,
    remaining: usize,
    /// Scratch: the piece being solved, then the set being attracted.
    mark: Vec<bool>,
    /// Scratch: a piece vertex's id in its sub-arena.
    local: Vec<NodeId>,
    /// Attractor moves.
    strategy: Vec<NodeId>,
    tarjan: Tarjan,
    attractor: Attractor,
}

impl Decomposition<'_> {
    fn decompose(&mut self, vertices: &[NodeId]) -> Components {
        let (arena, alive) = (self.arena, &self.alive);
        self.tarjan
            .components(vertices, |v| arena.successors(v), |w| alive[w as usize])
    }

    /// Walks the components bottom first; one broken up by attractors from below is
    /// decomposed again and its own components walked first (a stack of decompositions).
    fn run(&mut self, first: Components, solution: &mut ParitySolution) {
        let mut stack = vec![(first, 0usize)];
        while let Some((components, next)) = stack.last_mut() {
            let Some(component) = (*next < components.len()).then(|| components.get(*next)) else {
                stack.pop();
                continue;
            };
            *next += 1;
            let whole = component.len();
            let piece: Vec<NodeId> = component
                .iter()
                .copied()
                .filter(|&v| self.alive[v as usize])
                .collect();
            if piece.is_empty() {
                continue;
            }
            if piece.len() < whole {
                let parts = self.decompose(&piece);
                if parts.len() > 1 {
                    stack.push((parts, 0));
                    continue;
                }
            }
            self.solve_piece(&piece, solution);
        }
    }

    /// Solves a closed piece, then attracts both players' regions in the remaining game.
    fn solve_piece(&mut self, piece: &[NodeId], solution: &mut ParitySolution) {
        let arena = self.arena;
        let [mut even, mut odd] = [Vec::new(), Vec::new()];
        if let Some(p) = one_parity(arena, piece) {
            // Every play inside sees only priorities favouring `p`.
            self.mark_piece(piece, true);
            for &v in piece {
                let stay = (arena.owner(v) == p).then(|| self.stay(v));
                solution.set(v, p, stay);
            }
            self.mark_piece(piece, false);
            if p == Player::Zero {
                &mut even
            } else {
                &mut odd
            }
            .extend_from_slice(piece);
        } else if piece.len() == self.remaining && (self.dense || self.solver == Solver::Zielonka) {
            // The piece is all that is left: solve it in place, nothing to attract.
            solve_subgame(arena, self.alive.clone(), self.solver, self.dense, solution);
            self.alive.fill(false);
            self.remaining = 0;
            return;
        } else {
            self.solve_sub_arena(piece, solution);
            for &v in piece {
                match solution.winner(v) {
                    Player::Zero => even.push(v),
                    Player::One => odd.push(v),
                }
            }
        }
        self.attract(Player::Zero, even, solution);
        self.attract(Player::One, odd, solution);
    }

    /// A successor of `v` in the marked piece (a piece is a subgame: there is one).
    fn stay(&self, v: NodeId) -> NodeId {
        let succ = self.arena.successors(v);
        succ.iter()
            .copied()
            .find(|&w| self.mark[w as usize])
            .unwrap_or(succ[0])
    }

    fn mark_piece(&mut self, piece: &[NodeId], on: bool) {
        for &v in piece {
            self.mark[v as usize] = on;
        }
    }

    /// Copies the piece into an arena of its own, solves that and maps the answer back.
    fn solve_sub_arena(&mut self, piece: &[NodeId], solution: &mut ParitySolution) {
        let arena = self.arena;
        for (i, &v) in piece.iter().enumerate() {
            self.local[v as usize] = i as NodeId;
        }
        let vertices: Vec<(Player, u32)> = piece
            .iter()
            .map(|&v| (arena.owner(v), arena.priority(v)))
            .collect();
        let local = &self.local;
        let edges = piece.iter().flat_map(|&v| {
            let from = u64::from(local[v as usize]);
            arena
                .successors(v)
                .iter()
                .filter(|&&w| local[w as usize] != NONE)
                .map(move |&w| (from, u64::from(local[w as usize])))
        });
        let sub = Arena::from_edges(&vertices, edges)
            .expect("a piece is a subgame: every vertex keeps a successor in it");
        for &v in piece {
            self.local[v as usize] = NONE;
        }
        let mut answer = ParitySolution::new(piece.len());
        solve_subgame(
            &sub,
            vec![true; piece.len()],
            self.solver,
            false,
            &mut answer,
        );
        for (i, &v) in piece.iter().enumerate() {
            let mv = answer.strategy(i as NodeId).map(|w| piece[w as usize]);
            solution.set(v, answer.winner(i as NodeId), mv);
        }
    }

    /// `Attr_player(won)` in the remaining game is won by `player`: record it and remove it.
    fn attract(&mut self, player: Player, mut queue: Vec<NodeId>, solution: &mut ParitySolution) {
        queue.retain(|&v| self.alive[v as usize]);
        let seeds = queue.len();
        for &v in &queue {
            self.mark[v as usize] = true;
        }
        let mut region = Masked {
            alive: &self.alive,
            inside: &mut self.mark,
            strategy: &mut self.strategy,
        };
        self.attractor
            .attract(self.arena, player, &mut region, &mut queue);
        for (k, &v) in queue.iter().enumerate() {
            if k >= seeds {
                let mv = (self.arena.owner(v) == player).then(|| self.strategy[v as usize]);
                solution.set(v, player, mv);
            }
            self.mark[v as usize] = false;
            self.alive[v as usize] = false;
        }
        self.remaining -= queue.len();
    }
}

/// The player every priority of `piece` favours, if there is one.
fn one_parity(arena: &Arena, piece: &[NodeId]) -> Option<Player> {
    let p = favours(arena.priority(*piece.first()?));
    piece
        .iter()
        .all(|&v| favours(arena.priority(v)) == p)
        .then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generate::SplitMix64;

    /// Whether `to` is reachable from `from` (breadth-first, all vertices).
    fn reaches(succ: &[Vec<NodeId>], from: NodeId, to: NodeId) -> bool {
        let mut seen = vec![false; succ.len()];
        let mut queue = vec![from];
        seen[from as usize] = true;
        while let Some(v) = queue.pop() {
            if v == to {
                return true;
            }
            for &w in &succ[v as usize] {
                if !std::mem::replace(&mut seen[w as usize], true) {
                    queue.push(w);
                }
            }
        }
        false
    }

    #[test]
    fn components_are_mutual_reachability_classes_bottom_first() {
        let mut rng = SplitMix64::new(9);
        let mut tarjan = Tarjan::new(12);
        for case in 0..2000 {
            let n = 1 + rng.below(12) as usize;
            let succ: Vec<Vec<NodeId>> = (0..n)
                .map(|_| {
                    (0..rng.below(3))
                        .map(|_| rng.below(n as u64) as NodeId)
                        .collect()
                })
                .collect();
            // Induced on a random subset: mutual reachability inside the subset.
            let member: Vec<bool> = (0..n).map(|_| rng.below(4) != 0).collect();
            let inner: Vec<Vec<NodeId>> = (0..n)
                .map(|v| {
                    let keep = |w: &&NodeId| member[v] && member[**w as usize];
                    succ[v].iter().filter(keep).copied().collect()
                })
                .collect();
            let vertices: Vec<NodeId> = (0..n as NodeId).filter(|&v| member[v as usize]).collect();
            let comps = tarjan.components(&vertices, |v| &succ[v as usize], |w| member[w as usize]);
            let mut comp_of = vec![usize::MAX; n];
            for (i, c) in comps.iter().enumerate() {
                for &v in c {
                    assert_eq!(comp_of[v as usize], usize::MAX, "case {case}: twice");
                    comp_of[v as usize] = i;
                }
            }
            for &u in &vertices {
                assert_ne!(comp_of[u as usize], usize::MAX, "case {case}: {u} missing");
                for &v in &vertices {
                    let same = reaches(&inner, u, v) && reaches(&inner, v, u);
                    assert_eq!(
                        same,
                        comp_of[u as usize] == comp_of[v as usize],
                        "case {case}"
                    );
                }
                // Bottom first: a move leads to the same or an earlier component.
                for &w in &inner[u as usize] {
                    assert!(comp_of[w as usize] <= comp_of[u as usize], "case {case}");
                }
            }
        }
    }
}
