//! A small reduced ordered BDD package: one [`Manager`] owns the nodes, a [`Bdd`] is an index
//! into it. Variable `v` sits at level `v` (the order is the numbering). Enough for synthesis:
//! the Boolean operations, existential quantification, cofactors, Coudert and Madre's restrict
//! (a smaller function that agrees on a care set), Minato and Morreale's irredundant
//! sum-of-products between two bounds ([`Manager::isop`]) and satisfying assignments.
//!
//! Nodes are never freed: a synthesis run builds its BDDs and drops the manager. The number of
//! nodes is bounded ([`Manager::with_limit`]): past the limit every new node is `false`, the
//! manager remembers that it overflowed, and the callers check [`Manager::overflowed`] before
//! they use a result, so a blow-up is an error ("too big"), never a run out of memory.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A BDD: a node of a [`Manager`] (compare two BDDs of one manager with `==`: canonical).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bdd(u32);

impl Bdd {
    /// The constant false.
    pub const FALSE: Bdd = Bdd(0);
    /// The constant true.
    pub const TRUE: Bdd = Bdd(1);

    /// Whether this is one of the two constants.
    pub fn is_const(self) -> bool {
        self.0 < 2
    }

    /// The node's index (stable for the manager's life, for memo tables keyed by node).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of variables, one bit per variable (at most [`MAX_VARS`]).
pub type VarSet = u128;

/// The most variables a manager has.
pub const MAX_VARS: u32 = 128;

/// The level of the constants: below every variable.
const CONST_LEVEL: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    var: u32,
    lo: Bdd,
    hi: Bdd,
}

/// A multiplicative hash (Fx): the tables are keyed by small integers.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// A hash map keyed by small integers.
pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Op {
    And,
    Or,
    Xor,
    Not,
    Ite,
    Restrict,
}

/// A cube of a sum-of-products cover: `(variable, polarity)` pairs, variables increasing.
pub type Cube = Vec<(u32, bool)>;

/// The owner of every node (module docs).
pub struct Manager {
    nodes: Vec<Node>,
    unique: FxMap<(u32, u32, u32), u32>,
    cache: FxMap<(Op, u32, u32, u32), u32>,
    limit: usize,
    overflowed: bool,
}

impl Default for Manager {
    fn default() -> Manager {
        Manager::with_limit(usize::MAX)
    }
}

impl Manager {
    /// A manager that makes at most `limit` nodes (then it overflows: module docs).
    pub fn with_limit(limit: usize) -> Manager {
        let constant = |b| Node {
            var: CONST_LEVEL,
            lo: Bdd(b),
            hi: Bdd(b),
        };
        Manager {
            nodes: vec![constant(0), constant(1)],
            unique: FxMap::default(),
            cache: FxMap::default(),
            limit,
            overflowed: false,
        }
    }

    /// Whether some operation needed more nodes than the limit (its result, and every result
    /// since, is meaningless).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The number of nodes made.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The top variable of `f` (`None` for a constant).
    pub fn var(&self, f: Bdd) -> Option<u32> {
        let v = self.nodes[f.index()].var;
        (v != CONST_LEVEL).then_some(v)
    }

    /// The else and then children of `f` (a constant is its own children).
    pub fn children(&self, f: Bdd) -> (Bdd, Bdd) {
        let n = self.nodes[f.index()];
        (n.lo, n.hi)
    }

    fn level(&self, f: Bdd) -> u32 {
        self.nodes[f.index()].var
    }

    fn mk(&mut self, var: u32, lo: Bdd, hi: Bdd) -> Bdd {
        if lo == hi {
            return lo;
        }
        if let Some(&n) = self.unique.get(&(var, lo.0, hi.0)) {
            return Bdd(n);
        }
        if self.nodes.len() >= self.limit {
            self.overflowed = true;
            return Bdd::FALSE;
        }
        let n = self.nodes.len() as u32;
        self.nodes.push(Node { var, lo, hi });
        self.unique.insert((var, lo.0, hi.0), n);
        Bdd(n)
    }

    /// The variable `v` as a function.
    pub fn ithvar(&mut self, v: u32) -> Bdd {
        assert!(v < MAX_VARS, "variable {v} beyond {MAX_VARS}");
        self.mk(v, Bdd::FALSE, Bdd::TRUE)
    }

    /// `v` if `positive`, else `!v`.
    pub fn literal(&mut self, v: u32, positive: bool) -> Bdd {
        let x = self.ithvar(v);
        if positive {
            x
        } else {
            self.not(x)
        }
    }

