//! The layer-synchronous attractor: the same set as the FIFO attractor, each layer's
//! predecessors examined in parallel over rayon.
//!
//! Cost: O(V + E) work over the subgame it explores plus a sort of each layer, spread over the
//! threads of the current rayon pool; one synchronisation per layer. Memory: one `u64` word per
//! vertex (allocated on first use, then reused; epochs make resetting it free).
//!
//! Reference: seed 003 §8 (Definition 8.2: `Attr_{i+1} = Attr_i ∪ CPre(Attr_i)`, computed layer
//! by layer) with the compare-and-swap scheme of
//! [`retrograde_parallel`](zermelo::solve::retrograde_parallel): layer `i + 1` holds the vertices
//! that join when layer `i` is expanded.
//! A vertex of the attracting player joins by one compare-and-swap from "open" to "joined";
//! an opponent's vertex counts down its open moves (counted on first touch, as the FIFO
//! attractor does) and joins when the count reaches zero.
//!
//! Why the result is the same for any thread count: a vertex joins in the first layer that
//! holds one of its successors (attracting player) or the layer after its last open successor
//! joined (opponent) — properties of the layers, not of the order inside one. Each layer is
//! sorted before it is expanded and reported, and the attracting player's move at a vertex of
//! layer `i + 1` is its smallest successor of a layer `<= i`, chosen after the layer is complete.
//! So the set, its order and the moves are identical for 1, 2 or 64 threads (with one thread
//! no rayon task is made). The region equals the FIFO attractor's (both are the least
//! fixpoint); the moves may differ, and both are attractor strategies (each move goes to a
//! lower layer, hence reaches the seeds). Which of the two runs depends on the number of seeds
//! only ([`PARALLEL_SEEDS`](crate::attractor::PARALLEL_SEEDS)), never on the thread count.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::region::Region;
use crate::Arena;
use zermelo::graph::Predecessors;
use zermelo::{NodeId, Player};

/// Layers smaller than this are expanded on the calling thread (and every layer when the pool
/// has one thread).
const PARALLEL_MIN: usize = 4096;
/// Vertices per parallel task.
const CHUNK: usize = 1024;

/// Word layout: epoch (30 bits) | tag (2 bits) | payload (32 bits). A word of another epoch is
/// untouched in this call.
const COUNTING: u64 = 1;
const JOINED: u64 = 2;
const EPOCH_MAX: u64 = (1 << 30) - 1;

#[inline]
fn pack(epoch: u64, tag: u64, payload: u32) -> u64 {
    (epoch << 34) | (tag << 32) | u64::from(payload)
}

/// Per-vertex words of the layered attractor, reused across calls.
#[derive(Default)]
pub(crate) struct Layered {
    words: Vec<AtomicU64>,
    epoch: u64,
}

impl Layered {
    fn next_epoch(&mut self, n: usize) {
        if self.words.len() != n || self.epoch >= EPOCH_MAX {
            self.words = (0..n).map(|_| AtomicU64::new(0)).collect();
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// Grows the set for `player` from the seeds in `queue` (in the set and in the subgame);
    /// on return `queue` lists the seeds followed by every vertex added, layer by layer, each
    /// layer in increasing order, and `region.add` has been called for each in that order.
    pub(crate) fn attract<R: Region + Sync>(
        &mut self,
        arena: &Arena,
        player: Player,
        region: &mut R,
        queue: &mut Vec<NodeId>,
    ) {
        self.next_epoch(arena.vertex_count());
        let run = Run {
            arena,
            player,
            region: &*region,
            words: &self.words,
            epoch: self.epoch,
            parallel_min: if rayon::current_num_threads() > 1 {
                PARALLEL_MIN
            } else {
                usize::MAX
            },
        };
        let seeds = queue.len();
        for &v in queue.iter() {
            run.set(v, JOINED, 0);
        }
        let mut moves: Vec<Option<NodeId>> = Vec::new();
        let mut start = 0;
        let mut layer = 0u32;
        while start < queue.len() {
            let next = run.expand(&queue[start..], layer + 1);
            layer += 1;
            start = queue.len();
            moves.extend(run.moves(&next, layer));
            queue.extend_from_slice(&next);
        }
        for (&v, &via) in queue[seeds..].iter().zip(&moves) {
            region.add(v, via);
        }
    }
}

/// One call's view: the arena, the set's rule and the words.
struct Run<'a, R> {
    arena: &'a Arena,
    player: Player,
    region: &'a R,
    words: &'a [AtomicU64],
    epoch: u64,
    /// Layers from this size up are processed in parallel.
    parallel_min: usize,
}

impl<R: Region + Sync> Run<'_, R> {
    #[inline]
    fn set(&self, v: NodeId, tag: u64, payload: u32) {
        self.words[v as usize].store(pack(self.epoch, tag, payload), Relaxed);
    }

