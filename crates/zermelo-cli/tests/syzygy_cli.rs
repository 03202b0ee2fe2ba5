//! `zermelo tb` on Syzygy's published files (the 3-piece ones kept in `examples/syzygy`, and
//! the 3-4-piece set at `../shared/syzygy-3-4` where it is): probes that answer as python-chess
//! does, directories of both kinds together, `tb stats` by census, `tb verify --against`, and
//! damaged or foreign files as errors naming them (exit 2).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::str::contains;

fn zermelo() -> Command {
    Command::cargo_bin("zermelo").unwrap()
}

/// The published 3-piece files in the repository.
fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/syzygy")
}

/// A temporary copy of the published 3-piece files, writable.
fn copy_of_examples() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// zermelo's tables of `material` (and what it needs) in a new directory.
fn generated(material: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    zermelo()
        .args(["-q", "tb", "gen", material, "--tables"])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

const KRK: &str = "8/8/8/8/8/2k5/8/K6R w - - 0 1";

/// python-chess's answers (tests/data/syzygy-oracle.csv of zermelo-chess) on the 3-piece
/// positions: `tb probe --stdin` gives the same DTZ and, at clock 0, the same class.
#[test]
fn probes_answer_as_python_chess() {
    let csv = include_str!("../../zermelo-chess/tests/data/syzygy-oracle.csv");
    let rows: Vec<(&str, i32, i32)> = csv
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0], f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .filter(|(fen, _, _)| {
            let board = fen.split(' ').next().unwrap();
            board.chars().filter(char::is_ascii_alphabetic).count() == 3
        })
        .collect();
    assert!(rows.len() >= 500, "{}", rows.len());
    let input: String = rows.iter().map(|(fen, _, _)| format!("{fen}\n")).collect();
    let out = zermelo()
        .args(["tb", "probe", "--stdin", "--tables", text(&examples())])
        .write_stdin(input)
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
    assert_eq!(lines.len(), rows.len());
    for ((fen, wdl, dtz), got) in rows.iter().zip(&lines) {
        let class = match wdl {
            2 => "win",
            1 => "cursed-win",
            0 => "draw",
            -1 => "blessed-loss",
            _ => "loss",
        };
        assert_eq!(got["dtz"], *dtz, "{fen}: {got}");
        assert_eq!(got["category"], class, "{fen}: {got}");
        // Syzygy's tables hold no depth to mate.
        assert!(got["dtm_plies"].is_null(), "{fen}: {got}");
    }
}

