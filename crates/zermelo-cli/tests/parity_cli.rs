//! `zermelo parity`, `zermelo parity verify` and `zermelo gen parity`: exact outputs, the
//! certificate check on good and broken solutions, objectives, and every error class.

use std::fs;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// The example of the library docs: Even at 0 (priority 2) chooses 1 (Odd, 1) over 2 (Odd, 3);
/// 2 has a self-loop, so Odd wins there. Header counts the highest id, as PGSolver writes it.
const GAME: &str = "parity 2;\n0 2 0 1,2 \"start\";\n1 1 1 0;\n2 3 1 0,2;\n";
const SOLUTION: &str = "paritysol 2;\n0 0 1;\n1 0;\n2 1 2;\n";

fn zermelo(dir: &TempDir) -> Command {
    let mut c = Command::cargo_bin("zermelo").unwrap();
    c.current_dir(dir.path()).arg("--quiet");
    c
}

fn scratch(files: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new().unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn solves_to_paritysol_with_every_solver() {
    let dir = scratch(&[("g.pg", GAME)]);
    for solver in ["auto", "pp", "zielonka", "tl", "rtl", "ortl", "qpz", "fpj"] {
        let out = zermelo(&dir)
            .args(["parity", "g.pg", "--solver", solver])
            .assert()
            .success();
        let out = out.get_output();
        assert_eq!(String::from_utf8_lossy(&out.stdout), SOLUTION);
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(
            summary.starts_with("g.pg: 3 vertices, 5 edges, priorities 0..=3; ")
                && summary.contains("player 0 wins 2, player 1 wins 1"),
            "{summary}"
        );
    }
}

#[test]
fn writes_json_and_files_atomically_then_verifies_them() {
    let dir = scratch(&[("g.pg", GAME)]);
    zermelo(&dir)
        .args(["parity", "g.pg", "-o", "g.sol"])
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        fs::read_to_string(dir.path().join("g.sol")).unwrap(),
        SOLUTION
    );
    zermelo(&dir)
        .args(["parity", "verify", "g.pg", "g.sol"])
        .assert()
        .success()
        .stdout("valid: 3 vertices, 5 edges; player 0 wins 2, player 1 wins 1\n");
    let out = zermelo(&dir)
        .args(["parity", "g.pg", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["winner"], serde_json::json!([0, 0, 1]));
    assert_eq!(v["strategy"], serde_json::json!([1, null, 2]));
    assert_eq!(v["won"], serde_json::json!([2, 1]));
}

#[test]
fn verify_names_the_first_violation_with_exit_1() {
    let cases = [
        (
            "paritysol 2;\n0 0 1;\n1 1;\n2 1 2;\n",
            "invalid: vertex 0 is won by player 0, but its move goes to 1, won by player 1\n",
        ),
        (
            "paritysol 2;\n0 0 2;\n1 0;\n2 0;\n",
            "invalid: player 0's strategy allows the cycle 2 -> 2 whose highest priority 3 \
             favours player 1\n",
        ),
        (
            "paritysol 2;\n0 0;\n1 0;\n2 1 2;\n",
            "invalid: vertex 0 is won by its owner, player 0, but no move is given\n",
        ),
        (
            "paritysol 2;\n0 0 0;\n1 0;\n2 1 2;\n",
            "invalid: vertex 0: the move to 0 is not an edge\n",
        ),
    ];
    for (claim, message) in cases {
        let dir = scratch(&[("g.pg", GAME), ("bad.sol", claim)]);
        zermelo(&dir)
            .args(["parity", "verify", "g.pg", "bad.sol"])
            .assert()
            .code(1)
            .stdout(message.to_string());
    }
}

#[test]
fn bad_input_is_exit_2_naming_file_and_line() {
    let cases = [
        (
            "parity 1;\n0 0 0 1;\n0 1 1 0;\n",
            "g.pg:3: vertex 0 is defined a second time",
        ),
        (
            "parity 2;\n0 0 0 1;\n1 1 1 2;\n",
            "g.pg:3: vertex 1 has successor 2, which is not defined",
        ),
        (
            "parity 1;\r\n0 0 0 1;\r\n1 1 1 ;\r\n",
            "g.pg:3: expected a successor (every vertex needs at least one), found \";\"",
        ),
        (
            "parity 4000000000;\n0 0 0 0;\n",
            "g.pg:1: the header declares 4000000000 vertices, but the input has only",
        ),
        ("digraph {}\n", "g.pg:1: expected a header `parity N;`"),
    ];
    for (text, message) in cases {
        let dir = scratch(&[("g.pg", text)]);
        let out = zermelo(&dir)
            .args(["parity", "g.pg"])
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("zermelo: error: {message}")),
            "{err}"
        );
    }
    let dir = scratch(&[("g.pg", GAME), ("s.sol", "paritysol 2;\n0 0 1;\n0 1;\n")]);
    zermelo(&dir)
        .args(["parity", "verify", "g.pg", "s.sol"])
        .assert()
        .code(2);
    zermelo(&dir)
        .args(["parity", "g.pg", "--solver", "magic"])
        .assert()
        .code(2);
    // An input that cannot be read is exit 5, as for every other subcommand.
    zermelo(&dir)
        .args(["parity", "missing.pg"])
        .assert()
        .code(5);
}