    /// The layer `v` joined in during this call, if it did (seeds: layer 0).
    #[inline]
    fn layer(&self, v: NodeId) -> Option<u32> {
        let w = self.words[v as usize].load(Relaxed);
        (w >> 34 == self.epoch && (w >> 32) & 3 == JOINED).then_some(w as u32)
    }

    /// The vertices that join when `frontier` is expanded, sorted.
    fn expand(&self, frontier: &[NodeId], layer: u32) -> Vec<NodeId> {
        let mut next = if frontier.len() < self.parallel_min {
            let mut next = Vec::new();
            self.expand_into(frontier, layer, &mut next);
            next
        } else {
            frontier
                .par_chunks(CHUNK)
                .fold(Vec::new, |mut next, chunk| {
                    self.expand_into(chunk, layer, &mut next);
                    next
                })
                .reduce(Vec::new, |mut a, mut b| {
                    if a.len() < b.len() {
                        std::mem::swap(&mut a, &mut b);
                    }
                    a.extend_from_slice(&b);
                    a
                })
        };
        if next.len() < self.parallel_min {
            next.sort_unstable();
        } else {
            next.par_sort_unstable();
        }
        next
    }

    fn expand_into(&self, frontier: &[NodeId], layer: u32, next: &mut Vec<NodeId>) {
        for &v in frontier {
            for &u in self.arena.predecessors(v) {
                if self.region.in_game(u) && !self.region.contains(u) && self.join(u, layer) {
                    next.push(u);
                }
            }
        }
    }

