//! `zermelo solve --cluster` under faults (issue 22): a peer killed (SIGKILL, SIGTERM, SIGINT) or
//! stopped (SIGSTOP past `--peer-timeout`) in every phase ends every surviving process with exit
//! 4 and one line naming the peer and the phase, within seconds, and a rerun resumes to the same
//! bytes; stray connections are ignored; peers started for different jobs are refused (exit 2);
//! limits, unreadable inputs and damaged checkpoints get their documented exit codes.
//!
//! The phases are made long enough to be hit by the test hook `ZERMELO_CLUSTER_TEST_PAUSE=PHASE`
//! (`zermelo-cluster/src/mesh.rs`): a process entering the phase says so on standard error and
//! waits there until a failure is recorded.

use std::fs::File;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_zermelo");

fn free_ports(k: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..k)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// A fresh hosts file for `processes` processes; returns it and the addresses.
fn hosts_file(dir: &Path, processes: usize) -> (PathBuf, Vec<String>) {
    let path = dir.join("hosts");
    let addresses: Vec<String> = free_ports(processes)
        .iter()
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    std::fs::write(&path, addresses.join("\n") + "\n").unwrap();
    (path, addresses)
}

fn zermelo(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).arg("--quiet");
    c
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Process `i` of a 2-process job, its standard error going to `err`.
fn process(i: usize, hosts: &Path, args: &[&str], pause: Option<&str>, err: &Path) -> Child {
    let mut c = zermelo(args);
    c.args(["--cluster", "--processes", "2", "--process", &i.to_string()])
        .arg("--hosts")
        .arg(hosts)
        .stdout(Stdio::piped())
        .stderr(File::create(err).unwrap());
    if let Some(phase) = pause {
        c.env("ZERMELO_CLUSTER_TEST_PAUSE", phase);
    }
    c.spawn().unwrap()
}

/// Waits at most `limit` for `child`; kills it (by its id) and fails the test past that.
fn wait_within(child: Child, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output().unwrap()));
    match rx.recv_timeout(limit) {
        Ok(out) => (out, started.elapsed()),
        Err(_) => {
            signal(pid, "KILL");
            panic!("process {pid} did not end within {limit:?}");
        }
    }
}

fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

