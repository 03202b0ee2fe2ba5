//! A stopper's simplest form printed as CGSuite prints it (notation.rs has the grammar):
//! short followers as short values, `on`, `off`, `xover`, `xunder`, switches `+-G`, `Tiny(G)`
//! and `Miny(G)` translated by a number, upon's and uponth's families (upon.rs), anything else
//! in braces with CGSuite's slashes, `pass` for a move to the node itself and a name `a:{...}`
//! for a node met again below itself. The order of the checks is CGSuite's
//! (`CanonicalStopper.appendTo`).

use std::collections::HashMap;
use std::fmt;

use super::stopper::node_value;
use super::upon::UponForm;
use super::{LoopyGraph, Stopper};
use crate::notation::Shown;
use crate::{Dyadic, Value};

impl fmt::Display for Stopper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.graph();
        let mut p = Printer {
            g,
            values: HashMap::new(),
            names: HashMap::new(),
            named: 0,
            stack: Vec::new(),
            self_negative: None,
        };
        f.write_str(&p.node(0).braced())
    }
}

struct Printer<'a> {
    g: &'a LoopyGraph,
    values: HashMap<u32, Option<Value>>,
    names: HashMap<u32, String>,
    named: usize,
    stack: Vec<u32>,
    /// Which nodes equal their own negatives, found when a switch is first looked for.
    self_negative: Option<Vec<bool>>,
}

impl Printer<'_> {
    fn value(&mut self, v: u32) -> Option<Value> {
        node_value(self.g, v, &mut self.values)
    }

    fn number(&mut self, v: u32) -> Option<Dyadic> {
        self.value(v).and_then(Value::as_number)
    }

    /// `on`, `off`, `xover`, `xunder`, if the node is one.
    fn special(&mut self, v: u32) -> Option<String> {
        let (l, r) = (self.g.left(v).to_vec(), self.g.right(v).to_vec());
        let pseudo = |x: Dyadic, what: &str| {
            if x == Dyadic::ZERO {
                what.to_string()
            } else {
                format!("{x}{what}")
            }
        };
        match (l.as_slice(), r.as_slice()) {
            ([a], []) if *a == v => Some("on".into()),
            ([], [b]) if *b == v => Some("off".into()),
            ([a], [b]) if *b == v && *a != v => self.number(*a).map(|x| pseudo(x, "over")),
            ([a], [b]) if *a == v && *b != v => self.number(*b).map(|x| pseudo(x, "under")),
            _ => None,
        }
    }

    /// `+-G` for `{G | -G}` with one option each side and no cycle through the node (which
    /// would need a name); CGSuite puts `G` in parentheses when it is a pseudonumber with its
    /// number (`+-(5over)`) or a `Tiny` or `Miny`.
    fn switch(&mut self, v: u32) -> Option<String> {
        let g = self.g;
        let ([l], [r]) = (g.left(v), g.right(v)) else {
            return None;
        };
        if *l == v || *r == v || g.reachable(&[*l, *r]).contains(&v) {
            return None;
        }
        let self_negative = self.self_negative.get_or_insert_with(|| self_negative(g));
        if !self_negative[v as usize] {
            return None;
        }
        let parens = matches!(self.special(*l).as_deref(),
            Some(s) if !matches!(s, "on" | "off" | "over" | "under"))
            || self.tiny(*l).is_some();
        let option = self.node(*l).braced();
        Some(if parens {
            format!("+-({option})")
        } else {
            format!("+-{option}")
        })
    }

    /// CGSuite's `xTiny(G) = x + {0||0|-G}` and `xMiny(G) = x + {G|0||0}` for a number `x`
    /// and `G >= over`, in a game whose only cycles are passes (a plumtree): `{0||0|off}` is
    /// `Tiny(on)`, `{on|0||0}` is `Miny(on)`.
    fn tiny(&mut self, v: u32) -> Option<String> {
        let g = self.g;
        let ([l], [r]) = (g.left(v), g.right(v)) else {
            return None;
        };
        let (word, x, a, z) = if let Some(x) = self.number(*l) {
            let ([a], [z]) = (g.left(*r), g.right(*r)) else {
                return None;
            };
            ("Tiny", x, *a, *z)
        } else {
            let x = self.number(*r)?;
            let ([z], [a]) = (g.left(*l), g.right(*l)) else {
                return None;
            };
            ("Miny", x, *a, *z)
        };
        if self.number(a) != Some(x) || !passes_are_the_only_cycles(g, v) {
            return None;
        }
        // Tiny's subscript is x - z, Miny's z - x: at least over.
        let z_minus_x = Stopper::new(g, z)
            .ok()?
            .add(&Stopper::from_value(Value::number(-x)).ok()?)
            .ok()?;
        let sub = if word == "Tiny" {
            z_minus_x.negated()
        } else {
            z_minus_x
        };
        if !over().leq(&sub).ok()? {
            return None;
        }
        let translate = if x == Dyadic::ZERO {
            String::new()
        } else {
            x.to_string()
        };
        Some(format!("{translate}{word}({sub})"))
    }

    fn node(&mut self, v: u32) -> Shown {
        if let Some(x) = self.value(v) {
            return x.shown();
        }
        if let Some(s) = self.special(v) {
            return Shown::atom(s);
        }
        if let Some(s) = self.switch(v).or_else(|| self.tiny(v)) {
            return Shown::atom(s);
        }
        let g = self.g;
        if let Some(form) = UponForm::of(g, v, |w| self.value(w)) {
            return Shown::atom(form.to_string());
        }
        if self.stack.contains(&v) {
            if let Some(name) = self.names.get(&v) {
                return Shown::atom(name.clone());
            }
            let name = name_of(self.named);
            self.named += 1;
            self.names.insert(v, name.clone());
            return Shown::atom(name);
        }
        self.stack.push(v);
        let mut sides = [Vec::new(), Vec::new()];
        for (side, left) in [(0, true), (1, false)] {
            for &w in self.g.options(v, left) {
                let shown = if w == v {
                    Shown::atom("pass".into())
                } else {
                    self.node(w)
                };
                sides[side].push(shown);
            }
        }
        self.stack.pop();
        let [l, r] = sides;
        let body = Shown::options(l, r);
        // `pass` is the game at its own bars, so a node with it needs no braces of its own.
        match self.names.remove(&v) {
            Some(name) => Shown::atom(format!("{name}:{}", body.braced())),
            None => body,
        }
    }
}

