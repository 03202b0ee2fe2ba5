//! The trace of the backward wave as JSON events, collected by a capped [`Observer`].

use zermelo::solve::{Event, Observer};

/// One event of the wave as sent over the wire: the library's [`Event`], whose serde form is
/// `{"event": "seed", "node": 3, "outcome": "lose"}`, `{"event": "pop", "node": 3}`, ...
pub type TraceEvent = Event;

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
            self.events.push(event);
        } else {
            self.overflowed = true;
        }
    }
}
