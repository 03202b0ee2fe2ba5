//! `zermelo tb gen` on a disk too small (issue 42): a table whose work files cannot fit is
//! refused at once, a disk that runs full stops the run with exit 1 naming the file, what the
//! job needed and what was free, and the same command run again once space is freed goes on
//! and writes the bytes of a run on a roomy disk.
//!
//! The small disks are tmpfs mounts in a mount namespace of the test's own (`unshare`: root,
//! or a user namespace), so that nothing outside the test sees them; where neither is allowed
//! the test says so and passes. The library's tests check the same errors without a mount
//! (zermelo-chess: `job.rs`, `disk.rs`, `starts.rs`).

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;

/// What the script below prints on standard output, per step: `<step>=<exit code>`.
const SCRIPT: &str = r#"
set -u
D="$1"; Z="$2"; OUT="$3"
mount -t tmpfs -o size=3m tmpfs "$D" || exit 0
echo mounted
"$Z" -q tb gen KQvKR --tables "$D/t" > /dev/null 2> "$OUT/refused.err"; echo "refused=$?"
ls -A "$D/t" > "$OUT/refused.ls" 2>/dev/null
umount "$D"
mount -t tmpfs -o size=24m tmpfs "$D"
head -c 14M /dev/zero > "$D/filler"
"$Z" -q tb gen KQvKR --tables "$D/t" --checkpoint-every 0 > /dev/null 2> "$OUT/full.err"; echo "full=$?"
rm "$D/filler"
"$Z" -q tb gen KQvKR --tables "$D/t" --checkpoint-every 0 > /dev/null 2> "$OUT/rerun.err"; echo "rerun=$?"
cp "$D/t/KQvKR.zct" "$D/t/KQvKR.zdz" "$OUT/"
ls -A "$D/t/.work" > "$OUT/work.ls"
umount "$D"
"#;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn a_full_disk_is_exit_1_with_the_space_needed_and_the_rerun_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let (mount, out, roomy) = (
        tmp.path().join("mount"),
        tmp.path().join("out"),
        tmp.path().join("roomy"),
    );
    std::fs::create_dir_all(&mount).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let zermelo = cargo_bin("zermelo");
    let run = Command::new("unshare")
        .args(["--map-root-user", "--mount", "sh", "-c", SCRIPT, "sh"])
        .arg(&mount)
        .arg(&zermelo)
        .arg(&out)
        .output();
    let stdout = match &run {
        Ok(o) => String::from_utf8_lossy(&o.stdout).into_owned(),
        Err(_) => String::new(),
    };
    if !stdout.contains("mounted") {
        eprintln!("skipped: no tmpfs could be mounted in a namespace of this test ({run:?})");
        return;
    }
    let steps: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(steps, ["refused=1", "full=1", "rerun=0"], "{run:?}");

    // 3 MiB: the DTZ starts alone take 6.67 MiB; refused before anything is made.
    let refused = read(&out.join("refused.err"));
    assert!(
        refused.contains("KQvKR: its work files need at least 6.67 MiB on the disk of ")
            && refused.contains("3.00 MiB is free there; free some space"),
        "{refused}"
    );
    assert_eq!(read(&out.join("refused.ls")).trim(), "", "nothing made");

    // 10 MiB free: the disk fills; the file, the need and the space free are named.
    let full = read(&out.join("full.err"));
    let line = full.lines().last().unwrap_or_default();
    assert!(
        line.starts_with("zermelo: error: ")
            && line.contains("/t/")
            && line.contains(": No space left on device (os error 28): the disk is full; ")
            && line.contains("generating KQvKR needs ")
            && line.contains(" free there); free some space"),
        "{full}"
    );

    // Space freed: the same command goes on, and writes what a roomy disk gets.
    let roomy_run = Command::new(&zermelo)
        .args(["-q", "tb", "gen", "KQvKR", "--tables"])
        .arg(&roomy)
        .output()
        .unwrap();
    assert!(roomy_run.status.success(), "{roomy_run:?}");
    for name in ["KQvKR.zct", "KQvKR.zdz"] {
        let a = std::fs::read(out.join(name)).unwrap();
        let b = std::fs::read(roomy.join(name)).unwrap();
        assert!(a == b, "{name} differs after the disk ran full");
    }
    assert_eq!(read(&out.join("work.ls")).trim(), "", "work folder emptied");
}
