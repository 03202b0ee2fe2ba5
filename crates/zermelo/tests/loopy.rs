//! The generalized Sprague-Grundy function (`solve::loopy_grundy`) against independent oracles:
//!
//! * on thousands of random cyclic graphs, the outcome a value gives (0 lost, m > 0 won,
//!   `inf{K}` won iff 0 in K, else drawn) equals retrograde analysis of the graph;
//! * Smith's sum rules equal retrograde analysis of the product graph of two or three random
//!   cyclic components (draws included), and the move the analysis names reaches a sum the
//!   product solution calls lost (after a winning move) or drawn (after a drawing move);
//! * on DAGs the values equal the acyclic `solve::grundy`.

use zermelo::graph::{Csr, Rules};
use zermelo::solve::{self, LoopyValue, Nimber};
use zermelo::{NodeId, Outcome};

// SplitMix64: a small deterministic generator for the seeded loops.
mod common;
use common::Rng;

/// A random graph of `1..=max_n` nodes, cycles and self-loops included; `dag` keeps edges
/// going down.
fn random_graph(rng: &mut Rng, max_n: u64, dag: bool) -> (u64, Vec<(u64, u64)>) {
    let n = 1 + rng.below(max_n);
    let m = rng.below(2 * n + 1);
    let mut edges = Vec::new();
    for _ in 0..m {
        let (u, v) = (rng.below(n), rng.below(n));
        if !dag {
            edges.push((u, v));
        } else if u != v {
            edges.push((u.max(v), u.min(v)));
        }
    }
    (n, edges)
}

/// The product graph of components (node = mixed-radix tuple), a move in one component per edge.
fn product(components: &[Csr]) -> Csr {
    let sizes: Vec<u64> = components.iter().map(|g| g.node_count() as u64).collect();
    let total: u64 = sizes.iter().product();
    let mut edges = Vec::new();
    for id in 0..total {
        let mut rest = id;
        let mut stride = 1;
        for (g, &size) in components.iter().zip(&sizes) {
            let x = rest % size;
            rest /= size;
            for &y in g.successors(x as NodeId) {
                edges.push((id, id - x * stride + u64::from(y) * stride));
            }
            stride *= size;
        }
    }
    Csr::from_edges(total, edges).unwrap()
}

fn tuple_id(components: &[Csr], nodes: &[NodeId]) -> NodeId {
    let mut id = 0u64;
    let mut stride = 1u64;
    for (g, &x) in components.iter().zip(nodes) {
        id += u64::from(x) * stride;
        stride *= g.node_count() as u64;
    }
    id as NodeId
}

