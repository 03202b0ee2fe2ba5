//! [`Aig`]: an and-inverter graph with latches, as AIGER describes circuits, built with
//! structural hashing and constant propagation (an AND of two known literals is made once; `x &
//! 0`, `x & 1`, `x & x` and `x & !x` make no gate).
//!
//! Literals are AIGER's: `2 * variable + negated`, variable 0 the constant false, so literal 0
//! is false and 1 true. Variables `1..=I` are the inputs, `I+1..=I+L` the latches, then the AND
//! gates in the order they were made (each after its operands, as AIGER's binary format needs).

use crate::bdd::FxMap;

/// An AIGER literal.
pub type Lit = u32;

/// The constant false literal.
pub const FALSE: Lit = 0;
/// The constant true literal.
pub const TRUE: Lit = 1;

/// The negation of a literal.
#[inline]
pub fn not(l: Lit) -> Lit {
    l ^ 1
}

/// A sequential circuit: inputs, latches (reset 0 unless [`Aig::latch_reset`] says 1), outputs,
/// AND gates, and the names of inputs, latches and outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aig {
    /// The number of inputs.
    pub inputs: u32,
    /// The next-state literal of each latch.
    pub latch_next: Vec<Lit>,
    /// The reset value of each latch (AIGER 1.9; `false` everywhere for what zermelo writes).
    pub latch_reset: Vec<bool>,
    /// The output literals.
    pub outputs: Vec<Lit>,
    /// The AND gates' operands, gate `k` being variable `inputs + latches + 1 + k`.
    pub ands: Vec<(Lit, Lit)>,
    /// Input names (symbol table), possibly empty strings.
    pub input_names: Vec<String>,
    /// Latch names, possibly empty strings.
    pub latch_names: Vec<String>,
    /// Output names, possibly empty strings.
    pub output_names: Vec<String>,
    hash: FxMap<(Lit, Lit), Lit>,
}

impl Aig {
    /// A circuit with `inputs` inputs and `latches` latches (next state false until set), no
    /// gates, no outputs.
    pub fn new(inputs: u32, latches: u32) -> Aig {
        Aig {
            inputs,
            latch_next: vec![FALSE; latches as usize],
            latch_reset: vec![false; latches as usize],
            input_names: vec![String::new(); inputs as usize],
            latch_names: vec![String::new(); latches as usize],
            ..Aig::default()
        }
    }

    /// The literal of input `k`.
    pub fn input(&self, k: u32) -> Lit {
        2 * (k + 1)
    }

    /// The literal of latch `k`.
    pub fn latch(&self, k: u32) -> Lit {
        2 * (self.inputs + k + 1)
    }

    /// The number of latches.
    pub fn latch_count(&self) -> u32 {
        self.latch_next.len() as u32
    }

    /// The first AND gate's variable.
    pub fn first_and(&self) -> u32 {
        self.inputs + self.latch_count() + 1
    }

    /// The highest variable index (AIGER's M).
    pub fn max_var(&self) -> u32 {
        self.first_and() - 1 + self.ands.len() as u32
    }

