//! The certificate verifier: checks a claimed [`Solution`] with local rules in O(V + E).
//!
//! It reads only the forward moves of the graph and the terminal rules; it shares no code with
//! the solvers, so a bug in a solver cannot hide itself here.
//!
//! # The rules
//!
//! For every position `u` with claimed outcome `o(u)` and depth `d(u)`:
//!
//! * **T** (terminal: no moves, or an explicit verdict): `o(u)` is the verdict; `d(u) = 0` for a
//!   WIN or LOSE verdict, no depth for a tie.
//! * **W** (`o(u) = WIN`, `d(u) = d`): some child is LOSE with depth `d - 1`, and no LOSE child has
//!   a smaller depth.
//! * **L** (`o(u) = LOSE`, `d(u) = d`): every child is WIN, and the deepest has depth `d - 1`.
//! * **D** (`o(u) = DRAW`): no child is LOSE and some child is DRAW.
//!
//! A best move, when one is claimed, must be a move of `u` that is optimal: a LOSE child of depth
//! `d - 1` for a WIN, a child of depth `d - 1` for a LOSE, a DRAW child for a DRAW, none at a
//! terminal.
//!
//! # Why local rules certify the least fixpoint
//!
//! Local consistency alone is not enough: on the pure two-cycle `a <-> b`, the labels
//! `a = WIN, b = LOSE` satisfy "WIN has a LOSE child, LOSE has only WIN children" although the
//! true value of both is DRAW (seed 003 §2.1). The depths rule such spurious fixpoints out.
//!
//! Let `rank(u)` be the round in which the fixpoint iteration `ℓ_{t+1} = Φ(ℓ_t)` decides `u`
//! (003 §4.2): terminals have rank 0; a WIN has rank `1 + min` rank of its LOSE children; a LOSE
//! has rank `1 + max` rank of its children, all WIN. Claim: for every `t ≥ 0`, the positions
//! claimed WIN (resp. LOSE) with depth `t` are exactly the positions of true value WIN (resp.
//! LOSE) and rank `t`. By strong induction on `t`, assuming the claim below `t`:
//!
//! 1. *Claimed at depth `t` ⇒ decided at rank `t`.* Terminals are covered by rule T (a
//!    non-terminal cannot claim depth 0: rule W needs a child at depth −1, rule L a deepest child
//!    at depth −1). A claimed WIN at `t` has a claimed LOSE child at `t - 1`, truly LOSE of rank
//!    `t - 1` by induction, so `u` is truly WIN of rank ≤ `t`; a true LOSE child of smaller rank
//!    `r` would, by induction, be claimed LOSE at depth `r < t - 1`, which rule W forbids — so the
//!    rank is exactly `t`. A claimed LOSE at `t` has only claimed WIN children of depths `< t`,
//!    the deepest at `t - 1`: by induction all are truly WIN with those ranks, so `u` is truly
//!    LOSE of rank `t`.
//! 2. *Decided at rank `t` ⇒ claimed at depth `t`.* If `u` is truly WIN of rank `t`, it has a true
//!    LOSE child of rank `t - 1`, claimed LOSE at `t - 1` by induction, so rules L and D cannot
//!    hold at `u`; it is claimed WIN, and by rule W its depth is one more than its shallowest
//!    claimed LOSE child. Every claimed LOSE child is (by part 1) truly LOSE with rank = depth, and
//!    the shallowest true one has rank `t - 1`: the claimed depth is `t`. If `u` is truly LOSE of
//!    rank `t`, all its children are truly WIN of ranks `< t` — claimed WIN with those depths by
//!    induction — so it cannot be claimed WIN (no LOSE child) or DRAW (no DRAW child); rule L
//!    gives depth `1 + (t - 1) = t`.
//!
//! Hence the claimed WIN/LOSE positions and depths are exactly those of the least fixpoint, and
//! the remaining positions — claimed DRAW — are exactly the undecided ones, the true draws
//! (003 Thm 4.3). Every rule is used: without the depth parts of W and L the two-cycle
//! counterexample passes, and without rule D a true WIN or LOSE could be claimed DRAW.

use std::fmt;

use crate::graph::{Csr, Rules};
use crate::outcome::{Depth, NodeId, Outcome};
use crate::solve::Solution;

/// The first rule a claimed solution breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The position where the rule fails.
    pub node: NodeId,
    /// What is wrong there.
    pub kind: ViolationKind,
}

