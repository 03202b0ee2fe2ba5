//! Parity games for tests and benchmarks: random games and the structured families of the
//! literature that are hard for some algorithms. Every generator is a pure function of its
//! parameters (and seed).
//!
//! | family | size | defined after | hard for |
//! |---|---|---|---|
//! | [`random`] | n vertices, degree in `[min, max]` | Oink's `rngame` | - (falls apart in one attractor) |
//! | [`ladder`] | 2n vertices | PGSolver's `laddergame` | strategy improvement, SPM |
//! | [`recursive_ladder`] | 5n vertices | PGSolver's `recursiveladder` (Friedmann) | Zielonka (exponential) |
//! | [`friedmann`] | 5n vertices | O. Friedmann, "Recursive algorithm for parity games requires exponential time", RAIRO 2011 | Zielonka |
//! | [`two_counters`] | O(n²) vertices | Oink's `tc` (T. van Dijk, "A parity game tale of two counters", 2019) | priority promotion, tangle learning, Zielonka |
//! | [`jurdzinski`] | O(h·w) vertices | PGSolver's `jurdzinskigame` (Jurdziński, STACS 2000, Thm 12) | small progress measures |
//! | [`synthesis`] | reachable part of plant × DPA × (1 + 2^inputs) | SYNTCOMP's LTL-to-parity games: a random plant and DPA (`generate/synthesis.rs`) | - (a chain of components: the case for `--scc`) |

use std::collections::HashMap;

mod synthesis;

pub use synthesis::{synthesis, SynthesisGame, MAX_SIGNALS};

use crate::{Arena, ArenaError, Priority};
use zermelo::graph::generate::SplitMix64;
use zermelo::Player;

/// Vertices and edges under construction.
#[derive(Default)]
struct Draft {
    vertices: Vec<(Player, Priority)>,
    edges: Vec<(u64, u64)>,
}

impl Draft {
    fn with_vertices(n: usize) -> Draft {
        Draft {
            vertices: vec![(Player::Zero, 0); n],
            edges: Vec::new(),
        }
    }
    fn set(&mut self, v: u64, owner: u64, priority: u64, succ: &[u64]) {
        self.vertices[v as usize] = (player(owner), priority as Priority);
        self.edges.extend(succ.iter().map(|&w| (v, w)));
    }
    fn build(self) -> Result<Arena, ArenaError> {
        Arena::from_edges(&self.vertices, self.edges)
    }
}

fn player(owner: u64) -> Player {
    if owner % 2 == 0 {
        Player::Zero
    } else {
        Player::One
    }
}

/// Parameters of [`random`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomGame {
    /// Number of vertices (at least 1; 2 without self-loops).
    pub vertices: u64,
    /// Priorities are drawn uniformly from `0..=max_priority`.
    pub max_priority: Priority,
    /// Out-degrees are drawn uniformly from `min_degree..=max_degree` (distinct successors).
    pub min_degree: u64,
    /// See `min_degree`.
    pub max_degree: u64,
    /// Whether a vertex may be its own successor.
    pub self_loops: bool,
    /// Random seed.
    pub seed: u64,
}

impl RandomGame {
    /// Why these parameters make no game, if they don't.
    pub fn check(&self) -> Result<(), String> {
        let targets = self.vertices - u64::from(!self.self_loops && self.vertices > 0);
        if self.vertices == 0 {
            Err("a game needs at least one vertex".into())
        } else if self.min_degree == 0 || self.min_degree > self.max_degree {
            Err("degrees must satisfy 1 <= min <= max".into())
        } else if self.max_degree > targets {
            Err(format!(
                "a degree of {} needs that many distinct successors, but there are only {targets}",
                self.max_degree
            ))
        } else {
            Ok(())
        }
    }
}

/// A random game in the manner of Oink's `rngame`: uniform priority and owner, uniform
/// out-degree, distinct uniform successors.
///
/// # Errors
/// When [`RandomGame::check`] fails or the game is too large.
pub fn random(spec: RandomGame) -> Result<Arena, String> {
    spec.check()?;
    let n = spec.vertices;
    let mut rng = SplitMix64::new(spec.seed);
    let mut d = Draft::with_vertices(n as usize);
    let mut chosen: Vec<u64> = Vec::new();
    for v in 0..n {
        let priority = rng.below(u64::from(spec.max_priority) + 1);
        let owner = rng.below(2);
        let degree = spec.min_degree + rng.below(spec.max_degree - spec.min_degree + 1);
        let pool = if spec.self_loops { n } else { n - 1 };
        sample_distinct(&mut rng, pool, degree, &mut chosen);
        for t in chosen.iter_mut() {
            if !spec.self_loops && *t >= v {
                *t += 1; // skip v itself
            }
        }
        d.set(v, owner, priority, &chosen);
    }
    d.build().map_err(|e| e.to_string())
}

