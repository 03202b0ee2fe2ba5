//! End-to-end tests of `zermelo cgt ...` and `zermelo game hackenbush/domineering` values: JSON
//! keys, outcome classes checked against `zermelo solve --input two-player` on the same files
//! (each player moving first), and errors (cycles, bad positions, malformed values) exiting 2
//! with a message that says what and where.

use assert_cmd::Command;
use serde_json::{json, Value};
use tempfile::TempDir;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(dir: &TempDir, args: &[&str]) -> Run {
    let out = Command::cargo_bin("zermelo")
        .expect("the zermelo binary")
        .current_dir(dir.path())
        .args(args)
        .output()
        .expect("run zermelo");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn ok_json(dir: &TempDir, args: &[&str]) -> Value {
    let r = run(dir, args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", r.stdout))
}

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random acyclic two-player file (moves go to lower positions).
fn random_file(rng: &mut Rng, n: u64) -> String {
    let mut moves = [Vec::new(), Vec::new()];
    for u in 1..n {
        for side in &mut moves {
            for _ in 0..rng.below(3) {
                side.push(format!("{u} {}", rng.below(u)));
            }
        }
    }
    let mut text = format!("{n} {} {}\n", moves[0].len(), moves[1].len());
    for m in moves.iter().flatten() {
        text.push_str(m);
        text.push('\n');
    }
    text
}

#[test]
fn value_outcomes_match_solve_with_each_player_first() {
    let dir = TempDir::new().unwrap();
    let mut rng = Rng(20);
    for case in 0..12 {
        let n = 3 + rng.below(6);
        std::fs::write(dir.path().join("g.txt"), random_file(&mut rng, n)).unwrap();
        let solved = run(
            &dir,
            &["solve", "g.txt", "--input", "two-player", "--format", "csv"],
        );
        assert_eq!(solved.code, 0, "{}", solved.stderr);
        let mut wins = std::collections::HashMap::new();
        for line in solved.stdout.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            wins.insert((f[0].to_string(), f[1].to_string()), f[2] == "win");
        }
        for p in 0..n {
            let ps = p.to_string();
            let v = ok_json(
                &dir,
                &["cgt", "value", "g.txt", "--from", &ps, "--format", "json"],
            );
            for key in [
                "value",
                "outcome",
                "mean",
                "temperature",
                "left",
                "right",
                "from",
            ] {
                assert!(v.get(key).is_some(), "{key} missing in {v}");
            }
            let lf = wins[&(ps.clone(), "0".to_string())];
            let rf = wins[&(ps.clone(), "1".to_string())];
            let want = match (lf, rf) {
                (true, true) => "N",
                (true, false) => "L",
                (false, true) => "R",
                (false, false) => "P",
            };
            assert_eq!(v["outcome"], want, "case {case} position {p}: {v}");
            // G + G's negative is not expressible in the file, but G + G printed by `sum`
            // must be the value `show` gives for "G + G".
            let twice = ok_json(
                &dir,
                &[
                    "cgt",
                    "sum",
                    "g.txt",
                    "--at",
                    &format!("{p},{p}"),
                    "--format",
                    "json",
                ],
            );
            let expr = format!(
                "{} + {}",
                v["value"].as_str().unwrap(),
                v["value"].as_str().unwrap()
            );
            let shown = ok_json(&dir, &["cgt", "show", &expr, "--format", "json"]);
            assert_eq!(twice["value"], shown["value"], "case {case}: {expr}");
        }
    }
}

#[test]
fn sum_of_positions_and_the_table() {
    let dir = TempDir::new().unwrap();
    // 1 = {0|}, 2 = {0|1} = 1/2, 3 = {1/2|0}.
    std::fs::write(dir.path().join("p.txt"), "4 3 2\n1 0\n2 0\n3 2\n2 1\n3 0\n").unwrap();
    let v = ok_json(
        &dir,
        &["cgt", "sum", "p.txt", "--at", "1,2", "--format", "json"],
    );
    assert_eq!(v["value"], "3/2");
    assert_eq!(v["outcome"], "L");
    assert_eq!(v["components"][1]["value"], "1/2");
    let v = ok_json(
        &dir,
        &["cgt", "value", "p.txt", "--from", "3", "--format", "json"],
    );
    assert_eq!(v["value"], "{1/2|0}");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["mean"], "1/4");
    let r = run(&dir, &["cgt", "value", "p.txt", "--from", "3"]);
    assert!(r.stdout.contains("value {1/2|0}"), "{}", r.stdout);
    assert!(r.stdout.contains("outcome N (the first player wins)"));
}

