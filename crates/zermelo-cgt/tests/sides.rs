//! Sides of loopy games (`zermelo_cgt::loopy::Sides`) against retrograde analysis and published
//! values:
//!
//! * alone: for `G = S & T`, Left moving first wins iff `T <= 0` fails and loses iff `S <= 0`;
//!   Right moving first, Left wins iff `T >= 0` and loses iff `S >= 0` fails. Checked against
//!   retrograde analysis of thousands of random loopy graphs, draws included;
//! * in sums: for every random stopper `X`, Left wins `G + X` (infinite play a draw) iff she
//!   wins `T + X`, and loses it iff she loses `S + X` (the sides are what `G` is worth in every
//!   sum, one with infinite play Right's, the other Left's);
//! * sums of sides against the product graph of the components; the value of a sum with its
//!   parts valued alone and added ([`sum_of`]) = the value of the product graph, where found;
//! * CGSuite's `SidedValueTestCase` (dud, `1 & 0`, `^ & v*`; Bach's carousel, whose sides
//!   CGSuite prints as games that are not stoppers, refused here);
//! * games of 50-300 positions: the sides found on the reduced game equal those found by
//!   deletions on the game itself (the algorithm before the reduction, kept as the oracle), and
//!   behave as the game alone and in sums; the onside order of all pairs at once equals the
//!   comparisons one pair at a time.

use zermelo::graph::generate::SplitMix64;
use zermelo_cgt::loopy::{
    loopy_value, offside_leq, onside, onside_by_deletion, onside_leq, onside_order, parse_loopy,
    sum_of, LoopyExpr, LoopyGraph, LoopyOutcome, Result3, Sides, Stopper, Summand,
};
use zermelo_cgt::CgtError;

/// A random loopy graph of `n` nodes: 0-2 moves each side, to any node.
fn random_loopy(rng: &mut SplitMix64, n: usize) -> LoopyGraph {
    let mut g = LoopyGraph::new();
    for _ in 0..n {
        g.add_node();
    }
    for v in 0..n as u32 {
        for left in [true, false] {
            for _ in 0..rng.below(3) {
                let w = rng.below(n as u64) as u32;
                if left {
                    g.add_left(v, w);
                } else {
                    g.add_right(v, w);
                }
            }
        }
    }
    g
}

/// A random stopper: ranks, moves down a rank or, for the rank's looping player, within it.
fn random_stopper(rng: &mut SplitMix64, n: usize) -> LoopyGraph {
    let ranks = 1 + rng.below(n as u64) as usize;
    let rank: Vec<usize> = (0..n).map(|_| rng.below(ranks as u64) as usize).collect();
    let left_loops: Vec<bool> = (0..ranks).map(|_| rng.below(2) == 0).collect();
    let mut g = LoopyGraph::new();
    for _ in 0..n {
        g.add_node();
    }
    for v in 0..n {
        for left in [true, false] {
            for _ in 0..rng.below(3) {
                let w = rng.below(n as u64) as usize;
                if rank[w] < rank[v] || (rank[w] == rank[v] && left_loops[rank[v]] == left) {
                    if left {
                        g.add_left(v as u32, w as u32);
                    } else {
                        g.add_right(v as u32, w as u32);
                    }
                }
            }
        }
    }
    g
}

fn outcome_of_sum(parts: &[(&LoopyGraph, u32)]) -> LoopyOutcome {
    let mut all = LoopyGraph::new();
    let mut starts = Vec::new();
    for (g, s) in parts {
        starts.push(all.node_count() as u32 + s);
        all = all.union(g);
    }
    all.sum(&starts, 1 << 20).unwrap().outcomes()[0]
}

