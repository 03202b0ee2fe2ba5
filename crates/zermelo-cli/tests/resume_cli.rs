//! The compact engine's work folder through the binary: a real `zermelo` process killed with
//! SIGKILL in the middle of a solve, started again with the same command, resumes from its
//! checkpoint and writes byte for byte what an uninterrupted run writes; memory limits refuse
//! up front with exit 3; a work folder of another game is refused with exit 2.

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use tempfile::TempDir;

/// An open `n` x `n` board, the policeman and the thief in opposite corners.
fn open_board(dir: &Path, n: usize) -> String {
    let mut text = format!("{n} {n}\n");
    for r in 0..n {
        for c in 0..n {
            text.push(match (r, c) {
                (0, 0) => 'P',
                _ if r == n - 1 && c == n - 1 => 'T',
                _ => '.',
            });
        }
        text.push('\n');
    }
    std::fs::write(dir.join("board.txt"), text).unwrap();
    "board.txt".to_string()
}

fn zermelo(dir: &Path, args: &[&str]) -> Process {
    let mut cmd = Process::cargo_bin("zermelo").unwrap();
    cmd.current_dir(dir)
        .args(["--quiet", "game", "police-thief"])
        .args(args);
    cmd
}

fn output(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = zermelo(dir, args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_run_killed_with_sigkill_resumes_and_writes_the_same_bytes() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let board = open_board(d, 28);
    let (code, reference, _) = output(d, &[&board, "--values", "ref.bin"]);
    assert_eq!(code, 0);
    let args = [
        board.as_str(),
        "--work-dir",
        "work",
        "--checkpoint-every",
        "0",
        "--values",
        "out.bin",
        "--stats",
    ];
    // Start, wait for the first checkpoint, and kill the process without warning.
    let mut child = zermelo(d, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let checkpoint = d.join("work/checkpoint.zck");
    let started = Instant::now();
    while !checkpoint.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before its first checkpoint"
        );
        assert!(started.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(20));
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    assert!(!d.join("out.bin").exists(), "no output from a killed run");
    assert!(checkpoint.exists());

    let (code, stdout, stderr) = output(d, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("resumed from the checkpoint at layer"),
        "{stderr}"
    );
    assert_eq!(stdout, reference);
    let (a, b) = (
        std::fs::read(d.join("ref.bin")).unwrap(),
        std::fs::read(d.join("out.bin")).unwrap(),
    );
    assert_eq!(a.len(), 2 * 2 * 784 * 784);
    assert!(a == b, "the resumed run's values differ");
    assert!(
        !checkpoint.exists(),
        "a finished run removes its checkpoint"
    );

    // The same with the state in a memory-mapped file.
    let mapped: Vec<&str> = args.iter().copied().chain(["--mapped"]).collect();
    let (code, stdout, stderr) = output(d, &mapped);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, reference);
    assert!(std::fs::read(d.join("out.bin")).unwrap() == a);
}

#[test]
fn a_work_folder_of_another_game_is_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let board = open_board(d, 12);
    let args = [
        board.as_str(),
        "--work-dir",
        "work",
        "--checkpoint-every",
        "0",
    ];
    // A checkpoint header with another fingerprint (all zeros), as another game would leave.
    std::fs::create_dir_all(d.join("work")).unwrap();
    let mut fake = b"ZMCKPT03".to_vec();
    fake.extend_from_slice(&[0u8; 64]);
    std::fs::write(d.join("work/checkpoint.zck"), fake).unwrap();
    let (code, _, stderr) = output(d, &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("another game"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn max_memory_refuses_up_front_with_the_estimate() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let board = open_board(d, 40);
    let (code, _, stderr) = output(d, &[&board]);
    assert_eq!(code, 0, "{stderr}");
    let out = zermelo(d, &[&board])
        .arg("--max-memory")
        .arg("1M")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("needs about"), "{stderr}");
    // The state in a file does not count against memory.
    let out = zermelo(d, &[&board, "--work-dir", "w", "--mapped"])
        .args(["--max-memory", "2M"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
