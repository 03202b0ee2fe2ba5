//! Synthesis-style games: the game a reactive-synthesis tool solves after translating an LTL
//! specification into a deterministic parity automaton (DPA), as in the parity track of
//! SYNTCOMP (Jacobs et al., "The Reactive Synthesis Competition", and its `ltl2pg`-style
//! conversions): the product of a controller/environment arena with the DPA.
//!
//! - **Plant**: a deterministic transition system of `plant_states` states over `inputs`
//!   boolean input signals (the environment's) and `outputs` output signals (the controller's).
//!   In each state it allows each input valuation with probability 3/4, and after an input each
//!   output valuation with probability 3/4 (at least one of each), and it moves to a uniform
//!   random state per (state, input, output).
//! - **Automaton**: a DPA of `automaton_states` states over the letters (input, output) whose
//!   states are cut into a chain of `components` consecutive blocks; a transition stays in its
//!   block, except with probability 1/8 (not from the last block) it goes to a uniform state of
//!   a later block. Each block draws a top priority `t` uniformly from `0..=max_priority`, and
//!   each of its states a priority uniformly from `0..=t`.
//!   The blocks play the part of the obligations an LTL-to-DPA translation discharges one after
//!   another; they make the product a DAG of strongly connected components, where SCC
//!   decomposition (`--scc`) solves one block at a time.
//! - **Game**: from (plant state 0, automaton state 0), the environment (Odd) picks an allowed
//!   input at a vertex `(s, q)` of priority `priority(q)`; the controller (Even) then picks an
//!   allowed output at `(s, q, i)`, of priority 0, which moves to `(plant(s, i, o), dpa(q, i o))`.
//!   Only the reachable part is built, numbered in breadth-first order from the start vertex 0.
//!
//! The automaton is random, not the translation of a formula: the shape (alternation of the
//! two players over signal valuations, state-based priorities of a DPA, a chain of components)
//! is that of the competition's games, the contents are not.

use crate::{Arena, Priority};
use zermelo::graph::generate::SplitMix64;
use zermelo::graph::MAX_NODES;
use zermelo::Player;

use super::Draft;

/// The most signals per player: a valuation set is one `u64` bit mask.
pub const MAX_SIGNALS: u32 = 6;

/// A vertex not reached yet.
const UNSEEN: u32 = u32::MAX;

/// Parameters of [`synthesis`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynthesisGame {
    /// States of the plant (the controller/environment arena); 1 for the bare automaton game.
    pub plant_states: u64,
    /// States of the deterministic parity automaton.
    pub automaton_states: u64,
    /// Blocks of the automaton, in a chain (1 to `automaton_states`).
    pub components: u64,
    /// Boolean input signals, chosen by the environment (at most [`MAX_SIGNALS`]).
    pub inputs: u32,
    /// Boolean output signals, chosen by the controller (at most [`MAX_SIGNALS`]).
    pub outputs: u32,
    /// The largest automaton priority (each block of states draws its own top up to it).
    pub max_priority: Priority,
    /// Random seed.
    pub seed: u64,
}

impl SynthesisGame {
    /// Why these parameters make no game, if they don't. The bound on size is that of the
    /// whole product (`plant_states · automaton_states · (1 + 2^inputs)` vertices), of which
    /// only the reachable part is built.
    pub fn check(&self) -> Result<(), String> {
        if self.plant_states == 0 || self.automaton_states == 0 {
            return Err("the plant and the automaton need at least one state each".into());
        }
        if self.components == 0 || self.components > self.automaton_states {
            return Err(format!(
                "{} components: the automaton's {} states make 1 to {} components",
                self.components, self.automaton_states, self.automaton_states
            ));
        }
        if self.inputs > MAX_SIGNALS || self.outputs > MAX_SIGNALS {
            return Err(format!(
                "at most {MAX_SIGNALS} inputs and {MAX_SIGNALS} outputs"
            ));
        }
        let pairs = self.plant_states.checked_mul(self.automaton_states);
        let vertices = pairs.and_then(|p| p.checked_mul(1 + (1 << self.inputs)));
        // An environment vertex has up to 2^inputs moves, each of its choices 2^outputs.
        let per_pair = (1u64 << self.inputs) * (1 + (1 << self.outputs));
        let edges = pairs.and_then(|p| p.checked_mul(per_pair));
        match (vertices, edges) {
            (Some(v), Some(e)) if v < MAX_NODES && e <= u64::from(u32::MAX) => Ok(()),
            _ => Err(format!(
                "{} plant states x {} automaton states x {} input valuations may reach more \
                 than {} vertices or {} edges",
                self.plant_states,
                self.automaton_states,
                1u64 << self.inputs,
                MAX_NODES - 1,
                u32::MAX
            )),
        }
    }
}

