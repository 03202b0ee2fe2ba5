//! The onside order of loopy games: a Büchi game on pairs of positions.
//!
//! Reference: Siegel, *Combinatorial Game Theory* ch. VI.4-5; Conway, "Loopy games" (1978).
//! `G+ <= H+` iff Left, moving second in `H - G`, never runs out of moves and, when play is
//! infinite, makes it infinite *in `H`* (infinitely many moves there). That is the swivel
//! chair: Left answers in `H + X` what her strategy in `G + X` would, copying through `H - G`;
//! a play of `H - G` that stays in `-G` forever would leave her without an answer in the real
//! game. The offside order is the onside order of the negatives, reversed.
//!
//! * [`onside_leq`] decides one comparison on the pairs reachable from the two roots;
//! * [`onside_order`] decides it for every pair of positions of one graph at once, on the
//!   product of the graph with itself, whose moves are never stored: a pair's moves and the
//!   moves into it are read off the graph and its reverse, so the game takes 5 bytes a state
//!   (`2 k^2` states for `k` positions). A comparison whose reachable pairs have too many
//!   moves to store is played on that product of its two graphs too.
//!
//! Both solve the Büchi game by nested attractors ([`left_wins`]): O(P * M) for P states and M
//! moves of pairs in the worst case, a few passes over the moves in practice.

use super::LoopyGraph;
use crate::error::CgtError;

/// The most moves of pairs one onside comparison or order may take (a stored comparison keeps
/// about 8 bytes each, and the Büchi game passes over them a few times).
pub const MAX_SIDE_PAIR_MOVES: usize = 1 << 23;

/// The most moves of pairs [`onside_order`] takes: its moves are read off the graph, not
/// stored, so it may take more than a stored comparison.
pub const MAX_ORDER_PAIR_MOVES: usize = 1 << 27;

/// The most pairs [`onside_order`] takes (two states of 5 bytes each: 160 MiB): 4,096
/// positions.
pub const MAX_ORDER_PAIRS: usize = 1 << 24;

/// The bytes the order of all pairs of a game of `k` positions takes at most: two states a pair,
/// each with 6 bytes of marks and counters and up to 8 in the queues (measured: 12 a state on
/// `TTTT..FFFF`). Checked against the memory limit ([`crate::check_memory`]) before a game's
/// sides or simplest form are looked for.
pub fn order_bytes(k: usize) -> u64 {
    (k as u64).saturating_mul(k as u64).saturating_mul(2 * 14)
}

