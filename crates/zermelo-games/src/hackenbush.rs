//! Green Hackenbush on rooted trees and forests.
//!
//! **Input convention.** Vertices `0..n` and a parent list: `parent[v]` is a vertex, or `-` for
//! a root. Roots stand on the ground; every other vertex `v` is the top of the edge
//! `v — parent[v]`. A move cuts one edge; everything no longer connected to the ground falls
//! (the subtree above the cut). The player who cannot move loses. A forest is the sum of its
//! trees.
//!
//! Closed form — the colon principle (seed 004; *Winning Ways* ch. 7): a vertex with children
//! `c_1..c_m` is worth `(v(c_1) + 1) ^ ... ^ (v(c_m) + 1)` (each child's stalk gains one edge),
//! and the forest is worth the XOR of its roots. Lost iff that is 0. Cost: O(n).
//!
//! A winning cut is found in O(n) too: the root `r` must change to `v(r) ^ total`; going up,
//! a vertex `u` that must become `w` asks its child `c` to become `(w ^ v(u) ^ (v(c)+1)) - 1`,
//! and cutting the edge above `c` works exactly when `w ^ v(u) ^ (v(c)+1) = 0`. The lowest such
//! `c` is reported.
//!
//! Any rooted graph (cycles, multiple edges, loops): [`green_graph_value`], by the fusion
//! principle, then the colon principle on the tree of bridges.

use zermelo::game::Game;
use zermelo::Outcome;

/// Largest number of vertices accepted.
pub const MAX_VERTICES: usize = 1 << 26;

/// A validated forest: parents in range, no cycles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forest {
    parent: Vec<Option<u32>>,
    /// Vertices ordered so that every parent comes before its children.
    order: Vec<u32>,
}

/// Why a parent list is not a forest.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ForestError {
    /// No vertices.
    #[error("the parent list is empty: give one entry per vertex, `-` for a root")]
    Empty,
    /// More than [`MAX_VERTICES`] vertices.
    #[error("{0} vertices is more than the supported maximum of {MAX_VERTICES}")]
    TooLarge(usize),
    /// An entry is neither `-` nor a vertex number.
    #[error("entry {vertex} of the parent list is {token:?}; expected a vertex number or `-`")]
    BadEntry {
        /// The vertex whose entry it is.
        vertex: usize,
        /// The text found.
        token: String,
    },
    /// A parent that is not a vertex.
    #[error("vertex {vertex} has parent {parent}, but there are only {vertices} vertices")]
    ParentOutOfRange {
        /// The vertex.
        vertex: usize,
        /// Its parent.
        parent: u64,
        /// The vertex count.
        vertices: usize,
    },
    /// Following parents from this vertex never reaches a root.
    #[error("vertex {vertex} is on a cycle of parents (or hangs from one): no path to a root")]
    Cycle {
        /// The lowest such vertex.
        vertex: usize,
    },
}

impl Forest {
    /// Validates a parent list (`None` for a root).
    ///
    /// # Errors
    /// [`ForestError`] for an empty list, a parent out of range or a cycle.
    pub fn new(parents: &[Option<u64>]) -> Result<Forest, ForestError> {
        let n = parents.len();
        if n == 0 {
            return Err(ForestError::Empty);
        }
        if n > MAX_VERTICES {
            return Err(ForestError::TooLarge(n));
        }
        let mut parent = Vec::with_capacity(n);
        for (vertex, &p) in parents.iter().enumerate() {
            match p {
                Some(p) if p >= n as u64 => {
                    return Err(ForestError::ParentOutOfRange {
                        vertex,
                        parent: p,
                        vertices: n,
                    })
                }
                p => parent.push(p.map(|p| p as u32)),
            }
        }
        let order = top_down_order(&parent)?;
        Ok(Forest { parent, order })
    }

