//! Property tests on thousands of random small graphs, each solver against an independent
//! oracle:
//!
//! * retrograde analysis = the naive round-by-round fixpoint iteration (seed 003 §3), labels and
//!   depths (a node's depth is the round it is decided in, 003 §4.2);
//! * the acyclic backward induction = retrograde analysis on DAGs;
//! * the verifier accepts every solver output and rejects every other labelling it is shown;
//! * Grundy values = brute-force recursion, and the XOR rule = solving the sum's product graph;
//! * two-player solving = a naive fixpoint over `(position, player)` computed from the move lists;
//! * parsers round-trip and never panic.

use proptest::prelude::*;
use zermelo::graph::{Convention, Csr, Rules, TwoPlayerGraph};
use zermelo::solve::{self, LineEnd, Nimber, Solution};
use zermelo::{Depth, NodeId, Outcome, Player};

/// A random game: graph, convention, explicit verdicts.
#[derive(Clone, Debug)]
struct Game {
    n: usize,
    edges: Vec<(u64, u64)>,
    misere: bool,
    verdicts: Vec<(u64, Outcome)>,
}

impl Game {
    fn graph(&self) -> Csr {
        Csr::from_edges(self.n as u64, self.edges.iter().copied()).unwrap()
    }

    fn rules(&self) -> Rules {
        let c = if self.misere {
            Convention::Misere
        } else {
            Convention::Normal
        };
        Rules::with_convention(c)
            .with_verdicts(self.n, self.verdicts.iter().copied())
            .unwrap()
    }
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![Just(Outcome::Win), Just(Outcome::Lose), Just(Outcome::Draw)]
}

/// Graphs of 1..=10 nodes with up to 3n edges (cycles, self-loops and multi-edges included);
/// half normal play, a quarter misère; a third with a few explicit verdicts.
fn game() -> impl Strategy<Value = Game> {
    (1usize..=10)
        .prop_flat_map(|n| {
            let edge = (0..n as u64, 0..n as u64);
            (
                Just(n),
                prop::collection::vec(edge, 0..=3 * n),
                prop::bool::weighted(0.3),
                prop_oneof![
                    2 => Just(Vec::new()),
                    1 => prop::collection::vec((0..n as u64, outcome()), 1..=3),
                ],
            )
        })
        .prop_map(|(n, edges, misere, mut verdicts)| {
            verdicts.sort_by_key(|v| v.0);
            verdicts.dedup_by_key(|v| v.0);
            Game {
                n,
                edges,
                misere,
                verdicts,
            }
        })
}

/// Larger games (up to 60 nodes) for longer waves and deeper depths.
fn big_game() -> impl Strategy<Value = Game> {
    (10usize..=60).prop_flat_map(|n| {
        let edge = (0..n as u64, 0..n as u64);
        (
            Just(n),
            prop::collection::vec(edge, n / 2..=3 * n),
            any::<bool>(),
            prop::collection::vec((0..n as u64, outcome()), 0..=4),
        )
            .prop_map(|(n, edges, misere, mut verdicts)| {
                verdicts.sort_by_key(|v| v.0);
                verdicts.dedup_by_key(|v| v.0);
                Game {
                    n,
                    edges,
                    misere,
                    verdicts,
                }
            })
    })
}

/// Acyclic games: every edge goes from a higher to a lower id.
fn dag_game() -> impl Strategy<Value = Game> {
    game().prop_map(|mut g| {
        g.edges.retain(|&(u, v)| u != v);
        for e in &mut g.edges {
            if e.0 < e.1 {
                *e = (e.1, e.0);
            }
        }
        g
    })
}