/// `G+ <= H+`: is the onside of node `a` of `g` at most the onside of node `b` of `h`? For
/// stoppers this is the order of stoppers.
///
/// The pairs reachable from `(a, b)` are stored with their moves up to [`MAX_SIDE_PAIR_MOVES`];
/// past that the game is played on every pair, its moves read off the graphs (as
/// [`onside_order`]).
///
/// # Errors
/// [`CgtError::TooBig`] past [`MAX_ORDER_PAIRS`] pairs or [`MAX_ORDER_PAIR_MOVES`] moves of
/// pairs when the reachable ones are more than [`MAX_SIDE_PAIR_MOVES`].
pub fn onside_leq(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<bool, CgtError> {
    match PairArena::build(g, a, h, b) {
        Ok(arena) => Ok(left_wins(&arena)[1]),
        Err(stored) => {
            // Past what is stored: every pair, its moves read off the graphs.
            let (kg, kh) = (g.node_count(), h.node_count());
            let moves = |x: &LoopyGraph| -> usize {
                (0..x.node_count() as u32)
                    .map(|v| x.left(v).len() + x.right(v).len())
                    .sum()
            };
            let pair_moves = kg
                .saturating_mul(moves(h))
                .saturating_add(kh.saturating_mul(moves(g)))
                .saturating_mul(2);
            if kg.saturating_mul(kh) > MAX_ORDER_PAIRS || pair_moves > MAX_ORDER_PAIR_MOVES {
                return Err(stored);
            }
            let pair = a as usize * kh + b as usize;
            Ok(left_wins(&Product::new(g, h))[2 * pair + 1])
        }
    }
}

/// `G- <= H-`: the offside order (the onside order of `-H` and `-G`).
///
/// # Errors
/// As [`onside_leq`].
pub fn offside_leq(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<bool, CgtError> {
    onside_leq(&h.negated(), b, &g.negated(), a)
}

/// The onside order of every pair of nodes of `g`: entry `a * k + b` says `a+ <= b+`, for the
/// `k` nodes of `g`. The same game as [`onside_leq`], on all `k^2` pairs at once.
///
/// # Errors
/// [`CgtError::TooBig`] past [`MAX_ORDER_PAIRS`] pairs or [`MAX_ORDER_PAIR_MOVES`] moves of
/// pairs (`2 k` times the moves of `g`).
pub fn onside_order(g: &LoopyGraph) -> Result<Vec<bool>, CgtError> {
    let k = g.node_count();
    let moves: usize = (0..k as u32)
        .map(|v| g.left(v).len() + g.right(v).len())
        .sum();
    let pair_moves = (2 * k).saturating_mul(moves);
    if k.saturating_mul(k) > MAX_ORDER_PAIRS || pair_moves > MAX_ORDER_PAIR_MOVES {
        return Err(CgtError::TooBig(format!(
            "ordering the sides of a game of {k} positions and {moves} moves takes more than \
             {MAX_ORDER_PAIRS} pairs or {MAX_ORDER_PAIR_MOVES} moves of pairs"
        )));
    }
    let product = Product::new(g, g);
    let wins = left_wins(&product);
    Ok((0..k * k).map(|p| wins[2 * p + 1]).collect())
}

/// The onside order between every node `a` of `g` and every node `b` of `h`: entry
/// `a * |h| + b` says `a+ <= b+`. One Büchi game on all `|g| |h|` pairs, its moves read off
/// the graphs: with `h` of one node (`on`, `off`) it decides a property of every position of
/// `g` at once in O(V + E) per round of attractors.
///
/// # Errors
/// [`CgtError::TooBig`] past [`MAX_ORDER_PAIRS`] pairs or [`MAX_ORDER_PAIR_MOVES`] moves of
/// pairs.
pub fn onside_leq_all(g: &LoopyGraph, h: &LoopyGraph) -> Result<Vec<bool>, CgtError> {
    let moves = |x: &LoopyGraph| -> usize {
        (0..x.node_count() as u32)
            .map(|v| x.left(v).len() + x.right(v).len())
            .sum()
    };
    let (kg, kh) = (g.node_count(), h.node_count());
    let pair_moves = kg
        .saturating_mul(moves(h))
        .saturating_add(kh.saturating_mul(moves(g)))
        .saturating_mul(2);
    if kg.saturating_mul(kh) > MAX_ORDER_PAIRS || pair_moves > MAX_ORDER_PAIR_MOVES {
        return Err(CgtError::TooBig(format!(
            "ordering the sides of games of {kg} and {kh} positions takes more than \
             {MAX_ORDER_PAIRS} pairs or {MAX_ORDER_PAIR_MOVES} moves of pairs"
        )));
    }
    let wins = left_wins(&Product::new(g, h));
    Ok((0..kg * kh).map(|p| wins[2 * p + 1]).collect())
}

/// A game on states `0..states()` whose moves are flagged (a flagged move is made in `H`).
trait Arena {
    fn states(&self) -> usize;
    fn left_to_move(&self, s: usize) -> bool;
    /// Calls `f(target, flagged)` for each move of `s`.
    fn moves(&self, s: usize, f: impl FnMut(usize, bool));
    /// Calls `f(source, flagged)` for each move into `t`.
    fn moves_into(&self, t: usize, f: impl FnMut(usize, bool));
}

/// Left's winning states of the Büchi game: she must not run out of moves, and an infinite
/// play must take infinitely many flagged moves. Nested attractors: what Left cannot force
/// back to a flagged move is lost, with everything Right can force into it.
fn left_wins(arena: &impl Arena) -> Vec<bool> {
    let n = arena.states();
    let mut alive = vec![true; n];
    let mut open = vec![0u32; n];
    let mut mark = vec![false; n];
    let mut queue = Vec::new();
    loop {
        recurrence(arena, &alive, &mut open, &mut mark, &mut queue);
        let lose: Vec<u32> = (0..n)
            .filter(|&s| alive[s] && !mark[s])
            .map(|s| s as u32)
            .collect();
        if lose.is_empty() {
            return alive;
        }
        remove_right_attractor(arena, &mut alive, lose, &mut open, &mut mark);
    }
}

/// Marks (in `inside`) the states from which Left can force a flagged move into `alive` while
/// play stays in `alive` (an attractor to the flagged moves).
fn recurrence(
    arena: &impl Arena,
    alive: &[bool],
    open: &mut [u32],
    inside: &mut [bool],
    queue: &mut Vec<u32>,
) {
    let n = arena.states();
    inside.fill(false);
    queue.clear();
    for s in (0..n).filter(|&s| alive[s]) {
        let (mut done, mut not_done) = (false, 0u32);
        arena.moves(s, |t, flag| {
            if flag && alive[t] {
                done = true;
            } else {
                not_done += 1;
            }
        });
        let enters = if arena.left_to_move(s) {
            done
        } else {
            not_done == 0
        };
        open[s] = not_done;
        if enters {
            inside[s] = true;
            queue.push(s as u32);
        }
    }
    while let Some(t) = queue.pop() {
        arena.moves_into(t as usize, |s, flag| {
            if flag || !alive[s] || inside[s] {
                return;
            }
            if !arena.left_to_move(s) {
                open[s] -= 1;
                if open[s] > 0 {
                    return;
                }
            }
            inside[s] = true;
            queue.push(s as u32);
        });
    }
}

/// Removes from `alive` the states from which Right can force play into `lose` or out of
/// `alive` (Left stuck counts: she has no move left in `alive`).
fn remove_right_attractor(
    arena: &impl Arena,
    alive: &mut [bool],
    lose: Vec<u32>,
    open: &mut [u32],
    gone: &mut [bool],
) {
    let n = arena.states();
    for s in 0..n {
        let mut count = 0u32;
        if alive[s] && arena.left_to_move(s) {
            arena.moves(s, |t, _| count += u32::from(alive[t]));
        }
        open[s] = count;
    }
    gone.fill(false);
    for &s in &lose {
        gone[s as usize] = true;
    }
    let mut queue = lose;
    while let Some(t) = queue.pop() {
        arena.moves_into(t as usize, |s, _| {
            if !alive[s] || gone[s] {
                return;
            }
            if arena.left_to_move(s) {
                open[s] -= 1;
                if open[s] > 0 {
                    return;
                }
            }
            gone[s] = true;
            queue.push(s as u32);
        });
    }
    for s in 0..n {
        if gone[s] {
            alive[s] = false;
        }
    }
}

/// The states of `H - G` reachable from one pair: state `2p` has Left to move in pair `p`,
/// `2p + 1` Right; a move is stored as `2 * target + flag`, flagged when it is made in `H`.
/// Rows in compressed form.
struct PairArena {
    start: Vec<u32>,
    succ: Vec<u32>,
    pred_start: Vec<u32>,
    pred: Vec<u32>,
}

impl PairArena {
    /// The states reachable from pair `(a, b)` with Right to move (state 1).
    fn build(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<PairArena, CgtError> {
        // Pairs numbered in the order first reached, looked up in a dense table.
        let (kg, kh) = (g.node_count(), h.node_count());
        if kg * kh > MAX_SIDE_PAIR_MOVES {
            return Err(CgtError::TooBig(format!(
                "comparing the sides of games of {kg} and {kh} positions takes more than \
                 {MAX_SIDE_PAIR_MOVES} pairs"
            )));
        }
        let mut index = vec![u32::MAX; kg * kh];
        index[a as usize * kh + b as usize] = 0;
        let mut pairs = vec![(a, b)];
        let mut arena = PairArena {
            start: vec![0],
            succ: Vec::new(),
            pred_start: Vec::new(),
            pred: Vec::new(),
        };
        let mut head = 0;
        while head < pairs.len() {
            let (x, y) = pairs[head];
            head += 1;
            arena.push_pair(g, x, h, y, |(xx, yy)| {
                let slot = &mut index[xx as usize * kh + yy as usize];
                if *slot == u32::MAX {
                    *slot = pairs.len() as u32;
                    pairs.push((xx, yy));
                }
                *slot
            })?;
        }
        Ok(arena.with_predecessors())
    }

    /// The rows of pair `(x, y)`: Left to move (`y -> y^L` in H, `x -> x^R` in -G), then Right
    /// (`y -> y^R`, `x -> x^L`).
    fn push_pair(
        &mut self,
        g: &LoopyGraph,
        x: u32,
        h: &LoopyGraph,
        y: u32,
        mut id: impl FnMut((u32, u32)) -> u32,
    ) -> Result<(), CgtError> {
        for left in [true, false] {
            let in_h = h.options(y, left).iter().map(|&yy| ((x, yy), 1));
            let in_g = g.options(x, !left).iter().map(|&xx| ((xx, y), 0));
            for (p, flag) in in_h.chain(in_g) {
                if self.succ.len() >= MAX_SIDE_PAIR_MOVES {
                    return Err(CgtError::TooBig(format!(
                        "comparing the sides of these games takes more than \
                         {MAX_SIDE_PAIR_MOVES} moves of pairs"
                    )));
                }
                // After Left's move Right is to move, and the other way round.
                let state = 2 * id(p) + u32::from(left);
                self.succ.push(2 * state + flag);
            }
            self.start.push(self.succ.len() as u32);
        }
        Ok(())
    }

    fn with_predecessors(mut self) -> PairArena {
        let n = self.states();
        let mut count = vec![0u32; n + 1];
        for &e in &self.succ {
            count[(e / 2) as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut pred = vec![0u32; self.succ.len()];
        for s in 0..n {
            for &e in self.row(s) {
                let t = (e / 2) as usize;
                pred[fill[t] as usize] = 2 * s as u32 + e % 2;
                fill[t] += 1;
            }
        }
        self.pred_start = count;
        self.pred = pred;
        self
    }

    /// The moves of state `s`: `2 * target + flag`.
    fn row(&self, s: usize) -> &[u32] {
        &self.succ[self.start[s] as usize..self.start[s + 1] as usize]
    }
}

impl Arena for PairArena {
    fn states(&self) -> usize {
        self.start.len() - 1
    }

    fn left_to_move(&self, s: usize) -> bool {
        s % 2 == 0
    }

    fn moves(&self, s: usize, mut f: impl FnMut(usize, bool)) {
        for &e in self.row(s) {
            f((e / 2) as usize, e % 2 == 1);
        }
    }

    fn moves_into(&self, t: usize, mut f: impl FnMut(usize, bool)) {
        let into = &self.pred[self.pred_start[t] as usize..self.pred_start[t + 1] as usize];
        for &e in into {
            f((e / 2) as usize, e % 2 == 1);
        }
    }
}

/// Every pair `(a, b)` of a node `a` of `g` and a node `b` of `h`, standing for `b - a`: state
/// `2 (a k + b)` has Left to move, `2 (a k + b) + 1` Right, for the `k` nodes of `h`. Moves are
/// read off the graphs (forward) and their reverses (backward); a move in `b` is flagged.
struct Product<'a> {
    g: &'a LoopyGraph,
    h: &'a LoopyGraph,
    /// `into_g[0][v]`: the nodes of `g` with a Right move to `v`, `into_g[1][v]` with a Left
    /// move; `into_h` likewise for `h`.
    into_g: [Vec<Vec<u32>>; 2],
    into_h: [Vec<Vec<u32>>; 2],
    k: usize,
}

/// The moves into each node of `g`: Right's, then Left's.
fn reversed(g: &LoopyGraph) -> [Vec<Vec<u32>>; 2] {
    let k = g.node_count();
    let mut into = [vec![Vec::new(); k], vec![Vec::new(); k]];
    for v in 0..k as u32 {
        for (side, left) in [(0, false), (1, true)] {
            for &w in g.options(v, left) {
                into[side][w as usize].push(v);
            }
        }
    }
    into
}

impl<'a> Product<'a> {
    fn new(g: &'a LoopyGraph, h: &'a LoopyGraph) -> Product<'a> {
        let into_g = reversed(g);
        let into_h = if std::ptr::eq(g, h) {
            into_g.clone()
        } else {
            reversed(h)
        };
        Product {
            g,
            h,
            into_g,
            into_h,
            k: h.node_count(),
        }
    }
}

impl Arena for Product<'_> {
    fn states(&self) -> usize {
        2 * self.g.node_count() * self.k
    }

    fn left_to_move(&self, s: usize) -> bool {
        s % 2 == 0
    }

    /// Left moves `b -> b^L` (flagged) or `a -> a^R`; Right `b -> b^R` (flagged) or
    /// `a -> a^L`; the other player moves next.
    fn moves(&self, s: usize, mut f: impl FnMut(usize, bool)) {
        let (p, left) = (s / 2, s % 2 == 0);
        let (a, b) = (p / self.k, (p % self.k) as u32);
        let next = usize::from(left);
        for &bb in self.h.options(b, left) {
            f(2 * (a * self.k + bb as usize) + next, true);
        }
        for &aa in self.g.options(a as u32, !left) {
            f(2 * (aa as usize * self.k + b as usize) + next, false);
        }
    }

    /// Into a state with Right to move come Left's moves (`b' -> b` by a Left move of `b'`,
    /// `a' -> a` by a Right move of `a'`), and the other way round.
    fn moves_into(&self, t: usize, mut f: impl FnMut(usize, bool)) {
        let (p, right_next) = (t / 2, t % 2 == 1);
        let (a, b) = (p / self.k, p % self.k);
        let before = usize::from(!right_next);
        for &bb in &self.into_h[usize::from(right_next)][b] {
            f(2 * (a * self.k + bb as usize) + before, true);
        }
        for &aa in &self.into_g[usize::from(!right_next)][a] {
            f(2 * (aa as usize * self.k + b) + before, false);
        }
    }
}