#[test]
fn the_sides_give_the_outcome_of_every_random_loopy_game() {
    let mut rng = SplitMix64::new(70);
    let (mut sided, mut not_stoppers, mut refused, mut draws) = (0, 0, 0, 0);
    for case in 0..3000 {
        let n = 1 + rng.below(6) as usize;
        let g = random_loopy(&mut rng, n);
        let outcomes = g.outcomes();
        let v = rng.below(n as u64) as u32;
        match Sides::new(&g, v) {
            Ok(s) => {
                assert_eq!(
                    s.outcome().unwrap(),
                    outcomes[v as usize],
                    "case {case}: {s}"
                );
                sided += 1;
                not_stoppers += usize::from(!g.is_stopper(v));
                draws += usize::from(outcomes[v as usize].class().is_none());
            }
            Err(CgtError::NotStopperSided(_)) => refused += 1,
            Err(e) => panic!("case {case}: {e}"),
        }
    }
    eprintln!("{sided} with sides ({not_stoppers} not stoppers, {draws} draws), {refused} refused");
    assert!(
        not_stoppers > 1000 && draws > 500 && refused < sided / 20,
        "{sided} with sides ({not_stoppers} not stoppers, {draws} draws), {refused} refused"
    );
}

#[test]
fn the_sides_behave_as_the_game_in_every_sum_with_a_stopper() {
    let mut rng = SplitMix64::new(71);
    let mut checked = 0;
    for case in 0..1500 {
        let n = 1 + rng.below(5) as usize;
        let g = random_loopy(&mut rng, n);
        let v = rng.below(n as u64) as u32;
        if g.is_stopper(v) {
            continue;
        }
        let Ok(s) = Sides::new(&g, v) else { continue };
        let m = 1 + rng.below(5) as usize;
        let x = random_stopper(&mut rng, m);
        let at = rng.below(m as u64) as u32;
        let game = outcome_of_sum(&[(&g, v), (&x, at)]);
        let on = outcome_of_sum(&[(s.onside().graph(), 0), (&x, at)]);
        let off = outcome_of_sum(&[(s.offside().graph(), 0), (&x, at)]);
        for (first, (a, on, off)) in [
            (game.left_first, on.left_first, off.left_first),
            (game.right_first, on.right_first, off.right_first),
        ]
        .into_iter()
        .enumerate()
        {
            assert_eq!(
                a == Result3::Win,
                off == Result3::Win,
                "case {case} ({first}): {s} with {x:?} at {at}"
            );
            assert_eq!(
                a == Result3::Loss,
                on == Result3::Loss,
                "case {case} ({first}): {s} with {x:?} at {at}"
            );
        }
        checked += 1;
    }
    eprintln!("{checked} games in sums");
    assert!(checked > 500, "{checked}");
}

/// What [`random_sums`] checked, and the time of each half.
struct SumsRun {
    checked: usize,
    cases: usize,
    /// Sums drawn with someone moving first (no outcome class).
    draws: usize,
    /// Whose product graph is a stopper, none drawn.
    stoppers: usize,
    /// Finding each part's sides, adding them and reading the outcome off the sum's sides.
    by_values: std::time::Duration,
    /// Building each product graph and its retrograde analysis.
    by_product: std::time::Duration,
}

