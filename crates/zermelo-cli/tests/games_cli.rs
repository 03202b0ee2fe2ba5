//! End-to-end tests of `zermelo game ...`: every game through the binary, in both formats, with
//! answers checked against rules computed here independently (XOR rules, a small DP for
//! subtraction games, hand-worked boards) or by feeding the printed move back in; and every
//! class of bad parameter or malformed file exits 2 with a message that says what and where.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `zermelo ARGS` in `dir` (or the repository root).
fn run_in(dir: Option<&TempDir>, args: &[&str]) -> Run {
    let mut cmd = Command::cargo_bin("zermelo").expect("the zermelo binary");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    cmd.current_dir(dir.map_or(root, |d| d.path().to_path_buf()));
    let out = cmd.args(args).output().expect("run zermelo");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn run(args: &[&str]) -> Run {
    run_in(None, args)
}

/// Runs with `--format json`, expects success, parses the object.
fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let r = run(&all);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", r.stdout))
}

/// Expects exit 2 with `needle` in the error message.
fn bad(args: &[&str], needle: &str) {
    fails_with(2, args, needle);
}

/// Expects exit `code` with `needle` in the error message.
fn fails_with(code: i32, args: &[&str], needle: &str) {
    let r = run(args);
    assert_eq!(
        r.code, code,
        "{args:?} should fail with exit {code}: {}",
        r.stdout
    );
    assert!(r.stderr.contains(needle), "{args:?}: {:?}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
}

fn bad_file(name: &str, contents: &str, args: &[&str], needle: &str) {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join(name), contents).unwrap();
    let r = run_in(Some(&dir), args);
    assert_eq!(r.code, 2, "{args:?} should fail: {}", r.stdout);
    assert!(r.stderr.contains(needle), "{args:?}: {:?}", r.stderr);
}

fn file_run(name: &str, contents: &str, args: &[&str]) -> Run {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join(name), contents).unwrap();
    run_in(Some(&dir), args)
}

// ---------------------------------------------------------------------------------------------
// Classic games
// ---------------------------------------------------------------------------------------------

#[test]
fn nim_follows_the_xor_rule() {
    for heaps in [[3u64, 4, 5], [1, 2, 3], [0, 0, 7], [6, 6, 1]] {
        let args: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let mut argv = vec!["game", "nim"];
        argv.extend(args.iter().map(String::as_str));
        let v = json(&argv);
        let x = heaps.iter().fold(0, |a, h| a ^ h);
        assert_eq!(
            v["outcome"],
            if x == 0 { "lose" } else { "win" },
            "{heaps:?}"
        );
        assert_eq!(v["nim_sum"], x);
        assert!(v["depth"].is_null());
        if x != 0 {
            let after: Vec<u64> = serde_json::from_value(v["move"]["heaps_after"].clone()).unwrap();
            assert_eq!(after.iter().fold(0, |a, h| a ^ h), 0, "{heaps:?}");
        } else {
            assert!(v["move"].is_null());
        }
    }
    let r = run(&["game", "nim", "3", "4", "5"]);
    assert_eq!(
        r.stdout,
        "nim 3 4 5 (normal play)\noutcome: win for the player to move (nim-sum 2)\n\
         move: take 2 from heap 1 (3 -> 1), leaving 1 4 5\n"
    );
}

#[test]
fn misere_nim() {
    // All heaps 0 or 1: win iff an even number of ones.
    assert_eq!(
        json(&["game", "nim", "1", "1", "--misere"])["outcome"],
        "win"
    );
    assert_eq!(
        json(&["game", "nim", "1", "1", "1", "--misere"])["outcome"],
        "lose"
    );
    assert_eq!(json(&["game", "nim", "0", "--misere"])["outcome"], "win");
    // One big heap: leave an odd number of ones.
    let v = json(&["game", "nim", "1", "1", "4", "--misere"]);
    assert_eq!(v["move"]["heaps_after"], serde_json::json!([1, 1, 1]));
}

/// A reference DP for subtraction games, written here: outcomes for piles 0..len.
fn subtraction_outcomes(set: &[u64], misere: bool, len: usize) -> Vec<bool> {
    let mut win: Vec<bool> = Vec::with_capacity(len);
    for n in 0..len as u64 {
        let moves: Vec<u64> = set.iter().filter(|&&s| s <= n).map(|s| n - s).collect();
        win.push(if moves.is_empty() {
            misere
        } else {
            moves.iter().any(|&m| !win[m as usize])
        });
    }
    win
}

