//! Fox and Geese (*Winning Ways*, 2nd ed., vol. 3, ch. 20) against CGSuite's published values
//! and independent checks: values found one goose formation at a time equal the simplest form
//! of the whole graph at once; the escape rule (an escaped fox is `off`) equals the game played
//! out on a board with two free rows above the geese; every value's outcome equals retrograde
//! analysis of the graph; bad squares are refused with the reason.

use zermelo::graph::generate::SplitMix64;
use zermelo_cgt::loopy::{parse_loopy, stopper_values, LoopyExpr, LoopyGraph, Result3, Stopper};
use zermelo_games::fox_geese::{
    parse_squares, values_table, Cell, FoxGeese, FoxGeeseError, Position, Square,
};

fn stopper(text: &str) -> Stopper {
    match parse_loopy(text).unwrap() {
        LoopyExpr::Game { graph, node } => Stopper::new(&graph, node).unwrap(),
        _ => unreachable!("a game"),
    }
}

fn equal(a: &Stopper, b: &Stopper) -> bool {
    a.leq(b).unwrap() && b.leq(a).unwrap()
}

fn squares(text: &str) -> Vec<Square> {
    parse_squares(text).unwrap()
}

fn value(width: u16, geese: &str, fox: &str) -> Stopper {
    let p = Position::new(width, &squares(geese), squares(fox)[0]).unwrap();
    let game = FoxGeese::explore(width, &[p]).unwrap();
    game.values().unwrap().swap_remove(0)
}

/// CGSuite's test of its Fox and Geese rulesets (lib/core/src/test/scala/org/cgsuite/lang/
/// GameGridTest.scala, "define FoxAndGeese properly"): `FoxAndGeese({(4,2),(4,4),(4,6),(4,8)},
/// (1,1)).GameValue` is `{4*|7/2}`, and `GenFoxAndGeese(boardWidth => 10)({(3,1),(3,3),(3,5),
/// (3,7),(3,9)}, (1,9)).GameValue` is `{6over|5*}`.
#[test]
fn published_values() {
    let v = value(8, "(4,2),(4,4),(4,6),(4,8)", "(1,1)");
    assert!(equal(&v, &stopper("{4*|7/2}")), "{v}");
    assert_eq!(v.to_string(), "{4*|7/2}");
    let v = value(10, "(3,1),(3,3),(3,5),(3,7),(3,9)", "(1,9)");
    assert!(equal(&v, &stopper("{6over|5*}")), "{v}");
    assert_eq!(v.to_string(), "{6over|5*}");
}

/// The same file's `FoxAndGeese.ValuesTable({(3,1),(3,3),(3,5),(3,7)})`: the fox on each dark
/// square below four geese on row 3 of the 8-wide board (row 3 holds only the geese).
#[test]
fn published_values_table() {
    let published = [
        ((2, 2), "2over"),
        ((2, 4), "2"),
        ((2, 6), "3*"),
        ((2, 8), "4over"),
        ((1, 1), "{6|2over}"),
        ((1, 3), "{2over|2}"),
        ((1, 5), "{4|3||2}"),
        ((1, 7), "{4over|3*}"),
    ];
    let table = values_table(8, &squares("(3,1),(3,3),(3,5),(3,7)")).unwrap();
    assert_eq!(table.len(), 3);
    for (col, cell) in table[0].iter().enumerate() {
        match cell {
            Cell::Goose => assert_eq!(col % 2, 0),
            Cell::Light => assert_eq!(col % 2, 1),
            Cell::Fox(_) => panic!("row 3, column {}: the fox cannot stand level", col + 1),
        }
    }
    for ((row, col), text) in published {
        let Cell::Fox(v) = &table[3 - row][col - 1] else {
            panic!("({row},{col}) is a fox square");
        };
        assert!(equal(v, &stopper(text)), "({row},{col}): {v} vs {text}");
        let alone = value(8, "(3,1),(3,3),(3,5),(3,7)", &format!("({row},{col})"));
        assert!(equal(v, &alone), "({row},{col})");
    }
}

/// A random small position: 1 to 3 geese on rows 2 to 4 of a board 3 to 6 wide, the fox on a
/// free dark square of rows 1 to 5.
fn random_position(rng: &mut SplitMix64) -> (u16, Position) {
    loop {
        let width = 3 + rng.below(4) as u16;
        let dark = |row: u16| -> Vec<Square> {
            (1..=width)
                .filter(|c| (row + c) % 2 == 0)
                .map(|col| Square { row, col })
                .collect()
        };
        let mut geese = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let row = 2 + rng.below(3) as u16;
            let d = dark(row);
            geese.push(d[rng.below(d.len() as u64) as usize]);
        }
        let row = 1 + rng.below(5) as u16;
        let d = dark(row);
        let fox = d[rng.below(d.len() as u64) as usize];
        if let Ok(p) = Position::new(width, &geese, fox) {
            return (width, p);
        }
    }
}

