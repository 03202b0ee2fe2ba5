//! The hand-worked games of the seed documents (`shared/cases/seed-examples.json`), each solved
//! by every applicable solver and checked by the verifier.
//!
//! The file is vendored in `tests/data/`; when the shared copy is present beside the repository
//! it must be identical, so that an update there is noticed.

use serde_json::Value;
use zermelo::graph::{Csr, Rules};
use zermelo::solve::{self, Nimber};
use zermelo::{Depth, NodeId, Outcome};

const VENDORED: &str = include_str!("data/seed-examples.json");

fn cases() -> Value {
    serde_json::from_str(VENDORED).expect("vendored seed cases parse")
}

#[test]
fn vendored_cases_match_the_shared_copy() {
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/cases/seed-examples.json"
    );
    match std::fs::read_to_string(shared) {
        Ok(text) => assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            cases(),
            "shared/cases/seed-examples.json changed: update tests/data"
        ),
        Err(_) => eprintln!("note: {shared} not found; using the vendored copy only"),
    }
}

fn outcome(label: &Value) -> Outcome {
    label.as_str().unwrap().parse().unwrap()
}

#[test]
fn labelled_cases() {
    let all = cases();
    let list = all["cases"].as_array().unwrap();
    assert_eq!(list.len(), 8);
    for case in list {
        let name = case["name"].as_str().unwrap();
        let n = case["nodes"].as_u64().unwrap();
        let edges = case["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e[0].as_u64().unwrap(), e[1].as_u64().unwrap()));
        let g = Csr::from_edges(n, edges).unwrap();
        let rules = match case["terminal"].as_str().unwrap() {
            "LOSE" => Rules::normal(),
            "WIN" => Rules::misere(),
            other => panic!("{name}: unknown terminal {other}"),
        };
        let expected: Vec<(Outcome, Option<Depth>)> = case["labels"]
            .as_array()
            .unwrap()
            .iter()
            .zip(case["dist"].as_array().unwrap())
            .map(|(l, d)| (outcome(l), d.as_u64().map(|d| Depth(d as u32))))
            .collect();

        let s = solve::retrograde(&g, &rules);
        let got: Vec<_> = g.nodes().map(|u| (s.outcome(u), s.depth(u))).collect();
        assert_eq!(got, expected, "{name}: retrograde");
        let moves = solve::best_moves(&g, &rules, &s);
        solve::verify(&g, &rules, &s, Some(&moves)).unwrap_or_else(|v| panic!("{name}: {v}"));

        match solve::find_cycle(&g) {
            None => assert_eq!(solve::acyclic(&g, &rules).unwrap(), s, "{name}: acyclic"),
            Some(_) => assert!(solve::acyclic(&g, &rules).is_err(), "{name}"),
        }
    }
}

#[test]
fn grundy_case() {
    let all = cases();
    let case = &all["grundy"][0];
    assert_eq!(case["name"], "subtract-1-or-2");
    let expected: Vec<u32> = case["values_for_n_0_to_8"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    let n = expected.len() as u64;
    let edges = (1..n).flat_map(|p| [(p, p - 1)].into_iter().chain((p >= 2).then(|| (p, p - 2))));
    let g = Csr::from_edges(n, edges).unwrap();
    let values = solve::grundy(&g).unwrap();
    assert_eq!(
        values,
        expected.iter().map(|&v| Nimber(v)).collect::<Vec<_>>()
    );
    // lose_iff: n mod 3 == 0, as the outcome solver also says.
    let s = solve::retrograde(&g, &Rules::normal());
    for p in g.nodes() {
        assert_eq!(s.outcome(p) == Outcome::Lose, p % 3 == 0, "pile {p}");
    }
}

/// Seed 002 challenge 4 as an explicit product graph: states `(cop, robber, cop_to_move)` on the
/// path 0 - 1 - 2; both may stay put; a state where they share a vertex is terminal, lost for the
/// robber (so won for the cop when the cop is to move).
#[test]
fn cop_and_robber_on_a_path() {
    let all = cases();
    let case = &all["pursuit"][0];
    let adjacent = |a: u64, b: u64| a.abs_diff(b) <= 1; // includes staying put
    let id = |c: u64, r: u64, cop: bool| (c * 3 + r) * 2 + u64::from(cop);
    let mut edges = Vec::new();
    let mut verdicts = Vec::new();
    for c in 0..3 {
        for r in 0..3 {
            for cop in [false, true] {
                if c == r {
                    let o = if cop { Outcome::Win } else { Outcome::Lose };
                    verdicts.push((id(c, r, cop), o));
                    continue;
                }
                for to in (0..3).filter(|&t| adjacent(if cop { c } else { r }, t)) {
                    let next = if cop {
                        id(to, r, false)
                    } else {
                        id(c, to, true)
                    };
                    edges.push((id(c, r, cop), next));
                }
            }
        }
    }
    let g = Csr::from_edges(18, edges).unwrap();
    let rules = Rules::normal().with_verdicts(18, verdicts).unwrap();
    let s = solve::retrograde(&g, &rules);
    solve::verify(&g, &rules, &s, None).unwrap();
    let q = &case["query"];
    let start = id(
        q["cop"].as_u64().unwrap(),
        q["robber"].as_u64().unwrap(),
        q["cop_to_move"].as_bool().unwrap(),
    ) as NodeId;
    assert!(case["cop_captures"].as_bool().unwrap());
    assert_eq!(s.outcome(start), Outcome::Win);
    // Cop 0, robber 2: cop steps to 1, robber is cornered next to it, cop captures: 3 plies.
    assert_eq!(s.depth(start), Some(Depth(3)));
}
