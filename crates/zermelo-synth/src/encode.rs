//! From a Mealy machine to an [`Aig`]: a state encoding and a logic style, each tried, the
//! smallest circuit kept ([`encode_best`]).
//!
//! * Binary encoding: `ceil(log2 S)` latches, state `s` is code `s` (the initial state 0, so
//!   the reset is all-zero); unused codes are don't-cares. Each output is chosen within the
//!   machine's relation over (latches, inputs), one output at a time, so the freedom the
//!   strategy leaves is used across states.
//! * One-hot encoding: a latch per state, the initial state's stored negated (so that all-zero
//!   is the initial state); the output and next-state logic is an OR over states of "active
//!   and a function of the inputs".
//!
//! Logic: an irredundant sum of products between the function's bounds
//! ([`Manager::isop`]), factored by its most frequent literal (`factor`); or the BDD of
//! Coudert and Madre's restrict to the care set, one multiplexer per node (`muxes`). Both
//! go through the AIG's structural hashing.

use crate::aig::{factor, not, Aig, Lit, FALSE, TRUE};
use crate::bdd::{Bdd, Cube, FxMap, Manager};
use crate::mealy::Mealy;
use crate::spec::Spec;

/// How states become latches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// `ceil(log2 S)` latches.
    Binary,
    /// One latch per state.
    OneHot,
}

/// How functions become gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logic {
    /// Irredundant sum of products, factored.
    Isop,
    /// One multiplexer per BDD node.
    Ite,
}

/// Variables of the encoding's BDD manager: latches first, then the propositions in the
/// spec's order (which keeps each output near the inputs it follows, as the file has them).
struct Vars {
    latches: u32,
    /// The variable of each input, in input order.
    inputs: Vec<u32>,
    /// The variable of each output, in output order.
    outputs: Vec<u32>,
}

/// Copies `f` of `src` into `dst`, variable `v` renamed `map[v]`.
fn transfer(
    src: &Manager,
    dst: &mut Manager,
    f: Bdd,
    map: &[u32],
    memo: &mut FxMap<Bdd, Bdd>,
) -> Bdd {
    if f.is_const() {
        return f;
    }
    if let Some(&r) = memo.get(&f) {
        return r;
    }
    let v = src.var(f).expect("an inner node");
    let (lo, hi) = src.children(f);
    let lo = transfer(src, dst, lo, map, memo);
    let hi = transfer(src, dst, hi, map, memo);
    let x = dst.ithvar(map[v as usize]);
    let r = dst.ite(x, hi, lo);
    memo.insert(f, r);
    r
}

/// The machine's functions in a fresh manager (variables as [`Vars`]).
struct Moved {
    m: Manager,
    vars: Vars,
    relation: Vec<Bdd>,
    next: Vec<Vec<(Bdd, u32)>>,
}

fn move_machine(spec: &Spec, machine: &Mealy, latches: u32) -> Moved {
    let var = |a: usize| latches + a as u32;
    let vars = Vars {
        latches,
        inputs: spec.inputs.iter().map(|&a| var(a)).collect(),
        outputs: spec.outputs.iter().map(|&a| var(a)).collect(),
    };
    let map: Vec<u32> = (0..spec.automaton.aps.len()).map(var).collect();
    let mut m = Manager::with_limit(crate::spec::MAX_BDD_NODES);
    let mut memo = FxMap::default();
    let mut relation = Vec::new();
    let mut next = Vec::new();
    for s in &machine.states {
        relation.push(transfer(&spec.bdd, &mut m, s.relation, &map, &mut memo));
        next.push(
            s.next
                .iter()
                .map(|&(i, t)| (transfer(&spec.bdd, &mut m, i, &map, &mut memo), t))
                .collect(),
        );
    }
    Moved {
        m,
        vars,
        relation,
        next,
    }
}

/// Builds AIG logic for BDDs of one manager, memoised by node.
struct Builder<'a> {
    aig: &'a mut Aig,
    /// The AIG literal of each BDD variable.
    var_lit: Vec<Lit>,
    memo: FxMap<Bdd, Lit>,
}

