//! Solving over the positions reachable from a start: breadth-first exploration into an
//! explicit graph, then the ordinary solvers.
//!
//! Cost: O(V + E) moves generated and hashed, then O(V + E) for retrograde analysis; memory is
//! the [`Csr`] plus each position stored twice (the id -> position list and the hash index).
//! Suits sparse games, whose reachable positions are a small part of any dense index.
//!
//! Invariant: ids are assigned in breadth-first order (the starts first, in the order given,
//! duplicates merged), so the id of a position depends only on the game and the starts.

use std::collections::HashMap;

use crate::game::{Game, GameError};
use crate::graph::{Csr, GraphBuilder, Rules, MAX_NODES};
use crate::outcome::{NodeId, Outcome};
use crate::solve::{self, LineEnd, Solution};
pub use crate::value::Value;

/// The explicit graph of the positions reachable from some starts.
///
/// Its [`graph`](Explored::graph) and [`rules`](Explored::rules) work with every solver,
/// strategy and the verifier of [`crate::solve`], exactly as a graph read from a file does.
#[derive(Clone, Debug)]
pub struct Explored<P> {
    graph: Csr,
    rules: Rules,
    positions: Vec<P>,
    ids: HashMap<P, NodeId>,
}

impl<P: Clone + Eq + std::hash::Hash> Explored<P> {
    /// The game graph: node `i` is [`position(i)`](Explored::position).
    pub fn graph(&self) -> &Csr {
        &self.graph
    }

    /// The terminal rules: the game's convention and one explicit verdict per finished position.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of reachable positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when nothing was explored (no starts).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The position of node `id`.
    ///
    /// # Panics
    /// If `id` is not a node of the graph.
    pub fn position(&self, id: NodeId) -> &P {
        &self.positions[id as usize]
    }

    /// All positions, indexed by node id.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The node id of `position`, `None` if it was not reached.
    pub fn id(&self, position: &P) -> Option<NodeId> {
        self.ids.get(position).copied()
    }

    /// Solves the graph by retrograde analysis.
    pub fn solve(self) -> Solved<P> {
        let solution = solve::retrograde(&self.graph, &self.rules);
        Solved {
            explored: self,
            solution,
        }
    }
}

/// Explores every position reachable from `starts`.
///
/// # Errors
/// [`GameError::TooManyPositions`] if more than [`MAX_NODES`] positions are reachable.
pub fn explore<G: Game>(
    game: &G,
    starts: impl IntoIterator<Item = G::Position>,
) -> Result<Explored<G::Position>, GameError> {
    explore_limited(game, starts, MAX_NODES)
}

/// [`explore`], giving up once more than `limit` positions are found (a guard against games
/// far larger than expected).
///
/// # Errors
/// [`GameError::TooManyPositions`] when the limit is passed.
pub fn explore_limited<G: Game>(
    game: &G,
    starts: impl IntoIterator<Item = G::Position>,
    limit: u64,
) -> Result<Explored<G::Position>, GameError> {
    let mut table = Interner {
        positions: Vec::new(),
        ids: HashMap::new(),
        limit: limit.min(MAX_NODES),
    };
    for s in starts {
        table.intern(s)?;
    }
    let mut edges: Vec<(NodeId, NodeId)> = Vec::new();
    let mut verdicts: Vec<(u64, Outcome)> = Vec::new();
    let mut buffer = Vec::new();
    let mut next = 0;
    while next < table.positions.len() {
        let u = next as NodeId;
        next += 1;
        if let Some(v) = game.verdict(&table.positions[u as usize]) {
            verdicts.push((u64::from(u), v));
            continue;
        }
        buffer.clear();
        game.moves(&table.positions[u as usize], &mut buffer);
        for p in buffer.drain(..) {
            edges.push((u, table.intern(p)?));
        }
    }
    let Interner { positions, ids, .. } = table;
    let mut builder = GraphBuilder::new(positions.len() as u64)?;
    builder.reserve(edges.len());
    for (u, v) in edges {
        builder.add_edge(u64::from(u), u64::from(v))?;
    }
    let graph = builder.build()?;
    let rules = Rules::with_convention(game.convention())
        .with_verdicts(positions.len(), verdicts)
        .expect("one verdict per explored position, each in range");
    Ok(Explored {
        graph,
        rules,
        positions,
        ids,
    })
}