    /// Parses `- 0 0 1` or `-,0,0,1` (commas and/or whitespace between entries).
    ///
    /// # Errors
    /// [`ForestError::BadEntry`] for a token that is not `-` or a number, then as [`Forest::new`].
    pub fn parse(text: &str) -> Result<Forest, ForestError> {
        let parents = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .enumerate()
            .map(|(vertex, t)| match t {
                "-" => Ok(None),
                _ => t
                    .parse::<u64>()
                    .map(Some)
                    .map_err(|_| ForestError::BadEntry {
                        vertex,
                        token: t.to_string(),
                    }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Forest::new(&parents)
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.parent.len()
    }

    /// Number of edges (non-root vertices).
    pub fn edge_count(&self) -> usize {
        self.parent.iter().filter(|p| p.is_some()).count()
    }

    /// The parent of `v`, `None` for a root.
    pub fn parent(&self, v: usize) -> Option<usize> {
        self.parent[v].map(|p| p as usize)
    }

    /// The colon-principle value of the tree hanging from each vertex.
    pub fn values(&self) -> Vec<u64> {
        let mut value = vec![0u64; self.parent.len()];
        for &v in self.order.iter().rev() {
            if let Some(p) = self.parent[v as usize] {
                value[p as usize] ^= value[v as usize] + 1;
            }
        }
        value
    }

    /// The value of the whole forest, its outcome and a winning cut.
    pub fn analyse(&self) -> HackenbushAnalysis {
        let value = self.values();
        let total = self.roots().fold(0, |x, r| x ^ value[r]);
        let mut need = vec![0u64; value.len()];
        let mut winning_cut = None;
        for &v in &self.order {
            let v = v as usize;
            match self.parent[v] {
                None => need[v] = value[v] ^ total,
                Some(u) => {
                    let u = u as usize;
                    let z = need[u] ^ value[u] ^ (value[v] + 1);
                    if z == 0 && total != 0 {
                        winning_cut = Some(winning_cut.map_or(v, |c: usize| c.min(v)));
                    }
                    // z = 0 leaves nothing to ask of v's subtree (u64::MAX is never reached).
                    need[v] = z.wrapping_sub(1);
                }
            }
        }
        HackenbushAnalysis {
            outcome: if total == 0 {
                Outcome::Lose
            } else {
                Outcome::Win
            },
            value: total,
            winning_cut,
        }
    }

    /// The roots.
    pub fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.parent.len()).filter(|&v| self.parent[v].is_none())
    }

    /// The game by its rules, for forests of at most 64 vertices (positions are bit sets).
    pub fn game(&self) -> Option<Hackenbush> {
        let n = self.parent.len();
        (n <= 64).then_some(())?;
        let mut subtree: Vec<u64> = (0..n).map(|v| 1u64 << v).collect();
        for &v in self.order.iter().rev() {
            if let Some(p) = self.parent[v as usize] {
                subtree[p as usize] |= subtree[v as usize];
            }
        }
        Some(Hackenbush {
            parent: self.parent.clone(),
            subtree,
        })
    }
}

/// Parents before children (breadth-first from the roots); a vertex never reached hangs from a
/// cycle.
fn top_down_order(parent: &[Option<u32>]) -> Result<Vec<u32>, ForestError> {
    let n = parent.len();
    let mut offsets = vec![0u32; n + 1];
    for p in parent.iter().flatten() {
        offsets[*p as usize + 1] += 1;
    }
    for v in 0..n {
        offsets[v + 1] += offsets[v];
    }
    let mut children = vec![0u32; offsets[n] as usize];
    let mut cursor = offsets[..n].to_vec();
    for (v, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[cursor[*p as usize] as usize] = v as u32;
            cursor[*p as usize] += 1;
        }
    }
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&v| parent[v as usize].is_none())
        .collect();
    let mut head = 0;
    while head < order.len() {
        let v = order[head] as usize;
        head += 1;
        order.extend_from_slice(&children[offsets[v] as usize..offsets[v + 1] as usize]);
    }
    if order.len() < n {
        let mut reached = vec![false; n];
        for &v in &order {
            reached[v as usize] = true;
        }
        let vertex = reached.iter().position(|&r| !r).unwrap_or(0);
        return Err(ForestError::Cycle { vertex });
    }
    Ok(order)
}

