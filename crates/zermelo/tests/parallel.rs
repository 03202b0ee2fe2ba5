//! The parallel solver gives exactly the sequential solver's outcomes and depths (and so the same
//! best moves) for every thread count.

use proptest::prelude::*;
use zermelo::graph::generate::{random_edges, RandomSpec};
use zermelo::graph::{Csr, ReverseCsr, Rules};
use zermelo::solve;

fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn large_random_graphs_are_deterministic() {
    for (seed, nodes, edges, fraction) in [
        (1, 300_000, 1_500_000, 0.03),
        (2, 200_000, 400_000, 0.10),
        (3, 100_000, 1_000_000, 0.30),
    ] {
        let spec = RandomSpec {
            nodes,
            edges,
            terminal_fraction: fraction,
            seed,
        };
        let g = Csr::from_edges(nodes, random_edges(spec)).unwrap();
        let reverse = ReverseCsr::from_csr(&g);
        let verdicts = [(7, zermelo::Outcome::Draw), (11, zermelo::Outcome::Win)];
        for rules in [
            Rules::normal(),
            Rules::misere(),
            Rules::normal()
                .with_verdicts(g.node_count(), verdicts)
                .unwrap(),
        ] {
            let expected = solve::retrograde(&g, &rules);
            assert_eq!(solve::retrograde(&reverse, &rules), expected);
            for threads in [1, 2, 3, 4] {
                let got = with_threads(threads, || solve::retrograde_parallel(&g, &rules));
                assert_eq!(got, expected, "seed {seed}, {threads} threads");
                let got = with_threads(threads, || solve::retrograde_parallel(&reverse, &rules));
                assert_eq!(
                    got, expected,
                    "seed {seed}, {threads} threads, reverse only"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn small_graphs_agree(
        (n, edges) in (1u64..=12).prop_flat_map(|n| (Just(n), prop::collection::vec((0..n, 0..n), 0..40))),
        misere in any::<bool>(),
    ) {
        let g = Csr::from_edges(n, edges).unwrap();
        let rules = if misere { Rules::misere() } else { Rules::normal() };
        let expected = solve::retrograde(&g, &rules);
        prop_assert_eq!(with_threads(2, || solve::retrograde_parallel(&g, &rules)), expected);
    }
}