impl Builder<'_> {
    /// One multiplexer per BDD node.
    fn muxes(&mut self, m: &Manager, f: Bdd) -> Lit {
        if f == Bdd::FALSE {
            return FALSE;
        }
        if f == Bdd::TRUE {
            return TRUE;
        }
        if let Some(&l) = self.memo.get(&f) {
            return l;
        }
        let v = m.var(f).expect("an inner node");
        let (lo, hi) = m.children(f);
        let x = self.var_lit[v as usize];
        let lo = self.muxes(m, lo);
        let hi = self.muxes(m, hi);
        let l = self.aig.mux(x, hi, lo);
        self.memo.insert(f, l);
        l
    }

    /// A function between `lower` and `upper` in the chosen logic style.
    fn function(&mut self, m: &mut Manager, lower: Bdd, upper: Bdd, logic: Logic) -> (Bdd, Lit) {
        match logic {
            Logic::Isop => {
                let (f, cubes) = m.isop(lower, upper);
                let cubes: Vec<Vec<Lit>> = cubes
                    .iter()
                    .map(|c: &Cube| {
                        c.iter()
                            .map(|&(v, p)| self.var_lit[v as usize] ^ u32::from(!p))
                            .collect()
                    })
                    .collect();
                (f, factor(self.aig, cubes))
            }
            Logic::Ite => {
                let outside = m.not(upper);
                let care = m.or(lower, outside);
                let f = m.restrict(lower, care);
                (f, self.muxes(m, f))
            }
        }
    }
}

/// The circuit of `machine` in `encoding` and `logic` (module docs).
pub(crate) fn encode(spec: &Spec, machine: &Mealy, encoding: Encoding, logic: Logic) -> Aig {
    let states = machine.states.len() as u32;
    let latches = match encoding {
        _ if states == 1 => 0,
        Encoding::Binary => 32 - (states - 1).leading_zeros(),
        Encoding::OneHot => states,
    };
    // One-hot logic is built per state: its latches are no BDD variables.
    let bdd_latches = if encoding == Encoding::Binary {
        latches
    } else {
        0
    };
    let mut moved = move_machine(spec, machine, bdd_latches);
    let mut aig = Aig::new(moved.vars.inputs.len() as u32, latches);
    for (k, &a) in spec.inputs.iter().enumerate() {
        aig.input_names[k] = spec.automaton.aps[a].clone();
    }
    aig.output_names = spec
        .outputs
        .iter()
        .map(|&a| spec.automaton.aps[a].clone())
        .collect();
    let mut var_lit: Vec<Lit> = (0..bdd_latches).map(|k| aig.latch(k)).collect();
    var_lit.resize((bdd_latches as usize) + spec.automaton.aps.len(), FALSE);
    for (k, &v) in moved.vars.inputs.iter().enumerate() {
        var_lit[v as usize] = aig.input(k as u32);
    }
    let mut b = Builder {
        aig: &mut aig,
        var_lit,
        memo: FxMap::default(),
    };
    match encoding {
        Encoding::OneHot if states > 1 => one_hot(&mut moved, &mut b, logic),
        _ => binary(&mut moved, &mut b, logic),
    }
    aig.cleanup();
    aig
}