/// The target: `wanted` sums of 2-3 random loopy components of 1-4 positions, each
/// with sides that exist and add; the outcome read from the sum of the sides (each player
/// first, draws included) equals retrograde analysis of the product graph.
fn random_sums(seed: u64, wanted: usize) -> SumsRun {
    use std::time::{Duration, Instant};
    let mut rng = SplitMix64::new(seed);
    let mut run = SumsRun {
        checked: 0,
        cases: 0,
        draws: 0,
        stoppers: 0,
        by_values: Duration::ZERO,
        by_product: Duration::ZERO,
    };
    while run.checked < wanted {
        run.cases += 1;
        assert!(
            run.cases < 10 * wanted,
            "only {} sums with sides in {} cases",
            run.checked,
            run.cases
        );
        let parts: Vec<(LoopyGraph, u32)> = (0..2 + rng.below(2))
            .map(|_| {
                let n = 1 + rng.below(4) as usize;
                let at = rng.below(n as u64) as u32;
                (random_loopy(&mut rng, n), at)
            })
            .collect();
        let started = Instant::now();
        let sides: Result<Vec<Sides>, _> = parts.iter().map(|(g, v)| Sides::new(g, *v)).collect();
        let Ok(sides) = sides else { continue };
        let Ok(total) = sides[1..]
            .iter()
            .try_fold(sides[0].clone(), |acc, s| acc.add(s))
        else {
            continue;
        };
        let valued = total.outcome().unwrap();
        run.by_values += started.elapsed();
        let started = Instant::now();
        let refs: Vec<(&LoopyGraph, u32)> = parts.iter().map(|(g, v)| (g, *v)).collect();
        let played = outcome_of_sum(&refs);
        run.by_product += started.elapsed();
        assert_eq!(valued, played, "case {}: {total}", run.cases);
        run.draws += usize::from(played.class().is_none());
        run.stoppers += usize::from(total.is_stopper());
        run.checked += 1;
    }
    run
}

/// 1,000 random sums of 2-3 loopy components, draws among the outcomes: counted, so that the
/// check cannot pass on sums that all have a winner.
#[test]
fn sums_of_sides_agree_with_the_product_graph() {
    let run = random_sums(72, 1000);
    eprintln!(
        "{} sums in {} cases, {} drawn, {} stoppers",
        run.checked, run.cases, run.draws, run.stoppers
    );
    assert_eq!(run.checked, 1000);
    assert!(run.draws > 100, "{} sums with a draw", run.draws);
    assert!(run.draws < run.checked - 100, "{} draws", run.draws);
}

/// The benchmark of the target (BENCHMARKS.md, "Game values"): 10 seeds of 1,000 sums,
/// the time of the values and of the product graphs printed. Run with
/// `cargo test -p zermelo-cgt --release --test sides -- --ignored --nocapture random_sums_timed`.
#[test]
#[ignore = "a benchmark: prints the time of 10 x 1,000 random sums"]
fn random_sums_timed() {
    for seed in 72..82 {
        let started = std::time::Instant::now();
        let run = random_sums(seed, 1000);
        println!(
            "seed {seed}: {} sums ({} cases tried), {} drawn, {} stoppers; {:.3} s in all, \
             values {:.3} s, product graphs {:.3} s",
            run.checked,
            run.cases,
            run.draws,
            run.stoppers,
            started.elapsed().as_secs_f64(),
            run.by_values.as_secs_f64(),
            run.by_product.as_secs_f64()
        );
    }
}

/// Issue 44: `cgt sum`'s value, each part valued alone (a short game's canonical form, or a
/// loopy game's simplest form or sides) and the values added, equals the value of the product
/// graph of the parts wherever that is found, and its outcome is the product's, on sums of 2-3
/// random parts (loopy games, stoppers, short games).
#[test]
fn the_sum_of_the_parts_values_is_the_product_graphs_value() {
    let mut rng = SplitMix64::new(4444);
    let (mut compared, mut outcomes, mut short, mut sided) = (0, 0, 0, 0);
    for case in 0..3000 {
        let mut all = LoopyGraph::new();
        let mut starts = Vec::new();
        for _ in 0..2 + rng.below(2) {
            let n = 1 + rng.below(5) as usize;
            let g = match rng.below(3) {
                0 => random_loopy(&mut rng, n),
                _ => random_stopper(&mut rng, n),
            };
            starts.push(all.node_count() as u32 + rng.below(n as u64) as u32);
            all = all.union(&g);
        }
        let parts: Option<Vec<Summand>> = starts
            .iter()
            .map(|&v| {
                if all.is_loopfree(v) {
                    short += 1;
                    let g = all.restricted(v);
                    Stopper::new(&g, 0).ok()?.as_value().map(Summand::Short)
                } else {
                    loopy_value(&all, v).unwrap().ok().map(Summand::Sided)
                }
            })
            .collect();
        let Some(parts) = parts else { continue };
        let Ok(total) = sum_of(&parts).unwrap() else {
            continue;
        };
        sided += usize::from(!total.is_stopper());
        let product = all.sum(&starts, 1 << 20).unwrap();
        assert_eq!(
            total.outcome().unwrap(),
            product.outcomes()[0],
            "case {case}: {total}"
        );
        outcomes += 1;
        if let Ok(Ok(whole)) = loopy_value(&product, 0) {
            assert!(
                whole.leq(&total).unwrap() && total.leq(&whole).unwrap(),
                "case {case}: the parts give {total}, the product {whole}"
            );
            assert_eq!(total.to_string(), whole.to_string(), "case {case}");
            compared += 1;
        }
    }
    eprintln!("{outcomes} outcomes, {compared} values, {short} short parts, {sided} sided sums");
    assert!(
        compared > 1500 && sided > 100 && short > 500,
        "{compared} {sided} {short}"
    );
}