#[test]
fn subtraction_games_match_a_reference_dp() {
    for (set, misere) in [
        ("1,3,4", false),
        ("2,5,6", false),
        ("2,3", true),
        ("1,2", true),
    ] {
        let values: Vec<u64> = set.split(',').map(|s| s.parse().unwrap()).collect();
        let want = subtraction_outcomes(&values, misere, 40);
        for n in [0usize, 1, 5, 17, 39] {
            let pile = n.to_string();
            let mut args = vec!["game", "subtraction", "--set", set, &pile];
            if misere {
                args.push("--misere");
            }
            let v = json(&args);
            assert_eq!(
                v["outcome"],
                if want[n] { "win" } else { "lose" },
                "{set} {n}"
            );
            assert!(v["depth"].is_u64(), "small piles have depths");
            let stuck = (n as u64) < values[0];
            if want[n] && !stuck {
                let after = v["move"]["pile_after"].as_u64().unwrap() as usize;
                assert!(!want[after], "{set} {n} -> {after}");
            } else if stuck {
                assert!(v["move"].is_null(), "{set} {n}: a terminal has no move");
            }
        }
    }
}

#[test]
fn subtraction_reports_the_period_and_answers_huge_piles() {
    let v = json(&["game", "subtraction", "--set", "1,3,4", "10"]);
    assert_eq!(
        v["period"],
        serde_json::json!({"preperiod": 0, "period": 7, "of": "grundy"})
    );
    assert_eq!(v["values"], serde_json::json!([0, 1, 0, 1, 2, 3, 2]));
    assert_eq!(v["grundy"], 1);
    // 2^64 - 1 = 1 (mod 7): grundy 1, won by taking 1 (to 0 mod 7); no depth that far out.
    let v = json(&[
        "game",
        "subtraction",
        "--set",
        "1,3,4",
        "18446744073709551615",
    ]);
    assert_eq!(v["outcome"], "win");
    assert!(v["depth"].is_null());
    assert_eq!(v["move"]["take"], 1);
    // Misère: the period is of the outcome sequence.
    let v = json(&["game", "subtraction", "--set", "2,3", "7", "--misere"]);
    assert_eq!(v["period"]["of"], "outcome");
    assert!(v["grundy"].is_null());
}

