//! The work a solver may do before it gives up: [`Solver::Auto`](crate::Solver::Auto) runs the
//! solvers in turn with growing budgets, and every solver spends from one as it goes.

/// Work a solver may do before it gives up (deterministic: counted in attracted vertices and
/// scanned moves, never in time, so the same game always takes the same path).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    left: u64,
}

impl Budget {
    /// No limit.
    pub(crate) const UNLIMITED: Budget = Budget { left: u64::MAX };

    pub(crate) fn new(work: u64) -> Budget {
        Budget { left: work.max(1) }
    }

    /// Spends `work`; false once the budget is used up.
    #[inline]
    pub(crate) fn spend(&mut self, work: u64) -> bool {
        self.left = self.left.saturating_sub(work);
        self.left > 0
    }
}
