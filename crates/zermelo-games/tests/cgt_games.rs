//! Values of the built-in partizan games against independent oracles:
//!
//! * Blue-Red Hackenbush stalks: Berlekamp's sign expansion (*Winning Ways* ch. 2) = the tree
//!   rule = the search over standing edges;
//! * random Blue-Red trees: the tree rule = the search;
//! * sums of random Blue-Red-Green pictures and of random Domineering boards: the outcome class
//!   the values give = retrograde analysis of the sum's explicit game graph, each player first;
//! * Domineering: a board's transpose is its negative, so `G + transpose(G) = 0`.

use std::collections::HashMap;
use std::ops::Neg;

use zermelo::graph::generate::SplitMix64;
use zermelo::graph::{Rules, TwoPlayerGraph};
use zermelo::solve;
use zermelo::{Outcome, Player};
use zermelo_cgt::{Dyadic, OutcomeClass, Value};
use zermelo_games::blue_red_hackenbush::Picture;
use zermelo_games::domineering::{Board, Domineering};
use zermelo_games::hackenbush::Forest;

/// Berlekamp's sign expansion of a stalk, colours listed from the ground up: the first run of
/// one colour counts ±1 an edge, every later edge ±1/2, ±1/4, ... in turn.
fn sign_expansion(colours: &[char]) -> Dyadic {
    let sign = |c: char| if c == 'b' { 1 } else { -1 };
    let run = colours.iter().take_while(|&&c| c == colours[0]).count();
    let mut total = Dyadic::integer(sign(colours[0]) * run as i64);
    for (k, &c) in colours[run..].iter().enumerate() {
        let term = Dyadic::new(i128::from(sign(c)), k as u32 + 1).unwrap();
        total = total.checked_add(term).unwrap();
    }
    total
}

#[test]
fn stalks_follow_the_sign_expansion() {
    let mut rng = SplitMix64::new(1);
    for case in 0..400 {
        let len = 1 + rng.below(14) as usize;
        let colours: Vec<char> = (0..len)
            .map(|_| if rng.below(2) == 0 { 'b' } else { 'r' })
            .collect();
        let parents: Vec<String> = (0..=len)
            .map(|v| {
                if v == 0 {
                    "-".into()
                } else {
                    (v - 1).to_string()
                }
            })
            .collect();
        let forest = Forest::parse(&parents.join(",")).unwrap();
        let text: String = std::iter::once('-')
            .chain(colours.iter().copied())
            .collect();
        let picture = Picture::from_forest(&forest, &text).unwrap();
        let want = Value::number(sign_expansion(&colours));
        assert_eq!(picture.value().unwrap(), want, "case {case}: {text}");
        assert_eq!(picture.search_value().unwrap(), want, "case {case}: {text}");
    }
}

#[test]
fn the_tree_rule_equals_the_search() {
    let mut rng = SplitMix64::new(2);
    for case in 0..500 {
        let n = 2 + rng.below(12) as usize;
        let mut parents = vec!["-".to_string()];
        let mut colours = String::from("-");
        for v in 1..n {
            if rng.below(6) == 0 {
                parents.push("-".into());
                colours.push('-');
            } else {
                parents.push(rng.below(v as u64).to_string());
                colours.push(if rng.below(2) == 0 { 'b' } else { 'r' });
            }
        }
        let forest = Forest::parse(&parents.join(",")).unwrap();
        let Ok(picture) = Picture::from_forest(&forest, &colours) else {
            continue; // only roots: no edges
        };
        let rule = picture.value().unwrap();
        assert_eq!(
            rule,
            picture.search_value().unwrap(),
            "case {case}: {parents:?} {colours}"
        );
        assert_eq!(
            rule.checked_add(picture.swapped().value().unwrap())
                .unwrap(),
            Value::ZERO
        );
    }
}

/// Explores the sum of components from their starts (moves: `moves(i, position, left)`), and
/// returns the outcome class of the start by retrograde analysis.
fn explored_class(starts: &[u64], moves: &dyn Fn(usize, u64, bool) -> Vec<u64>) -> OutcomeClass {
    let mut id: HashMap<Vec<u64>, u64> = HashMap::new();
    let mut queue = vec![starts.to_vec()];
    id.insert(starts.to_vec(), 0);
    let mut edges = [Vec::new(), Vec::new()];
    let mut head = 0;
    while head < queue.len() {
        let pos = queue[head].clone();
        let from = id[&pos];
        head += 1;
        for (side, left) in [(0, true), (1, false)] {
            for i in 0..pos.len() {
                for m in moves(i, pos[i], left) {
                    let mut next = pos.clone();
                    next[i] = m;
                    let to = match id.get(&next) {
                        Some(&t) => t,
                        None => {
                            let t = id.len() as u64;
                            id.insert(next.clone(), t);
                            queue.push(next);
                            t
                        }
                    };
                    edges[side].push((from, to));
                }
            }
        }
    }
    let g = TwoPlayerGraph::from_moves(id.len() as u64, [&edges[0], &edges[1]]).unwrap();
    let sol = solve::retrograde(g.states(), &Rules::normal());
    let lf = sol.outcome(TwoPlayerGraph::state(0, Player::Zero)) == Outcome::Win;
    let rf = sol.outcome(TwoPlayerGraph::state(0, Player::One)) == Outcome::Win;
    match (lf, rf) {
        (true, true) => OutcomeClass::N,
        (true, false) => OutcomeClass::L,
        (false, true) => OutcomeClass::R,
        (false, false) => OutcomeClass::P,
    }
}

