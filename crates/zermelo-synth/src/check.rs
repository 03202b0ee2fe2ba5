//! The closed-loop check: a circuit composed with the specification's automaton, against every
//! input sequence ([`check_closed_loop`]).
//!
//! A state of the product is (automaton state, latch values), starting from the start state
//! and the latches' reset values. In each product state the circuit is simulated over BDDs:
//! the inputs are BDD variables (the spec's own, one per proposition), the latches constants,
//! so each output and next latch is a function of the inputs. A transition's label with its
//! output propositions replaced by those functions is the set of inputs that take it; split by
//! the next latches' values, it gives the product's successors, each with an input that leads
//! there (no input valuation is enumerated). Then every cycle of the reachable product must
//! have an even highest priority: for each odd priority `p`, no strongly connected component
//! of the edges of priority `<= p` may hold an edge of priority `p` (Tarjan, O(V + E) per odd
//! priority). A violation is returned as a lasso: a path from the start to the cycle, and the
//! cycle.
//!
//! Nothing here comes from the synthesis: the circuit is read from its file, and the automaton
//! from the spec; the BDD package is shared.

use std::collections::VecDeque;

use zermelo::io::{ErrorKind, ParseError};
use zermelo_parity::Priority;

use crate::aig::{Aig, Lit};
use crate::bdd::{Bdd, FxMap, Manager};
use crate::spec::{label_bdd, Spec, Var};

/// The most product states explored.
pub const MAX_PRODUCT_STATES: usize = 1 << 22;

/// One step of a counterexample: in automaton state `state` with latch values `latches`, the
/// environment gives `inputs`, the circuit answers `outputs`, and the automaton takes
/// transition `edge` of `state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The automaton state.
    pub state: u32,
    /// The latch values.
    pub latches: Vec<bool>,
    /// The input propositions' values (bit `a` for proposition `a`).
    pub inputs: u64,
    /// The output propositions' values (bit `a` for proposition `a`).
    pub outputs: u64,
    /// The transition taken (its index among the state's transitions).
    pub edge: usize,
    /// Its priority (zermelo's max-even convention).
    pub priority: Priority,
}

/// A run the circuit lets the environment force that the automaton rejects: `prefix`, then
/// `cycle` forever.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    /// From the start to the cycle.
    pub prefix: Vec<Step>,
    /// The cycle (its highest priority is odd).
    pub cycle: Vec<Step>,
}

/// The answer of the closed-loop check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every run is accepted.
    Correct {
        /// Reachable product states.
        states: usize,
        /// Product edges (state, transition, next latch values).
        edges: usize,
    },
    /// A rejected run.
    Wrong(Lasso),
}

/// One edge of the product.
struct Edge {
    to: u32,
    edge: u32,
    priority: Priority,
    inputs: u64,
}