    /// The cofactors of `f` by the variable at level `top`.
    fn split(&self, f: Bdd, top: u32) -> (Bdd, Bdd) {
        let n = self.nodes[f.index()];
        if n.var == top {
            (n.lo, n.hi)
        } else {
            (f, f)
        }
    }

    /// `!f`.
    pub fn not(&mut self, f: Bdd) -> Bdd {
        if f.is_const() {
            return Bdd(1 - f.0);
        }
        if let Some(&r) = self.cache.get(&(Op::Not, f.0, 0, 0)) {
            return Bdd(r);
        }
        let n = self.nodes[f.index()];
        let (lo, hi) = (self.not(n.lo), self.not(n.hi));
        let r = self.mk(n.var, lo, hi);
        self.cache.insert((Op::Not, f.0, 0, 0), r.0);
        r
    }

    fn apply(&mut self, op: Op, f: Bdd, g: Bdd) -> Bdd {
        match op {
            Op::And => {
                if f == Bdd::FALSE || g == Bdd::FALSE {
                    return Bdd::FALSE;
                }
                if f == Bdd::TRUE || f == g {
                    return g;
                }
                if g == Bdd::TRUE {
                    return f;
                }
            }
            Op::Or => {
                if f == Bdd::TRUE || g == Bdd::TRUE {
                    return Bdd::TRUE;
                }
                if f == Bdd::FALSE || f == g {
                    return g;
                }
                if g == Bdd::FALSE {
                    return f;
                }
            }
            _ => {
                if f == g {
                    return Bdd::FALSE;
                }
                if f == Bdd::FALSE {
                    return g;
                }
                if g == Bdd::FALSE {
                    return f;
                }
                if f == Bdd::TRUE {
                    return self.not(g);
                }
                if g == Bdd::TRUE {
                    return self.not(f);
                }
            }
        }
        // Commutative: one cache entry for both orders.
        let (f, g) = if f.0 <= g.0 { (f, g) } else { (g, f) };
        let key = (op, f.0, g.0, 0);
        if let Some(&r) = self.cache.get(&key) {
            return Bdd(r);
        }
        let top = self.level(f).min(self.level(g));
        let (f0, f1) = self.split(f, top);
        let (g0, g1) = self.split(g, top);
        let lo = self.apply(op, f0, g0);
        let hi = self.apply(op, f1, g1);
        let r = self.mk(top, lo, hi);
        self.cache.insert(key, r.0);
        r
    }

    /// `f & g`.
    pub fn and(&mut self, f: Bdd, g: Bdd) -> Bdd {
        self.apply(Op::And, f, g)
    }

    /// `f | g`.
    pub fn or(&mut self, f: Bdd, g: Bdd) -> Bdd {
        self.apply(Op::Or, f, g)
    }