#[test]
fn errors_exit_2_saying_what_and_where() {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("c.txt"), "3 1 2\n0 1\n1 2\n2 0\n").unwrap();
    let r = run(&dir, &["cgt", "sum", "c.txt", "--at", "0,7"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("position 7 is out of range"),
        "{}",
        r.stderr
    );
    std::fs::write(dir.path().join("bad.txt"), "3 1 0\n0 x\n").unwrap();
    let r = run(&dir, &["cgt", "value", "bad.txt", "--from", "0"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("bad.txt:2:"), "{}", r.stderr);
    let r = run(&dir, &["cgt", "show", "{1|2|3}"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("column"), "{}", r.stderr);
    // A dozen characters asking for minutes of work: refused past `--max-work`.
    let r = run(
        &dir,
        &["cgt", "show", "2*30+-30*30", "--max-work", "100000"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "more than 100000 sums and comparisons of games to evaluate; raise the limit with --max-work"
        ),
        "{}",
        r.stderr
    );
    let r = run(&dir, &["cgt", "show", "2*30+-30*30"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("value {32|-28}"), "{}", r.stdout);
}

#[test]
fn partizan_games_print_values_and_outcome_classes() {
    let dir = TempDir::new().unwrap();
    // 2 rows x 3 columns: {2|-1/2} (worked in zermelo_games::domineering's tests).
    let v = ok_json(
        &dir,
        &["game", "domineering", ".../...", "--format", "json"],
    );
    assert_eq!(v["value"], "{2|-1/2}");
    assert_eq!(v["outcome"], "N");
    for key in ["game", "depth", "move"] {
        assert!(v.get(key).is_some(), "{key} missing in {v}");
    }
    let v = ok_json(
        &dir,
        &[
            "game",
            "domineering",
            "--rectangles",
            "2",
            "--format",
            "json",
        ],
    );
    let values: Vec<&str> = v["rectangles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["0", "-1", "1", "+-1"]);
    // A blue-red stalk blue, red, blue: 1 - 1/2 + 1/4 = 3/4 (sign expansion).
    let v = ok_json(
        &dir,
        &[
            "game",
            "hackenbush",
            "--parents",
            "-,0,1,2",
            "--colours",
            "-brb",
            "--format",
            "json",
        ],
    );
    assert_eq!(v["value"], "3/4");
    assert_eq!(v["outcome"], "L");
    let v = ok_json(
        &dir,
        &[
            "game",
            "hackenbush",
            "--edges",
            "0-1:g,1-2:g",
            "--format",
            "json",
        ],
    );
    assert_eq!(v["value"], "*2");
    assert_eq!(v["outcome"], "N");
    // Toads and frogs: T.F = * (worked in zermelo_games::toads_frogs).
    let v = ok_json(&dir, &["game", "toads-frogs", "T.F", "--format", "json"]);
    assert_eq!(v["value"], "*");
    assert_eq!(v["outcome"], "N");
    let r = run(&dir, &["game", "toads-frogs", "TXF"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("square 2"), "{}", r.stderr);
    // Bad boards and pictures exit 2 saying where.
    let r = run(&dir, &["game", "domineering", "../.q"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("row 2, column 2"), "{}", r.stderr);
    let r = run(&dir, &["game", "hackenbush", "--edges", "0-1:b,1-x:r"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("edge 2"), "{}", r.stderr);
    // A star of 65 green edges is 65 parts of * (split at the ground): *.
    let star: Vec<String> = (0..65).map(|i| format!("0-{}:g", i + 1)).collect();
    let v = ok_json(
        &dir,
        &[
            "game",
            "hackenbush",
            "--edges",
            &star.join(","),
            "--format",
            "json",
        ],
    );
    assert_eq!(
        (v["value"].as_str(), v["parts"].as_u64()),
        (Some("*"), Some(65))
    );
    // One part of 65 edges that needs the search (green on blue) is past its limit: exit 3.
    let stalk: Vec<String> = (0..65)
        .map(|i| format!("{i}-{}:{}", i + 1, if i % 2 == 0 { "b" } else { "g" }))
        .collect();
    let r = run(&dir, &["game", "hackenbush", "--edges", &stalk.join(",")]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("65 edges"), "{}", r.stderr);
}

/// Issue 20: a game whose canonical forms would outgrow `--max-memory` stops with exit 3 and
/// says how to raise the limit, for the built-in games and for `cgt value`; under a larger
/// limit the same game is valued.
#[test]
fn games_past_the_memory_limit_exit_3() {
    let dir = TempDir::new().unwrap();
    let board = "...../...../...../.....";
    let r = run(
        &dir,
        &["--max-memory", "300K", "game", "domineering", board],
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("memory limit of 0.3 MiB") && r.stderr.contains("--max-memory"),
        "{}",
        r.stderr
    );
    let r = run(
        &dir,
        &[
            "--max-memory",
            "300K",
            "game",
            "toads-frogs",
            "TTTTT____FFFFF",
        ],
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    let r = run(&dir, &["--max-memory", "1G", "game", "domineering", board]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("value 1"), "{}", r.stdout);
    // Loopy sides: the order of all pairs of TTT...FFF's 1,680 positions (about 79 MB) is
    // checked against the limit before it is allocated.
    let strip = ["game", "toads-frogs", "--backsliding", "TTT...FFF"];
    let r = run(&dir, &[&["--max-memory", "20M"][..], &strip].concat());
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("memory limit of 20.0 MiB"),
        "{}",
        r.stderr
    );
    let r = run(&dir, &[&["--max-memory", "1G"][..], &strip].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("value dud"), "{}", r.stdout);
}

/// `cgt thermograph`: the lines, the JSON walls (exact points), the picture, a file position,
/// and its errors; `cgt show --atomic-weight`.
/// Issue 44: the help and the errors say what the commands do now that loopy values are
/// computed: no "short partizan games" only, no "canonical value" of a loopy position, no "at
/// most 64 edges" for Hackenbush pictures of any size; a thermograph of a loopy position says
/// thermographs are of short games and names the cycle below it.
#[test]
fn help_and_errors_say_what_the_commands_do() {
    let dir = TempDir::new().unwrap();
    let help = |args: &[&str]| {
        let r = run(&dir, args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        r.stdout
    };
    let top = help(&["--help"]);
    let cgt = help(&["cgt", "--help"]);
    let hackenbush = help(&["game", "hackenbush", "--help"]);
    for (text, stale) in [
        (&top, "short partizan games"),
        (&cgt, "canonical value of a position"),
        (&hackenbush, "at most 64 edges"),
    ] {
        assert!(!text.contains(stale), "{stale}: {text}");
    }
    assert!(
        top.contains("loopy") && cgt.contains("loopy"),
        "{top}\n{cgt}"
    );
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/partizan.txt");
    let r = run(&dir, &["cgt", "thermograph", example, "--from", "0"]);
    assert_eq!(r.code, 2);
    for part in [
        "position 0 is loopy",
        "(1 -> 1)",
        "thermographs are of short games",
        "zermelo cgt value",
    ] {
        assert!(r.stderr.contains(part), "{part}: {}", r.stderr);
    }
    assert!(!r.stderr.contains("canonical values exist"), "{}", r.stderr);
}

#[test]
fn thermographs_and_atomic_weights() {
    let dir = TempDir::new().unwrap();
    let r = run(&dir, &["cgt", "thermograph", "{2||1|0}"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[..3],
        ["value {2||1|0}", "mean 5/4", "temperature 3/4"]
    );
    assert!(
        lines[3].starts_with("left wall (t, value): (-1, 3) (3/4, 5/4)"),
        "{}",
        lines[3]
    );
    let v = ok_json(
        &dir,
        &["cgt", "thermograph", "{2||1|0}", "--format", "json"],
    );
    assert_eq!(v["mean"], "5/4");
    assert_eq!(v["temperature"], "3/4");
    assert_eq!(
        v["left_wall"],
        serde_json::json!([["-1", "3"], ["3/4", "5/4"]])
    );
    assert_eq!(
        v["right_wall"],
        serde_json::json!([["-1", "1"], ["1/2", "1"], ["3/4", "5/4"]])
    );
    let r = run(&dir, &["cgt", "thermograph", "+-1", "--format", "svg"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("<svg ") && r.stdout.trim_end().ends_with("</svg>"));
    assert!(r.stdout.contains("mean 0, temperature 1"), "{}", r.stdout);
    // Position 3 of this file is 3/4 (the docs' example): temperature -1/4.
    std::fs::write(dir.path().join("g.txt"), "4 3 2\n3 1\n1 0\n2 0\n3 2\n1 2\n").unwrap();
    let v = ok_json(
        &dir,
        &[
            "cgt",
            "thermograph",
            "g.txt",
            "--from",
            "3",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        (v["value"].as_str(), v["mean"].as_str()),
        (Some("3/4"), Some("3/4"))
    );
    assert_eq!(v["temperature"], "-1/4");
    // Any value now has a mean and a temperature in `cgt show`.
    let v = ok_json(
        &dir,
        &["cgt", "show", "{{3|2}|{-1|-3}}", "--format", "json"],
    );
    assert_eq!(
        (v["mean"].as_str(), v["temperature"].as_str()),
        (Some("1/4"), Some("9/4"))
    );
    let v = ok_json(
        &dir,
        &["cgt", "show", "^^*", "--atomic-weight", "--format", "json"],
    );
    assert_eq!(v["atomic_weight"], "2");
    for (args, want) in [
        (&["cgt", "thermograph", "{1|"][..], "column 4"),
        (
            &["cgt", "thermograph", "g.txt", "--from", "9"],
            "out of range",
        ),
        (&["cgt", "show", "*", "--format", "svg"], "cgt thermograph"),
        (&["cgt", "show", "1/2", "--atomic-weight"], "not all-small"),
    ] {
        let r = run(&dir, args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{args:?}: {}", r.stderr);
    }
}

/// Loopy positions (issue 44): `cgt value` and `cgt sum` on cyclic files give each player's
/// result first (win, loss, draw) as `zermelo solve --input two-player` does, the outcome
/// letter only without draws, and the value of a stopper in its simplest form (`null`
/// otherwise); `cgt show` reads the loopy notation and comparisons.
#[test]
fn loopy_positions_and_notation() {
    let dir = TempDir::new().unwrap();
    // 0 -L-> 1 -R-> 2 -R-> 0: a cycle, but no alternating one: a stopper.
    std::fs::write(dir.path().join("c.txt"), "3 1 2\n0 1\n1 2\n2 0\n").unwrap();
    let v = ok_json(
        &dir,
        &["cgt", "value", "c.txt", "--from", "0", "--format", "json"],
    );
    assert_eq!(v["value"], "0");
    assert_eq!(
        (v["left_first"].as_str(), v["right_first"].as_str()),
        (Some("loss"), Some("win"))
    );
    assert_eq!(v["outcome"], "P");
    // Seed 004's partizan example: Left walks 0 -> 1 -> 2, Right 2 -> 1 and passes at 1.
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/partizan.txt");
    let v = ok_json(
        &dir,
        &["cgt", "value", example, "--from", "0", "--format", "json"],
    );
    // Not a stopper: its sides (Left first: T = 0 <= 0 and S = 1 not <= 0, a draw; Right
    // first: T = 0 >= 0, a win).
    assert_eq!(
        (
            v["value"].as_str(),
            v["onside"].as_str(),
            v["offside"].as_str()
        ),
        (Some("1 & 0"), Some("1"), Some("0"))
    );
    assert_eq!(v["outcome"], serde_json::Value::Null);
    assert_eq!(
        (v["left_first"].as_str(), v["right_first"].as_str()),
        (Some("draw"), Some("win"))
    );
    let solved = run(
        &dir,
        &["solve", "--input", "two-player", example, "--format", "csv"],
    );
    assert!(solved.stdout.contains("0,0,draw"), "{}", solved.stdout);
    let v = ok_json(
        &dir,
        &["cgt", "sum", "c.txt", "--at", "0,2", "--format", "json"],
    );
    assert!(
        v["left_first"].is_string() && v["components"][1]["value"].is_string(),
        "{v}"
    );
    for (text, value) in [
        ("on + *", "on"),
        ("{pass|3/2}", "3/2under"),
        ("a:{0||0|a}", "over"),
    ] {
        let v = ok_json(&dir, &["cgt", "show", text, "--format", "json"]);
        assert_eq!(v["value"], value, "{text}");
    }
    let v = ok_json(&dir, &["cgt", "show", "over >= 0", "--format", "json"]);
    assert_eq!(v["holds"], true);
    let r = run(&dir, &["cgt", "show", "over > 1/64"]);
    assert_eq!((r.code, r.stdout.trim()), (0, "over > 1/64: false"));
    // on + off is dud = on & off (CGSuite prints it `dud`); Bach's carousel has no stopper
    // sides: no value, its outcome and the reason, exit 2. CGSuite's SidedValueTestCase.scala
    // prints its sides, which are not stoppers, as `a{1|1,{1*|a||*}||0} & a{0,{1|||1*|a||*}|0}`
    // with outcome class N, the outcome checked here.
    let v = ok_json(&dir, &["cgt", "show", "on + off", "--format", "json"]);
    assert_eq!(
        (
            v["value"].as_str(),
            v["onside"].as_str(),
            v["offside"].as_str()
        ),
        (Some("dud"), Some("on"), Some("off"))
    );
    assert_eq!(v["left_first"], "draw");
    let carousel = "a:{0,{1|1,{*,{1+*|1+*,a}|*}}|0}";
    let r = run(&dir, &["cgt", "show", carousel, "--format", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(v["value"].is_null() && v["outcome"] == "N", "{v}");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("not found as stoppers"),
        "{v}"
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no value: not a stopper"), "{}", r.stderr);
    for (text, want) in [
        ("a:{0|b}", "column 6: unknown name `b`"),
        ("{pass|", "column 7"),
        (
            "0 & 1",
            "column 3: not the sides of a game: the offside 1 is not <= the onside 0",
        ),
        (
            "dud & 0",
            "column 1: the onside of `S & T` must be a stopper",
        ),
    ] {
        let r = run(&dir, &["cgt", "show", text]);
        assert_eq!(r.code, 2, "{text}");
        assert!(r.stderr.contains(want), "{text}: {}", r.stderr);
    }
}

/// `pass` is the game at the nearest bars, as in CGSuite (`{0||0|0,pass}` is uponth, printed
/// `^<on>`, not `^`), stoppers print as CGSuite prints them (`^[on]`, `Tiny(on)`, `+-(5over)`)
/// and read back, and parentheses group parts of short and loopy expressions; an unbalanced
/// one is the error's column (exit 2).
#[test]
fn show_binds_pass_as_cgsuite_and_reads_parentheses() {
    let dir = TempDir::new().unwrap();
    for (text, value) in [
        ("{0||0|0,pass}", "^<on>"),
        ("{0|{0||0|0,pass}||-{0||0|0,pass}}", "{0|^<on>||v<on>}"),
        ("upon", "^[on]"),
        ("{-1/4+*|pass}", "-1/4v[on]"),
        ("{0|||0||0|off}", "{0|Tiny(on)}"),
        ("+-{5|pass}", "+-(5over)"),
        ("(on + *) + ^", "on"),
        ("-(over + 1)", "-1under"),
        ("-({1|*})", "{*|-1}"),
        ("(^ + *) + ^", "^^*"),
    ] {
        let v = ok_json(&dir, &["cgt", "show", text, "--format", "json"]);
        assert_eq!(v["value"], value, "{text}");
        let again = ok_json(&dir, &["cgt", "show", value, "--format", "json"]);
        assert_eq!(again["value"], value, "{text}");
    }
    for (text, want) in [
        ("(on + *", "column 1: this `(` is not closed"),
        ("(1 + *", "column 1: this `(` is not closed"),
        ("{0|(1}", "column 4: this `(` is not closed"),
        ("on + *)", "column 7: this `)` closes no `(`"),
        ("{0|pass+1}", "column 4: `pass` is an option by itself"),
    ] {
        let r = run(&dir, &["cgt", "show", text]);
        assert_eq!(r.code, 2, "{text}");
        assert!(r.stderr.contains(want), "{text}: {}", r.stderr);
    }
}

/// `game toads-frogs --backsliding` (*Winning Ways* ch. 11): a lone toad is `on`, CGSuite's
/// `ttt..fff` draws whoever starts and is not a stopper; `--all N` counts every strip.
/// A two-player file: positions 0-2 as examples/partizan.txt (`1 & 0`), or (`stopper`) position
/// 0 = `{-1|off}`; either padded by a chain of 20 positions that adds nothing to the value.
fn padded_file(stopper: bool) -> String {
    let chain = 3..23u32;
    type Moves = Vec<(u32, u32)>;
    let (mut left, mut right): (Moves, Moves) = if stopper {
        // 0: a Left move to 1 = {| 2} = -1 (2 is 0), a Right move to 3 -> 4 -> ... -> 22 -> 22,
        // Right's moves: off.
        (vec![(0, 1)], vec![(0, 3), (1, 2)])
    } else {
        // A Right move from 0 to 3 -> 4 -> ... -> 22 -> 22 Left's moves (`on`): dominated.
        (vec![(0, 1), (1, 2)], vec![(2, 1), (1, 1), (0, 3)])
    };
    let walk = chain.clone().map(|v| (v, (v + 1).min(22)));
    if stopper {
        right.extend(walk);
    } else {
        left.extend(walk);
    }
    let mut text = format!("23 {} {}\n", left.len(), right.len());
    for (a, b) in left.iter().chain(&right) {
        text.push_str(&format!("{a} {b}\n"));
    }
    text
}

/// Issue 44: `cgt sum` of loopy positions values each component alone and adds the values as
/// `cgt show` adds them (three copies of `{-1|off}`, 23 positions each: the product's 12,167
/// positions were more than a stopper is simplified for, "not simplified"; three copies of
/// `1 & 0`: more than sides are looked for, `null`); the outcome by retrograde analysis of the
/// product where it fits (the sides' outcome agrees), else from the sides (five copies: 6.4
/// million positions, exit 3 before).
#[test]
fn loopy_sums_add_the_components_values() {
    let dir = TempDir::new().unwrap();
    for (file, stopper, want) in [("stop.txt", true, "off"), ("sided.txt", false, "3 & 0")] {
        std::fs::write(dir.path().join(file), padded_file(stopper)).unwrap();
        let one = ok_json(
            &dir,
            &["cgt", "value", file, "--from", "0", "--format", "json"],
        );
        let v = ok_json(
            &dir,
            &["cgt", "sum", file, "--at", "0,0,0", "--format", "json"],
        );
        assert_eq!(
            (v["value"].as_str(), &v["positions"]),
            (Some(want), &json!(12167))
        );
        let part = one["value"].as_str().unwrap();
        let expr = format!("{part} + {part} + {part}");
        let shown = ok_json(&dir, &["cgt", "show", &expr, "--format", "json"]);
        for key in ["value", "outcome", "left_first", "right_first"] {
            assert_eq!(v[key], shown[key], "{file} {key}: {v} vs {shown}");
        }
    }
    let v = ok_json(
        &dir,
        &[
            "cgt",
            "sum",
            "sided.txt",
            "--at",
            "0,0,0,0,0",
            "--format",
            "json",
        ],
    );
    assert_eq!(v["value"], "5 & 0");
    assert_eq!(
        (&v["left_first"], &v["right_first"]),
        (&json!("draw"), &json!("win"))
    );
    assert!(v["positions"].is_null(), "{v}");
    // A product graph (279,841 positions) past --max-memory is not built: the same outcome,
    // from the sides.
    let at = [
        "cgt",
        "sum",
        "sided.txt",
        "--at",
        "0,0,0,0",
        "--format",
        "json",
    ];
    let built = ok_json(&dir, &at);
    let limited = ok_json(&dir, &[&["--max-memory", "50M"][..], &at[..]].concat());
    assert_eq!(built["positions"], 279841);
    assert!(limited["positions"].is_null(), "{limited}");
    for key in ["value", "left_first", "right_first"] {
        assert_eq!(built[key], limited[key], "{key}");
    }
    // A game past the positions whose sides are looked for (a chain of 5,000 `on` positions
    // padding `1 & 0`): `cgt value` and `cgt sum` print the outcome and the reason, exit 2.
    let mut text = String::from("5003 5002 3\n0 1\n1 2\n");
    for v in 3..5003 {
        text.push_str(&format!("{v} {}\n", (v + 1).min(5002)));
    }
    text.push_str("2 1\n1 1\n0 3\n");
    std::fs::write(dir.path().join("big.txt"), text).unwrap();
    for args in [
        &["cgt", "value", "big.txt", "--from", "0", "--format", "json"][..],
        &["cgt", "sum", "big.txt", "--at", "0,1", "--format", "json"][..],
    ] {
        let r = run(&dir, args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert!(
            v["value"].is_null() && v["left_first"] == "draw",
            "{args:?}: {v}"
        );
        assert!(
            v["reason"]
                .as_str()
                .unwrap()
                .contains("up to 4096 positions"),
            "{args:?}: {v}"
        );
        assert!(r.stderr.contains("no value"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn backsliding_toads_and_frogs() {
    let dir = TempDir::new().unwrap();
    let v = ok_json(
        &dir,
        &[
            "game",
            "toads-frogs",
            "--backsliding",
            "T.",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        (v["value"].as_str(), v["outcome"].as_str()),
        (Some("on"), Some("L"))
    );
    let v = ok_json(
        &dir,
        &[
            "game",
            "toads-frogs",
            "--backsliding",
            "TTT..FFF",
            "--format",
            "json",
        ],
    );
    // 560 positions, none a stopper: CGSuite's sides `{on||0|-1/2} & {1/2|0||off}`.
    assert_eq!(
        v["value"].as_str(),
        Some("{on||0|-1/2} & {1/2|0||off}"),
        "{v}"
    );
    assert_eq!(
        (v["onside"].as_str(), v["offside"].as_str()),
        (Some("{on||0|-1/2}"), Some("{1/2|0||off}"))
    );
    assert!(v["outcome"].is_null(), "{v}");
    assert_eq!(
        (v["left_first"].as_str(), v["right_first"].as_str()),
        (Some("draw"), Some("draw"))
    );
    // Past the positions whose sides are looked for: the outcome, no value, the reason (the
    // limit named), exit 2 (issue 44: it was exit 0).
    let r = run(
        &dir,
        &["game", "toads-frogs", "--backsliding", "TTTT....FFFF"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("draw"), "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "strip TTTT....FFFF: no value: not a stopper, and its sides are looked for up to \
             4096 positions (this game has 34650)"
        ),
        "{}",
        r.stderr
    );
    let r = run(
        &dir,
        &[
            "game",
            "toads-frogs",
            "--backsliding",
            "TTTT....FFFF",
            "--format",
            "json",
        ],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(r.code, 2);
    assert!(v["value"].is_null() && v["left_first"] == "draw", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("up to 4096"), "{v}");
    let v = ok_json(
        &dir,
        &[
            "game",
            "toads-frogs",
            "--backsliding",
            "--all",
            "6",
            "--format",
            "json",
        ],
    );
    let strips: Vec<u64> = v["lengths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["strips"].as_u64().unwrap())
        .collect();
    assert_eq!(strips, [3, 9, 27, 81, 243, 729]);
    // Every strip valued: 20 distinct values of 6 squares, none missing, `on` and `off` the
    // most frequent (254 strips each).
    let six = &v["lengths"][5];
    assert_eq!(
        (six["values"].as_u64(), six["unvalued"].as_u64()),
        (Some(20), Some(0))
    );
    assert_eq!(six["most_frequent"][0]["strips"], 254, "{six}");
    // --values: each strip and its value, a JSON object a line, then the summary.
    let r = run(
        &dir,
        &[
            "game",
            "toads-frogs",
            "--backsliding",
            "--all",
            "2",
            "--values",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3 + 9 + 1);
    let value = |s: &str| lines.iter().find(|l| l["strip"] == s).unwrap()["value"].clone();
    assert_eq!(
        (value("T."), value(".F"), value("TF")),
        ("on".into(), "off".into(), "0".into())
    );
    let r = run(&dir, &["game", "toads-frogs", "--all", "6"]);
    assert_eq!(r.code, 2, "--all needs --backsliding");
}

/// `game fox-geese`: CGSuite's values table of four geese on row 3 of the 8-wide board (its
/// GameGridTest.scala, `FoxAndGeese.ValuesTable({(3,1),(3,3),(3,5),(3,7)})`), one position
/// alone, and bad squares refused with the reason (exit 2).
#[test]
fn fox_and_geese() {
    let dir = TempDir::new().unwrap();
    let geese = "(3,1),(3,3),(3,5),(3,7)";
    let v = ok_json(
        &dir,
        &[
            "game",
            "fox-geese",
            "--geese",
            geese,
            "--table",
            "--format",
            "json",
        ],
    );
    let rows = v["rows"].as_array().unwrap();
    let row = |i: usize| -> Vec<Option<&str>> {
        rows[i]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str())
            .collect()
    };
    assert_eq!(row(0)[..2], [Some("X"), None]);
    assert_eq!(
        row(1),
        [
            None,
            Some("2over"),
            None,
            Some("2"),
            None,
            Some("3*"),
            None,
            Some("4over")
        ]
    );
    // As CGSuite writes it.
    assert_eq!(
        row(2),
        [
            Some("{6|2over}"),
            None,
            Some("{2over|2}"),
            None,
            Some("{4|3||2}"),
            None,
            Some("{4over|3*}"),
            None
        ]
    );
    let v = ok_json(
        &dir,
        &[
            "game",
            "fox-geese",
            "--geese",
            geese,
            "--fox",
            "2,8",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        (
            v["value"].as_str(),
            v["outcome"].as_str(),
            v["positions"].as_u64()
        ),
        (Some("4over"), Some("L"), Some(1421))
    );
    // The fox level with the geese has escaped: off.
    let v = ok_json(
        &dir,
        &[
            "game",
            "fox-geese",
            "--geese",
            "(3,1)",
            "--fox",
            "(3,3)",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        (v["value"].as_str(), v["outcome"].as_str()),
        (Some("off"), Some("R"))
    );
    for (args, says) in [
        (&["--geese", "(3,2)", "--fox", "1,1"][..], "light square"),
        (&["--geese", "(3,1", "--fox", "1,1"][..], "column 5"),
        (
            &["--geese", "(3,1)", "--fox", "(3,1)"][..],
            "the fox on a goose",
        ),
        (
            &["--geese", "(3,1)", "--fox", "(1,1),(1,3)"][..],
            "one square",
        ),
        (
            &["--geese", "(3,1)", "--fox", "1,1", "--width", "0"][..],
            "board width 0",
        ),
        (&["--geese", "(3,1)"][..], "--fox"),
    ] {
        let mut all = vec!["game", "fox-geese"];
        all.extend(args);
        let r = run(&dir, &all);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}