/// What is wrong with a claimed label.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ViolationKind {
    /// The claimed solution has the wrong number of positions.
    WrongLength {
        /// Positions in the graph.
        expected: usize,
        /// Positions in the claim.
        found: usize,
    },
    /// A terminal's label or depth differs from its verdict.
    TerminalVerdict {
        /// The verdict.
        verdict: Outcome,
        /// The claimed outcome.
        claimed: Outcome,
        /// The claimed depth.
        depth: Option<Depth>,
    },
    /// A non-terminal WIN or LOSE claims depth 0.
    ZeroDepth,
    /// A WIN has no LOSE child at depth `d - 1`.
    WinWithoutLosingChild,
    /// A WIN has a LOSE child shallower than `d - 1`, so its depth is too large.
    WinNotFastest {
        /// The shallower losing child.
        child: NodeId,
        /// Its depth.
        child_depth: Depth,
    },
    /// A LOSE has a child that is not WIN.
    LoseWithNonWinChild {
        /// The child.
        child: NodeId,
        /// Its outcome.
        child_outcome: Outcome,
    },
    /// A LOSE's deepest child is not at depth `d - 1`.
    LoseDepthMismatch {
        /// The depth of its deepest child.
        deepest_child: Depth,
    },
    /// A DRAW has a LOSE child, so it is really a WIN.
    DrawWithLosingChild {
        /// The losing child.
        child: NodeId,
    },
    /// A non-terminal DRAW has no DRAW child, so it cannot avoid deciding.
    DrawWithoutDrawChild,
    /// A claimed best move is not a move of the position.
    BestMoveNotAMove {
        /// The claimed move.
        best_move: NodeId,
    },
    /// A claimed best move is a move, but not an optimal one.
    BestMoveNotOptimal {
        /// The claimed move.
        best_move: NodeId,
    },
    /// A terminal claims a best move, or a non-terminal has none.
    BestMoveMissingOrExtra,
}

impl Violation {
    /// The message, naming positions with `subject` (the position at fault, e.g. `node 3`) and
    /// `other` (its children and moves, e.g. `4`). Two-player front ends use this to speak of
    /// `(position, player)` states instead of state ids.
    pub fn describe(
        &self,
        subject: &dyn Fn(NodeId) -> String,
        other: &dyn Fn(NodeId) -> String,
    ) -> String {
        let u = subject(self.node);
        match &self.kind {
            ViolationKind::WrongLength { expected, found } => {
                format!("the solution has {found} positions but the graph has {expected}")
            }
            ViolationKind::TerminalVerdict {
                verdict,
                claimed,
                depth,
            } => format!(
                "{u} is terminal with verdict {verdict}, but is claimed {claimed}{}",
                depth.map(|d| format!(" at depth {d}")).unwrap_or_default()
            ),
            ViolationKind::ZeroDepth => format!("{u} has moves but claims depth 0"),
            ViolationKind::WinWithoutLosingChild => {
                format!("{u} is claimed win, but no child is lose at one ply less")
            }
            ViolationKind::WinNotFastest { child, child_depth } => format!(
                "{u} is claimed win, but child {} is lose at depth {child_depth}, a faster win",
                other(*child)
            ),
            ViolationKind::LoseWithNonWinChild {
                child,
                child_outcome,
            } => format!(
                "{u} is claimed lose, but child {} is {child_outcome}",
                other(*child)
            ),
            ViolationKind::LoseDepthMismatch { deepest_child } => format!(
                "{u} is claimed lose, but its deepest child has depth {deepest_child}, \
                 not one ply less"
            ),
            ViolationKind::DrawWithLosingChild { child } => {
                format!("{u} is claimed draw, but child {} is lose", other(*child))
            }
            ViolationKind::DrawWithoutDrawChild => {
                format!("{u} is claimed draw, but has no draw child")
            }
            ViolationKind::BestMoveNotAMove { best_move } => format!(
                "{u} claims best move {}, which is not one of its moves",
                other(*best_move)
            ),
            ViolationKind::BestMoveNotOptimal { best_move } => format!(
                "{u} claims best move {}, which is not optimal",
                other(*best_move)
            ),
            ViolationKind::BestMoveMissingOrExtra => {
                format!("{u}: a terminal has no best move and every other position has one")
            }
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|u| format!("node {u}"), &|v| v.to_string()))
    }
}

impl std::error::Error for Violation {}

/// Checks `claimed` against the rules above; `best_moves`, when given, has one entry per node.
///
/// # Errors
/// The first [`Violation`] in node order.
pub fn verify(
    graph: &Csr,
    rules: &Rules,
    claimed: &Solution,
    best_moves: Option<&[Option<NodeId>]>,
) -> Result<(), Violation> {
    let n = graph.node_count();
    for found in [Some(claimed.len()), best_moves.map(<[_]>::len)]
        .into_iter()
        .flatten()
    {
        if found != n {
            return Err(Violation {
                node: 0,
                kind: ViolationKind::WrongLength { expected: n, found },
            });
        }
    }
    for u in graph.nodes() {
        let fail = |kind| Violation { node: u, kind };
        let terminal = rules.terminal_verdict(graph, u);
        check_label(graph, claimed, u, terminal).map_err(fail)?;
        if let Some(moves) = best_moves {
            check_best_move(graph, claimed, u, terminal.is_some(), moves[u as usize])
                .map_err(fail)?;
        }
    }
    Ok(())
}