/// Positions numbered in order of discovery.
struct Interner<P> {
    positions: Vec<P>,
    ids: HashMap<P, NodeId>,
    limit: u64,
}

impl<P: Clone + Eq + std::hash::Hash> Interner<P> {
    /// The id of `p`, numbering it if new.
    fn intern(&mut self, p: P) -> Result<NodeId, GameError> {
        if let Some(&id) = self.ids.get(&p) {
            return Ok(id);
        }
        if self.positions.len() as u64 >= self.limit {
            return Err(GameError::TooManyPositions { limit: self.limit });
        }
        let id = self.positions.len() as NodeId;
        self.ids.insert(p.clone(), id);
        self.positions.push(p);
        Ok(id)
    }
}

/// Explores from `starts` and solves by retrograde analysis.
///
/// ```
/// use zermelo::game::{solve_reachable, Game};
/// use zermelo::Outcome;
///
/// /// Take 1 or 2 from a pile; the player who cannot move loses.
/// struct TakeOneOrTwo;
/// impl Game for TakeOneOrTwo {
///     type Position = u32;
///     fn moves(&self, &n: &u32, out: &mut Vec<u32>) {
///         out.extend([1, 2].iter().filter(|&&k| k <= n).map(|k| n - k));
///     }
/// }
/// let solved = solve_reachable(&TakeOneOrTwo, [9])?;
/// assert_eq!(solved.value(&9).unwrap().outcome(), Outcome::Lose); // 9 is a multiple of 3
/// assert_eq!(solved.best_move(&8), Some(&6));
/// # Ok::<(), zermelo::game::GameError>(())
/// ```
///
/// # Errors
/// As [`explore`].
pub fn solve_reachable<G: Game>(
    game: &G,
    starts: impl IntoIterator<Item = G::Position>,
) -> Result<Solved<G::Position>, GameError> {
    Ok(explore(game, starts)?.solve())
}

/// Optimal play from a start, as positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine<P> {
    /// The positions visited, the start first.
    pub positions: Vec<P>,
    /// Why the line stops.
    pub end: LineStop,
}

/// How a [`PositionLine`] stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineStop {
    /// The last position is terminal.
    Terminal,
    /// The last position's best move leads back to the position at this index: optimal play
    /// cycles from there on (a draw).
    Repeats(usize),
    /// The line was cut at the requested length; play goes on.
    Cut,
}

impl From<LineEnd> for LineStop {
    fn from(end: LineEnd) -> LineStop {
        match end {
            LineEnd::Terminal => LineStop::Terminal,
            LineEnd::Repeats(i) => LineStop::Repeats(i),
        }
    }
}

/// An explored and solved game, queried by position.
#[derive(Clone, Debug)]
pub struct Solved<P> {
    explored: Explored<P>,
    solution: Solution,
}

impl<P: Clone + Eq + std::hash::Hash> Solved<P> {
    /// The explored graph (for [`solve::verify`], [`solve::grundy`] and the like).
    pub fn explored(&self) -> &Explored<P> {
        &self.explored
    }

    /// The solution, indexed by the explored node ids.
    pub fn solution(&self) -> &Solution {
        &self.solution
    }

    /// The value of `position`, `None` if it was not reached.
    pub fn value(&self, position: &P) -> Option<Value> {
        let u = self.explored.id(position)?;
        Some(Value::of(&self.solution, u))
    }

    /// The optimal move from `position` (see [`solve::best_move`]: ties go to the position
    /// explored first), `None` at a terminal or an unknown position.
    pub fn best_move(&self, position: &P) -> Option<&P> {
        let u = self.explored.id(position)?;
        let e = &self.explored;
        solve::best_move(&e.graph, &e.rules, &self.solution, u).map(|v| e.position(v))
    }

    /// Optimal play from `start` (see [`solve::principal_line`]), `None` if it was not reached.
    pub fn principal_line(&self, start: &P) -> Option<PositionLine<P>> {
        let u = self.explored.id(start)?;
        let e = &self.explored;
        let line = solve::principal_line(&e.graph, &e.rules, &self.solution, u);
        Some(PositionLine {
            positions: line.nodes.iter().map(|&v| e.position(v).clone()).collect(),
            end: line.end.into(),
        })
    }
}
