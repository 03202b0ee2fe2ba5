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

/// How many groups the group count file says are finished (0 if it cannot be read yet): magic
/// `ZRMGRP02`, the table's fingerprint (`u64`), the count (`u32`), a CRC-32 per group and one of
/// the whole (docs in zermelo-chess's `checkpoint.rs`). Until November 2026 this read the
/// former 16-byte file, never saw a group finished, and the pawn table was never killed.
fn groups_done(path: &Path) -> u32 {
    std::fs::read(path)
        .ok()
        .filter(|b| b.len() >= 24 && &b[..8] == b"ZRMGRP02")
        .map_or(0, |b| u32::from_le_bytes(b[16..20].try_into().unwrap()))
}

/// `tb gen` without checkpoints: the uninterrupted runs the killed ones are compared with, and
/// the runs that resume them.
fn gen_plain(material: &str, tables: &Path) {
    let out = Command::cargo_bin("zermelo")
        .unwrap()
        .args(["--quiet", "tb", "gen", material, "--tables"])
        .arg(tables)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tb gen {material}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The tables the killed runs resume to, generated once without interruption: KQvKR (one
/// group), KRvKP (a pawn table) and every table they depend on. Each scenario copies the
/// dependencies into a folder of its own, so that only the killed table is generated there.
struct Reference {
    dir: TempDir,
}

impl Reference {
    fn new() -> Reference {
        let dir = TempDir::new().unwrap();
        for material in ["KQvKR", "KRvKP"] {
            gen_plain(material, dir.path());
        }
        Reference { dir }
    }

    /// The reference bytes of `file`.
    fn read(&self, file: &str) -> Vec<u8> {
        std::fs::read(self.dir.path().join(file)).unwrap()
    }

    /// A new folder `name` in `parent` holding every reference table except `material`'s.
    fn dependencies_of(&self, material: &str, parent: &Path, name: &str) -> std::path::PathBuf {
        let tables = parent.join(name);
        std::fs::create_dir_all(&tables).unwrap();
        for entry in std::fs::read_dir(self.dir.path()).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_str().unwrap();
            if path.is_file() && stem != material {
                std::fs::copy(&path, tables.join(path.file_name().unwrap())).unwrap();
            }
        }
        tables
    }
}

/// Generates `material` killed with SIGKILL once the engine has a checkpoint and `kill_at`
/// groups are finished, then resumed; the resumed table must equal the reference. `dtz`: kill
/// while its DTZ table (`.zdz`, work name `<material>.dtz`) is being generated (both tables
/// are generated together, group by group: a pawnless table's DTM table is written by then, a
/// pawn table's not).
fn killed_and_resumed(reference: &Reference, material: &str, kill_at: u32, dtz: bool) {
    let name = if dtz {
        format!("{material}.dtz")
    } else {
        material.to_string()
    };
    let file = format!("{material}.{}", if dtz { "zdz" } else { "zct" });
    let expected = reference.read(&file);
    let dir = TempDir::new().unwrap();
    let tables = reference.dependencies_of(material, dir.path(), "killed");
    let work = tables.join(".work");
    let state = work.join(&name).join("checkpoint.zck");
    let groups = work.join(format!("{name}.groups"));
    let mut child = gen(material, &tables)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once the table has a checkpoint at `kill_at`.
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
    assert!(
        killed,
        "{name}: the run finished before the kill (a test that checks nothing)"
    );
    assert!(
        state.exists() || groups_done(&groups) > 0,
        "{name}: a killed run leaves its checkpoint"
    );
    let starts = work.join(format!("{material}.dtz.starts"));
    if kill_at == 0 && !dtz {
        // Killed in its DTM layers, so after its seeding: every DTZ start is in the work
        // folder for the resumed run (issue 42: they were in memory, lost with the process,
        // and KRBvKR's resumed DTZ run took 30.3 s for 8.0 s).
        let (runs, written) = starts_recorded(&starts);
        assert!(
            runs > 0 && written == runs,
            "{written} of {runs} runs recorded"
        );
    }
    assert!(!tables.join(&file).exists());
    gen_plain(material, &tables);
    assert_eq!(
        std::fs::read(tables.join(&file)).unwrap(),
        expected,
        "{name}: resumed"
    );
    assert!(
        !work.join(&name).exists() && !groups.exists(),
        "the checkpoint is deleted once the table is written"
    );
    let values = tables.join(".work").join(format!("{name}.values"));
    assert!(!values.exists(), "so is the values file");
    assert!(!starts.exists(), "and the DTZ starts of the last group");
}

/// How many runs of 16,384 DTZ starts a start log has, and how many of them are recorded: magic
/// `ZMSTRT01`, fingerprint, entry count (`u64`), flags, CRC-32 (32 bytes), the entries (`u16`),
/// then per run a `u64` with bit 32 set once the run is written (zermelo-chess's `starts.rs`).
fn starts_recorded(path: &Path) -> (u64, u64) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..8], b"ZMSTRT01", "{}", path.display());
    let len = u64::from_le_bytes(b[16..24].try_into().unwrap());
    let runs = len.div_ceil(1 << 14);
    assert_eq!(b.len() as u64, 32 + 2 * len + 8 * runs);
    let slots = &b[(32 + 2 * len) as usize..];
    let written = slots
        .chunks_exact(8)
        .filter(|s| u64::from_le_bytes((*s).try_into().unwrap()) >> 32 == 1)
        .count() as u64;
    (runs, written)
}

