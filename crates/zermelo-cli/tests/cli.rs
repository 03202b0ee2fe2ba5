//! End-to-end tests of the `zermelo` binary: every subcommand, every output format and every
//! class of error, checked against exact expected values (hand-worked examples and a small
//! reference solver written independently of the library).

use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::PathBuf;
use std::process::Stdio;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

// ------------------------------------------------------------------------------------------------
// Harness
// ------------------------------------------------------------------------------------------------

/// A scratch directory. Input files are written into it and the binary runs inside it, so error
/// messages name files by their short relative names (`g.txt:3: ...`).
struct Scratch {
    dir: TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            dir: TempDir::new().expect("create a temporary directory"),
        }
    }

    /// Writes `contents` to `name` inside the scratch directory.
    fn write(&self, name: &str, contents: impl AsRef<[u8]>) {
        std::fs::write(self.path(name), contents).expect("write a scratch file");
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).expect("read a scratch file")
    }

    /// Names of the files in the scratch directory, sorted.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .expect("list the scratch directory")
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Runs `zermelo ARGS` in the scratch directory with an empty standard input.
    fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, "")
    }

    /// Runs `zermelo ARGS` in the scratch directory with `stdin` as standard input.
    fn run_with_stdin(&self, args: &[&str], stdin: &str) -> Run {
        let output = Command::cargo_bin("zermelo")
            .expect("the zermelo binary is built")
            .args(args)
            .current_dir(self.dir.path())
            .write_stdin(stdin.to_string())
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .expect("run zermelo");
        let run = Run {
            command: format!("zermelo {}", args.join(" ")),
            code: output.status.code(),
            stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        };
        assert!(
            !run.stderr.contains("panicked") && !run.stderr.contains("RUST_BACKTRACE"),
            "`{}` panicked:\n{}",
            run.command,
            run.stderr
        );
        run
    }
}

/// The result of one run of the binary.
struct Run {
    command: String,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn describe(&self) -> String {
        format!(
            "`{}` exited with {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.command, self.code, self.stdout, self.stderr
        )
    }

    /// Asserts success (exit 0, nothing on standard error) and returns standard output.
    fn success(self) -> String {
        assert_eq!(self.code, Some(0), "{}", self.describe());
        assert_eq!(self.stderr, "", "{}", self.describe());
        self.stdout
    }

    /// Asserts a bad-input failure: exit 2, nothing on standard output, exactly one line
    /// `zermelo: error: MESSAGE` on standard error. Returns MESSAGE.
    fn bad_input(self) -> String {
        self.error_with_code(2)
    }

    /// As [`Run::bad_input`] for an input that cannot be read: exit 5.
    fn unreadable(self) -> String {
        self.error_with_code(5)
    }

    /// As [`Run::bad_input`] for a job over a size or memory limit: exit 3.
    fn too_big(self) -> String {
        self.error_with_code(3)
    }

    fn error_with_code(self, code: i32) -> String {
        assert_eq!(self.code, Some(code), "{}", self.describe());
        assert_eq!(self.stdout, "", "{}", self.describe());
        let message = self
            .stderr
            .strip_prefix("zermelo: error: ")
            .unwrap_or_else(|| panic!("no `zermelo: error:` prefix\n{}", self.describe()));
        let message = message
            .strip_suffix('\n')
            .unwrap_or_else(|| panic!("message not newline-terminated\n{}", self.describe()));
        assert!(!message.contains('\n'), "{}", self.describe());
        message.to_string()
    }

    /// Asserts a command-line usage error reported by the argument parser: exit 2, a message
    /// starting `error:` on standard error, nothing on standard output.
    fn usage_error(self) -> String {
        assert_eq!(self.code, Some(2), "{}", self.describe());
        assert_eq!(self.stdout, "", "{}", self.describe());
        assert!(self.stderr.starts_with("error: "), "{}", self.describe());
        self.stderr
    }

    /// Asserts a rejected certificate: exit 1 and one line starting `invalid:` on standard
    /// output. Returns that line.
    fn rejected(self) -> String {
        assert_eq!(self.code, Some(1), "{}", self.describe());
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "{}", self.describe());
        assert!(lines[0].starts_with("invalid: "), "{}", self.describe());
        lines[0].to_string()
    }
}

/// Asserts that `message` starts with `prefix` (typically `file:line: what was expected`).
#[track_caller]
fn assert_starts(message: &str, prefix: &str) {
    assert!(
        message.starts_with(prefix),
        "expected a message starting with\n  {prefix:?}\nfound\n  {message:?}"
    );
}

#[track_caller]
fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "expected {part:?} in\n  {text:?}");
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("not a JSON object: {v}"))
        .keys()
        .cloned()
        .collect()
}

fn key_set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// An edge list in the text format: header `N M`, then one line per edge.
fn edge_list(n: usize, edges: &[(usize, usize)]) -> String {
    let mut s = format!("{n} {}\n", edges.len());
    for (u, v) in edges {
        s += &format!("{u} {v}\n");
    }
    s
}

/// A one-player solution CSV: the header, then `i,ROW` for each row.
fn solution_csv(rows: &[&str]) -> String {
    let mut s = String::from("node,outcome,depth,best_move\n");
    for (i, row) in rows.iter().enumerate() {
        s += &format!("{i},{row}\n");
    }
    s
}

/// Parses an edge list (as written by `zermelo gen`) into a node count and edges.
fn parse_edge_list(text: &str) -> (usize, Vec<(usize, usize)>) {
    let mut lines = text.lines();
    let header: Vec<usize> = lines
        .next()
        .expect("a header line")
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let edges: Vec<(usize, usize)> = lines
        .map(|l| {
            let t: Vec<usize> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            assert_eq!(t.len(), 2, "edge line {l:?}");
            (t[0], t[1])
        })
        .collect();
    assert_eq!(header.len(), 2);
    assert_eq!(header[1], edges.len(), "the header's edge count");
    (header[0], edges)
}

/// The rows of a solution CSV (one-player), header checked: (outcome, depth, best_move) by node.
fn parse_solution(text: &str) -> Vec<(String, Option<u32>, Option<usize>)> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("node,outcome,depth,best_move"));
    lines
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 4, "row {l:?}");
            assert_eq!(f[0], i.to_string(), "rows are in node order");
            (
                f[1].to_string(),
                (!f[2].is_empty()).then(|| f[2].parse().unwrap()),
                (!f[3].is_empty()).then(|| f[3].parse().unwrap()),
            )
        })
        .collect()
}

/// A deterministic pseudo-random stream for building test graphs (independent of the
/// library's generator).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % bound as u64) as usize
    }
}

/// A random acyclic graph: every edge goes from a higher id to a lower one.
fn random_dag(n: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut rng = Lcg(seed);
    let mut edges = Vec::new();
    for u in 1..n {
        for _ in 0..rng.below(4) {
            edges.push((u, rng.below(u)));
        }
    }
    edges
}

// ------------------------------------------------------------------------------------------------
// A reference solver, written from the definitions and independent of the library
// ------------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Win(u32),
    Lose(u32),
    Draw,
}

/// Solves by rounds: terminals are decided in round 0; in round `t` a position becomes WIN if
/// some child was LOSE before round `t`, or LOSE if every child was WIN before round `t`; its
/// depth is `t`. Whatever is never decided is a DRAW. A `draw` verdict is a tie: decided, but
/// neither WIN nor LOSE. Returns the expected solution CSV.
fn reference_csv(
    n: usize,
    edges: &[(usize, usize)],
    misere: bool,
    verdicts: &HashMap<usize, &str>,
) -> String {
    let mut succ = vec![Vec::new(); n];
    for &(u, v) in edges {
        succ[u].push(v);
    }
    let terminal = |u: usize| verdicts.contains_key(&u) || succ[u].is_empty();
    let mut label: Vec<Option<Val>> = (0..n)
        .map(|u| match verdicts.get(&u) {
            Some(&"win") => Some(Val::Win(0)),
            Some(&"lose") => Some(Val::Lose(0)),
            Some(&"draw") => Some(Val::Draw),
            Some(other) => panic!("bad verdict {other}"),
            None if succ[u].is_empty() && misere => Some(Val::Win(0)),
            None if succ[u].is_empty() => Some(Val::Lose(0)),
            None => None,
        })
        .collect();
    for t in 1.. {
        let before = label.clone();
        for u in 0..n {
            if before[u].is_some() {
                continue;
            }
            if succ[u]
                .iter()
                .any(|&v| matches!(before[v], Some(Val::Lose(_))))
            {
                label[u] = Some(Val::Win(t));
            } else if succ[u]
                .iter()
                .all(|&v| matches!(before[v], Some(Val::Win(_))))
            {
                label[u] = Some(Val::Lose(t));
            }
        }
        if label == before {
            break;
        }
    }
    let val: Vec<Val> = label.into_iter().map(|l| l.unwrap_or(Val::Draw)).collect();
    let mut out = String::from("node,outcome,depth,best_move\n");
    for u in 0..n {
        let best = if terminal(u) {
            None
        } else {
            match val[u] {
                Val::Win(_) => succ[u]
                    .iter()
                    .filter_map(|&v| match val[v] {
                        Val::Lose(d) => Some((d, v)),
                        _ => None,
                    })
                    .min()
                    .map(|(_, v)| v),
                Val::Lose(_) => succ[u]
                    .iter()
                    .map(|&v| match val[v] {
                        Val::Win(d) => (std::cmp::Reverse(d), v),
                        other => panic!("a LOSE with a {other:?} child"),
                    })
                    .min()
                    .map(|(_, v)| v),
                Val::Draw => succ[u]
                    .iter()
                    .copied()
                    .filter(|&v| val[v] == Val::Draw)
                    .min(),
            }
        };
        let best = best.map(|b| b.to_string()).unwrap_or_default();
        let row = match val[u] {
            Val::Win(d) => format!("win,{d}"),
            Val::Lose(d) => format!("lose,{d}"),
            Val::Draw => "draw,".to_string(),
        };
        out += &format!("{u},{row},{best}\n");
    }
    out
}

/// Grundy values by the mex rule, for an acyclic graph.
fn reference_grundy(n: usize, edges: &[(usize, usize)]) -> Vec<u64> {
    let mut succ = vec![Vec::new(); n];
    for &(u, v) in edges {
        succ[u].push(v);
    }
    let mut g: Vec<Option<u64>> = vec![None; n];
    while g.iter().any(Option::is_none) {
        for u in 0..n {
            if g[u].is_none() && succ[u].iter().all(|&v| g[v].is_some()) {
                let seen: BTreeSet<u64> = succ[u].iter().map(|&v| g[v].unwrap()).collect();
                g[u] = Some((0..).find(|x| !seen.contains(x)).unwrap());
            }
        }
    }
    g.into_iter().map(Option::unwrap).collect()
}

// ------------------------------------------------------------------------------------------------
// Fixtures
// ------------------------------------------------------------------------------------------------

/// The seed example: 0->1, 0->2, 1->3, 2->1, 2->4, 4->2.
const SEED: &str = "5 6\n0 1\n0 2\n1 3\n2 1\n2 4\n4 2\n";
const SEED_CSV: &str =
    "node,outcome,depth,best_move\n0,draw,,2\n1,win,1,3\n2,draw,,4\n3,lose,0,\n4,draw,,2\n";

/// The chain 0->1->2->3.
const CHAIN: &str = "4 3\n0 1\n1 2\n2 3\n";
const CHAIN_CSV: &str =
    "node,outcome,depth,best_move\n0,win,3,1\n1,lose,2,2\n2,win,1,3\n3,lose,0,\n";
const CHAIN_MISERE_CSV: &str =
    "node,outcome,depth,best_move\n0,lose,3,1\n1,win,2,2\n2,lose,1,3\n3,win,0,\n";