fn wait_for_line(path: &Path, needle: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(path).is_ok_and(|s| s.contains(needle)) {
        assert!(Instant::now() < deadline, "{needle:?} never came");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The user sees one error line, and no panic.
fn one_clean_line(stderr: &str) {
    let errors = stderr
        .lines()
        .filter(|l| l.starts_with("zermelo: error:"))
        .count();
    assert_eq!(errors, 1, "{stderr}");
    for word in ["panicked", "backtrace", "RUST_BACKTRACE", "poisoned"] {
        assert!(!stderr.contains(word), "{stderr}");
    }
}

/// The graph of the fault tests: a chain (one node decided per round) with a few cycles.
fn graph(dir: &Path) -> String {
    let path = dir.join("g.txt");
    let n = 400u32;
    let mut s = format!("{n} {}\n", n - 1 + 20);
    for u in 0..n - 1 {
        s.push_str(&format!("{u} {}\n", u + 1));
    }
    for k in 0..20 {
        s.push_str(&format!("{} {}\n", 3 * k + 1, 5 * k));
    }
    std::fs::write(&path, s).unwrap();
    path.display().to_string()
}

#[test]
fn a_peer_lost_in_any_phase_ends_the_others_with_exit_4_and_the_rerun_resumes() {
    let dir = TempDir::new().unwrap();
    let g = graph(dir.path());
    let want = zermelo(&["solve", &g, "--format", "csv"]).output().unwrap();
    assert!(want.status.success());
    let work = dir.path().join("work").display().to_string();
    let out = dir.path().join("s.csv");
    let o = out.display().to_string();
    // phase, victim, signal, what the survivor says the phase was
    let cases = [
        ("connecting", 1, "KILL", "while connecting"),
        ("loading", 0, "TERM", "while loading the graph"),
        ("round", 1, "INT", "while round 2"),
        ("round", 0, "KILL", "while round 2"),
        ("draws", 0, "INT", "while the draws phase"),
        ("gathering", 1, "TERM", "while gathering the solution"),
        ("gathering", 0, "KILL", "while gathering the solution"),
        (
            "writing",
            0,
            "KILL",
            "while waiting for process 0 to write the solution",
        ),
    ];
    for (phase, victim, sig, says) in cases {
        let _ = std::fs::remove_file(&out);
        let (hosts, addresses) = hosts_file(dir.path(), 2);
        let args = [
            "solve",
            &g,
            "--format",
            "csv",
            "-o",
            &o,
            "--work-dir",
            &work,
            "--checkpoint-every",
            "0",
        ];
        let err = |i: usize| dir.path().join(format!("err{i}"));
        let mut children: Vec<Option<Child>> = (0..2)
            .map(|i| Some(process(i, &hosts, &args, Some(phase), &err(i))))
            .collect();
        wait_for_line(&err(victim), &format!("process {victim} pauses"));
        let mut killed = children[victim].take().unwrap();
        signal(killed.id(), sig);
        let survivor = children[1 - victim].take().unwrap();
        let (output, took) = wait_within(survivor, Duration::from_secs(20));
        let _ = killed.wait();
        let stderr = std::fs::read_to_string(err(1 - victim)).unwrap();
        let case = format!("{phase}, process {victim} got SIG{sig}");
        assert_eq!(output.status.code(), Some(4), "{case}: {stderr}");
        assert!(took < Duration::from_secs(10), "{case}: {took:?}");
        one_clean_line(&stderr);
        let peer = format!("lost process {victim} ({})", addresses[victim]);
        assert!(
            stderr.contains(&peer) && stderr.contains(says),
            "{case}: {stderr}"
        );
        assert!(!out.exists(), "{case}: no output after a failure");
        // The same command again resumes from the checkpoints and gives the same bytes.
        let (hosts, _) = hosts_file(dir.path(), 2);
        let rerun: Vec<Child> = (0..2)
            .map(|i| process(i, &hosts, &args, None, &err(i)))
            .collect();
        for (i, child) in rerun.into_iter().enumerate() {
            let (output, _) = wait_within(child, Duration::from_secs(60));
            let stderr = std::fs::read_to_string(err(i)).unwrap();
            assert!(output.status.success(), "{case}: rerun: {stderr}");
        }
        assert_eq!(
            std::fs::read(&out).unwrap(),
            want.stdout,
            "{case}: rerun output"
        );
    }
}

#[test]
fn a_stopped_peer_is_lost_after_the_peer_timeout_and_fails_cleanly_when_resumed() {
    let dir = TempDir::new().unwrap();
    let g = graph(dir.path());
    let (hosts, addresses) = hosts_file(dir.path(), 2);
    let args = ["solve", &g, "--summary", "--peer-timeout", "1"];
    let err = |i: usize| dir.path().join(format!("err{i}"));
    let p0 = process(0, &hosts, &args, Some("round"), &err(0));
    let p1 = process(1, &hosts, &args, Some("round"), &err(1));
    wait_for_line(&err(1), "process 1 pauses");
    signal(p1.id(), "STOP");
    let (output, took) = wait_within(p0, Duration::from_secs(20));
    let stderr = std::fs::read_to_string(err(0)).unwrap();
    assert_eq!(output.status.code(), Some(4), "{stderr}");
    assert!(took < Duration::from_secs(8), "{took:?}");
    one_clean_line(&stderr);
    assert!(
        stderr.contains(&format!("lost process 1 ({})", addresses[1]))
            && stderr.contains("sent nothing for 1s")
            && stderr.contains("round 2"),
        "{stderr}"
    );
    // Resumed, the stopped process finds its peer gone: exit 4 too, no panic.
    signal(p1.id(), "CONT");
    let (output, _) = wait_within(p1, Duration::from_secs(20));
    let stderr = std::fs::read_to_string(err(1)).unwrap();
    assert_eq!(output.status.code(), Some(4), "{stderr}");
    one_clean_line(&stderr);
}

#[test]
fn stray_connections_during_start_up_are_ignored() {
    let dir = TempDir::new().unwrap();
    let g = graph(dir.path());
    let want = zermelo(&["solve", &g, "--format", "csv"]).output().unwrap();
    let (hosts, addresses) = hosts_file(dir.path(), 2);
    let args = ["solve", &g, "--format", "csv"];
    let err = |i: usize| dir.path().join(format!("err{i}"));
    let p0 = process(0, &hosts, &args, None, &err(0));
    // connect() + close(), garbage, and a silent connection, before process 1 comes.
    let deadline = Instant::now() + Duration::from_secs(30);
    let connect = || loop {
        match TcpStream::connect(&addresses[0]) {
            Ok(s) => break s,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("process 0 never listened: {e}"),
        }
    };
    drop(connect());
    connect()
        .write_all(b"GET / HTTP/1.0\r\n\r\nzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz")
        .unwrap();
    let _silent = connect();
    let p1 = process(1, &hosts, &args, None, &err(1));
    let (out0, _) = wait_within(p0, Duration::from_secs(60));
    let (out1, _) = wait_within(p1, Duration::from_secs(60));
    let stderr = std::fs::read_to_string(err(0)).unwrap();
    assert!(out0.status.success() && out1.status.success(), "{stderr}");
    assert_eq!(out0.stdout, want.stdout);
}

#[test]
fn a_peer_that_never_starts_is_waited_for_until_the_connect_timeout() {
    let dir = TempDir::new().unwrap();
    let g = graph(dir.path());
    let (hosts, addresses) = hosts_file(dir.path(), 2);
    for i in 0..2 {
        let args = ["solve", &g, "--summary", "--connect-timeout", "2"];
        let child = process(i, &hosts, &args, None, &dir.path().join("err"));
        let (output, took) = wait_within(child, Duration::from_secs(20));
        let stderr = std::fs::read_to_string(dir.path().join("err")).unwrap();
        assert_eq!(output.status.code(), Some(4), "{stderr}");
        assert!(took >= Duration::from_secs(2) && took < Duration::from_secs(8));
        one_clean_line(&stderr);
        assert!(stderr.contains(&addresses[1 - i]), "{stderr}");
        assert!(stderr.contains("within 2s (--connect-timeout)"), "{stderr}");
    }
}

#[test]
fn peers_started_for_different_jobs_are_refused_naming_the_difference() {
    let dir = TempDir::new().unwrap();
    let g = graph(dir.path());
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "400 1\n0 1\n").unwrap();
    let o = other.display().to_string();
    let verdicts = dir.path().join("v.txt");
    std::fs::write(&verdicts, "7 draw\n").unwrap();
    let v = verdicts.display().to_string();
    let cases: [(&[&str], &[&str], &str); 4] = [
        (
            &["solve", &g, "--misere"],
            &["solve", &g],
            "process 0 was started with --misere, process 1 without",
        ),
        (
            &["solve", &g, "--workers", "2"],
            &["solve", &g, "--workers", "1"],
            "--workers 2",
        ),
        (&["solve", &g], &["solve", &o], "reads an input of"),
        (
            &["solve", &g, "--summary"],
            &["solve", &g, "--verdicts", &v],
            "other --verdicts",
        ),
    ];
    for (first, second, says) in cases {
        let (hosts, _) = hosts_file(dir.path(), 2);
        let err = |i: usize| dir.path().join(format!("err{i}"));
        let p0 = process(0, &hosts, first, None, &err(0));
        let p1 = process(1, &hosts, second, None, &err(1));
        for (i, p) in [p0, p1].into_iter().enumerate() {
            let (output, _) = wait_within(p, Duration::from_secs(30));
            let stderr = std::fs::read_to_string(err(i)).unwrap();
            assert_eq!(output.status.code(), Some(2), "{first:?}: {stderr}");
            one_clean_line(&stderr);
            assert!(stderr.contains(says), "{first:?} vs {second:?}: {stderr}");
        }
    }
}

#[test]
fn limits_and_unusable_inputs_fail_fast_with_their_exit_codes() {
    let dir = TempDir::new().unwrap();
    let write = |name: &str, s: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, s).unwrap();
        path.display().to_string()
    };
    let good = write("good.txt", "2 1\n0 1\n");
    let million = write("million.txt", "1000000 1\n0 1\n");
    let billion = write("billion.txt", "1000000000 1\n0 1\n");
    let hosts = write("hosts", "127.0.0.1:1\n");
    let folder = dir.path().display().to_string();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo = fifo.display().to_string();
    let one = ["--cluster", "--processes", "1", "--process", "0", "--hosts"];
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["solve", &good, "--workers", "4294967296"],
            2,
            "--workers",
        ),
        (
            vec!["solve", &good, "--workers", "18446744073709551615"],
            2,
            "--workers",
        ),
        (vec!["solve", &good, "--workers", "1000"], 2, "per core"),
        (
            vec!["solve", &good, "--peer-timeout", "18446744073709551615"],
            2,
            "--peer-timeout",
        ),
        (vec!["solve", "/dev/zero"], 2, "regular file"),
        (vec!["solve", "-"], 2, "standard input"),
        (vec!["solve", &fifo], 2, "FIFO"),
        (vec!["solve", "/no/such/file"], 5, "No such file"),
        (vec!["solve", &folder], 5, "directory"),
        (
            vec!["solve", &million, "--max-memory", "20M"],
            3,
            "--max-memory",
        ),
        (
            vec!["solve", &billion, "--max-memory", "1G"],
            3,
            "--max-memory",
        ),
    ];
    for (args, code, says) in cases {
        let started = Instant::now();
        let child = zermelo(&args)
            .args(one)
            .arg(&hosts)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (out, _) = wait_within(child, Duration::from_secs(10));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(5), "{args:?}");
    }
    // A hosts file that never ends is refused at once.
    let out = zermelo(&["solve", &good])
        .args(one)
        .arg("/dev/zero")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("longer than"));
}

