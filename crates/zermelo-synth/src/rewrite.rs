//! Fewer AND gates by resynthesis over cuts ([`optimise`]): every gate's function over a small
//! set of gates below it (a cut of at most [`K`] leaves) is known as a 64-bit truth table; each
//! cut could be rebuilt as the factored irredundant sum of products of its table (or of its
//! complement); an area-flow cover picks one cut per needed gate, from the outputs and latches
//! down, and the circuit is rebuilt from those (structural hashing shares what repeats). The
//! result is kept only when it is smaller.
//!
//! This is the idea of ABC's mapping-based resynthesis (priority cuts: Mishchenko, Cho, Chatterjee,
//! Brayton, ICCAD 2007; area flow: Cong, Ding) with factored ISOP as the cell library. Cost:
//! O(gates x C^2 x K) for C kept cuts per gate; truth tables are 64-bit words.

use crate::aig::{factor, not, Aig, Lit, FALSE};
use crate::bdd::FxMap;

/// The most leaves of a cut (a truth table of 2^6 bits).
pub const K: usize = 6;
/// Cuts kept per gate besides the trivial one.
const KEPT: usize = 8;

/// `VAR_MASK[v]`: the truth table of variable `v` over 6 variables.
const VAR_MASK: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

#[derive(Clone)]
struct Cut {
    leaves: Vec<u32>,
    table: u64,
    flow: f64,
}

/// The function's table with variable `v` fixed to 0 (or 1), both halves the same.
fn cofactor(t: u64, v: usize, value: bool) -> u64 {
    let m = VAR_MASK[v];
    let s = 1 << v;
    if value {
        (t & m) | ((t & m) >> s)
    } else {
        (t & !m) | ((t & !m) << s)
    }
}

/// Swaps variables `i < j` of a table.
fn swap(t: u64, i: usize, j: usize) -> u64 {
    let shift = (1 << j) - (1 << i);
    let m = VAR_MASK[i] & !VAR_MASK[j];
    (t & !(m | (m << shift))) | ((t & m) << shift) | ((t >> shift) & m)
}

/// The table of a cut over `from` as a table over `to` (a superset, both sorted).
fn expand(t: u64, from: &[u32], to: &[u32]) -> u64 {
    let mut t = t;
    let mut places: Vec<usize> = from
        .iter()
        .map(|l| to.iter().position(|x| x == l).expect("a superset"))
        .collect();
    for j in (0..places.len()).rev() {
        if places[j] != j {
            t = swap(t, j, places[j]);
            places[j] = j;
        }
    }
    t
}

/// Minato and Morreale's ISOP on truth tables: cubes as (variable, polarity) lists.
fn isop(lower: u64, upper: u64, vars: usize, cubes: &mut Vec<Vec<(u8, bool)>>) -> u64 {
    if lower == 0 {
        return 0;
    }
    if upper == u64::MAX {
        cubes.push(Vec::new());
        return u64::MAX;
    }
    let v = (0..vars)
        .rev()
        .find(|&v| {
            cofactor(lower, v, false) != cofactor(lower, v, true)
                || cofactor(upper, v, false) != cofactor(upper, v, true)
        })
        .expect("a non-constant bound depends on a variable");
    let (l0, l1) = (cofactor(lower, v, false), cofactor(lower, v, true));
    let (u0, u1) = (cofactor(upper, v, false), cofactor(upper, v, true));
    let start = cubes.len();
    let f0 = isop(l0 & !u1, u0, v, cubes);
    for c in &mut cubes[start..] {
        c.push((v as u8, false));
    }
    let mid = cubes.len();
    let f1 = isop(l1 & !u0, u1, v, cubes);
    for c in &mut cubes[mid..] {
        c.push((v as u8, true));
    }
    let rest = (l0 & !f0) | (l1 & !f1);
    let fd = isop(rest, u0 & u1, v, cubes);
    (f0 & !VAR_MASK[v]) | (f1 & VAR_MASK[v]) | fd
}

/// How a table is built: cubes over the leaves, negated or not, and the gates it takes.
#[derive(Clone)]
struct Recipe {
    cubes: Vec<Vec<(u8, bool)>>,
    negated: bool,
    gates: usize,
}

fn recipe(table: u64, vars: usize) -> Recipe {
    let mut best: Option<Recipe> = None;
    for negated in [false, true] {
        let t = if negated { !table } else { table };
        let mut cubes = Vec::new();
        isop(t, t, vars, &mut cubes);
        let mut scratch = Aig::new(K as u32, 0);
        let lits = cube_lits(
            &cubes,
            &(0..K as u32).map(|k| scratch.input(k)).collect::<Vec<_>>(),
        );
        factor(&mut scratch, lits);
        let gates = scratch.ands.len();
        if best.as_ref().is_none_or(|b| gates < b.gates) {
            best = Some(Recipe {
                cubes,
                negated,
                gates,
            });
        }
    }
    best.expect("two tries")
}