/// 0 <-> 1 plus 0 -> 2.
const TWO_CYCLE_EXIT: &str = "3 3\n0 1\n1 0\n0 2\n";

/// Subtract 1 or 2 from a pile of 0..=8 counters: Grundy value n mod 3.
fn subtraction_game() -> String {
    let mut edges = Vec::new();
    for n in 1..9 {
        edges.push((n, n - 1));
        if n >= 2 {
            edges.push((n, n - 2));
        }
    }
    edge_list(9, &edges)
}

/// A two-player game worked out by hand. Positions 0, 1, 2; player 0 moves 0->1 and 0->2;
/// player 1 moves 1->2, 2->0 and 2->1. States (position, to move):
///
/// * (0,1), (1,0), (2,0): the player to move has no move: LOSE 0.
/// * (1,1) -> (2,0) LOSE 0: WIN 1, best move to position 2.
/// * (2,1) -> (0,0) or (1,0) LOSE 0: WIN 1, fastest win via position 1.
/// * (0,0) -> (1,1) WIN 1 or (2,1) WIN 1: LOSE 2; both equally deep, tie-break to position 1.
const TWO_PLAYER: &str = "3 2 3\n0 1\n0 2\n1 2\n2 0\n2 1\n";
const TWO_PLAYER_CSV: &str = "position,to_move,outcome,depth,best_move\n\
                              0,0,lose,2,1\n\
                              0,1,lose,0,\n\
                              1,0,lose,0,\n\
                              1,1,win,1,2\n\
                              2,0,lose,0,\n\
                              2,1,win,1,1\n";

// ------------------------------------------------------------------------------------------------
// solve: known answers
// ------------------------------------------------------------------------------------------------

#[test]
fn solve_seed_graph_csv() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    let out = s.run(&["solve", "g.txt", "--format", "csv"]).success();
    assert_eq!(out, SEED_CSV);
}

#[test]
fn solve_seed_graph_table() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    // Table is the default format.
    let out = s.run(&["solve", "g.txt"]).success();
    assert_eq!(
        out,
        s.run(&["solve", "g.txt", "--format", "table"]).success()
    );
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec!["node", "outcome", "depth", "best_move"],
            vec!["0", "draw", "2"],
            vec!["1", "win", "1", "3"],
            vec!["2", "draw", "4"],
            vec!["3", "lose", "0"],
            vec!["4", "draw", "2"],
        ]
    );
}

#[test]
fn solve_seed_graph_json() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    let v = json(&s.run(&["solve", "g.txt", "--format", "json"]).success());
    assert_eq!(v["nodes"], 5);
    assert_eq!(v["edges"], 6);
    assert_eq!(v["win"], 1);
    assert_eq!(v["lose"], 1);
    assert_eq!(v["draw"], 3);
    assert_eq!(v["max_depth"], 1);
    let rows = v["solution"].as_array().expect("a solution array");
    assert_eq!(rows.len(), 5);
    let expected = [
        ("draw", Value::Null, Value::from(2)),
        ("win", Value::from(1), Value::from(3)),
        ("draw", Value::Null, Value::from(4)),
        ("lose", Value::from(0), Value::Null),
        ("draw", Value::Null, Value::from(2)),
    ];
    for (i, (row, (outcome, depth, best))) in rows.iter().zip(expected).enumerate() {
        assert_eq!(
            keys(row),
            key_set(&["node", "outcome", "depth", "best_move"])
        );
        assert_eq!(row["node"], i, "row {i}");
        assert_eq!(row["outcome"], outcome, "row {i}");
        assert_eq!(row["depth"], depth, "row {i}");
        assert_eq!(row["best_move"], best, "row {i}");
    }
}

#[test]
fn solve_chain_normal_and_misere() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    let normal = s.run(&["solve", "chain.txt", "--format", "csv"]).success();
    assert_eq!(normal, CHAIN_CSV);
    let misere = s
        .run(&["solve", "chain.txt", "--format", "csv", "--misere"])
        .success();
    assert_eq!(misere, CHAIN_MISERE_CSV);
}

#[test]
fn solve_two_cycle_with_an_exit() {
    // 0 wins at once by moving to 2; 1 must move to 0 and loses in 2.
    let s = Scratch::new();
    s.write("g.txt", TWO_CYCLE_EXIT);
    let out = s.run(&["solve", "g.txt", "--format", "csv"]).success();
    assert_eq!(out, solution_csv(&["win,1,2", "lose,2,0", "lose,0,"]));
}

#[test]
fn solve_self_loop_is_a_draw() {
    let s = Scratch::new();
    s.write("g.txt", "1 1\n0 0\n");
    let out = s.run(&["solve", "g.txt", "--format", "csv"]).success();
    assert_eq!(out, solution_csv(&["draw,,0"]));
    // Also a pure two-cycle: both draw, each holding the draw by moving to the other.
    s.write("c.txt", "2 2\n0 1\n1 0\n");
    let out = s.run(&["solve", "c.txt", "--format", "csv"]).success();
    assert_eq!(out, solution_csv(&["draw,,1", "draw,,0"]));
}

#[test]
fn best_moves_win_fast_lose_slow_and_break_ties_by_lowest_id() {
    // Edges are listed with the higher-numbered target first, so a tie-break that followed the
    // input order would pick the wrong move.
    let edges = [
        (0, 2),
        (0, 1), // 0: WIN, two terminal LOSE children: lowest id 1
        (3, 6),
        (3, 5), // 3: LOSE, children 5 and 6 both WIN 1: lowest id 5
        (5, 7),
        (6, 8),
        (9, 13),
        (9, 12),
        (9, 10), // 9: DRAW; 13 is WIN, 12 and 10 are draws: lowest draw 10
        (10, 10),
        (12, 12),
        (13, 14),
        (15, 3),
        (15, 16), // 15: WIN via 16 (LOSE 0), not 3 (LOSE 2): fastest beats lowest id
        (17, 5),
        (17, 18), // 17: LOSE; 5 is WIN 1, 18 is WIN 3: slowest beats lowest id
        (18, 19),
        (19, 20),
        (20, 21),
    ];
    let s = Scratch::new();
    s.write("g.txt", edge_list(22, &edges));
    let out = s.run(&["solve", "g.txt", "--format", "csv"]).success();
    let expected = solution_csv(&[
        "win,1,1",   // 0
        "lose,0,",   // 1
        "lose,0,",   // 2
        "lose,2,5",  // 3
        "lose,0,",   // 4 (isolated)
        "win,1,7",   // 5
        "win,1,8",   // 6
        "lose,0,",   // 7
        "lose,0,",   // 8
        "draw,,10",  // 9
        "draw,,10",  // 10
        "lose,0,",   // 11 (isolated)
        "draw,,12",  // 12
        "win,1,14",  // 13
        "lose,0,",   // 14
        "win,1,16",  // 15
        "lose,0,",   // 16
        "lose,4,18", // 17
        "win,3,19",  // 18
        "lose,2,20", // 19
        "win,1,21",  // 20
        "lose,0,",   // 21
    ]);
    assert_eq!(out, expected);
    assert_eq!(out, reference_csv(22, &edges, false, &HashMap::new()));
}

#[test]
fn solve_random_graphs_matches_the_reference_solver() {
    let s = Scratch::new();
    let mut outcomes_seen = BTreeSet::new();
    for seed in 1..=8 {
        let seed = seed.to_string();
        let text = s
            .run(&[
                "gen", "random", "--nodes", "40", "--edges", "70", "--seed", &seed,
            ])
            .success();
        let (n, edges) = parse_edge_list(&text);
        s.write("g.txt", &text);
        let none = HashMap::new();
        let normal = s.run(&["solve", "g.txt", "--format", "csv"]).success();
        assert_eq!(
            normal,
            reference_csv(n, &edges, false, &none),
            "seed {seed}"
        );
        let misere = s
            .run(&["solve", "g.txt", "--format", "csv", "--misere"])
            .success();
        assert_eq!(misere, reference_csv(n, &edges, true, &none), "seed {seed}");
        // Verdicts: a WIN, a LOSE and a tie on nodes that may well have moves.
        s.write("v.txt", "3 win\n7 lose\n11 draw\n");
        let verdicts = HashMap::from([(3, "win"), (7, "lose"), (11, "draw")]);
        let with_verdicts = s
            .run(&["solve", "g.txt", "--format", "csv", "--verdicts", "v.txt"])
            .success();
        assert_eq!(
            with_verdicts,
            reference_csv(n, &edges, false, &verdicts),
            "seed {seed} with verdicts"
        );
        for (outcome, _, _) in parse_solution(&normal) {
            outcomes_seen.insert(outcome);
        }
    }
    // The sample is varied enough to exercise all three outcomes.
    assert_eq!(outcomes_seen, key_set(&["win", "lose", "draw"]));
}

#[test]
fn solve_long_chain_without_overflowing_the_stack() {
    let s = Scratch::new();
    let chain = s.run(&["gen", "chain", "--nodes", "200000"]).success();
    for algorithm in ["retrograde", "acyclic"] {
        let out = s
            .run_with_stdin(
                &[
                    "solve",
                    "-",
                    "--summary",
                    "--format",
                    "json",
                    "--algorithm",
                    algorithm,
                ],
                &chain,
            )
            .success();
        let v = json(&out);
        assert_eq!(v["nodes"], 200_000, "{algorithm}");
        assert_eq!(v["edges"], 199_999, "{algorithm}");
        assert_eq!(v["win"], 100_000, "{algorithm}");
        assert_eq!(v["lose"], 100_000, "{algorithm}");
        assert_eq!(v["draw"], 0, "{algorithm}");
        assert_eq!(v["max_depth"], 199_999, "{algorithm}");
    }
}

// ------------------------------------------------------------------------------------------------
// solve: --summary
// ------------------------------------------------------------------------------------------------

#[test]
fn summary_in_every_format() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    let v = json(
        &s.run(&["solve", "g.txt", "--summary", "--format", "json"])
            .success(),
    );
    assert_eq!(
        keys(&v),
        key_set(&["nodes", "edges", "win", "lose", "draw", "max_depth"])
    );
    assert_eq!(
        v,
        json(r#"{"nodes":5,"edges":6,"win":1,"lose":1,"draw":3,"max_depth":1}"#)
    );

    let csv = s
        .run(&["solve", "g.txt", "--summary", "--format", "csv"])
        .success();
    assert_eq!(csv, "nodes,edges,win,lose,draw,max_depth\n5,6,1,1,3,1\n");

    let table = s.run(&["solve", "g.txt", "--summary"]).success();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec!["nodes", "5"],
            vec!["edges", "6"],
            vec!["win", "1"],
            vec!["lose", "1"],
            vec!["draw", "3"],
            vec!["max_depth", "1"],
        ]
    );
}

#[test]
fn summary_counts_agree_with_the_full_solution() {
    let s = Scratch::new();
    let text = s
        .run(&[
            "gen", "random", "--nodes", "60", "--edges", "90", "--seed", "11",
        ])
        .success();
    s.write("g.txt", &text);
    let rows = parse_solution(&s.run(&["solve", "g.txt", "--format", "csv"]).success());
    let v = json(
        &s.run(&["solve", "g.txt", "--summary", "--format", "json"])
            .success(),
    );
    let count = |o: &str| rows.iter().filter(|r| r.0 == o).count();
    assert_eq!(v["nodes"], 60);
    assert_eq!(v["edges"], 90);
    assert_eq!(v["win"], count("win"));
    assert_eq!(v["lose"], count("lose"));
    assert_eq!(v["draw"], count("draw"));
    assert_eq!(
        v["max_depth"],
        rows.iter().filter_map(|r| r.1).max().unwrap()
    );
}