/// The binary encoding (module docs).
fn binary(moved: &mut Moved, b: &mut Builder, logic: Logic) {
    let m = &mut moved.m;
    let bits = moved.vars.latches;
    let codes: Vec<Bdd> = (0..moved.relation.len() as u32)
        .map(|s| {
            (0..bits).fold(Bdd::TRUE, |c, k| {
                let l = m.literal(k, s >> k & 1 == 1);
                m.and(c, l)
            })
        })
        .collect();
    let mut care = Bdd::FALSE;
    let mut relation = Bdd::FALSE;
    for (s, &code) in codes.iter().enumerate() {
        care = m.or(care, code);
        let r = m.and(code, moved.relation[s]);
        relation = m.or(relation, r);
    }
    let dont_care = m.not(care);
    relation = m.or(relation, dont_care);
    // Outputs, one at a time within the relation.
    let outputs: Vec<u32> = moved.vars.outputs.clone();
    let mut rest = outputs.iter().fold(0u128, |s, &v| s | 1 << v);
    for &o in &outputs {
        rest &= !(1 << o);
        let r1 = m.cofactor(relation, o, true);
        let r0 = m.cofactor(relation, o, false);
        let can1 = m.exists(r1, rest);
        let can0 = m.exists(r0, rest);
        let must1 = m.not(can0);
        let (f, lit) = b.function(m, must1, can1, logic);
        relation = m.ite(f, r1, r0);
        b.aig.outputs.push(lit);
    }
    for k in 0..bits {
        let mut on = Bdd::FALSE;
        for (s, next) in moved.next.iter().enumerate() {
            for &(inputs, t) in next {
                if t >> k & 1 == 1 {
                    let x = m.and(codes[s], inputs);
                    on = m.or(on, x);
                }
            }
        }
        let upper = m.or(on, dont_care);
        let (_, lit) = b.function(m, on, upper, logic);
        b.aig.latch_next[k as usize] = lit;
    }
}

/// The one-hot encoding (module docs).
fn one_hot(moved: &mut Moved, b: &mut Builder, logic: Logic) {
    let m = &mut moved.m;
    let states = moved.relation.len();
    let active: Vec<Lit> = (0..states as u32)
        .map(|s| {
            let l = b.aig.latch(s);
            if s == 0 {
                not(l)
            } else {
                l
            }
        })
        .collect();
    let outputs: Vec<u32> = moved.vars.outputs.clone();
    let mut terms: Vec<Vec<Lit>> = vec![Vec::new(); outputs.len()];
    for (s, &here) in active.iter().enumerate() {
        let mut relation = moved.relation[s];
        let mut rest = outputs.iter().fold(0u128, |x, &v| x | 1 << v);
        for (j, &o) in outputs.iter().enumerate() {
            rest &= !(1 << o);
            let r1 = m.cofactor(relation, o, true);
            let r0 = m.cofactor(relation, o, false);
            let can1 = m.exists(r1, rest);
            let can0 = m.exists(r0, rest);
            let must1 = m.not(can0);
            let (f, lit) = b.function(m, must1, can1, logic);
            relation = m.ite(f, r1, r0);
            let t = b.aig.and(here, lit);
            terms[j].push(t);
        }
    }
    for t in terms {
        let l = b.aig.or_all(&t);
        b.aig.outputs.push(l);
    }
    let mut into: Vec<Vec<Lit>> = vec![Vec::new(); states];
    for (s, next) in moved.next.iter().enumerate() {
        for &(inputs, t) in next {
            let (_, lit) = b.function(m, inputs, inputs, logic);
            let x = b.aig.and(active[s], lit);
            into[t as usize].push(x);
        }
    }
    for (t, from) in into.iter().enumerate() {
        let l = b.aig.or_all(from);
        b.aig.latch_next[t] = if t == 0 { not(l) } else { l };
    }
}

/// Every encoding and logic style, each resynthesised over cuts (`rewrite.rs`); the circuit
/// with the fewest ANDs + latches.
pub(crate) fn encode_best(spec: &Spec, machine: &Mealy) -> Aig {
    let mut best: Option<Aig> = None;
    for encoding in [Encoding::Binary, Encoding::OneHot] {
        for logic in [Logic::Isop, Logic::Ite] {
            let aig = crate::rewrite::optimise_rounds(&encode(spec, machine, encoding, logic), 4);
            let size = |a: &Aig| a.ands.len() + a.latch_next.len();
            if best.as_ref().is_none_or(|b| size(&aig) < size(b)) {
                best = Some(aig);
            }
        }
    }
    best.expect("four circuits")
}
