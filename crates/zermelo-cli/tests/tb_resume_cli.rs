//! `zermelo tb gen` killed with SIGKILL in the middle of a table, started again with the same
//! command, resumes from its checkpoint in `DIR/.work` and writes the same bytes as an
//! uninterrupted run.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use tempfile::TempDir;

fn gen(tables: &Path) -> Command {
    let mut cmd = Command::cargo_bin("zermelo").unwrap();
    cmd.args([
        "--quiet",
        "tb",
        "gen",
        "KQvKR",
        "--checkpoint-every",
        "0",
        "--tables",
    ])
    .arg(tables);
    cmd
}

#[test]
fn tb_gen_killed_with_sigkill_resumes_and_writes_the_same_bytes() {
    let dir = TempDir::new().unwrap();
    let reference = dir.path().join("reference");
    let status = gen(&reference).stdout(Stdio::null()).status().unwrap();
    assert!(status.success());
    let expected = std::fs::read(reference.join("KQvKR.zct")).unwrap();

    let tables = dir.path().join("killed");
    let state = tables.join(".work").join("KQvKR.state");
    let mut child = gen(&tables).stdout(Stdio::null()).spawn().unwrap();
    // Kill it once KQvKR has a checkpoint (its dependencies are done by then).
    let start = Instant::now();
    while !state.exists() && start.elapsed() < Duration::from_secs(300) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let killed = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    if killed {
        assert!(state.exists(), "a killed run leaves its checkpoint");
        assert!(!tables.join("KQvKR.zct").exists());
    }
    let out = gen(&tables).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(tables.join("KQvKR.zct")).unwrap(), expected);
    assert!(
        !state.exists(),
        "the checkpoint is deleted once the table is written"
    );
}