fn cube_lits(cubes: &[Vec<(u8, bool)>], leaf: &[Lit]) -> Vec<Vec<Lit>> {
    cubes
        .iter()
        .map(|c| {
            c.iter()
                .map(|&(v, p)| leaf[v as usize] ^ u32::from(!p))
                .collect()
        })
        .collect()
}

/// One resynthesis pass (module docs); the circuit itself when nothing smaller is found.
pub(crate) fn optimise(aig: &Aig) -> Aig {
    let first = aig.first_and() as usize;
    let vars = aig.max_var() as usize + 1;
    let mut fanout = vec![0u32; vars];
    for &(a, b) in &aig.ands {
        fanout[(a >> 1) as usize] += 1;
        fanout[(b >> 1) as usize] += 1;
    }
    for &l in aig.outputs.iter().chain(&aig.latch_next) {
        fanout[(l >> 1) as usize] += 1;
    }
    let mut recipes: FxMap<(u64, usize), Recipe> = FxMap::default();
    let mut cost = |table: u64, n: usize| -> usize {
        recipes
            .entry((table, n))
            .or_insert_with(|| recipe(table, n))
            .gates
    };
    // Cuts: the trivial cut first; the constant has none (it never is a leaf: AND gates with
    // a constant operand are folded by the hashing).
    let mut cuts: Vec<Vec<Cut>> = vec![Vec::new(); vars];
    let mut flow = vec![0f64; vars];
    for (v, c) in cuts.iter_mut().enumerate().take(first).skip(1) {
        c.push(Cut {
            leaves: vec![v as u32],
            table: VAR_MASK[0],
            flow: 0.0,
        });
    }
    for (g, &(a, b)) in aig.ands.iter().enumerate() {
        let v = first + g;
        let (va, vb) = ((a >> 1) as usize, (b >> 1) as usize);
        let mut found: Vec<Cut> = Vec::new();
        for ca in &cuts[va] {
            for cb in &cuts[vb] {
                let mut leaves: Vec<u32> = ca.leaves.iter().chain(&cb.leaves).copied().collect();
                leaves.sort_unstable();
                leaves.dedup();
                if leaves.len() > K || found.iter().any(|c| c.leaves == leaves) {
                    continue;
                }
                let ta = expand(ca.table, &ca.leaves, &leaves);
                let tb = expand(cb.table, &cb.leaves, &leaves);
                let ta = if a & 1 == 1 { !ta } else { ta };
                let tb = if b & 1 == 1 { !tb } else { tb };
                let table = ta & tb;
                let shared: f64 = leaves
                    .iter()
                    .map(|&l| flow[l as usize] / f64::from(fanout[l as usize].max(1)))
                    .sum();
                let f = cost(table, leaves.len()) as f64 + shared;
                found.push(Cut {
                    leaves,
                    table,
                    flow: f,
                });
            }
        }
        found.sort_by(|x, y| {
            x.flow
                .total_cmp(&y.flow)
                .then(x.leaves.len().cmp(&y.leaves.len()))
        });
        found.truncate(KEPT);
        flow[v] = found.first().map_or(0.0, |c| c.flow);
        let mut mine = vec![Cut {
            leaves: vec![v as u32],
            table: VAR_MASK[0],
            flow: flow[v],
        }];
        mine.extend(found);
        cuts[v] = mine;
    }
    // The cover: from the roots down, each needed gate by its best cut.
    let mut needed = vec![false; vars];
    let mut stack: Vec<usize> = aig
        .outputs
        .iter()
        .chain(&aig.latch_next)
        .map(|&l| (l >> 1) as usize)
        .collect();
    while let Some(v) = stack.pop() {
        if v < first || needed[v] {
            continue;
        }
        needed[v] = true;
        match cuts[v].get(1) {
            Some(cut) => stack.extend(cut.leaves.iter().map(|&l| l as usize)),
            // No cut (an operand is a constant): the gate is kept as it is.
            None => {
                let (a, b) = aig.ands[v - first];
                stack.extend([(a >> 1) as usize, (b >> 1) as usize]);
            }
        }
    }
    let mut out = Aig::new(aig.inputs, aig.latch_count());
    out.input_names = aig.input_names.clone();
    out.latch_names = aig.latch_names.clone();
    out.latch_reset = aig.latch_reset.clone();
    out.output_names = aig.output_names.clone();
    let mut map: Vec<Lit> = (0..vars as u32).map(|v| 2 * v).collect();
    map[0] = FALSE;
    for v in first..vars {
        if !needed[v] {
            continue;
        }
        let Some(cut) = cuts[v].get(1) else {
            let (a, b) = aig.ands[v - first];
            let tr = |l: Lit| map[(l >> 1) as usize] ^ (l & 1);
            map[v] = out.and(tr(a), tr(b));
            continue;
        };
        let r = &recipes[&(cut.table, cut.leaves.len())];
        let leaf: Vec<Lit> = cut.leaves.iter().map(|&l| map[l as usize]).collect();
        let l = factor(&mut out, cube_lits(&r.cubes, &leaf));
        map[v] = if r.negated { not(l) } else { l };
    }
    let tr = |l: Lit| map[(l >> 1) as usize] ^ (l & 1);
    out.outputs = aig.outputs.iter().map(|&l| tr(l)).collect();
    out.latch_next = aig.latch_next.iter().map(|&l| tr(l)).collect();
    out.cleanup();
    if out.ands.len() < aig.ands.len() {
        out
    } else {
        aig.clone()
    }
}

