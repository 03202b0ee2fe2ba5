//! `zermelo tb plan` (Makefile, Slurm script, JSON) and the per-table locks of `tb gen`:
//! the Makefile of every 3-piece table run with `make -j2` writes the same bytes as
//! `tb gen --all 3`; the Slurm script submits one job per table after the jobs it needs; two
//! `tb gen` in one folder never build one table twice, the second waits or refuses.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use zermelo_chess::{Acquire, Material, TableLock};

fn zermelo() -> Command {
    Command::cargo_bin("zermelo").unwrap()
}

fn bin_dir() -> PathBuf {
    let exe = assert_cmd::cargo::cargo_bin("zermelo");
    exe.parent().unwrap().to_path_buf()
}

fn plan(args: &[&str]) -> String {
    let out = zermelo().args(["tb", "plan"]).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The table files of a folder with their bytes, by name.
fn tables_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".zct") || n.ends_with(".zdz"))
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect();
    out.sort();
    out
}

fn gen_all_3(dir: &Path) {
    let status = zermelo()
        .args(["-q", "tb", "gen", "--all", "3", "--tables"])
        .arg(dir)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn the_makefile_of_the_3_piece_tables_run_with_make_j2_writes_the_bytes_of_tb_gen_all_3() {
    if !have("make") {
        eprintln!("skipped: no `make` on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("reference");
    gen_all_3(&reference);
    let tables = dir.path().join("made");
    let makefile = plan(
        &["--all", "3", "--format", "make", "--tables"]
            .into_iter()
            .chain([tables.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    std::fs::write(dir.path().join("Makefile"), &makefile).unwrap();
    // `zermelo` from PATH, as the Makefile says.
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("make")
        .args(["-j2", "-C"])
        .arg(dir.path())
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let made = tables_in(&tables);
    assert_eq!(made.len(), 10, "5 DTM and 5 DTZ tables");
    assert_eq!(made, tables_in(&reference));
    // Nothing left behind: no lock, no work.
    assert!(std::fs::read_dir(&tables)
        .unwrap()
        .flatten()
        .all(|e| !e.file_name().to_string_lossy().ends_with(".lock")));
    // Done is done: a second make generates nothing.
    let again = Command::new("make")
        .args(["-j2", "-C"])
        .arg(dir.path())
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(again.status.success());
    assert!(
        !String::from_utf8_lossy(&again.stdout).contains("tb gen"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
}

/// A stand-in for `sbatch --parsable`: checks that every job named in `--dependency=afterok:`
/// was submitted before, records `id job-name deps mem | command` and prints a new job id.
const FAKE_SBATCH: &str = r#"#!/bin/sh
log="$FAKE_LOG"
n=$(( $(wc -l < "$log") + 1001 ))
name=; deps=; wrap=; mem=
for a in "$@"; do
  case "$a" in
    --job-name=*) name=${a#--job-name=} ;;
    --mem=*) mem=${a#--mem=} ;;
    --dependency=afterok:*) deps=${a#--dependency=afterok:} ;;
    --wrap=*) wrap=${a#--wrap=} ;;
  esac
done
for d in $(echo "$deps" | tr ':' ' '); do
  grep -q "^$d " "$log" || { echo "unknown job $d" >&2; exit 1; }
done
echo "$n $name $deps $mem | $wrap" >> "$log"
echo "$n;cluster"
"#;

#[test]
fn the_slurm_script_submits_each_table_after_the_jobs_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("shared tables");
    let script = plan(&[
        "KPvK",
        "--format",
        "slurm",
        "--tables",
        tables.to_str().unwrap(),
    ]);
    let sbatch = dir.path().join("sbatch");
    std::fs::write(&sbatch, FAKE_SBATCH).unwrap();
    let log = dir.path().join("log");
    let run = |log: &Path| {
        std::fs::write(log, "").unwrap();
        let out = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .env("SBATCH", format!("sh {}", sbatch.display()))
            .env("FAKE_LOG", log)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(log).unwrap()
    };
    let jobs = run(&log);
    let lines: Vec<&str> = jobs.lines().collect();
    assert_eq!(lines.len(), 5, "{jobs}");
    let id_of = |name: &str| -> String {
        lines
            .iter()
            .find(|l| l.split(' ').nth(1) == Some(&format!("tb-{name}")))
            .map(|l| l.split(' ').next().unwrap().to_string())
            .unwrap_or_else(|| panic!("no job for {name}: {jobs}"))
    };
    let kpk = lines.iter().find(|l| l.contains(" tb-KPvK ")).unwrap();
    let deps = kpk.split(' ').nth(2).unwrap();
    let mut deps: Vec<&str> = deps.split(':').collect();
    deps.sort();
    let mut want: Vec<String> = ["KQvK", "KRvK", "KBvK", "KNvK"].map(id_of).to_vec();
    want.sort();
    assert_eq!(deps, want, "{jobs}");
    // The command runs `zermelo` on the (quoted) shared folder, limited to the plan's
    // memory, and the job asks for 256 MB more than that: `tb gen` decides in memory or out
    // of core as the plan did, not from 3/4 of the job's cgroup.
    let (job, command) = kpk.split_once(" | ").unwrap();
    let limit = command
        .strip_prefix(&format!(
            "zermelo tb gen KPvK --tables '{}' --max-memory ",
            tables.display()
        ))
        .and_then(|rest| rest.strip_suffix("M "))
        .unwrap_or_else(|| panic!("{kpk}"));
    let limit: u64 = limit.parse().unwrap();
    assert!(limit > 0, "{kpk}");
    assert!(job.ends_with(&format!(" {}M", limit + 256)), "{kpk}");
    // Tables already there are skipped, and nothing waits for them.
    std::fs::create_dir_all(&tables).unwrap();
    for f in ["KQvK.zct", "KQvK.zdz"] {
        std::fs::write(tables.join(f), b"").unwrap();
    }
    let jobs = run(&log);
    assert_eq!(jobs.lines().count(), 4, "{jobs}");
    assert!(!jobs.contains("tb-KQvK"), "{jobs}");
    let kpk = jobs.lines().find(|l| l.contains(" tb-KPvK ")).unwrap();
    assert_eq!(
        kpk.split(' ').nth(2).unwrap().split(':').count(),
        3,
        "{kpk}"
    );
}

#[test]
fn the_json_plan_lists_tables_dependencies_and_commands() {
    let text = plan(&["--all", "4", "--format", "json", "--tables", "/shared/tb"]);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tables = doc["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 35);
    let mut seen = Vec::new();
    for t in tables {
        let m = t["material"].as_str().unwrap().to_string();
        let material: Material = m.parse().unwrap();
        let deps: Vec<String> = t["depends_on"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect();
        let want: Vec<String> = material
            .successors()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(deps, want, "{m}");
        assert!(
            deps.iter().all(|d| seen.contains(d)),
            "{m} before its dependencies"
        );
        assert_eq!(
            t["command"],
            serde_json::json!(["zermelo", "tb", "gen", m, "--tables", "/shared/tb"])
        );
        seen.push(m);
    }
    assert_eq!(
        doc["waves"][0].as_array().unwrap().len(),
        4,
        "{}",
        doc["waves"]
    );
}

/// Issue 42, point 6: every table comes with its estimated memory, disk and time on this kind
/// of machine, out of core where the limit is below its state.
#[test]
fn the_plan_estimates_memory_disk_and_time_in_and_out_of_core() {
    let run = |limit: &str| -> serde_json::Value {
        let out = zermelo()
            .args([
                "--max-memory",
                limit,
                "--threads",
                "2",
                "tb",
                "plan",
                "KQQvKRR",
            ])
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (roomy, tight) = (run("18G"), run("6G"));
    let last = |d: &serde_json::Value| d["tables"].as_array().unwrap().last().unwrap().clone();
    let (a, b) = (last(&roomy), last(&tight));
    assert_eq!(a["material"], "KQQvKRR");
    assert_eq!(a["indices"], 3_092_692_680u64);
    assert_eq!(a["out_of_core"], false);
    assert_eq!(b["out_of_core"], true);
    assert_eq!(b["memory_bytes"], 6u64 << 30);
    assert_eq!(tight["machine"]["memory_bytes"], 6u64 << 30);
    assert_eq!(tight["machine"]["threads"], 2);
    let f = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap();
    // Out of core the state file is its own seeding checkpoint: no more disk than in memory.
    assert!(f(&b, "seconds") > f(&a, "seconds") && f(&b, "disk_bytes") == f(&a, "disk_bytes"));
    assert!(f(&a, "disk_bytes") > f(&a, "file_bytes"));
    // One machine, table after table: the total is the sum.
    let sum: f64 = roomy["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| f(t, "seconds"))
        .sum();
    assert!((f(&roomy["total"], "seconds") - sum).abs() < 1.0 + sum * 1e-3);
    // The Makefile and the Slurm script carry them as comments and a time limit.
    let make = plan(&["KQvKR"]);
    assert!(make.contains("# KQvKR: 3494568 indices, about "), "{make}");
    let slurm = plan(&["KQvKR", "--format", "slurm"]);
    assert!(slurm.contains("--time=\"$minutes\""), "{slurm}");
}

#[test]
fn a_folder_make_cannot_name_is_refused() {
    zermelo()
        .args(["tb", "plan", "--all", "3", "--tables", "my tables"])
        .assert_failure_code(2, "make cannot name files");
}

trait AssertFailure {
    fn assert_failure_code(&mut self, code: i32, needle: &str);
}

impl AssertFailure for Command {
    fn assert_failure_code(&mut self, code: i32, needle: &str) {
        let out = self.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_table_locked_by_another_process_is_waited_for_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let kqk: Material = "KQvK".parse().unwrap();
    let Acquire::Acquired(lock) = TableLock::try_acquire(dir.path(), &kqk).unwrap() else {
        panic!("a fresh folder is free");
    };
    // --no-wait: refused, naming the holder.
    zermelo()
        .args(["tb", "gen", "KQvK", "--no-wait", "--tables"])
        .arg(dir.path())
        .assert_failure_code(
            1,
            &format!("KQvK is being generated by process {}", std::process::id()),
        );
    // A table that depends on it (KPvK needs KQvK) waits too, with a message.
    let mut child = zermelo()
        .args(["tb", "gen", "KPvK", "--tables"])
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !dir.path().join("KRvK.zdz").exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    assert!(child.try_wait().unwrap().is_none(), "waits for KQvK");
    assert!(!dir.path().join("KQvK.zct").exists());
    drop(lock);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("zermelo: KQvK is being generated by process")
            && stderr.contains("waiting for it"),
        "{stderr}"
    );
    assert!(dir.path().join("KPvK.zdz").exists());
}

#[test]
fn two_tb_gen_in_one_folder_both_succeed_and_write_each_table_once() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("reference");
    gen_all_3(&reference);
    let tables = dir.path().join("shared");
    let spawn = || {
        zermelo()
            .args(["tb", "gen", "KPvK", "--tables"])
            .arg(&tables)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let mut generated = 0;
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(!stderr.contains("No such file"), "{stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        generated += stdout.lines().filter(|l| l.contains(" bytes, ")).count();
    }
    assert_eq!(
        generated, 10,
        "each of the 10 tables generated by one of the two"
    );
    assert_eq!(tables_in(&tables), tables_in(&reference));
}

/// A table that `tb gen` refuses under a memory limit even out of core is planned as not
/// fitting (JSON `fits`, a comment in the Makefile), and one it takes out of core as fitting:
/// under 6 GiB, KQBvKRN (six different pieces: both compressed tables stay in memory) and
/// KQQvKRR (generated in a 6 GiB cgroup, BENCHMARKS.md).
#[test]
fn the_plan_says_which_tables_tb_gen_refuses_under_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    let out = zermelo()
        .args(["--max-memory", "6G", "tb", "plan", "KQBvKRN", "KQQvKRR"])
        .args(["--format", "json", "--tables", tables])
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let table = |m: &str| {
        doc["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["material"] == m)
            .unwrap()
            .clone()
    };
    let (refused, taken) = (table("KQBvKRN"), table("KQQvKRR"));
    assert_eq!(refused["fits"], false, "{refused}");
    assert!(refused["least_memory_bytes"].as_u64().unwrap() > 6 << 30);
    assert_eq!(taken["fits"], true, "{taken}");
    assert_eq!(taken["out_of_core"], true, "{taken}");
    let make = String::from_utf8(
        zermelo()
            .args([
                "--max-memory",
                "6G",
                "tb",
                "plan",
                "KQBvKRN",
                "--tables",
                tables,
            ])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(make.contains("# KQBvKRN DOES NOT FIT"), "{make}");
    assert!(!make.contains("# KRvKN DOES NOT FIT"), "{make}");
    // `tb gen` refuses it at once, before making any of the tables it needs.
    let gen = zermelo()
        .args([
            "--max-memory",
            "6G",
            "tb",
            "gen",
            "KQBvKRN",
            "--tables",
            tables,
        ])
        .output()
        .unwrap();
    assert_eq!(gen.status.code(), Some(3));
    assert!(tables_in(dir.path()).is_empty());
}