/// `over = {0|pass}`.
fn over() -> Stopper {
    let mut g = LoopyGraph::new();
    let (top, zero) = (g.add_node(), g.add_node());
    g.add_left(top, zero);
    g.add_right(top, top);
    Stopper::new(&g, top).expect("over is a stopper")
}

/// For each node of a simplest form, whether it equals its own negative: whether it is
/// bisimilar to its copy in the negated graph (partition refinement of the two graphs side by
/// side). Equal simplest forms are isomorphic (Siegel, *Combinatorial Game Theory* VI.3), and
/// isomorphic graphs are bisimilar; bisimilar games are equal. O(rounds x moves).
fn self_negative(g: &LoopyGraph) -> Vec<bool> {
    let n = g.node_count();
    let both = g.union(&g.negated());
    let mut class = vec![0u32; 2 * n];
    let mut classes = 1;
    loop {
        let mut ids: HashMap<(u32, Vec<u32>, Vec<u32>), u32> = HashMap::new();
        let next: Vec<u32> = (0..2 * n as u32)
            .map(|v| {
                let of = |ws: &[u32]| {
                    let mut c: Vec<u32> = ws.iter().map(|&w| class[w as usize]).collect();
                    c.sort_unstable();
                    c.dedup();
                    c
                };
                let key = (class[v as usize], of(both.left(v)), of(both.right(v)));
                let id = ids.len() as u32;
                *ids.entry(key).or_insert(id)
            })
            .collect();
        class = next;
        if ids.len() == classes {
            break;
        }
        classes = ids.len();
    }
    (0..n).map(|v| class[v] == class[v + n]).collect()
}

/// Whether every cycle below `v` is a pass (CGSuite's plumtree: no longer cycle): the graph
/// below it without its passes is acyclic (Kahn's order reaches every node).
fn passes_are_the_only_cycles(g: &LoopyGraph, v: u32) -> bool {
    let h = g.restricted(v);
    let n = h.node_count();
    let moves = |u: u32| {
        h.left(u)
            .iter()
            .chain(h.right(u))
            .copied()
            .filter(move |&w| w != u)
    };
    let mut indegree = vec![0usize; n];
    for u in 0..n as u32 {
        for w in moves(u) {
            indegree[w as usize] += 1;
        }
    }
    let mut ready: Vec<u32> = (0..n as u32)
        .filter(|&u| indegree[u as usize] == 0)
        .collect();
    let mut seen = 0;
    while let Some(u) = ready.pop() {
        seen += 1;
        for w in moves(u) {
            indegree[w as usize] -= 1;
            if indegree[w as usize] == 0 {
                ready.push(w);
            }
        }
    }
    seen == n
}

/// `a`, `b`, ..., `z`, then `n27`, ... (never `v`, which is down).
fn name_of(i: usize) -> String {
    let letters: Vec<char> = ('a'..='z').filter(|&c| c != 'v').collect();
    match letters.get(i) {
        Some(c) => c.to_string(),
        None => format!("n{}", i + 2),
    }
}