    /// One more move of `u` leads into the set; true if `u` joins now (and this thread made it).
    #[inline]
    fn join(&self, u: NodeId, layer: u32) -> bool {
        let cell = &self.words[u as usize];
        let mut cur = cell.load(Relaxed);
        loop {
            let fresh = cur >> 34 != self.epoch;
            let tag = (cur >> 32) & 3;
            if !fresh && tag == JOINED {
                return false;
            }
            let new = if self.arena.owner(u) == self.player {
                pack(self.epoch, JOINED, layer)
            } else {
                let open = if fresh {
                    self.open_moves(u)
                } else {
                    cur as u32
                };
                match open.saturating_sub(1) {
                    0 => pack(self.epoch, JOINED, layer),
                    left => pack(self.epoch, COUNTING, left),
                }
            };
            match cell.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
                Ok(_) => return (new >> 32) & 3 == JOINED,
                Err(actual) => cur = actual,
            }
        }
    }

    /// `u`'s moves the attractor counts down: into the subgame, to a vertex outside the set at
    /// the start of the call or to a seed (as the FIFO attractor counts them).
    fn open_moves(&self, u: NodeId) -> u32 {
        let open = self.arena.successors(u).iter().filter(|&&w| {
            self.region.in_game(w) && (!self.region.contains(w) || self.layer(w) == Some(0))
        });
        // An out-degree is a u32, so the count fits.
        open.count() as u32
    }

    /// The attracting player's move at each vertex of `layer`: its smallest successor that
    /// joined in an earlier layer.
    fn moves(&self, joined: &[NodeId], layer: u32) -> Vec<Option<NodeId>> {
        let pick = |&u: &NodeId| {
            (self.arena.owner(u) == self.player).then(|| {
                let earlier = self.arena.successors(u).iter().copied();
                let earlier = earlier.filter(|&w| self.layer(w).is_some_and(|l| l < layer));
                // `u` joined through such a move, so there is one.
                earlier.min().unwrap_or(u)
            })
        };
        if joined.len() < self.parallel_min {
            joined.iter().map(pick).collect()
        } else {
            joined.par_iter().map(pick).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attractor::{Attractor, Mode};
    use crate::objectives::reachability_by;
    use crate::region::Masked;
    use crate::solution::NO_MOVE;
    use crate::{objective_arena, verify, Objective, ParitySolution};
    use zermelo::graph::generate::SplitMix64;

    fn random_arena(rng: &mut SplitMix64, n: u64) -> Arena {
        let vertices: Vec<(Player, u32)> = (0..n)
            .map(|_| (Player::BOTH[rng.below(2) as usize], 0))
            .collect();
        let mut edges = Vec::new();
        for v in 0..n {
            for _ in 0..1 + rng.below(4) {
                edges.push((v, rng.below(n)));
            }
        }
        Arena::from_edges(&vertices, edges).unwrap()
    }

    struct Outcome {
        queue: Vec<NodeId>,
        inside: Vec<bool>,
        strategy: Vec<NodeId>,
    }

    /// One attractor call in `mode` on `threads` threads: the subgame `alive`, a set holding
    /// `seeds` (queued) and `members` (in the set, not queued).
    fn run(
        a: &Arena,
        player: Player,
        alive: &[bool],
        seeds: &[NodeId],
        members: &[NodeId],
        mode: Mode,
        threads: usize,
    ) -> Outcome {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let n = a.vertex_count();
            let mut inside = vec![false; n];
            for &v in seeds.iter().chain(members) {
                inside[v as usize] = true;
            }
            let mut strategy = vec![NO_MOVE; n];
            let mut queue = seeds.to_vec();
            let mut region = Masked {
                alive,
                inside: &mut inside,
                strategy: &mut strategy,
            };
            Attractor::with_mode(n, mode).attract(a, player, &mut region, &mut queue);
            Outcome {
                queue,
                inside,
                strategy,
            }
        })
    }

    #[test]
    fn same_region_as_fifo_same_moves_for_any_thread_count() {
        let mut rng = SplitMix64::new(17);
        for case in 0..400 {
            // Some with layers big enough to be expanded in parallel (PARALLEL_MIN).
            let n = if case % 20 == 0 {
                20_000
            } else {
                1 + rng.below(60)
            };
            let a = random_arena(&mut rng, n);
            let player = Player::BOTH[rng.below(2) as usize];
            let alive: Vec<bool> = (0..n).map(|_| rng.below(8) != 0).collect();
            let (mut seeds, mut members) = (Vec::new(), Vec::new());
            for v in (0..n as NodeId).filter(|&v| alive[v as usize]) {
                match rng.below(10) {
                    0 => seeds.push(v),
                    1 => members.push(v),
                    _ => {}
                }
            }
            let fifo = run(&a, player, &alive, &seeds, &members, Mode::Fifo, 1);
            let first = run(&a, player, &alive, &seeds, &members, Mode::Layered, 1);
            assert_eq!(first.inside, fifo.inside, "case {case}");
            let mut sorted = fifo.queue.clone();
            sorted[seeds.len()..].sort_unstable();
            let mut again = first.queue.clone();
            again[seeds.len()..].sort_unstable();
            assert_eq!(again, sorted, "case {case}: the same vertices added");
            // An attractor strategy: each move goes to a vertex added earlier (or a seed).
            let rank: std::collections::HashMap<NodeId, usize> = first
                .queue
                .iter()
                .enumerate()
                .map(|(i, &v)| (v, i))
                .collect();
            for (i, &v) in first.queue.iter().enumerate().skip(seeds.len()) {
                if a.owner(v) == player {
                    let to = first.strategy[v as usize];
                    assert!(a.successors(v).contains(&to), "case {case}");
                    assert!(rank.get(&to).is_some_and(|&r| r < i), "case {case}");
                }
            }
            for threads in 2..=4 {
                let other = run(&a, player, &alive, &seeds, &members, Mode::Layered, threads);
                assert_eq!(other.queue, first.queue, "case {case}, {threads} threads");
                assert_eq!(
                    other.strategy, first.strategy,
                    "case {case}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn layered_reachability_is_certified_by_the_verifier() {
        let mut rng = SplitMix64::new(23);
        for case in 0..300 {
            let n = if case % 30 == 0 {
                20_000
            } else {
                1 + rng.below(40)
            };
            let a = random_arena(&mut rng, n);
            let player = Player::BOTH[rng.below(2) as usize];
            let target: Vec<bool> = (0..n).map(|_| rng.below(5) == 0).collect();
            let reduced = objective_arena(&a, Objective::Reach, player, &target);
            let fifo = reachability_by(&a, player, &target, Mode::Fifo);
            for threads in 1..=4 {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let s = pool.install(|| reachability_by(&a, player, &target, Mode::Layered));
                let won =
                    |s: &ParitySolution| a.vertices().map(|v| s.winner(v)).collect::<Vec<_>>();
                assert_eq!(won(&s), won(&fifo), "case {case}");
                // In the reduction a target is a sink: its move is its self-loop.
                let mut claim = s.clone();
                for v in a.vertices().filter(|&v| target[v as usize]) {
                    let mv = (reduced.owner(v) == claim.winner(v)).then_some(v);
                    claim.set(v, claim.winner(v), mv);
                }
                verify(&reduced, &claim).unwrap_or_else(|e| panic!("case {case}: {e}"));
            }
        }
    }
}