    /// `a & b`.
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = if a >= b { (a, b) } else { (b, a) };
        if b == FALSE || a == not(b) {
            return FALSE;
        }
        if b == TRUE || a == b {
            return a;
        }
        if let Some(&l) = self.hash.get(&(a, b)) {
            return l;
        }
        let l = 2 * (self.first_and() + self.ands.len() as u32);
        self.ands.push((a, b));
        self.hash.insert((a, b), l);
        l
    }

    /// `a | b`.
    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        not(self.and(not(a), not(b)))
    }

    /// `if c then t else e`.
    pub fn mux(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        if t == e {
            return t;
        }
        if t == not(e) {
            // c ? t : !t is c == t: two gates as an XNOR would take three.
            let x = self.and(c, t);
            let y = self.and(not(c), not(t));
            return self.or(x, y);
        }
        let x = self.and(c, t);
        let y = self.and(not(c), e);
        self.or(x, y)
    }

    /// The AND of all `lits`, as a balanced tree.
    pub fn and_all(&mut self, lits: &[Lit]) -> Lit {
        match lits {
            [] => TRUE,
            [l] => *l,
            _ => {
                let (a, b) = lits.split_at(lits.len() / 2);
                let x = self.and_all(a);
                let y = self.and_all(b);
                self.and(x, y)
            }
        }
    }

    /// The OR of all `lits`, as a balanced tree.
    pub fn or_all(&mut self, lits: &[Lit]) -> Lit {
        let negated: Vec<Lit> = lits.iter().map(|&l| not(l)).collect();
        not(self.and_all(&negated))
    }

    /// Drops the gates no output or latch needs and the latches no output needs (through
    /// other latches), renumbering the rest in order.
    pub fn cleanup(&mut self) {
        let first = self.first_and();
        let latches = self.latch_count();
        // The latches an output depends on, transitively.
        let mut needed_latch = vec![false; latches as usize];
        let mut needed_gate = vec![false; self.ands.len()];
        let mut stack: Vec<Lit> = self.outputs.clone();
        while let Some(l) = stack.pop() {
            let v = l >> 1;
            if v >= first {
                let g = (v - first) as usize;
                if !needed_gate[g] {
                    needed_gate[g] = true;
                    stack.extend([self.ands[g].0, self.ands[g].1]);
                }
            } else if v > self.inputs {
                let k = (v - self.inputs - 1) as usize;
                if !needed_latch[k] {
                    needed_latch[k] = true;
                    stack.push(self.latch_next[k]);
                }
            }
        }
        let kept_latches: Vec<usize> = (0..latches as usize).filter(|&k| needed_latch[k]).collect();
        let mut out = Aig::new(self.inputs, kept_latches.len() as u32);
        out.input_names = self.input_names.clone();
        let mut map: Vec<Lit> = vec![FALSE; (self.max_var() + 1) as usize];
        for k in 0..self.inputs {
            map[(k + 1) as usize] = out.input(k);
        }
        for (j, &k) in kept_latches.iter().enumerate() {
            map[(self.inputs + 1) as usize + k] = out.latch(j as u32);
            out.latch_names[j] = self.latch_names[k].clone();
            out.latch_reset[j] = self.latch_reset[k];
        }
        let tr = |map: &[Lit], l: Lit| map[(l >> 1) as usize] ^ (l & 1);
        for (g, &(a, b)) in self.ands.iter().enumerate() {
            if needed_gate[g] {
                map[first as usize + g] = out.and(tr(&map, a), tr(&map, b));
            }
        }
        for (j, &k) in kept_latches.iter().enumerate() {
            out.latch_next[j] = tr(&map, self.latch_next[k]);
        }
        out.outputs = self.outputs.iter().map(|&l| tr(&map, l)).collect();
        out.output_names = self.output_names.clone();
        *self = out;
    }

    /// Evaluates the circuit for 64 input vectors at once: `inputs[k]` has bit `j` for input
    /// `k` of vector `j`; `latches` likewise. Returns the outputs' and the next latches' words.
    pub fn simulate(&self, inputs: &[u64], latches: &[u64]) -> (Vec<u64>, Vec<u64>) {
        let mut value = vec![0u64; (self.max_var() + 1) as usize];
        value[1..=self.inputs as usize].copy_from_slice(inputs);
        let l0 = self.inputs as usize + 1;
        value[l0..l0 + latches.len()].copy_from_slice(latches);
        let first = self.first_and() as usize;
        let lit = |value: &[u64], l: Lit| {
            let v = value[(l >> 1) as usize];
            if l & 1 == 1 {
                !v
            } else {
                v
            }
        };
        for (g, &(a, b)) in self.ands.iter().enumerate() {
            value[first + g] = lit(&value, a) & lit(&value, b);
        }
        let outs = self.outputs.iter().map(|&l| lit(&value, l)).collect();
        let next = self.latch_next.iter().map(|&l| lit(&value, l)).collect();
        (outs, next)
    }

    /// Rebuilds the structural hash after the gates were set from outside (a reader).
    pub(crate) fn rehash(&mut self) {
        let first = self.first_and();
        self.hash = self
            .ands
            .iter()
            .enumerate()
            .map(|(g, &(a, b))| {
                let key = if a >= b { (a, b) } else { (b, a) };
                (key, 2 * (first + g as u32))
            })
            .collect();
    }
}

/// A sum of products as gates: the most frequent literal factored out, recursively.
pub(crate) fn factor(aig: &mut Aig, mut cubes: Vec<Vec<Lit>>) -> Lit {
    if cubes.is_empty() {
        return FALSE;
    }
    if cubes.iter().any(|c| c.is_empty()) {
        return TRUE;
    }
    if cubes.len() == 1 {
        return aig.and_all(&cubes[0]);
    }
    let mut count: FxMap<Lit, u32> = FxMap::default();
    for c in &cubes {
        for &l in c {
            *count.entry(l).or_insert(0) += 1;
        }
    }
    let (&best, &n) = count
        .iter()
        .max_by_key(|&(&l, &n)| (n, std::cmp::Reverse(l)))
        .expect("cubes have literals");
    if n == 1 {
        let terms: Vec<Lit> = cubes.iter().map(|c| aig.and_all(c)).collect();
        return aig.or_all(&terms);
    }
    let (with, without): (Vec<_>, Vec<_>) = cubes.drain(..).partition(|c| c.contains(&best));
    let quotient: Vec<Vec<Lit>> = with
        .into_iter()
        .map(|c| c.into_iter().filter(|&l| l != best).collect())
        .collect();
    let q = factor(aig, quotient);
    let a = aig.and(best, q);
    let r = factor(aig, without);
    aig.or(a, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashing_and_constants_make_no_needless_gate() {
        let mut a = Aig::new(2, 0);
        let (x, y) = (a.input(0), a.input(1));
        assert_eq!(a.and(x, FALSE), FALSE);
        assert_eq!(a.and(x, TRUE), x);
        assert_eq!(a.and(x, x), x);
        assert_eq!(a.and(x, not(x)), FALSE);
        let g = a.and(x, y);
        assert_eq!(a.and(y, x), g);
        assert_eq!(a.ands.len(), 1);
        let m = a.mux(x, y, not(y));
        a.outputs = vec![m, g];
        let (outs, _) = a.simulate(&[0b1100, 0b1010], &[]);
        assert_eq!(outs[0] & 0b1111, 0b1001); // x == y
        assert_eq!(outs[1] & 0b1111, 0b1000);
    }

    #[test]
    fn cleanup_drops_dead_gates_and_latches() {
        let mut a = Aig::new(1, 2);
        let (x, l0, l1) = (a.input(0), a.latch(0), a.latch(1));
        let dead = a.and(x, l1);
        a.latch_next[1] = dead;
        let live = a.and(x, l0);
        a.latch_next[0] = not(live);
        a.outputs = vec![live];
        a.cleanup();
        assert_eq!((a.latch_count(), a.ands.len()), (1, 1));
        // Input 1, latch 2, the gate 3.
        assert_eq!(a.outputs, vec![6]);
    }
}
