//! `zermelo tb`: generate KRvK into a temporary directory, then probe, line, stats, verify.

use assert_cmd::Command;
use predicates::str::contains;

fn zermelo() -> Command {
    Command::cargo_bin("zermelo").unwrap()
}

fn tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    zermelo()
        .args(["-q", "tb", "gen", "KRvK", "--tables"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(contains("KRvK:"));
    dir
}

#[test]
fn tb_commands_on_krk() {
    let dir = tables();
    let t = dir.path().to_str().unwrap();
    zermelo()
        .args([
            "tb",
            "probe",
            "k7/8/1K6/8/8/8/8/7R w - - 0 1",
            "--tables",
            t,
        ])
        .assert()
        .success()
        .stdout(contains("outcome   win"))
        .stdout(contains("dtm       1 ply, 1 move"))
        .stdout(contains("h1h8   win, mate in 1"));
    let out = zermelo()
        .args(["tb", "probe", "--stdin", "--tables", t])
        .write_stdin("8/8/8/8/8/2k5/8/K6R w - - 0 1\n8/8/8/8/8/2k5/8/K6R b - - 0 1\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["outcome"], "win");
    assert!(lines[0]["dtm_plies"].as_u64().unwrap() % 2 == 1);
    assert!(lines[0]["moves"].as_array().unwrap().len() > 5);
    zermelo()
        .args(["tb", "line", "8/8/8/8/8/2k5/8/K6R w - - 0 1", "--tables", t])
        .assert()
        .success()
        .stdout(contains("checkmate"));
    zermelo()
        .args(["tb", "stats", "KRvK", "--tables", t])
        .assert()
        .success()
        .stdout(contains(
            "longest win, white to move: 16 moves (31 plies), reached by",
        ))
        .stdout(contains(
            "longest loss, black to move: 16 moves (32 plies), reached by",
        ))
        .stdout(contains("longest loss, white to move: none"))
        .stdout(contains("longest win, black to move: none"));
    zermelo()
        .args(["tb", "verify", t])
        .assert()
        .success()
        .stdout(contains("KRvK: ok"));
}

#[test]
fn tb_errors_are_clear() {
    let dir = tables();
    let t = dir.path().to_str().unwrap();
    zermelo()
        .args(["tb", "probe", "8/8/8/8/8/8/8/Kk6 w - - 0 1", "--tables", t])
        .assert()
        .code(2)
        .stderr(contains("illegal position"));
    zermelo()
        .args([
            "tb",
            "probe",
            "8/8/8/8/8/2k5/8/KQ5R w - - 0 1",
            "--tables",
            t,
        ])
        .assert()
        .code(2)
        .stderr(contains("no table for KQRvK"));
    zermelo()
        .args([
            "tb",
            "probe",
            "7k/8/8/8/8/8/8/KQR2QR1 w - - 0 1",
            "--tables",
            t,
        ])
        .assert()
        .code(2)
        .stderr(contains("tables exist for at most"));
    let path = dir.path().join("KRvK.zct");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 10);
    std::fs::write(&path, bytes).unwrap();
    zermelo()
        .args([
            "tb",
            "probe",
            "8/8/8/8/8/2k5/8/K6R w - - 0 1",
            "--tables",
            t,
        ])
        .assert()
        .code(2)
        .stderr(contains("truncated"));
    zermelo().args(["tb", "verify", t]).assert().code(1);
    // A table of the first format version: refused with the command that regenerates it.
    let mut v1 = b"ZRMCHESS".to_vec();
    v1.extend_from_slice(&1u32.to_le_bytes());
    v1.push(1);
    v1.extend_from_slice(b"KRvK\0\0\0\0\0\0\0\0\0\0\0");
    v1.extend_from_slice(&[0; 12]);
    std::fs::write(&path, v1).unwrap();
    zermelo()
        .args(["tb", "stats", "KRvK", "--tables", t])
        .assert()
        .code(2)
        .stderr(contains(
            "table format version 1, this zermelo reads version 3: regenerate with `zermelo tb gen KRvK`",
        ));
}

#[test]
fn tb_gen_checks_its_memory_estimate_and_reports_stats() {
    let dir = tempfile::tempdir().unwrap();
    // KQvK and KRvK (2 bytes x 81,920 indices of state) fit in 1 MiB; KQvKR (10 MB) does not.
    zermelo()
        .args([
            "-q",
            "--max-memory",
            "1M",
            "tb",
            "gen",
            "KQvKR",
            "--stats",
            "--tables",
        ])
        .arg(dir.path())
        .assert()
        .code(3)
        .stdout(contains("KRvK:"))
        .stderr(contains("stats: KQvK: 81920 indices in"))
        .stderr(contains("tb gen KQvKR: this job needs about"));
    assert!(dir.path().join("KRvK.zct").exists());
    assert!(!dir.path().join("KQvKR.zct").exists());
}
