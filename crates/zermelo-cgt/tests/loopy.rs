//! Loopy values (`zermelo_cgt::loopy`) against retrograde analysis and published values:
//!
//! * the simplest form of a stopper behaves as the stopper in every sum: the outcome of
//!   `G + X (+ Y)` for random stoppers, each player first, draws included, is the same whether
//!   `G` is played as drawn or in its simplest form (retrograde analysis of both product
//!   graphs);
//! * a stopper's outcome read from its value (`G <= 0`, `G >= 0`) equals retrograde analysis;
//!   sums of stoppers that are stoppers likewise;
//! * `G <= H` implies `o(G + X) <= o(H + X)` for Left in every sum with a random stopper X;
//! * printing and reading give back the same value with as many positions (the simplest form is
//!   unique); CGSuite's own test values (its `CanonicalStopperTestCase`) and facts from *Winning
//!   Ways* ch. 11 and Siegel's *Combinatorial Game Theory* ch. VI.

use zermelo::graph::generate::SplitMix64;
use zermelo_cgt::loopy::{
    parse_loopy, stopper_values, LoopyExpr, LoopyGraph, LoopyOutcome, Result3, Stopper,
};

/// A random stopper graph: nodes in ranks; a rank is Left-looping or Right-looping, and moves go
/// to lower ranks or stay in the rank only for its looping player, so no run alternates forever.
fn random_stopper(rng: &mut SplitMix64, n: usize) -> LoopyGraph {
    let ranks = 1 + rng.below(n as u64) as usize;
    let rank: Vec<usize> = (0..n)
        .map(|v| {
            if v == 0 {
                0
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
    for v in 1..n {
        for left in [true, false] {
            for _ in 0..rng.below(3) {
                let w = rng.below(n as u64) as usize;
                let ok = rank[w] < rank[v] || (rank[w] == rank[v] && left_loops[rank[v]] == left);
                if ok {
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
    let sum = all.sum(&starts, 1 << 20).unwrap();
    sum.outcomes()[0]
}

fn rank(r: Result3) -> u8 {
    match r {
        Result3::Loss => 0,
        Result3::Draw => 1,
        Result3::Win => 2,
    }
}

#[test]
fn random_graphs_are_stoppers_as_built_and_stoppers_never_draw_alone() {
    let mut rng = SplitMix64::new(40);
    for case in 0..500 {
        let n = 2 + rng.below(8) as usize;
        let g = random_stopper(&mut rng, n);
        for v in 0..n as u32 {
            assert!(g.is_stopper(v), "case {case}");
        }
        for o in g.outcomes() {
            assert!(o.class().is_some(), "case {case}: a stopper drew");
        }
        // Adding a Left move back up a Right move makes an alternating cycle.
        let mut h = g.clone();
        if let Some(v) = (1..n as u32).find(|&v| !g.right(v).is_empty()) {
            let w = g.right(v)[0];
            h.add_left(w, v);
            assert!(!h.is_stopper(v), "case {case}");
            assert!(h.alternating_cycle(v).is_some());
        }
    }
}

#[test]
fn the_simplest_form_behaves_as_the_stopper_in_every_sum() {
    let mut rng = SplitMix64::new(41);
    let mut draws = 0;
    let mut sums = 0;
    for case in 0..1000 {
        let n = 2 + rng.below(7) as usize;
        let g = random_stopper(&mut rng, n);
        let v = rng.below(n as u64) as u32;
        let s = Stopper::new(&g, v).unwrap();
        assert!(s.node_count() <= g.reachable(&[v]).len(), "case {case}");
        let others: Vec<(LoopyGraph, u32)> = (0..1 + rng.below(2))
            .map(|_| {
                let m = 2 + rng.below(6) as usize;
                let x = random_stopper(&mut rng, m);
                let at = rng.below(m as u64) as u32;
                (x, at)
            })
            .collect();
        let mut drawn = vec![(&g, v)];
        let mut simplest = vec![(s.graph(), 0)];
        for (x, at) in &others {
            drawn.push((x, *at));
            simplest.push((x, *at));
        }
        let (a, b) = (outcome_of_sum(&drawn), outcome_of_sum(&simplest));
        assert_eq!(a, b, "case {case}: {s}");
        sums += 1;
        draws += usize::from(a.class().is_none());
        // Alone, its outcome follows from its value.
        assert_eq!(
            s.outcome().unwrap(),
            g.outcomes()[v as usize],
            "case {case}: {s}"
        );
    }
    assert!(draws > 30, "{draws} of {sums} sums drew");
}

/// Valued one strongly connected component at a time, every position of a random stopper
/// (several of them joined, so that components sit above others) gets the simplest form that
/// [`Stopper::new`] gives it on the whole graph: equal both ways, and printed alike.
#[test]
fn values_by_components_equal_the_whole_graphs() {
    let mut rng = SplitMix64::new(44);
    let mut valued = 0;
    for case in 0..300 {
        let mut g = LoopyGraph::new();
        let mut roots = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let m = 2 + rng.below(8) as usize;
            roots.push(g.append(&random_stopper(&mut rng, m)));
        }
        // A top node whose options are the parts' roots, and a few moves from one part into
        // an earlier one (no cycle passes between parts, so every run still stops).
        let top = g.add_node();
        for (i, &r) in roots.iter().enumerate() {
            if i % 2 == 0 {
                g.add_left(top, r);
            } else {
                g.add_right(top, r);
            }
            if i > 0 && rng.below(2) == 0 {
                g.add_right(r, roots[i - 1]);
            }
        }
        let all = stopper_values(&g, &[top]).unwrap();
        for v in g.reachable(&[top]) {
            let whole = Stopper::new(&g, v).unwrap();
            let part = all[v as usize].as_ref().unwrap();
            assert!(
                whole.leq(part).unwrap() && part.leq(&whole).unwrap(),
                "case {case}: node {v}: {whole} vs {part}"
            );
            assert_eq!(whole.to_string(), part.to_string(), "case {case}");
            valued += 1;
        }
        assert!(all.iter().filter(|s| s.is_some()).count() == g.reachable(&[top]).len());
    }
    assert!(valued > 600, "{valued}");
    // Not a stopper: refused, naming a node.
    let mut g = LoopyGraph::new();
    let (a, b) = (g.add_node(), g.add_node());
    g.add_left(a, b);
    g.add_right(b, a);
    assert!(stopper_values(&g, &[a]).is_err());
}

#[test]
fn order_and_sums_of_stoppers_agree_with_play() {
    let mut rng = SplitMix64::new(42);
    let mut stopper_sums = 0;
    let mut related = 0;
    for case in 0..500 {
        let pick = |rng: &mut SplitMix64| {
            let n = 2 + rng.below(6) as usize;
            let g = random_stopper(rng, n);
            let v = rng.below(n as u64) as u32;
            Stopper::new(&g, v).unwrap()
        };
        let (g, h) = (pick(&mut rng), pick(&mut rng));
        if let Ok(sum) = g.add(&h) {
            let want = outcome_of_sum(&[(g.graph(), 0), (h.graph(), 0)]);
            assert_eq!(
                sum.outcome().unwrap(),
                want,
                "case {case}: {g} + {h} = {sum}"
            );
            stopper_sums += 1;
        }
        if g.leq(&h).unwrap() {
            related += 1;
            for _ in 0..3 {
                let x = pick(&mut rng);
                let a = outcome_of_sum(&[(g.graph(), 0), (x.graph(), 0)]);
                let b = outcome_of_sum(&[(h.graph(), 0), (x.graph(), 0)]);
                assert!(
                    rank(a.left_first) <= rank(b.left_first)
                        && rank(a.right_first) <= rank(b.right_first),
                    "case {case}: {g} <= {h} but with {x}: {a:?} vs {b:?}"
                );
            }
        }
    }
    assert!(
        stopper_sums > 200 && related > 100,
        "{stopper_sums} {related}"
    );
}

fn stopper(text: &str) -> Stopper {
    match parse_loopy(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        LoopyExpr::Game { graph, node } => {
            Stopper::new(&graph, node).unwrap_or_else(|e| panic!("{text}: {e}"))
        }
        other => panic!("{text}: not a game: {other:?}"),
    }
}

fn holds(text: &str) -> bool {
    match parse_loopy(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        LoopyExpr::Relation { holds, .. } => holds,
        other => panic!("{text}: not a relation: {other:?}"),
    }
}

/// 20,000 random stoppers printed and read back: the same value, as many positions, the same
/// text; CGSuite's names (`^[on]`, `^<on>`, `Tiny`, `Miny`, `+-`) and `pass` among them.
#[test]
fn printing_and_reading_give_back_the_simplest_form() {
    let mut rng = SplitMix64::new(43);
    // CGSuite's names met on the way: each must round-trip at least once.
    let names = ["^[on]", "v[on]", "<on>", "Tiny(", "Miny(", "+-", "pass"];
    let mut met = [0usize; 7];
    for case in 0..20_000 {
        let n = 2 + rng.below(8) as usize;
        let g = random_stopper(&mut rng, n);
        let s = Stopper::new(&g, rng.below(n as u64) as u32).unwrap();
        let text = s.to_string();
        let back = stopper(&text);
        assert!(
            back.leq(&s).unwrap() && s.leq(&back).unwrap(),
            "case {case}: {text}"
        );
        assert_eq!(
            back.node_count(),
            s.node_count(),
            "case {case}: {text} -> {back}"
        );
        assert_eq!(back.to_string(), text, "case {case}");
        for (name, count) in names.iter().zip(&mut met) {
            *count += usize::from(text.contains(name));
        }
    }
    assert!(met.iter().all(|&c| c > 0), "{names:?}: {met:?}");
}

/// CGSuite's own canonical-stopper test rows: the input, CGSuite's printed simplest form and its
/// follower count, from `lib/core/src/test/scala/org/cgsuite/lang/CanonicalStopperTestCase.scala`
/// in CGSuite's repository (github.com/aaron-siegel/cgsuite). CGSuite's `begin uponth :=
/// {0||0|0,pass}; ... end` is written out, and zermelo names a node `a:{...}` where CGSuite
/// writes `a{...}` (both are read).
const CGSUITE_STOPPERS: &[(&str, &str, usize)] = &[
    ("on", "on", 1),
    ("off", "off", 1),
    ("over", "over", 2),
    ("{pass|3/2}", "3/2under", 5),
    ("{-1/4+*|pass}", "-1/4v[on]", 6),
    ("{0|{0||0|0,pass}||-{0||0|0,pass}}", "{0|^<on>||v<on>}", 7),
    ("{0|||0||0|off}", "{0|Tiny(on)}", 5),
    ("{on|0||0}", "Miny(on)", 4),
    ("{0||0|under}", "Tiny(over)", 4),
    ("+-{0|pass}", "+-over", 4),
    ("+-{5|pass}", "+-(5over)", 14),
    ("a{0||||0|||a|*||*}", "a:{0||||0|||a|*||*}", 6),
    (
        "{0|{0||||-1|||-1+*,a{0||0|a|||-1+*||||-1+*}||-2|b{-2,{-1,-1+*||-1+*|b|||-2}|-2}}}",
        "{0|{0||||-1|||-1*,a:{0||0|a|||-1*||||-1*}||-2|b:{-2,{-1,-1*||-1*|b|||-2}|-2}}}",
        17,
    ),
    // Grenville's unstable game.
    (
        "a{0|{0||||0,*2|||a|0||0}||0}",
        "a:{0|{0||||0,*2|||a|0||0}||0}",
        9,
    ),
];

/// CGSuite's rows, then *Winning Ways* ch. 11 and Siegel ch. VI. `pass` is the game at the
/// nearest bars, as in CGSuite: `{0||0|0,pass}` is uponth (`^<on>`), not `^`.
#[test]
fn published_values() {
    for &(input, printed, followers) in CGSUITE_STOPPERS {
        let s = stopper(input);
        assert_eq!(s.to_string(), printed, "{input}");
        assert_eq!(s.node_count(), followers, "{input}");
        assert_eq!(stopper(printed).to_string(), printed, "{input}");
    }
    for (input, printed, followers) in [
        ("{0|pass}", "over", 2),
        ("{pass|0}", "under", 2),
        // upon = {pass|*} = ^[on]; the followers of CGSuite's uponth row.
        ("{pass|*}", "^[on]", 3),
        ("upon", "^[on]", 3),
        ("{0||0|0,pass}", "^<on>", 3),
        ("{0|0,pass}", "v[on]*", 2),
        ("{0,pass|0}", "^[on]*", 2),
        ("{0|{0||0|0,pass}}", "{0|^<on>}", 4),
        // The same game with the inner game braced: `pass` is still the inner game.
        ("{0|{0|{0|0,pass}}}", "{0|^<on>}", 4),
        ("{pass|1*2}", "1^[on]*3", 5),
        ("{1,1*,1*2||1*2|pass}", "1^<on>*2", 6),
        // `pass` at the outer bars: `{0|pass||0}` is `{over|0}`; `{0,pass||0|0}` is
        // `{0,pass|*}`, whose 0 is dominated by the pass (upon > 0).
        ("{0|pass||0}", "{over|0}", 3),
        ("{0,pass||0|0}", "^[on]", 3),
        // Tiny and Miny translated by a number, and a subscript with its number.
        ("1 + {0||0|off}", "1Tiny(on)", 5),
        ("{-1+on|-1||-1}", "-1Miny(on)", 5),
        ("Tiny({1|pass})", "Tiny(1over)", 5),
        // A switch that is short after all: 1Tiny(on) reverses out.
        ("+-(1Tiny(on))", "+-1", 4),
    ] {
        let s = stopper(input);
        assert_eq!(s.to_string(), printed, "{input}");
        assert_eq!(s.node_count(), followers, "{input}");
    }
    // Idempotents (Siegel VI.? / CGSuite's IsIdempotent): on, off, over; not 3/2under.
    assert!(holds("on + on == on") && holds("off + off == off") && holds("over + over == over"));
    assert!(!holds("3/2under + 3/2under == 3/2under"));
    // on is above everything, off below; over is a positive infinitesimal; upon too.
    assert!(holds("on >= 100") && holds("off <= -100") && holds("on + * == on"));
    assert!(holds("over > 0") && holds("over < 1/64") && holds("upon > 0") && holds("upon < 1/64"));
    assert!(holds("over >= ^") && !holds("over <= ^"));
    // Pseudonumbers: x + under is {pass|x}, x + over is {x|pass}.
    assert!(holds("3/2 + under == {pass|3/2}") && holds("1/2over == {1/2|pass}"));
    assert!(holds("-over == under") && holds("-on == off"));
    // A short game read through the loopy notation is itself.
    assert_eq!(stopper("{1|*} + 0").to_string(), "{1|*}");
    // on + off is dud: not a stopper.
    let LoopyExpr::Game { graph, node } = parse_loopy("on + off").unwrap() else {
        panic!()
    };
    assert!(!graph.is_stopper(node));
    let o = graph.restricted(node).outcomes()[0];
    assert_eq!(
        (o.left_first, o.right_first),
        (Result3::Draw, Result3::Draw)
    );
}

/// Parentheses group parts of a loopy expression as of a short one.
#[test]
fn parentheses_group_loopy_parts() {
    assert_eq!(stopper("(on + *) + ^").to_string(), "on");
    assert_eq!(stopper("-(over + 1)").to_string(), "-1under");
    assert_eq!(
        stopper("+-(5over)").to_string(),
        stopper("+-{5|pass}").to_string()
    );
    assert_eq!(stopper("{(1 + over)|0}").to_string(), "{1over|0}");
    assert!(holds("(1 & 0) + 1 == 2 & 1") && holds("(over + over) == over"));
}

#[test]
fn malformed_loopy_text_is_an_error_with_a_column() {
    for (text, column) in [
        ("{pass|", 7),
        ("foo", 1),
        ("pass", 1),
        ("a:{0|b}", 6),
        ("on:{0|}", 1),
        ("a:{0|a+1}", 7),
        ("dud & off", 1),
        ("0 & 1", 3),
        ("{0|1|2}", 5),
        // `pass` is an option by itself, never a part of a sum.
        ("{0|pass+1}", 4),
        ("-pass", 2),
        // An unbalanced parenthesis is the column.
        ("(on + *", 1),
        ("{0|(over}", 4),
        ("on + *)", 7),
        ("(1 & 0) & 0", 1),
    ] {
        let e = parse_loopy(text).unwrap_err();
        assert_eq!(e.column, column, "{text}: {e}");
    }
}

/// The parser on random strings over the loopy notation's alphabet: never a panic; what reads
/// as a stopper prints to text that reads back to an equal stopper.
#[test]
fn random_loopy_strings_parse_or_fail_cleanly() {
    let words = [
        "on", "off", "over", "under", "upon", "dud", "pass", "a", "a:", "b:", "b", "^[on]",
        "v<on>", "Tiny(", "Miny(",
    ];
    let symbols: Vec<char> = "012*^v{}|,+- ()".chars().collect();
    let mut rng = SplitMix64::new(45);
    let mut stoppers = 0;
    for _ in 0..8_000 {
        let mut text = String::new();
        for _ in 0..1 + rng.below(12) {
            if rng.below(4) == 0 {
                text.push_str(words[rng.below(words.len() as u64) as usize]);
            } else {
                text.push(symbols[rng.below(symbols.len() as u64) as usize]);
            }
        }
        let Ok(LoopyExpr::Game { graph, node }) = parse_loopy(&text) else {
            continue;
        };
        let Ok(s) = Stopper::new(&graph, node) else {
            continue;
        };
        stoppers += 1;
        let printed = s.to_string();
        let back = stopper(&printed);
        assert!(
            back.leq(&s).unwrap() && s.leq(&back).unwrap(),
            "{text:?} printed {printed:?}"
        );
    }
    assert!(stoppers > 300, "{stoppers}");
}

/// The fuzzer's timeout `19*22+-41` read as loopy notation (3.5 GB, minutes): short parts now
/// add as short games, and ordering a stopper is refused past its size.
#[test]
fn short_parts_add_as_short_games_and_big_orders_are_refused() {
    let started = std::time::Instant::now();
    assert_eq!(stopper("19*22+-41 + on").to_string(), "on");
    assert_eq!(
        stopper("19*22+-41 + 0*").to_string(),
        stopper("19*22+-41+*").to_string()
    );
    assert!(started.elapsed().as_secs() < 20);
    // A chain of 2,000 positions each with 16 moves: 128 million moves of pairs, ordered in
    // seconds (the order's moves are read off the graph); past 2,048 positions refused.
    let chain = |n: usize| {
        let mut g = LoopyGraph::new();
        let nodes: Vec<u32> = (0..n).map(|_| g.add_node()).collect();
        for (i, &v) in nodes.iter().enumerate().skip(1) {
            for &w in &nodes[i.saturating_sub(8)..i] {
                g.add_left(v, w);
                g.add_right(v, w);
            }
        }
        g
    };
    let started = std::time::Instant::now();
    let s = Stopper::new(&chain(2000), 1999).unwrap();
    assert_eq!(s.to_string(), "*");
    assert!(started.elapsed().as_secs() < 60);
    let e = Stopper::new(&chain(2100), 2099).unwrap_err();
    assert!(e.to_string().contains("2048"), "{e}");
}