/// Composes `aig` with `spec`'s automaton and checks every run (module docs). `source` names
/// the circuit in messages.
///
/// # Errors
/// [`ParseError`] when the circuit's inputs or outputs do not match the spec's propositions,
/// "too big" past [`MAX_PRODUCT_STATES`] or the BDD node limit.
pub fn check_closed_loop(spec: &mut Spec, aig: &Aig, source: &str) -> Result<Verdict, ParseError> {
    let (input_ap, output_pos) = match_ports(spec, aig, source)?;
    let latches = aig.latch_count() as usize;
    let mut index: FxMap<(u32, Vec<bool>), u32> = FxMap::default();
    let mut states: Vec<(u32, Vec<bool>)> = vec![(spec.start, aig.latch_reset.clone())];
    index.insert(states[0].clone(), 0);
    let mut edges: Vec<Vec<Edge>> = Vec::new();
    let mut m = Manager::with_limit(crate::spec::MAX_BDD_NODES);
    let mut at = 0;
    while at < states.len() {
        let (q, values) = states[at].clone();
        at += 1;
        let (outs, next) = simulate(&mut m, aig, &input_ap, &values);
        let output_of = |a: usize| output_pos.iter().position(|&p| p == a);
        let mut out_edges = Vec::new();
        for (k, t) in spec.automaton.states[q as usize].edges.iter().enumerate() {
            let taken = label_bdd(&mut m, &t.label, &|a| match output_of(a) {
                Some(j) => Var::Function(outs[j]),
                None => Var::Ap(a as u32),
            });
            let mut split = Vec::new();
            if taken != Bdd::FALSE {
                split.push((taken, Vec::with_capacity(latches)));
            }
            for &n in &next {
                let mut more = Vec::with_capacity(split.len() * 2);
                for (f, bits) in split {
                    let on = m.and(f, n);
                    let off = m.diff(f, n);
                    for (g, b) in [(off, false), (on, true)] {
                        if g != Bdd::FALSE {
                            let mut bits = bits.clone();
                            bits.push(b);
                            more.push((g, bits));
                        }
                    }
                }
                split = more;
            }
            for (f, bits) in split {
                let key = (t.target, bits);
                let fresh = states.len() as u32;
                let to = *index.entry(key.clone()).or_insert(fresh);
                if to == fresh {
                    states.push(key);
                }
                let inputs = m.sat_one(f).unwrap_or(0) as u64;
                out_edges.push(Edge {
                    to,
                    edge: k as u32,
                    priority: spec.priority(q as usize, k),
                    inputs,
                });
            }
            if m.overflowed() {
                return Err(too_big(source, "BDD nodes", crate::spec::MAX_BDD_NODES));
            }
        }
        if states.len() > MAX_PRODUCT_STATES {
            return Err(too_big(source, "product states", MAX_PRODUCT_STATES));
        }
        edges.push(out_edges);
    }
    let count = edges.iter().map(Vec::len).sum();
    match bad_cycle(&edges) {
        None => Ok(Verdict::Correct {
            states: states.len(),
            edges: count,
        }),
        Some((prefix, cycle)) => {
            let step = |&(u, e): &(u32, usize)| {
                let (q, ref values) = states[u as usize];
                let edge = &edges[u as usize][e];
                Step {
                    state: q,
                    latches: values.clone(),
                    inputs: edge.inputs,
                    outputs: outputs_at(aig, &input_ap, &output_pos, values, edge.inputs),
                    edge: edge.edge as usize,
                    priority: edge.priority,
                }
            };
            Ok(Verdict::Wrong(Lasso {
                prefix: prefix.iter().map(step).collect(),
                cycle: cycle.iter().map(step).collect(),
            }))
        }
    }
}

fn too_big(source: &str, what: &str, limit: usize) -> ParseError {
    ParseError::whole(
        source,
        format!(
            "the closed loop needs more than {limit} {what} (MAX_PRODUCT_STATES, MAX_BDD_NODES)"
        ),
    )
    .with_kind(ErrorKind::TooBig)
}

/// The spec proposition of each circuit input, and the spec proposition of each circuit
/// output: by the symbol table's names when every port has one, else in order.
fn match_ports(
    spec: &Spec,
    aig: &Aig,
    source: &str,
) -> Result<(Vec<usize>, Vec<usize>), ParseError> {
    let names = &spec.automaton.aps;
    let ports = |what: &str, circuit: &[String], spec_aps: &[usize]| {
        let listed: Vec<&str> = spec_aps.iter().map(|&a| names[a].as_str()).collect();
        if circuit.len() != spec_aps.len() {
            return Err(ParseError::whole(
                source,
                format!(
                    "the circuit has {} {what}s, the spec {} ({})",
                    circuit.len(),
                    spec_aps.len(),
                    listed.join(", ")
                ),
            ));
        }
        if circuit.iter().any(String::is_empty) {
            return Ok(spec_aps.to_vec());
        }
        circuit
            .iter()
            .map(|n| {
                let k = listed.iter().position(|l| l == n).ok_or_else(|| {
                    ParseError::whole(
                        source,
                        format!(
                            "{what} {n:?} is not one of the spec's {what}s ({})",
                            listed.join(", ")
                        ),
                    )
                })?;
                Ok(spec_aps[k])
            })
            .collect::<Result<Vec<usize>, ParseError>>()
            .and_then(|aps| {
                let mut sorted = aps.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() == aps.len() {
                    Ok(aps)
                } else {
                    Err(ParseError::whole(
                        source,
                        format!("an {what} name appears twice"),
                    ))
                }
            })
    };
    let inputs = ports("input", &aig.input_names, &spec.inputs)?;
    let outputs = ports("output", &aig.output_names, &spec.outputs)?;
    Ok((inputs, outputs))
}

/// The outputs' and next latches' functions of the inputs, for latch values `values`.
fn simulate(
    m: &mut Manager,
    aig: &Aig,
    input_ap: &[usize],
    values: &[bool],
) -> (Vec<Bdd>, Vec<Bdd>) {
    let mut value: Vec<Bdd> = Vec::with_capacity((aig.max_var() + 1) as usize);
    value.push(Bdd::FALSE);
    for &a in input_ap {
        value.push(m.ithvar(a as u32));
    }
    value.extend(
        values
            .iter()
            .map(|&b| if b { Bdd::TRUE } else { Bdd::FALSE }),
    );
    let lit = |m: &mut Manager, value: &[Bdd], l: Lit| {
        let f = value[(l >> 1) as usize];
        if l & 1 == 1 {
            m.not(f)
        } else {
            f
        }
    };
    for &(a, b) in &aig.ands {
        let x = lit(m, &value, a);
        let y = if x == Bdd::FALSE {
            x
        } else {
            lit(m, &value, b)
        };
        let g = m.and(x, y);
        value.push(g);
    }
    let outs = aig.outputs.iter().map(|&l| lit(m, &value, l)).collect();
    let next = aig.latch_next.iter().map(|&l| lit(m, &value, l)).collect();
    (outs, next)
}