/// One test, so that the reference tables are generated once: a pawnless table (one group)
/// killed in its DTM and in its DTZ table, a pawn table killed after some of its groups are in
/// the values file (DTM, then DTZ), and a table killed while seeding.
#[test]
fn tb_gen_killed_with_sigkill_resumes_and_writes_the_same_bytes() {
    let reference = Reference::new();
    killed_and_resumed(&reference, "KQvKR", 0, false);
    killed_and_resumed(&reference, "KQvKR", 0, true);
    killed_and_resumed(&reference, "KRvKP", 3, false);
    killed_and_resumed(&reference, "KRvKP", 3, true);
    killed_while_seeding(&reference);
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

/// Runs `tb gen KPvK` until 2 of its groups are finished (the hidden test flag stops it there,
/// as a kill would), in `tables`.
fn stopped_after_two_groups(tables: &Path) {
    let out = gen("KPvK", tables)
        .args(["--stop-after-groups", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("stopped after 2 groups"), "{stderr}");
}

fn expect_refusal(tables: &Path, needle: &str) {
    let out = gen("KPvK", tables).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(needle), "{stderr}");
    assert!(
        !tables.join("KPvK.zct").exists(),
        "no table from a damaged work folder"
    );
}

/// Issue 22: a `.groups` file rewritten with a valid CRC and a huge count, or flipped bytes in
/// `.values`, gave a wrong table and exit 0.
#[test]
fn a_rewritten_group_count_or_damaged_values_are_refused_never_a_wrong_table() {
    let dir = TempDir::new().unwrap();
    let reference = dir.path().join("reference");
    assert!(gen("KPvK", &reference).output().unwrap().status.success());
    let expected = std::fs::read(reference.join("KPvK.zct")).unwrap();

    let tables = dir.path().join("t");
    let work = tables.join(".work");
    let groups = work.join("KPvK.groups");
    stopped_after_two_groups(&tables);
    let good = std::fs::read(&groups).unwrap();
    assert_eq!(&good[..8], b"ZRMGRP02");
    // A huge count with a valid CRC (the file's own format, and the former one).
    let mut huge = good[..good.len() - 4].to_vec();
    huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
    let crc = crc32fast::hash(&huge);
    huge.extend_from_slice(&crc.to_le_bytes());
    std::fs::write(&groups, &huge).unwrap();
    expect_refusal(&tables, "finished groups recorded");
    let mut old = b"ZRMGROUP".to_vec();
    old.extend_from_slice(&1000u32.to_le_bytes());
    let crc = crc32fast::hash(&old);
    old.extend_from_slice(&crc.to_le_bytes());
    std::fs::write(&groups, &old).unwrap();
    expect_refusal(&tables, "KPvK.groups: written by an older zermelo");
    // A file far larger than any count: refused by its size before it is read.
    std::fs::write(&groups, vec![0u8; 1 << 20]).unwrap();
    expect_refusal(&tables, "KPvK.groups: damaged: 1048576 bytes");
    // Flipped bytes in the values of a finished group.
    std::fs::write(&groups, &good).unwrap();
    let values = work.join("KPvK.values");
    let mut v = std::fs::read(&values).unwrap();
    let nonzero = v.iter().rposition(|&b| b != 0 && b != 255).unwrap();
    v[nonzero] ^= 0x5a;
    std::fs::write(&values, &v).unwrap();
    expect_refusal(&tables, "do not match their checksum");
    // The work folder's files of KPvK deleted, as the message says: the right table.
    for f in ["KPvK.groups", "KPvK.values"] {
        std::fs::remove_file(work.join(f)).unwrap();
    }
    assert!(gen("KPvK", &tables).output().unwrap().status.success());
    assert_eq!(std::fs::read(tables.join("KPvK.zct")).unwrap(), expected);
    // Undamaged, a stopped run resumes to the same bytes.
    let again = dir.path().join("again");
    stopped_after_two_groups(&again);
    assert!(gen("KPvK", &again).output().unwrap().status.success());
    assert_eq!(std::fs::read(again.join("KPvK.zct")).unwrap(), expected);
}

/// Issue 22: a FIFO named `checkpoint.zck` made `tb gen` hang; a symbolic link or a FIFO in
/// place of any work file is refused at once.
#[test]
fn work_files_that_are_not_regular_files_are_refused_not_opened() {
    let dir = TempDir::new().unwrap();
    let cases: [(&str, &str); 5] = [
        ("KQvK", "KQvK/checkpoint.zck"),
        ("KPvK", "KPvK.values"),
        ("KPvK", "KPvK.groups"),
        // The DTZ starts recorded while DTM and DTZ are generated together.
        ("KQvK", "KQvK.dtz.starts"),
        ("KPvK", "KPvK.dtz.starts"),
    ];
    for (i, (material, file)) in cases.into_iter().enumerate() {
        for kind in ["fifo", "symlink"] {
            let tables = dir.path().join(format!("{i}-{kind}"));
            let path = tables.join(".work").join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            if kind == "fifo" {
                let ok = Command::new("mkfifo").arg(&path).status().unwrap();
                assert!(ok.success());
            } else {
                std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
            }
            let mut child = gen(material, &tables)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let start = Instant::now();
            while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(20));
            }
            let finished = child.try_wait().unwrap().is_some();
            if !finished {
                child.kill().unwrap();
            }
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(finished, "{file} as a {kind}: hangs");
            assert_eq!(out.status.code(), Some(2), "{file} as a {kind}: {stderr}");
            assert!(stderr.contains("not a regular file"), "{stderr}");
        }
    }
}