#[test]
fn values_by_formation_equal_the_whole_graph_and_play() {
    let mut rng = SplitMix64::new(60);
    let mut checked = 0;
    for case in 0..80 {
        let (width, p) = random_position(&mut rng);
        let game = FoxGeese::explore(width, std::slice::from_ref(&p)).unwrap();
        let values = game.values().unwrap();
        let outcomes = game.outcomes();
        if game.positions().len() <= 300 {
            let whole = Stopper::new(game.graph(), 0).unwrap();
            assert!(equal(&whole, &values[0]), "case {case}: {p}");
            assert_eq!(whole.to_string(), values[0].to_string(), "case {case}");
            checked += 1;
        }
        for (v, o) in values.iter().zip(&outcomes).take(40) {
            assert_ne!(o.left_first, Result3::Draw, "case {case}");
            assert_eq!(v.outcome().unwrap(), *o, "case {case}: {p}: {v}");
        }
    }
    assert!(checked > 40, "{checked}");
}

/// The game played out without the escape rule, on a board whose rows stop two above the
/// start's highest goose (the geese never go up, so an escaped fox keeps two free rows to
/// shuttle in): every position the same value as with escaped positions `off`.
#[test]
fn the_escape_rule_agrees_with_play() {
    let mut rng = SplitMix64::new(61);
    let mut cases: Vec<(u16, Position)> = (0..30).map(|_| random_position(&mut rng)).collect();
    let geese = squares("(3,1),(3,3),(3,5),(3,7)");
    cases.push((
        8,
        Position::new(8, &geese, Square { row: 1, col: 5 }).unwrap(),
    ));
    for (case, (width, p)) in cases.into_iter().enumerate() {
        let top = p.geese().iter().map(|g| g.row).max().unwrap() + 2;
        let top = top.max(p.fox().row + 1);
        let mut graph = LoopyGraph::new();
        let mut index = std::collections::HashMap::new();
        let mut positions = vec![p.clone()];
        index.insert(p.clone(), graph.add_node());
        let mut head = 0;
        while head < positions.len() {
            let from = head as u32;
            let q = positions[head].clone();
            head += 1;
            for left in [true, false] {
                for m in q.moves(width, left) {
                    if m.fox().row > top {
                        continue;
                    }
                    let to = *index.entry(m.clone()).or_insert_with(|| {
                        positions.push(m);
                        graph.add_node()
                    });
                    if left {
                        graph.add_left(from, to);
                    } else {
                        graph.add_right(from, to);
                    }
                }
            }
        }
        let played = stopper_values(&graph, &[0]).unwrap();
        let game = FoxGeese::explore(width, std::slice::from_ref(&p)).unwrap();
        let ruled = game.values().unwrap();
        assert!(
            equal(played[0].as_ref().unwrap(), &ruled[0]),
            "case {case}: {p}: {} vs {}",
            played[0].as_ref().unwrap(),
            ruled[0]
        );
    }
}

#[test]
fn bad_squares_are_refused_with_the_reason() {
    let err = |geese: &str, fox: Square| {
        Position::new(8, &squares(geese), fox)
            .unwrap_err()
            .to_string()
    };
    let f = Square { row: 1, col: 1 };
    assert!(err("(3,2)", f).contains("light square"));
    assert!(err("(3,9)", f).contains("off the board"));
    assert!(err("(0,2)", f).contains("off the board"));
    assert!(err("(3,1),(3,1)", f).contains("two geese on (3,1)"));
    assert!(err("(1,1)", f).contains("the fox on a goose"));
    assert!(matches!(
        Position::new(0, &squares("(1,1)"), f),
        Err(FoxGeeseError::Width(0))
    ));
    assert!(Position::new(8, &[], f).is_err());
    for (text, column) in [
        ("(3,1", 5),
        ("(3;1)", 3),
        ("3,", 3),
        ("(a,1)", 2),
        ("1,1)", 4),
    ] {
        match parse_squares(text) {
            Err(FoxGeeseError::Syntax { column: c, .. }) => assert_eq!(c, column, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(
        parse_squares(" (3, 1), (3,3) ").unwrap(),
        vec![Square { row: 3, col: 1 }, Square { row: 3, col: 3 }]
    );
}
