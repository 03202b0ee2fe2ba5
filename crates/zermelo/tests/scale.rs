//! Larger graphs (10^5..10^6 nodes): the solvers agree with each other and the verifier, and
//! deep chains do not overflow any stack. Correctness only — speed lives in BENCHMARKS.md.

use zermelo::graph::generate::{chain_edges, random_edges, RandomSpec};
use zermelo::graph::{Csr, Rules};
use zermelo::solve;
use zermelo::{Depth, Outcome};

#[test]
fn random_graph_of_a_million_edges_verifies() {
    let spec = RandomSpec {
        nodes: 200_000,
        edges: 1_000_000,
        terminal_fraction: 0.03,
        seed: 11,
    };
    let g = Csr::from_edges(spec.nodes, random_edges(spec)).unwrap();
    for rules in [Rules::normal(), Rules::misere()] {
        let s = solve::retrograde(&g, &rules);
        let moves = solve::best_moves(&g, &rules, &s);
        solve::verify(&g, &rules, &s, Some(&moves)).unwrap();
        let c = s.counts();
        assert_eq!(c.win + c.lose + c.draw, spec.nodes);
        assert!(c.win > 0 && c.lose > 0 && c.draw > 0, "{c:?}");
    }
}

#[test]
fn random_dag_agrees_with_backward_induction() {
    let spec = RandomSpec {
        nodes: 100_000,
        edges: 400_000,
        terminal_fraction: 0.01,
        seed: 5,
    };
    let dag = random_edges(spec)
        .filter(|(u, v)| u != v)
        .map(|(u, v)| (u.max(v), u.min(v)));
    let g = Csr::from_edges(spec.nodes, dag).unwrap();
    let rules = Rules::normal();
    let s = solve::retrograde(&g, &rules);
    assert_eq!(solve::acyclic(&g, &rules).unwrap(), s);
    assert_eq!(s.counts().draw, 0);
    let values = solve::grundy(&g).unwrap();
    for u in g.nodes() {
        assert_eq!(values[u as usize].0 == 0, s.outcome(u) == Outcome::Lose);
    }
}

#[test]
fn million_node_chain_has_exact_depths() {
    let n = 1_000_000u64;
    let g = Csr::from_edges(n, chain_edges(n)).unwrap();
    let rules = Rules::normal();
    let s = solve::retrograde(&g, &rules);
    assert_eq!(s.depth(0), Some(Depth(n as u32 - 1)));
    // The start is n - 1 = 999,999 plies (odd) from the end: the player to move wins.
    assert_eq!(s.outcome(0), Outcome::Win);
    assert_eq!(solve::acyclic(&g, &rules).unwrap(), s);
    assert!(solve::find_cycle(&g).is_none());
    let line = solve::principal_line(&g, &rules, &s, 0);
    assert_eq!(line.nodes.len() as u64, n);
    solve::verify(&g, &rules, &s, None).unwrap();
}