/// Issue 22: an OS error of the work folder was printed three times.
#[test]
fn a_work_folder_os_error_is_printed_once() {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"").unwrap();
    let out = gen("KQvK", &dir.path().join("t"))
        .arg("--work-dir")
        .arg(file.join("work"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(stderr.matches("Not a directory").count(), 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Issue 22: a version-1 table too short to name its material: the command names it from the
/// file name.
#[test]
fn an_old_table_names_its_material_in_the_command_that_regenerates_it() {
    let dir = TempDir::new().unwrap();
    let mut v1 = b"ZRMCHESS".to_vec();
    v1.extend_from_slice(&1u32.to_le_bytes());
    std::fs::write(dir.path().join("KRvK.zct"), v1).unwrap();
    let out = Command::cargo_bin("zermelo")
        .unwrap()
        .args(["tb", "stats", "KRvK", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("regenerate with `zermelo tb gen KRvK`"),
        "{stderr}"
    );
}

/// How many indices a seeding checkpoint (`seed.zck`) says are seeded (0 if unreadable).
fn seeded(path: &Path) -> u64 {
    std::fs::read(path)
        .ok()
        .filter(|b| b.len() >= 52)
        .map_or(0, |b| u64::from_le_bytes(b[28..36].try_into().unwrap()))
}

/// Issue 22: `tb gen` killed during seeding (most of a pawnless table's run) started over.
/// Now seeding appends its cells every `--checkpoint-every` seconds: a run killed with
/// SIGKILL in the middle of seeding leaves them, and the next run resumes from there (a
/// damaged seeding checkpoint is refused, so it is really read) and writes the same bytes.
fn killed_while_seeding(reference: &Reference) {
    let dir = TempDir::new().unwrap();
    let expected = reference.read("KQvKR.zct");
    for attempt in 0..3 {
        // Its dependencies first, so that the kill lands in KQvKR's seeding.
        let tables = reference.dependencies_of("KQvKR", dir.path(), &format!("killed-{attempt}"));
        let seed = tables.join(".work/KQvKR/seed.zck");
        let layered = tables.join(".work/KQvKR/checkpoint.zck");
        let mut child = gen("KQvKR", &tables).stdout(Stdio::null()).spawn().unwrap();
        let start = Instant::now();
        while seeded(&seed) == 0 && start.elapsed() < Duration::from_secs(120) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let done = seeded(&seed);
        if done == 0 || layered.exists() || tables.join("KQvKR.zct").exists() {
            continue; // the kill came too late on a busy machine: try again
        }
        // A damaged seeding checkpoint is refused: the resume really reads it.
        let cells = tables.join(".work/KQvKR/seed.cells");
        let good = std::fs::read(&cells).unwrap();
        let mut bad = good.clone();
        bad[1] ^= 0x40;
        std::fs::write(&cells, &bad).unwrap();
        let out = gen("KQvKR", &tables).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("seed.cells: damaged: checksum mismatch"),
            "{stderr}"
        );
        std::fs::write(&cells, &good).unwrap();
        // Resumed: the same bytes, and the work folder cleaned.
        let out = gen("KQvKR", &tables).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(tables.join("KQvKR.zct")).unwrap(), expected);
        assert!(!tables.join(".work/KQvKR").exists());
        return;
    }
    panic!("no kill landed in the seeding of KQvKR in three attempts");
}
