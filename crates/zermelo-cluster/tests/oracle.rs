//! The cluster solver inside one process (1-4 workers exchanging through timely's in-process
//! channels) against the sequential solver and `best_move`, on random graphs with cycles,
//! self-loops, repeated moves, both conventions and explicit verdicts. Runs across processes
//! are tested by the CLI's `tests/cluster_cli.rs`.

use std::io::Write;
use std::time::Duration;

use zermelo::graph::generate::SplitMix64;
use zermelo::graph::{Convention, Csr, GraphBuilder, Rules};
use zermelo::solve::{best_move, retrograde};
use zermelo::{NodeId, Outcome};
use zermelo_cluster::{solve, Cluster, Job, NO_MOVE};

fn random_game(rng: &mut SplitMix64) -> (Csr, Rules) {
    let n = 1 + rng.below(40);
    let m = rng.below(3 * n + 1);
    let mut b = GraphBuilder::new(n).unwrap();
    for _ in 0..m {
        let u = rng.below(n);
        // Some nodes stay terminal; the rest move anywhere (cycles and self-loops included).
        if u % 5 == 0 {
            continue;
        }
        b.add_edge(u, rng.below(n)).unwrap();
    }
    let convention = if rng.below(2) == 0 {
        Convention::Normal
    } else {
        Convention::Misere
    };
    let verdicts: Vec<(u64, Outcome)> = (0..rng.below(4))
        .map(|_| {
            let o = [Outcome::Win, Outcome::Lose, Outcome::Draw][rng.below(3) as usize];
            (rng.below(n), o)
        })
        .collect();
    let rules = Rules::with_convention(convention)
        .with_verdicts(n as usize, verdicts.clone())
        .unwrap_or_else(|_| Rules::with_convention(convention));
    (b.build().unwrap(), rules)
}

fn edge_list(g: &Csr) -> String {
    let mut s = format!("{} {}\n", g.node_count(), g.edge_count());
    for (u, v) in g.edges() {
        s.push_str(&format!("{u} {v}\n"));
    }
    s
}

#[test]
fn equals_the_sequential_solver_on_random_graphs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    let mut rng = SplitMix64::new(11);
    for case in 0..600 {
        let (g, rules) = random_game(&mut rng);
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(edge_list(&g).as_bytes()))
            .unwrap();
        let workers = 1 + case % 4;
        let cluster = Cluster {
            hosts: vec!["127.0.0.1:1".into()], // one process: nothing listens
            process: 0,
            workers,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(30),
        };
        let got = solve(&cluster, &Job::new(path.clone(), rules.clone()))
            .unwrap()
            .expect("process 0 gathers");
        let want = retrograde(&g, &rules);
        assert_eq!(got.solution, want, "case {case}, {workers} workers");
        assert_eq!(got.edges, g.edge_count());
        for u in 0..g.node_count() as NodeId {
            let m = best_move(&g, &rules, &want, u).unwrap_or(NO_MOVE);
            assert_eq!(
                got.best_moves[u as usize], m,
                "case {case}: best move of {u}"
            );
        }
    }
}

#[test]
fn a_malformed_line_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, "3 2\n0 1\n1 x\n").unwrap();
    let cluster = Cluster {
        hosts: vec!["127.0.0.1:1".into()],
        process: 0,
        workers: 2,
        timeout: Duration::from_secs(30),
        connect_timeout: Duration::from_secs(30),
    };
    let err = solve(&cluster, &Job::new(path, Rules::normal()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad.txt:3"), "{err}");
}
