//! `tb gen` out of core (issue 42): a 5-piece table whose solver's state (236 MB; 293 MiB of
//! peak in memory) is well over the memory allowed (144 MiB) is generated with its state
//! streamed from the work folder, stays under the limit, and writes the same bytes as the run in
//! memory.

use assert_cmd::Command;

fn zermelo() -> Command {
    Command::cargo_bin("zermelo").unwrap()
}

/// The peak memory a `--stats` line reports, in MiB.
fn peak_mib(stderr: &str) -> f64 {
    let line = stderr
        .lines()
        .rfind(|l| l.contains("peak memory"))
        .unwrap_or_else(|| panic!("no stats line in {stderr}"));
    let text = line.rsplit("peak memory ").next().unwrap();
    text.trim_end_matches(" MiB").parse().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_table_over_the_memory_allowed_streams_and_writes_the_same_bytes() {
    const MATERIAL: &str = "KQQvKQ";
    const LIMIT_MIB: f64 = 144.0;
    let memory = tempfile::tempdir().unwrap();
    let out = zermelo()
        .args(["-q", "tb", "gen", MATERIAL, "--stats", "--tables"])
        .arg(memory.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("work folder"), "{stderr}");
    let in_memory = peak_mib(&stderr);

    // The smaller tables as they are; the table itself out of core.
    let core = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(memory.path()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if path.is_file() && !name.starts_with(&format!("{MATERIAL}.")) {
            std::fs::copy(&path, core.path().join(&name)).unwrap();
        }
    }
    let out = zermelo()
        .args([
            "-q",
            "--max-memory",
            "144M",
            "tb",
            "gen",
            MATERIAL,
            "--stats",
        ])
        .arg("--tables")
        .arg(core.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("its state is kept in the work folder"),
        "{stderr}"
    );
    let streamed = peak_mib(&stderr);
    assert!(
        streamed <= LIMIT_MIB,
        "peak {streamed} MiB over the limit of {LIMIT_MIB} MiB (in memory: {in_memory} MiB)"
    );
    assert!(in_memory > 1.5 * LIMIT_MIB, "in memory: {in_memory} MiB");
    for ext in ["zct", "zdz"] {
        let name = format!("{MATERIAL}.{ext}");
        let a = std::fs::read(memory.path().join(&name)).unwrap();
        let b = std::fs::read(core.path().join(&name)).unwrap();
        assert!(a == b, "{name} differs out of core");
    }
    // The work folder holds nothing once the tables are written.
    let work = core.path().join(".work");
    let left: Vec<_> = std::fs::read_dir(&work)
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left in the work folder: {left:?}");
}
