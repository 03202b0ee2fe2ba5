//! Games defined by rules, each checked against an independent oracle:
//!
//! * the three generic solvers agree: exploring + retrograde analysis, the dense un-move solver
//!   and the dense reverse-edge solver give the same outcome and depth to every position;
//! * un-moves are exactly the reversed moves (the first test to run on a new game, seed 002 S7);
//! * the symmetry quotient keeps every outcome and depth;
//! * the verifier accepts every generic solution, and dense best moves are the verifier's;
//! * every closed form (Nim, misère Nim, sums, subtraction games and their periods, staircase
//!   Nim, Wythoff, Green Hackenbush) equals brute-force solving on all small cases;
//! * known facts: tic-tac-toe is a draw with 5,478 positions (765 up to symmetry); the seed's
//!   cop-and-robber case; policeman and thief equal a graph built literally by seed 001's code.

use std::collections::HashMap;

use zermelo::game::compact::{self, CompactOptions, CounterMode, RankedGame};
use zermelo::game::{
    dense_best_move, dense_graph, explore, solve_dense, solve_dense_reverse, Game, Ranked, Reduced,
    Symmetry, Unmoves, Value,
};
use zermelo::graph::generate::SplitMix64;
use zermelo::graph::{Convention, Csr, Rules};
use zermelo::solve::{self, Solution};
use zermelo::{Depth, NodeId, Outcome};
use zermelo_games::cop_robber::CopRobber;
use zermelo_games::hackenbush::Forest;
use zermelo_games::nim::{self, Nim};
use zermelo_games::police_thief::{Board, PoliceThief};
use zermelo_games::pursuit::{Chase, Pursuit, Side};
use zermelo_games::staircase::{self, Staircase};
use zermelo_games::subtraction::{self, Subtraction, SubtractionSet};
use zermelo_games::sum::{analyse_sum, Sum};
use zermelo_games::tictactoe::{Board as Ttt, TicTacToe};
use zermelo_games::wythoff::{self, Beatty, Wythoff};

// ---------------------------------------------------------------------------------------------
// Generic checks
// ---------------------------------------------------------------------------------------------

/// Every position of a ranked game, in rank order.
fn all_positions<G: Ranked>(game: &G) -> Vec<G::Position> {
    (0..game.index_count())
        .filter_map(|i| game.unrank(i))
        .collect()
}

/// Explores from every position and checks that each dense solution gives every position the
/// explored value.
fn assert_solvers_agree<G: Ranked>(game: &G, dense: &[&Solution]) {
    let positions = all_positions(game);
    let solved = explore(game, positions.iter().cloned()).unwrap().solve();
    assert_eq!(
        solved.explored().len(),
        positions.len(),
        "moves stay in the index"
    );
    for p in &positions {
        let want = solved.value(p).unwrap();
        for s in dense {
            let r = game.rank(p) as NodeId;
            let got = Value::new(s.outcome(r), s.depth(r));
            assert_eq!(got, want, "{p:?}");
        }
    }
    // Holes are draws without a depth.
    for i in (0..game.index_count()).filter(|&i| game.unrank(i).is_none()) {
        for s in dense {
            assert_eq!(
                (s.outcome(i as NodeId), s.depth(i as NodeId)),
                (Outcome::Draw, None)
            );
        }
    }
}

/// The multiset of moves `(from, to)` of non-terminal positions equals that found by un-moves.
fn assert_unmoves_reverse_moves<G: Ranked + Unmoves>(game: &G) {
    let live = |p: &G::Position| {
        game.unrank(game.rank(p)).as_ref() == Some(p) && game.verdict(p).is_none()
    };
    let (mut forward, mut backward) = (Vec::new(), Vec::new());
    let mut buffer = Vec::new();
    for p in all_positions(game) {
        if live(&p) {
            buffer.clear();
            game.moves(&p, &mut buffer);
            forward.extend(buffer.iter().map(|q| (game.rank(&p), game.rank(q))));
        }
        buffer.clear();
        game.unmoves(&p, &mut buffer);
        backward.extend(
            buffer
                .iter()
                .filter(|q| live(q))
                .map(|q| (game.rank(q), game.rank(&p))),
        );
    }
    forward.sort_unstable();
    backward.sort_unstable();
    assert_eq!(forward, backward);
}