#[test]
fn staircase_nim_uses_odd_stairs() {
    let v = json(&["game", "staircase", "3", "1", "2"]);
    assert_eq!(
        (v["outcome"].as_str(), v["odd_xor"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(v["move"]["stair"], 1);
    assert_eq!(v["move"]["stairs_after"], serde_json::json!([2, 1, 2]));
    // Coins only on even stairs: lost, whatever their number.
    assert_eq!(
        json(&["game", "staircase", "0", "9", "0", "4"])["outcome"],
        "lose"
    );
}

#[test]
fn wythoff_is_exact_for_huge_piles() {
    assert_eq!(json(&["game", "wythoff", "3", "5"])["outcome"], "lose");
    let v = json(&["game", "wythoff", "4", "9"]);
    assert_eq!(v["move"]["piles_after"], serde_json::json!([4, 7]));
    // (⌊2^64/φ⌋ stuff) a P-position near the top of u64, and the moves from its neighbours.
    let (a, b) = ("11400714819323198485", "18446744073709551615");
    assert_eq!(json(&["game", "wythoff", a, b])["outcome"], "lose");
    assert_eq!(json(&["game", "wythoff", b, a])["outcome"], "lose");
    for (x, y) in [(b, b), ("11400714819323198486", b), ("1", b)] {
        let v = json(&["game", "wythoff", x, y]);
        assert_eq!(v["outcome"], "win");
        let after = v["move"]["piles_after"].as_array().unwrap();
        let (c, d) = (after[0].to_string(), after[1].to_string());
        assert_eq!(
            json(&["game", "wythoff", &c, &d])["outcome"],
            "lose",
            "{x} {y}"
        );
    }
}

#[test]
fn hackenbush_colon_principle() {
    let v = json(&["game", "hackenbush", "--parents", "-,0,1,1"]);
    assert_eq!(
        (v["outcome"].as_str(), v["value"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(v["move"]["cut"], serde_json::json!([1, 0]));
    // Two single edges on one root: 1 ^ 1 = 0. `--parents=` form and spaces both work.
    assert_eq!(
        json(&["game", "hackenbush", "--parents=-,0,0"])["outcome"],
        "lose"
    );
    assert_eq!(
        json(&["game", "hackenbush", "--parents", "- 0 1 - 3 4"])["value"],
        0
    );
}

#[test]
fn tictactoe_from_the_empty_board() {
    let v = json(&["game", "tictactoe"]);
    assert_eq!(v["outcome"], "draw");
    assert_eq!(v["positions"], 5478);
    assert!(v["depth"].is_null());
    assert!(v["move"]["cell"].is_u64());
    let v = json(&["game", "tictactoe", "--board", "xx./oo./x.."]);
    assert_eq!(
        (v["outcome"].as_str(), v["depth"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(v["move"]["cell"], 5);
}

// ---------------------------------------------------------------------------------------------
// Pursuit games
// ---------------------------------------------------------------------------------------------

#[test]
fn cop_and_robber_seed_case() {
    let v = json(&[
        "game",
        "cop-robber",
        "examples/cop-path.txt",
        "--from",
        "0",
        "2",
    ]);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["captured"], true);
    assert_eq!(v["capture_time"], 3);
    assert_eq!(v["move"]["to"], 1);
    let r = run(&[
        "game",
        "cop-robber",
        "examples/cop-path.txt",
        "--from",
        "0",
        "2",
    ]);
    assert!(
        r.stdout.contains("the cop captures the robber in 3 plies"),
        "{}",
        r.stdout
    );
}

#[test]
fn cop_and_robber_every_state() {
    let v = json(&["game", "cop-robber", "examples/cop-path.txt"]);
    let states = v["states"].as_array().unwrap();
    assert_eq!(states.len(), 18);
    assert_eq!(v["cop_wins_from_every_start"], true);
    for s in states {
        let (c, r) = (s["cop"].as_u64().unwrap(), s["robber"].as_u64().unwrap());
        if c == r {
            let want = if s["to_move"] == "cop" { "win" } else { "lose" };
            assert_eq!(s["outcome"], want);
            assert_eq!(s["capture_time"], 0);
        }
    }
    // On a 4-cycle the robber keeps away from a cop two steps off.
    let r = file_run(
        "c4.txt",
        "4 4\n0 1\n1 2\n2 3\n3 0\n",
        &[
            "game",
            "cop-robber",
            "c4.txt",
            "--from",
            "0",
            "2",
            "--format",
            "json",
        ],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (v["outcome"].as_str(), v["captured"].as_bool()),
        (Some("draw"), Some(false))
    );
    assert!(v["capture_time"].is_null());
}

#[test]
fn police_thief_prints_the_seed_verdict_first() {
    let r = run(&["game", "police-thief", "examples/police.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "Police catches the thief");
    assert_eq!(lines[1], "depth: 9 plies");
    assert_eq!(lines[2], "1. police (0,0) -> (1,0)");
    for (board, first) in [
        ("1 4\nP.TE\n", "The thief escapes"),
        ("3 3\nP*.\n**.\n..T\n", "Draw"),
        ("1 3\nP.T\n", "Police catches the thief"),
    ] {
        let r = file_run("b.txt", board, &["game", "police-thief", "b.txt"]);
        assert_eq!(r.stdout.lines().next(), Some(first), "{board}");
    }
    let v = json(&["game", "police-thief", "examples/police.txt"]);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["depth"], 9);
    assert_eq!(v["result"], "Police catches the thief");
    assert_eq!(v["move"]["to"], serde_json::json!([1, 0]));
    assert_eq!(v["line"].as_array().unwrap().len(), 9);
    assert_eq!(v["line_end"], "terminal");
}

#[test]
fn police_thief_solves_a_60_by_60_board() {
    let n = 60;
    let mut text = format!("{n} {n}\n");
    for r in 0..n {
        let row: String = (0..n)
            .map(|c| match (r, c) {
                (0, 0) => 'P',
                (59, 59) => 'T',
                (30, 59) => 'E',
                _ if r % 7 == 3 && c % 9 != 4 => '*',
                _ => '.',
            })
            .collect();
        text.push_str(&row);
        text.push('\n');
    }
    let r = file_run(
        "big.txt",
        &text,
        &["game", "police-thief", "big.txt", "--plies", "3"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap();
    assert!(
        ["Police catches the thief", "The thief escapes", "Draw"].contains(&first),
        "{first}"
    );
}

// ---------------------------------------------------------------------------------------------
// Errors: exit 2, saying what and where
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_parameters_exit_2() {
    bad(&["game", "nim"], "HEAP");
    bad(&["game", "nim", "3", "-1"], "unexpected argument");
    bad(&["game", "nim", "x"], "invalid value");
    bad(&["game", "subtraction", "--set", "0,1", "5"], "contains 0");
    bad(&["game", "subtraction", "--set", "", "5"], "invalid value");
    bad(&["game", "subtraction", "5"], "--set");
    bad(
        &["game", "subtraction", "--set", "2000000", "5"],
        "larger than the supported maximum",
    );
    bad(&["game", "staircase"], "COINS");
    bad(
        &["game", "staircase", "0", "18446744073709551615", "5"],
        "total number of coins",
    );
    bad(&["game", "wythoff", "3"], "B");
    bad(
        &["game", "wythoff", "3", "18446744073709551616"],
        "invalid value",
    );
    bad(&["game", "hackenbush", "--parents", ""], "empty");
    bad(
        &["game", "hackenbush", "--parents", "-,7"],
        "vertex 1 has parent 7",
    );
    bad(&["game", "hackenbush", "--parents", "1,0"], "cycle");
    bad(&["game", "hackenbush", "--parents", "-,a"], "entry 1");
    bad(
        &["game", "tictactoe", "--board", "xxx/ooo/..."],
        "cannot arise",
    );
    bad(&["game", "tictactoe", "--board", "xo"], "9 cells");
    bad(&["game", "nim", "3", "--format", "csv"], "invalid value");
    bad(&["game", "chess"], "unrecognized subcommand");
    bad(
        &[
            "game",
            "cop-robber",
            "examples/cop-path.txt",
            "--from",
            "0",
            "3",
        ],
        "out of range",
    );
    bad(
        &["game", "cop-robber", "examples/cop-path.txt", "--from", "0"],
        "2 values",
    );
    // An input that cannot be read is exit 5.
    fails_with(
        5,
        &["game", "cop-robber", "missing.txt"],
        "missing.txt: cannot read",
    );
    fails_with(
        5,
        &["game", "police-thief", "missing.txt"],
        "missing.txt: cannot read",
    );
}

#[test]
fn malformed_files_name_the_line() {
    let pt = ["game", "police-thief", "b.txt"];
    bad_file("b.txt", "", &pt, "b.txt: empty file");
    bad_file("b.txt", "3\n", &pt, "b.txt:1: expected a header `n m`");
    bad_file("b.txt", "2 x\n", &pt, "b.txt:1:");
    bad_file(
        "b.txt",
        "2 3\nP..\n..\n",
        &pt,
        "b.txt:3: row 2 has 2 cells, expected 3",
    );
    bad_file("b.txt", "2 3\nP..\n.#T\n", &pt, "b.txt:3: column 2: '#'");
    bad_file("b.txt", "2 3\nP..\n", &pt, "b.txt:3: missing row 2");
    bad_file("b.txt", "1 3\nP.T\nextra\n", &pt, "b.txt:3: text after");
    bad_file("b.txt", "1 3\nPPT\n", &pt, "a second `P`");
    bad_file("b.txt", "1 3\nP..\n", &pt, "no `T`");
    bad_file("b.txt", "200 200\n", &pt, "b.txt:2: missing row 1");
    let mut huge = String::from("101 100\nPT");
    for r in 0..101 {
        huge.push_str(&".".repeat(if r == 0 { 98 } else { 100 }));
        huge.push('\n');
    }
    // Over a size limit: exit 3 (the contract's "too big"), not 2.
    let r = file_run("b.txt", &huge, &pt);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("10100 free cells is more than the supported maximum"),
        "{}",
        r.stderr
    );
    let cr = ["game", "cop-robber", "g.txt"];
    bad_file("g.txt", "3 2\n0 1\n", &cr, "g.txt:2:");
    bad_file("g.txt", "3 1\n0 9\n", &cr, "g.txt:2:");
    bad_file(
        "g.txt",
        "{\"nodes\": 2, \"edges\": [], \"misere\": true}",
        &cr,
        "plain graph",
    );
}
