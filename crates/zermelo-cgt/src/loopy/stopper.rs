//! Stoppers: loopy games without infinite alternating play, in their simplest form.
//!
//! Reference: Conway, *On Numbers and Games* ch. 16; *Winning Ways* ch. 11; Siegel,
//! *Combinatorial Game Theory* ch. VI.2-3.
//!
//! * **Order.** For stoppers, `G <= H` iff Left, moving second in `H - G`, survives (never runs
//!   out of moves; infinite play counts as survival). [`leq_matrix`] decides it for every pair of
//!   nodes of a graph at once: the pairs `(a, b)` stand for `b - a` (Left moves `b -> b^L` or
//!   `a -> a^R`, Right `b -> b^R` or `a -> a^L`), a game on that product with Right to move,
//!   whose moves are read off the graph (the onside order of order.rs, which is the order for
//!   stoppers). O(k^2 (V + E)) for k nodes in the worst case.
//! * **Simplest form.** Every node keeps its value when a dominated option is deleted or a
//!   reversible one bypassed (a Left option `x` with a Right option `x^R <= G` is replaced by
//!   the Left options of `x^R`; dually), so the order computed once on the input stays valid;
//!   after that, nodes of equal value are fused. The result is unique up to the naming of its
//!   nodes (Siegel VI.3); nodes are then numbered by colour refinement and a breadth-first walk,
//!   so equal games print alike.

use std::collections::HashMap;

use super::{LoopyGraph, LoopyOutcome, Result3};
use crate::error::CgtError;
use crate::Value;

/// The most nodes a stopper may have for its simplest form (the order is k^2 pairs).
pub const MAX_STOPPER_NODES: usize = 2048;

/// A stopper in simplest form: node 0 of its graph.
#[derive(Clone, Debug)]
pub struct Stopper {
    graph: LoopyGraph,
}

/// `leq[a * k + b]`: is node `a <= ` node `b`, for the `k` nodes of a stopper graph. The onside
/// order of all pairs ([`super::onside_order`]): for stoppers it is their order, since an
/// infinite play of `b - a` that moved in `b` only finitely often would end alternating in `a`
/// forever, which a stopper has not. Its moves are read off the graph, 5 bytes a pair.
pub(crate) fn leq_matrix(g: &LoopyGraph) -> Result<Vec<bool>, CgtError> {
    let k = g.node_count();
    if k > MAX_STOPPER_NODES {
        return Err(CgtError::TooBig(format!(
            "a stopper of {k} positions is more than the {MAX_STOPPER_NODES} this program \
             simplifies"
        )));
    }
    super::onside_order(g)
}

/// [`leq_matrix`] by retrograde analysis of the product graph, stored: the tests' oracle.
#[cfg(test)]
fn leq_matrix_by_retrograde(g: &LoopyGraph) -> Vec<bool> {
    let k = g.node_count();
    let mut pairs = LoopyGraph::new();
    for _ in 0..k * k {
        pairs.add_node();
    }
    let at = |a: u32, b: u32| a * k as u32 + b;
    for a in 0..k as u32 {
        for b in 0..k as u32 {
            let p = at(a, b);
            for &bl in g.left(b) {
                pairs.add_left(p, at(a, bl));
            }
            for &ar in g.right(a) {
                pairs.add_left(p, at(ar, b));
            }
            for &br in g.right(b) {
                pairs.add_right(p, at(a, br));
            }
            for &al in g.left(a) {
                pairs.add_right(p, at(al, b));
            }
        }
    }
    pairs
        .outcomes()
        .into_iter()
        .map(|o| o.right_first != Result3::Loss)
        .collect()
}

/// The most moves of pairs [`leq_pair`] makes (memory and time: about 16 bytes and a few
/// nanoseconds each).
pub const MAX_PAIR_MOVES: usize = 1 << 24;