    /// `f ^ g`.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn xor(&mut self, f: Bdd, g: Bdd) -> Bdd {
        self.apply(Op::Xor, f, g)
    }

    /// `f & !g`.
    pub fn diff(&mut self, f: Bdd, g: Bdd) -> Bdd {
        let ng = self.not(g);
        self.and(f, ng)
    }

    /// `if f then g else h`.
    pub fn ite(&mut self, f: Bdd, g: Bdd, h: Bdd) -> Bdd {
        if f == Bdd::TRUE || g == h {
            return g;
        }
        if f == Bdd::FALSE {
            return h;
        }
        if g == Bdd::TRUE && h == Bdd::FALSE {
            return f;
        }
        let key = (Op::Ite, f.0, g.0, h.0);
        if let Some(&r) = self.cache.get(&key) {
            return Bdd(r);
        }
        let top = self.level(f).min(self.level(g)).min(self.level(h));
        let (f0, f1) = self.split(f, top);
        let (g0, g1) = self.split(g, top);
        let (h0, h1) = self.split(h, top);
        let lo = self.ite(f0, g0, h0);
        let hi = self.ite(f1, g1, h1);
        let r = self.mk(top, lo, hi);
        self.cache.insert(key, r.0);
        r
    }

    /// `f` with variable `v` set to `value`.
    pub fn cofactor(&mut self, f: Bdd, v: u32, value: bool) -> Bdd {
        let mut memo = FxMap::default();
        self.cofactor_rec(f, v, value, &mut memo)
    }

    fn cofactor_rec(&mut self, f: Bdd, v: u32, value: bool, memo: &mut FxMap<u32, Bdd>) -> Bdd {
        let n = self.nodes[f.index()];
        if n.var == CONST_LEVEL || n.var > v {
            return f;
        }
        if n.var == v {
            return if value { n.hi } else { n.lo };
        }
        if let Some(&r) = memo.get(&f.0) {
            return r;
        }
        let lo = self.cofactor_rec(n.lo, v, value, memo);
        let hi = self.cofactor_rec(n.hi, v, value, memo);
        let r = self.mk(n.var, lo, hi);
        memo.insert(f.0, r);
        r
    }

    /// `∃ vars. f`.
    pub fn exists(&mut self, f: Bdd, vars: VarSet) -> Bdd {
        let mut memo = FxMap::default();
        self.exists_rec(f, vars, &mut memo)
    }

    fn exists_rec(&mut self, f: Bdd, vars: VarSet, memo: &mut FxMap<u32, Bdd>) -> Bdd {
        let n = self.nodes[f.index()];
        if n.var == CONST_LEVEL || vars >> n.var == 0 {
            return f;
        }
        if let Some(&r) = memo.get(&f.0) {
            return r;
        }
        let lo = self.exists_rec(n.lo, vars, memo);
        let r = if vars >> n.var & 1 == 1 {
            if lo == Bdd::TRUE {
                lo
            } else {
                let hi = self.exists_rec(n.hi, vars, memo);
                self.or(lo, hi)
            }
        } else {
            let hi = self.exists_rec(n.hi, vars, memo);
            self.mk(n.var, lo, hi)
        };
        memo.insert(f.0, r);
        r
    }

    /// Coudert and Madre's restrict: a function that agrees with `f` wherever `care` holds,
    /// usually with fewer nodes (`f` itself when `care` is false).
    pub fn restrict(&mut self, f: Bdd, care: Bdd) -> Bdd {
        if care == Bdd::FALSE {
            return Bdd::FALSE;
        }
        if care == Bdd::TRUE || f.is_const() {
            return f;
        }
        if f == care {
            return Bdd::TRUE;
        }
        let key = (Op::Restrict, f.0, care.0, 0);
        if let Some(&r) = self.cache.get(&key) {
            return Bdd(r);
        }
        let (lf, lc) = (self.level(f), self.level(care));
        let r = if lc < lf {
            // The care set's variable does not occur in f: drop it from the care set.
            let (c0, c1) = self.children(care);
            let c = self.or(c0, c1);
            self.restrict(f, c)
        } else {
            let (f0, f1) = self.split(f, lf);
            let (c0, c1) = self.split(care, lf);
            if c0 == Bdd::FALSE {
                self.restrict(f1, c1)
            } else if c1 == Bdd::FALSE {
                self.restrict(f0, c0)
            } else {
                let lo = self.restrict(f0, c0);
                let hi = self.restrict(f1, c1);
                self.mk(lf, lo, hi)
            }
        };
        self.cache.insert(key, r.0);
        r
    }

    /// The value of `f` under `assignment` (bit `v` is variable `v`).
    pub fn eval(&self, f: Bdd, assignment: VarSet) -> bool {
        let mut g = f;
        while !g.is_const() {
            let n = self.nodes[g.index()];
            g = if assignment >> n.var & 1 == 1 {
                n.hi
            } else {
                n.lo
            };
        }
        g == Bdd::TRUE
    }

    /// One satisfying assignment of `f` (the variables on one path; the others may take any
    /// value: here 0), or `None` if `f` is false.
    pub fn sat_one(&self, f: Bdd) -> Option<VarSet> {
        if f == Bdd::FALSE {
            return None;
        }
        let mut g = f;
        let mut assignment: VarSet = 0;
        while !g.is_const() {
            let n = self.nodes[g.index()];
            if n.lo != Bdd::FALSE {
                g = n.lo;
            } else {
                assignment |= 1 << n.var;
                g = n.hi;
            }
        }
        Some(assignment)
    }

    /// Minato and Morreale's irredundant sum-of-products of a function between `lower` and
    /// `upper` (`lower` must imply `upper`): the function and its cubes. Memoised on the pair.
    pub fn isop(&mut self, lower: Bdd, upper: Bdd) -> (Bdd, Vec<Cube>) {
        let mut memo = FxMap::default();
        let mut cubes = Vec::new();
        let f = self.isop_rec(lower, upper, &mut memo, &mut cubes);
        (f, cubes)
    }

    fn isop_rec(
        &mut self,
        lower: Bdd,
        upper: Bdd,
        memo: &mut FxMap<(u32, u32), (Bdd, Vec<Cube>)>,
        out: &mut Vec<Cube>,
    ) -> Bdd {
        if lower == Bdd::FALSE {
            return Bdd::FALSE;
        }
        if upper == Bdd::TRUE {
            out.push(Vec::new());
            return Bdd::TRUE;
        }
        if let Some((f, cubes)) = memo.get(&(lower.0, upper.0)) {
            out.extend(cubes.iter().cloned());
            return *f;
        }
        let top = self.level(lower).min(self.level(upper));
        let (l0, l1) = self.split(lower, top);
        let (u0, u1) = self.split(upper, top);
        let (mut c0, mut c1, mut cd) = (Vec::new(), Vec::new(), Vec::new());
        let l0_only = self.diff(l0, u1);
        let f0 = self.isop_rec(l0_only, u0, memo, &mut c0);
        let l1_only = self.diff(l1, u0);
        let f1 = self.isop_rec(l1_only, u1, memo, &mut c1);
        let rest0 = self.diff(l0, f0);
        let rest1 = self.diff(l1, f1);
        let rest = self.or(rest0, rest1);
        let both = self.and(u0, u1);
        let fd = self.isop_rec(rest, both, memo, &mut cd);
        let x = self.ithvar(top);
        let branches = self.ite(x, f1, f0);
        let f = self.or(branches, fd);
        let mut cubes = Vec::with_capacity(c0.len() + c1.len() + cd.len());
        for (cs, polarity) in [(c0, false), (c1, true)] {
            for mut c in cs {
                c.insert(0, (top, polarity));
                cubes.push(c);
            }
        }
        cubes.extend(cd);
        out.extend(cubes.iter().cloned());
        memo.insert((lower.0, upper.0), (f, cubes));
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every function of 3 variables, as a truth table, built from minterms.
    fn from_table(m: &mut Manager, table: u8) -> Bdd {
        let mut f = Bdd::FALSE;
        for row in 0..8u32 {
            if table >> row & 1 == 1 {
                let mut cube = Bdd::TRUE;
                for v in 0..3 {
                    let l = m.literal(v, row >> v & 1 == 1);
                    cube = m.and(cube, l);
                }
                f = m.or(f, cube);
            }
        }
        f
    }

    fn table(m: &Manager, f: Bdd) -> u8 {
        (0..8u32).fold(0, |t, row| t | u8::from(m.eval(f, row.into())) << row)
    }

    #[test]
    fn operations_agree_with_truth_tables() {
        let mut m = Manager::default();
        for a in 0..=255u8 {
            let f = from_table(&mut m, a);
            assert_eq!(table(&m, f), a);
            let nf = m.not(f);
            assert_eq!(table(&m, nf), !a);
            for b in [0u8, 255, 0x96, 0x3c, 0xe8, a.rotate_left(3)] {
                let g = from_table(&mut m, b);
                let and = m.and(f, g);
                assert_eq!(table(&m, and), a & b);
                let or = m.or(f, g);
                assert_eq!(table(&m, or), a | b);
                let xor = m.xor(f, g);
                assert_eq!(table(&m, xor), a ^ b);
                let h = from_table(&mut m, 0x5a);
                let ite = m.ite(f, g, h);
                assert_eq!(table(&m, ite), (a & b) | (!a & 0x5a));
                // restrict agrees on the care set.
                let r = m.restrict(f, g);
                assert_eq!(table(&m, r) & b, a & b);
                // isop lies between its bounds and its cubes are the function.
                let lower = m.and(f, g);
                let (i, cubes) = m.isop(lower, or);
                let t = table(&m, i);
                assert_eq!(t & (a & b), a & b);
                assert_eq!(t & !(a | b), 0);
                let mut from_cubes = Bdd::FALSE;
                for c in &cubes {
                    let mut cube = Bdd::TRUE;
                    for &(v, p) in c {
                        let l = m.literal(v, p);
                        cube = m.and(cube, l);
                    }
                    from_cubes = m.or(from_cubes, cube);
                }
                assert_eq!(from_cubes, i);
            }
            let e = m.exists(f, 0b010);
            let expected = (0..8u32)
                .filter(|row| a >> (row & !2) & 1 == 1 || a >> (row | 2) & 1 == 1)
                .fold(0u8, |t, row| t | 1 << row);
            assert_eq!(table(&m, e), expected);
            if let Some(s) = m.sat_one(f) {
                assert!(m.eval(f, s));
            } else {
                assert_eq!(a, 0);
            }
        }
    }

    #[test]
    fn the_node_limit_is_an_overflow_not_a_crash() {
        let mut m = Manager::with_limit(10);
        let mut f = Bdd::FALSE;
        for v in 0..20 {
            let x = m.ithvar(v);
            f = m.xor(f, x);
        }
        assert!(m.overflowed());
        assert!(m.len() <= 10);
    }
}