/// The verifier accepts a dense solution on the explicit index graph, and the dense best move
/// is the explicit one.
fn assert_dense_verifies<G: Ranked>(game: &G, s: &Solution) {
    let (graph, rules) = dense_graph(game).unwrap();
    let moves = solve::best_moves(&graph, &rules, s);
    solve::verify(&graph, &rules, s, Some(&moves)).unwrap();
    for p in all_positions(game) {
        let dense = dense_best_move(game, s, &p).map(|q| game.rank(&q) as NodeId);
        assert_eq!(dense, moves[game.rank(&p) as usize], "{p:?}");
    }
}

fn check_dense_game<G: Ranked + Unmoves + Sync>(game: &G) {
    assert_unmoves_reverse_moves(game);
    let by_unmoves = solve_dense(game).unwrap();
    let by_reverse = solve_dense_reverse(game).unwrap();
    assert_eq!(by_unmoves, by_reverse);
    assert_solvers_agree(game, &[&by_unmoves, &by_reverse]);
    assert_dense_verifies(game, &by_unmoves);
    assert_compact_agrees(game, &by_unmoves);
}

/// The pursuit games' own `IndexedGame` (index arithmetic, no adapter) gives the dense
/// solver's values, for 1 to 4 threads and both counter modes.
fn assert_pursuit_engine_agrees(game: &Pursuit) {
    let dense = solve_dense(game).unwrap();
    for threads in 1..=4 {
        for counters in [CounterMode::Counter, CounterMode::Recompute] {
            let options = CompactOptions {
                threads: Some(threads),
                counters,
                ..CompactOptions::default()
            };
            let compact = game.solve_with(&options).unwrap();
            assert_eq!(
                compact.to_solution().unwrap(),
                dense,
                "{threads} threads, {counters:?}"
            );
        }
    }
}

