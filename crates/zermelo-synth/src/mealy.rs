//! The controller as a Mealy machine: read from the game's winning strategy, its outputs fixed,
//! then minimised by bisimulation.
//!
//! The machine's states are the automaton states the strategy reaches from the start. In state
//! `q`, on input `i` of class `k`, the strategy's choice (a group of transitions with one target
//! and priority) allows every output `o` that makes one of the group's transitions hold: the
//! state's *relation* `R_q(i, o)`. The next state depends on the input only.
//!
//! Outputs are fixed one at a time, each within the interval the relation leaves it
//! ([`Manager::isop`] of `[!can0, can1]`, canonical, so that states that allow the same
//! outputs get the same functions); then Moore's partition refinement merges states whose
//! outputs are equal and whose inputs lead to equivalent states (signature: the output
//! functions and, per successor block, the inputs that lead there). Cost: a refinement round
//! is O(transitions) BDD operations, at most `states` rounds.

use zermelo_parity::ParitySolution;

use crate::bdd::{Bdd, FxMap, Manager, VarSet};
use crate::game::Game;
use crate::spec::Spec;

/// A state of a Mealy machine.
#[derive(Clone)]
pub(crate) struct MealyState {
    /// The allowed outputs per input (BDD over input and output variables).
    pub relation: Bdd,
    /// The chosen output functions (BDDs over the inputs), one per output; empty until fixed.
    pub outputs: Vec<Bdd>,
    /// Successors: the inputs that lead to each (disjoint, covering every input).
    pub next: Vec<(Bdd, u32)>,
}

/// A Mealy machine; state 0 is the initial state.
#[derive(Clone)]
pub(crate) struct Mealy {
    pub states: Vec<MealyState>,
}

impl Mealy {
    /// The machine of a winning strategy (module docs): states (the game's blocks of
    /// automaton states) numbered in breadth-first order from the start.
    pub(crate) fn from_strategy(spec: &mut Spec, game: &Game, solution: &ParitySolution) -> Mealy {
        let start = game.start as usize;
        let mut index: FxMap<u32, u32> = FxMap::default();
        index.insert(start as u32, 0);
        let mut order = vec![start as u32];
        let mut states = Vec::new();
        let mut at = 0;
        while at < order.len() {
            let q = order[at] as usize;
            at += 1;
            let mut relation = Bdd::FALSE;
            let mut next: Vec<(Bdd, u32)> = Vec::new();
            for k in game.first_class[q] as usize..game.first_class[q + 1] as usize {
                let class = &game.classes[k];
                let group = &game.groups[q][game.chosen_group(solution, k)];
                let allowed = spec.bdd.and(class.inputs, group.label);
                relation = spec.bdd.or(relation, allowed);
                let target = game.choices[group.choice as usize].0;
                let next_index = order.len() as u32;
                let t = *index.entry(target).or_insert(next_index);
                if t == next_index {
                    order.push(target);
                }
                match next.iter_mut().find(|(_, s)| *s == t) {
                    Some((inputs, _)) => *inputs = spec.bdd.or(*inputs, class.inputs),
                    None => next.push((class.inputs, t)),
                }
            }
            states.push(MealyState {
                relation,
                outputs: Vec::new(),
                next,
            });
        }
        Mealy { states }
    }

    /// Fixes every state's outputs within its relation (module docs).
    pub(crate) fn fix_outputs(&mut self, m: &mut Manager, outputs: &[u32]) {
        for s in &mut self.states {
            s.outputs = choose_outputs(m, s.relation, outputs);
        }
    }

    /// Merges bisimilar states (module docs); the relation of a merged state is the
    /// conjunction of its members' (it still holds the chosen outputs).
    pub(crate) fn minimise(&self, m: &mut Manager) -> Mealy {
        let n = self.states.len();
        let mut block: Vec<u32> = vec![0; n];
        let mut blocks = 1;
        loop {
            let mut ids: FxMap<Vec<u32>, u32> = FxMap::default();
            let mut next_block = vec![0u32; n];
            for (q, s) in self.states.iter().enumerate() {
                let mut to: Vec<(u32, Bdd)> = Vec::new();
                for &(inputs, t) in &s.next {
                    let b = block[t as usize];
                    match to.iter_mut().find(|(x, _)| *x == b) {
                        Some((_, i)) => *i = m.or(*i, inputs),
                        None => to.push((b, inputs)),
                    }
                }
                to.sort_unstable();
                let mut signature = vec![block[q]];
                signature.extend(s.outputs.iter().map(|b| b.index() as u32));
                signature.extend(to.iter().flat_map(|&(b, i)| [b, i.index() as u32]));
                let fresh = ids.len() as u32;
                next_block[q] = *ids.entry(signature).or_insert(fresh);
            }
            let count = ids.len();
            block = next_block;
            if count == blocks {
                break;
            }
            blocks = count;
        }
        self.quotient(m, &block, blocks)
    }

    /// The machine of the blocks (block of state 0 first).
    fn quotient(&self, m: &mut Manager, block: &[u32], blocks: usize) -> Mealy {
        // Renumber so that the initial state's block is 0, in first-seen order.
        let mut renumber = vec![u32::MAX; blocks];
        let mut count = 0;
        for &b in block {
            if renumber[b as usize] == u32::MAX {
                renumber[b as usize] = count;
                count += 1;
            }
        }
        let mut states: Vec<Option<MealyState>> = vec![None; blocks];
        for (q, s) in self.states.iter().enumerate() {
            let b = renumber[block[q] as usize] as usize;
            match &mut states[b] {
                Some(merged) => merged.relation = m.and(merged.relation, s.relation),
                slot @ None => {
                    let mut next: Vec<(Bdd, u32)> = Vec::new();
                    for &(inputs, t) in &s.next {
                        let tb = renumber[block[t as usize] as usize];
                        match next.iter_mut().find(|(_, x)| *x == tb) {
                            Some((i, _)) => *i = m.or(*i, inputs),
                            None => next.push((inputs, tb)),
                        }
                    }
                    *slot = Some(MealyState {
                        relation: s.relation,
                        outputs: s.outputs.clone(),
                        next,
                    });
                }
            }
        }
        Mealy {
            states: states
                .into_iter()
                .map(|s| s.expect("every block has a state"))
                .collect(),
        }
    }
}

/// Output functions within `relation` (over inputs and the `outputs` variables), fixed one
/// output at a time: output `o` may be 1 where some remaining outputs satisfy the relation
/// with `o = 1` (`can1`), must be 1 where none do with `o = 0` (`!can0`); the function is the
/// irredundant cover between the two.
pub(crate) fn choose_outputs(m: &mut Manager, relation: Bdd, outputs: &[u32]) -> Vec<Bdd> {
    let mut r = relation;
    let mut rest: VarSet = outputs.iter().fold(0, |s, &v| s | 1 << v);
    let mut chosen = Vec::with_capacity(outputs.len());
    for &o in outputs {
        rest &= !(1 << o);
        let r1 = m.cofactor(r, o, true);
        let r0 = m.cofactor(r, o, false);
        let can1 = m.exists(r1, rest);
        let can0 = m.exists(r0, rest);
        let must1 = m.not(can0);
        let (f, _) = m.isop(must1, can1);
        r = m.ite(f, r1, r0);
        chosen.push(f);
    }
    chosen
}