/// The plant: allowed inputs per state, allowed outputs and successor per (state, input).
struct Plant {
    inputs: Vec<u64>,
    outputs: Vec<u64>,
    next: Vec<u32>,
}

/// A non-empty random subset of `0..k` (`k <= 64`): each element with probability 3/4.
fn allowed(rng: &mut SplitMix64, k: u64) -> u64 {
    let mut mask = 0;
    for bit in 0..k {
        if rng.below(4) != 0 {
            mask |= 1 << bit;
        }
    }
    if mask == 0 {
        mask = 1 << rng.below(k);
    }
    mask
}

impl Plant {
    fn random(rng: &mut SplitMix64, spec: &SynthesisGame) -> Plant {
        let (ni, no) = (1u64 << spec.inputs, 1u64 << spec.outputs);
        let mut p = Plant {
            inputs: Vec::new(),
            outputs: Vec::new(),
            next: Vec::new(),
        };
        for _ in 0..spec.plant_states {
            p.inputs.push(allowed(rng, ni));
            for _ in 0..ni {
                p.outputs.push(allowed(rng, no));
                p.next
                    .extend((0..no).map(|_| rng.below(spec.plant_states) as u32));
            }
        }
        p
    }
}

/// The automaton: a priority per state and a successor per (state, letter).
struct Automaton {
    priority: Vec<Priority>,
    next: Vec<u32>,
}

impl Automaton {
    fn random(rng: &mut SplitMix64, spec: &SynthesisGame) -> Automaton {
        let (n, c) = (spec.automaton_states, spec.components);
        let letters = 1u64 << (spec.inputs + spec.outputs);
        // Block b holds the states start(b)..start(b + 1).
        let start = |b: u64| b * n / c;
        let mut a = Automaton {
            priority: Vec::with_capacity(n as usize),
            next: Vec::with_capacity((n * letters) as usize),
        };
        for block in 0..c {
            let (lo, hi) = (start(block), start(block + 1));
            // Blocks differ in the top priority they use, as the acceptance of the parts of a
            // translated formula do: some blocks favour one player, some the other.
            let top = rng.below(u64::from(spec.max_priority) + 1);
            for _ in lo..hi {
                a.priority.push(rng.below(top + 1) as Priority);
                for _ in 0..letters {
                    let target = if block + 1 < c && rng.below(8) == 0 {
                        hi + rng.below(n - hi)
                    } else {
                        lo + rng.below(hi - lo)
                    };
                    a.next.push(target as u32);
                }
            }
        }
        a
    }
}