/// Is node `a <=` node `b` (both stoppers)? The pairs reachable from `(a, b)` only.
pub(crate) fn leq_pair(g: &LoopyGraph, a: u32, b: u32) -> Result<bool, CgtError> {
    let mut index: HashMap<(u32, u32), u32> = HashMap::from([((a, b), 0)]);
    let mut pairs = vec![(a, b)];
    let mut product = LoopyGraph::new();
    product.add_node();
    let limit = MAX_STOPPER_NODES * MAX_STOPPER_NODES;
    let mut moves_made = 0usize;
    let mut head = 0;
    while head < pairs.len() {
        let (x, y) = pairs[head];
        let from = head as u32;
        head += 1;
        let lefts = g
            .left(y)
            .iter()
            .map(|&yl| (x, yl))
            .chain(g.right(x).iter().map(|&xr| (xr, y)));
        let rights = g
            .right(y)
            .iter()
            .map(|&yr| (x, yr))
            .chain(g.left(x).iter().map(|&xl| (xl, y)));
        let moves: Vec<(bool, (u32, u32))> = lefts
            .map(|p| (true, p))
            .chain(rights.map(|p| (false, p)))
            .collect();
        moves_made += moves.len();
        if moves_made > MAX_PAIR_MOVES {
            return Err(CgtError::TooBig(format!(
                "comparing these stoppers takes more than {MAX_PAIR_MOVES} moves of pairs"
            )));
        }
        for (left, p) in moves {
            let to = match index.get(&p) {
                Some(&to) => to,
                None => {
                    if pairs.len() >= limit {
                        return Err(CgtError::TooBig(format!(
                            "comparing these stoppers takes more than {limit} positions"
                        )));
                    }
                    let to = product.add_node();
                    index.insert(p, to);
                    pairs.push(p);
                    to
                }
            };
            if left {
                product.add_left(from, to);
            } else {
                product.add_right(from, to);
            }
        }
    }
    Ok(product.outcomes()[0].right_first != Result3::Loss)
}

impl Stopper {
    /// The simplest form of the stopper at `start` of `g`.
    ///
    /// # Errors
    /// [`CgtError::NotStopper`] (naming a node on an infinite alternating run) when it is not a
    /// stopper; [`CgtError::TooBig`] past [`MAX_STOPPER_NODES`] positions.
    pub fn new(g: &LoopyGraph, start: u32) -> Result<Stopper, CgtError> {
        if let Some(node) = g.alternating_cycle(start) {
            return Err(CgtError::NotStopper(u64::from(node)));
        }
        let positions = g.reachable(&[start]).len();
        if positions > MAX_STOPPER_NODES {
            return Err(CgtError::TooBig(format!(
                "a stopper of {positions} positions is more than the {MAX_STOPPER_NODES} this \
                 program simplifies"
            )));
        }
        let mut g = g.restricted(start);
        let leq = leq_matrix(&g)?;
        let k = g.node_count();
        let le = |a: u32, b: u32| leq[a as usize * k + b as usize];
        simplify(&mut g, &le)?;
        let fused = fuse(&g, 0, &le);
        Ok(Stopper {
            graph: relabel(&fused),
        })
    }

    /// The simplest forms of the nodes `roots` of `g`, every node of which is a stopper: one
    /// order of all pairs and one simplification for them all (each keeps every node's
    /// value), then each root's part fused and numbered.
    ///
    /// # Errors
    /// [`CgtError::TooBig`] past [`MAX_STOPPER_NODES`] positions.
    pub(crate) fn all_of(g: &LoopyGraph, roots: &[u32]) -> Result<Vec<Stopper>, CgtError> {
        let mut g = g.clone();
        let leq = leq_matrix(&g)?;
        let k = g.node_count();
        let le = |a: u32, b: u32| leq[a as usize * k + b as usize];
        simplify(&mut g, &le)?;
        Ok(roots
            .iter()
            .map(|&r| Stopper {
                graph: relabel(&fuse(&g, r, &le)),
            })
            .collect())
    }

    /// The stopper of a short game.
    ///
    /// # Errors
    /// [`CgtError::TooBig`] for a game of more followers than the simplification takes.
    pub fn from_value(v: Value) -> Result<Stopper, CgtError> {
        let mut g = LoopyGraph::new();
        let node = g.add_value(v)?;
        Stopper::new(&g, node)
    }

    /// The graph of the simplest form (node 0 is the game).
    pub fn graph(&self) -> &LoopyGraph {
        &self.graph
    }