#[test]
fn a_damaged_checkpoint_is_bad_input() {
    let dir = TempDir::new().unwrap();
    let g = graph(dir.path());
    let work = dir.path().join("work");
    let w = work.display().to_string();
    let (hosts, _) = hosts_file(dir.path(), 2);
    let args = [
        "solve",
        &g,
        "--summary",
        "--work-dir",
        &w,
        "--checkpoint-every",
        "0",
    ];
    let err = |i: usize| dir.path().join(format!("err{i}"));
    let p0 = process(0, &hosts, &args, Some("round"), &err(0));
    let p1 = process(1, &hosts, &args, Some("round"), &err(1));
    wait_for_line(&err(1), "process 1 pauses");
    wait_for_line(&err(0), "process 0 pauses");
    signal(p1.id(), "KILL");
    let _ = wait_within(p0, Duration::from_secs(20));
    let _ = wait_within(p1, Duration::from_secs(20));
    // Flip a byte past the header of every checkpoint.
    for entry in std::fs::read_dir(&work).unwrap().flatten() {
        let mut bytes = std::fs::read(entry.path()).unwrap();
        bytes[44] ^= 1;
        let mut f = File::create(entry.path()).unwrap();
        f.write_all(&bytes).unwrap();
    }
    let (hosts, _) = hosts_file(dir.path(), 2);
    let p0 = process(0, &hosts, &args, None, &err(0));
    let p1 = process(1, &hosts, &args, None, &err(1));
    let (out, _) = wait_within(p0, Duration::from_secs(20));
    let _ = wait_within(p1, Duration::from_secs(20));
    let stderr = std::fs::read_to_string(err(0)).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("damaged checkpoint"), "{stderr}");
}

