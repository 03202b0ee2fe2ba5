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

use crate::attractor::Attractor;
use crate::region::Masked;
use crate::registry::{solve_subgame, Solver};
use crate::solution::NO_MOVE;
use crate::{favours, Arena, ParitySolution};
use zermelo::graph::Predecessors;
use zermelo::prefetch::prefetch;
use zermelo::{NodeId, Player};

/// No index yet (Tarjan) / not in the piece (local ids).
const NONE: u32 = u32::MAX;
/// A piece of at least 1/8 of the arena is solved in place (under a mask) rather than copied.
const IN_PLACE_FRACTION: usize = 8;

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

/// Iterative Tarjan: reusable scratch of 8 bytes per vertex (its DFS index and low-link side by
/// side, so that looking at a successor touches one cache line).
pub(crate) struct Tarjan {
    /// `[index, low]`; index [`NONE`] before the visit, [`DONE`] once in a component (so a
    /// visited vertex is on the stack exactly when its index is neither).
    slots: Vec<[u32; 2]>,
}

/// Index of a vertex already placed in a component.
const DONE: u32 = u32::MAX - 1;

impl Tarjan {
    pub(crate) fn new(n: usize) -> Tarjan {
        Tarjan {
            slots: vec![[NONE, 0]; n],
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
        let slots = &mut self.slots;
        let mut counter = 0u32;
        let mut stack: Vec<NodeId> = Vec::new();
        // The call stack of the depth-first search: a vertex and its successors not yet seen.
        let mut call: Vec<(NodeId, &'g [NodeId])> = Vec::new();
        let mut open = |v: NodeId, stack: &mut Vec<NodeId>, slots: &mut [[u32; 2]]| {
            slots[v as usize] = [counter, counter];
            counter += 1;
            stack.push(v);
        };
        for &root in vertices {
            if slots[root as usize][0] != NONE {
                continue;
            }
            open(root, &mut stack, slots);
            call.push((root, successors(root)));
            while let Some((v, rest)) = call.last_mut() {
                let v = *v;
                if let Some((&w, tail)) = rest.split_first() {
                    *rest = tail;
                    if !member(w) {
                        continue;
                    }
                    let [index, _] = slots[w as usize];
                    if index == NONE {
                        open(w, &mut stack, slots);
                        let next = successors(w);
                        // The search comes back to each of them: start their cache misses now.
                        for &x in next {
                            prefetch(slots, x as usize);
                        }
                        call.push((w, next));
                    } else if index != DONE {
                        let low = &mut slots[v as usize][1];
                        *low = (*low).min(index);
                    }
                    continue;
                }
                call.pop();
                let [index, low] = slots[v as usize];
                if let Some(&(parent, _)) = call.last() {
                    let up = &mut slots[parent as usize][1];
                    *up = (*up).min(low);
                }
                if low == index {
                    while let Some(w) = stack.pop() {
                        slots[w as usize][0] = DONE;
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
            slots[v as usize][0] = NONE;
        }
        out
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
        in_piece: vec![false; n],
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
    /// Scratch: the piece just solved.
    in_piece: Vec<bool>,
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
        // PP needs dense priorities to run on the arena itself.
        let in_place = self.dense || !self.solver.needs_dense();
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
        } else if in_place && piece.len() == self.remaining {
            // The piece is all that is left: solve it in place, nothing to attract.
            solve_subgame(arena, self.alive.clone(), self.solver, self.dense, solution);
            self.alive.fill(false);
            self.remaining = 0;
            return;
        } else if in_place && piece.len() >= arena.vertex_count() / IN_PLACE_FRACTION {
            // A large piece: a mask over the arena is cheaper than a copy of its edges (and at
            // most `IN_PLACE_FRACTION` pieces are this large).
            let mut mask = vec![false; arena.vertex_count()];
            for &v in piece {
                mask[v as usize] = true;
            }
            solve_subgame(arena, mask, self.solver, self.dense, solution);
            self.split_by_winner(piece, solution, [&mut even, &mut odd]);
        } else {
            self.solve_sub_arena(piece, solution);
            self.split_by_winner(piece, solution, [&mut even, &mut odd]);
        }
        for &v in piece {
            self.in_piece[v as usize] = true;
        }
        let boundary = self.boundary(piece);
        self.attract(Player::Zero, &even, &boundary, solution);
        self.attract(Player::One, &odd, &boundary, solution);
        for &v in piece {
            self.in_piece[v as usize] = false;
        }
    }

    fn split_by_winner(
        &self,
        piece: &[NodeId],
        solution: &ParitySolution,
        [even, odd]: [&mut Vec<NodeId>; 2],
    ) {
        for &v in piece {
            match solution.winner(v) {
                Player::Zero => even.push(v),
                Player::One => odd.push(v),
            }
        }
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

    /// The vertices of the piece with a move into them from an unsolved vertex outside it:
    /// for a large piece by a pass over the vertices outside (O(V) plus their moves), else
    /// through the piece's predecessor lists.
    fn boundary(&mut self, piece: &[NodeId]) -> Vec<NodeId> {
        let arena = self.arena;
        let (alive, in_piece) = (&self.alive, &self.in_piece);
        let outside = |u: NodeId| alive[u as usize] && !in_piece[u as usize];
        if piece.len() < arena.vertex_count() / IN_PLACE_FRACTION {
            return piece
                .iter()
                .copied()
                .filter(|&v| arena.predecessors(v).iter().any(|&u| outside(u)))
                .collect();
        }
        let mut found = Vec::new();
        for u in arena.vertices().filter(|&u| outside(u)) {
            for &w in arena.successors(u) {
                if in_piece[w as usize] && !self.mark[w as usize] {
                    self.mark[w as usize] = true;
                    found.push(w);
                }
            }
        }
        for &w in &found {
            self.mark[w as usize] = false;
        }
        found
    }

    /// `Attr_player(won)` in the remaining game is won by `player`: record it and remove it.
    ///
    /// Only the vertices of `won` in `boundary` (with a move into them from outside the piece)
    /// seed the attractor: the others are reached only from the piece, which is solved, so
    /// popping them would cost their predecessor lists for nothing. The seeds are all the
    /// set's vertices an outside vertex counts as moves, so the attractor's counters stay exact.
    fn attract(
        &mut self,
        player: Player,
        won: &[NodeId],
        boundary: &[NodeId],
        solution: &mut ParitySolution,
    ) {
        let arena = self.arena;
        for &v in won {
            self.mark[v as usize] = true;
        }
        let mut queue: Vec<NodeId> = boundary
            .iter()
            .copied()
            .filter(|&v| solution.winner(v) == player)
            .collect();
        let seeds = queue.len();
        let mut region = Masked {
            alive: &self.alive,
            inside: &mut self.mark,
            strategy: &mut self.strategy,
        };
        self.attractor
            .attract(arena, player, &mut region, &mut queue);
        for &v in &queue[seeds..] {
            let mv = (arena.owner(v) == player).then(|| self.strategy[v as usize]);
            solution.set(v, player, mv);
        }
        for &v in won.iter().chain(&queue[seeds..]) {
            self.mark[v as usize] = false;
            self.alive[v as usize] = false;
        }
        self.remaining -= won.len() + (queue.len() - seeds);
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
    use zermelo::graph::generate::SplitMix64;

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