#[test]
fn probe_line_and_stats_read_syzygy_files() {
    let s = examples();
    zermelo()
        .args(["tb", "probe", KRK, "--tables", text(&s)])
        .assert()
        .success()
        .stdout(contains("category  win (halfmove clock 0)"))
        .stdout(contains("dtz       27 (27 plies"))
        .stdout(contains("dtm       - (no DTM table"))
        .stdout(contains("h1d1   Rd1"));
    // At a clock of 73 a rounded DTZ of 27 may be 28: a win or a cursed win.
    zermelo()
        .args(["tb", "probe", "8/8/8/8/8/2k5/8/K6R w - - 73 1"])
        .args(["--tables", text(&s)])
        .assert()
        .success()
        .stdout(contains("category  maybe-win (halfmove clock 73)"));
    zermelo()
        .args(["tb", "line", "--metric", "dtz", KRK, "--tables", text(&s)])
        .assert()
        .success()
        .stdout(contains("Rc8#"))
        .stdout(contains("checkmate"));
    // The census from Syzygy's files counts what zermelo's own table counts.
    let z = generated("KRvK");
    let theirs = zermelo()
        .args([
            "tb",
            "stats",
            "KRvK",
            "--format",
            "json",
            "--tables",
            text(&s),
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ours = zermelo()
        .args(["tb", "stats", "KRvK", "--format", "json", "--tables"])
        .arg(z.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let theirs: serde_json::Value = serde_json::from_slice(&theirs).unwrap();
    let ours: serde_json::Value = serde_json::from_slice(&ours).unwrap();
    assert_eq!(theirs["source"], "syzygy");
    for side in ["white", "black"] {
        for key in ["win", "cursed_win", "draw", "blessed_loss", "lose"] {
            assert_eq!(theirs[side][key], ours[side][key], "{side} {key}");
        }
        assert!(theirs[side]["longest_dtm_win"].is_null());
    }
}

/// zermelo's DTZ and DTM where its tables are, Syzygy's for the rest, with the directories
/// given as a `:` list or the flag repeated.
#[test]
fn both_kinds_of_tables_answer_together() {
    let z = generated("KRvK");
    let both = format!("{}:{}", text(z.path()), text(&examples()));
    for args in [
        vec!["--tables", &both],
        vec!["--tables", text(z.path()), "--tables", text(&examples())],
    ] {
        zermelo()
            .args(["tb", "probe", KRK])
            .args(&args)
            .assert()
            .success()
            .stdout(contains(
                "dtz       27 (27 plies to a capture, pawn move or mate)\n",
            ))
            .stdout(contains("dtm       27 plies, 14 moves"));
    }
    // KQvK only in Syzygy's files: DTZ without DTM.
    zermelo()
        .args([
            "tb",
            "probe",
            "8/8/8/8/8/2k5/8/K6Q w - - 0 1",
            "--tables",
            &both,
        ])
        .assert()
        .success()
        .stdout(contains("dtm       - (no DTM table"));
    zermelo()
        .args(["tb", "probe", KRK, "--tables", "nowhere:elsewhere"])
        .assert()
        .code(2)
        .stderr(contains("--tables nowhere: not a directory"));
}

#[test]
fn verify_against_agrees_and_finds_damage() {
    let z = generated("KPvK");
    let s = copy_of_examples();
    zermelo()
        .args([
            "tb",
            "verify",
            "--against",
            text(s.path()),
            "--tables",
            text(z.path()),
        ])
        .assert()
        .success()
        .stdout(contains("KPvK: 165676 positions agree"))
        .stdout(contains(
            "5 materials, 367868 positions: Syzygy's tables in",
        ));
    // Bytes flipped in the data of Syzygy's KRvK DTZ file: its checksum no longer matches
    // (exit 2, the file named) ...
    let path = s.path().join("KRvK.rtbz");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    for k in (n - 400..n - 16).step_by(37) {
        bytes[k] ^= 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    zermelo()
        .args([
            "tb",
            "verify",
            "--against",
            text(s.path()),
            "--tables",
            text(z.path()),
        ])
        .args(["KRvK", "KQvK"])
        .assert()
        .code(2)
        .stderr(contains("KRvK.rtbz"))
        .stderr(contains("checksum"));
    // ... and with the checksum made to match again, the values it gives are found wrong.
    let sum = zermelo_chess::syzygy::syzygy_checksum(&bytes[..n - 16]);
    bytes[n - 16..].copy_from_slice(&sum);
    std::fs::write(&path, bytes).unwrap();
    zermelo()
        .args([
            "tb",
            "verify",
            "--against",
            text(s.path()),
            "--tables",
            text(z.path()),
        ])
        .args(["KRvK", "KQvK"])
        .assert()
        .code(1)
        .stdout(contains("KQvK: 46137 positions agree"))
        .stdout(contains(
            "KRvK: DIFFERENT: 0 classes and 265 DTZ of 50015 positions differ",
        ))
        .stdout(contains("zermelo win dtz"))
        .stdout(contains("1 of 2 materials differ"));
    // zermelo's table of another material at KRvK's name, or one with a byte flipped: refused,
    // named (exit 2).
    let zdz = z.path().join("KRvK.zdz");
    let good = std::fs::read(&zdz).unwrap();
    std::fs::copy(z.path().join("KQvK.zdz"), &zdz).unwrap();
    zermelo()
        .args([
            "tb",
            "verify",
            "--against",
            text(&examples()),
            "--tables",
            text(z.path()),
        ])
        .arg("KRvK")
        .assert()
        .code(2)
        .stderr(contains("KRvK.zdz"))
        .stderr(contains("holds KQvK"));
    let mut flipped = good.clone();
    let k = flipped.len() / 2;
    flipped[k] ^= 0x10;
    std::fs::write(&zdz, flipped).unwrap();
    zermelo()
        .args([
            "tb",
            "verify",
            "--against",
            text(&examples()),
            "--tables",
            text(z.path()),
        ])
        .arg("KRvK")
        .assert()
        .code(2)
        .stderr(contains("KRvK.zdz"));
    // A material one side lacks, named: exit 2.
    zermelo()
        .args([
            "tb",
            "verify",
            "--against",
            text(&examples()),
            "--tables",
            text(z.path()),
        ])
        .arg("KQvKR")
        .assert()
        .code(2)
        .stderr(contains("KQvKR.zdz"));
}

/// Every published 3-4-piece file against zermelo's tables of every 3-4-piece material, where
/// the set is kept (`../shared/syzygy-3-4`; CI keeps it there).
#[test]
fn verify_against_the_published_3_4_piece_set() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy-3-4");
    if !dir.join("KQvKR.rtbw").is_file() {
        eprintln!("skipped: no Syzygy 3-4-piece set at {}", dir.display());
        return;
    }
    let z = tempfile::tempdir().unwrap();
    zermelo()
        .args(["-q", "tb", "gen", "--all", "4", "--tables", text(z.path())])
        .assert()
        .success();
    // Pawns on both sides, and a pawnless table of two minor pieces (every material, 3.6 x
    // 10^7 positions, takes minutes: docs/benchmarks/chess.md).
    zermelo()
        .args([
            "tb",
            "verify",
            "--against",
            text(&dir),
            "--tables",
            text(z.path()),
        ])
        .args(["KPvKP", "KBvKN"])
        .assert()
        .success()
        .stdout(contains("2 materials"));
}

/// A damaged, foreign or unreadable Syzygy file at a table's name: exit 2, the file named;
/// never a panic or a wrong value.
#[test]
fn damaged_syzygy_files_are_errors_naming_them() {
    let s = copy_of_examples();
    let path = s.path().join("KRvK.rtbw");
    let good = std::fs::read(&path).unwrap();
    let probe = |expect: &str| {
        zermelo()
            .args(["tb", "probe", KRK, "--tables", text(s.path())])
            .assert()
            .code(2)
            .stderr(contains("KRvK.rtbw"))
            .stderr(contains(expect.to_string()));
    };
    let mut bad = good.clone();
    bad[..4].copy_from_slice(&[0x55, 0x8d, 0xa4, 0x49]);
    std::fs::write(&path, &bad).unwrap();
    probe("atomic chess");
    bad[..4].copy_from_slice(&[1, 2, 3, 4]);
    std::fs::write(&path, &bad).unwrap();
    probe("bad magic number");
    std::fs::write(&path, &good[..good.len() - 20]).unwrap();
    probe("truncated");
    std::fs::write(&path, &good[..100]).unwrap();
    probe("Syzygy");
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    probe("a directory");
    std::fs::remove_dir(&path).unwrap();
    if std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .is_ok_and(|s| s.success())
    {
        probe("FIFO");
    }
}