/// A synthesis-style game (see the module documentation): the reachable product of a random
/// plant and a random DPA whose states form a chain of components, start vertex 0.
///
/// # Errors
/// When [`SynthesisGame::check`] fails.
pub fn synthesis(spec: SynthesisGame) -> Result<Arena, String> {
    spec.check()?;
    let mut rng = SplitMix64::new(spec.seed);
    let plant = Plant::random(&mut rng, &spec);
    let dpa = Automaton::random(&mut rng, &spec);
    let (ni, no) = (1u64 << spec.inputs, 1u64 << spec.outputs);
    let n_dpa = spec.automaton_states;
    // Ids of the environment's vertices (s, q), at index s * n_dpa + q.
    let mut id = vec![UNSEEN; (spec.plant_states * n_dpa) as usize];
    let mut queue: Vec<(u64, u64)> = vec![(0, 0)];
    let mut d = Draft::default();
    id[0] = 0;
    d.vertices.push((Player::One, dpa.priority[0]));
    let mut targets: Vec<u64> = Vec::new();
    let mut k = 0;
    while let Some(&(s, q)) = queue.get(k) {
        let env = u64::from(id[(s * n_dpa + q) as usize]);
        k += 1;
        for i in (0..ni).filter(|i| plant.inputs[s as usize] >> i & 1 == 1) {
            let ctrl = d.vertices.len() as u64;
            d.vertices.push((Player::Zero, 0));
            d.edges.push((env, ctrl));
            let si = (s * ni + i) as usize;
            targets.clear();
            for o in (0..no).filter(|o| plant.outputs[si] >> o & 1 == 1) {
                let s2 = u64::from(plant.next[si * no as usize + o as usize]);
                let letter = i * no + o;
                let q2 = u64::from(dpa.next[(q * ni * no + letter) as usize]);
                let slot = &mut id[(s2 * n_dpa + q2) as usize];
                if *slot == UNSEEN {
                    *slot = d.vertices.len() as u32;
                    d.vertices.push((Player::One, dpa.priority[q2 as usize]));
                    queue.push((s2, q2));
                }
                let t = u64::from(*slot);
                if !targets.contains(&t) {
                    targets.push(t);
                }
            }
            d.edges.extend(targets.iter().map(|&t| (ctrl, t)));
        }
    }
    let arena = d.build().map_err(|e| e.to_string())?;
    arena.with_start(Some(0)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scc::Tarjan;
    use zermelo::NodeId;

    fn spec(seed: u64) -> SynthesisGame {
        SynthesisGame {
            plant_states: 5,
            automaton_states: 60,
            components: 4,
            inputs: 2,
            outputs: 2,
            max_priority: 5,
            seed,
        }
    }

    #[test]
    fn is_a_pure_function_of_its_parameters() {
        let a = synthesis(spec(3)).unwrap();
        assert_eq!(a, synthesis(spec(3)).unwrap());
        assert_ne!(a, synthesis(spec(4)).unwrap());
    }

    #[test]
    fn alternates_environment_and_controller_from_the_start() {
        let a = synthesis(spec(1)).unwrap();
        assert_eq!(a.start(), Some(0));
        for v in a.vertices() {
            let owner = a.owner(v);
            assert!(!a.successors(v).is_empty());
            assert!(a.successors(v).iter().all(|&w| a.owner(w) != owner));
            if owner == Player::Zero {
                assert_eq!(a.priority(v), 0);
                assert!(a.successors(v).len() <= 4);
            }
        }
    }

    #[test]
    fn components_of_the_automaton_make_a_chain_of_sccs() {
        let a = synthesis(spec(2)).unwrap();
        let all: Vec<NodeId> = a.vertices().collect();
        let sccs = Tarjan::new(a.vertex_count()).components(&all, |v| a.successors(v), |_| true);
        let big = sccs.iter().filter(|c| c.len() > 1).count();
        let largest = sccs.iter().map(<[NodeId]>::len).max().unwrap();
        // One nontrivial component per block of the automaton at least, none of them all.
        assert!(big >= 4, "{big} nontrivial components");
        assert!(
            largest < a.vertex_count() / 2,
            "{largest} of {}",
            a.vertex_count()
        );
        let one = SynthesisGame {
            components: 1,
            ..spec(2)
        };
        let a = synthesis(one).unwrap();
        let all: Vec<NodeId> = a.vertices().collect();
        let sccs = Tarjan::new(a.vertex_count()).components(&all, |v| a.successors(v), |_| true);
        assert!(sccs.iter().any(|c| c.len() > a.vertex_count() / 2));
    }

    #[test]
    fn refuses_parameters_that_make_no_game() {
        let bad = [
            SynthesisGame {
                components: 0,
                ..spec(1)
            },
            SynthesisGame {
                components: 61,
                ..spec(1)
            },
            SynthesisGame {
                inputs: 7,
                ..spec(1)
            },
            SynthesisGame {
                plant_states: 0,
                ..spec(1)
            },
            SynthesisGame {
                plant_states: 1 << 20,
                automaton_states: 1 << 20,
                ..spec(1)
            },
        ];
        for s in bad {
            assert!(synthesis(s).is_err(), "{s:?}");
        }
    }
}