fn random_picture(rng: &mut SplitMix64, max_edges: u64) -> Picture {
    let m = 1 + rng.below(max_edges);
    let vertices = 1 + rng.below(m + 1);
    let edges: Vec<String> = (0..m)
        .map(|_| {
            let c = ["b", "r", "g"][rng.below(3) as usize];
            format!("{}-{}:{c}", rng.below(vertices), rng.below(vertices))
        })
        .collect();
    Picture::parse_edges(&edges.join(",")).unwrap()
}

#[test]
fn hackenbush_sums_match_retrograde_analysis() {
    let mut rng = SplitMix64::new(3);
    let mut seen = HashMap::new();
    for case in 0..300 {
        let k = 1 + rng.below(2) as usize;
        let parts: Vec<Picture> = (0..k).map(|_| random_picture(&mut rng, 6)).collect();
        let values: Vec<Value> = parts.iter().map(|p| p.value().unwrap()).collect();
        let sum = Value::sum(&values).unwrap();
        let starts: Vec<u64> = parts.iter().map(|p| p.start()).collect();
        let want = explored_class(&starts, &|i, pos, left| parts[i].moves(pos, left));
        assert_eq!(sum.outcome(), want, "case {case}: {sum}");
        *seen.entry(want.as_str()).or_insert(0) += 1;
    }
    assert!(seen.len() == 4, "{seen:?}");
}

fn random_board(rng: &mut SplitMix64) -> Board {
    let (w, h) = (1 + rng.below(4) as usize, 1 + rng.below(3) as usize);
    let rows: Vec<String> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| if rng.below(5) == 0 { '#' } else { '.' })
                .collect()
        })
        .collect();
    Board::parse(&rows.join("/")).unwrap()
}

#[test]
fn domineering_sums_match_retrograde_analysis() {
    let mut rng = SplitMix64::new(4);
    let mut solver = Domineering::new();
    let mut seen = HashMap::new();
    for case in 0..300 {
        let k = 1 + rng.below(2) as usize;
        let boards: Vec<Board> = (0..k).map(|_| random_board(&mut rng)).collect();
        let values: Vec<Value> = boards.iter().map(|b| solver.value(b).unwrap()).collect();
        let sum = Value::sum(&values).unwrap();
        // Positions are indices into a table of boards met so far.
        let table = std::cell::RefCell::new(boards.clone());
        let index = |b: Board| -> u64 {
            let mut t = table.borrow_mut();
            match t.iter().position(|&x| x == b) {
                Some(i) => i as u64,
                None => {
                    t.push(b);
                    t.len() as u64 - 1
                }
            }
        };
        let starts: Vec<u64> = (0..k as u64).collect();
        let want = explored_class(&starts, &|_, pos, left| {
            let b = table.borrow()[pos as usize];
            b.moves(left).into_iter().map(&index).collect()
        });
        assert_eq!(sum.outcome(), want, "case {case}: {boards:?} {sum}");
        *seen.entry(want.as_str()).or_insert(0) += 1;
    }
    assert!(seen.len() >= 3, "{seen:?}");
}

#[test]
fn a_transposed_board_is_the_negative() {
    let mut rng = SplitMix64::new(5);
    let mut solver = Domineering::new();
    for case in 0..200 {
        let (w, h) = (1 + rng.below(4) as usize, 1 + rng.below(4) as usize);
        let cells: Vec<Vec<char>> = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| if rng.below(5) == 0 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        let text: Vec<String> = cells.iter().map(|r| r.iter().collect()).collect();
        let t: Vec<String> = (0..w)
            .map(|c| (0..h).map(|r| cells[r][c]).collect())
            .collect();
        let a = solver
            .value(&Board::parse(&text.join("/")).unwrap())
            .unwrap();
        let b = Domineering::new()
            .value(&Board::parse(&t.join("/")).unwrap())
            .unwrap();
        assert_eq!(b, a.neg(), "case {case}: {text:?}");
        assert_eq!(a.checked_add(b).unwrap(), Value::ZERO);
    }
}