#[test]
fn summary_of_a_graph_without_decided_positions() {
    let s = Scratch::new();
    s.write("e.txt", "0 0\n");
    let v = json(
        &s.run(&["solve", "e.txt", "--summary", "--format", "json"])
            .success(),
    );
    assert_eq!(
        v,
        json(r#"{"nodes":0,"edges":0,"win":0,"lose":0,"draw":0,"max_depth":null}"#)
    );
    let csv = s
        .run(&["solve", "e.txt", "--summary", "--format", "csv"])
        .success();
    assert_eq!(csv, "nodes,edges,win,lose,draw,max_depth\n0,0,0,0,0,\n");
    // A pure cycle: everything drawn, so there is no depth at all.
    s.write("c.txt", "2 2\n0 1\n1 0\n");
    let v = json(
        &s.run(&["solve", "c.txt", "--summary", "--format", "json"])
            .success(),
    );
    assert_eq!(v["draw"], 2);
    assert_eq!(v["max_depth"], Value::Null);
}

// ------------------------------------------------------------------------------------------------
// solve: verdicts, JSON input, standard input, algorithms, options
// ------------------------------------------------------------------------------------------------

#[test]
fn verdicts_make_positions_terminal() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    // Node 2 has a move, but its verdict makes it a terminal WIN at depth 0.
    s.write("v.txt", "# the goal\n2 win\n");
    let out = s
        .run(&[
            "solve",
            "chain.txt",
            "--verdicts",
            "v.txt",
            "--format",
            "csv",
        ])
        .success();
    assert_eq!(
        out,
        solution_csv(&["win,2,1", "lose,1,2", "win,0,", "lose,0,"])
    );
}

#[test]
fn draw_verdicts_are_ties_that_never_propagate() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    s.write("v.txt", "3 draw\n");
    let out = s
        .run(&[
            "solve",
            "chain.txt",
            "--verdicts",
            "v.txt",
            "--format",
            "csv",
        ])
        .success();
    assert_eq!(
        out,
        solution_csv(&["draw,,1", "draw,,2", "draw,,3", "draw,,"])
    );

    // 0 can move to a tie (1) or to a WIN for the opponent (2): holding the tie is best, and
    // the tie does not make 0 a WIN or a LOSE.
    s.write("g.txt", "4 3\n0 1\n0 2\n2 3\n");
    s.write("t.txt", "1 draw\n");
    let out = s
        .run(&["solve", "g.txt", "--verdicts", "t.txt", "--format", "csv"])
        .success();
    assert_eq!(
        out,
        solution_csv(&["draw,,1", "draw,,", "win,1,3", "lose,0,"])
    );
}

#[test]
fn verdicts_combine_with_misere() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    s.write("v.txt", "1 lose\n");
    let out = s
        .run(&[
            "solve",
            "chain.txt",
            "--misere",
            "--verdicts",
            "v.txt",
            "--format",
            "csv",
        ])
        .success();
    // 3 has no move: a misère WIN. 2 must move there: LOSE 1. 1 is a LOSE by verdict, so 0 wins
    // at once.
    assert_eq!(
        out,
        solution_csv(&["win,1,1", "lose,0,", "lose,1,3", "win,0,"])
    );
}

#[test]
fn json_input_is_detected_and_honours_its_options() {
    let s = Scratch::new();
    let chain = r#"{"nodes": 4, "edges": [[0, 1], [1, 2], [2, 3]]}"#;
    // By the .json extension.
    s.write("g.json", chain);
    let out = s.run(&["solve", "g.json", "--format", "csv"]).success();
    assert_eq!(out, CHAIN_CSV);
    // By a leading `{` (after blank space), whatever the name.
    s.write("g.txt", format!("\n  {chain}\n"));
    let out = s.run(&["solve", "g.txt", "--format", "csv"]).success();
    assert_eq!(out, CHAIN_CSV);
    // Forced with --input json.
    s.write("graph", chain);
    let out = s
        .run(&["solve", "graph", "--input", "json", "--format", "csv"])
        .success();
    assert_eq!(out, CHAIN_CSV);
    // On standard input.
    let out = s
        .run_with_stdin(&["solve", "-", "--format", "csv"], chain)
        .success();
    assert_eq!(out, CHAIN_CSV);

    // "misere": true in the file.
    s.write(
        "m.json",
        r#"{"nodes": 4, "edges": [[0, 1], [1, 2], [2, 3]], "misere": true}"#,
    );
    let out = s.run(&["solve", "m.json", "--format", "csv"]).success();
    assert_eq!(out, CHAIN_MISERE_CSV);
    // ... and --misere on top of it is still misère, not a toggle.
    let out = s
        .run(&["solve", "m.json", "--misere", "--format", "csv"])
        .success();
    assert_eq!(out, CHAIN_MISERE_CSV);

    // Verdicts in the file.
    s.write(
        "v.json",
        r#"{"nodes": 4, "edges": [[0, 1], [1, 2], [2, 3]], "misere": false,
            "verdicts": [[2, "draw"]]}"#,
    );
    let out = s.run(&["solve", "v.json", "--format", "csv"]).success();
    assert_eq!(
        out,
        solution_csv(&["draw,,1", "draw,,2", "draw,,", "lose,0,"])
    );
}

#[test]
fn json_verdicts_and_a_verdicts_file_combine() {
    let s = Scratch::new();
    s.write(
        "g.json",
        r#"{"nodes": 4, "edges": [[0, 1], [1, 2], [2, 3]], "verdicts": [[2, "win"]]}"#,
    );
    s.write("same.txt", "2 win\n0 draw\n");
    let out = s
        .run(&[
            "solve",
            "g.json",
            "--verdicts",
            "same.txt",
            "--format",
            "csv",
        ])
        .success();
    assert_eq!(
        out,
        solution_csv(&["draw,,", "lose,1,2", "win,0,", "lose,0,"])
    );
    // A file verdict that contradicts the JSON one is bad input.
    s.write("clash.txt", "2 lose\n");
    let msg = s
        .run(&["solve", "g.json", "--verdicts", "clash.txt"])
        .bad_input();
    assert_contains(&msg, "node 2");
    assert_contains(&msg, "win");
    assert_contains(&msg, "lose");
}

#[test]
fn edge_list_on_standard_input() {
    let s = Scratch::new();
    let out = s
        .run_with_stdin(&["solve", "-", "--format", "csv"], SEED)
        .success();
    assert_eq!(out, SEED_CSV);
    // Errors on standard input are named `<stdin>`.
    let msg = s.run_with_stdin(&["solve", "-"], "2 1\n0 x\n").bad_input();
    assert_starts(&msg, "<stdin>:2: expected an edge `u v`, found \"x\"");
}

#[test]
fn comments_blank_lines_and_crlf_are_accepted() {
    let s = Scratch::new();
    s.write(
        "g.txt",
        "# the seed graph\r\n\r\n5 6 # nodes edges\r\n0 1\r\n0 2\r\n# middle\r\n1 3\r\n2 1\r\n2 4\r\n4 2",
    );
    let out = s.run(&["solve", "g.txt", "--format", "csv"]).success();
    assert_eq!(out, SEED_CSV);
}

#[test]
fn acyclic_algorithm_agrees_on_acyclic_graphs() {
    let s = Scratch::new();
    for seed in 1..=5 {
        let edges = random_dag(30, seed);
        s.write("dag.txt", edge_list(30, &edges));
        let retro = s.run(&["solve", "dag.txt", "--format", "csv"]).success();
        let acyclic = s
            .run(&[
                "solve",
                "dag.txt",
                "--format",
                "csv",
                "--algorithm",
                "acyclic",
            ])
            .success();
        assert_eq!(acyclic, retro, "seed {seed}");
        assert_eq!(retro, reference_csv(30, &edges, false, &HashMap::new()));
        let misere = s
            .run(&[
                "solve",
                "dag.txt",
                "--format",
                "csv",
                "--algorithm",
                "acyclic",
                "--misere",
            ])
            .success();
        assert_eq!(misere, reference_csv(30, &edges, true, &HashMap::new()));
    }
    s.write("chain.txt", CHAIN);
    let out = s
        .run(&[
            "solve",
            "chain.txt",
            "--algorithm",
            "acyclic",
            "--format",
            "csv",
        ])
        .success();
    assert_eq!(out, CHAIN_CSV);
}

#[test]
fn acyclic_algorithm_names_a_cycle() {
    let s = Scratch::new();
    s.write("g.txt", TWO_CYCLE_EXIT);
    let msg = s
        .run(&["solve", "g.txt", "--algorithm", "acyclic"])
        .bad_input();
    assert_starts(&msg, "g.txt: ");
    assert_contains(&msg, "cycle 0 -> 1 -> 0");

    s.write("loop.txt", "1 1\n0 0\n");
    let msg = s
        .run(&["solve", "loop.txt", "--algorithm", "acyclic"])
        .bad_input();
    assert_contains(&msg, "cycle 0 -> 0");

    // A verdict makes its node terminal, which cuts the cycle through it.
    s.write("c.txt", "2 2\n0 1\n1 0\n");
    s.write("v.txt", "1 win\n");
    let out = s
        .run(&[
            "solve",
            "c.txt",
            "--verdicts",
            "v.txt",
            "--algorithm",
            "acyclic",
            "--format",
            "csv",
        ])
        .success();
    assert_eq!(out, solution_csv(&["lose,1,1", "win,0,"]));
}

#[test]
fn output_file_is_written_instead_of_standard_output() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    let out = s
        .run(&["solve", "g.txt", "--format", "csv", "--output", "out.csv"])
        .success();
    assert_eq!(out, "");
    assert_eq!(s.read("out.csv"), SEED_CSV);
    // -o, and overwriting an existing file.
    s.write("chain.txt", CHAIN);
    s.run(&["solve", "chain.txt", "--format", "csv", "-o", "out.csv"])
        .success();
    assert_eq!(s.read("out.csv"), CHAIN_CSV);
    // Summaries too.
    s.run(&[
        "solve",
        "g.txt",
        "--summary",
        "--format",
        "json",
        "-o",
        "sum.json",
    ])
    .success();
    assert_eq!(json(&s.read("sum.json"))["draw"], 3);
    // No temporary files are left behind.
    assert_eq!(
        s.listing(),
        vec!["chain.txt", "g.txt", "out.csv", "sum.json"]
    );
}

