//! The pursuit engine behind [`cop_robber`](super::cop_robber) and
//! [`police_thief`](super::police_thief): a pursuer and an evader on the vertices of a graph,
//! each with its own moves, taking turns; either may stay put.
//!
//! Rules (seed 001 "Policeman and thief", seed 002 challenge 4):
//! * a state is `(pursuer, evader, side to move)`; a move goes to a neighbour in the mover's
//!   own move graph, or stays (a pass), and hands the turn over;
//! * pursuer and evader on one vertex: caught — WIN for the pursuer to move, LOSE for the
//!   evader to move;
//! * otherwise the evader on an exit: escaped — WIN for the evader to move, LOSE for the pursuer;
//! * play that goes on forever is a draw (the evader is never caught).
//!
//! The state space is dense: rank `(side · n + pursuer) · n + evader` over `2n²` indices, no
//! holes. Moves are reversible in the sense the un-moves need: the predecessors of a state are
//! the other side's moves *into* it, found with the reversed move graphs (the same as the
//! forward ones for undirected graphs), plus the pass. The game is an [`IndexedGame`] with
//! that index arithmetic, so the compact engine ([`compact::solve`]) solves it at two bytes
//! per state (plus one frontier bit) and no edges; [`solve_dense`](zermelo::game::solve_dense)
//! (about 10 bytes per state) remains the reference the tests compare it with.

use zermelo::game::compact::{self, CompactError, CompactOptions, IndexedGame, Start};
use zermelo::game::{CompactSolution, Game, Ranked, Unmoves};
use zermelo::Outcome;

/// Who is to move in a pursuit state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The pursuer (the cop, the policeman).
    Pursuer = 0,
    /// The evader (the robber, the thief).
    Evader = 1,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Pursuer => Side::Evader,
            Side::Evader => Side::Pursuer,
        }
    }
}

/// A pursuit state: where both stand and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chase {
    /// The pursuer's vertex.
    pub pursuer: u32,
    /// The evader's vertex.
    pub evader: u32,
    /// The side to move.
    pub to_move: Side,
}

/// Neighbour lists in compressed rows.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rows {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Rows {
    /// Rows from per-vertex lists, sorted, without duplicates or self-loops (staying put is a
    /// move of its own).
    fn new(lists: &[Vec<u32>]) -> Rows {
        let mut offsets = vec![0u32];
        let mut targets = Vec::new();
        for (v, list) in lists.iter().enumerate() {
            let mut row: Vec<u32> = list.iter().copied().filter(|&w| w != v as u32).collect();
            row.sort_unstable();
            row.dedup();
            targets.extend(row);
            offsets.push(targets.len() as u32);
        }
        Rows { offsets, targets }
    }

    fn reversed(&self) -> Rows {
        let n = self.offsets.len() - 1;
        let mut lists = vec![Vec::new(); n];
        for v in 0..n {
            for &w in self.of(v as u32) {
                lists[w as usize].push(v as u32);
            }
        }
        Rows::new(&lists)
    }

    #[inline]
    fn of(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }
}

/// Why a pursuit game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PursuitError {
    /// Too many vertices for the dense state space.
    #[error("{vertices} vertices is more than the supported maximum of {max}")]
    TooLarge {
        /// The vertex count.
        vertices: usize,
        /// The maximum.
        max: u32,
    },
    /// A neighbour that is not a vertex, or lists of different lengths.
    #[error("the move lists do not fit {vertices} vertices")]
    Inconsistent {
        /// The vertex count.
        vertices: usize,
    },
}

/// A pursuit game on `n` vertices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pursuit {
    n: u32,
    pursuer: Rows,
    pursuer_back: Rows,
    evader: Rows,
    evader_back: Rows,
    exits: Vec<bool>,
}

impl Pursuit {
    /// Largest vertex count: the `2n²` states must have `u32` ids.
    pub const MAX_VERTICES: u32 = 46_340;

    /// A game where the pursuer moves along `pursuer[v]`, the evader along `evader[v]`, and
    /// the evader escapes on the vertices where `exits` is true.
    ///
    /// # Errors
    /// [`PursuitError`] when the lists and exits differ in length, a neighbour is out of range,
    /// or there are more than [`Pursuit::MAX_VERTICES`] vertices.
    pub fn new(
        pursuer: &[Vec<u32>],
        evader: &[Vec<u32>],
        exits: Vec<bool>,
    ) -> Result<Pursuit, PursuitError> {
        let n = exits.len();
        if n > Pursuit::MAX_VERTICES as usize {
            return Err(PursuitError::TooLarge {
                vertices: n,
                max: Pursuit::MAX_VERTICES,
            });
        }
        let fits = |lists: &[Vec<u32>]| {
            lists.len() == n && lists.iter().flatten().all(|&w| (w as usize) < n)
        };
        if !fits(pursuer) || !fits(evader) {
            return Err(PursuitError::Inconsistent { vertices: n });
        }
        let (pursuer, evader) = (Rows::new(pursuer), Rows::new(evader));
        Ok(Pursuit {
            n: n as u32,
            pursuer_back: pursuer.reversed(),
            evader_back: evader.reversed(),
            pursuer,
            evader,
            exits,
        })
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> u32 {
        self.n
    }

    /// Solves every state with the compact engine (default options: all cores, on the heap);
    /// the solution is indexed by [`Ranked::rank`].
    ///
    /// # Errors
    /// Never for a game built by [`Pursuit::new`] with default options; kept for the API.
    pub fn solve(&self) -> Result<CompactSolution, CompactError> {
        self.solve_with(&CompactOptions::default())
    }

    /// Solves every state with the compact engine and `options` (threads, work folder,
    /// memory limit, progress).
    ///
    /// # Errors
    /// [`CompactError`] from the engine: the memory limit, the work folder.
    pub fn solve_with(&self, options: &CompactOptions) -> Result<CompactSolution, CompactError> {
        compact::solve(self, options)
    }

    /// `(side, pursuer, evader)` of an index.
    #[inline]
    fn split(&self, index: u64) -> (u64, u32, u32) {
        let n = u64::from(self.n);
        (index / (n * n), (index / n % n) as u32, (index % n) as u32)
    }
}

/// The pursuit game as the compact engine sees it: the rank arithmetic of [`Ranked`] without
/// building positions.
impl IndexedGame for Pursuit {
    fn index_count(&self) -> u64 {
        Ranked::index_count(self)
    }

