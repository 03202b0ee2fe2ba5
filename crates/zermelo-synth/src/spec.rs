//! [`Spec`]: an extended-HOA automaton checked for synthesis once, its labels as BDDs.
//!
//! A specification must be a deterministic, complete parity automaton with one start state and
//! at least one controllable proposition: every state has, for every valuation of the
//! propositions, exactly one transition. The checks run on BDDs (one variable per proposition,
//! numbered as in the file), so no check enumerates the `2^n` valuations; a counterexample
//! valuation is named in the message.

use zermelo::io::{ErrorKind, ParseError};
use zermelo_parity::io::{parse_automaton, Automaton, Label, ParityCondition};
use zermelo_parity::Priority;

use crate::bdd::{Bdd, Manager, VarSet};

/// The most BDD nodes a run makes (about 40 bytes each with the tables): past it, "too big".
pub const MAX_BDD_NODES: usize = 1 << 24;

/// A specification: a deterministic, complete parity automaton with inputs and outputs.
pub struct Spec {
    /// The automaton as written.
    pub automaton: Automaton,
    /// Its acceptance condition.
    pub parity: ParityCondition,
    /// The start state.
    pub start: u32,
    /// The environment's propositions (AP numbers, increasing).
    pub inputs: Vec<usize>,
    /// The controller's propositions (AP numbers, increasing).
    pub outputs: Vec<usize>,
    /// The source name, for messages.
    pub source: String,
    pub(crate) bdd: Manager,
    /// The label of every transition, by state then transition (BDD variable = AP number).
    pub(crate) labels: Vec<Vec<Bdd>>,
}

impl Spec {
    /// Parses and checks a specification (module docs).
    ///
    /// # Errors
    /// [`ParseError`] naming the file, the line and what was expected; "too big"
    /// ([`ErrorKind::TooBig`]) past [`MAX_AUTOMATON_APS`](zermelo_parity::io::MAX_AUTOMATON_APS)
    /// propositions or [`MAX_BDD_NODES`] BDD nodes.
    pub fn parse(bytes: &[u8], source: &str) -> Result<Spec, ParseError> {
        let automaton = parse_automaton(bytes, source)?;
        Spec::new(automaton, source)
    }

    /// Checks an automaton for synthesis (module docs).
    ///
    /// # Errors
    /// As [`Spec::parse`].
    pub fn new(automaton: Automaton, source: &str) -> Result<Spec, ParseError> {
        let whole = |m: String| ParseError::whole(source, m);
        let parity = automaton.parity.ok_or_else(|| {
            whole("no acc-name: header: expected a parity automaton (acc-name: parity max|min even|odd K)".into())
        })?;
        let start = automaton
            .start
            .ok_or_else(|| whole("no Start: header: expected one start state".into()))?;
        if automaton.controllable.is_empty() {
            return Err(whole(
                "no controllable propositions (controllable-AP: lists none): there is no \
                 controller to synthesize"
                    .into(),
            ));
        }
        let outputs = automaton.controllable.clone();
        let inputs = (0..automaton.aps.len())
            .filter(|a| !outputs.contains(a))
            .collect();
        let mut spec = Spec {
            parity,
            start,
            inputs,
            outputs,
            source: source.to_string(),
            bdd: Manager::with_limit(MAX_BDD_NODES),
            labels: Vec::new(),
            automaton,
        };
        spec.build_labels()?;
        Ok(spec)
    }

    /// The BDD variables of the outputs.
    pub(crate) fn output_vars(&self) -> VarSet {
        self.outputs.iter().fold(0, |s, &a| s | 1 << a)
    }

    /// The priority (zermelo's max-even convention) of taking transition `edge` of `state`:
    /// the higher of the state's and the transition's colours.
    pub fn priority(&self, state: usize, edge: usize) -> Priority {
        let s = &self.automaton.states[state];
        let own = self.parity.priority(s.edges[edge].colour);
        s.colour
            .map_or(own, |c| own.max(self.parity.priority(Some(c))))
    }

    /// The error of a BDD that outgrew [`MAX_BDD_NODES`].
    pub(crate) fn too_big(&self, what: &str) -> ParseError {
        ParseError::whole(
            &self.source,
            format!("{what} needs more than MAX_BDD_NODES = {MAX_BDD_NODES} BDD nodes"),
        )
        .with_kind(ErrorKind::TooBig)
    }

    /// `a=1 b=0 ...` for a valuation of the propositions.
    pub fn describe(&self, valuation: u64, which: &[usize]) -> String {
        let names = &self.automaton.aps;
        let parts: Vec<String> = which
            .iter()
            .map(|&a| format!("{}={}", names[a], valuation >> a & 1))
            .collect();
        parts.join(" ")
    }

    fn build_labels(&mut self) -> Result<(), ParseError> {
        let all: Vec<usize> = (0..self.automaton.aps.len()).collect();
        for (q, state) in self.automaton.states.iter().enumerate() {
            let mut labels = Vec::with_capacity(state.edges.len());
            let mut covered = Bdd::FALSE;
            for (k, edge) in state.edges.iter().enumerate() {
                let l = label_bdd(&mut self.bdd, &edge.label, &|a| Var::Ap(a as u32));
                let overlap = self.bdd.and(covered, l);
                if overlap != Bdd::FALSE && !self.bdd.overflowed() {
                    let v = self.bdd.sat_one(overlap).unwrap_or(0) as u64;
                    let other = (0..k)
                        .find(|&j| self.bdd.eval(labels[j], u128::from(v)))
                        .unwrap_or(0);
                    return Err(ParseError::at(
                        &self.source,
                        edge.line,
                        format!(
                            "state {q} is not deterministic: this transition and the one on \
                             line {} both hold for {}",
                            state.edges[other].line,
                            self.describe(v, &all)
                        ),
                    ));
                }
                covered = self.bdd.or(covered, l);
                labels.push(l);
            }
            if self.bdd.overflowed() {
                return Err(self.too_big("the labels"));
            }
            if covered != Bdd::TRUE {
                let missing = self.bdd.not(covered);
                let v = self.bdd.sat_one(missing).unwrap_or(0) as u64;
                return Err(ParseError::at(
                    &self.source,
                    state.line,
                    format!(
                        "state {q} is not complete: no transition for {}",
                        self.describe(v, &all)
                    ),
                ));
            }
            self.labels.push(labels);
        }
        Ok(())
    }
}

/// What a proposition of a label stands for when it is turned into a BDD.
pub(crate) enum Var {
    /// A BDD variable.
    Ap(u32),
    /// A function (a circuit's output, in the closed-loop check).
    Function(Bdd),
}

/// The BDD of a label, each proposition mapped by `var`.
pub(crate) fn label_bdd(m: &mut Manager, label: &Label, var: &dyn Fn(usize) -> Var) -> Bdd {
    match label {
        Label::Const(b) => {
            if *b {
                Bdd::TRUE
            } else {
                Bdd::FALSE
            }
        }
        Label::Ap(a) => match var(*a) {
            Var::Ap(v) => m.ithvar(v),
            Var::Function(f) => f,
        },
        Label::Not(l) => {
            let f = label_bdd(m, l, var);
            m.not(f)
        }
        Label::And(l, r) => {
            let f = label_bdd(m, l, var);
            if f == Bdd::FALSE {
                return f;
            }
            let g = label_bdd(m, r, var);
            m.and(f, g)
        }
        Label::Or(l, r) => {
            let f = label_bdd(m, l, var);
            if f == Bdd::TRUE {
                return f;
            }
            let g = label_bdd(m, r, var);
            m.or(f, g)
        }
    }
}