/// The circuit's outputs (as a proposition valuation) for one input valuation.
fn outputs_at(
    aig: &Aig,
    input_ap: &[usize],
    output_pos: &[usize],
    values: &[bool],
    inputs: u64,
) -> u64 {
    let words: Vec<u64> = input_ap.iter().map(|&a| inputs >> a & 1).collect();
    let latch_words: Vec<u64> = values.iter().map(|&b| u64::from(b)).collect();
    let (outs, _) = aig.simulate(&words, &latch_words);
    outs.iter()
        .zip(output_pos)
        .fold(0, |v, (&o, &a)| v | (o & 1) << a)
}

/// A reachable cycle whose highest priority is odd, as (prefix, cycle) of (state, edge index).
#[allow(clippy::type_complexity)]
fn bad_cycle(edges: &[Vec<Edge>]) -> Option<(Vec<(u32, usize)>, Vec<(u32, usize)>)> {
    let mut odd: Vec<Priority> = edges
        .iter()
        .flatten()
        .map(|e| e.priority)
        .filter(|p| p % 2 == 1)
        .collect();
    odd.sort_unstable();
    odd.dedup();
    for &p in odd.iter().rev() {
        let component = tarjan(edges, p);
        for (u, out) in edges.iter().enumerate() {
            for (k, e) in out.iter().enumerate() {
                if e.priority == p && component[u] == component[e.to as usize] {
                    let back = path(edges, e.to, u as u32, |w, f| {
                        f.priority <= p && component[w as usize] == component[u]
                    })?;
                    let mut cycle = vec![(u as u32, k)];
                    cycle.extend(back);
                    let prefix = path(edges, 0, u as u32, |_, _| true)?;
                    return Some((prefix, cycle));
                }
            }
        }
    }
    None
}

/// A shortest path (breadth first) from `from` to `to` over the edges `allowed` keeps, as
/// (state, edge index) steps.
fn path(
    edges: &[Vec<Edge>],
    from: u32,
    to: u32,
    allowed: impl Fn(u32, &Edge) -> bool,
) -> Option<Vec<(u32, usize)>> {
    let mut parent: FxMap<u32, (u32, usize)> = FxMap::default();
    let mut queue = VecDeque::from([from]);
    let mut seen: FxMap<u32, ()> = FxMap::default();
    seen.insert(from, ());
    while let Some(u) = queue.pop_front() {
        if u == to {
            let mut steps = Vec::new();
            let mut w = to;
            while w != from {
                let (v, k) = parent[&w];
                steps.push((v, k));
                w = v;
            }
            steps.reverse();
            return Some(steps);
        }
        for (k, e) in edges[u as usize].iter().enumerate() {
            if allowed(e.to, e) && seen.insert(e.to, ()).is_none() {
                parent.insert(e.to, (u, k));
                queue.push_back(e.to);
            }
        }
    }
    None
}

/// The strongly connected components of the edges of priority `<= p` (iterative Tarjan):
/// a component id per state.
fn tarjan(edges: &[Vec<Edge>], p: Priority) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let n = edges.len();
    let mut number = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut component = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut counter = 0;
    let mut components = 0;
    for root in 0..n as u32 {
        if number[root as usize] != NONE {
            continue;
        }
        let mut calls: Vec<(u32, usize)> = vec![(root, 0)];
        number[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        while let Some(&mut (u, ref mut k)) = calls.last_mut() {
            let out = &edges[u as usize];
            if *k < out.len() {
                let e = &out[*k];
                *k += 1;
                if e.priority > p {
                    continue;
                }
                let w = e.to as usize;
                if number[w] == NONE {
                    number[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(e.to);
                    calls.push((e.to, 0));
                } else if component[w] == NONE {
                    low[u as usize] = low[u as usize].min(number[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[u as usize]);
            }
            if low[u as usize] == number[u as usize] {
                loop {
                    let w = stack.pop().expect("u is on the stack");
                    component[w as usize] = components;
                    if w == u {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}
