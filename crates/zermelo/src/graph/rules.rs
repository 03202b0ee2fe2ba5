//! How terminal positions score: the play convention and explicit verdicts.

use crate::graph::Csr;
use crate::outcome::{NodeId, Outcome};

/// What happens to the player who cannot move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Convention {
    /// Normal play: a position with no moves is lost for the player to move.
    #[default]
    Normal,
    /// Misère play: a position with no moves is won for the player to move.
    Misere,
}

impl Convention {
    /// The verdict of a position with no moves.
    pub fn stuck_outcome(self) -> Outcome {
        match self {
            Convention::Normal => Outcome::Lose,
            Convention::Misere => Outcome::Win,
        }
    }
}

/// Why a set of rules does not fit a graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A verdict names a node the graph does not have.
    #[error("verdict for node {node}, but the graph has only {nodes} nodes")]
    NodeOutOfRange {
        /// The offending id.
        node: u64,
        /// The node count.
        nodes: u64,
    },
    /// Two different verdicts for one node.
    #[error("node {node} is given two different verdicts: {first} and {second}")]
    Conflict {
        /// The node.
        node: NodeId,
        /// The verdict seen first.
        first: Outcome,
        /// The verdict seen second.
        second: Outcome,
    },
}

/// The terminal rules of a game: a [`Convention`] for positions without moves, and explicit
/// verdicts that make chosen positions terminal whatever their moves.
///
/// An explicit verdict turns a node into a terminal: its moves are ignored by every solver.
/// `win` and `lose` verdicts have depth 0 and propagate like any terminal; a `draw` verdict is a
/// *tie* (stalemate, repetition by rule) that never propagates as a WIN or LOSE.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    convention: Convention,
    /// Sorted by node, one entry per node.
    verdicts: Vec<(NodeId, Outcome)>,
}

impl Rules {
    /// Normal play, no explicit verdicts.
    pub fn normal() -> Rules {
        Rules::default()
    }

    /// Misère play, no explicit verdicts.
    pub fn misere() -> Rules {
        Rules::with_convention(Convention::Misere)
    }

    /// The given convention, no explicit verdicts.
    pub fn with_convention(convention: Convention) -> Rules {
        Rules {
            convention,
            verdicts: Vec::new(),
        }
    }

    /// Adds explicit verdicts, checked against a graph of `nodes` nodes. Repeating the same
    /// verdict for a node is allowed; contradicting one is an error.
    ///
    /// # Errors
    /// [`RulesError`] for an out-of-range node or conflicting verdicts.
    pub fn with_verdicts(
        mut self,
        nodes: usize,
        verdicts: impl IntoIterator<Item = (u64, Outcome)>,
    ) -> Result<Rules, RulesError> {
        for (node, outcome) in verdicts {
            if node >= nodes as u64 {
                return Err(RulesError::NodeOutOfRange {
                    node,
                    nodes: nodes as u64,
                });
            }
            self.verdicts.push((node as NodeId, outcome));
        }
        self.verdicts.sort_by_key(|&(n, _)| n);
        for w in self.verdicts.windows(2) {
            if w[0].0 == w[1].0 && w[0].1 != w[1].1 {
                return Err(RulesError::Conflict {
                    node: w[0].0,
                    first: w[0].1,
                    second: w[1].1,
                });
            }
        }
        self.verdicts.dedup();
        Ok(self)
    }

    /// These rules merged with a caller's options: misère if either says so, and the extra
    /// verdicts added to these (checked against a graph of `nodes` nodes).
    ///
    /// # Errors
    /// As [`Rules::with_verdicts`].
    pub fn combined(
        &self,
        misere: bool,
        nodes: usize,
        extra: impl IntoIterator<Item = (u64, Outcome)>,
    ) -> Result<Rules, RulesError> {
        let convention = if misere {
            Convention::Misere
        } else {
            self.convention
        };
        let own = self.verdicts.iter().map(|&(n, o)| (u64::from(n), o));
        Rules::with_convention(convention).with_verdicts(nodes, own.chain(extra))
    }

    /// The convention for positions without moves.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The explicit verdicts, sorted by node.
    pub fn verdicts(&self) -> &[(NodeId, Outcome)] {
        &self.verdicts
    }

    /// The explicit verdict of `u`, if it has one.
    pub fn explicit_verdict(&self, u: NodeId) -> Option<Outcome> {
        self.verdicts
            .binary_search_by_key(&u, |&(n, _)| n)
            .ok()
            .map(|i| self.verdicts[i].1)
    }

    /// The terminal verdict of `u` in `graph`: its explicit verdict, else the convention's
    /// verdict if `u` has no moves, else `None` (not terminal).
    pub fn terminal_verdict(&self, graph: &Csr, u: NodeId) -> Option<Outcome> {
        if !self.verdicts.is_empty() {
            if let Some(v) = self.explicit_verdict(u) {
                return Some(v);
            }
        }
        (graph.out_degree(u) == 0).then(|| self.convention.stuck_outcome())
    }

    /// Dense per-node terminal verdicts (`None` for positions that are not terminal).
    pub fn terminal_table(&self, graph: &Csr) -> Vec<Option<Outcome>> {
        let stuck = self.convention.stuck_outcome();
        let mut table: Vec<Option<Outcome>> = graph
            .nodes()
            .map(|u| (graph.out_degree(u) == 0).then_some(stuck))
            .collect();
        for &(u, v) in &self.verdicts {
            table[u as usize] = Some(v);
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_verdicts_override_moves_and_convention() {
        let g = Csr::from_edges(3, [(0, 1)]).unwrap();
        let r = Rules::misere()
            .with_verdicts(3, [(0, Outcome::Draw), (0, Outcome::Draw)])
            .unwrap();
        assert_eq!(r.terminal_verdict(&g, 0), Some(Outcome::Draw));
        assert_eq!(r.terminal_verdict(&g, 1), Some(Outcome::Win));
        assert_eq!(r.terminal_verdict(&g, 2), Some(Outcome::Win));
        assert_eq!(r.verdicts().len(), 1);
        assert_eq!(
            r.terminal_table(&g),
            vec![Some(Outcome::Draw), Some(Outcome::Win), Some(Outcome::Win)]
        );
    }

    #[test]
    fn combined_keeps_the_inputs_rules_and_adds_the_options() {
        let base = Rules::misere()
            .with_verdicts(3, [(0, Outcome::Draw)])
            .unwrap();
        let r = base.combined(false, 3, [(1, Outcome::Win)]).unwrap();
        assert_eq!(r.convention(), Convention::Misere);
        assert_eq!(r.verdicts(), &[(0, Outcome::Draw), (1, Outcome::Win)]);
        let r = Rules::normal().combined(true, 3, []).unwrap();
        assert_eq!(r, Rules::misere());
        assert!(base.combined(false, 3, [(0, Outcome::Win)]).is_err());
    }

    #[test]
    fn rejects_conflicts_and_bad_nodes() {
        let err = Rules::normal()
            .with_verdicts(2, [(1, Outcome::Win), (1, Outcome::Lose)])
            .unwrap_err();
        assert!(matches!(err, RulesError::Conflict { node: 1, .. }));
        let err = Rules::normal()
            .with_verdicts(2, [(2, Outcome::Win)])
            .unwrap_err();
        assert!(matches!(err, RulesError::NodeOutOfRange { node: 2, .. }));
    }
}