/// The compact engine (through the `Ranked + Unmoves` adapter) gives every index the dense
/// solver's value, for 1 to 4 threads and both counter modes.
fn assert_compact_agrees<G: Ranked + Unmoves + Sync>(game: &G, dense: &Solution) {
    for threads in 1..=4 {
        for counters in [CounterMode::Counter, CounterMode::Recompute] {
            let options = CompactOptions {
                threads: Some(threads),
                counters,
                ..CompactOptions::default()
            };
            let compact = compact::solve(&RankedGame(game), &options).unwrap();
            assert_eq!(
                &compact.to_solution().unwrap(),
                dense,
                "{threads} threads, {counters:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The generic solvers on every game that has un-moves
// ---------------------------------------------------------------------------------------------

#[test]
fn tictactoe_all_solvers_agree() {
    check_dense_game(&TicTacToe);
}

#[test]
fn subtraction_all_solvers_agree() {
    for (set, convention) in [
        (vec![1, 3, 4], Convention::Normal),
        (vec![2, 5], Convention::Misere),
        (vec![3], Convention::Normal),
    ] {
        check_dense_game(&Subtraction {
            set: SubtractionSet::new(set).unwrap(),
            convention,
            max_pile: 60,
        });
    }
}

#[test]
fn cop_robber_all_solvers_agree_on_random_graphs() {
    let mut rng = SplitMix64::new(4);
    for _ in 0..40 {
        let n = 1 + rng.below(7);
        let m = rng.below(2 * n);
        let edges: Vec<(u64, u64)> = (0..m).map(|_| (rng.below(n), rng.below(n))).collect();
        let graph = Csr::from_edges(n, edges).unwrap();
        check_dense_game(CopRobber::new(&graph).unwrap().pursuit());
        assert_pursuit_engine_agrees(CopRobber::new(&graph).unwrap().pursuit());
    }
}

#[test]
fn police_thief_all_solvers_agree_on_random_boards() {
    let mut rng = SplitMix64::new(1);
    for _ in 0..25 {
        let (n, m) = (2 + rng.below(3) as usize, 2 + rng.below(3) as usize);
        let board = random_board(&mut rng, n, m);
        check_dense_game(PoliceThief::new(board.clone()).pursuit());
        assert_pursuit_engine_agrees(PoliceThief::new(board).pursuit());
    }
}

#[test]
fn symmetry_reduction_keeps_outcomes_and_depths() {
    let full = explore(&TicTacToe, [Ttt::EMPTY]).unwrap().solve();
    let reduced_game = Reduced(TicTacToe);
    let reduced = explore(&reduced_game, [Ttt::EMPTY]).unwrap().solve();
    assert_eq!(reduced.explored().len(), 765);
    for p in full.explored().positions() {
        let canonical = reduced_game.canonical(p);
        assert_eq!(full.value(p), reduced.value(&canonical), "{p}");
    }
    // The dense reverse-edge solver runs on the quotient too (non-canonical indices are holes).
    let dense = solve_dense_reverse(&reduced_game).unwrap();
    let unreduced = solve_dense(&TicTacToe).unwrap();
    for p in all_positions(&TicTacToe) {
        let c = TicTacToe.canonical(&p);
        let (r, rc) = (TicTacToe.rank(&p) as NodeId, TicTacToe.rank(&c) as NodeId);
        assert_eq!(unreduced.outcome(r), dense.outcome(rc), "{p}");
        assert_eq!(unreduced.depth(r), dense.depth(rc), "{p}");
    }
    let (graph, rules) = dense_graph(&reduced_game).unwrap();
    solve::verify(&graph, &rules, &dense, None).unwrap();
}

#[test]
fn verifier_accepts_explored_solutions_with_best_moves() {
    let solved = explore(&Nim::default(), [vec![3, 3, 2]]).unwrap().solve();
    let e = solved.explored();
    let moves = solve::best_moves(e.graph(), e.rules(), solved.solution());
    solve::verify(e.graph(), e.rules(), solved.solution(), Some(&moves)).unwrap();
    let line = solved.principal_line(&vec![3, 3, 2]).unwrap();
    let start = solved.value(&vec![3, 3, 2]).unwrap();
    assert_eq!(Some(Depth(line.positions.len() as u32 - 1)), start.depth());
}

// ---------------------------------------------------------------------------------------------
// Closed forms against brute force
// ---------------------------------------------------------------------------------------------

#[test]
fn nim_closed_forms_on_all_small_positions() {
    for convention in [Convention::Normal, Convention::Misere] {
        let game = Nim { convention };
        let solved = explore(&game, [vec![3, 3, 3, 3], vec![6, 5]])
            .unwrap()
            .solve();
        for p in solved.explored().positions() {
            let a = nim::analyse(p, convention);
            assert_eq!(a.outcome, solved.value(p).unwrap().outcome(), "{p:?}");
            if let Some(m) = a.winning_move {
                let next = solved.value(&m.apply(p)).unwrap();
                assert_eq!(next.outcome(), Outcome::Lose, "{p:?} {m:?}");
            }
            let stuck = p.iter().all(|&h| h == 0);
            assert_eq!(
                a.winning_move.is_some(),
                a.outcome == Outcome::Win && !stuck
            );
        }
    }
}

#[test]
fn xor_rule_for_sums_of_subtraction_games() {
    let game = Subtraction {
        set: SubtractionSet::new([1, 3, 4]).unwrap(),
        convention: Convention::Normal,
        max_pile: 0,
    };
    let sum = Sum {
        game: game.clone(),
        convention: Convention::Normal,
    };
    let mut rng = SplitMix64::new(9);
    for _ in 0..30 {
        let parts: Vec<u64> = (0..1 + rng.below(3)).map(|_| rng.below(12)).collect();
        let a = analyse_sum(&game, &parts).unwrap();
        let brute = explore(&sum, [parts.clone()]).unwrap().solve();
        assert_eq!(
            a.outcome,
            brute.value(&parts).unwrap().outcome(),
            "{parts:?}"
        );
        if let Some(m) = a.winning_move {
            let mut next = parts.clone();
            next[m.component] = m.to;
            assert_eq!(
                brute.value(&next).unwrap().outcome(),
                Outcome::Lose,
                "{parts:?}"
            );
        }
    }
    // The XOR rule does not hold in misère play: refused.
    let misere = Subtraction {
        convention: Convention::Misere,
        ..game
    };
    assert!(analyse_sum(&misere, &[3, 4]).is_err());
}

/// Every subtraction set inside {1..6}: Grundy values against the generic Grundy solver,
/// outcomes against the dense solver, and the detected period proven on the computed values.
#[test]
fn subtraction_sequences_and_periods_for_all_small_sets() {
    const LEN: usize = 150;
    for mask in 1u32..64 {
        let values: Vec<u64> = (1..=6).filter(|b| mask >> (b - 1) & 1 == 1).collect();
        let set = SubtractionSet::new(values.clone()).unwrap();
        for convention in [Convention::Normal, Convention::Misere] {
            let game = Subtraction {
                set: set.clone(),
                convention,
                max_pile: LEN as u64 - 1,
            };
            let dense = solve_dense(&game).unwrap();
            let seq = subtraction::analyse(&set, convention);
            for n in 0..LEN as u64 {
                assert_eq!(
                    seq.outcome(n),
                    Some(dense.outcome(n as NodeId)),
                    "{values:?} {n}"
                );
            }
            if convention == Convention::Normal {
                let explored = explore(&game, 0..LEN as u64).unwrap();
                let g = solve::grundy(explored.graph()).unwrap();
                for n in 0..LEN as u64 {
                    let id = explored.id(&n).unwrap() as usize;
                    assert_eq!(seq.grundy(n), Some(g[id]), "{values:?} {n}");
                }
            }
            let p = seq.periodicity.expect("small sets have short periods");
            assert_period_is_least(&seq.outcomes, &seq.grundy, p.preperiod, p.period);
        }
    }
}

fn assert_period_is_least(
    outcomes: &[Outcome],
    grundy: &Option<Vec<solve::Nimber>>,
    pre: u64,
    period: u64,
) {
    let key: Vec<u64> = match grundy {
        Some(g) => g.iter().map(|v| u64::from(v.0)).collect(),
        None => outcomes.iter().map(|&o| o as u64).collect(),
    };
    let key = &key[..20_000];
    let periodic = |pre: usize, q: usize| (pre..key.len() - q).all(|n| key[n] == key[n + q]);
    let (pre, period) = (pre as usize, period as usize);
    assert!(periodic(pre, period));
    assert!(
        pre == 0 || !periodic(pre - 1, period),
        "preperiod not least"
    );
    assert!((1..period).all(|q| !periodic(pre, q)), "period not least");
}

#[test]
fn subtraction_periodicity_answers_huge_piles() {
    // {1, 3, 4}: period 7 from 0; a pile is lost iff it is 0 or 2 mod 7.
    let set = SubtractionSet::new([1, 3, 4]).unwrap();
    let seq = subtraction::analyse(&set, Convention::Normal);
    for n in [
        u64::MAX,
        u64::MAX - 1,
        7 * 1_000_000_000_007,
        7 * 1_000_000_000_007 + 2,
    ] {
        let lost = n % 7 == 0 || n % 7 == 2;
        assert_eq!(seq.outcome(n) == Some(Outcome::Lose), lost, "{n}");
    }
    let take = subtraction::winning_take(&set, &seq, u64::MAX).unwrap();
    assert_eq!(seq.outcome(u64::MAX - take), Some(Outcome::Lose));
}

#[test]
fn staircase_closed_form_on_all_small_positions() {
    let mut starts = Vec::new();
    for code in 0..4u64.pow(4) {
        starts.push((0..4).map(|i| code / 4u64.pow(i) % 4).collect::<Vec<u64>>());
    }
    starts.push(vec![1, 2, 1, 2, 1]);
    let explored = explore(&Staircase, starts).unwrap();
    let g = solve::grundy(explored.graph()).unwrap();
    let solution = solve::retrograde(explored.graph(), explored.rules());
    for (u, p) in explored.positions().iter().enumerate() {
        let a = staircase::analyse(p);
        assert_eq!(a.odd_xor, u64::from(g[u].0), "{p:?}");
        assert_eq!(a.outcome, solution.outcome(u as NodeId), "{p:?}");
        if let Some(m) = a.winning_move {
            let to = explored.id(&m.apply(p)).unwrap();
            assert!(explored.graph().successors(u as NodeId).contains(&to));
            assert_eq!(solution.outcome(to), Outcome::Lose);
        }
    }
}

#[test]
fn wythoff_closed_form_on_all_piles_up_to_60() {
    let solved = explore(&Wythoff, [(60, 60)]).unwrap().solve();
    let mut buffer = Vec::new();
    for a in 0..=60u64 {
        for b in 0..=60u64 {
            let x = wythoff::analyse(a, b);
            assert_eq!(
                x.outcome,
                solved.value(&(a, b)).unwrap().outcome(),
                "({a}, {b})"
            );
            let Some(m) = x.winning_move else {
                assert_eq!(x.outcome, Outcome::Lose);
                continue;
            };
            // A legal move to a lost position, taking the fewest stones among such moves.
            buffer.clear();
            Wythoff.moves(&(a, b), &mut buffer);
            let to = m.apply((a, b));
            assert!(buffer.contains(&to), "({a}, {b}) {m:?}");
            assert_eq!(solved.value(&to).unwrap().outcome(), Outcome::Lose);
            let fewest = buffer
                .iter()
                .filter(|q| solved.value(q).unwrap().outcome() == Outcome::Lose)
                .map(|&(c, d)| (a - c) + (b - d))
                .min();
            assert_eq!(Some(m.from_first + m.from_second), fewest, "({a}, {b})");
        }
    }
}

#[test]
fn wythoff_is_exact_near_the_top_of_u64() {
    // Independent identity: ⌊F_n φ⌋ = F_{n+1} - 1 for even n, F_{n+1} for odd n (n ≥ 2),
    // from φ F_n = F_{n+1} - ψ^n. F_93 is the largest Fibonacci number in u64.
    let mut fib: Vec<u128> = vec![0, 1];
    while fib.len() < 95 {
        fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
    }
    for n in 2..=93 {
        let want = if n % 2 == 0 {
            fib[n + 1] - 1
        } else {
            fib[n + 1]
        };
        assert_eq!(wythoff::p_position(fib[n] as u64).0, want, "F_{n}");
    }
    // Beatty complementarity on a window of integers just below u64::MAX: each is a_k or b_k,
    // and walking up, the k of each sequence never skips.
    let (mut last_lower, mut last_upper) = (None::<u64>, None::<u64>);
    for v in u64::MAX - 3000..=u64::MAX {
        match wythoff::beatty(v) {
            Beatty::Lower(k) => {
                assert_eq!(wythoff::p_position(k).0, u128::from(v));
                assert!(last_lower.is_none_or(|l| l + 1 == k));
                last_lower = Some(k);
            }
            Beatty::Upper(k) => {
                assert_eq!(wythoff::p_position(k).1, u128::from(v));
                assert!(last_upper.is_none_or(|l| l + 1 == k));
                last_upper = Some(k);
            }
        }
    }
    // Huge P-positions are lost; one stone more is won with a move back to a P-position.
    for k in [
        1u64 << 62,
        7_000_000_000_000_000_000,
        7_046_029_254_386_353_130,
    ] {
        let (a, b) = wythoff::p_position(k);
        let (a, b) = (a as u64, u64::try_from(b).unwrap());
        assert_eq!(wythoff::analyse(a, b).outcome, Outcome::Lose);
        assert_eq!(wythoff::analyse(b, a).outcome, Outcome::Lose);
        for (x, y) in [(a + 1, b), (a, b - 1), (b, a + 2)] {
            let m = wythoff::analyse(x, y).winning_move.unwrap();
            let (c, d) = m.apply((x, y));
            assert!(wythoff::is_p_position(c, d), "({x}, {y}) {m:?}");
        }
    }
}

#[test]
fn hackenbush_colon_principle_on_random_forests() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..300 {
        let n = 1 + rng.below(12) as usize;
        // Parents in topological order, then relabelled by a random permutation.
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            perm.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut parents = vec![None; n];
        for v in 1..n {
            if rng.below(5) > 0 {
                parents[perm[v]] = Some(perm[rng.below(v as u64) as usize] as u64);
            }
        }
        let forest = Forest::new(&parents).unwrap();
        let game = forest.game().unwrap();
        let explored = explore(&game, [game.start()]).unwrap();
        let g = solve::grundy(explored.graph()).unwrap();
        let a = forest.analyse();
        assert_eq!(a.value, u64::from(g[0].0), "{parents:?}");
        assert_eq!(a.winning_cut.is_some(), a.value != 0);
        if let Some(v) = a.winning_cut {
            let to = explored.id(&game.cut(game.start(), v)).unwrap();
            assert_eq!(g[to as usize].0, 0, "{parents:?} cut {v}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Known facts
// ---------------------------------------------------------------------------------------------

#[test]
fn tictactoe_is_a_draw_with_5478_positions() {
    let solved = explore(&TicTacToe, [Ttt::EMPTY]).unwrap().solve();
    assert_eq!(solved.explored().len(), 5478);
    assert_eq!(solved.value(&Ttt::EMPTY).unwrap().outcome(), Outcome::Draw);
    // O to move completes the middle row: won in one ply.
    let b = Ttt::parse("xx./oo./x..").unwrap();
    let v = solved.value(&b).unwrap();
    assert_eq!((v.outcome(), v.depth()), (Outcome::Win, Some(Depth(1))));
}

#[test]
fn seed_cop_and_robber_case() {
    let cases: serde_json::Value =
        serde_json::from_str(include_str!("../../zermelo/tests/data/seed-examples.json")).unwrap();
    let case = &cases["pursuit"][0];
    assert_eq!(case["name"], "cop-robber-path-3");
    let graph = Csr::from_edges(3, [(0, 1), (1, 2)]).unwrap();
    let game = CopRobber::new(&graph).unwrap();
    let s = game.solve().unwrap();
    let q = &case["query"];
    let to_move = if q["cop_to_move"] == true {
        Side::Pursuer
    } else {
        Side::Evader
    };
    let state = CopRobber::state(
        q["cop"].as_u64().unwrap() as u32,
        q["robber"].as_u64().unwrap() as u32,
        to_move,
    );
    let captured = game.value(&s, &state).outcome() == Outcome::Win;
    assert_eq!(serde_json::Value::Bool(captured), case["cop_captures"]);
}

#[test]
fn one_cop_catches_the_robber_on_any_tree() {
    let mut rng = SplitMix64::new(3);
    for _ in 0..20 {
        let n = 1 + rng.below(9);
        let edges: Vec<(u64, u64)> = (1..n).map(|v| (v, rng.below(v))).collect();
        let game = CopRobber::new(&Csr::from_edges(n, edges).unwrap()).unwrap();
        let s = game.solve().unwrap();
        for c in 0..n as u32 {
            for r in 0..n as u32 {
                let v = game.value(&s, &CopRobber::state(c, r, Side::Pursuer));
                assert_eq!(
                    v.outcome(),
                    Outcome::Win,
                    "tree of {n}, cop {c}, robber {r}"
                );
            }
        }
    }
}

/// Policeman and thief against a graph built literally by seed 001's C++: states
/// `(P, T, Pstep)` over all cells, the skip move, the 8/4 directions, and its terminal rules.
#[test]
fn police_thief_matches_the_seed_construction() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..30 {
        let (n, m) = (2 + rng.below(3) as usize, 2 + rng.below(4) as usize);
        let board = random_board(&mut rng, n, m);
        let game = PoliceThief::new(board.clone());
        let dense = game.solve().unwrap();
        let (graph, rules) = seed_001_graph(&board);
        let oracle = solve::retrograde(&graph, &rules);
        let cells = n * m;
        for p in 0..cells {
            for t in 0..cells {
                for pstep in [true, false] {
                    let walls = |c: usize| board.square(c / m, c % m) == SquareWall;
                    if walls(p) || walls(t) {
                        continue;
                    }
                    let id = ((p * cells + t) * 2 + usize::from(pstep)) as NodeId;
                    let state = Chase {
                        pursuer: free_number(&board, p),
                        evader: free_number(&board, t),
                        to_move: if pstep { Side::Pursuer } else { Side::Evader },
                    };
                    let r = game.pursuit().rank(&state);
                    assert_eq!(dense.value(r), Value::of(&oracle, id), "{state:?}");
                }
            }
        }
    }
}

use zermelo_games::police_thief::Square::Wall as SquareWall;

fn free_number(board: &Board, cell: usize) -> u32 {
    let m = board.size().1;
    (0..cell)
        .filter(|&c| board.square(c / m, c % m) != SquareWall)
        .count() as u32
}

/// Seed 001's construction: id `(P * cells + T) * 2 + Pstep`; terminal win/lose by its rules.
fn seed_001_graph(board: &Board) -> (Csr, Rules) {
    use zermelo_games::police_thief::Square;
    let (n, m) = board.size();
    let cells = n * m;
    let a = |c: usize| board.square(c / m, c % m);
    let id = |p: usize, t: usize, pstep: bool| ((p * cells + t) * 2 + usize::from(pstep)) as u64;
    let (dx, dy) = ([-1, 0, 1, 0, -1, -1, 1, 1], [0, 1, 0, -1, -1, 1, -1, 1]);
    let mut edges = Vec::new();
    let mut verdicts: HashMap<u64, Outcome> = HashMap::new();
    for p in 0..cells {
        for t in 0..cells {
            for pstep in [true, false] {
                if a(p) == Square::Wall || a(t) == Square::Wall {
                    verdicts.insert(id(p, t, pstep), Outcome::Draw); // unused cells: inert
                    continue;
                }
                let (win, lose) = if pstep {
                    let win = p == t;
                    (win, !win && a(t) == Square::Exit)
                } else {
                    let lose = p == t;
                    (!lose && a(t) == Square::Exit, lose)
                };
                if win || lose {
                    let v = if win { Outcome::Win } else { Outcome::Lose };
                    verdicts.insert(id(p, t, pstep), v);
                    continue;
                }
                edges.push((id(p, t, pstep), id(p, t, !pstep)));
                let (px, py, tx, ty) = (
                    (p / m) as i64,
                    (p % m) as i64,
                    (t / m) as i64,
                    (t % m) as i64,
                );
                for d in 0..if pstep { 8 } else { 4 } {
                    let (mut ppx, mut ppy, mut ttx, mut tty) = (px, py, tx, ty);
                    if pstep {
                        ppx += dx[d];
                        ppy += dy[d];
                    } else {
                        ttx += dx[d];
                        tty += dy[d];
                    }
                    let inside = |x: i64, y: i64| x >= 0 && x < n as i64 && y >= 0 && y < m as i64;
                    if inside(ppx, ppy) && inside(ttx, tty) {
                        let (np, nt) = (
                            (ppx * m as i64 + ppy) as usize,
                            (ttx * m as i64 + tty) as usize,
                        );
                        if a(np) != Square::Wall && a(nt) != Square::Wall {
                            edges.push((id(p, t, pstep), id(np, nt, !pstep)));
                        }
                    }
                }
            }
        }
    }
    let graph = Csr::from_edges((cells * cells * 2) as u64, edges).unwrap();
    let rules = Rules::normal()
        .with_verdicts(graph.node_count(), verdicts)
        .unwrap();
    (graph, rules)
}

/// A random board: about a fifth walls and a tenth exits, P and T on distinct free cells.
fn random_board(rng: &mut SplitMix64, n: usize, m: usize) -> Board {
    let mut cells: Vec<char> = (0..n * m)
        .map(|_| match rng.below(10) {
            0 | 1 => '*',
            2 => 'E',
            _ => '.',
        })
        .collect();
    let p = rng.below((n * m) as u64) as usize;
    let mut t = rng.below((n * m) as u64) as usize;
    if t == p {
        t = (p + 1) % (n * m);
    }
    cells[p] = 'P';
    cells[t] = 'T';
    let mut text = format!("{n} {m}\n");
    for row in cells.chunks(m) {
        text.extend(row);
        text.push('\n');
    }
    Board::parse(text.as_bytes(), "random").unwrap()
}