/// `k` distinct numbers from `0..m` (Floyd's algorithm), in the order drawn.
fn sample_distinct(rng: &mut SplitMix64, m: u64, k: u64, out: &mut Vec<u64>) {
    out.clear();
    if k > 64 {
        let mut seen = std::collections::HashSet::new();
        for j in m - k..m {
            let t = rng.below(j + 1);
            let pick = if seen.insert(t) { t } else { j };
            seen.insert(pick);
            out.push(pick);
        }
        return;
    }
    for j in m - k..m {
        let t = rng.below(j + 1);
        out.push(if out.contains(&t) { j } else { t });
    }
}

/// PGSolver's ladder game: 2n vertices; `i` has priority and owner `i mod 2` and moves to
/// `i + 1` and `i + 2` (mod 2n).
pub fn ladder(n: u64) -> Result<Arena, ArenaError> {
    let m = 2 * n;
    let mut d = Draft::with_vertices(m as usize);
    for i in 0..m {
        d.set(i, i % 2, i % 2, &[(i + 1) % m, (i + 2) % m]);
    }
    d.build()
}

/// PGSolver's recursive ladder (Friedmann): 5n vertices in n + 1 rungs of up to five.
pub fn recursive_ladder(n: u64) -> Result<Arena, ArenaError> {
    let height = n as i64 + 1;
    let mut d = Draft::with_vertices(5 * n as usize);
    for i in 0..height {
        let base = i * 5 - 2;
        let p = (i + 1) * 3 + 2;
        let start = i % 2;
        let o = 1 - start;
        let (top, below_top, bottom) = (i == height - 1, i == height - 2, i == 0);
        let mut put = |j: i64, pr: i64, pl: i64, succ: &[i64]| {
            let targets: Vec<u64> = succ.iter().map(|&s| (base + s) as u64).collect();
            d.set((base + j) as u64, (start + pl) as u64, pr as u64, &targets);
        };
        if !bottom {
            put(0, o, 1, &[-2, 1]);
            put(1, o, 0, if top { &[0] } else { &[0, 2] });
        }
        if !top {
            put(2, p, 1, &[6, 3]);
            let mut succ = Vec::new();
            if !bottom {
                succ.push(-2);
            }
            if !below_top {
                succ.push(8);
            }
            succ.push(4);
            put(3, p - 1, 0, &succ);
            put(4, p - 2, 1, &[3, 6]);
        }
    }
    d.build()
}

/// Friedmann's lower-bound game for Zielonka's algorithm: 5n vertices in groups a, b, c, d, e.
pub fn friedmann(n: u64) -> Result<Arena, ArenaError> {
    let (a, b) = (|i: u64| i - 1, |i: u64| n + i - 1);
    let (c, dd) = (|i: u64| 2 * n + i, |i: u64| 3 * n + i);
    let e = |i: u64| 4 * n + i;
    let mut g = Draft::with_vertices(5 * n as usize);
    for i in 1..=n {
        let odd = i & 1;
        g.set(a(i), odd ^ 1, odd ^ 1, &[b(i), dd(i - 1)]);
        let mut succ = vec![a(i)];
        if i < n {
            succ.push(c(i));
        }
        g.set(b(i), odd, odd ^ 1, &succ);
    }
    for i in 0..n {
        let odd = i & 1;
        g.set(c(i), odd ^ 1, 3 * i + 5, &[b(i + 1), dd(i)]);
        let mut succ = vec![c(i)];
        if i > 0 {
            succ.push(dd(i - 1));
        }
        if i + 1 < n {
            succ.push(dd(i + 1));
        }
        g.set(dd(i), odd, 3 * i + 4, &succ);
        g.set(e(i), odd ^ 1, 3 * i + 3, &[b(i + 1), dd(i)]);
    }
    g.build()
}

/// Van Dijk's two-counters game with `n` bits (Oink's `tc`): two binary counters, one per
/// player, that distract tangle-based and promotion-based solvers.
pub fn two_counters(n: u64) -> Result<Arena, ArenaError> {
    let (mut in0, mut in1, mut hi0, mut hi1) = (vec![], vec![], vec![], vec![]);
    let mut size = 0;
    for i in 0..n {
        hi0.push(size);
        in0.push(size + 2);
        size += 4 + 3 * i;
        hi1.push(size);
        in1.push(size + 2);
        size += 4 + 3 * i;
    }
    let mut d = Draft::with_vertices(size as usize);
    let inputs = [in0, in1];
    let mut lo = 0;
    let mut top = (n + 3) * n + 6 * n;
    for i in 0..n {
        lo += 2 * (n + 1 - i);
        bit(
            &mut d,
            &inputs,
            n,
            hi0[i as usize],
            [top, top - 2 * n - 1, lo],
            i,
        );
        bit(
            &mut d,
            &inputs,
            n,
            hi1[i as usize],
            [top - 1, top - 2 * n - 2, lo + 1],
            i,
        );
        top -= 2;
    }
    d.build()
}

