//! Parity, reachability, safety and Büchi games: every solver against a brute-force oracle on
//! thousands of small random games, every answer through the verifier, the verifier against an
//! independent certificate check on broken claims, and the reachability attractor against
//! retrograde analysis.

use zermelo::graph::generate::{random_edges, RandomSpec, SplitMix64};
use zermelo::graph::{Csr, Rules};
use zermelo::{solve, NodeId, Outcome, Player};
use zermelo_parity::{
    self as parity, favours, generate, objective_arena, solve_objective, Arena, Objective,
    ParitySolution, SolveOptions, Solver,
};

use proptest::prelude::*;

/// A small random arena: `n` vertices, 1-3 successors each (self-loops and repeats allowed).
fn small_arena(rng: &mut SplitMix64, n: u64, max_priority: u64) -> Arena {
    let vertices: Vec<(Player, u32)> = (0..n)
        .map(|_| {
            let owner = if rng.below(2) == 0 {
                Player::Zero
            } else {
                Player::One
            };
            (owner, rng.below(max_priority + 1) as u32)
        })
        .collect();
    let mut edges = Vec::new();
    for v in 0..n {
        for _ in 0..1 + rng.below(3) {
            edges.push((v, rng.below(n)));
        }
    }
    Arena::from_edges(&vertices, edges).unwrap()
}

/// Edges of the graph where `player` is fixed to `sigma` at its vertices in `fixed`.
fn restricted(a: &Arena, player: Player, sigma: &[NodeId], fixed: &[bool]) -> Vec<Vec<NodeId>> {
    a.vertices()
        .map(|v| {
            if a.owner(v) == player && fixed[v as usize] {
                vec![sigma[v as usize]]
            } else {
                a.successors(v).to_vec()
            }
        })
        .collect()
}

fn reachable(
    succ: &[Vec<NodeId>],
    from: impl IntoIterator<Item = NodeId>,
    allowed: impl Fn(NodeId) -> bool,
) -> Vec<bool> {
    let mut seen = vec![false; succ.len()];
    let mut stack: Vec<NodeId> = from.into_iter().filter(|&v| allowed(v)).collect();
    for &v in &stack {
        seen[v as usize] = true;
    }
    while let Some(v) = stack.pop() {
        for &w in &succ[v as usize] {
            if allowed(w) && !seen[w as usize] {
                seen[w as usize] = true;
                stack.push(w);
            }
        }
    }
    seen
}

/// The vertices from which the one-player game `succ` (only `player`'s opponent choosing) has a
/// play whose top recurring priority favours the opponent: reach a vertex `u` that lies on a
/// cycle through vertices of priority <= prio(u), with prio(u) favouring the opponent.
fn opponent_wins(a: &Arena, succ: &[Vec<NodeId>], player: Player) -> Vec<bool> {
    let good: Vec<NodeId> = a
        .vertices()
        .filter(|&u| favours(a.priority(u)) != player)
        .filter(|&u| {
            let p = a.priority(u);
            let after = reachable(succ, succ[u as usize].iter().copied(), |w| {
                a.priority(w) <= p
            });
            after[u as usize]
        })
        .collect();
    // Backward: every vertex that reaches a good vertex.
    a.vertices()
        .map(|v| {
            let r = reachable(succ, [v], |_| true);
            good.iter().any(|&u| r[u as usize])
        })
        .collect()
}