#[cfg(unix)]
#[test]
fn output_file_gets_ordinary_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new();
    s.write("g.txt", SEED);
    s.run(&["solve", "g.txt", "-o", "new.txt"]).success();
    let mode = std::fs::metadata(s.path("new.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644, "a new output file is rw-r--r--");
}

#[test]
fn failed_runs_leave_no_output_file() {
    let s = Scratch::new();
    s.write("bad.txt", "3 2\n0 1\n");
    s.write("old.csv", "previous contents\n");
    // Bad input: an existing output is untouched and a new one is not created.
    s.run(&["solve", "bad.txt", "-o", "old.csv"]).bad_input();
    assert_eq!(s.read("old.csv"), "previous contents\n");
    s.run(&["solve", "bad.txt", "-o", "new.csv"]).bad_input();
    assert!(!s.path("new.csv").exists());
    // The output cannot be put in place (it is a directory): the command fails, and neither a
    // partial file nor a temporary file is left.
    std::fs::create_dir(s.path("dir")).unwrap();
    s.write("g.txt", SEED);
    let run = s.run(&["solve", "g.txt", "-o", "dir"]);
    assert_ne!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.stdout, "");
    assert_starts(&run.stderr, "zermelo: error: ");
    assert_eq!(std::fs::read_dir(s.path("dir")).unwrap().count(), 0);
    assert_eq!(s.listing(), vec!["bad.txt", "dir", "g.txt", "old.csv"]);
    // The output directory does not exist: an unwritable output, exit 1 (issue 22; was 2).
    let run = s.run(&["solve", "g.txt", "-o", "missing/out.csv"]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(
        run.stderr,
        "zermelo: error: missing/out.csv: cannot write output: directory missing does not exist\n"
    );
}

#[test]
fn stats_go_to_standard_error_only() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    let run = s.run(&["solve", "g.txt", "--format", "csv", "--stats"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.stdout, SEED_CSV);
    assert_starts(&run.stderr, "stats: ");
    assert_contains(&run.stderr, "5 nodes, 6 edges");
}

#[test]
fn closed_standard_output_ends_quietly() {
    // `zermelo gen chain ... | head -c 0`: the reader goes away almost at once.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["gen", "chain", "--nodes", "500000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn zermelo");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "exit {status:?}, stderr {stderr:?}");
    assert_eq!(stderr, "");
}

// ------------------------------------------------------------------------------------------------
// line
// ------------------------------------------------------------------------------------------------

#[test]
fn line_of_a_win_reaches_a_terminal_in_depth_plies() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    let v = json(
        &s.run(&["line", "chain.txt", "--from", "0", "--format", "json"])
            .success(),
    );
    assert_eq!(
        keys(&v),
        key_set(&["outcome", "depth", "line", "end", "repeats_from"])
    );
    assert_eq!(
        v,
        json(
            r#"{"outcome":"win","depth":3,"line":[
                {"node":0,"outcome":"win","depth":3},
                {"node":1,"outcome":"lose","depth":2},
                {"node":2,"outcome":"win","depth":1},
                {"node":3,"outcome":"lose","depth":0}],
              "end":"terminal","repeats_from":null}"#
        )
    );

    let table = s.run(&["line", "chain.txt", "--from", "1"]).success();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], vec!["ply", "node", "outcome", "depth"]);
    assert_eq!(rows[1], vec!["0", "1", "lose", "2"]);
    assert_eq!(rows[2], vec!["1", "2", "win", "1"]);
    assert_eq!(rows[3], vec!["2", "3", "lose", "0"]);
    assert_eq!(rows.len(), 5);
    assert_eq!(
        table.lines().last(),
        Some("end: terminal position after 2 plies")
    );

    let csv = s
        .run(&["line", "chain.txt", "--from", "1", "--format", "csv"])
        .success();
    assert_eq!(
        csv,
        "ply,node,outcome,depth\n0,1,lose,2\n1,2,win,1\n2,3,lose,0\n"
    );

    // Misère: the same moves, the outcomes swapped.
    let v = json(
        &s.run(&[
            "line",
            "chain.txt",
            "--from",
            "0",
            "--misere",
            "--format",
            "json",
        ])
        .success(),
    );
    assert_eq!(v["outcome"], "lose");
    assert_eq!(v["depth"], 3);
    assert_eq!(
        v["line"][3],
        json(r#"{"node":3,"outcome":"win","depth":0}"#)
    );
}

#[test]
fn line_of_a_draw_ends_in_a_repetition() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    let v = json(
        &s.run(&["line", "g.txt", "--from", "0", "--format", "json"])
            .success(),
    );
    assert_eq!(
        v,
        json(
            r#"{"outcome":"draw","depth":null,"line":[
                {"node":0,"outcome":"draw","depth":null},
                {"node":2,"outcome":"draw","depth":null},
                {"node":4,"outcome":"draw","depth":null}],
              "end":"repetition","repeats_from":1}"#
        )
    );
    let table = s.run(&["line", "g.txt", "--from", "0"]).success();
    assert_eq!(
        table.lines().last(),
        Some("end: optimal play repeats from ply 1 (a draw)")
    );
    // The start of the seed graph's win.
    let v = json(
        &s.run(&["line", "g.txt", "--from", "1", "--format", "json"])
            .success(),
    );
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["line"].as_array().unwrap().len(), 2);
    assert_eq!(v["end"], "terminal");

    s.write("loop.txt", "1 1\n0 0\n");
    let v = json(
        &s.run(&["line", "loop.txt", "--from", "0", "--format", "json"])
            .success(),
    );
    assert_eq!(
        v["line"],
        json(r#"[{"node":0,"outcome":"draw","depth":null}]"#)
    );
    assert_eq!(v["end"], "repetition");
    assert_eq!(v["repeats_from"], 0);
}

#[test]
fn line_into_a_tie_verdict_ends_at_that_terminal() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    s.write("v.txt", "2 draw\n");
    let v = json(
        &s.run(&[
            "line",
            "chain.txt",
            "--from",
            "0",
            "--verdicts",
            "v.txt",
            "--format",
            "json",
        ])
        .success(),
    );
    let nodes: Vec<u64> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["node"].as_u64().unwrap())
        .collect();
    assert_eq!(v["outcome"], "draw");
    assert_eq!(nodes, vec![0, 1, 2]);
    assert_eq!(v["end"], "terminal");
    assert_eq!(v["repeats_from"], Value::Null);
}

#[test]
fn lines_follow_best_moves_on_random_graphs() {
    let s = Scratch::new();
    let mut outcomes_seen = BTreeSet::new();
    // Seed 3 has a win in 10 plies; seed 11 is mostly draws.
    for seed in ["3", "11"] {
        let text = s
            .run(&[
                "gen", "random", "--nodes", "25", "--edges", "40", "--seed", seed,
            ])
            .success();
        let (n, edges) = parse_edge_list(&text);
        s.write("g.txt", &text);
        let rows = parse_solution(&s.run(&["solve", "g.txt", "--format", "csv"]).success());
        let has_edge = |u: usize, v: usize| edges.contains(&(u, v));
        let terminal = |u: usize| !edges.iter().any(|&(a, _)| a == u);
        for start in 0..n {
            let from = start.to_string();
            let v = json(
                &s.run(&["line", "g.txt", "--from", &from, "--format", "json"])
                    .success(),
            );
            let (outcome, depth, _) = &rows[start];
            outcomes_seen.insert(outcome.clone());
            assert_eq!(v["outcome"], outcome.as_str(), "seed {seed} from {start}");
            assert_eq!(v["depth"].as_u64(), depth.map(u64::from));
            let line: Vec<usize> = v["line"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["node"].as_u64().unwrap() as usize)
                .collect();
            assert_eq!(line[0], start);
            for w in line.windows(2) {
                assert!(has_edge(w[0], w[1]), "{} -> {} is not a move", w[0], w[1]);
                assert_eq!(rows[w[0]].2, Some(w[1]), "the line follows best_move");
            }
            let distinct: BTreeSet<usize> = line.iter().copied().collect();
            assert_eq!(
                distinct.len(),
                line.len(),
                "no position repeats inside a line"
            );
            match depth {
                Some(d) => {
                    assert_eq!(line.len(), *d as usize + 1, "seed {seed} from {start}");
                    assert_eq!(v["end"], "terminal");
                    assert_eq!(v["repeats_from"], Value::Null);
                    assert!(terminal(*line.last().unwrap()));
                    for (ply, &u) in line.iter().enumerate() {
                        assert_eq!(rows[u].1, Some(d - ply as u32));
                        let expected = if (ply % 2 == 0) == (outcome == "win") {
                            "win"
                        } else {
                            "lose"
                        };
                        assert_eq!(rows[u].0, expected);
                    }
                }
                None => {
                    assert_eq!(v["end"], "repetition", "seed {seed} from {start}");
                    let i = v["repeats_from"].as_u64().unwrap() as usize;
                    assert!(i < line.len());
                    let last = *line.last().unwrap();
                    assert_eq!(rows[last].2, Some(line[i]), "the line closes its cycle");
                    assert!(line.iter().all(|&u| rows[u].0 == "draw"));
                }
            }
        }
    }
    assert_eq!(outcomes_seen, key_set(&["win", "lose", "draw"]));
}

#[test]
fn line_of_a_two_player_game() {
    let s = Scratch::new();
    s.write("p.txt", TWO_PLAYER);
    let v = json(
        &s.run(&[
            "line",
            "p.txt",
            "--input",
            "two-player",
            "--from",
            "0",
            "--format",
            "json",
        ])
        .success(),
    );
    assert_eq!(
        v,
        json(
            r#"{"outcome":"lose","depth":2,"line":[
                {"position":0,"to_move":0,"outcome":"lose","depth":2},
                {"position":1,"to_move":1,"outcome":"win","depth":1},
                {"position":2,"to_move":0,"outcome":"lose","depth":0}],
              "end":"terminal","repeats_from":null}"#
        )
    );
    let v = json(
        &s.run(&[
            "line",
            "p.txt",
            "--input",
            "two-player",
            "--from",
            "2",
            "--to-move",
            "1",
            "--format",
            "json",
        ])
        .success(),
    );
    assert_eq!(
        v["line"],
        json(
            r#"[{"position":2,"to_move":1,"outcome":"win","depth":1},
                {"position":1,"to_move":0,"outcome":"lose","depth":0}]"#
        )
    );
    let table = s
        .run(&["line", "p.txt", "--input", "two-player", "--from", "0"])
        .success();
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        vec!["ply", "position", "to_move", "outcome", "depth"]
    );
}

#[test]
fn line_start_errors() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    let msg = s.run(&["line", "g.txt", "--from", "5"]).bad_input();
    assert_contains(&msg, "5 is out of range");
    assert_contains(&msg, "5 nodes");
    let msg = s
        .run(&["line", "g.txt", "--from", "0", "--to-move", "1"])
        .bad_input();
    assert_contains(&msg, "--to-move");

    s.write("p.txt", TWO_PLAYER);
    let msg = s
        .run(&["line", "p.txt", "--input", "two-player", "--from", "3"])
        .bad_input();
    assert_contains(&msg, "position 3 is out of range");
    assert_contains(&msg, "3 positions");
    let msg = s
        .run(&[
            "line",
            "p.txt",
            "--input",
            "two-player",
            "--from",
            "0",
            "--to-move",
            "2",
        ])
        .bad_input();
    assert_contains(&msg, "--to-move must be 0 or 1");

    s.write("e.txt", "0 0\n");
    let msg = s.run(&["line", "e.txt", "--from", "0"]).bad_input();
    assert_contains(&msg, "0 is out of range");

    // Missing and malformed --from are usage errors.
    s.run(&["line", "g.txt"]).usage_error();
    s.run(&["line", "g.txt", "--from", "-1"]).usage_error();
    s.run(&["line", "g.txt", "--from", "x"]).usage_error();
}

// ------------------------------------------------------------------------------------------------
// grundy
// ------------------------------------------------------------------------------------------------

#[test]
fn grundy_values_of_the_subtraction_game() {
    let s = Scratch::new();
    s.write("sub.txt", subtraction_game());
    let expected: Vec<u64> = (0..9).map(|n| n % 3).collect();

    let v = json(&s.run(&["grundy", "sub.txt", "--format", "json"]).success());
    assert_eq!(keys(&v), key_set(&["grundy"]));
    assert_eq!(v["grundy"], json(&format!("{expected:?}")));

    let csv = s.run(&["grundy", "sub.txt", "--format", "csv"]).success();
    let mut want = String::from("node,grundy\n");
    for (n, g) in expected.iter().enumerate() {
        want += &format!("{n},{g}\n");
    }
    assert_eq!(csv, want);

    let table = s.run(&["grundy", "sub.txt"]).success();
    let rows: Vec<Vec<String>> = table
        .lines()
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    assert_eq!(rows[0], vec!["node", "grundy"]);
    for (n, g) in expected.iter().enumerate() {
        assert_eq!(rows[n + 1], vec![n.to_string(), g.to_string()]);
    }

    // Written to a file.
    s.run(&["grundy", "sub.txt", "--format", "csv", "-o", "g.csv"])
        .success();
    assert_eq!(s.read("g.csv"), want);
}