    /// The number of positions of the simplest form.
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// `self <= other`.
    ///
    /// # Errors
    /// [`CgtError::TooBig`] when the two have more than [`MAX_STOPPER_NODES`] positions.
    pub fn leq(&self, other: &Stopper) -> Result<bool, CgtError> {
        let u = self.graph.union(&other.graph);
        leq_pair(&u, 0, self.graph.node_count() as u32)
    }

    /// `-G`.
    pub fn negated(&self) -> Stopper {
        Stopper {
            graph: relabel(&self.graph.negated()),
        }
    }

    /// `G + H`, when it is a stopper.
    ///
    /// # Errors
    /// [`CgtError::NotStopper`] when the sum is not a stopper; [`CgtError::TooBig`].
    pub fn add(&self, other: &Stopper) -> Result<Stopper, CgtError> {
        let u = self.graph.union(&other.graph);
        let shift = self.graph.node_count() as u32;
        let sum = u.sum(&[0, shift], MAX_STOPPER_NODES)?;
        Stopper::new(&sum, 0)
    }

    /// The outcome of the stopper alone: never a draw (no infinite alternating play). Left
    /// moving first wins iff not `G <= 0`; moving second iff `G >= 0`.
    ///
    /// # Errors
    /// As [`Stopper::leq`].
    pub fn outcome(&self) -> Result<LoopyOutcome, CgtError> {
        let zero = Stopper::from_value(Value::ZERO)?;
        let win = |b: bool| if b { Result3::Win } else { Result3::Loss };
        Ok(LoopyOutcome {
            left_first: win(!self.leq(&zero)?),
            right_first: win(zero.leq(self)?),
        })
    }

    /// The short game it is, when it has no cycle.
    pub fn as_value(&self) -> Option<Value> {
        node_value(&self.graph, 0, &mut HashMap::new())
    }
}

/// The canonical short value of node `v` when no cycle is reachable from it (`None` also when
/// a follower's value cannot be formed). Iterative: an integer's canonical form is a chain as
/// long as the integer, and a loopy expression may hold one of tens of thousands of nodes (a
/// recursive walk overflowed the stack on such an input, found by the `cgt_value` fuzz target).
pub(crate) fn node_value(
    g: &LoopyGraph,
    v: u32,
    memo: &mut HashMap<u32, Option<Value>>,
) -> Option<Value> {
    if let Some(&x) = memo.get(&v) {
        return x;
    }
    // Depth-first, each frame a node and how many of its options (Left's, then Right's) are
    // valued. A node is `None` in the memo while on the path, so an option found `None` is a
    // cycle through the path or a follower with no short value: then every node on the path
    // has none either, and keeps `None`.
    memo.insert(v, None);
    let mut path: Vec<(u32, usize)> = vec![(v, 0)];
    while let Some(&(u, next)) = path.last() {
        let (lefts, rights) = (g.left(u), g.right(u));
        if next < lefts.len() + rights.len() {
            let w = lefts
                .get(next)
                .copied()
                .unwrap_or_else(|| rights[next - lefts.len()]);
            path.last_mut().expect("not empty").1 += 1;
            match memo.get(&w) {
                Some(Some(_)) => {}
                Some(None) => return None,
                None => {
                    memo.insert(w, None);
                    path.push((w, 0));
                }
            }
            continue;
        }
        let valued = |ws: &[u32]| -> Vec<Value> {
            ws.iter()
                .map(|w| memo[w].expect("every option of a finished node is valued"))
                .collect()
        };
        let x = Value::from_options(&valued(lefts), &valued(rights)).ok();
        memo.insert(u, x);
        path.pop();
        x?;
    }
    memo[&v]
}