/// Long stalks (hundreds of edges, denominators far beyond 128 bits): Berlekamp's rule in
/// exact arithmetic = the sign expansion computed here term by term.
#[test]
fn long_stalks_follow_the_sign_expansion_exactly() {
    use zermelo_cgt::BigDyadic;
    let mut rng = SplitMix64::new(9);
    for case in 0..40 {
        let len = 100 + rng.below(400) as usize;
        let colours: Vec<char> = (0..len)
            .map(|_| if rng.below(2) == 0 { 'b' } else { 'r' })
            .collect();
        let sign = |c: char| if c == 'b' { 1 } else { -1 };
        let run = colours.iter().take_while(|&&c| c == colours[0]).count();
        let mut want = BigDyadic::integer(sign(colours[0]) * run as i64);
        for (k, &c) in colours[run..].iter().enumerate() {
            want = want.add(&BigDyadic::integer(sign(c)).halved(k as u64 + 1));
        }
        let parents: Vec<String> = (0..=len)
            .map(|v| {
                if v == 0 {
                    "-".into()
                } else {
                    (v - 1).to_string()
                }
            })
            .collect();
        let forest = Forest::parse(&parents.join(",")).unwrap();
        let text: String = std::iter::once('-')
            .chain(colours.iter().copied())
            .collect();
        let picture = Picture::from_forest(&forest, &text).unwrap();
        assert_eq!(picture.tree_number(), Some(want), "case {case}");
    }
}

#[test]
fn toads_and_frogs_sums_match_retrograde_analysis() {
    use zermelo_games::toads_frogs::{Strip, ToadsFrogs};
    let mut rng = SplitMix64::new(10);
    let mut solver = ToadsFrogs::new();
    let mut seen = HashMap::new();
    for case in 0..300 {
        let k = 1 + rng.below(2) as usize;
        let strips: Vec<Strip> = (0..k)
            .map(|_| {
                let len = 1 + rng.below(6);
                let text: String = (0..len)
                    .map(|_| ['T', 'F', '.'][rng.below(3) as usize])
                    .collect();
                Strip::parse(&text).unwrap()
            })
            .collect();
        let values: Vec<Value> = strips.iter().map(|s| solver.value(s).unwrap()).collect();
        let sum = Value::sum(&values).unwrap();
        let table = std::cell::RefCell::new(strips.clone());
        let index = |s: Strip| -> u64 {
            let mut t = table.borrow_mut();
            match t.iter().position(|x| *x == s) {
                Some(i) => i as u64,
                None => {
                    t.push(s);
                    t.len() as u64 - 1
                }
            }
        };
        let starts: Vec<u64> = (0..k as u64).collect();
        let want = explored_class(&starts, &|_, pos, left| {
            let s = table.borrow()[pos as usize].clone();
            s.moves(left).into_iter().map(&index).collect()
        });
        assert_eq!(sum.outcome(), want, "case {case}: {strips:?} {sum}");
        *seen.entry(want.as_str()).or_insert(0) += 1;
    }
    assert!(seen.len() == 4, "{seen:?}");
}

/// A picture of several parts meeting only at the ground: each part on its own vertices, with
/// cycles, parallel edges and loops, all three colours (or only green).
fn random_multipart_picture(rng: &mut SplitMix64, max_edges: u64, green_only: bool) -> String {
    let mut edges = Vec::new();
    let mut next_vertex = 1;
    let total = 1 + rng.below(max_edges);
    while (edges.len() as u64) < total {
        let size = 1 + rng.below(total - edges.len() as u64).min(5);
        let vertices: Vec<u64> = std::iter::once(0)
            .chain(next_vertex..next_vertex + 1 + rng.below(size))
            .collect();
        next_vertex += vertices.len() as u64;
        for _ in 0..size {
            let c = if green_only {
                "g"
            } else {
                ["b", "r", "g"][rng.below(3) as usize]
            };
            let (u, v) = (
                vertices[rng.below(vertices.len() as u64) as usize],
                vertices[rng.below(vertices.len() as u64) as usize],
            );
            edges.push(format!("{u}-{v}:{c}"));
        }
    }
    edges.join(",")
}