#[test]
fn single_game_outcomes_equal_retrograde_analysis() {
    let mut rng = Rng(20);
    let mut seen = [0usize; 3];
    for case in 0..4000 {
        let (n, edges) = random_graph(&mut rng, 12, false);
        let g = Csr::from_edges(n, edges).unwrap();
        let values = solve::loopy_grundy(&g);
        let solution = solve::retrograde(&g, &Rules::normal());
        for u in g.nodes() {
            let want = solution.outcome(u);
            assert_eq!(values.get(u).outcome(), want, "case {case} node {u}");
            seen[want as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&c| c > 1000), "{seen:?}");
}

#[test]
fn sum_rules_equal_retrograde_analysis_of_the_product() {
    let mut rng = Rng(2026);
    let mut seen = [0usize; 3];
    for case in 0..3000 {
        let k = 2 + rng.below(2) as usize;
        let max_n = if k == 2 { 7 } else { 5 };
        let parts: Vec<Csr> = (0..k)
            .map(|_| {
                let (n, edges) = random_graph(&mut rng, max_n, false);
                Csr::from_edges(n, edges).unwrap()
            })
            .collect();
        let p = product(&parts);
        let solution = solve::retrograde(&p, &Rules::normal());
        // One graph holding every component side by side, as the CLI sees a file.
        let mut offset = Vec::new();
        let mut edges = Vec::new();
        let mut total = 0u64;
        for g in &parts {
            offset.push(total);
            for u in g.nodes() {
                for &v in g.successors(u) {
                    edges.push((total + u64::from(u), total + u64::from(v)));
                }
            }
            total += g.node_count() as u64;
        }
        let union = Csr::from_edges(total, edges).unwrap();
        let values = solve::loopy_grundy(&union);
        for _ in 0..6 {
            let local: Vec<NodeId> = parts
                .iter()
                .map(|g| rng.below(g.node_count() as u64) as NodeId)
                .collect();
            let starts: Vec<NodeId> = local
                .iter()
                .zip(&offset)
                .map(|(&x, &o)| x + o as NodeId)
                .collect();
            let a = solve::analyse_loopy_sum(&union, &values, &starts);
            let want = solution.outcome(tuple_id(&parts, &local));
            assert_eq!(a.outcome, want, "case {case} starts {local:?}");
            seen[want as usize] += 1;
            match (want, a.best_move) {
                (Outcome::Lose, None) => {}
                (Outcome::Win | Outcome::Draw, Some(m)) => {
                    let mut after = local.clone();
                    after[m.component] = m.to - offset[m.component] as NodeId;
                    assert!(parts[m.component]
                        .successors(local[m.component])
                        .contains(&after[m.component]));
                    let reached = solution.outcome(tuple_id(&parts, &after));
                    let expected = if want == Outcome::Win {
                        Outcome::Lose
                    } else {
                        Outcome::Draw
                    };
                    assert_eq!(reached, expected, "case {case} move {m:?}");
                }
                (w, m) => panic!("case {case}: outcome {w:?} with move {m:?}"),
            }
        }
    }
    assert!(seen.iter().all(|&c| c > 1000), "{seen:?}");
}

#[test]
fn on_dags_the_values_are_grundy_values() {
    let mut rng = Rng(7);
    for case in 0..3000 {
        let (n, edges) = random_graph(&mut rng, 20, true);
        let g = Csr::from_edges(n, edges).unwrap();
        let acyclic = solve::grundy(&g).unwrap();
        let values = solve::loopy_grundy(&g);
        assert!(!values.has_infinite());
        for u in g.nodes() {
            assert_eq!(
                values.get(u),
                LoopyValue::Finite(acyclic[u as usize]),
                "case {case}"
            );
        }
    }
}

/// Fixed values worked by hand from the definition (Fraenkel and Yesha 1986, the conditions
/// (a)-(c) of the module docs).
#[test]
fn hand_worked_values() {
    // A 3-cycle 0 -> 1 -> 2 -> 0 with an exit 2 -> 3 (terminal). Round 0: γ(3) = 0 reverses
    // 2, so 1 (whose only option is 2) gets 0, which reverses 0. Round 1: 0's only option 1 is
    // labelled 0, so γ(0) = 1, which reverses 2. Round 2: 2 has options of values 0 and 1 and
    // none left unlabelled: γ(2) = 2.
    let g = Csr::from_edges(4, [(0, 1), (1, 2), (2, 0), (2, 3)]).unwrap();
    let v = solve::loopy_grundy(&g);
    assert_eq!(v.get(3), LoopyValue::Finite(Nimber(0)));
    assert_eq!(v.get(1), LoopyValue::Finite(Nimber(0)));
    assert_eq!(v.get(0), LoopyValue::Finite(Nimber(1)));
    assert_eq!(v.get(2), LoopyValue::Finite(Nimber(2)));
}

/// A loop with no way out is a draw; a node that can enter it or stop is ∞(0), a win.
#[test]
fn hand_worked_infinite_values() {
    // 0 <-> 1, 1 -> 2 -> 3 (terminal): γ(3) = 0, γ(2) = 1; 1 has options 0 and 2 (value 1);
    // round 0: 1 has no option of value 0 and 0 is not reversed, so 1 is not 0; 0 has option 1
    // not reversed; neither is reversed: both infinite, K(1) = {1}, K(0) = {}.
    let g = Csr::from_edges(4, [(0, 1), (1, 0), (1, 2), (2, 3)]).unwrap();
    let v = solve::loopy_grundy(&g);
    assert_eq!(v.get(2), LoopyValue::Finite(Nimber(1)));
    assert_eq!(v.get(1), LoopyValue::Infinite(&[1]));
    assert_eq!(v.get(0), LoopyValue::Infinite(&[]));
    assert_eq!(v.get(1).outcome(), Outcome::Draw);
    // 1 + a heap of 1 (node 2): finite part 1 is in K(1) = {1}: won by moving 1 -> 2.
    let a = solve::analyse_loopy_sum(&g, &v, &[1, 2]);
    assert_eq!(a.outcome, Outcome::Win);
    assert_eq!(a.best_move.map(|m| (m.component, m.to)), Some((0, 2)));
    assert_eq!(a.value.to_string(), "inf{0}");
}
