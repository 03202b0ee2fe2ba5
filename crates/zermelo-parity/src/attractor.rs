//! Attractors in an arena: the set from which one player can force a visit to a target.
//!
//! Cost: O(V + E) per call over the subgame it explores (counters are set up lazily, on a
//! vertex's first visit, so a small attractor in a big arena costs only what it touches).
//!
//! Reference: seed 003 §8 (Definition 8.2); this is retrograde analysis's counter wave
//! ([`wave`](zermelo::solve::wave)) with the quantifier read off the owner of each vertex: the
//! attracting player's vertices join through one move into the set, the opponent's when all
//! their moves inside the subgame lead into it.
//!
//! Invariant: a vertex's counter counts its moves to subgame vertices that are outside the set
//! or in the set but not yet popped in this call; the move being processed is among them, so a
//! counter never underflows, and multi-edges are counted once per copy.

use crate::layered::Layered;
use crate::region::Region;
use crate::Arena;
use zermelo::solve::wave::{propagate, Quantifier, Wave};
use zermelo::{NodeId, Player};

/// Reusable scratch space for attractors over one arena: 12 bytes per vertex, in one array so
/// that visiting a vertex touches one cache line (8 more for the layered attractor, on its
/// first use).
pub(crate) struct Attractor {
    slots: Vec<Slot>,
    epoch: u32,
    layered: Layered,
    mode: Mode,
}

/// Which attractor runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The layered one from [`PARALLEL_SEEDS`] seeds up (in parallel when the rayon pool has
    /// more than one thread), else the FIFO one.
    Auto,
    /// Always the FIFO attractor.
    #[cfg_attr(not(test), allow(dead_code))]
    Fifo,
    /// Always the layered attractor.
    #[cfg_attr(not(test), allow(dead_code))]
    Layered,
}

/// Attractors from this many seeds up run layered (below it, the layers are too thin for the
/// threads to pay for their synchronisation). The choice depends on the size alone, not on the
/// thread count, so that a solution is the same for any number of threads; on one thread the
/// layered attractor costs what the FIFO one does (BENCHMARKS.md).
pub(crate) const PARALLEL_SEEDS: usize = 1 << 13;

#[derive(Clone, Copy, Default)]
struct Slot {
    /// Open moves (valid when `counted == epoch`).
    count: u32,
    counted: u32,
    /// `2 * epoch` when queued in the current call, `2 * epoch + 1` once popped.
    stage: u32,
}

impl Attractor {
    pub(crate) fn new(n: usize) -> Attractor {
        Attractor::with_mode(n, Mode::Auto)
    }

    pub(crate) fn with_mode(n: usize, mode: Mode) -> Attractor {
        Attractor {
            slots: vec![Slot::default(); n],
            epoch: 0,
            layered: Layered::default(),
            mode,
        }
    }

    fn next_epoch(&mut self) {
        if self.epoch >= u32::MAX / 2 - 1 {
            self.slots.fill(Slot::default());
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// Grows the set for `player` from the seeds in `queue` (which must already be in the set
    /// and in the subgame); on return `queue` lists the seeds followed by every vertex added.
    ///
    /// From [`PARALLEL_SEEDS`] seeds up this is the layered attractor
    /// ([`layered`](crate::layered)), parallel when the rayon pool has more than one
    /// thread: the same set, and moves that are the same for any thread count but may differ
    /// from the FIFO attractor's.
    pub(crate) fn attract<R: Region + Sync>(
        &mut self,
        arena: &Arena,
        player: Player,
        region: &mut R,
        queue: &mut Vec<NodeId>,
    ) {
        let layered = match self.mode {
            Mode::Auto => queue.len() >= PARALLEL_SEEDS,
            Mode::Fifo => false,
            Mode::Layered => true,
        };
        if layered {
            self.layered.attract(arena, player, region, queue);
            return;
        }
        self.next_epoch();
        let queued = 2 * self.epoch;
        for &v in queue.iter() {
            self.slots[v as usize].stage = queued;
        }
        let mut pull = Pull {
            arena,
            player,
            region,
            scratch: self,
        };
        propagate(arena, queue, 0, &mut pull);
    }
}

struct Pull<'a, R> {
    arena: &'a Arena,
    player: Player,
    region: &'a mut R,
    scratch: &'a mut Attractor,
}

impl<R: Region> Wave for Pull<'_, R> {
    #[inline(always)]
    fn enter(&mut self, _v: NodeId) -> Option<Quantifier> {
        None
    }

    #[inline(always)]
    fn leave(&mut self, v: NodeId) {
        self.scratch.slots[v as usize].stage = 2 * self.scratch.epoch + 1;
    }

    #[inline(always)]
    fn is_open(&mut self, u: NodeId) -> bool {
        self.region.in_game(u) && !self.region.contains(u)
    }

    #[inline(always)]
    fn quantifier(&mut self, u: NodeId) -> Quantifier {
        if self.arena.owner(u) == self.player {
            Quantifier::Exists
        } else {
            Quantifier::ForAll
        }
    }

    #[inline(always)]
    fn count_down(&mut self, u: NodeId, _v: NodeId) -> bool {
        let s = &mut *self.scratch;
        let epoch = s.epoch;
        if s.slots[u as usize].counted != epoch {
            let queued = 2 * epoch;
            let region = &*self.region;
            let slots = &s.slots;
            let open = self.arena.successors(u).iter().filter(|&&w| {
                region.in_game(w) && (!region.contains(w) || slots[w as usize].stage == queued)
            });
            let count = open.count() as u32;
            s.slots[u as usize].counted = epoch;
            s.slots[u as usize].count = count;
        }
        let slot = &mut s.slots[u as usize];
        slot.count -= 1;
        slot.count == 0
    }

    #[inline(always)]
    fn join(&mut self, u: NodeId, v: NodeId, by: Quantifier) {
        self.scratch.slots[u as usize].stage = 2 * self.scratch.epoch;
        let via = (by == Quantifier::Exists).then_some(v);
        self.region.add(u, via);
    }
}