/// The naive fixpoint iteration: in round 0 the terminals are decided; in round t every
/// undecided node with a LOSE child decided before round t becomes WIN, and every undecided
/// non-terminal whose children were all decided WIN before round t becomes LOSE.
/// O(n · (V + E)); shares nothing with the solvers.
fn oracle(
    n: usize,
    succ: &[Vec<usize>],
    terminal: &[Option<Outcome>],
) -> Vec<(Outcome, Option<u32>)> {
    let mut label: Vec<Option<(Outcome, u32)>> =
        terminal.iter().map(|t| t.map(|o| (o, 0))).collect();
    for round in 1.. {
        let before = label.clone();
        let decided = |v: usize, o: Outcome| matches!(before[v], Some((x, _)) if x == o);
        let mut changed = false;
        for u in 0..n {
            if before[u].is_some() {
                continue;
            }
            if succ[u].iter().any(|&v| decided(v, Outcome::Lose)) {
                label[u] = Some((Outcome::Win, round));
                changed = true;
            } else if succ[u].iter().all(|&v| decided(v, Outcome::Win)) {
                label[u] = Some((Outcome::Lose, round));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    label
        .into_iter()
        .map(|l| match l {
            Some((Outcome::Draw, _)) | None => (Outcome::Draw, None),
            Some((o, d)) => (o, Some(d)),
        })
        .collect()
}

fn oracle_for(g: &Game) -> Vec<(Outcome, Option<u32>)> {
    let mut succ = vec![Vec::new(); g.n];
    for &(u, v) in &g.edges {
        succ[u as usize].push(v as usize);
    }
    let stuck = if g.misere {
        Outcome::Win
    } else {
        Outcome::Lose
    };
    let mut terminal: Vec<Option<Outcome>> =
        succ.iter().map(|s| s.is_empty().then_some(stuck)).collect();
    for &(u, o) in &g.verdicts {
        terminal[u as usize] = Some(o);
        succ[u as usize].clear();
    }
    oracle(g.n, &succ, &terminal)
}

fn labels(s: &Solution) -> Vec<(Outcome, Option<u32>)> {
    (0..s.len() as NodeId)
        .map(|u| (s.outcome(u), s.depth(u).map(Depth::plies)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn retrograde_equals_the_naive_fixpoint(g in game()) {
        let s = solve::retrograde(&g.graph(), &g.rules());
        prop_assert_eq!(labels(&s), oracle_for(&g));
    }

    #[test]
    fn verifier_accepts_solver_output(g in game()) {
        let (graph, rules) = (g.graph(), g.rules());
        let s = solve::retrograde(&graph, &rules);
        let moves = solve::best_moves(&graph, &rules, &s);
        prop_assert_eq!(solve::verify(&graph, &rules, &s, Some(&moves)), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn retrograde_equals_the_naive_fixpoint_on_larger_graphs(g in big_game()) {
        let (graph, rules) = (g.graph(), g.rules());
        let s = solve::retrograde(&graph, &rules);
        prop_assert_eq!(labels(&s), oracle_for(&g));
        let moves = solve::best_moves(&graph, &rules, &s);
        prop_assert_eq!(solve::verify(&graph, &rules, &s, Some(&moves)), Ok(()));
    }

    /// The least fixpoint with depths is the only labelling the verifier accepts, so every
    /// mutation must be rejected.
    #[test]
    fn verifier_rejects_any_other_labelling(
        g in game(),
        node in any::<prop::sample::Index>(),
        new_outcome in outcome(),
        new_depth in 0u32..12,
        second in any::<Option<(prop::sample::Index, u32)>>(),
    ) {
        let (graph, rules) = (g.graph(), g.rules());
        let truth = solve::retrograde(&graph, &rules);
        let mut claimed = labels(&truth);
        let depth_of = |o: Outcome, d: u32| (o != Outcome::Draw).then_some(d);
        claimed[node.index(g.n)] = (new_outcome, depth_of(new_outcome, new_depth));
        if let Some((i, d)) = second {
            let j = i.index(g.n);
            let o = claimed[j].0;
            claimed[j] = (o, depth_of(o, d % 12));
        }
        prop_assume!(claimed != labels(&truth));
        let (outcomes, depths) = claimed.into_iter().map(|(o, d)| (o, d.map(Depth))).unzip();
        let bogus = Solution::from_parts(outcomes, depths);
        prop_assert!(solve::verify(&graph, &rules, &bogus, None).is_err());
    }

    #[test]
    fn verifier_rejects_suboptimal_best_moves(g in game(), node in any::<prop::sample::Index>(), pick in any::<prop::sample::Index>()) {
        let (graph, rules) = (g.graph(), g.rules());
        let s = solve::retrograde(&graph, &rules);
        let mut moves = solve::best_moves(&graph, &rules, &s);
        let movers: Vec<NodeId> = graph.nodes().filter(|&u| moves[u as usize].is_some()).collect();
        if movers.is_empty() {
            return Ok(());
        }
        let u = movers[node.index(movers.len())];
        let succ = graph.successors(u);
        let v = succ[pick.index(succ.len())];
        let one_less = s.depth(u).map(|d| Depth(d.0 - 1));
        let optimal = match s.outcome(u) {
            Outcome::Win => s.outcome(v) == Outcome::Lose && s.depth(v) == one_less,
            Outcome::Lose => s.depth(v) == one_less,
            Outcome::Draw => s.outcome(v) == Outcome::Draw,
        };
        moves[u as usize] = Some(v);
        prop_assert_eq!(solve::verify(&graph, &rules, &s, Some(&moves)).is_ok(), optimal);
    }

    #[test]
    fn principal_lines_realise_the_depth(g in game(), start in any::<prop::sample::Index>()) {
        let (graph, rules) = (g.graph(), g.rules());
        let s = solve::retrograde(&graph, &rules);
        let u = start.index(g.n) as NodeId;
        let line = solve::principal_line(&graph, &rules, &s, u);
        match s.depth(u) {
            Some(d) => {
                prop_assert_eq!(line.end, LineEnd::Terminal);
                prop_assert_eq!(line.nodes.len() as u32, d.0 + 1);
                for (ply, w) in line.nodes.iter().enumerate() {
                    let expected = if ply % 2 == 0 { s.outcome(u) } else { s.outcome(u).flip() };
                    prop_assert_eq!(s.outcome(*w), expected);
                    prop_assert_eq!(s.depth(*w), Some(Depth(d.0 - ply as u32)));
                }
            }
            None => {
                prop_assert!(line.nodes.iter().all(|&w| s.outcome(w) == Outcome::Draw));
                let last = *line.nodes.last().unwrap();
                if line.end == LineEnd::Terminal {
                    prop_assert!(rules.terminal_verdict(&graph, last) == Some(Outcome::Draw));
                }
            }
        }
    }

    #[test]
    fn acyclic_agrees_with_retrograde_on_dags(g in dag_game()) {
        let (graph, rules) = (g.graph(), g.rules());
        let s = solve::retrograde(&graph, &rules);
        prop_assert_eq!(solve::acyclic(&graph, &rules), Ok(s.clone()));
        prop_assert!(solve::find_cycle(&graph).is_none());
        // Without ties there are no draws in an acyclic game.
        if g.verdicts.iter().all(|v| v.1 != Outcome::Draw) {
            prop_assert_eq!(s.counts().draw, 0);
        }
    }

    #[test]
    fn cycles_found_are_real(g in game()) {
        let graph = g.graph();
        let has_cycle = g.edges.iter().any(|&(u, v)| u == v) || {
            // Brute force: some node reaches itself.
            (0..g.n).any(|s| reaches(&graph, s as NodeId, s as NodeId))
        };
        match solve::find_cycle(&graph) {
            Some(c) => {
                prop_assert!(has_cycle);
                let k = c.nodes.len();
                for i in 0..k {
                    prop_assert!(graph.successors(c.nodes[i]).contains(&c.nodes[(i + 1) % k]));
                }
            }
            None => prop_assert!(!has_cycle),
        }
        prop_assert_eq!(solve::grundy(&graph).is_ok(), !has_cycle);
    }

    #[test]
    fn grundy_equals_brute_force(g in dag_game()) {
        let graph = g.graph();
        let values = solve::grundy(&graph).unwrap();
        for u in graph.nodes() {
            prop_assert_eq!(values[u as usize], Nimber(brute_grundy(&graph, u)));
        }
        let s = solve::retrograde(&graph, &Rules::normal());
        for u in graph.nodes() {
            prop_assert_eq!(values[u as usize] == Nimber(0), s.outcome(u) == Outcome::Lose);
        }
    }

    /// The Sprague-Grundy theorem, checked: the sum of two components, solved as one product
    /// game, is lost exactly when the nim-sum is 0, and the suggested move reaches a lost sum.
    #[test]
    fn sums_obey_the_xor_rule(g in dag_game(), a in any::<prop::sample::Index>(), b in any::<prop::sample::Index>()) {
        let graph = g.graph();
        let n = g.n as u64;
        let values = solve::grundy(&graph).unwrap();
        let mut product = Vec::new();
        for x in 0..n {
            for y in 0..n {
                for &x2 in graph.successors(x as NodeId) {
                    product.push((x * n + y, u64::from(x2) * n + y));
                }
                for &y2 in graph.successors(y as NodeId) {
                    product.push((x * n + y, x * n + u64::from(y2)));
                }
            }
        }
        let pg = Csr::from_edges(n * n, product).unwrap();
        let ps = solve::retrograde(&pg, &Rules::normal());
        let (a, b) = (a.index(g.n) as NodeId, b.index(g.n) as NodeId);
        let sum = solve::analyse_sum(&graph, &values, &[a, b]);
        let state = |x: NodeId, y: NodeId| x * n as NodeId + y;
        prop_assert_eq!(sum.nim_sum == Nimber(0), ps.outcome(state(a, b)) == Outcome::Lose);
        match sum.winning_move {
            None => prop_assert_eq!(sum.nim_sum, Nimber(0)),
            Some(m) => {
                prop_assert!(graph.successors(m.from).contains(&m.to));
                let after = if m.component == 0 { state(m.to, b) } else { state(a, m.to) };
                prop_assert_eq!(ps.outcome(after), Outcome::Lose);
            }
        }
    }

    #[test]
    fn two_player_games_match_a_naive_oracle(
        (n, m0, m1) in (1usize..=7).prop_flat_map(|n| {
            let e = (0..n as u64, 0..n as u64);
            (Just(n), prop::collection::vec(e.clone(), 0..=2 * n), prop::collection::vec(e, 0..=2 * n))
        })
    ) {
        let game = TwoPlayerGraph::from_moves(n as u64, [&m0, &m1]).unwrap();
        let s = solve::retrograde(game.states(), &Rules::normal());
        // Oracle over (position, player) pairs straight from the move lists.
        let idx = |p: u64, pl: usize| (p as usize) * 2 + pl;
        let mut succ = vec![Vec::new(); 2 * n];
        for (pl, moves) in [&m0, &m1].into_iter().enumerate() {
            for &(u, v) in moves {
                succ[idx(u, pl)].push(idx(v, 1 - pl));
            }
        }
        let terminal: Vec<_> = succ.iter().map(|s: &Vec<usize>| s.is_empty().then_some(Outcome::Lose)).collect();
        let expected = oracle(2 * n, &succ, &terminal);
        for p in 0..n as NodeId {
            for pl in Player::BOTH {
                let st = TwoPlayerGraph::state(p, pl);
                prop_assert_eq!(
                    (s.outcome(st), s.depth(st).map(Depth::plies)),
                    expected[idx(u64::from(p), pl.index())]
                );
            }
        }
    }
}

fn reaches(g: &Csr, from: NodeId, target: NodeId) -> bool {
    let mut seen = vec![false; g.node_count()];
    let mut stack: Vec<NodeId> = g.successors(from).to_vec();
    while let Some(u) = stack.pop() {
        if u == target {
            return true;
        }
        if !std::mem::replace(&mut seen[u as usize], true) {
            stack.extend_from_slice(g.successors(u));
        }
    }
    false
}

fn brute_grundy(g: &Csr, u: NodeId) -> u32 {
    let children: Vec<u32> = g
        .successors(u)
        .iter()
        .map(|&v| brute_grundy(g, v))
        .collect();
    (0..).find(|x| !children.contains(x)).unwrap()
}