/// [`optimise`] until a pass gains nothing (at most `rounds` passes).
pub(crate) fn optimise_rounds(aig: &Aig, rounds: usize) -> Aig {
    let mut best = aig.clone();
    for _ in 0..rounds {
        let next = optimise(&best);
        if next.ands.len() >= best.ands.len() {
            break;
        }
        best = next;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::graph::generate::SplitMix64;

    #[test]
    fn isop_covers_exactly_and_swaps_move_variables() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..2000 {
            let t = rng.next_u64();
            let mut cubes = Vec::new();
            assert_eq!(isop(t, t, 6, &mut cubes), t);
            let from_cubes = cubes.iter().fold(0u64, |acc, c| {
                acc | c.iter().fold(u64::MAX, |x, &(v, p)| {
                    x & if p {
                        VAR_MASK[v as usize]
                    } else {
                        !VAR_MASK[v as usize]
                    }
                })
            });
            assert_eq!(from_cubes, t);
            let (i, j) = (rng.below(5) as usize, 5);
            let s = swap(t, i, j);
            for m in 0..64u64 {
                let bi = m >> i & 1;
                let bj = m >> j & 1;
                let swapped = (m & !(1 << i) & !(1 << j)) | bj << i | bi << j;
                assert_eq!(s >> m & 1, t >> swapped & 1);
            }
        }
    }

    #[test]
    fn resynthesis_keeps_every_function() {
        let mut rng = SplitMix64::new(11);
        for round in 0..200 {
            let inputs = 1 + rng.below(8) as u32;
            let latches = rng.below(3) as u32;
            let mut a = Aig::new(inputs, latches);
            let mut lits: Vec<Lit> = (0..inputs).map(|k| a.input(k)).collect();
            lits.extend((0..latches).map(|k| a.latch(k)));
            for _ in 0..rng.below(60) {
                let x = lits[rng.below(lits.len() as u64) as usize] ^ rng.below(2) as u32;
                let y = lits[rng.below(lits.len() as u64) as usize] ^ rng.below(2) as u32;
                let g = if rng.below(3) == 0 {
                    a.mux(x, y, lits[0])
                } else {
                    a.and(x, y)
                };
                lits.push(g);
            }
            for k in 0..latches as usize {
                a.latch_next[k] = lits[rng.below(lits.len() as u64) as usize];
            }
            a.outputs = (0..1 + rng.below(3))
                .map(|_| lits[rng.below(lits.len() as u64) as usize] ^ rng.below(2) as u32)
                .collect();
            a.output_names = vec![String::new(); a.outputs.len()];
            a.latch_names = (0..latches).map(|k| format!("l{k}")).collect();
            a.cleanup();
            let b = optimise_rounds(&a, 3);
            assert!(b.ands.len() <= a.ands.len());
            // Latches no output needs any more may go: the rest keep their names.
            let kept: Vec<usize> = b
                .latch_names
                .iter()
                .map(|n| a.latch_names.iter().position(|m| m == n).unwrap())
                .collect();
            for _ in 0..4 {
                let ins: Vec<u64> = (0..inputs).map(|_| rng.next_u64()).collect();
                let ls: Vec<u64> = (0..a.latch_count()).map(|_| rng.next_u64()).collect();
                let (out_a, next_a) = a.simulate(&ins, &ls);
                let kept_ls: Vec<u64> = kept.iter().map(|&k| ls[k]).collect();
                let (out_b, next_b) = b.simulate(&ins, &kept_ls);
                assert_eq!(out_a, out_b, "round {round}");
                let next_a: Vec<u64> = kept.iter().map(|&k| next_a[k]).collect();
                assert_eq!(next_a, next_b, "round {round}");
            }
        }
    }
}