#[test]
fn objectives_solve_and_verify_through_their_parity_reduction() {
    // 0 -> 1 -> 2 -> 0 and 1 -> 1; Odd owns 1. Target {2}.
    let game = "parity 2;\n0 0 0 1;\n1 0 1 2,1;\n2 0 0 0;\n";
    let dir = scratch(&[("g.pg", game)]);
    let run = |objective: &str| {
        let out = zermelo(&dir)
            .args([
                "parity",
                "g.pg",
                "--objective",
                objective,
                "--target",
                "2",
                "-o",
                "s.sol",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        zermelo(&dir)
            .args([
                "parity",
                "verify",
                "g.pg",
                "s.sol",
                "--objective",
                objective,
                "--target",
                "2",
            ])
            .assert()
            .success();
        fs::read_to_string(dir.path().join("s.sol")).unwrap()
    };
    // Odd decides at 1: loop there forever (Even never reaches 2, nor sees it infinitely
    // often) or go to 2 every time round (Even cannot avoid 2, nor see it only finitely often).
    assert_eq!(run("reach"), "paritysol 2;\n0 1;\n1 1 1;\n2 0 0;\n");
    assert_eq!(run("safety"), "paritysol 2;\n0 1;\n1 1 2;\n2 1;\n");
    assert_eq!(run("buchi"), "paritysol 2;\n0 1;\n1 1 1;\n2 1;\n");
    assert_eq!(run("co-buchi"), "paritysol 2;\n0 1;\n1 1 2;\n2 1;\n");
    // A reachability claim is not a parity claim: checking it as parity fails or passes on its
    // own merits, never crashes; a wrong objective claim is rejected.
    fs::write(
        dir.path().join("bad.sol"),
        "paritysol 2;\n0 0 1;\n1 0;\n2 0 0;\n",
    )
    .unwrap();
    zermelo(&dir)
        .args([
            "parity",
            "verify",
            "g.pg",
            "bad.sol",
            "--objective",
            "reach",
            "--target",
            "2",
        ])
        .assert()
        .code(1);
    zermelo(&dir)
        .args(["parity", "g.pg", "--objective", "reach", "--target", "7"])
        .assert()
        .code(2);
}

#[test]
fn generated_families_solve_and_verify() {
    let dir = TempDir::new().unwrap();
    let families: [&[&str]; 8] = [
        &["random", "--vertices", "300", "--seed", "4"],
        &["synthesis"],
        &[
            "synthesis",
            "--states",
            "3",
            "--automaton-states",
            "9",
            "--components",
            "3",
            "--inputs",
            "1",
            "--seed",
            "5",
        ],
        &["ladder", "20"],
        &["recursive-ladder", "6"],
        &["friedmann", "5"],
        &["two-counters", "3"],
        &["jurdzinski", "3", "4"],
    ];
    for args in families {
        zermelo(&dir)
            .args(["gen", "parity"])
            .args(args)
            .args(["-o", "g.pg"])
            .assert()
            .success();
        let mut won = Vec::new();
        for solver in ["pp", "zielonka"] {
            for flags in [
                &[][..],
                &["--scc"],
                &["--no-scc", "--no-preprocess"],
                &["--scc", "--no-preprocess"],
            ] {
                let out = zermelo(&dir)
                    .args(["parity", "g.pg", "--solver", solver, "-o", "g.sol"])
                    .args(flags)
                    .assert()
                    .success();
                // The summary's "player 0 wins E, player 1 wins O" must not depend on flags.
                let summary = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
                won.push(
                    summary
                        .split("player 0 wins")
                        .nth(1)
                        .map(|s| s[..20].to_string()),
                );
                zermelo(&dir)
                    .args(["parity", "verify", "g.pg", "g.sol"])
                    .assert()
                    .success();
            }
        }
        assert!(
            won[0].is_some() && won.iter().all(|w| *w == won[0]),
            "{args:?}: {won:?}"
        );
    }
    // The same seed gives the same file; bad sizes are exit 2 with a message.
    let synthesis = |seed: &str| {
        let out = zermelo(&dir)
            .args(["gen", "parity", "synthesis", "--seed", seed])
            .assert()
            .success();
        out.get_output().stdout.clone()
    };
    assert_eq!(synthesis("7"), synthesis("7"));
    assert_ne!(synthesis("7"), synthesis("8"));
    for bad in [["--inputs", "7"], ["--components", "65"], ["--states", "0"]] {
        zermelo(&dir)
            .args(["gen", "parity", "synthesis"])
            .args(bad)
            .assert()
            .code(2);
    }
    zermelo(&dir)
        .args([
            "gen",
            "parity",
            "random",
            "--vertices",
            "3",
            "--min-degree",
            "3",
            "--max-degree",
            "3",
        ])
        .assert()
        .code(2);
}

/// A SYNTCOMP extended-HOA automaton (detected by `HOA:`): the controller copies input 0 to
/// output 1, so the start state is won by player 0; the solution verifies against the same
/// file; a bad target names its line.
#[test]
fn extended_hoa_is_detected_solved_and_verified() {
    let hoa = "HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n\
        acc-name: parity max even 2\nAcceptance: 2 Fin(1) & Inf(0)\n--BODY--\nState: 0\n\
        [0&1 | !0&!1] 0 {0}\n[0&!1 | !0&1] 0 {1}\n--END--\n";
    let dir = scratch(&[
        ("g.ehoa", hoa),
        ("bad.ehoa", &hoa.replace("] 0 {1}", "] 3 {1}")),
    ]);
    let out = zermelo(&dir)
        .args(["parity", "g.ehoa", "-o", "g.sol"])
        .assert()
        .success();
    let summary = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        summary.contains("start vertex 0 is won by player 0"),
        "{summary}"
    );
    zermelo(&dir)
        .args(["parity", "verify", "g.ehoa", "g.sol"])
        .assert()
        .success();
    let out = zermelo(&dir).args(["parity", "bad.ehoa"]).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("bad.ehoa:11"), "{err}");
}