#[test]
fn workers_default_to_the_cores_shared_by_the_processes_of_a_host() {
    let dir = TempDir::new().unwrap();
    let g = graph(dir.path());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "127.0.0.1:1\n").unwrap();
    let out = zermelo(&["solve", &g, "--summary", "--stats"])
        .args(["--cluster", "--processes", "1", "--process", "0", "--hosts"])
        .arg(&hosts)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("1 processes x {cores} workers")),
        "{stderr}"
    );
}

/// Process 0 used to exit right after writing a small solution while another process still
/// waited for its last progress messages, which then never came: that process hung (about 1 run
/// in 9 with 4 processes x 2 workers). Process 0 now waits until every process's workers are
/// done.
#[test]
fn no_process_is_left_waiting_when_process_0_finishes_fast() {
    let dir = TempDir::new().unwrap();
    let g = dir.path().join("g.txt");
    std::fs::write(&g, "6 7\n0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n1 4\n").unwrap();
    let g = g.display().to_string();
    for _ in 0..12 {
        let path = dir.path().join("hosts");
        let lines: String = free_ports(4)
            .iter()
            .map(|p| format!("127.0.0.1:{p}\n"))
            .collect();
        std::fs::write(&path, lines).unwrap();
        let children: Vec<Child> = (0..4)
            .rev()
            .map(|i| {
                zermelo(&["solve", &g, "--format", "csv", "--workers", "2"])
                    .args(["--cluster", "--processes", "4", "--process", &i.to_string()])
                    .arg("--hosts")
                    .arg(&path)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let (out, _) = wait_within(child, Duration::from_secs(30));
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
    }
}
