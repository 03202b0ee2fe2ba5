//! The trace of the backward wave as JSON events, collected by a capped [`Observer`].

use serde::Serialize;
use zermelo::solve::{Event, Observer};
use zermelo::NodeId;

/// One event of [`zermelo::solve::Event`], as it is sent over the wire:
/// `{"event": "seed", "node": 3, "outcome": "lose"}`, `{"event": "pop", "node": 3}`,
/// `{"event": "win", "node": 2, "child": 3, "depth": 1}`,
/// `{"event": "decrement", "node": 0, "child": 1, "remaining": 1}`,
/// `{"event": "lose_at_zero", "node": 1, "child": 2, "depth": 2}`, `{"event": "draw", "node": 4}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceEvent {
    /// A terminal is labelled by its verdict.
    Seed {
        /// The terminal.
        node: NodeId,
        /// `win`, `lose` or `draw`.
        outcome: &'static str,
    },
    /// A decided node is popped; its predecessors are visited next.
    Pop {
        /// The popped node.
        node: NodeId,
    },
    /// A predecessor of a LOSE child becomes WIN.
    Win {
        /// The predecessor.
        node: NodeId,
        /// The losing child.
        child: NodeId,
        /// Its depth in plies.
        depth: u32,
    },
    /// A WIN child rules out one move; `remaining` are left.
    Decrement {
        /// The predecessor.
        node: NodeId,
        /// The winning child.
        child: NodeId,
        /// The counter after the decrement.
        remaining: u32,
    },
    /// The counter reached zero: every move loses.
    LoseAtZero {
        /// The lost node.
        node: NodeId,
        /// The child whose pop zeroed the counter.
        child: NodeId,
        /// Its depth in plies.
        depth: u32,
    },
    /// Never decided: a draw.
    Draw {
        /// The drawn node.
        node: NodeId,
    },
}

impl From<Event> for TraceEvent {
    fn from(e: Event) -> TraceEvent {
        match e {
            Event::Seed { node, outcome } => TraceEvent::Seed {
                node,
                outcome: outcome.as_str(),
            },
            Event::Pop { node } => TraceEvent::Pop { node },
            Event::Win { node, child, depth } => TraceEvent::Win { node, child, depth },
            Event::Decrement {
                node,
                child,
                remaining,
            } => TraceEvent::Decrement {
                node,
                child,
                remaining,
            },
            Event::LoseAtZero { node, child, depth } => {
                TraceEvent::LoseAtZero { node, child, depth }
            }
            Event::Draw { node } => TraceEvent::Draw { node },
        }
    }
}

/// Collects events up to a cap; past it, only counts, so a huge trace costs no memory.
pub(crate) struct CappedTrace {
    pub(crate) events: Vec<TraceEvent>,
    pub(crate) cap: usize,
    pub(crate) overflowed: bool,
}

impl CappedTrace {
    pub(crate) fn new(cap: usize) -> CappedTrace {
        CappedTrace {
            events: Vec::new(),
            cap,
            overflowed: false,
        }
    }
}

impl Observer for CappedTrace {
    fn event(&mut self, event: Event) {
        if self.events.len() < self.cap {
            self.events.push(event.into());
        } else {
            self.overflowed = true;
        }
    }
}
