//! Sequential retrograde analysis: backward propagation from terminals with out-degree counters.
//!
//! Cost: O(V + E) time; O(V) memory beyond the graph (a counter, a label and a depth per node,
//! and a FIFO queue that holds each node at most once).
//!
//! Reference: seed 000 ("The Retrograde Analysis Algorithm") and seed 003 §3–§7; the algorithm
//! computes exactly the least fixpoint of the labelling operator Φ (003 Prop. 3.5), and a node's
//! depth is the round of the fixpoint iteration in which it is decided (003 §4.2, Thm 7.2).
//!
//! Invariant: the FIFO queue holds nodes in non-decreasing depth, and every node pushed while
//! node `v` is being processed has depth `depth(v) + 1`. Hence
//! * the first LOSE child to reach a predecessor is a shallowest one (fast win), and
//! * the WIN child whose pop zeroes a predecessor's counter is a deepest one (slow loss),
//!   so LOSE depths need no running maximum.

use crate::graph::{Predecessors, Rules};
use crate::outcome::{NodeId, Outcome};
use crate::solve::packed::{
    fits_u32, initial_state, into_solution, pack, payload, tag, Word, LOSE, UNDECIDED, WIN,
};
use crate::solve::wave::{propagate, Quantifier, Wave};
use crate::solve::Solution;

/// One step of the backward wave, reported to an [`Observer`] in the order it happens.
///
/// Serialises (serde) with an `event` tag: `{"event": "seed", "node": 3, "outcome": "lose"}`,
/// `{"event": "pop", "node": 3}`, `{"event": "win", "node": 2, "child": 3, "depth": 1}`,
/// `{"event": "decrement", "node": 0, "child": 1, "remaining": 1}`,
/// `{"event": "lose_at_zero", "node": 1, "child": 2, "depth": 2}`, `{"event": "draw", "node": 4}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A terminal position is labelled by its verdict (`depth` 0; ties are reported as draws).
    Seed {
        /// The terminal.
        node: NodeId,
        /// Its verdict.
        outcome: Outcome,
    },
    /// `node` is popped from the queue and its predecessors are visited.
    Pop {
        /// The node whose outcome now propagates backwards.
        node: NodeId,
    },
    /// `node` becomes WIN because its child `child` was popped as LOSE.
    Win {
        /// The predecessor that is now won.
        node: NodeId,
        /// The losing child it moves to.
        child: NodeId,
        /// Its depth.
        depth: u32,
    },
    /// A WIN child rules out one of `node`'s moves; `remaining` moves are still open.
    Decrement {
        /// The predecessor whose counter ticks down.
        node: NodeId,
        /// The winning child.
        child: NodeId,
        /// The counter after the decrement (> 0).
        remaining: u32,
    },
    /// Every move of `node` leads to a WIN child: its counter reached zero.
    LoseAtZero {
        /// The node that is now lost.
        node: NodeId,
        /// The child whose pop zeroed the counter (a deepest one).
        child: NodeId,
        /// Its depth.
        depth: u32,
    },
    /// The queue has drained and `node` was never decided: it is a draw.
    Draw {
        /// The drawn node.
        node: NodeId,
    },
}

/// Watches the backward wave. Every method has an empty default, and [`solve_observed`] is
/// generic over the observer, so an observer that ignores events costs nothing.
pub trait Observer {
    /// Called once per event, in order.
    fn event(&mut self, _event: Event) {}
}

/// The observer that ignores everything.
impl Observer for () {}

/// Collects every event (for visualisers and tests).
impl Observer for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}

/// Solves `graph` under `rules` by retrograde analysis.
///
/// ```
/// use zermelo::graph::{Csr, Rules};
/// use zermelo::{solve, Outcome, Depth};
/// // Seed 000's forced chain 0 -> 1 -> 2 -> 3.
/// let g = Csr::from_edges(4, [(0, 1), (1, 2), (2, 3)]).unwrap();
/// let s = solve::retrograde(&g, &Rules::normal());
/// assert_eq!(s.outcome(0), Outcome::Win);
/// assert_eq!(s.depth(0), Some(Depth(3)));
/// ```
pub fn retrograde<G: Predecessors + ?Sized>(graph: &G, rules: &Rules) -> Solution {
    solve_observed(graph, rules, &mut ())
}

/// [`retrograde`], reporting every step of the wave to `observer`.
pub fn solve_observed<G: Predecessors + ?Sized, O: Observer>(
    graph: &G,
    rules: &Rules,
    observer: &mut O,
) -> Solution {
    if fits_u32(graph) {
        kernel::<u32, G, O>(graph, rules, observer)
    } else {
        kernel::<u64, G, O>(graph, rules, observer)
    }
}

/// The FIFO wave over packed state words (see [`packed`](super::packed)), run by the shared
/// counter kernel ([`wave`](super::wave)).
fn kernel<W: Word, G: Predecessors + ?Sized, O: Observer>(
    graph: &G,
    rules: &Rules,
    observer: &mut O,
) -> Solution {
    let mut queue: Vec<NodeId> = Vec::new();
    let state: Vec<W> = initial_state(graph, rules, |node, outcome| {
        observer.event(Event::Seed { node, outcome });
        if outcome != Outcome::Draw {
            queue.push(node);
        }
    });
    let mut labels = Labels {
        state,
        observer,
        depth: 0,
        child_lost: false,
        seen: W::new(0),
    };
    propagate(graph, &mut queue, 0, &mut labels);
    drop(queue);
    let Labels {
        state, observer, ..
    } = labels;
    for (u, &w) in state.iter().enumerate() {
        if tag(w) == UNDECIDED {
            observer.event(Event::Draw { node: u as NodeId });
        }
    }
    into_solution(&state)
}