/// Split before solving (parts meeting at the ground valued alone: fusion and colon principles
/// for green parts, Berlekamp's rule for Blue-Red trees, search for the rest) = the search of
/// the whole picture.
#[test]
fn split_hackenbush_pictures_equal_the_whole_search() {
    let mut rng = SplitMix64::new(30);
    let mut parts_seen = 0;
    for case in 0..700 {
        let green_only = case % 3 == 0;
        let text = random_multipart_picture(&mut rng, 13, green_only);
        let picture = Picture::parse_edges(&text).unwrap();
        let split = picture.split_value().unwrap();
        let whole = picture.search_value().unwrap();
        assert_eq!(
            split.to_value().unwrap(),
            whole,
            "case {case}: {text}: {split}"
        );
        assert_eq!(
            split.outcome().unwrap(),
            whole.outcome(),
            "case {case}: {text}"
        );
        assert_eq!(
            split.notation().unwrap(),
            whole.to_string(),
            "case {case}: {text}"
        );
        if green_only {
            assert_eq!(
                split.rest,
                Value::ZERO,
                "case {case}: green parts are nimbers"
            );
        }
        parts_seen += split.parts;
    }
    assert!(parts_seen > 2000, "{parts_seen}");
}

/// The fusion principle on green graphs with cycles through the ground and elsewhere, parallel
/// edges and loops: the Grundy value equals the search's nimber.
#[test]
fn green_graphs_by_fusion_equal_the_search() {
    use zermelo_games::hackenbush::green_graph_value;
    let mut rng = SplitMix64::new(31);
    for case in 0..800 {
        let m = 1 + rng.below(12);
        let n = 1 + rng.below(m + 1);
        let edges: Vec<(u32, u32)> = (0..m)
            .map(|_| (rng.below(n) as u32, rng.below(n) as u32))
            .collect();
        let text: Vec<String> = edges.iter().map(|(u, v)| format!("{u}-{v}:g")).collect();
        let picture = Picture::parse_edges(&text.join(",")).unwrap();
        let nimber = green_graph_value(n as usize, &edges);
        let want = Value::nimber(nimber as u32).unwrap();
        assert_eq!(
            picture.search_value().unwrap(),
            want,
            "case {case}: {}",
            text.join(",")
        );
    }
}

/// A star of n green edges on the ground is n copies of *: value 0 for even n, * for odd,
/// at once for 10^5 edges.
#[test]
fn a_star_of_green_edges_is_split_at_once() {
    for n in [1u32, 2, 17, 100_000] {
        let text: Vec<String> = (1..=n).map(|v| format!("0-{v}:g")).collect();
        let picture = Picture::parse_edges(&text.join(",")).unwrap();
        let started = std::time::Instant::now();
        let v = picture.split_value().unwrap();
        assert!(started.elapsed().as_secs() < 5, "{n} edges");
        assert_eq!(
            v.notation().unwrap(),
            if n % 2 == 0 { "0" } else { "*" },
            "{n}"
        );
        assert_eq!(v.parts, n as usize);
    }
    // A green stalk of 1000 edges is *1000, printed without building it.
    let stalk: Vec<String> = (0..1000).map(|v| format!("{v}-{}:g", v + 1)).collect();
    let v = Picture::parse_edges(&stalk.join(","))
        .unwrap()
        .split_value()
        .unwrap();
    assert_eq!(v.notation().unwrap(), "*1000");
    assert_eq!(v.outcome().unwrap(), OutcomeClass::N);
}

/// Toads and Frogs cut at its frozen pieces = the search of whole strips; and every square
/// called frozen keeps its piece in every position reachable by either player's moves.
#[test]
fn split_toads_and_frogs_equal_the_whole_search() {
    use zermelo_games::toads_frogs::{Strip, ToadsFrogs};
    let mut rng = SplitMix64::new(32);
    let (mut split, mut whole) = (ToadsFrogs::new(), ToadsFrogs::new());
    let mut cut = 0;
    for case in 0..1500 {
        let len = 1 + rng.below(12);
        let text: String = (0..len)
            .map(|_| ['T', 'F', '.', 'T', 'F'][rng.below(5) as usize])
            .collect();
        let strip = Strip::parse(&text).unwrap();
        assert_eq!(
            split.value(&strip).unwrap(),
            whole.value_whole(&strip).unwrap(),
            "case {case}: {text}"
        );
        let frozen = strip.frozen();
        if frozen.iter().any(|&f| f) {
            cut += 1;
        }
        if len <= 9 {
            let mut seen = std::collections::HashSet::from([strip.to_string()]);
            let mut queue = vec![strip.clone()];
            while let Some(s) = queue.pop() {
                let cells = s.to_string().into_bytes();
                let start = text.as_bytes();
                for (i, &f) in frozen.iter().enumerate() {
                    assert!(!f || cells[i] == start[i], "case {case}: {text} -> {s}");
                }
                for m in s.moves(true).into_iter().chain(s.moves(false)) {
                    if seen.insert(m.to_string()) {
                        queue.push(m);
                    }
                }
            }
        }
    }
    assert!(cut > 300, "{cut}");
}