/// Even's winning region by brute force over Even's positional strategies (positional
/// determinacy: the union over strategies of the vertices each one wins).
fn brute_force_even(a: &Arena) -> Vec<bool> {
    let n = a.vertex_count();
    let even: Vec<NodeId> = a
        .vertices()
        .filter(|&v| a.owner(v) == Player::Zero)
        .collect();
    let mut choice = vec![0usize; even.len()];
    let mut won = vec![false; n];
    let all = vec![true; n];
    loop {
        let mut sigma = vec![0; n];
        for (k, &v) in even.iter().enumerate() {
            sigma[v as usize] = a.successors(v)[choice[k]];
        }
        let succ = restricted(a, Player::Zero, &sigma, &all);
        let odd = opponent_wins(a, &succ, Player::Zero);
        for v in 0..n {
            won[v] |= !odd[v];
        }
        // Next strategy (odometer).
        let mut k = 0;
        loop {
            if k == even.len() {
                return won;
            }
            choice[k] += 1;
            if choice[k] < a.successors(even[k]).len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
    }
}

/// An independent certificate check: regions partition, the winner's claimed moves are edges,
/// and from its region, following them, the opponent can neither leave nor win.
fn brute_force_certificate(a: &Arena, s: &ParitySolution) -> bool {
    for p in Player::BOTH {
        let region: Vec<bool> = a.vertices().map(|v| s.winner(v) == p).collect();
        let mut sigma = vec![0; a.vertex_count()];
        for v in a
            .vertices()
            .filter(|&v| region[v as usize] && a.owner(v) == p)
        {
            match s.strategy(v) {
                Some(w) if a.successors(v).contains(&w) => sigma[v as usize] = w,
                _ => return false,
            }
        }
        let succ = restricted(a, p, &sigma, &region);
        let from = a.vertices().filter(|&v| region[v as usize]);
        let r = reachable(&succ, from, |_| true);
        if a.vertices().any(|v| r[v as usize] && !region[v as usize]) {
            return false;
        }
        let opp = opponent_wins(a, &succ, p);
        if a.vertices().any(|v| region[v as usize] && opp[v as usize]) {
            return false;
        }
    }
    true
}

/// Every combination of preprocessing and SCC decomposition.
const ALL_OPTIONS: [SolveOptions; 4] = [
    SolveOptions {
        preprocess: true,
        scc: true,
    },
    SolveOptions {
        preprocess: true,
        scc: false,
    },
    SolveOptions {
        preprocess: false,
        scc: true,
    },
    SolveOptions::NONE,
];

fn winners(s: &ParitySolution) -> Vec<bool> {
    (0..s.len() as NodeId)
        .map(|v| s.winner(v) == Player::Zero)
        .collect()
}

/// Whether every solver with every option set finds `expected` (Even's winning vertices) and
/// a strategy the verifier accepts; the error names the solver, options and what differed.
fn every_solver_finds(a: &Arena, expected: &[bool]) -> Result<(), TestCaseError> {
    for solver in Solver::ALL {
        for options in ALL_OPTIONS {
            let s = parity::solve_with(a, solver, options);
            prop_assert_eq!(&winners(&s), expected, "{:?} {:?}", solver, options);
            if let Err(e) = parity::verify(a, &s) {
                return Err(TestCaseError::fail(format!("{solver:?} {options:?}: {e}")));
            }
        }
    }
    Ok(())
}

/// [`every_solver_finds`] as an assertion; `context` names the game in failure messages.
fn assert_every_solver_finds(a: &Arena, expected: &[bool], context: &str) {
    every_solver_finds(a, expected).unwrap_or_else(|e| panic!("{context}: {e}"));
}

#[test]
fn every_solver_matches_brute_force_and_verifies() {
    let mut rng = SplitMix64::new(7);
    for case in 0..3000 {
        let n = 1 + rng.below(7);
        let top = 1 + rng.below(5);
        let a = small_arena(&mut rng, n, top);
        let expected = brute_force_even(&a);
        assert_every_solver_finds(&a, &expected, &format!("case {case} {a:?}"));
    }
}

#[test]
fn verifier_agrees_with_an_independent_check_on_broken_claims() {
    let mut rng = SplitMix64::new(11);
    let (mut rejected, mut accepted) = (0, 0);
    for case in 0..3000 {
        let n = 1 + rng.below(7);
        let top = 1 + rng.below(4);
        let a = small_arena(&mut rng, n, top);
        let good = parity::solve(&a, Solver::PriorityPromotion);
        let v = rng.below(n) as NodeId;
        let mut bad = good.clone();
        match rng.below(3) {
            // Flip a winner.
            0 => {
                let w = bad.winner(v).other();
                let mv = (a.owner(v) == w).then(|| a.successors(v)[0]);
                bad.set(v, w, mv);
            }
            // Redirect a strategy to another successor (maybe into a losing cycle or out).
            1 => {
                let succ = a.successors(v);
                bad.set(
                    v,
                    bad.winner(v),
                    Some(succ[rng.below(succ.len() as u64) as usize]),
                );
            }
            // Drop a move.
            _ => bad.set(v, bad.winner(v), None),
        }
        let verdict = parity::verify(&a, &bad).is_ok();
        assert_eq!(
            verdict,
            brute_force_certificate(&a, &bad),
            "case {case}: {a:?} {bad:?}"
        );
        if verdict {
            accepted += 1
        } else {
            rejected += 1
        }
    }
    assert!(
        rejected > 1000 && accepted > 100,
        "{rejected} rejected, {accepted} accepted"
    );
}

#[test]
fn verifier_rejects_hand_broken_certificates() {
    // 0 (Even, 2) -> 1 | 2; 1 (Odd, 1) -> 0; 2 (Odd, 3) -> 0 | 2. Even wins 0 and 1 by 0 -> 1;
    // Odd wins 2 (its self-loop has priority 3).
    let a = Arena::from_edges(
        &[(Player::Zero, 2), (Player::One, 1), (Player::One, 3)],
        [(0, 1), (0, 2), (1, 0), (2, 0), (2, 2)],
    )
    .unwrap();
    let good = parity::solve(&a, Solver::Zielonka);
    assert_eq!(winners(&good), [true, true, false]);
    assert_eq!(good.strategy(0), Some(1));
    parity::verify(&a, &good).unwrap();
    let message = |s: &ParitySolution| parity::verify(&a, s).unwrap_err().to_string();
    let mut flip = good.clone();
    flip.set(1, Player::One, None);
    assert_eq!(
        message(&flip),
        "vertex 0 is won by player 0, but its move goes to 1, won by player 1"
    );
    let mut cycle = good.clone();
    cycle.set(0, Player::Zero, Some(2));
    assert_eq!(
        message(&cycle),
        "vertex 0 is won by player 0, but its move goes to 2, won by player 1"
    );
    let mut all_even = ParitySolution::new(3);
    all_even.set(0, Player::Zero, Some(2));
    all_even.set(1, Player::Zero, None);
    all_even.set(2, Player::Zero, None);
    assert_eq!(
        message(&all_even),
        "player 0's strategy allows the cycle 2 -> 2 whose highest priority 3 favours player 1"
    );
    let mut missing = good.clone();
    missing.set(0, Player::Zero, None);
    assert_eq!(
        message(&missing),
        "vertex 0 is won by its owner, player 0, but no move is given"
    );
    let mut not_edge = good.clone();
    not_edge.set(0, Player::Zero, Some(0));
    assert_eq!(message(&not_edge), "vertex 0: the move to 0 is not an edge");
    let mut escape = good;
    escape.set(0, Player::One, None);
    assert_eq!(
        message(&escape),
        "vertex 0 is won by player 1, but its owner, player 0, can move to 1, won by player 0: \
         the region is not a trap"
    );
}

#[test]
fn structured_families_solve_alike_and_verify() {
    let games = [
        generate::ladder(50),
        generate::recursive_ladder(12),
        generate::friedmann(8),
        generate::two_counters(4),
        generate::two_counters(9),
        generate::jurdzinski(4, 5),
    ];
    for a in games {
        let a = a.unwrap();
        let z = parity::solve(&a, Solver::Zielonka);
        parity::verify(&a, &z).unwrap();
        for solver in Solver::ALL {
            let s = parity::solve(&a, solver);
            parity::verify(&a, &s).unwrap_or_else(|e| panic!("{solver:?}: {e}"));
            assert_eq!(winners(&s), winners(&z), "{solver:?}");
        }
    }
    let r = generate::random(generate::RandomGame {
        vertices: 2000,
        max_priority: 8,
        min_degree: 1,
        max_degree: 10,
        self_loops: false,
        seed: 3,
    })
    .unwrap();
    assert!(r.vertices().all(|v| !r.successors(v).contains(&v)));
    let z = parity::solve(&r, Solver::Zielonka);
    parity::verify(&r, &z).unwrap();
    for solver in Solver::ALL {
        let s = parity::solve(&r, solver);
        assert_eq!(winners(&z), winners(&s), "{solver:?}");
        parity::verify(&r, &s).unwrap();
    }
}

/// Medium random games (20-300 vertices, up to 12 priorities), where tangles nest and regions
/// leak: every solver finds Zielonka's regions (itself checked against brute force above) and
/// a strategy the verifier accepts.
#[test]
fn every_solver_agrees_on_medium_random_games() {
    let mut rng = SplitMix64::new(19);
    for case in 0..400 {
        let n = 20 + rng.below(280);
        let a = generate::random(generate::RandomGame {
            vertices: n,
            max_priority: 1 + rng.below(12) as u32,
            min_degree: 1,
            max_degree: 1 + rng.below(4),
            self_loops: rng.below(2) == 0,
            seed: case,
        })
        .unwrap();
        let oracle = winners(&parity::solve_with(
            &a,
            Solver::Zielonka,
            SolveOptions::NONE,
        ));
        assert_every_solver_finds(&a, &oracle, &format!("case {case}"));
    }
}

/// Small synthesis-style games (plant x parity automaton): every solver with every option
/// agrees with plain Zielonka and, where Even has at most 4096 positional strategies, with
/// brute force; every answer is a certificate.
#[test]
fn synthesis_games_match_the_oracles_and_verify() {
    let (mut brute_forced, mut mixed) = (0, 0);
    for seed in 0..300 {
        let spec = generate::SynthesisGame {
            plant_states: 1 + seed % 3,
            automaton_states: 2 + seed % 7,
            components: 1 + seed % 2,
            inputs: (seed % 2) as u32,
            outputs: 1 + (seed / 2 % 2) as u32,
            max_priority: 1 + (seed % 5) as u32,
            seed,
        };
        let a = generate::synthesis(spec).unwrap();
        let oracle = winners(&parity::solve_with(
            &a,
            Solver::Zielonka,
            SolveOptions::NONE,
        ));
        mixed += usize::from(oracle.contains(&true) && oracle.contains(&false));
        let strategies = a
            .vertices()
            .filter(|&v| a.owner(v) == Player::Zero)
            .try_fold(1u64, |n, v| n.checked_mul(a.successors(v).len() as u64))
            .unwrap_or(u64::MAX);
        if strategies <= 4096 {
            assert_eq!(oracle, brute_force_even(&a), "{spec:?}");
            brute_forced += 1;
        }
        assert_every_solver_finds(&a, &oracle, &format!("{spec:?}"));
    }
    // Both players must win somewhere in enough of them for the comparison to mean something.
    assert!(
        brute_forced >= 100 && mixed >= 30,
        "{brute_forced} games brute-forced, {mixed} won by both players somewhere"
    );
    // A larger one, with the default plant and automaton sizes of `zermelo gen parity`.
    let a = generate::synthesis(generate::SynthesisGame {
        plant_states: 4,
        automaton_states: 64,
        components: 4,
        inputs: 2,
        outputs: 2,
        max_priority: 5,
        seed: 9,
    })
    .unwrap();
    let oracle = winners(&parity::solve_with(
        &a,
        Solver::Zielonka,
        SolveOptions::NONE,
    ));
    assert_every_solver_finds(&a, &oracle, "");
}

#[test]
fn ladder_is_won_by_the_player_of_its_top_priority_cycle() {
    // Every vertex can reach both parities' cycles; the published ladder game is won by Even
    // from everywhere (odd vertices are owned by Odd but must pass through even ones).
    let a = generate::ladder(10).unwrap();
    for solver in Solver::ALL {
        let s = parity::solve(&a, solver);
        parity::verify(&a, &s).unwrap();
    }
}

#[test]
fn objectives_agree_with_their_parity_reductions() {
    let mut rng = SplitMix64::new(5);
    for case in 0..2000 {
        let n = 1 + rng.below(8);
        let a = small_arena(&mut rng, n, 1);
        let target: Vec<bool> = (0..n).map(|_| rng.below(3) == 0).collect();
        for objective in [
            Objective::Reach,
            Objective::Safety,
            Objective::Buchi,
            Objective::CoBuchi,
        ] {
            for player in Player::BOTH {
                let s = solve_objective(&a, objective, player, &target);
                let reduced = objective_arena(&a, objective, player, &target);
                let z = parity::solve(&reduced, Solver::Zielonka);
                assert_eq!(
                    winners(&s),
                    winners(&z),
                    "case {case} {objective:?} {player:?}"
                );
                // Certify: target sinks of reach/safety play their self-loop in the reduction.
                let mut claim = s.clone();
                if matches!(objective, Objective::Reach | Objective::Safety) {
                    for v in reduced.vertices().filter(|&v| target[v as usize]) {
                        let mv = (reduced.owner(v) == claim.winner(v)).then_some(v);
                        claim.set(v, claim.winner(v), mv);
                    }
                }
                parity::verify(&reduced, &claim)
                    .unwrap_or_else(|e| panic!("case {case} {objective:?} {player:?}: {e}"));
            }
        }
    }
}

/// Retrograde analysis is the reachability game of the turn-encoded graph: `(u, p)` is `u` with
/// `p` to move; a stuck mover loses. Even reaching "Odd stuck" is WIN for Even to move, etc.
#[test]
fn reachability_arena_gives_exactly_retrograde_regions() {
    for seed in 0..200 {
        let spec = RandomSpec {
            nodes: 60,
            edges: 90 + seed % 60,
            terminal_fraction: 0.1,
            seed,
        };
        let g = Csr::from_edges(spec.nodes, random_edges(spec)).unwrap();
        let retro = solve::retrograde(&g, &Rules::normal());
        let n = g.node_count() as u64;
        // Vertex u + n * p: u with player p to move.
        let mut vertices = Vec::new();
        let mut edges = Vec::new();
        for p in 0..2u64 {
            for u in 0..n {
                let owner = if p == 0 { Player::Zero } else { Player::One };
                vertices.push((owner, 0));
                let succ = g.successors(u as NodeId);
                if succ.is_empty() {
                    edges.push((u + n * p, u + n * p));
                }
                for &w in succ {
                    edges.push((u + n * p, u64::from(w) + n * (1 - p)));
                }
            }
        }
        let a = Arena::from_edges(&vertices, edges).unwrap();
        let stuck = |p: u64| -> Vec<bool> {
            (0..2 * n)
                .map(|x| x / n == p && g.out_degree((x % n) as NodeId) == 0)
                .collect()
        };
        let even = parity::reachability(&a, Player::Zero, &stuck(1));
        let odd = parity::reachability(&a, Player::One, &stuck(0));
        for u in 0..n as NodeId {
            let label = if even.winner(u) == Player::Zero {
                Outcome::Win
            } else if odd.winner(u) == Player::One {
                Outcome::Lose
            } else {
                Outcome::Draw
            };
            assert_eq!(label, retro.outcome(u), "seed {seed} node {u}");
            // The same from Odd's side of the encoding.
            let mirrored = u + n as NodeId;
            assert_eq!(odd.winner(mirrored) == Player::One, label == Outcome::Win);
        }
    }
}

#[test]
fn pgsolver_round_trip_of_generated_games() {
    let a = generate::two_counters(3).unwrap();
    let mut text = Vec::new();
    zermelo_parity::io::write_pgsolver(&mut text, &a).unwrap();
    assert_eq!(zermelo_parity::io::parse_pgsolver(&text, "tc").unwrap(), a);
    let synthesis = generate::synthesis(generate::SynthesisGame {
        plant_states: 3,
        automaton_states: 20,
        components: 2,
        inputs: 1,
        outputs: 2,
        max_priority: 4,
        seed: 1,
    })
    .unwrap();
    let mut text = Vec::new();
    zermelo_parity::io::write_pgsolver(&mut text, &synthesis).unwrap();
    assert!(text.starts_with(b"parity ") && text.windows(9).any(|w| w == b"start 0;\n"));
    assert_eq!(
        zermelo_parity::io::parse_pgsolver(&text, "synthesis").unwrap(),
        synthesis
    );
    let s = parity::solve(&a, Solver::PriorityPromotion).normalised(&a);
    let mut sol = Vec::new();
    zermelo_parity::io::write_paritysol(&mut sol, &a, &s).unwrap();
    let back = zermelo_parity::io::parse_paritysol(&sol, "tc.sol", a.vertex_count()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn parsers_never_panic_on_damaged_input() {
    let mut rng = SplitMix64::new(3);
    let a = generate::jurdzinski(2, 3).unwrap();
    let mut text = Vec::new();
    zermelo_parity::io::write_pgsolver(&mut text, &a).unwrap();
    for _ in 0..3000 {
        let mut t = text.clone();
        for _ in 0..1 + rng.below(4) {
            if t.is_empty() {
                break;
            }
            let i = rng.below(t.len() as u64) as usize;
            match rng.below(3) {
                0 => t[i] = b"0123456789,; \n\"#x"[rng.below(17) as usize],
                1 => {
                    t.remove(i);
                }
                _ => t.truncate(i),
            }
        }
        if let Ok(g) = zermelo_parity::io::parse_pgsolver(&t, "x") {
            let s = parity::solve(&g, Solver::Zielonka);
            parity::verify(&g, &s).unwrap();
        }
        let _ = zermelo_parity::io::parse_paritysol(&t, "x", a.vertex_count());
    }
}

/// A game whose strongly connected components form a DAG: vertex `v` is in block `v / block`
/// and its moves go to its own block or to lower ones (`moves` are raw targets, folded down).
fn layered_arena(vertices: &[(bool, u32)], moves: &[Vec<usize>], block: usize) -> Arena {
    let owners: Vec<(Player, u32)> = vertices
        .iter()
        .map(|&(odd, p)| (if odd { Player::One } else { Player::Zero }, p))
        .collect();
    let edges = moves.iter().enumerate().flat_map(|(v, targets)| {
        let limit = (v / block + 1) * block;
        targets
            .iter()
            .map(move |&w| (v as u64, (if w < limit { w } else { w % limit }) as u64))
    });
    Arena::from_edges(&owners, edges).unwrap()
}

fn layered_game() -> impl Strategy<Value = Arena> {
    layered_game_of(1..28, 1..28)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    /// SCC decomposition (with and without preprocessing) against the plain solvers and, on
    /// small games, brute force; every answer is a certificate.
    #[test]
    fn scc_decomposition_agrees_with_the_oracles(a in layered_game()) {
        let oracle = winners(&parity::solve_with(&a, Solver::Zielonka, SolveOptions::NONE));
        if a.vertex_count() <= 8 {
            prop_assert_eq!(&oracle, &brute_force_even(&a));
        }
        every_solver_finds(&a, &oracle)?;
    }
}

fn layered_game_of(
    sizes: std::ops::Range<usize>,
    blocks: std::ops::Range<usize>,
) -> impl Strategy<Value = Arena> {
    (sizes, blocks)
        .prop_flat_map(|(n, block)| {
            (
                prop::collection::vec((any::<bool>(), 0..7u32), n),
                prop::collection::vec(prop::collection::vec(0..n, 1..4), n),
                Just(block),
            )
        })
        .prop_map(|(vertices, moves, block)| {
            layered_arena(&vertices, &moves, block.min(moves.len()))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Games of a few hundred vertices in small blocks: most components are small next to the
    /// arena, so they are copied into arenas of their own.
    #[test]
    fn scc_decomposition_of_many_small_components(a in layered_game_of(100..400, 2..12)) {
        let oracle = winners(&parity::solve_with(&a, Solver::Zielonka, SolveOptions::NONE));
        every_solver_finds(&a, &oracle)?;
    }
}

#[test]
fn a_region_won_below_splits_the_component_above() {
    // Bottom: 0 (Odd, 1) <-> 1 (Odd, 3), won by Odd. Above: one component 2..=5 where 2 (Odd,
    // priority 0) can move down to 0; Odd attracts 2, which breaks the cycle 2 -> 3 -> 4 -> 5
    // -> 2 into three components; 5 (Even, priority 4) wins by its self-loop, and 3, 4 (Even)
    // reach it.
    let a = Arena::from_edges(
        &[
            (Player::One, 1),
            (Player::One, 3),
            (Player::One, 0),
            (Player::Zero, 2),
            (Player::Zero, 1),
            (Player::Zero, 4),
        ],
        [
            (0, 1),
            (1, 0),
            (2, 0),
            (2, 3),
            (3, 4),
            (3, 2),
            (4, 5),
            (5, 2),
            (5, 5),
        ],
    )
    .unwrap();
    let expected = brute_force_even(&a);
    assert_eq!(expected, [false, false, false, true, true, true]);
    assert_every_solver_finds(&a, &expected, "");
}

#[test]
fn a_million_vertex_chain_of_components_needs_no_recursion() {
    // Vertex v -> v + 1 and v -> v (priority v % 3): a million components of one vertex each,
    // each with a self-loop; depth-first search along the chain is a million deep.
    let n: u64 = 1_000_000;
    let vertices: Vec<(Player, u32)> = (0..n)
        .map(|v| {
            (
                if v % 2 == 0 {
                    Player::Zero
                } else {
                    Player::One
                },
                (v % 3) as u32,
            )
        })
        .collect();
    let edges = (0..n).flat_map(|v| [(v, (v + 1).min(n - 1)), (v, v)]);
    let a = Arena::from_edges(&vertices, edges).unwrap();
    for solver in Solver::ALL {
        let s = parity::solve_with(
            &a,
            solver,
            SolveOptions {
                preprocess: false,
                scc: true,
            },
        );
        parity::verify(&a, &s).unwrap();
    }
}

/// Big enough for the layered, parallel attractor (from 8192 seeds): the same solution, moves
/// included, for any thread count.
#[test]
fn parallel_attractors_give_the_same_solution_for_any_thread_count() {
    let a = generate::random(generate::RandomGame {
        vertices: 120_000,
        max_priority: 4,
        min_degree: 1,
        max_degree: 6,
        self_loops: false,
        seed: 8,
    })
    .unwrap();
    for solver in Solver::ALL {
        for options in [
            SolveOptions::ALL,
            SolveOptions::default(),
            SolveOptions::NONE,
        ] {
            let on = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| parity::solve_with(&a, solver, options))
            };
            let one = on(1);
            parity::verify(&a, &one).unwrap();
            for threads in 2..=4 {
                assert_eq!(
                    on(threads),
                    one,
                    "{solver:?} {options:?}, {threads} threads"
                );
            }
        }
    }
}