/// Retrograde analysis as a [`Wave`]: a LOSE child makes its predecessors WIN at once (∃); a WIN
/// child counts down their open moves and makes them LOSE at zero (∀).
struct Labels<'a, W, O> {
    state: Vec<W>,
    observer: &'a mut O,
    /// Depth of the nodes joining now: the popped node's depth + 1.
    depth: u64,
    /// Whether the popped node is LOSE.
    child_lost: bool,
    /// The state word of the predecessor being visited (read once per visit).
    seen: W,
}

impl<W: Word, O: Observer> Wave for Labels<'_, W, O> {
    #[inline(always)]
    fn enter(&mut self, v: NodeId) -> Option<Quantifier> {
        self.observer.event(Event::Pop { node: v });
        let sv = self.state[v as usize];
        self.depth = payload(sv) + 1;
        self.child_lost = tag(sv) == LOSE;
        Some(self.quantifier(v))
    }

    #[inline(always)]
    fn is_open(&mut self, u: NodeId) -> bool {
        self.seen = self.state[u as usize];
        tag(self.seen) == UNDECIDED
    }

    #[inline(always)]
    fn quantifier(&mut self, _u: NodeId) -> Quantifier {
        if self.child_lost {
            Quantifier::Exists
        } else {
            Quantifier::ForAll
        }
    }

    #[inline(always)]
    fn count_down(&mut self, u: NodeId, v: NodeId) -> bool {
        let remaining = payload(self.seen) - 1;
        if remaining == 0 {
            return true;
        }
        self.state[u as usize] = pack(UNDECIDED, remaining);
        self.observer.event(Event::Decrement {
            node: u,
            child: v,
            remaining: remaining as u32,
        });
        false
    }

    #[inline(always)]
    fn join(&mut self, u: NodeId, v: NodeId, by: Quantifier) {
        let depth = self.depth as u32;
        if by == Quantifier::Exists {
            self.state[u as usize] = pack(WIN, self.depth);
            self.observer.event(Event::Win {
                node: u,
                child: v,
                depth,
            });
        } else {
            self.state[u as usize] = pack(LOSE, self.depth);
            self.observer.event(Event::LoseAtZero {
                node: u,
                child: v,
                depth,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Csr;
    use crate::outcome::Depth;

    fn labels(s: &Solution) -> Vec<(Outcome, Option<u32>)> {
        (0..s.len() as NodeId)
            .map(|u| (s.outcome(u), s.depth(u).map(Depth::plies)))
            .collect()
    }

    #[test]
    fn wide_and_narrow_words_agree() {
        use crate::graph::generate::{random_edges, RandomSpec};
        for seed in 0..20 {
            let spec = RandomSpec {
                nodes: 500,
                edges: 1500 + seed * 50,
                terminal_fraction: 0.05,
                seed,
            };
            let g = Csr::from_edges(spec.nodes, random_edges(spec)).unwrap();
            let r = Rules::normal();
            assert_eq!(
                kernel::<u32, _, _>(&g, &r, &mut ()),
                kernel::<u64, _, _>(&g, &r, &mut ())
            );
        }
    }

    #[test]
    fn cycle_with_escape() {
        // 003 §5.1: a <-> b, a -> t.
        let g = Csr::from_edges(3, [(0, 1), (1, 0), (0, 2)]).unwrap();
        let s = retrograde(&g, &Rules::normal());
        use Outcome::*;
        assert_eq!(
            labels(&s),
            vec![(Win, Some(1)), (Lose, Some(2)), (Lose, Some(0))]
        );
    }

    #[test]
    fn tie_verdict_never_propagates() {
        // 0 -> 1, 1 is a stalemate (tie) despite its move back to 0.
        let g = Csr::from_edges(2, [(0, 1), (1, 0)]).unwrap();
        let r = Rules::normal()
            .with_verdicts(2, [(1, Outcome::Draw)])
            .unwrap();
        let s = retrograde(&g, &r);
        assert_eq!(
            labels(&s),
            vec![(Outcome::Draw, None), (Outcome::Draw, None)]
        );
    }

    #[test]
    fn win_verdict_propagates_like_a_terminal() {
        // 0 -> 1 -> 2, 2 -> 0; node 1 is declared won (e.g. it reached the goal).
        let g = Csr::from_edges(3, [(0, 1), (1, 2), (2, 0)]).unwrap();
        let r = Rules::normal()
            .with_verdicts(3, [(1, Outcome::Win)])
            .unwrap();
        let s = retrograde(&g, &r);
        use Outcome::*;
        assert_eq!(
            labels(&s),
            vec![(Lose, Some(1)), (Win, Some(0)), (Win, Some(2))]
        );
    }

    #[test]
    fn events_follow_the_wave() {
        let g = Csr::from_edges(3, [(0, 1), (1, 2)]).unwrap();
        let mut events = Vec::new();
        solve_observed(&g, &Rules::normal(), &mut events);
        assert_eq!(
            events,
            vec![
                Event::Seed {
                    node: 2,
                    outcome: Outcome::Lose
                },
                Event::Pop { node: 2 },
                Event::Win {
                    node: 1,
                    child: 2,
                    depth: 1
                },
                Event::Pop { node: 1 },
                Event::LoseAtZero {
                    node: 0,
                    child: 1,
                    depth: 2
                },
                Event::Pop { node: 0 },
            ]
        );
    }
}