fn sides(text: &str) -> Result<Sides, CgtError> {
    match parse_loopy(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        LoopyExpr::Game { graph, node } => Sides::new(&graph, node),
        _ => panic!("{text}: not a game"),
    }
}

/// CGSuite's `SidedValueTestCase` (aaron-siegel/cgsuite,
/// lib/core/src/test/scala/org/cgsuite/lang/SidedValueTestCase.scala), named nodes written
/// `a:{...}` where CGSuite writes `a{...}`: its inputs and what CGSuite prints for them.
#[test]
fn cgsuite_sided_values() {
    for (input, printed) in [
        ("dud", "dud"),
        ("a:{{|a}|}", "1 & 0"),
        ("{0|{dud|},*}", "^ & v*"),
        ("on + off", "dud"),
    ] {
        let s = sides(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(s.to_string(), printed, "{input}");
    }
    let dud = sides("dud").unwrap();
    assert_eq!(
        (dud.onside().to_string(), dud.offside().to_string()),
        ("on".into(), "off".into())
    );
    // Bach's carousel: *Winning Ways* (2nd ed., vol. 2, ch. 11) tells how Clive Bach found
    // this game, whose sides are not stoppers. CGSuite's SidedValueTestCase prints it
    // `a{1|1,{1*|a||*}||0} & a{0,{1|||1*|a||*}|0}`, of class SidedValue with IsStopperSided
    // false and outcome class N. Those sides have infinite alternating runs, which `Sides`
    // cannot hold: the value is refused (the outcome N is checked by `cgt show` in the CLI's
    // tests).
    let carousel = sides("a:{0,{1|1,{*,{1+*|1+*,a}|*}}|0}");
    assert!(
        matches!(carousel, Err(CgtError::NotStopperSided(_))),
        "{carousel:?}"
    );
}

#[test]
fn sides_of_stoppers_are_the_stopper() {
    for text in ["over", "on", "a:{0||||0|||a|*||*}", "{1|*}"] {
        let s = sides(text).unwrap();
        assert!(s.is_stopper(), "{text}");
        assert_eq!(s.onside().to_string(), s.offside().to_string());
    }
}

/// What `S & T` reads as: the sides of a value (`LoopyExpr::Sides`), or a comparison.
fn read(text: &str) -> LoopyExpr {
    parse_loopy(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn read_sides(text: &str) -> Sides {
    match read(text) {
        LoopyExpr::Sides(s) => s,
        other => panic!("{text}: {other:?}"),
    }
}

fn read_holds(text: &str) -> bool {
    match read(text) {
        LoopyExpr::Relation { holds, .. } => holds,
        other => panic!("{text}: {other:?}"),
    }
}

/// `S & T` as CGSuite writes it: `on & off` is dud; CGSuite's value of Backsliding Toads and
/// Frogs `ttt..fff` (GameStripTest.scala) reads back as the sides zermelo prints for it, and
/// what is printed reads back to equal sides; equal sides are the stopper; `&` binds tighter
/// than `+` and unary `-` (CGSuite's grammar: `-a & b` is `-(a & b)`).
#[test]
fn sides_written_with_ampersand_are_read() {
    for (text, printed) in [
        ("on & off", "dud"),
        ("1 & 0", "1 & 0"),
        (
            "{on|{0|-1/2}} & {{1/2|0}|off}",
            "{on||0|-1/2} & {1/2|0||off}",
        ),
        ("^ & v*", "^ & v*"),
        ("2 & 2", "2"),
        ("over & 0", "over & 0"),
        ("1 & 0 + 1", "2 & 1"),
        ("1 & 0 + over", "1over & over"),
        ("1 & 0 - 1 & 0", "1 & -1"),
        ("-{1|} & 0", "0 & -2"),
        ("dud + dud", "dud"),
        ("on & off + 1", "dud"),
    ] {
        let s = match read(text) {
            LoopyExpr::Sides(s) => s,
            LoopyExpr::Game { graph, node } => Sides::new(&graph, node).unwrap(),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(s.to_string(), printed, "{text}");
        let back = match read(&s.to_string()) {
            LoopyExpr::Sides(b) => b,
            LoopyExpr::Game { graph, node } => Sides::new(&graph, node).unwrap(),
            other => panic!("{printed}: {other:?}"),
        };
        assert!(back.leq(&s).unwrap() && s.leq(&back).unwrap(), "{text}");
    }
    // The sides decide the outcome: TTT..FFF draws whoever starts.
    let o = read_sides("{on||0|-1/2} & {1/2|0||off}").outcome().unwrap();
    assert_eq!(
        (o.left_first, o.right_first),
        (Result3::Draw, Result3::Draw)
    );
    // `1 & 0` is the game a:{{|a}|} (CGSuite's SidedValueTestCase): equal as sides.
    assert!(read_holds("1 & 0 == a:{{|a}|}") && read_holds("a:{{|a}|} == 1 & 0"));
}

/// Comparisons by the sides (`G <= H` iff `S_G <= S_H` and `T_G <= T_H`), of values written
/// with `&` and of games whose sides are found.
#[test]
fn sides_compare_by_both_sides() {
    for (text, holds) in [
        ("1 & 0 >= 0", true),
        ("1 & 0 > 0", true),
        ("1 & 0 <= 1", true),
        ("1 & 0 == 1", false),
        ("dud <= 0", false),
        ("dud >= 0", false),
        ("dud == on & off", true),
        ("on + off == dud", true),
        ("2 & 2 == 2", true),
        ("^ & v* <= ^", true),
        ("over & 0 < over", true),
    ] {
        assert_eq!(read_holds(text), holds, "{text}");
    }
}

/// Malformed sides: the column of the offending part, and why.
#[test]
fn bad_sides_are_errors_with_a_column() {
    for (text, column, says) in [
        ("0 & 1", 3, "not <="),
        ("dud & off", 1, "onside of `S & T` must be a stopper"),
        ("on & dud", 6, "offside of `S & T` must be a stopper"),
        ("{1 & 0|}", 2, "cannot be an option"),
        ("{0|1, 1 & 0}", 7, "cannot be an option"),
        ("1 & 0 +- 1", 1, "cannot be an option"),
        ("1 &", 4, "expected a value"),
        ("1 & 0 & 0", 7, "after a complete value"),
        ("a:{0,{1|1,{*,{1+*|1+*,a}|*}}|0} >= 1 & 0", 1, "not"),
    ] {
        let e = parse_loopy(text).unwrap_err();
        assert_eq!(e.column, column, "{text}: {e}");
        assert!(e.message.contains(says), "{text}: {e}");
    }
}

/// A random game of `n` positions that is nearly a stopper: positions in ranks, moves down a
/// rank or, for the rank's looping player, within it, and then a few moves within a rank for
/// the other player too, which make runs that alternate forever (as backsliding pieces do).
fn random_nearly_stopper(rng: &mut SplitMix64, n: usize, loops: usize) -> LoopyGraph {
    let ranks = 1 + n / 8;
    let rank: Vec<usize> = (0..n)
        .map(|v| {
            if v == 0 {
                ranks - 1
            } else {
                rng.below(ranks as u64) as usize
            }
        })
        .collect();
    let left_loops: Vec<bool> = (0..ranks).map(|_| rng.below(2) == 0).collect();
    let mut g = LoopyGraph::new();
    for _ in 0..n {
        g.add_node();
    }
    let add = |g: &mut LoopyGraph, v: usize, w: usize, left: bool| {
        if left {
            g.add_left(v as u32, w as u32);
        } else {
            g.add_right(v as u32, w as u32);
        }
    };
    for v in 0..n {
        for left in [true, false] {
            for _ in 0..1 + rng.below(3) {
                let w = rng.below(n as u64) as usize;
                if rank[w] < rank[v] || (rank[w] == rank[v] && left_loops[rank[v]] == left) {
                    add(&mut g, v, w, left);
                }
            }
        }
    }
    let mut added = 0;
    while added < loops {
        let (v, w) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if rank[v] == rank[w] {
            // A run alternating forever: v -> w for the rank's looping player, back for the
            // other.
            add(&mut g, v, w, left_loops[rank[v]]);
            add(&mut g, w, v, !left_loops[rank[v]]);
            added += 1;
        }
    }
    g
}

/// Games of 50-300 positions that are not stoppers: the onside and offside found on the
/// reduced game are those the deletions on the whole game find (the algorithm before the
/// reduction), printed alike, wherever the deletions find them.
#[test]
fn sides_of_larger_games_equal_the_deletions_on_the_whole_game() {
    let mut rng = SplitMix64::new(73);
    let (mut compared, mut nontrivial) = (0, 0);
    for case in 0..24 {
        let n = 50 + rng.below(if case < 20 { 70 } else { 250 }) as usize;
        let loops = 1 + rng.below(4) as usize;
        let g = random_nearly_stopper(&mut rng, n, loops);
        if g.is_stopper(0) {
            continue;
        }
        for negate in [false, true] {
            let g = if negate { g.negated() } else { g.clone() };
            let old = match onside_by_deletion(&g, 0) {
                Ok(old) => old,
                Err(e) => {
                    eprintln!("case {case} ({n}): {e}");
                    continue;
                }
            };
            let new = onside(&g, 0).unwrap_or_else(|e| panic!("case {case} ({n}): {e}"));
            assert_eq!(
                new.to_string(),
                old.to_string(),
                "case {case} ({n} positions)"
            );
            compared += 1;
            nontrivial += usize::from(new.node_count() > 2);
        }
    }
    eprintln!("{compared} sides compared, {nontrivial} of more than 2 positions");
    assert!(
        compared >= 20 && nontrivial >= 5,
        "{compared}, {nontrivial}"
    );
}

/// The same games, up to 300 positions: the sides give the outcome of the game alone and,
/// with random stoppers `X`, of `G + X` (Left wins iff she wins `T + X`, loses iff she loses
/// `S + X`), all against retrograde analysis of the product graphs.
#[test]
fn sides_of_larger_games_behave_as_the_game() {
    let mut rng = SplitMix64::new(74);
    let mut checked = 0;
    for case in 0..40 {
        let n = 50 + rng.below(251) as usize;
        let loops = 1 + rng.below(6) as usize;
        let g = random_nearly_stopper(&mut rng, n, loops);
        if g.is_stopper(0) {
            continue;
        }
        let Ok(s) = Sides::new(&g, 0) else { continue };
        assert_eq!(s.outcome().unwrap(), g.outcomes()[0], "case {case}: {s}");
        for _ in 0..4 {
            let m = 1 + rng.below(5) as usize;
            let x = random_stopper(&mut rng, m);
            let at = rng.below(m as u64) as u32;
            let game = outcome_of_sum(&[(&g, 0), (&x, at)]);
            let on = outcome_of_sum(&[(s.onside().graph(), 0), (&x, at)]);
            let off = outcome_of_sum(&[(s.offside().graph(), 0), (&x, at)]);
            for (a, on, off) in [
                (game.left_first, on.left_first, off.left_first),
                (game.right_first, on.right_first, off.right_first),
            ] {
                assert_eq!(a == Result3::Win, off == Result3::Win, "case {case}: {s}");
                assert_eq!(a == Result3::Loss, on == Result3::Loss, "case {case}: {s}");
            }
        }
        checked += 1;
    }
    eprintln!("{checked} games of 50-300 positions");
    assert!(checked >= 25, "{checked}");
}

/// The onside order of all pairs of a graph at once equals the comparisons one pair at a time
/// (the offside order too, by negation), on random loopy graphs.
#[test]
fn the_order_of_all_pairs_equals_each_comparison() {
    let mut rng = SplitMix64::new(75);
    for case in 0..300 {
        let n = 1 + rng.below(7) as usize;
        let g = random_loopy(&mut rng, n);
        let on = onside_order(&g).unwrap();
        let off = onside_order(&g.negated()).unwrap();
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                let at = a as usize * n + b as usize;
                assert_eq!(on[at], onside_leq(&g, a, &g, b).unwrap(), "case {case}");
                // G- <= H- iff (-H)+ <= (-G)+.
                let back = b as usize * n + a as usize;
                assert_eq!(off[back], offside_leq(&g, a, &g, b).unwrap(), "case {case}");
            }
        }
    }
}

/// Stoppers are their own onside: found as stoppers, never reduced.
#[test]
fn the_onside_of_a_stopper_is_its_simplest_form() {
    let mut rng = SplitMix64::new(76);
    for _ in 0..200 {
        let n = 1 + rng.below(8) as usize;
        let g = random_stopper(&mut rng, n);
        let s = Stopper::new(&g, 0).unwrap();
        assert_eq!(onside(&g, 0).unwrap().to_string(), s.to_string());
    }
}

/// Every position valued at once (`every_value`: `on`/`off` by Büchi games, stoppers by
/// components, the rest sidled or cut) against each position valued alone (`loopy_value`), on
/// random loopy graphs; and with each position's negative in the graph (`g` beside `-g`,
/// `every_value_negating`) the same values. Where one finds sides and the other does not
/// (sides that are not stoppers, or limits), nothing is compared.
#[test]
fn every_value_at_once_equals_each_alone() {
    use zermelo_cgt::loopy::{every_value, every_value_negating};
    let mut rng = SplitMix64::new(4401);
    let (mut compared, mut not_stoppers) = (0usize, 0usize);
    for case in 0..300 {
        let g = random_loopy(&mut rng, 2 + case % 9);
        let n = g.node_count();
        let doubled = g.union(&g.negated());
        let negative: Vec<u32> = (0..2 * n as u32)
            .map(|v| (v + n as u32) % (2 * n as u32))
            .collect();
        let all = every_value(&g).unwrap();
        let halved = every_value_negating(&doubled, Some(&negative)).unwrap();
        for v in 0..n as u32 {
            let alone = loopy_value(&g, v).unwrap().ok().map(|s| s.to_string());
            let at_once = all.sides(v).map(|s| s.to_string());
            let mirrored = halved.sides(v).map(|s| s.to_string());
            if let (Some(a), Some(b)) = (&alone, &at_once) {
                assert_eq!(a, b, "case {case} node {v}: {g:?}");
                compared += 1;
                not_stoppers += usize::from(!g.is_stopper(v));
            }
            assert_eq!(at_once, mirrored, "case {case} node {v}: {g:?}");
        }
    }
    assert!(
        compared > 1000 && not_stoppers > 200,
        "{compared} {not_stoppers}"
    );
}