/// The Grundy value of Green Hackenbush on any rooted graph (multiple edges and loops allowed):
/// `vertices` numbered from 0, the ground, and `edges` between them, every edge connected to
/// the ground.
///
/// The fusion principle (*Winning Ways* ch. 7): the vertices of a cycle may be fused into one
/// without changing the value, an edge of the cycle becoming a loop, and a loop is worth a
/// single edge. So every 2-edge-connected part (the edges that are not bridges) is fused into
/// one vertex whose non-bridge edges count one each; the bridges left form a tree on the fused
/// vertices, rooted at the ground's, valued by the colon principle. Cost O(V + E): one
/// iterative search for the bridges, one pass over the tree.
pub fn green_graph_value(vertices: usize, edges: &[(u32, u32)]) -> u64 {
    let adjacency = Adjacency::new(vertices, edges);
    let bridge = adjacency.bridges(edges.len());
    // The fused vertices: components of the non-bridge edges.
    let mut class = vec![u32::MAX; vertices];
    let mut classes = 0u32;
    for start in 0..vertices {
        if class[start] != u32::MAX {
            continue;
        }
        class[start] = classes;
        let mut stack = vec![start as u32];
        while let Some(u) = stack.pop() {
            for &(w, e) in adjacency.of(u) {
                if !bridge[e as usize] && class[w as usize] == u32::MAX {
                    class[w as usize] = classes;
                    stack.push(w);
                }
            }
        }
        classes += 1;
    }
    // The tree of bridges, rooted at the ground's class; each non-bridge edge is a loop worth 1.
    let mut loops = vec![0u64; classes as usize];
    let mut tree: Vec<Vec<u32>> = vec![Vec::new(); classes as usize];
    for (e, &(u, v)) in edges.iter().enumerate() {
        let (a, b) = (class[u as usize], class[v as usize]);
        if bridge[e] {
            tree[a as usize].push(b);
            tree[b as usize].push(a);
        } else {
            loops[a as usize] ^= 1;
        }
    }
    let root = class[0];
    let mut order = vec![root];
    let mut parent = vec![u32::MAX; classes as usize];
    parent[root as usize] = root;
    let mut head = 0;
    while head < order.len() {
        let c = order[head];
        head += 1;
        for &d in &tree[c as usize] {
            if parent[d as usize] == u32::MAX {
                parent[d as usize] = c;
                order.push(d);
            }
        }
    }
    let mut value = loops;
    for &c in order.iter().rev() {
        if c != root {
            let p = parent[c as usize] as usize;
            value[p] ^= value[c as usize] + 1;
        }
    }
    value[root as usize]
}

/// Edges around each vertex as `(other end, edge index)`, in counting-sort rows.
struct Adjacency {
    offsets: Vec<usize>,
    rows: Vec<(u32, u32)>,
}

impl Adjacency {
    fn new(vertices: usize, edges: &[(u32, u32)]) -> Adjacency {
        let mut offsets = vec![0usize; vertices + 1];
        for &(u, v) in edges {
            offsets[u as usize + 1] += 1;
            offsets[v as usize + 1] += 1;
        }
        for i in 0..vertices {
            offsets[i + 1] += offsets[i];
        }
        let mut rows = vec![(0, 0); offsets[vertices]];
        let mut cursor = offsets[..vertices].to_vec();
        for (e, &(u, v)) in edges.iter().enumerate() {
            for (a, b) in [(u, v), (v, u)] {
                rows[cursor[a as usize]] = (b, e as u32);
                cursor[a as usize] += 1;
            }
        }
        Adjacency { offsets, rows }
    }

    fn of(&self, u: u32) -> &[(u32, u32)] {
        &self.rows[self.offsets[u as usize]..self.offsets[u as usize + 1]]
    }

    /// Which edges are bridges (Tarjan's low-links, iteratively: pictures may be deep). A loop
    /// or one of two parallel edges is never a bridge: the edge used to enter a vertex is
    /// skipped by its index, not by its other end.
    fn bridges(&self, edge_count: usize) -> Vec<bool> {
        let n = self.offsets.len() - 1;
        let mut bridge = vec![false; edge_count];
        let (mut order, mut low) = (vec![u32::MAX; n], vec![u32::MAX; n]);
        let mut clock = 0u32;
        for root in 0..n as u32 {
            if order[root as usize] != u32::MAX {
                continue;
            }
            order[root as usize] = clock;
            low[root as usize] = clock;
            clock += 1;
            // (vertex, the edge that entered it, next row entry to look at)
            let mut stack: Vec<(u32, u32, usize)> = vec![(root, u32::MAX, 0)];
            while let Some(&mut (u, via, ref mut next)) = stack.last_mut() {
                if let Some(&(w, e)) = self.of(u).get(*next) {
                    *next += 1;
                    if e == via {
                        continue;
                    }
                    if order[w as usize] == u32::MAX {
                        order[w as usize] = clock;
                        low[w as usize] = clock;
                        clock += 1;
                        stack.push((w, e, 0));
                    } else {
                        low[u as usize] = low[u as usize].min(order[w as usize]);
                    }
                } else {
                    stack.pop();
                    if let Some(&(p, _, _)) = stack.last() {
                        low[p as usize] = low[p as usize].min(low[u as usize]);
                        if low[u as usize] > order[p as usize] {
                            bridge[via as usize] = true;
                        }
                    }
                }
            }
        }
        bridge
    }
}

