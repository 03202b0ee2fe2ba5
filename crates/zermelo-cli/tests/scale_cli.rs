//! The speed-and-scale features end to end: the parallel loader, thread-count determinism,
//! binary formats (round trips, truncation, corruption), memory limits, generators.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

struct Dir(tempfile::TempDir);

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Dir {
    fn new() -> Dir {
        Dir(tempfile::tempdir().unwrap())
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    fn run(&self, args: &[&str]) -> Run {
        self.run_stdin(args, "")
    }

    fn run_stdin(&self, args: &[&str], stdin: &str) -> Run {
        let out = Command::cargo_bin("zermelo")
            .unwrap()
            .current_dir(self.0.path())
            .args(args)
            .write_stdin(stdin)
            .output()
            .unwrap();
        let run = Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        run
    }

    fn ok(&self, args: &[&str]) -> String {
        let r = self.run(args);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        r.stdout
    }
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

#[test]
fn thread_counts_give_identical_solutions() {
    let d = Dir::new();
    d.ok(&[
        "gen", "random", "--nodes", "60000", "--edges", "300000", "--seed", "9", "-o", "g.txt",
    ]);
    let one = d.ok(&["--threads", "1", "solve", "g.txt", "--format", "csv"]);
    for t in ["2", "3", "4"] {
        assert_eq!(
            d.ok(&["--threads", t, "solve", "g.txt", "--format", "csv"]),
            one,
            "{t}"
        );
    }
    // The sequential parser (standard input) and the parallel loader read the same graph.
    let text = String::from_utf8(read(&d.path("g.txt"))).unwrap();
    let r = d.run_stdin(&["solve", "-", "--format", "csv"], &text);
    assert_eq!(r.stdout, one);
    // Summaries from the reverse-only path agree with the full solve.
    let summary = d.ok(&["solve", "g.txt", "--summary", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&summary).unwrap();
    let wins = one.lines().filter(|l| l.contains(",win,")).count() as u64;
    assert_eq!(v["win"].as_u64(), Some(wins));
    for t in ["1", "3"] {
        assert_eq!(
            d.ok(&[
                "--threads",
                t,
                "solve",
                "g.txt",
                "--summary",
                "--format",
                "json"
            ]),
            summary
        );
    }
}

#[test]
fn binary_graphs_round_trip() {
    let d = Dir::new();
    d.ok(&[
        "gen", "grid", "--width", "6", "--height", "5", "--walls", "0.2", "-o", "grid.txt",
    ]);
    d.ok(&["convert", "grid.txt", "grid.zg"]);
    let text = d.ok(&["solve", "grid.txt", "--format", "csv"]);
    assert_eq!(d.ok(&["solve", "grid.zg", "--format", "csv"]), text);
    assert_eq!(
        d.ok(&["solve", "grid.zg", "--input", "binary", "--format", "csv"]),
        text
    );
    assert_eq!(
        d.ok(&["solve", "grid.zg", "--summary"]),
        d.ok(&["solve", "grid.txt", "--summary"])
    );
    // And back to text: the same edges in the same order.
    d.ok(&["convert", "grid.zg", "back.txt"]);
    let strip = |b: Vec<u8>| String::from_utf8(b).unwrap();
    assert_eq!(
        strip(read(&d.path("back.txt"))),
        strip(read(&d.path("grid.txt")))
    );
    // Lines, Grundy and verification work on mapped graphs too.
    d.ok(&["solve", "grid.zg", "--format", "csv", "-o", "sol.csv"]);
    assert!(d
        .ok(&["verify", "grid.zg", "sol.csv"])
        .starts_with("valid:"));
}

#[test]
fn damaged_binary_graphs_are_clear_errors() {
    let d = Dir::new();
    d.ok(&[
        "gen", "random", "--nodes", "500", "--edges", "2000", "-o", "g.txt",
    ]);
    d.ok(&["convert", "g.txt", "g.zg"]);
    let bytes = read(&d.path("g.zg"));
    let check = |name: &str, data: &[u8], expect: &str| {
        std::fs::write(d.path(name), data).unwrap();
        let r = d.run(&["solve", name, "--summary"]);
        assert_eq!(r.code, Some(2), "{name}: {}", r.stderr);
        assert!(r.stderr.contains(expect), "{name}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    };
    check("short.zg", &bytes[..bytes.len() / 2], "truncated");
    check("header.zg", &bytes[..60], "truncated");
    let mut flipped = bytes.clone();
    let mid = bytes.len() / 2;
    flipped[mid] ^= 0x40;
    check("flip.zg", &flipped, "checksum");
    let mut version = bytes.clone();
    version[8] = 7;
    check("version.zg", &version, "unsupported format version 7");
    let mut trailing = bytes.clone();
    trailing.extend_from_slice(&[0; 64]);
    check("long.zg", &trailing, "trailing bytes");
    // Binary graphs cannot come through standard input.
    let r = d.run_stdin(&["solve", "-", "--input", "binary"], "");
    assert_eq!(r.code, Some(2));
}

#[test]
fn binary_solutions_verify_and_reject_damage() {
    let d = Dir::new();
    d.ok(&[
        "gen", "random", "--nodes", "3000", "--edges", "12000", "--seed", "4", "-o", "g.txt",
    ]);
    d.ok(&["solve", "g.txt", "-o", "s.zs"]);
    let out = d.ok(&["verify", "g.txt", "s.zs"]);
    assert!(out.starts_with("valid: 3000 nodes, 12000 edges"), "{out}");
    let bytes = read(&d.path("s.zs"));
    // 2 bits per outcome plus one byte per depth, after a 64-byte header.
    assert_eq!(bytes.len(), 64 + 750 + 3000);
    let mut bad = bytes.clone();
    bad[100] ^= 1;
    std::fs::write(d.path("bad.zs"), &bad).unwrap();
    let r = d.run(&["verify", "g.txt", "bad.zs"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("checksum"), "{}", r.stderr);
    std::fs::write(d.path("cut.zs"), &bytes[..bytes.len() - 1]).unwrap();
    let r = d.run(&["verify", "g.txt", "cut.zs"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("truncated"), "{}", r.stderr);
    // A solution of another graph.
    d.ok(&["gen", "chain", "--nodes", "10", "-o", "c.txt"]);
    let r = d.run(&["verify", "c.txt", "s.zs"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("3000 positions but the graph has 10"),
        "{}",
        r.stderr
    );
}

#[test]
fn memory_limits_refuse_up_front() {
    let d = Dir::new();
    d.ok(&[
        "gen", "random", "--nodes", "100000", "--edges", "400000", "-o", "g.txt",
    ]);
    let r = d.run(&["--max-memory", "1M", "solve", "g.txt", "--summary"]);
    assert_eq!(r.code, Some(3));
    assert!(
        r.stderr.contains("needs about") && r.stderr.contains("--max-memory"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty());
    d.ok(&["--max-memory", "1G", "solve", "g.txt", "--summary"]);
    let r = d.run(&["--max-memory", "lots", "solve", "g.txt"]);
    assert_eq!(r.code, Some(2));
    let r = d.run(&["--threads", "0", "solve", "g.txt"]);
    assert_eq!(r.code, Some(2));
}

#[test]
fn stats_report_phases_and_memory() {
    let d = Dir::new();
    d.ok(&["gen", "chain", "--nodes", "1000", "-o", "c.txt"]);
    let r = d.run(&["--quiet", "solve", "c.txt", "--summary", "--stats"]);
    assert_eq!(r.code, Some(0));
    assert!(r.stderr.starts_with("stats: load "), "{}", r.stderr);
    assert!(r.stderr.contains("peak memory"), "{}", r.stderr);
    assert!(r.stdout.contains("max_depth  999"));
}

#[test]
fn grid_generator_is_deterministic_and_cyclic() {
    let d = Dir::new();
    let a = d.ok(&[
        "gen", "grid", "--width", "5", "--height", "4", "--seed", "3",
    ]);
    let b = d.ok(&[
        "gen", "grid", "--width", "5", "--height", "4", "--seed", "3",
    ]);
    assert_eq!(a, b);
    assert!(a.starts_with("800 "));
    std::fs::write(d.path("grid.txt"), &a).unwrap();
    let r = d.run(&["solve", "grid.txt", "--algorithm", "acyclic"]);
    assert_eq!(r.code, Some(2), "pursuit games have cycles");
    let r = d.run(&["gen", "grid", "--width", "0", "--height", "4"]);
    assert_eq!(r.code, Some(2));
}
