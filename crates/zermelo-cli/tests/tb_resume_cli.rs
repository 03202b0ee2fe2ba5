//! `zermelo tb gen` killed with SIGKILL in the middle of a table, started again with the same
//! command, resumes from its checkpoint in `DIR/.work` and writes the same bytes as an
//! uninterrupted run: a pawnless table (one group) and a pawn table killed after some of its
//! groups of pawn configurations are in the values file.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use tempfile::TempDir;

fn gen(material: &str, tables: &Path) -> Command {
    let mut cmd = Command::cargo_bin("zermelo").unwrap();
    cmd.args([
        "--quiet",
        "tb",
        "gen",
        material,
        "--checkpoint-every",
        "0",
        "--tables",
    ])
    .arg(tables);
    cmd
}

/// How many groups the group count file says are finished (0 if it cannot be read yet).
fn groups_done(path: &Path) -> u32 {
    std::fs::read(path)
        .ok()
        .filter(|b| b.len() == 16)
        .map_or(0, |b| u32::from_le_bytes(b[8..12].try_into().unwrap()))
}

/// Generates `material` without interruption, then again killed once the engine has a
/// checkpoint and `kill_at` groups are finished, then resumed; the resumed table must equal
/// the uninterrupted one. `dtz`: kill while its DTZ table (`.zdz`, work name
/// `<material>.dtz`) is being generated, after the DTM table is written.
fn killed_and_resumed(material: &str, kill_at: u32, dtz: bool) {
    let name = if dtz {
        format!("{material}.dtz")
    } else {
        material.to_string()
    };
    let dir = TempDir::new().unwrap();
    let reference = dir.path().join("reference");
    let status = gen(material, &reference)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let file = format!("{material}.{}", if dtz { "zdz" } else { "zct" });
    let expected = std::fs::read(reference.join(&file)).unwrap();

    let tables = dir.path().join("killed");
    let work = tables.join(".work");
    let state = work.join(&name).join("checkpoint.zck");
    let groups = work.join(format!("{name}.groups"));
    let mut child = gen(material, &tables)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once the table has a checkpoint at `kill_at` (its dependencies are done then).
    let start = Instant::now();
    while !(state.exists() && groups_done(&groups) >= kill_at)
        && start.elapsed() < Duration::from_secs(300)
    {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(100));
    let killed = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    if killed {
        assert!(
            state.exists() || groups_done(&groups) > 0,
            "a killed run leaves its checkpoint"
        );
        assert!(!tables.join(&file).exists());
    }
    let out = gen(material, &tables).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(tables.join(&file)).unwrap(), expected);
    assert!(
        !work.join(&name).exists() && !groups.exists(),
        "the checkpoint is deleted once the table is written"
    );
    let values = tables.join(".work").join(format!("{name}.values"));
    assert!(!values.exists(), "so is the values file");
}

#[test]
fn tb_gen_killed_with_sigkill_resumes_and_writes_the_same_bytes() {
    killed_and_resumed("KQvKR", 0, false);
}

#[test]
fn a_dtz_table_killed_with_sigkill_resumes_and_writes_the_same_bytes() {
    killed_and_resumed("KQvKR", 0, true);
    killed_and_resumed("KRvKP", 3, true);
}

#[test]
fn a_pawn_table_killed_after_some_groups_resumes_and_writes_the_same_bytes() {
    killed_and_resumed("KRvKP", 3, false);
}

#[test]
fn a_damaged_work_folder_is_a_clear_error() {
    let dir = TempDir::new().unwrap();
    let tables = dir.path();
    let work = tables.join(".work");
    // The engine's checkpoint of the group being solved.
    std::fs::create_dir_all(work.join("KQvK")).unwrap();
    std::fs::write(work.join("KQvK/checkpoint.zck"), b"not a checkpoint at all").unwrap();
    let out = gen("KQvK", tables).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("checkpoint.zck"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!tables.join("KQvK.zct").exists());
    // The count of finished groups of a pawn table.
    std::fs::remove_dir_all(&work).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("KPvK.groups"), [7u8; 16]).unwrap();
    let out = gen("KPvK", tables).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("KPvK.groups: damaged"), "{stderr}");
}

#[test]
fn a_mapped_state_writes_the_same_table() {
    let dir = TempDir::new().unwrap();
    let (heap, mapped) = (dir.path().join("heap"), dir.path().join("mapped"));
    for (tables, extra) in [(&heap, None), (&mapped, Some("--mapped"))] {
        let mut cmd = gen("KPvK", tables);
        cmd.args(extra);
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for m in ["KPvK", "KQvK", "KRvK"] {
        let file = format!("{m}.zct");
        assert_eq!(
            std::fs::read(heap.join(&file)).unwrap(),
            std::fs::read(mapped.join(&file)).unwrap(),
            "{m}"
        );
    }
    assert!(
        !mapped.join(".work/KPvK").exists(),
        "the state file goes with the work folder"
    );
}
