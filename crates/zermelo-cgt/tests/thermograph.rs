//! Thermographs and atomic weights against published values and the theorems that tie them to
//! things computed another way (stops, sums, outcomes):
//!
//! * the walls at `t = 0` are the stops (computed separately, by play);
//! * the mean is additive (`m(G + H) = m(G) + m(H)`, the sum's canonical form computed first),
//!   and `t(G + H) <= max(t(G), t(H))`;
//! * the mean value theorem: `n m - t <= R(nG) <= L(nG) <= n m + t` (Siegel, *Combinatorial Game
//!   Theory* II.5);
//! * atomic weights are additive, give the outcome of `G + *m` for a remote `*m` (their
//!   definition, `G ~ aw(G).^`), and obey the two-ahead rule (Siegel II.7; *Winning Ways* ch. 8).

use zermelo::graph::generate::SplitMix64;
use zermelo::graph::TwoPlayerGraph;
use zermelo::NodeId;
use zermelo_cgt::{graph_values, CgtError, Dyadic, OutcomeClass, Value};

fn v(text: &str) -> Value {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn d(text: &str) -> Dyadic {
    v(text).as_number().unwrap()
}

/// Every position of a random acyclic game of 2 to `spread + 1` positions: Left's and Right's moves go to lower ids; with
/// `all_small`, a position has moves for both players or for neither.
fn random_values(rng: &mut SplitMix64, spread: u64, all_small: bool) -> Vec<Value> {
    let n = 2 + rng.below(spread);
    let mut moves: [Vec<(u64, u64)>; 2] = [Vec::new(), Vec::new()];
    for u in 1..n {
        let quiet = all_small && rng.below(5) == 0;
        for side in &mut moves {
            let k = if quiet {
                0
            } else if all_small {
                1 + rng.below(2)
            } else {
                rng.below(3)
            };
            for _ in 0..k {
                side.push((u, rng.below(u)));
            }
        }
    }
    let g = TwoPlayerGraph::from_moves(n, [&moves[0], &moves[1]]).unwrap();
    let starts: Vec<NodeId> = (0..n as NodeId).collect();
    graph_values(&g, &starts)
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect()
}

fn mean_temp(g: Value) -> (Dyadic, Dyadic) {
    g.mean_and_temperature().unwrap()
}

/// Values worked by hand from the definition (*Winning Ways* ch. 6, *Lessons in Play* ch. 6),
/// the working in each comment.
#[test]
fn published_thermographs() {
    // Switches {a|b}: mean (a+b)/2, temperature (a-b)/2.
    assert_eq!(mean_temp(v("+-1")), (d("0"), d("1")));
    assert_eq!(mean_temp(v("{4|2}")), (d("3"), d("1")));
    assert_eq!(mean_temp(v("{3|1/2}")), (d("7/4"), d("5/4")));
    // {2||1|0}: left scaffold 2 - t; right scaffold (the left wall of {1|0}) + t, 1 up to
    // t = 1/2 then 1/2 + t; they meet where 2 - t = 1/2 + t: mean 5/4, temperature 3/4.
    let t = v("{2||1|0}").thermograph().unwrap();
    assert_eq!((t.mean(), t.temperature()), (d("5/4"), d("3/4")));
    assert_eq!(
        t.left_wall().points(),
        vec![(d("-1"), d("3")), (d("3/4"), d("5/4"))]
    );
    assert_eq!(
        t.right_wall().points(),
        vec![(d("-1"), d("1")), (d("1/2"), d("1")), (d("3/4"), d("5/4"))]
    );
    // {{3|2}|{-1|-3}}: left scaffold 2 up to 1/2, then 5/2 - t; right scaffold -1 up to 1,
    // then t - 2: they meet at 9/4, mean 1/4.
    assert_eq!(mean_temp(v("{{3|2}|{-1|-3}}")), (d("1/4"), d("9/4")));
    // Numbers: m/2^k has temperature -1/2^k, integers -1 (CGSuite's convention).
    assert_eq!(mean_temp(v("3/8")), (d("3/8"), d("-1/8")));
    assert_eq!(mean_temp(v("-7/2")), (d("-7/2"), d("-1/2")));
    assert_eq!(mean_temp(v("4")), (d("4"), d("-1")));
    // Infinitesimals: temperature 0 (* = {0|0}: scaffolds -t and t meet at 0).
    for g in ["*", "^", "v*", "1^*", "{0|^*}"] {
        assert_eq!(mean_temp(v(g)).1, d("0"), "{g}");
    }
    // Tiny: {0||0|-2} is infinitesimal (stops 0): temperature 0.
    assert_eq!(mean_temp(v("{0||0|-2}")), (d("0"), d("0")));
}

#[test]
fn walls_at_zero_are_the_stops_and_walls_are_monotone() {
    let mut rng = SplitMix64::new(21);
    let mut hot = 0;
    for _ in 0..600 {
        for g in random_values(&mut rng, 9, false) {
            let t = g.thermograph().unwrap();
            let (l, r) = g.stops();
            assert_eq!(t.left_wall().value_at(Dyadic::ZERO).unwrap(), l, "{g}");
            assert_eq!(t.right_wall().value_at(Dyadic::ZERO).unwrap(), r, "{g}");
            for w in [t.left_wall(), t.right_wall()] {
                assert_eq!(w.final_slope(), 0, "{g}: a wall ends in the mast");
                assert_eq!(w.value_at(t.temperature()).unwrap(), t.mean(), "{g}");
            }
            let pts = t.left_wall().points();
            assert!(pts.windows(2).all(|p| p[0].1 >= p[1].1), "{g}");
            let pts = t.right_wall().points();
            assert!(pts.windows(2).all(|p| p[0].1 <= p[1].1), "{g}");
            for (s, _) in t
                .left_wall()
                .points()
                .into_iter()
                .chain(t.right_wall().points())
            {
                let (a, b) = (
                    t.left_wall().value_at(s).unwrap(),
                    t.right_wall().value_at(s).unwrap(),
                );
                assert!(a >= b, "{g}: walls cross at {s}");
            }
            if g.as_number().is_none() {
                assert!(t.temperature() >= Dyadic::ZERO, "{g}");
            }
            assert_eq!(
                (-g).thermograph().unwrap(),
                t.negated(),
                "{g}: the thermograph of -G is the mirror image"
            );
            hot += usize::from(t.temperature() > Dyadic::ZERO);
        }
    }
    assert!(hot > 120, "{hot} hot games");
}

#[test]
fn means_add_and_temperatures_of_sums_are_at_most_the_hottest() {
    let mut rng = SplitMix64::new(22);
    for case in 0..400 {
        let a = random_values(&mut rng, 6, false);
        let b = random_values(&mut rng, 6, false);
        let (g, h) = (*a.last().unwrap(), *b.last().unwrap());
        let s = g.checked_add(h).unwrap();
        let ((mg, tg), (mh, th), (ms, ts)) = (mean_temp(g), mean_temp(h), mean_temp(s));
        assert_eq!(
            ms,
            mg.checked_add(mh).unwrap(),
            "case {case}: {g} + {h} = {s}"
        );
        assert!(
            ts <= tg.max(th),
            "case {case}: t({s}) = {ts} > t({g}), t({h})"
        );
    }
}

/// `n m(G) - t(G) <= R(nG) <= L(nG) <= n m(G) + t(G)` for `t(G) >= 0` (Siegel II.5, the mean
/// value theorem), with `nG` summed in canonical form: mean and temperature pinned by play.
#[test]
fn mean_value_theorem() {
    let mut rng = SplitMix64::new(23);
    let mut checked = 0;
    for _ in 0..200 {
        let values = random_values(&mut rng, 5, false);
        let g = *values.last().unwrap();
        let (m, t) = mean_temp(g);
        if t < Dyadic::ZERO {
            continue;
        }
        for n in [2i64, 4] {
            let copies = Value::sum(&vec![g; n as usize]).unwrap();
            let (l, r) = copies.stops();
            let nm = (0..n)
                .try_fold(Dyadic::ZERO, |s, _| s.checked_add(m))
                .unwrap();
            assert!(
                r >= nm.checked_add(-t).unwrap(),
                "{g} x{n}: R = {r}, m = {m}, t = {t}"
            );
            assert!(
                l <= nm.checked_add(t).unwrap(),
                "{g} x{n}: L = {l}, m = {m}, t = {t}"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

/// *Winning Ways* ch. 8 and Siegel II.7: ^ has atomic weight 1, and so has ^*; ⇑ and ⇑* 2;
/// nimbers 0; v -1.
#[test]
fn published_atomic_weights() {
    for (g, w) in [
        ("^", "1"),
        ("^*", "1"),
        ("^^", "2"),
        ("^^*", "2"),
        ("^3*5", "3"),
        ("*", "0"),
        ("*7", "0"),
        ("0", "0"),
        ("v", "-1"),
        ("vv*", "-2"),
    ] {
        assert_eq!(v(g).atomic_weight().unwrap(), v(w), "{g}");
    }
    // Worked by the calculus: {^4 | v4} has G' = {4 - 2 | -4 + 2} = +-2, not an integer, so
    // that is its weight; {^|*} has G' = {1 - 2 | 0 + 2} = 0, an integer, and {^|*} > *2 (the
    // far star: * is its largest nimber), so the weight is the greatest n <| 2, that is 1.
    assert_eq!(v("{^4|v4}").atomic_weight().unwrap(), v("+-2"));
    assert_eq!(v("{^|*}").atomic_weight().unwrap(), v("1"));
    assert_eq!(v("1").atomic_weight(), Err(CgtError::NotAllSmall));
    assert_eq!(v("{1|*}").atomic_weight(), Err(CgtError::NotAllSmall));
    assert_eq!(v("+-1").atomic_weight(), Err(CgtError::NotAllSmall));
}

/// All-small games built upwards: each `{A | B}` with one to three options a side, drawn from
/// the games built before it (deeper than the graphs' games, with weights that are not
/// integers).
fn all_small_pool(rng: &mut SplitMix64, size: usize) -> Vec<Value> {
    let mut pool = vec![Value::ZERO, v("*"), v("^"), v("v")];
    while pool.len() < size {
        let side = |rng: &mut SplitMix64| -> Vec<Value> {
            (0..1 + rng.below(3))
                .map(|_| pool[rng.below(pool.len() as u64) as usize])
                .collect()
        };
        let (l, r) = (side(rng), side(rng));
        let g = Value::from_options(&l, &r).unwrap();
        if !pool.contains(&g) && g.is_all_small() {
            pool.push(g);
        }
    }
    pool
}

#[test]
fn atomic_weights_add_and_decide_sums_with_a_remote_star() {
    let mut rng = SplitMix64::new(24);
    let remote = Value::nimber(32).unwrap();
    let mut decided = 0;
    let pool = all_small_pool(&mut rng, 60);
    for case in 0..400 {
        let a = random_values(&mut rng, 7, true);
        let (g, h) = if case % 2 == 0 {
            let b = random_values(&mut rng, 5, true);
            (*a.last().unwrap(), *b.last().unwrap())
        } else {
            let pick = |rng: &mut SplitMix64| pool[rng.below(pool.len() as u64) as usize];
            (pick(&mut rng), pick(&mut rng))
        };
        assert!(g.is_all_small() && h.is_all_small(), "case {case}");
        let (wg, wh) = (g.atomic_weight().unwrap(), h.atomic_weight().unwrap());
        let s = g.checked_add(h).unwrap();
        assert_eq!(
            s.atomic_weight().unwrap(),
            wg.checked_add(wh).unwrap(),
            "case {case}: aw({g}) = {wg}, aw({h}) = {wh}, sum {s}"
        );
        // G ~ aw(G).^: for an integer weight k, G + *m has the outcome of k.^ + *m (m remote):
        // L for k >= 1, N for 0, R for k <= -1.
        if let Some(k) = wg.as_number().filter(|k| k.is_integer()) {
            let want = match k.numerator().signum() {
                1 => OutcomeClass::L,
                0 => OutcomeClass::N,
                _ => OutcomeClass::R,
            };
            assert_eq!(
                g.checked_add(remote).unwrap().outcome(),
                want,
                "case {case}: {g}, aw {k}"
            );
            decided += 1;
        }
        // The two-ahead rule: aw >= 2 wins for Left (G > 0); aw >= 1: Left wins moving first.
        if v("2").leq(wg) {
            assert_eq!(g.outcome(), OutcomeClass::L, "case {case}: {g}, aw {wg}");
        }
        if v("1").leq(wg) {
            assert!(g.outcome().left_first_wins(), "case {case}: {g}, aw {wg}");
        }
        if wg.leq(v("-1")) {
            assert!(g.outcome().right_first_wins(), "case {case}: {g}, aw {wg}");
        }
    }
    assert!(decided > 300, "{decided}");
}
