//! `zermelo solve --cluster`: 2-4 real processes on 127.0.0.1 (free ports), compared byte for
//! byte with the single-process `zermelo solve`; a killed process (error, then resume from the
//! checkpoints); peers that never come; bad input.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_zermelo");

/// Ports that were free a moment ago.
fn free_ports(k: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..k)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

fn hosts_file(dir: &Path, processes: usize) -> PathBuf {
    let path = dir.join("hosts");
    let text: String = free_ports(processes)
        .iter()
        .map(|p| format!("127.0.0.1:{p}\n"))
        .collect();
    std::fs::write(&path, text).unwrap();
    path
}

fn zermelo(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).arg("--quiet");
    c
}

/// Starts processes `processes-1 .. 0` of a cluster solve.
fn start(processes: usize, hosts: &Path, args: &[&str]) -> Vec<Child> {
    (0..processes)
        .rev()
        .map(|i| {
            zermelo(args)
                .args(["--cluster", "--processes", &processes.to_string()])
                .args(["--process", &i.to_string(), "--hosts"])
                .arg(hosts)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .rev()
        .collect()
}

/// Waits for every process, reading its output meanwhile (killing all after a minute):
/// outputs in process order.
fn finish(children: Vec<Child>) -> Vec<Output> {
    let pids: Vec<u32> = children.iter().map(Child::id).collect();
    let waits: Vec<_> = children
        .into_iter()
        .map(|c| {
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || tx.send(c.wait_with_output().unwrap()));
            rx
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    waits
        .iter()
        .map(|rx| {
            let left = deadline.saturating_duration_since(Instant::now());
            rx.recv_timeout(left).unwrap_or_else(|_| {
                for pid in &pids {
                    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
                }
                panic!("a cluster process hung");
            })
        })
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % bound
    }
}

/// A random graph with cycles, self-loops, repeated moves and terminals.
fn random_graph(rng: &mut Rng) -> String {
    let n = 2 + rng.below(200);
    let edges: Vec<(u64, u64)> = (0..rng.below(3 * n))
        .map(|_| (rng.below(n), rng.below(n)))
        .filter(|&(u, _)| u % 6 != 0)
        .collect();
    let mut s = format!("{n} {}\n", edges.len());
    for (u, v) in edges {
        s.push_str(&format!("{u} {v}\n"));
    }
    s
}

#[test]
fn equals_single_process_solve_on_random_graphs() {
    let dir = TempDir::new().unwrap();
    let graph = dir.path().join("g.txt");
    let verdicts = dir.path().join("v.txt");
    let mut rng = Rng(5);
    for case in 0..8u64 {
        let g = random_graph(&mut rng);
        let n: u64 = g.split_whitespace().next().unwrap().parse().unwrap();
        std::fs::write(&graph, &g).unwrap();
        let mut args = vec!["solve".to_string(), graph.display().to_string()];
        args.extend(
            ["--format", ["table", "csv", "json"][case as usize % 3]]
                .iter()
                .map(|s| s.to_string()),
        );
        if case % 2 == 1 {
            args.push("--misere".into());
        }
        if case % 4 >= 2 {
            let v = format!("{} draw\n{} win\n{} lose\n", n - 1, n / 2, n / 3);
            std::fs::write(&verdicts, v).unwrap();
            args.extend(["--verdicts".into(), verdicts.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let want = zermelo(&args).output().unwrap();
        assert!(want.status.success(), "{}", text(&want.stderr));
        let processes = 2 + (case as usize % 3);
        let workers = (1 + case % 2).to_string();
        let hosts = hosts_file(dir.path(), processes);
        let mut cluster_args = args.clone();
        cluster_args.extend(["--workers", &workers]);
        let outputs = finish(start(processes, &hosts, &cluster_args));
        for (i, out) in outputs.iter().enumerate() {
            assert!(
                out.status.success(),
                "case {case} process {i}: {}",
                text(&out.stderr)
            );
            if i > 0 {
                assert!(out.stdout.is_empty(), "only process 0 writes the solution");
            }
        }
        assert_eq!(
            text(&outputs[0].stdout),
            text(&want.stdout),
            "case {case}: {processes} processes x {workers} workers, {args:?}"
        );
    }
}

/// Only process 0 writes, so the other processes may be given other output flags: whether best
/// moves are derived is agreed (any process asks, all do), and the output is still exact.
#[test]
fn processes_with_other_output_flags_agree() {
    let dir = TempDir::new().unwrap();
    let graph = dir.path().join("g.txt");
    std::fs::write(&graph, random_graph(&mut Rng(9))).unwrap();
    let g = graph.display().to_string();
    for (first, others) in [
        (&["--format", "csv"][..], &["--summary"][..]),
        (&["--summary"][..], &["--format", "json"][..]),
    ] {
        let want = zermelo(&[&["solve", &g][..], first].concat())
            .output()
            .unwrap();
        let hosts = hosts_file(dir.path(), 3);
        let children: Vec<Child> = (0..3usize)
            .rev()
            .map(|i| {
                zermelo(&[&["solve", &g][..], if i == 0 { first } else { others }].concat())
                    .args(["--cluster", "--processes", "3", "--process", &i.to_string()])
                    .arg("--hosts")
                    .arg(&hosts)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut outputs = finish(children);
        outputs.reverse();
        for out in &outputs {
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
        assert_eq!(text(&outputs[0].stdout), text(&want.stdout), "{first:?}");
    }
}

#[test]
fn verify_accepts_the_output_and_binary_formats_round_trip() {
    let dir = TempDir::new().unwrap();
    let graph = dir.path().join("g.txt");
    let zg = dir.path().join("g.zg");
    std::fs::write(&graph, random_graph(&mut Rng(9))).unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let ok = |mut c: Command| {
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    ok(zermelo(&["convert", &p("g.txt"), &p("g.zg")]));
    ok(zermelo(&["solve", &p("g.txt"), "-o", &p("want.zs")]));
    let hosts = hosts_file(dir.path(), 3);
    // A .zg input, a .zs output written by process 0 alone.
    let outs = finish(start(3, &hosts, &["solve", &p("g.zg"), "-o", &p("got.zs")]));
    assert!(
        outs.iter().all(|o| o.status.success()),
        "{}",
        text(&outs[0].stderr)
    );
    assert_eq!(
        std::fs::read(dir.path().join("got.zs")).unwrap(),
        std::fs::read(dir.path().join("want.zs")).unwrap()
    );
    // CSV with best moves, checked by the certificate verifier.
    let outs = finish(start(
        2,
        &hosts,
        &["solve", &p("g.txt"), "--format", "csv", "-o", &p("s.csv")],
    ));
    assert!(
        outs.iter().all(|o| o.status.success()),
        "{}",
        text(&outs[1].stderr)
    );
    ok(zermelo(&["verify", &p("g.txt"), &p("s.csv")]));
    assert!(zg.exists());
}

#[test]
fn a_killed_process_stops_the_others_and_the_rerun_resumes() {
    let dir = TempDir::new().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    // A chain: one node decided per round, so the job runs long enough to be killed mid-way.
    let out = zermelo(&["gen", "chain", "--nodes", "1500", "-o", &p("chain.txt")])
        .output()
        .unwrap();
    assert!(out.status.success());
    let want = zermelo(&["solve", &p("chain.txt"), "--format", "csv"])
        .output()
        .unwrap();
    let hosts = hosts_file(dir.path(), 2);
    let args = [
        "solve",
        &p("chain.txt"),
        "--format",
        "csv",
        "--stats",
        "--work-dir",
        &p("work"),
        "--checkpoint-every",
        "0",
    ];
    let mut children = start(2, &hosts, &args);
    // Wait for checkpoints of both workers past round 100, then kill process 1.
    let deadline = Instant::now() + Duration::from_secs(60);
    let past = |w: u32| {
        std::fs::read_dir(dir.path().join("work")).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                let name = e.file_name().into_string().unwrap_or_default();
                name.starts_with(&format!("w{w:05}-r"))
                    && name.ends_with(".ckpt")
                    && name[8..18].parse::<u64>().is_ok_and(|r| r > 100)
            })
        })
    };
    while !(past(0) && past(1)) {
        assert!(Instant::now() < deadline, "no checkpoints appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
    children[1].kill().unwrap();
    let outputs = finish(children);
    let survivor = &outputs[0];
    assert_eq!(
        survivor.status.code(),
        Some(4),
        "{}",
        text(&survivor.stderr)
    );
    let message = text(&survivor.stderr);
    assert!(message.contains("lost process 1 (127.0.0.1:"), "{message}");
    assert!(survivor.stdout.is_empty());
    // The rerun resumes from a checkpoint and gives the single-process answer.
    let hosts = hosts_file(dir.path(), 2);
    let outputs = finish(start(2, &hosts, &args[..7]));
    assert!(outputs[0].status.success(), "{}", text(&outputs[0].stderr));
    assert_eq!(text(&outputs[0].stdout), text(&want.stdout));
    let stats = text(&outputs[0].stderr);
    let resumed: u64 = stats
        .split("resumed from round ")
        .nth(1)
        .and_then(|s| s.split(';').next())
        .and_then(|s| s.parse().ok())
        .expect("--stats names the round it resumed from");
    assert!(resumed > 100, "{stats}");
    // A finished job leaves no checkpoints behind.
    assert_eq!(
        std::fs::read_dir(dir.path().join("work")).unwrap().count(),
        0
    );
}

#[test]
fn a_peer_that_never_comes_times_out() {
    let dir = TempDir::new().unwrap();
    let graph = dir.path().join("g.txt");
    std::fs::write(&graph, "2 1\n0 1\n").unwrap();
    let hosts = hosts_file(dir.path(), 2);
    let out = zermelo(&["solve"])
        .arg(&graph)
        .args(["--cluster", "--processes", "2", "--process", "0", "--hosts"])
        .arg(&hosts)
        .args(["--connect-timeout", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let message = text(&out.stderr);
    assert!(
        message.contains("process 1 (127.0.0.1:") && message.contains("did not connect within 1s"),
        "{message}"
    );
}

#[test]
fn bad_input_is_named_with_exit_2() {
    let dir = TempDir::new().unwrap();
    let write = |name: &str, s: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, s).unwrap();
        path.display().to_string()
    };
    let bad = write("bad.txt", "3 2\n0 1\n1 7\n");
    let json = write("g.json", "{\"nodes\": 1, \"edges\": []}");
    let good = write("good.txt", "2 1\n0 1\n");
    let hosts = write("hosts", "127.0.0.1:1\n");
    let bad_hosts = write("bad_hosts", "127.0.0.1:1\nlocalhost\n");
    let run = |args: &[&str]| zermelo(args).output().unwrap();
    let cluster = ["--cluster", "--processes", "1", "--process", "0", "--hosts"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            [&["solve", &bad][..], &cluster, &[&hosts]].concat(),
            "bad.txt:3",
        ),
        (
            [&["solve", &json][..], &cluster, &[&hosts]].concat(),
            "edge lists and .zg",
        ),
        (
            vec![
                "solve",
                &good,
                "--cluster",
                "--processes",
                "2",
                "--process",
                "0",
                "--hosts",
                &bad_hosts,
            ],
            "bad_hosts:2: expected host:port",
        ),
        (
            vec![
                "solve",
                &good,
                "--cluster",
                "--processes",
                "2",
                "--process",
                "2",
                "--hosts",
                &hosts,
            ],
            "must be below --processes 2",
        ),
    ];
    for (args, expected) in cases {
        let out = run(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(expected),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // The cluster flags without --cluster are a usage error.
    let out = run(&["solve", &good, "--processes", "2"]);
    assert_eq!(out.status.code(), Some(2));
}