/// The closed-form analysis of a forest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HackenbushAnalysis {
    /// WIN or LOSE for the player to move.
    pub outcome: Outcome,
    /// The forest's Grundy value (XOR over the roots).
    pub value: u64,
    /// A winning move when the outcome is WIN: cut the edge between this vertex and its
    /// parent (the lowest vertex that works).
    pub winning_cut: Option<usize>,
}

/// Green Hackenbush by its rules on a forest of at most 64 vertices: a position is the set of
/// vertices still standing (bit `v` set), all of the forest at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hackenbush {
    parent: Vec<Option<u32>>,
    subtree: Vec<u64>,
}

impl Hackenbush {
    /// The starting position: every vertex standing.
    pub fn start(&self) -> u64 {
        u64::MAX >> (64 - self.parent.len())
    }

    /// The position after cutting the edge below vertex `v`.
    pub fn cut(&self, standing: u64, v: usize) -> u64 {
        standing & !self.subtree[v]
    }
}

impl Game for Hackenbush {
    type Position = u64;

    fn moves(&self, &standing: &u64, out: &mut Vec<u64>) {
        for v in 0..self.parent.len() {
            if standing >> v & 1 == 1 && self.parent[v].is_some() {
                out.push(self.cut(standing, v));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::game::explore;
    use zermelo::solve;

    #[test]
    fn stalks_are_nim_heaps_and_forks_follow_the_colon_principle() {
        // A stalk of 3 edges: value 3.
        let f = Forest::parse("-,0,1,2").unwrap();
        assert_eq!(f.analyse().value, 3);
        // A root with two single edges: 1 ^ 1 = 0, lost.
        let f = Forest::parse("- 0 0").unwrap();
        assert_eq!(f.analyse().outcome, Outcome::Lose);
        // A "Y": stalk of 1 then a fork of two edges: 1 + (1 ^ 1) = 1.
        let f = Forest::parse("-,0,1,1").unwrap();
        assert_eq!(f.analyse().value, 1);
        assert_eq!(f.analyse().winning_cut, Some(1));
    }

    #[test]
    fn winning_cut_and_values_match_brute_force() {
        let forests = [
            "-,0,1,1,0,4,5,-,7,7",
            "-,0,0,0,1,1,2,-,7",
            "-,0,1,2,3,-,5,6,-",
        ];
        for text in forests {
            let f = Forest::parse(text).unwrap();
            let game = f.game().unwrap();
            let explored = explore(&game, [game.start()]).unwrap();
            let values = solve::grundy(explored.graph()).unwrap();
            let a = f.analyse();
            assert_eq!(u64::from(values[0].0), a.value, "{text}");
            if let Some(v) = a.winning_cut {
                let to = explored.id(&game.cut(game.start(), v)).unwrap();
                assert_eq!(values[to as usize].0, 0, "{text}");
            }
        }
    }

    #[test]
    fn rejects_bad_lists() {
        assert_eq!(Forest::parse(""), Err(ForestError::Empty));
        assert!(matches!(
            Forest::parse("-,x"),
            Err(ForestError::BadEntry { vertex: 1, .. })
        ));
        assert!(matches!(
            Forest::parse("-,5"),
            Err(ForestError::ParentOutOfRange { .. })
        ));
        assert_eq!(
            Forest::parse("-,2,1"),
            Err(ForestError::Cycle { vertex: 1 })
        );
        assert_eq!(Forest::parse("0"), Err(ForestError::Cycle { vertex: 0 }));
    }
}