/// Bypasses reversible options and deletes dominated ones until nothing changes. `le` is the
/// order of the nodes' values, which these steps keep.
fn simplify(g: &mut LoopyGraph, le: &impl Fn(u32, u32) -> bool) -> Result<(), CgtError> {
    let n = g.node_count();
    let edges: usize = (0..n as u32)
        .map(|v| g.left(v).len() + g.right(v).len())
        .sum();
    // A bound on the bypasses: each one replaces an option by options further down an
    // alternating run, and a stopper has no infinite one; the bound only guards the loop.
    let mut budget = 64 * (edges + n) + 1024;
    loop {
        let mut changed = false;
        // Farthest from the root first (nodes are numbered breadth first): an option is
        // simplified before the nodes that bypass through it, so bypasses stay short.
        for v in (0..n as u32).rev() {
            for left in [true, false] {
                changed |= drop_dominated(g, v, left, le);
                changed |= bypass(g, v, left, le, &mut budget)?;
                changed |= drop_dominated(g, v, left, le);
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

fn bypass(
    g: &mut LoopyGraph,
    v: u32,
    left: bool,
    le: &impl Fn(u32, u32) -> bool,
    budget: &mut usize,
) -> Result<bool, CgtError> {
    let mut changed = false;
    let mut i = 0;
    while i < g.options(v, left).len() {
        let x = g.options(v, left)[i];
        // A Left option x reverses through x^R <= v; a Right option through x^L >= v.
        let through =
            g.options(x, !left)
                .iter()
                .copied()
                .find(|&y| if left { le(y, v) } else { le(v, y) });
        let Some(y) = through else {
            i += 1;
            continue;
        };
        if *budget == 0 {
            return Err(CgtError::TooBig(
                "simplifying the stopper did not settle (bypassing reversible options)".into(),
            ));
        }
        *budget -= 1;
        let mut opts = g.options(v, left).to_vec();
        opts.remove(i);
        for &z in g.options(y, left) {
            if z != x && !opts.contains(&z) {
                opts.push(z);
            }
        }
        set_options(g, v, left, opts);
        changed = true;
    }
    Ok(changed)
}

pub(super) fn drop_dominated(
    g: &mut LoopyGraph,
    v: u32,
    left: bool,
    le: &impl Fn(u32, u32) -> bool,
) -> bool {
    let opts = g.options(v, left).to_vec();
    // Left keeps the greatest options, Right the least; of equal ones the first.
    let worse = |a: u32, b: u32| if left { le(a, b) } else { le(b, a) };
    let kept: Vec<u32> = opts
        .iter()
        .enumerate()
        .filter(|&(i, &a)| {
            !opts
                .iter()
                .enumerate()
                .any(|(j, &b)| j != i && worse(a, b) && (!worse(b, a) || j < i))
        })
        .map(|(_, &a)| a)
        .collect();
    let changed = kept.len() != opts.len();
    if changed {
        set_options(g, v, left, kept);
    }
    changed
}

fn set_options(g: &mut LoopyGraph, v: u32, left: bool, opts: Vec<u32>) {
    if left {
        g.left[v as usize] = opts;
    } else {
        g.right[v as usize] = opts;
    }
}

/// Nodes of equal value fused into one (the first reached of each class), the part reachable
/// from `root` kept (`root`'s class becomes node 0).
fn fuse(g: &LoopyGraph, root: u32, le: &impl Fn(u32, u32) -> bool) -> LoopyGraph {
    let reach = g.reachable(&[root]);
    let mut class: HashMap<u32, u32> = HashMap::new();
    let mut reps: Vec<u32> = Vec::new();
    for &v in &reach {
        let rep = reps
            .iter()
            .copied()
            .find(|&r| le(v, r) && le(r, v))
            .unwrap_or_else(|| {
                reps.push(v);
                v
            });
        class.insert(v, rep);
    }
    let mut out = g.clone();
    for &v in &reach {
        for left in [true, false] {
            let mut opts: Vec<u32> = g.options(v, left).iter().map(|w| class[w]).collect();
            opts.sort_unstable();
            opts.dedup();
            set_options(&mut out, v, left, opts);
        }
    }
    out.restricted(class[&root])
}

/// The graph renumbered in an order that depends only on its shape: colours refined until
/// stable (a node's colour from its options' colours), then a breadth-first walk from node 0
/// taking options in colour order.
fn relabel(g: &LoopyGraph) -> LoopyGraph {
    let n = g.node_count();
    let mut colour = vec![0usize; n];
    let mut count = 1;
    loop {
        let sig: Vec<(usize, Vec<usize>, Vec<usize>)> = (0..n as u32)
            .map(|v| {
                let mut l: Vec<usize> = g.left(v).iter().map(|&w| colour[w as usize]).collect();
                let mut r: Vec<usize> = g.right(v).iter().map(|&w| colour[w as usize]).collect();
                l.sort_unstable();
                r.sort_unstable();
                (colour[v as usize], l, r)
            })
            .collect();
        let mut distinct = sig.clone();
        distinct.sort();
        distinct.dedup();
        colour = sig
            .iter()
            .map(|s| distinct.binary_search(s).expect("a signature"))
            .collect();
        if distinct.len() == count {
            break;
        }
        count = distinct.len();
    }
    let mut id = vec![u32::MAX; n];
    let mut order = vec![0u32];
    id[0] = 0;
    let mut head = 0;
    while head < order.len() {
        let v = order[head];
        head += 1;
        for left in [true, false] {
            let mut opts = g.options(v, left).to_vec();
            opts.sort_by_key(|&w| colour[w as usize]);
            for w in opts {
                if id[w as usize] == u32::MAX {
                    id[w as usize] = order.len() as u32;
                    order.push(w);
                }
            }
        }
    }
    let mut out = LoopyGraph::new();
    for _ in &order {
        out.add_node();
    }
    for (i, &v) in order.iter().enumerate() {
        for left in [true, false] {
            let mut opts: Vec<u32> = g.options(v, left).iter().map(|&w| id[w as usize]).collect();
            opts.sort_unstable();
            set_options(&mut out, i as u32, left, opts);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random stoppers: each node ranked, moves only to lower ranks or, within a rank, by the
    /// one player whose cycles that rank allows (so no alternating cycle).
    fn random_stopper(seed: &mut u64, n: usize) -> LoopyGraph {
        let mut next = |m: usize| {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((*seed >> 33) % m as u64) as usize
        };
        let ranks = 1 + next(n);
        let rank: Vec<usize> = (0..n)
            .map(|v| if v == 0 { 0 } else { next(ranks) })
            .collect();
        let left_loops: Vec<bool> = (0..ranks).map(|_| next(2) == 0).collect();
        let mut g = LoopyGraph::new();
        for _ in 0..n {
            g.add_node();
        }
        for v in 1..n {
            for left in [true, false] {
                for _ in 0..next(4) {
                    let w = next(n);
                    if rank[w] < rank[v] || (rank[w] == rank[v] && left_loops[rank[v]] == left) {
                        if left {
                            g.add_left(v as u32, w as u32);
                        } else {
                            g.add_right(v as u32, w as u32);
                        }
                    }
                }
            }
        }
        g
    }

    /// The order of stoppers by the onside order of all pairs equals retrograde analysis of
    /// the stored product (infinite play a survival for Left), on 2,000 random stoppers.
    #[test]
    fn the_order_of_stoppers_is_their_onside_order() {
        let mut seed = 7u64;
        let mut below = 0usize;
        for case in 0..2000 {
            let g = random_stopper(&mut seed, 2 + case % 14);
            let order = leq_matrix(&g).unwrap();
            assert_eq!(order, leq_matrix_by_retrograde(&g), "case {case}: {g:?}");
            below += order.iter().filter(|&&x| x).count();
        }
        assert!(below > 10_000, "{below}");
    }

    /// A chain of 200,000 nodes, each with one Left option, the next: the integer 200,000,
    /// valued without a stack overflow (the recursive walk crashed the fuzz target).
    #[test]
    fn a_long_chain_is_valued_without_recursion() {
        let mut g = LoopyGraph::new();
        let n = 200_000u32;
        for _ in 0..=n {
            g.add_node();
        }
        for v in 0..n {
            g.add_left(v, v + 1);
        }
        let x = node_value(&g, 0, &mut HashMap::new());
        assert_eq!(x.map(|x| x.to_string()), Some("200000".to_string()));
        // A cycle at the far end: no short value, for every node on the way.
        g.add_right(n, 0);
        let mut memo = HashMap::new();
        assert_eq!(node_value(&g, 0, &mut memo), None);
        assert_eq!(memo.get(&(n / 2)), Some(&None));
    }
}