fn check_label(
    graph: &Csr,
    s: &Solution,
    u: NodeId,
    terminal: Option<Outcome>,
) -> Result<(), ViolationKind> {
    let (o, d) = (s.outcome(u), s.depth(u));
    if let Some(verdict) = terminal {
        let expected_depth = (verdict != Outcome::Draw).then_some(Depth::ZERO);
        if o != verdict || d != expected_depth {
            return Err(ViolationKind::TerminalVerdict {
                verdict,
                claimed: o,
                depth: d,
            });
        }
        return Ok(());
    }
    let children = graph.successors(u);
    match (o, d) {
        (_, Some(Depth(0))) => Err(ViolationKind::ZeroDepth),
        (Outcome::Win, Some(d)) => {
            let mut found = false;
            for &v in children {
                if let (Outcome::Lose, Some(dv)) = (s.outcome(v), s.depth(v)) {
                    if dv.0 + 1 < d.0 {
                        return Err(ViolationKind::WinNotFastest {
                            child: v,
                            child_depth: dv,
                        });
                    }
                    found |= dv.0 + 1 == d.0;
                }
            }
            if found {
                Ok(())
            } else {
                Err(ViolationKind::WinWithoutLosingChild)
            }
        }
        (Outcome::Lose, Some(d)) => {
            let mut deepest = Depth::ZERO;
            for &v in children {
                match (s.outcome(v), s.depth(v)) {
                    (Outcome::Win, Some(dv)) => deepest = deepest.max(dv),
                    (child_outcome, _) => {
                        return Err(ViolationKind::LoseWithNonWinChild {
                            child: v,
                            child_outcome,
                        })
                    }
                }
            }
            if deepest.0 + 1 == d.0 {
                Ok(())
            } else {
                Err(ViolationKind::LoseDepthMismatch {
                    deepest_child: deepest,
                })
            }
        }
        _ => {
            // A DRAW (a Solution never holds a WIN/LOSE without a depth).
            if let Some(&v) = children.iter().find(|&&v| s.outcome(v) == Outcome::Lose) {
                return Err(ViolationKind::DrawWithLosingChild { child: v });
            }
            if children.iter().any(|&v| s.outcome(v) == Outcome::Draw) {
                Ok(())
            } else {
                Err(ViolationKind::DrawWithoutDrawChild)
            }
        }
    }
}

fn check_best_move(
    graph: &Csr,
    s: &Solution,
    u: NodeId,
    terminal: bool,
    best: Option<NodeId>,
) -> Result<(), ViolationKind> {
    let best = match (terminal, best) {
        (true, None) => return Ok(()),
        (false, Some(b)) => b,
        _ => return Err(ViolationKind::BestMoveMissingOrExtra),
    };
    if !graph.successors(u).contains(&best) {
        return Err(ViolationKind::BestMoveNotAMove { best_move: best });
    }
    let one_less = s.depth(u).map(|d| Depth(d.0 - 1));
    let optimal = match s.outcome(u) {
        Outcome::Win => s.outcome(best) == Outcome::Lose && s.depth(best) == one_less,
        Outcome::Lose => s.depth(best) == one_less,
        Outcome::Draw => s.outcome(best) == Outcome::Draw,
    };
    if optimal {
        Ok(())
    } else {
        Err(ViolationKind::BestMoveNotOptimal { best_move: best })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::retrograde;

    #[test]
    fn spurious_fixpoint_of_a_two_cycle_is_rejected() {
        let g = Csr::from_edges(2, [(0, 1), (1, 0)]).unwrap();
        let r = Rules::normal();
        assert!(verify(&g, &r, &retrograde(&g, &r), None).is_ok());
        // a = WIN, b = LOSE is locally consistent; no depths make it pass.
        for da in 1..6 {
            for db in 1..6 {
                let bogus = Solution::from_parts(
                    vec![Outcome::Win, Outcome::Lose],
                    vec![Some(Depth(da)), Some(Depth(db))],
                );
                assert!(verify(&g, &r, &bogus, None).is_err(), "{da} {db}");
            }
        }
    }

    #[test]
    fn names_the_first_violation() {
        let g = Csr::from_edges(4, [(0, 1), (1, 2), (2, 3)]).unwrap();
        let r = Rules::normal();
        let mut s = retrograde(&g, &r);
        s.set(1, Outcome::Lose, 3);
        let err = verify(&g, &r, &s, None).unwrap_err();
        assert_eq!(err.node, 0);
        assert_eq!(
            err.to_string(),
            "node 0 is claimed win, but no child is lose at one ply less"
        );
    }
}
