//! Backsliding Toads and Frogs (*Winning Ways* ch. 11): Toads and Frogs where a toad may also
//! slide one square back (left) into an empty square, and a frog one square right. Positions
//! repeat, so the game is loopy: infinite play is a draw.
//!
//! A board's positions are explored into a [`LoopyGraph`]: outcomes with draws for every
//! position at once (retrograde analysis), stoppers found at once ([`LoopyGraph::stoppers`]),
//! and the value of a stopper in its simplest form ([`Stopper`]). [`Backsliding::all`] takes
//! every strip of a length (3^n of them) as one graph, and [`Backsliding::values`] values all
//! its positions at once ([`every_value`](zermelo_cgt::loopy::every_value): equal values found once).

use std::collections::HashMap;

use zermelo_cgt::loopy::{every_value_negating, LoopyGraph, LoopyOutcome, Sides, Stopper, Values};
use zermelo_cgt::CgtError;

use crate::toads_frogs::Strip;

/// The strips after each move of Left (toads) or Right (frogs): the moves of Toads and Frogs
/// and the backslides.
pub fn moves(strip: &Strip, left: bool) -> Vec<Strip> {
    let mut out = strip.moves(left);
    let cells = strip.cells();
    let me = if left { b'T' } else { b'F' };
    for i in 0..cells.len() {
        let back = if left {
            i.checked_sub(1)
        } else {
            Some(i + 1).filter(|&j| j < cells.len())
        };
        if let Some(j) = back.filter(|&j| cells[i] == me && cells[j] == b'.') {
            let mut next = cells.to_vec();
            next[i] = b'.';
            next[j] = me;
            out.push(Strip::from_cells(next));
        }
    }
    out
}

/// The number of a strip among all strips of its length: its squares read in base 3 (`.` 0,
/// `T` 1, `F` 2, first square most significant), as [`Backsliding::all`] numbers them.
fn rank(s: &Strip) -> u32 {
    s.cells().iter().fold(0, |r, &c| {
        3 * r
            + match c {
                b'T' => 1,
                b'F' => 2,
                _ => 0,
            }
    })
}

/// The strip read backwards with toads and frogs swapped: the negative position.
fn mirror(s: &Strip) -> Strip {
    let cells = s
        .cells()
        .iter()
        .rev()
        .map(|&c| match c {
            b'T' => b'F',
            b'F' => b'T',
            c => c,
        })
        .collect();
    Strip::from_cells(cells)
}

/// The positions of Backsliding Toads and Frogs reachable from some strips, as a game graph.
pub struct Backsliding {
    graph: LoopyGraph,
    strips: Vec<Strip>,
    index: HashMap<Strip, u32>,
}

impl Backsliding {
    /// Every position reachable from `start`.
    pub fn explore(start: &Strip) -> Backsliding {
        let mut b = Backsliding {
            graph: LoopyGraph::new(),
            strips: Vec::new(),
            index: HashMap::new(),
        };
        b.node(start.clone());
        let mut head = 0;
        while head < b.strips.len() {
            let s = b.strips[head].clone();
            let from = head as u32;
            head += 1;
            for left in [true, false] {
                for m in moves(&s, left) {
                    let to = b.node(m);
                    if left {
                        b.graph.add_left(from, to);
                    } else {
                        b.graph.add_right(from, to);
                    }
                }
            }
        }
        b
    }

    fn node(&mut self, s: Strip) -> u32 {
        if let Some(&i) = self.index.get(&s) {
            return i;
        }
        let i = self.graph.add_node();
        self.index.insert(s.clone(), i);
        self.strips.push(s);
        i
    }

    /// Every strip of `n` squares (3^n positions, `n <= 16`), node `i` the strip whose squares
    /// read `i` in base 3 (`.` 0, `T` 1, `F` 2, first square most significant).
    pub fn all(n: usize) -> Backsliding {
        assert!(n <= 16, "3^16 positions at most");
        let count = 3usize.pow(n as u32);
        let mut b = Backsliding {
            graph: LoopyGraph::new(),
            strips: Vec::with_capacity(count),
            index: HashMap::new(),
        };
        for i in 0..count {
            let mut cells = vec![b'.'; n];
            let mut x = i;
            for c in cells.iter_mut().rev() {
                *c = [b'.', b'T', b'F'][x % 3];
                x /= 3;
            }
            b.strips.push(Strip::from_cells(cells));
            b.graph.add_node();
        }
        for i in 0..count {
            for left in [true, false] {
                for m in moves(&b.strips[i], left) {
                    let to = rank(&m);
                    if left {
                        b.graph.add_left(i as u32, to);
                    } else {
                        b.graph.add_right(i as u32, to);
                    }
                }
            }
        }
        b
    }

    /// The game graph (node 0 is the start of [`Backsliding::explore`]).
    pub fn graph(&self) -> &LoopyGraph {
        &self.graph
    }

    /// The strip of each node.
    pub fn strips(&self) -> &[Strip] {
        &self.strips
    }

    /// The node of a strip, if it is a position of the graph.
    pub fn node_of(&self, s: &Strip) -> Option<u32> {
        self.index.get(s).copied()
    }

    /// The outcome of every node, each player first, draws included.
    pub fn outcomes(&self) -> Vec<LoopyOutcome> {
        self.graph.outcomes()
    }

    /// The value of node `v` when it is a stopper, in simplest form.
    ///
    /// # Errors
    /// [`CgtError::NotStopper`] for a position with an infinite alternating run of moves;
    /// [`CgtError::TooBig`] past the simplification's size.
    pub fn value(&self, v: u32) -> Result<Stopper, CgtError> {
        Stopper::new(&self.graph, v)
    }

    /// The value of every node at once: onsides and offsides in simplest form, each distinct
    /// stopper once ([`every_value_negating`]). The strip read backwards with toads and frogs
    /// swapped is the negative, so where the graph holds every strip's mirror image only the
    /// onsides are looked for. A node whose sides are not found is left unvalued.
    ///
    /// # Errors
    /// [`CgtError::TooBig`] past the size of the Büchi games on the whole graph.
    pub fn values(&self) -> Result<Values, CgtError> {
        every_value_negating(&self.graph, self.mirrors().as_deref())
    }

    /// The node of each strip's mirror image (read backwards, toads and frogs swapped: the
    /// negative), when every one is in the graph.
    fn mirrors(&self) -> Option<Vec<u32>> {
        let dense = self.index.is_empty();
        self.strips
            .iter()
            .map(|s| {
                let m = mirror(s);
                if dense {
                    Some(rank(&m))
                } else {
                    self.index.get(&m).copied()
                }
            })
            .collect()
    }

    /// The value of node `v`: its onside and offside (the stopper twice for a stopper).
    ///
    /// # Errors
    /// [`CgtError::NotStopperSided`] when the sides are not found as stoppers;
    /// [`CgtError::TooBig`] past the method's size.
    pub fn sides(&self, v: u32) -> Result<Sides, CgtError> {
        Sides::new(&self.graph, v)
    }
}