    fn start(&self, index: u64) -> Start {
        let (side, pursuer, evader) = self.split(index);
        let pursuer_to_move = side == 0;
        let pursuer_wins = if pursuer == evader {
            true
        } else if self.exits[evader as usize] {
            false
        } else {
            let rows = if pursuer_to_move {
                self.pursuer.of(pursuer)
            } else {
                self.evader.of(evader)
            };
            return Start::Open {
                moves: 1 + rows.len() as u32, // the pass, then the steps
                exit: None,
            };
        };
        Start::Terminal(if pursuer_wins == pursuer_to_move {
            Outcome::Win
        } else {
            Outcome::Lose
        })
    }

    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        // The side not to move here moved last: its pass, and its steps into this state.
        let (side, pursuer, evader) = self.split(index);
        let n = u64::from(self.n);
        let last = 1 - side;
        let at = |p: u32, e: u32| (last * n + u64::from(p)) * n + u64::from(e);
        out.push(at(pursuer, evader));
        if last == 0 {
            out.extend(self.pursuer_back.of(pursuer).iter().map(|&p| at(p, evader)));
        } else {
            out.extend(self.evader_back.of(evader).iter().map(|&e| at(pursuer, e)));
        }
    }

    fn successors(&self, index: u64, out: &mut Vec<u64>) -> bool {
        let (side, pursuer, evader) = self.split(index);
        let n = u64::from(self.n);
        let next = 1 - side;
        let at = |p: u32, e: u32| (next * n + u64::from(p)) * n + u64::from(e);
        out.push(at(pursuer, evader));
        if side == 0 {
            out.extend(self.pursuer.of(pursuer).iter().map(|&p| at(p, evader)));
        } else {
            out.extend(self.evader.of(evader).iter().map(|&e| at(pursuer, e)));
        }
        true
    }
}

impl Game for Pursuit {
    type Position = Chase;

    fn moves(&self, s: &Chase, out: &mut Vec<Chase>) {
        let next = s.to_move.other();
        out.push(Chase {
            to_move: next,
            ..*s
        });
        match s.to_move {
            Side::Pursuer => out.extend(self.pursuer.of(s.pursuer).iter().map(|&p| Chase {
                pursuer: p,
                evader: s.evader,
                to_move: next,
            })),
            Side::Evader => out.extend(self.evader.of(s.evader).iter().map(|&e| Chase {
                pursuer: s.pursuer,
                evader: e,
                to_move: next,
            })),
        }
    }

    fn verdict(&self, s: &Chase) -> Option<Outcome> {
        let pursuer_wins = if s.pursuer == s.evader {
            true
        } else if self.exits[s.evader as usize] {
            false
        } else {
            return None;
        };
        Some(if pursuer_wins == (s.to_move == Side::Pursuer) {
            Outcome::Win
        } else {
            Outcome::Lose
        })
    }
}

impl Ranked for Pursuit {
    fn index_count(&self) -> u64 {
        2 * u64::from(self.n) * u64::from(self.n)
    }

    #[inline]
    fn rank(&self, s: &Chase) -> u64 {
        let n = u64::from(self.n);
        (s.to_move as u64 * n + u64::from(s.pursuer)) * n + u64::from(s.evader)
    }

    #[inline]
    fn unrank(&self, index: u64) -> Option<Chase> {
        let n = u64::from(self.n);
        let to_move = if index / (n * n) == 0 {
            Side::Pursuer
        } else {
            Side::Evader
        };
        Some(Chase {
            pursuer: (index / n % n) as u32,
            evader: (index % n) as u32,
            to_move,
        })
    }
}

impl Unmoves for Pursuit {
    /// The side that did not move here moved last: its pass, and its moves into this state.
    fn unmoves(&self, s: &Chase, out: &mut Vec<Chase>) {
        let last = s.to_move.other();
        out.push(Chase {
            to_move: last,
            ..*s
        });
        match last {
            Side::Pursuer => out.extend(self.pursuer_back.of(s.pursuer).iter().map(|&p| Chase {
                pursuer: p,
                evader: s.evader,
                to_move: last,
            })),
            Side::Evader => out.extend(self.evader_back.of(s.evader).iter().map(|&e| Chase {
                pursuer: s.pursuer,
                evader: e,
                to_move: last,
            })),
        }
    }
}