#[test]
fn grundy_values_of_random_dags_follow_the_mex_rule() {
    let s = Scratch::new();
    for seed in 1..=5 {
        let edges = random_dag(40, seed);
        s.write("dag.txt", edge_list(40, &edges));
        let v = json(&s.run(&["grundy", "dag.txt", "--format", "json"]).success());
        let got: Vec<u64> = v["grundy"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_u64().unwrap())
            .collect();
        assert_eq!(got, reference_grundy(40, &edges), "seed {seed}");
    }
}

#[test]
fn grundy_sum_gives_the_nim_sum_and_a_winning_move() {
    let s = Scratch::new();
    s.write("sub.txt", subtraction_game());
    // Piles 3, 5, 7: values 0, 2, 1; nim-sum 3. Component 1 (pile 5, value 2) must go to value
    // 2 ^ 3 = 1: pile 4.
    let v = json(
        &s.run(&["grundy", "sub.txt", "--sum", "3,5,7", "--format", "json"])
            .success(),
    );
    assert_eq!(
        keys(&v),
        key_set(&["components", "nim_sum", "outcome", "winning_move"])
    );
    assert_eq!(
        v["components"],
        json(r#"[{"node":3,"grundy":0},{"node":5,"grundy":2},{"node":7,"grundy":1}]"#)
    );
    assert_eq!(v["nim_sum"], 3);
    assert_eq!(v["outcome"], "win");
    assert_eq!(
        v["winning_move"],
        json(r#"{"component":1,"from":5,"to":4}"#)
    );

    let table = s.run(&["grundy", "sub.txt", "--sum", "3,5,7"]).success();
    assert_contains(&table, "nim-sum 3: win for the player to move");
    assert_contains(
        &table,
        "winning move: in component 1, move 5 -> 4 (grundy 1)",
    );

    // Piles 3 and 6: values 0 and 0, a loss with no winning move.
    let v = json(
        &s.run(&["grundy", "sub.txt", "--sum", "3,6", "--format", "json"])
            .success(),
    );
    assert_eq!(v["nim_sum"], 0);
    assert_eq!(v["outcome"], "lose");
    assert_eq!(v["winning_move"], Value::Null);
    let table = s.run(&["grundy", "sub.txt", "--sum", "3,6"]).success();
    assert_contains(&table, "nim-sum 0: lose for the player to move");
    assert!(!table.contains("winning move"));

    // Two equal games cancel.
    let v = json(
        &s.run(&["grundy", "sub.txt", "--sum", "5,5", "--format", "json"])
            .success(),
    );
    assert_eq!(v["nim_sum"], 0);
    assert_eq!(v["outcome"], "lose");
}

#[test]
fn grundy_winning_moves_reach_nim_sum_zero_on_random_dags() {
    let s = Scratch::new();
    let edges = random_dag(40, 9);
    let values = reference_grundy(40, &edges);
    s.write("dag.txt", edge_list(40, &edges));
    let mut rng = Lcg(77);
    let mut wins = 0;
    for _ in 0..12 {
        let starts: Vec<usize> = (0..3).map(|_| rng.below(40)).collect();
        let arg = starts
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let v = json(
            &s.run(&["grundy", "dag.txt", "--sum", &arg, "--format", "json"])
                .success(),
        );
        let nim_sum = starts.iter().fold(0, |acc, &u| acc ^ values[u]);
        assert_eq!(v["nim_sum"], nim_sum, "sum {arg}");
        if nim_sum == 0 {
            assert_eq!(v["outcome"], "lose");
            assert_eq!(v["winning_move"], Value::Null);
            continue;
        }
        wins += 1;
        assert_eq!(v["outcome"], "win");
        let m = &v["winning_move"];
        let c = m["component"].as_u64().unwrap() as usize;
        let (from, to) = (
            m["from"].as_u64().unwrap() as usize,
            m["to"].as_u64().unwrap() as usize,
        );
        assert_eq!(from, starts[c]);
        assert!(edges.contains(&(from, to)), "{from} -> {to} is not a move");
        assert_eq!(
            nim_sum ^ values[from] ^ values[to],
            0,
            "the move leaves nim-sum 0"
        );
    }
    assert!(wins > 0);
}

#[test]
fn grundy_accepts_cycles_with_generalized_values_and_drawn_sums() {
    let s = Scratch::new();
    // 0 <-> 1, 1 -> 2 -> 3: γ(3) = 0, γ(2) = 1, γ(1) = ∞(1), γ(0) = ∞() (Smith's values).
    s.write("c.txt", edge_list(4, &[(0, 1), (1, 0), (1, 2), (2, 3)]));
    let v = json(&s.run(&["grundy", "c.txt", "--format", "json"]).success());
    assert_eq!(v["grundy"], json(r#"["inf{}","inf{1}",1,0]"#));
    let table = s.run(&["grundy", "c.txt"]).success();
    assert_contains(&table, "inf{1}");
    // A set with a comma is quoted in CSV.
    s.write("c2.txt", edge_list(3, &[(0, 0), (0, 1), (0, 2), (2, 1)]));
    let csv = s.run(&["grundy", "c2.txt", "--format", "csv"]).success();
    assert_eq!(csv, "node,grundy\n0,\"inf{0,1}\"\n1,0\n2,1\n");
    // 1 + 2: finite part 1 is in {1}: won by moving 1 -> 2.
    let v = json(
        &s.run(&["grundy", "c.txt", "--sum", "1,2", "--format", "json"])
            .success(),
    );
    assert_eq!(
        keys(&v),
        key_set(&["components", "nim_sum", "outcome", "winning_move"])
    );
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["nim_sum"], "inf{0}");
    assert_eq!(
        v["winning_move"],
        json(r#"{"component":0,"from":1,"to":2}"#)
    );
    // 1 + 3: finite part 0 is not in {1}: drawn; the drawing move keeps the sum drawn.
    let v = json(
        &s.run(&["grundy", "c.txt", "--sum", "1,3", "--format", "json"])
            .success(),
    );
    assert_eq!(v["outcome"], "draw");
    assert_eq!(v["winning_move"], Value::Null);
    assert_eq!(
        v["drawing_move"],
        json(r#"{"component":0,"from":1,"to":0}"#)
    );
    let table = s.run(&["grundy", "c.txt", "--sum", "0,1"]).success();
    assert_contains(&table, "value inf{}: draw for the player to move");
    assert_contains(&table, "drawing move: in component 0, move 0 -> 1");
    // The outcome of every single node agrees with `solve`.
    let solved = s.run(&["solve", "c.txt", "--format", "csv"]).success();
    let v = json(&s.run(&["grundy", "c.txt", "--format", "json"]).success());
    for (u, line) in solved.lines().skip(1).enumerate() {
        let outcome = line.split(',').nth(1).unwrap().to_lowercase();
        let want = match &v["grundy"][u] {
            Value::Number(n) if n.as_u64() == Some(0) => "lose",
            Value::Number(_) => "win",
            Value::String(t) if t.starts_with("inf{0,") || t == "inf{0}" => "win",
            _ => "draw",
        };
        assert_eq!(outcome, want, "node {u}: {line}");
    }
}

#[test]
fn grundy_rejects_misere_verdicts_and_two_player_games() {
    let s = Scratch::new();
    s.write("sub.txt", subtraction_game());
    let msg = s.run(&["grundy", "sub.txt", "--misere"]).bad_input();
    assert_contains(&msg, "normal play only");
    s.write(
        "m.json",
        r#"{"nodes": 2, "edges": [[0, 1]], "misere": true}"#,
    );
    let msg = s.run(&["grundy", "m.json"]).bad_input();
    assert_contains(&msg, "normal play only");
    s.write("v.txt", "0 win\n");
    s.run(&["grundy", "sub.txt", "--verdicts", "v.txt"])
        .bad_input();
    s.write("p.txt", TWO_PLAYER);
    let msg = s
        .run(&["grundy", "p.txt", "--input", "two-player"])
        .bad_input();
    assert_contains(&msg, "two-player");
    // A sum naming a node that does not exist.
    let msg = s.run(&["grundy", "sub.txt", "--sum", "3,9"]).bad_input();
    assert_contains(&msg, "9 is out of range");
    s.run(&["grundy", "sub.txt", "--sum", "3,x"]).usage_error();
}

#[test]
fn grundy_reads_json_games() {
    let s = Scratch::new();
    s.write(
        "g.json",
        r#"{"nodes": 4, "edges": [[1, 0], [2, 0], [2, 1], [3, 2]], "misere": false}"#,
    );
    let v = json(&s.run(&["grundy", "g.json", "--format", "json"]).success());
    assert_eq!(v, json(r#"{"grundy":[0,1,2,0]}"#));
}

// ------------------------------------------------------------------------------------------------
// Two-player games
// ------------------------------------------------------------------------------------------------

#[test]
fn two_player_game_worked_by_hand() {
    let s = Scratch::new();
    s.write("p.txt", TWO_PLAYER);
    let csv = s
        .run(&["solve", "p.txt", "--input", "two-player", "--format", "csv"])
        .success();
    assert_eq!(csv, TWO_PLAYER_CSV);

    let v = json(
        &s.run(&[
            "solve",
            "p.txt",
            "--input",
            "two-player",
            "--format",
            "json",
        ])
        .success(),
    );
    assert_eq!(v["nodes"], 6);
    assert_eq!(v["edges"], 5);
    assert_eq!(v["win"], 2);
    assert_eq!(v["lose"], 4);
    assert_eq!(v["draw"], 0);
    assert_eq!(v["max_depth"], 2);
    assert_eq!(
        v["solution"][0],
        json(r#"{"position":0,"to_move":0,"outcome":"lose","depth":2,"best_move":1}"#)
    );
    assert_eq!(
        v["solution"][5],
        json(r#"{"position":2,"to_move":1,"outcome":"win","depth":1,"best_move":1}"#)
    );

    let table = s
        .run(&["solve", "p.txt", "--input", "two-player"])
        .success();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0],
        vec!["position", "to_move", "outcome", "depth", "best_move"]
    );
    assert_eq!(rows[1], vec!["0", "0", "lose", "2", "1"]);
    assert_eq!(rows[4], vec!["1", "1", "win", "1", "2"]);

    let v = json(
        &s.run(&[
            "solve",
            "p.txt",
            "--input",
            "two-player",
            "--summary",
            "--format",
            "json",
        ])
        .success(),
    );
    assert_eq!(
        v,
        json(r#"{"nodes":6,"edges":5,"win":2,"lose":4,"draw":0,"max_depth":2}"#)
    );
}

#[test]
fn two_player_draws_and_verdicts() {
    let s = Scratch::new();
    // Player 0 moves 0->1, player 1 moves 1->0: (0,0) -> (1,1) -> (0,0) forever; (0,1) and
    // (1,0) have no moves.
    s.write("loop.txt", "2 1 1\n0 1\n1 0\n");
    let csv = s
        .run(&[
            "solve",
            "loop.txt",
            "--input",
            "two-player",
            "--format",
            "csv",
        ])
        .success();
    assert_eq!(
        csv,
        "position,to_move,outcome,depth,best_move\n0,0,draw,,1\n0,1,lose,0,\n1,0,lose,0,\n1,1,draw,,0\n"
    );

    // In the worked game, make (2, player 1 to move) a terminal LOSE: then player 0 at
    // position 0 wins at once by moving to 2.
    s.write("p.txt", TWO_PLAYER);
    s.write("v.txt", "2 1 lose\n");
    let csv = s
        .run(&[
            "solve",
            "p.txt",
            "--input",
            "two-player",
            "--verdicts",
            "v.txt",
            "--format",
            "csv",
        ])
        .success();
    assert_eq!(
        csv,
        "position,to_move,outcome,depth,best_move\n\
         0,0,win,1,2\n0,1,lose,0,\n1,0,lose,0,\n1,1,win,1,2\n2,0,lose,0,\n2,1,lose,0,\n"
    );

    // A verdict line needs a player 0 or 1, and a position in range.
    s.write("bad.txt", "0 0 win\n1 2 lose\n");
    let msg = s
        .run(&[
            "solve",
            "p.txt",
            "--input",
            "two-player",
            "--verdicts",
            "bad.txt",
        ])
        .bad_input();
    assert_starts(&msg, "bad.txt:2: expected a player 0 or 1");
    s.write("far.txt", "3 0 win\n");
    let msg = s
        .run(&[
            "solve",
            "p.txt",
            "--input",
            "two-player",
            "--verdicts",
            "far.txt",
        ])
        .bad_input();
    assert_starts(&msg, "far.txt:1: position 3 is out of range");
}

#[test]
fn two_player_input_errors() {
    let s = Scratch::new();
    let two = |s: &Scratch, text: &str| {
        s.write("p.txt", text);
        s.run(&["solve", "p.txt", "--input", "two-player"])
            .bad_input()
    };
    assert_starts(
        &two(&s, "2 1\n0 1\n"),
        "p.txt:1: expected a header line `n m0 m1`",
    );
    assert_eq!(
        two(&s, "2 1 1\n0 1\n"),
        "p.txt:2: expected 1 moves of player 1 (header, line 1), but the input ends after 0"
    );
    assert_starts(&two(&s, "2 0 1\n0 5\n"), "p.txt:2: node 5 is out of range");
    assert_starts(
        &two(&s, "2 1 0\n0 1\n1 0\n"),
        "p.txt:3: more edges than the 1 declared",
    );
    assert_starts(
        &two(&s, "2 1 0\n0 y\n"),
        "p.txt:2: expected a move `u v` of player 0, found \"y\"",
    );
    assert_starts(&two(&s, ""), "p.txt:1: empty input");
}

// ------------------------------------------------------------------------------------------------
// verify
// ------------------------------------------------------------------------------------------------

#[test]
fn verify_accepts_the_solvers_output() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    s.write("sol.csv", SEED_CSV);
    let out = s.run(&["verify", "g.txt", "sol.csv"]).success();
    assert_eq!(
        out,
        "valid: 5 nodes, 6 edges; 1 win, 1 lose, 3 draw; max depth 1; best moves optimal\n"
    );

    // Misère, with the flag.
    s.write("chain.txt", CHAIN);
    s.write("mis.csv", CHAIN_MISERE_CSV);
    let out = s
        .run(&["verify", "chain.txt", "mis.csv", "--misere"])
        .success();
    assert_starts(&out, "valid: ");

    // Verdicts.
    s.write("v.txt", "2 win\n");
    s.run(&[
        "solve",
        "chain.txt",
        "--verdicts",
        "v.txt",
        "--format",
        "csv",
        "-o",
        "vs.csv",
    ])
    .success();
    s.run(&["verify", "chain.txt", "vs.csv", "--verdicts", "v.txt"])
        .success();

    // JSON game.
    s.write("g.json", r#"{"nodes": 2, "edges": [[0, 1], [1, 0]]}"#);
    s.write(
        "d.csv",
        "node,outcome,depth,best_move\n0,draw,,1\n1,draw,,0\n",
    );
    let out = s.run(&["verify", "g.json", "d.csv"]).success();
    assert_eq!(
        out,
        "valid: 2 nodes, 2 edges; 0 win, 0 lose, 2 draw; max depth -; best moves optimal\n"
    );

    // Solution on standard input.
    let out = s
        .run_with_stdin(&["verify", "chain.txt", "-"], CHAIN_CSV)
        .success();
    assert_starts(
        &out,
        "valid: 4 nodes, 3 edges; 2 win, 2 lose, 0 draw; max depth 3",
    );

    // Random graphs, normal and misère.
    for seed in ["5", "6"] {
        let text = s
            .run(&[
                "gen", "random", "--nodes", "50", "--edges", "80", "--seed", seed,
            ])
            .success();
        s.write("r.txt", &text);
        for misere in [false, true] {
            let mut args = vec!["solve", "r.txt", "--format", "csv", "-o", "r.csv"];
            if misere {
                args.push("--misere");
            }
            s.run(&args).success();
            let mut args = vec!["verify", "r.txt", "r.csv"];
            if misere {
                args.push("--misere");
            }
            assert_starts(&s.run(&args).success(), "valid: 50 nodes, 80 edges;");
        }
    }
}

#[test]
fn verify_accepts_reordered_rows_crlf_no_best_moves_and_any_optimal_move() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    s.write(
        "shuffled.csv",
        "node,outcome,depth\r\n3,lose,0\r\n1,lose,2\r\n\r\n2,win,1\r\n0,win,3\r\n",
    );
    let out = s.run(&["verify", "chain.txt", "shuffled.csv"]).success();
    assert_eq!(
        out,
        "valid: 4 nodes, 3 edges; 2 win, 2 lose, 0 draw; max depth 3\n"
    );

    // In the two-player game, (0, 0) is a LOSE whose two moves are equally slow: the solver
    // prints the lower (1), but 2 is just as optimal.
    s.write("p.txt", TWO_PLAYER);
    s.write(
        "alt.csv",
        TWO_PLAYER_CSV.replace("0,0,lose,2,1\n", "0,0,lose,2,2\n"),
    );
    s.run(&["verify", "p.txt", "alt.csv"]).success();
}

#[test]
fn verify_accepts_two_player_solutions() {
    let s = Scratch::new();
    s.write("p.txt", TWO_PLAYER);
    s.write("sol.csv", TWO_PLAYER_CSV);
    // The two-player layout is recognised from the CSV header...
    let out = s.run(&["verify", "p.txt", "sol.csv"]).success();
    assert_eq!(
        out,
        "valid: 6 nodes, 5 edges; 2 win, 4 lose, 0 draw; max depth 2; best moves optimal\n"
    );
    // ... or given explicitly.
    s.run(&["verify", "p.txt", "sol.csv", "--input", "two-player"])
        .success();
    // With verdicts.
    s.write("v.txt", "2 1 lose\n");
    s.run(&[
        "solve",
        "p.txt",
        "--input",
        "two-player",
        "--verdicts",
        "v.txt",
        "--format",
        "csv",
        "-o",
        "vs.csv",
    ])
    .success();
    s.run(&["verify", "p.txt", "vs.csv", "--verdicts", "v.txt"])
        .success();
}

#[test]
fn verify_refuses_a_solution_of_the_other_layout() {
    // Issue 12: a two-player solution checked against a one-player game (or the reverse) is an
    // input error naming the mismatch, never "valid".
    let s = Scratch::new();
    s.write("p.txt", TWO_PLAYER);
    s.write("sol.csv", TWO_PLAYER_CSV);
    s.write("g.txt", SEED);
    // One row per state of the two-player game (6), in the one-player layout.
    s.write(
        "one.csv",
        "node,outcome,depth,best_move\n0,draw,,\n1,draw,,\n2,draw,,\n3,draw,,\n4,draw,,\n5,draw,,\n",
    );
    let message = s
        .run(&["verify", "p.txt", "one.csv", "--input", "two-player"])
        .bad_input();
    assert!(
        message.contains("the solution's layout (one-player) does not match the game (two-player)"),
        "{message}"
    );
    // A two-player solution makes verify read the game as two-player: a one-player file then
    // fails on its header instead of being checked against the wrong layout.
    let message = s.run(&["verify", "g.txt", "sol.csv"]).bad_input();
    assert!(
        message.contains("g.txt:1: expected a header line `n m0 m1`"),
        "{message}"
    );
    let message = s
        .run(&["verify", "g.txt", "sol.csv", "--input", "edges"])
        .bad_input();
    // (forced to one-player, the two-player rows do not fit the 5-node game)
    assert!(message.starts_with("sol.csv:"), "{message}");
}

#[test]
fn verify_rejects_wrong_outcomes() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    // Node 0 is a draw, claimed a win.
    s.write("m.csv", SEED_CSV.replace("\n0,draw,,2\n", "\n0,win,2,2\n"));
    let line = s.run(&["verify", "g.txt", "m.csv"]).rejected();
    assert_eq!(
        line,
        "invalid: node 0 is claimed win, but no child is lose at one ply less"
    );
    // Node 1 is a win, claimed a draw.
    s.write("m.csv", SEED_CSV.replace("\n1,win,1,3\n", "\n1,draw,,3\n"));
    let line = s.run(&["verify", "g.txt", "m.csv"]).rejected();
    assert_starts(&line, "invalid: node 1 ");
    // Terminal 3 claimed a win.
    s.write("m.csv", SEED_CSV.replace("\n3,lose,0,\n", "\n3,win,0,\n"));
    let line = s.run(&["verify", "g.txt", "m.csv"]).rejected();
    // (node 1, which moves to 3, is checked first and is now wrong too)
    assert_starts(&line, "invalid: node 1 ");
    // A normal-play solution checked under misère.
    s.write("chain.txt", CHAIN);
    s.write("n.csv", CHAIN_CSV);
    let line = s
        .run(&["verify", "chain.txt", "n.csv", "--misere"])
        .rejected();
    assert_starts(&line, "invalid: node ");
    // A misère solution checked under normal play: the terminal is named.
    s.write("mis.csv", CHAIN_MISERE_CSV);
    let line = s.run(&["verify", "chain.txt", "mis.csv"]).rejected();
    assert_eq!(
        line,
        "invalid: node 3 is terminal with verdict lose, but is claimed win at depth 0"
    );
}

#[test]
fn verify_rejects_wrong_depths() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    // Node 0 wins in 3, claimed 5.
    s.write("m.csv", CHAIN_CSV.replace("0,win,3,1", "0,win,5,1"));
    let line = s.run(&["verify", "chain.txt", "m.csv"]).rejected();
    assert_eq!(
        line,
        "invalid: node 0 is claimed win, but child 1 is lose at depth 2, a faster win"
    );
    // Node 0 claimed 1.
    s.write("m.csv", CHAIN_CSV.replace("0,win,3,1", "0,win,1,1"));
    let line = s.run(&["verify", "chain.txt", "m.csv"]).rejected();
    assert_starts(&line, "invalid: node 0 ");
    // A non-terminal claiming depth 0.
    s.write("m.csv", CHAIN_CSV.replace("2,win,1,3", "2,win,0,3"));
    let line = s.run(&["verify", "chain.txt", "m.csv"]).rejected();
    assert_starts(&line, "invalid: node 1 ");
    // Without a best_move column as well.
    s.write(
        "m.csv",
        "node,outcome,depth\n0,win,3\n1,lose,4\n2,win,1\n3,lose,0\n",
    );
    let line = s.run(&["verify", "chain.txt", "m.csv"]).rejected();
    assert_starts(&line, "invalid: node 0 ");
}

#[test]
fn verify_rejects_bad_best_moves() {
    let s = Scratch::new();
    s.write("g.txt", TWO_CYCLE_EXIT);
    let good = solution_csv(&["win,1,2", "lose,2,0", "lose,0,"]);
    s.write("good.csv", &good);
    s.run(&["verify", "g.txt", "good.csv"]).success();
    // 0 -> 1 is a move, but to a WIN: not optimal.
    s.write("m.csv", good.replace("0,win,1,2", "0,win,1,1"));
    assert_eq!(
        s.run(&["verify", "g.txt", "m.csv"]).rejected(),
        "invalid: node 0 claims best move 1, which is not optimal"
    );
    // 0 -> 0 is not a move at all.
    s.write("m.csv", good.replace("0,win,1,2", "0,win,1,0"));
    assert_eq!(
        s.run(&["verify", "g.txt", "m.csv"]).rejected(),
        "invalid: node 0 claims best move 0, which is not one of its moves"
    );
    // A non-terminal without a best move.
    s.write("m.csv", good.replace("0,win,1,2", "0,win,1,"));
    assert_starts(
        &s.run(&["verify", "g.txt", "m.csv"]).rejected(),
        "invalid: node 0",
    );
    // A terminal with one.
    s.write("m.csv", good.replace("2,lose,0,", "2,lose,0,1"));
    assert_starts(
        &s.run(&["verify", "g.txt", "m.csv"]).rejected(),
        "invalid: node 2",
    );
    // The DRAW of the seed graph holding the draw at 2, claimed to move to the WIN 1 instead.
    s.write("seed.txt", SEED);
    s.write("m.csv", SEED_CSV.replace("\n0,draw,,2\n", "\n0,draw,,1\n"));
    assert_eq!(
        s.run(&["verify", "seed.txt", "m.csv"]).rejected(),
        "invalid: node 0 claims best move 1, which is not optimal"
    );
}

#[test]
fn verify_rejects_the_spurious_labelling_of_a_two_cycle_with_any_depths() {
    // On a pure 2-cycle, WIN/LOSE labels are locally consistent; only depths expose them.
    let s = Scratch::new();
    s.write("c.txt", "2 2\n0 1\n1 0\n");
    for a in 1..=6 {
        for b in 1..=6 {
            for (x, y) in [("win", "lose"), ("lose", "win")] {
                s.write(
                    "m.csv",
                    format!("node,outcome,depth\n0,{x},{a}\n1,{y},{b}\n"),
                );
                let line = s.run(&["verify", "c.txt", "m.csv"]).rejected();
                assert_starts(&line, "invalid: node ");
                s.write(
                    "b.csv",
                    format!("node,outcome,depth,best_move\n0,{x},{a},1\n1,{y},{b},0\n"),
                );
                s.run(&["verify", "c.txt", "b.csv"]).rejected();
            }
        }
    }
    s.write("ok.csv", "node,outcome,depth\n0,draw,\n1,draw,\n");
    s.run(&["verify", "c.txt", "ok.csv"]).success();
}

#[test]
fn verify_rejects_mutated_two_player_solutions() {
    let s = Scratch::new();
    s.write("p.txt", TWO_PLAYER);
    // (1, player 1) wins in 1; claimed 3. Its parent (0, player 0) is checked first.
    s.write(
        "m.csv",
        TWO_PLAYER_CSV.replace("1,1,win,1,2", "1,1,win,3,2"),
    );
    let line = s.run(&["verify", "p.txt", "m.csv"]).rejected();
    assert_starts(&line, "invalid: position 0 with player 0 to move ");
    // (0, player 1) cannot move: a LOSE, claimed a WIN.
    s.write("m.csv", TWO_PLAYER_CSV.replace("0,1,lose,0,", "0,1,win,0,"));
    let line = s.run(&["verify", "p.txt", "m.csv"]).rejected();
    assert_starts(
        &line,
        "invalid: position 0 with player 1 to move is terminal with verdict lose",
    );
}

#[test]
fn verify_two_player_messages_speak_of_positions() {
    // Positions 0..3; player 0 moves 0->1 and 0->2; player 1 moves 2->1. (0, player 0) wins at
    // once by moving to position 1; moving to position 2 is not optimal.
    let s = Scratch::new();
    s.write("p.txt", "3 2 1\n0 1\n0 2\n2 1\n");
    let csv = s
        .run(&["solve", "p.txt", "--input", "two-player", "--format", "csv"])
        .success();
    assert_eq!(
        csv,
        "position,to_move,outcome,depth,best_move\n\
         0,0,win,1,1\n0,1,lose,0,\n1,0,lose,0,\n1,1,lose,0,\n2,0,lose,0,\n2,1,win,1,1\n"
    );
    s.write("m.csv", csv.replace("0,0,win,1,1", "0,0,win,1,2"));
    let line = s.run(&["verify", "p.txt", "m.csv"]).rejected();
    // The claimed best move was position 2; the message says "best move 5" (state 2*2+1), a
    // position the 3-position game does not have.
    assert!(!line.contains("best move 5"), "{line}");
    assert_contains(&line, "position 2");
    s.write("d.csv", csv.replace("0,0,win,1,1", "0,0,draw,,1"));
    let line = s.run(&["verify", "p.txt", "d.csv"]).rejected();
    // The losing child is position 1 with player 1 to move; the message says "child 3".
    assert!(!line.contains("child 3"), "{line}");
    assert_contains(&line, "position 1");
}

#[test]
fn verify_rejects_malformed_solutions_as_bad_input() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    let bad = |s: &Scratch, csv: &str| {
        s.write("s.csv", csv);
        s.run(&["verify", "chain.txt", "s.csv"]).bad_input()
    };
    assert_eq!(
        bad(&s, "node,outcome,depth,best_move\n0,win,3,1\n1,lose,x,2\n"),
        "s.csv:3: expected depth to be a non-negative integer, found \"x\""
    );
    assert_starts(
        &bad(&s, "node,outcome\n0,win\n"),
        "s.csv:1: expected the header `node,outcome,depth,best_move`",
    );
    assert_starts(&bad(&s, ""), "s.csv:1: empty input");
    assert_eq!(
        bad(&s, "node,outcome,depth\n0,win,3\n"),
        "s.csv: no row for node 1 (3 missing in all)"
    );
    assert_eq!(
        bad(&s, "node,outcome,depth\n0,win,3\n0,win,3\n"),
        "s.csv:3: a second row for node 0"
    );
    // Rows that read but claim the impossible are the solution's fault: invalid, exit 1,
    // naming the row (issue 12).
    s.write("s.csv", "node,outcome,depth\n0,draw,3\n");
    assert_eq!(
        s.run(&["verify", "chain.txt", "s.csv"]).rejected(),
        "invalid: s.csv:2: node 0: a draw has no depth: leave it empty"
    );
    s.write("s.csv", "node,outcome,depth\n0,win,\n");
    assert_eq!(
        s.run(&["verify", "chain.txt", "s.csv"]).rejected(),
        "invalid: s.csv:2: node 0: a win needs a depth"
    );
    assert_starts(
        &bad(&s, "node,outcome,depth\n0,won,1\n"),
        "s.csv:2: expected win, lose or draw",
    );
    assert_starts(
        &bad(&s, "node,outcome,depth\n4,win,1\n"),
        "s.csv:2: node 4 is out of range",
    );
    assert_starts(
        &bad(&s, "node,outcome,depth\n0,win\n"),
        "s.csv:2: expected 3 comma-separated fields",
    );
    // A missing solution file.
    let msg = s.run(&["verify", "chain.txt", "none.csv"]).unreadable();
    assert_starts(&msg, "none.csv: cannot read");
    // A two-player solution for a one-player game.
    s.write("six.txt", "6 0\n");
    s.write("p.csv", TWO_PLAYER_CSV);
    let msg = s
        .run(&["verify", "six.txt", "p.csv", "--input", "edges"])
        .bad_input();
    assert_contains(&msg, "does not match");
    // A malformed game file is bad input too.
    s.write("g.txt", "4 3\n0 1\n");
    s.write("ok.csv", CHAIN_CSV);
    let msg = s.run(&["verify", "g.txt", "ok.csv"]).bad_input();
    assert_starts(&msg, "g.txt:2: expected 3 edges");
}

// ------------------------------------------------------------------------------------------------
// gen
// ------------------------------------------------------------------------------------------------

#[test]
fn gen_chain() {
    let s = Scratch::new();
    let out = s.run(&["gen", "chain", "--nodes", "5"]).success();
    assert_eq!(out, "5 4\n0 1\n1 2\n2 3\n3 4\n");
    let csv = s
        .run_with_stdin(&["solve", "-", "--format", "csv"], &out)
        .success();
    assert_eq!(
        csv,
        solution_csv(&["lose,4,1", "win,3,2", "lose,2,3", "win,1,4", "lose,0,"])
    );
    assert_eq!(s.run(&["gen", "chain", "--nodes", "1"]).success(), "1 0\n");
    assert_eq!(s.run(&["gen", "chain", "--nodes", "0"]).success(), "0 0\n");
    s.run(&["gen", "chain", "--nodes", "3", "-o", "c.txt"])
        .success();
    assert_eq!(s.read("c.txt"), "3 2\n0 1\n1 2\n");
}

#[test]
fn gen_random_is_deterministic_and_well_formed() {
    let s = Scratch::new();
    let gen = |seed: &str| {
        s.run(&[
            "gen", "random", "--nodes", "30", "--edges", "75", "--seed", seed,
        ])
        .success()
    };
    let a = gen("42");
    assert_eq!(a, gen("42"), "same seed, same graph");
    assert_ne!(a, gen("43"), "another seed, another graph");
    assert!(a.starts_with("30 75\n"));
    let (n, edges) = parse_edge_list(&a);
    assert_eq!(n, 30);
    assert_eq!(edges.len(), 75);
    assert!(edges.iter().all(|&(u, v)| u < 30 && v < 30));

    // The generator promises the same graph for a seed on every machine and version.
    assert_eq!(
        s.run(&["gen", "random", "--nodes", "6", "--edges", "5", "--seed", "3"])
            .success(),
        "6 5\n0 4\n3 0\n1 3\n0 5\n2 5\n"
    );

    // Its output solves, and the solution verifies.
    s.write("r.txt", &a);
    let sol = s.run(&["solve", "r.txt", "--format", "csv"]).success();
    assert_eq!(sol, reference_csv(n, &edges, false, &HashMap::new()));
    s.write("r.csv", &sol);
    s.run(&["verify", "r.txt", "r.csv"]).success();

    // -o writes the same text.
    s.run(&[
        "gen", "random", "--nodes", "30", "--edges", "75", "--seed", "42", "-o", "f.txt",
    ])
    .success();
    assert_eq!(s.read("f.txt"), a);

    // No forced terminals: every node may have moves; still well-formed.
    let b = s
        .run(&[
            "gen",
            "random",
            "--nodes",
            "10",
            "--edges",
            "20",
            "--terminal-fraction",
            "0",
        ])
        .success();
    assert_eq!(parse_edge_list(&b).1.len(), 20);
}

#[test]
fn gen_errors() {
    let s = Scratch::new();
    let msg = s
        .run(&["gen", "random", "--nodes", "0", "--edges", "3"])
        .bad_input();
    assert_contains(&msg, "no nodes");
    let msg = s
        .run(&[
            "gen",
            "random",
            "--nodes",
            "5",
            "--edges",
            "3",
            "--terminal-fraction",
            "2",
        ])
        .bad_input();
    assert_contains(&msg, "--terminal-fraction");
    let msg = s
        .run(&["gen", "chain", "--nodes", "5000000000"])
        .bad_input();
    assert_contains(&msg, "maximum");
    s.run(&["gen", "random", "--nodes", "5"]).usage_error();
    s.run(&["gen", "chain"]).usage_error();
    s.run(&["gen", "tree", "--nodes", "5"]).usage_error();
}

// ------------------------------------------------------------------------------------------------
// Input errors: exit 2, `file:line: what was expected`, no panic
// ------------------------------------------------------------------------------------------------

/// Runs `zermelo solve g.txt` on `text` and returns the error message.
fn solve_error(text: &str) -> String {
    let s = Scratch::new();
    s.write("g.txt", text);
    s.run(&["solve", "g.txt"]).bad_input()
}

#[test]
fn missing_or_unreadable_game_file() {
    let s = Scratch::new();
    let msg = s.run(&["solve", "nope.txt"]).unreadable();
    assert_starts(&msg, "nope.txt: cannot read");
    for sub in [
        &["line", "nope.txt", "--from", "0"][..],
        &["grundy", "nope.txt"],
        &["verify", "nope.txt", "nope.csv"],
    ] {
        let msg = s.run(sub).unreadable();
        assert_starts(&msg, "nope");
        assert_contains(&msg, "cannot read");
    }
    std::fs::create_dir(s.path("d")).unwrap();
    let msg = s.run(&["solve", "d"]).unreadable();
    assert_starts(&msg, "d: is a directory");
}

#[test]
fn empty_input() {
    assert_eq!(
        solve_error(""),
        "g.txt:1: empty input: expected a header line `N M`"
    );
    assert_eq!(
        solve_error("# nothing here\n\n"),
        "g.txt:2: empty input: expected a header line `N M`"
    );
    let s = Scratch::new();
    let msg = s.run(&["solve", "-"]).bad_input();
    assert_eq!(msg, "<stdin>:1: empty input: expected a header line `N M`");
}

#[test]
fn non_numeric_tokens() {
    assert_eq!(
        solve_error("3 2\n0 1\n1 x\n"),
        "g.txt:3: expected an edge `u v`, found \"x\" (not a non-negative integer)"
    );
    assert_eq!(
        solve_error("a b\n"),
        "g.txt:1: expected a header line `N M` (node and edge counts), found \"a\" (not a non-negative integer)"
    );
    assert_starts(
        &solve_error("2 1\n0 -1\n"),
        "g.txt:2: expected an edge `u v`, found \"-1\"",
    );
    assert_starts(
        &solve_error("2 1\n0 1 1\n"),
        "g.txt:2: expected an edge `u v`, found an extra token \"1\"",
    );
    assert_starts(
        &solve_error("2 1\n0\n"),
        "g.txt:2: expected an edge `u v`, found only 1 number",
    );
    assert_eq!(
        solve_error("99999999999999999999 1\n"),
        "g.txt:1: number \"99999999999999999999\" is too large"
    );
    // Bytes that are not UTF-8.
    let s = Scratch::new();
    s.write("b.txt", b"2 1\n0 \xff\n");
    let msg = s.run(&["solve", "b.txt"]).bad_input();
    assert_starts(&msg, "b.txt:2: expected an edge `u v`, found ");
    let s = Scratch::new();
    s.write("g.txt", "5000000000 0\n");
    assert_contains(&s.run(&["solve", "g.txt"]).too_big(), "supported maximum");
}

#[test]
fn node_id_out_of_range() {
    assert_eq!(
        solve_error("3 2\n0 1\n1 3\n"),
        "g.txt:3: node 3 is out of range: the graph has 3 nodes (ids 0..3)"
    );
    assert_eq!(
        solve_error("2 1\n\n7 0\n"),
        "g.txt:3: node 7 is out of range: the graph has 2 nodes (ids 0..2)"
    );
}

#[test]
fn edge_count_must_match_the_header() {
    assert_eq!(
        solve_error("3 3\n0 1\n1 2\n"),
        "g.txt:3: expected 3 edges (header, line 1), but the input ends after 2"
    );
    assert_eq!(
        solve_error("3 1\n0 1\n1 2\n"),
        "g.txt:3: more edges than the 1 declared in the header (line 1)"
    );
    assert_eq!(
        solve_error("# c\n3 0\n0 1\n"),
        "g.txt:3: more edges than the 0 declared in the header (line 2)"
    );
}

#[test]
fn malformed_verdicts() {
    let s = Scratch::new();
    s.write("chain.txt", CHAIN);
    let bad = |text: &str| {
        s.write("v.txt", text);
        s.run(&["solve", "chain.txt", "--verdicts", "v.txt"])
            .bad_input()
    };
    assert_eq!(
        bad("0 win\n1 maybe\n"),
        "v.txt:2: expected an outcome win, lose or draw, found \"maybe\""
    );
    assert_eq!(
        bad("# goals\n7 win\n"),
        "v.txt:2: node 7 is out of range: the game has 4 nodes (ids 0..4)"
    );
    assert_eq!(
        bad("1 win\n2 lose\n1 lose\n"),
        "v.txt:3: verdict lose contradicts verdict win for the same node on line 1"
    );
    assert_eq!(
        bad("x win\n"),
        "v.txt:1: expected a node id (a non-negative integer), found \"x\""
    );
    assert_eq!(
        bad("1\n"),
        "v.txt:1: expected a verdict `node outcome`, found 1 field(s)"
    );
    assert_eq!(
        bad("1 win extra\n"),
        "v.txt:1: expected a verdict `node outcome`, found 3 field(s)"
    );
    // Repeating the same verdict is fine.
    s.write("same.txt", "1 win\n1 win\n");
    s.run(&["solve", "chain.txt", "--verdicts", "same.txt"])
        .success();
    // A missing verdicts file.
    let msg = s
        .run(&["solve", "chain.txt", "--verdicts", "none.txt"])
        .unreadable();
    assert_starts(&msg, "none.txt: cannot read");
}

#[test]
fn malformed_json() {
    let s = Scratch::new();
    let bad = |text: &str| {
        s.write("g.json", text);
        s.run(&["solve", "g.json"]).bad_input()
    };
    assert_eq!(
        bad("{\"nodes\": 4, \"edges\": [[0,1],\n"),
        "g.json:2: invalid JSON: EOF while parsing a value (column 0)"
    );
    assert_starts(&bad(""), "g.json:1: invalid JSON");
    assert_starts(
        &bad("{\"nodes\": 2,\n \"edges\": [[0]]}"),
        "g.json:2: invalid JSON",
    );
    assert_contains(&bad("{\"nodes\": 2}"), "missing field `edges`");
    assert_contains(
        &bad("{\"nodes\": 2, \"edges\": [], \"mesere\": true}"),
        "unknown field `mesere`",
    );
    assert_eq!(
        bad("{\"nodes\": 2, \"edges\": [[0, 1], [1, 2]]}"),
        "g.json: edges[1] = [1, 2]: node 2 is out of range: the graph has 2 nodes (ids 0..2)"
    );
    assert_starts(
        &bad("{\"nodes\": 2, \"edges\": [], \"verdicts\": [[0, \"tie\"]]}"),
        "g.json: verdicts[0]: expected win, lose or draw",
    );
    assert_contains(
        &bad("{\"nodes\": 2, \"edges\": [], \"verdicts\": [[5, \"win\"]]}"),
        "node 5",
    );
    assert_contains(
        &bad("{\"nodes\": 2, \"edges\": [], \"verdicts\": [[1, \"win\"], [1, \"lose\"]]}"),
        "node 1 is given two different verdicts",
    );
    assert_starts(&bad("[1, 2]"), "g.json:1: invalid JSON");
    // Forced JSON on an edge list, and JSON on standard input.
    s.write("g.txt", CHAIN);
    let msg = s.run(&["solve", "g.txt", "--input", "json"]).bad_input();
    assert_starts(&msg, "g.txt:1: invalid JSON");
    let msg = s
        .run_with_stdin(&["solve", "-"], "{\"nodes\": 1,")
        .bad_input();
    assert_starts(&msg, "<stdin>:1: invalid JSON");
}

#[test]
fn usage_errors_exit_2() {
    let s = Scratch::new();
    s.write("g.txt", SEED);
    // No subcommand: the usage is printed on standard error.
    let run = s.run(&[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert_eq!(run.stdout, "");
    assert_contains(&run.stderr, "Usage: zermelo [OPTIONS] <COMMAND>");
    s.run(&["bogus"]).usage_error();
    s.run(&["solve"]).usage_error();
    s.run(&["solve", "g.txt", "--bogus"]).usage_error();
    let msg = s.run(&["solve", "g.txt", "--format", "xml"]).usage_error();
    assert_contains(&msg, "xml");
    s.run(&["solve", "g.txt", "--algorithm", "magic"])
        .usage_error();
    s.run(&["solve", "g.txt", "--input", "yaml"]).usage_error();
    s.run(&["verify", "g.txt"]).usage_error();
    s.run(&["gen", "random", "--nodes", "x", "--edges", "1"])
        .usage_error();
}

#[test]
fn help_and_version_succeed() {
    let s = Scratch::new();
    let help = s.run(&["--help"]).success();
    for sub in ["solve", "line", "grundy", "verify", "gen"] {
        assert_contains(&help, sub);
    }
    let version = s.run(&["--version"]).success();
    assert_starts(&version, "zermelo ");
    s.run(&["solve", "--help"]).success();
}

// ------------------------------------------------------------------------------------------------
// Regressions from the first review
// ------------------------------------------------------------------------------------------------

#[test]
fn gen_refuses_when_every_node_is_terminal() {
    let s = Scratch::new();
    let msg = s
        .run(&[
            "gen",
            "random",
            "--nodes",
            "3",
            "--edges",
            "3",
            "--terminal-fraction",
            "1",
        ])
        .bad_input();
    assert_contains(&msg, "every node terminal");
    // No edges asked for: an all-terminal graph is fine.
    let out = s
        .run(&[
            "gen",
            "random",
            "--nodes",
            "3",
            "--edges",
            "0",
            "--terminal-fraction",
            "1",
        ])
        .success();
    assert_eq!(out, "3 0\n");
}

#[test]
fn output_to_a_directory_is_bad_input() {
    let s = Scratch::new();
    s.write("g.txt", CHAIN);
    std::fs::create_dir(s.path("outdir")).unwrap();
    let msg = s.run(&["solve", "g.txt", "-o", "outdir"]).bad_input();
    assert_contains(&msg, "outdir: is a directory");
}

#[test]
fn out_of_range_starts_name_the_flag_and_file() {
    let s = Scratch::new();
    s.write("g.txt", CHAIN);
    let msg = s.run(&["line", "g.txt", "--from", "9"]).bad_input();
    assert_eq!(msg, "--from 9: node 9 is out of range: g.txt has 4 nodes");
    let msg = s.run(&["grundy", "g.txt", "--sum", "1,7"]).bad_input();
    assert_eq!(msg, "--sum 7: node 7 is out of range: g.txt has 4 nodes");
}

#[test]
fn grundy_sum_csv_carries_the_whole_analysis() {
    let s = Scratch::new();
    s.write("sub.txt", subtraction_game());
    let out = s
        .run(&["grundy", "sub.txt", "--sum", "3,5,7", "--format", "csv"])
        .success();
    assert_eq!(
        out,
        "component,node,grundy,nim_sum,outcome,move_to\n\
         0,3,0,3,win,\n1,5,2,3,win,4\n2,7,1,3,win,\n"
    );
}

#[test]
fn conflicting_verdicts_name_both_sources() {
    let s = Scratch::new();
    s.write(
        "g.json",
        r#"{"nodes": 3, "edges": [[0, 1]], "verdicts": [[2, "win"]]}"#,
    );
    s.write("v.txt", "2 lose\n");
    let msg = s
        .run(&["solve", "g.json", "--verdicts", "v.txt"])
        .bad_input();
    assert_contains(&msg, "g.json and v.txt");
    assert_contains(&msg, "node 2 is given two different verdicts");
}

#[test]
fn table_columns_line_up() {
    let s = Scratch::new();
    s.write("p.txt", "3 2 1\n0 1\n0 2\n2 1\n");
    let out = s
        .run(&["solve", "p.txt", "--input", "two-player"])
        .success();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "position  to_move  outcome  depth  best_move");
    assert_eq!(lines[1], "       0        0  win          1          1");
    assert_eq!(lines[2], "       0        1  lose         0");
}
