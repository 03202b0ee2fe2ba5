//! Parsers: round trips of what zermelo writes, and no panic on any input.

use proptest::prelude::*;
use zermelo::graph::{Csr, Rules};
use zermelo::io;
use zermelo::solve;

fn edges(max_n: u64) -> impl Strategy<Value = (u64, Vec<(u64, u64)>)> {
    (1..=max_n).prop_flat_map(|n| (Just(n), prop::collection::vec((0..n, 0..n), 0..40)))
}

/// Renders an edge list with random blank lines, comments and spacing.
fn render(n: u64, edges: &[(u64, u64)], noise: &[u8]) -> String {
    let mut text = String::from("# generated\n");
    text.push_str(&format!("{n} {}\n", edges.len()));
    for (i, (u, v)) in edges.iter().enumerate() {
        match noise.get(i).copied().unwrap_or(0) % 5 {
            0 => text.push_str(&format!("{u} {v}\n")),
            1 => text.push_str(&format!("\t{u}   {v}  # edge {i}\r\n")),
            2 => text.push_str(&format!("\n# comment\n{u} {v}\n")),
            3 => text.push_str(&format!("  {u}\t{v}\n\n")),
            _ => text.push_str(&format!("{u} {v}#x\n")),
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn edge_lists_round_trip((n, e) in edges(20), noise in prop::collection::vec(any::<u8>(), 40)) {
        let g = io::parse_edge_list(render(n, &e, &noise).as_bytes(), "g").unwrap();
        prop_assert_eq!(g, Csr::from_edges(n, e).unwrap());
    }

    #[test]
    fn json_round_trips((n, e) in edges(20), misere in any::<bool>()) {
        let text = serde_json::json!({"nodes": n, "edges": e, "misere": misere}).to_string();
        let game = io::parse_json_graph(text.as_bytes(), "g.json").unwrap();
        prop_assert_eq!(game.graph, Csr::from_edges(n, e).unwrap());
        prop_assert_eq!(game.rules, if misere { Rules::misere() } else { Rules::normal() });
    }

    #[test]
    fn solution_csv_round_trips((n, e) in edges(20)) {
        let g = Csr::from_edges(n, e).unwrap();
        let r = Rules::normal();
        let s = solve::retrograde(&g, &r);
        let mut out = Vec::new();
        io::write_solution_csv(&mut out, &g, &r, &s).unwrap();
        let back = io::parse_solution_csv(&out, "s.csv", g.node_count()).unwrap();
        prop_assert_eq!(back.solution, s.clone());
        prop_assert_eq!(back.best_moves.unwrap(), solve::best_moves(&g, &r, &s));
    }

    /// Random bytes, and valid inputs with random bytes spliced in, never panic any parser.
    #[test]
    fn parsers_never_panic(
        (n, e) in edges(8),
        junk in prop::collection::vec(any::<u8>(), 0..64),
        at in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let valid = render(n, &e, &[]);
        let mut spliced = valid.clone().into_bytes();
        let i = at.index(spliced.len() + 1);
        spliced.splice(i..i, junk.iter().copied());
        let truncated = &valid.as_bytes()[..cut.index(valid.len() + 1)];
        for bytes in [&junk[..], &spliced[..], truncated] {
            let _ = io::parse_edge_list(bytes, "f");
            let _ = io::parse_two_player(bytes, "f");
            let _ = io::parse_json_graph(bytes, "f");
            let _ = io::parse_verdicts(bytes, "f", n as usize);
            let _ = io::parse_two_player_verdicts(bytes, "f", n as usize);
            let _ = io::parse_solution_csv(bytes, "f", n as usize);
        }
    }

    /// A truncated edge list is an error naming a line, except when the cut falls inside the
    /// last line (a text format cannot tell `0 1` from a cut `0 12`; the binary format's
    /// checksum can) — never a panic.
    #[test]
    fn truncation_is_detected((n, e) in edges(40), cut in any::<prop::sample::Index>()) {
        prop_assume!(!e.is_empty());
        let text = format!("{n} {}\n", e.len())
            + &e.iter().map(|(u, v)| format!("{u} {v}\n")).collect::<String>();
        let at = cut.index(text.len());
        let in_last_line = !text.as_bytes()[at..text.len() - 1].contains(&b'\n');
        match io::parse_edge_list(&text.as_bytes()[..at], "f") {
            Ok(g) if !in_last_line => prop_assert_eq!(g, Csr::from_edges(n, e).unwrap()),
            Ok(g) => prop_assert_eq!(g.edge_count(), e.len() as u64),
            Err(err) => prop_assert!(err.line.is_some(), "{}", err),
        }
    }
}