/// One bit of [`two_counters`] at base index `c` with priorities `[high, input, low]`.
fn bit(d: &mut Draft, inputs: &[Vec<u64>; 2], n: u64, c: u64, pr: [u64; 3], i: u64) {
    let [high, input, low] = pr;
    let pl = high & 1;
    let sela = c + 3;
    let own = &inputs[pl as usize];
    let other = &inputs[1 - pl as usize];
    d.set(c, pl, high, &[own[((i + n - 1) % n) as usize]]);
    let first = if i == 0 { sela } else { c + 4 };
    d.set(c + 1, 1 - pl, low, &[c, first]);
    d.set(c + 2, 1 - pl, input, &[c + 1]);
    let mut sel = vec![c + 1];
    sel.extend((i + pl..n).map(|j| other[j as usize]));
    d.set(sela, pl, 0, &sel);
    for j in 0..i {
        let s = c + 4 + 3 * j;
        let next = if j + 1 != i { s + 3 } else { sela };
        d.set(s, pl, 0, &[s + 1, s + 2]);
        d.set(s + 1, 1 - pl, 0, &[next, own[j as usize]]);
        d.set(s + 2, 1 - pl, 0, &[next, other[j as usize]]);
    }
}

/// Jurdziński's game of height `h` and width `w` (as PGSolver builds it: the vertices reachable
/// from `L(0,0)`, numbered in breadth-first order).
pub fn jurdzinski(h: u64, w: u64) -> Result<Arena, ArenaError> {
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    enum J {
        L(u64, u64),
        R(u64, u64),
        A(u64, u64),
    }
    let succ = |v: J| -> Vec<J> {
        match v {
            J::L(0, 0) => vec![J::R(0, 0)],
            J::L(0, x) if x < w => vec![J::R(0, x - 1), J::R(0, x)],
            J::L(0, x) => vec![J::R(0, x - 1)],
            J::R(0, x) => {
                let mut s = vec![J::L(0, x), J::L(0, x + 1)];
                s.extend((1..h).map(|y| J::R(y, x)));
                s
            }
            J::L(y, 0) => vec![J::A(y, 0), J::R(y, 0)],
            J::L(y, x) if x < w => vec![J::R(y, x - 1), J::A(y, x), J::R(y, x)],
            J::L(y, x) => vec![J::R(y, x - 1)],
            J::A(y, x) => vec![J::R(y, x)],
            J::R(y, x) => vec![J::L(y, x), J::L(y, x + 1), J::R(0, x)],
        }
    };
    let label = |v: J| -> (u64, u64) {
        match v {
            J::L(0, _) => (0, 0),
            J::R(0, _) => (1, 1),
            J::L(y, _) => (1, 2 * y),
            J::R(y, _) => (0, 2 * y),
            J::A(y, _) => (0, 2 * y + 1),
        }
    };
    let mut id: HashMap<J, u64> = HashMap::from([(J::L(0, 0), 0)]);
    let mut order = vec![J::L(0, 0)];
    let mut d = Draft::default();
    let mut k = 0;
    while k < order.len() {
        let v = order[k];
        let targets: Vec<u64> = succ(v)
            .into_iter()
            .map(|s| {
                *id.entry(s).or_insert_with(|| {
                    order.push(s);
                    order.len() as u64 - 1
                })
            })
            .collect();
        let (owner, priority) = label(v);
        d.vertices.push((player(owner), priority as Priority));
        d.edges.extend(targets.iter().map(|&t| (k as u64, t)));
        k += 1;
    }
    d.build()
}

/// The families by name, for `zermelo gen parity` (size `n`; Jurdziński games are `n x n`).
pub const FAMILIES: [&str; 5] = [
    "ladder",
    "recursive-ladder",
    "friedmann",
    "two-counters",
    "jurdzinski",
];

/// The family `name` of size `n`.
pub fn family(name: &str, n: u64) -> Option<Result<Arena, ArenaError>> {
    Some(match name {
        "ladder" => ladder(n),
        "recursive-ladder" => recursive_ladder(n),
        "friedmann" => friedmann(n),
        "two-counters" => two_counters(n),
        "jurdzinski" => jurdzinski(n, n),
        _ => return None,
    })
}
