//! Backsliding Toads and Frogs against independent oracles: outcomes (draws included) against a
//! round-by-round fixpoint of the rules, stoppers found at once against the check of each
//! position, the graph of every strip of a length against the positions explored from each
//! strip, stopper values against play, every strip valued at once against each strip valued
//! alone, and the one published value we could check, CGSuite's for `ttt..fff`.
//!
//! Sources. The game was introduced in *Winning Ways* (2nd ed.), whose loopy games are those of
//! vol. 2, ch. 11 ("Games Infinite and Indefinite"); A. N. Siegel, "Backsliding Toads and
//! Frogs", *Games of No Chance 3* (MSRI Publications 56, 2009), characterizes the values of
//! its natural starting positions. Neither text was at hand: no value here is quoted from
//! them. The published value tested is from CGSuite's test suite (aaron-siegel/cgsuite,
//! lib/core/src/test/scala/org/cgsuite/lang/GameStripTest.scala); the others follow from the
//! definitions or were computed here and checked apart, as each test says.

use zermelo::graph::generate::SplitMix64;
use zermelo_cgt::loopy::{LoopyOutcome, Result3};
use zermelo_games::backsliding::{moves, Backsliding};
use zermelo_games::toads_frogs::Strip;

/// The naive fixpoint: a state wins when some move reaches a losing state, loses when every
/// move reaches a winning one (or there is none); repeated until nothing changes; the rest
/// draw. For Left.
fn naive(b: &Backsliding) -> Vec<LoopyOutcome> {
    let strips = b.strips();
    let n = strips.len();
    // won[mover][v]: Some(true) the mover wins, Some(false) loses.
    let mut won = [vec![None; n], vec![None; n]];
    let next: Vec<[Vec<usize>; 2]> = strips
        .iter()
        .map(|s| {
            [true, false].map(|left| {
                moves(s, left)
                    .iter()
                    .map(|m| b.node_of(m).unwrap() as usize)
                    .collect()
            })
        })
        .collect();
    loop {
        let mut changed = false;
        for v in 0..n {
            for mover in 0..2 {
                if won[mover][v].is_some() {
                    continue;
                }
                let opts = &next[v][mover];
                let r = if opts.iter().any(|&w| won[1 - mover][w] == Some(false)) {
                    Some(true)
                } else if opts.iter().all(|&w| won[1 - mover][w] == Some(true)) {
                    Some(false)
                } else {
                    None
                };
                if r.is_some() {
                    won[mover][v] = r;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let left = |r: Option<bool>, left_moves: bool| match (r, left_moves) {
        (None, _) => Result3::Draw,
        (Some(w), true) => {
            if w {
                Result3::Win
            } else {
                Result3::Loss
            }
        }
        (Some(w), false) => {
            if w {
                Result3::Loss
            } else {
                Result3::Win
            }
        }
    };
    (0..n)
        .map(|v| LoopyOutcome {
            left_first: left(won[0][v], true),
            right_first: left(won[1][v], false),
        })
        .collect()
}

fn random_strip(rng: &mut SplitMix64, len: u64) -> Strip {
    let text: String = (0..len)
        .map(|_| ['T', 'F', '.'][rng.below(3) as usize])
        .collect();
    Strip::parse(&text).unwrap()
}

#[test]
fn outcomes_and_stoppers_follow_the_rules() {
    let mut rng = SplitMix64::new(50);
    let mut draws = 0;
    for case in 0..300 {
        let len = 1 + rng.below(7);
        let strip = random_strip(&mut rng, len);
        let b = Backsliding::explore(&strip);
        assert_eq!(b.outcomes(), naive(&b), "case {case}: {strip}");
        draws += b.outcomes().iter().filter(|o| o.class().is_none()).count();
        let all = b.graph().stoppers();
        for v in 0..b.strips().len() as u32 {
            assert_eq!(all[v as usize], b.graph().is_stopper(v), "case {case}");
        }
        if all[0] {
            let s = b.value(0).unwrap();
            assert_eq!(
                s.outcome().unwrap(),
                b.outcomes()[0],
                "case {case}: {strip} = {s}"
            );
        }
    }
    assert!(draws > 100, "{draws}");
}

#[test]
fn every_strip_of_a_length_at_once_equals_each_explored() {
    let mut rng = SplitMix64::new(51);
    for n in 1..=6 {
        let all = Backsliding::all(n);
        let outcomes = all.outcomes();
        for _ in 0..20 {
            let strip = random_strip(&mut rng, n as u64);
            let one = Backsliding::explore(&strip);
            let v = all.strips().iter().position(|s| *s == strip).unwrap();
            assert_eq!(outcomes[v], one.outcomes()[0], "{strip}");
        }
    }
}

/// From the definitions, not a book: in `T.` only Left moves, shuttling her toad (`T. -> .T ->
/// T. ...`), so it is `{.T|}` with `.T = {T.|}`: `on = {on|}`; `.F` is `off` likewise; in `TF`
/// nobody can move: `0`. CGSuite's GameStripTest.scala gives
/// `game.strip.BackslidingToadsAndFrogs("ttt..fff").GameValue` as `{on||0|-1/2} & {1/2|0||off}`:
/// not a stopper (checked here), and a draw whoever starts (the onside lets Left win each way,
/// the offside Right).
#[test]
fn small_strips_and_cgsuites_ttt_fff() {
    let value = |s: &str| {
        Backsliding::explore(&Strip::parse(s).unwrap())
            .value(0)
            .map(|v| v.to_string())
    };
    assert_eq!(value("T.").unwrap(), "on");
    assert_eq!(value(".F").unwrap(), "off");
    assert_eq!(value("TF").unwrap(), "0");
    let b = Backsliding::explore(&Strip::parse("TTT..FFF").unwrap());
    assert!(b.value(0).is_err());
    let o = b.outcomes()[0];
    assert_eq!(
        (o.left_first, o.right_first),
        (Result3::Draw, Result3::Draw)
    );
}

/// CGSuite's value of `ttt..fff` (aaron-siegel/cgsuite, lib/core/src/test/scala/org/cgsuite/
/// lang/GameStripTest.scala: `{on||0|-1/2} & {1/2|0||off}`), the sides found here equal as
/// stoppers and printed as CGSuite prints them. Its 560 positions are reduced by the onside order of all
/// pairs first (the deletions on the whole game took 300 comparisons, 2.5 minutes of CPU).
#[test]
fn ttt_ff_sides_are_cgsuites() {
    use zermelo_cgt::loopy::{parse_loopy, LoopyExpr, Stopper};
    let stopper = |t: &str| match parse_loopy(t).unwrap() {
        LoopyExpr::Game { graph, node } => Stopper::new(&graph, node).unwrap(),
        _ => unreachable!("a game"),
    };
    let b = Backsliding::explore(&Strip::parse("TTT..FFF").unwrap());
    let sides = b.sides(0).unwrap();
    let equal = |a: &Stopper, b: &Stopper| a.leq(b).unwrap() && b.leq(a).unwrap();
    assert!(equal(sides.onside(), &stopper("{on||0|-1/2}")), "{sides}");
    assert!(equal(sides.offside(), &stopper("{1/2|0||off}")), "{sides}");
    assert_eq!(sides.to_string(), "{on||0|-1/2} & {1/2|0||off}");
    assert_eq!(sides.outcome().unwrap(), b.outcomes()[0]);
}

/// Past CGSuite's examples, computed here (no published value was checked): with one more
/// empty square (1,680 positions) and with four toads and frogs (3,150), each side can keep
/// play going whatever the other does: `dud` (`on & off`), its outcome the draws retrograde
/// analysis gives. The comparisons of the deletions
/// run on the product of the two graphs, unstored, past 2^23 moves of pairs. Checked apart from
/// the order: the onside is `on` iff Left, moving second, is never stuck when Right may also
/// pass (`G - on`, where Left has no move in `-on` and Right may pass there), retrograde analysis
/// of the graph with a pass added for Right; the offside `off` likewise.
#[test]
fn wider_strips_are_dud() {
    let with_passes = |g: &zermelo_cgt::loopy::LoopyGraph, left: bool| {
        let mut h = g.clone();
        for v in 0..h.node_count() as u32 {
            if left {
                h.add_left(v, v);
            } else {
                h.add_right(v, v);
            }
        }
        h.outcomes()
    };
    for strip in ["TTT...FFF", "TTTT..FFFF"] {
        let b = Backsliding::explore(&Strip::parse(strip).unwrap());
        let sides = b.sides(0).unwrap();
        assert_eq!(sides.to_string(), "dud", "{strip}");
        assert_ne!(with_passes(b.graph(), false)[0].right_first, Result3::Loss);
        assert_ne!(with_passes(b.graph(), true)[0].left_first, Result3::Win);
        assert_eq!(sides.outcome().unwrap(), b.outcomes()[0], "{strip}");
        let o = b.outcomes()[0];
        assert_eq!(
            (o.left_first, o.right_first),
            (Result3::Draw, Result3::Draw)
        );
    }
    // The check can fail: TTT..FFF's onside {on||0|-1/2} is below on, its offside above off.
    let b = Backsliding::explore(&Strip::parse("TTT..FFF").unwrap());
    assert_eq!(with_passes(b.graph(), false)[0].right_first, Result3::Loss);
    assert_eq!(with_passes(b.graph(), true)[0].left_first, Result3::Win);
}

/// Every strip valued at once (`Backsliding::values`: sidling, simplest forms shared) against
/// each strip valued alone, as `zermelo game toads-frogs --backsliding STRIP` values it (its
/// positions explored and ordered pair by pair, the sides found by checked deletions): every
/// strip of 1 to 6 squares, and 300 strips of 7 (all 2,187 take 16 s alone).
#[test]
fn every_strip_at_once_equals_each_alone() {
    use zermelo_cgt::loopy::loopy_value;
    let alone = |strip: &Strip| {
        let b = Backsliding::explore(strip);
        loopy_value(b.graph(), 0)
            .unwrap()
            .ok()
            .map(|s| s.to_string())
    };
    let mut rng = SplitMix64::new(52);
    let mut sides = 0;
    for n in 1..=7 {
        let all = Backsliding::all(n);
        let values = all.values().unwrap();
        let picked: Vec<u32> = if n <= 6 {
            (0..all.strips().len() as u32).collect()
        } else {
            (0..300).map(|_| rng.below(3u64.pow(7)) as u32).collect()
        };
        for v in picked {
            let strip = &all.strips()[v as usize];
            let at_once = values.sides(v).map(|s| s.to_string());
            assert!(at_once.is_some(), "{strip} not valued");
            assert_eq!(at_once, alone(strip), "{strip}");
            sides += usize::from(at_once.is_some_and(|t| t.contains(" & ") || t == "dud"));
        }
    }
    assert!(sides >= 19, "{sides}");
}
