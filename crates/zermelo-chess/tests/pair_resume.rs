//! Issue 42, point 4: a `generate_pair` resumed from its work folder seeds its DTZ group from the
//! starts the killed run recorded there (`<material>.dtz.starts`), rather than computing them
//! all again (KRBvKR killed at 70%: the DTZ run took 30.3 s instead of 8.0 s), and what is
//! damaged in that log is computed again, never trusted. The tables stay byte-identical.

use std::os::unix::fs::FileExt;
use std::path::Path;

use zermelo_chess::{generate_pair, GenOptions, Material, Pair, StartCounts, Table, Tablebase};

/// The log's header (magic, fingerprint, entry count, flags, CRC-32), before the entries.
const HEADER: u64 = 32;
/// Entries per run, each with its CRC.
const RUN: u64 = 1 << 14;

/// Every table `m` depends on, both metrics, in memory.
fn dependencies(m: &Material) -> Tablebase {
    let tb = Tablebase::in_memory();
    for d in Material::generation_order(std::slice::from_ref(m)) {
        if d != *m {
            let pair = generate_pair(&d, &tb, &Default::default(), &GenOptions::default()).unwrap();
            tb.insert(pair.dtm);
            tb.insert(pair.dtz);
        }
    }
    tb
}

fn bytes(t: &Table) -> Vec<u8> {
    let mut out = Vec::new();
    t.write_to(&mut out).unwrap();
    out
}

/// Generates the pair with `work` as its work folder, checkpoints at every layer.
fn run(m: &Material, tb: &Tablebase, work: &Path) -> Pair {
    let options = GenOptions {
        work_dir: Some(work.to_path_buf()),
        checkpoint_interval: std::time::Duration::ZERO,
        ..GenOptions::default()
    };
    generate_pair(m, tb, &Default::default(), &options).unwrap()
}

/// As a kill during the DTZ group's seeding leaves the work folder: the finished DTM table
/// (kept there until the job writes it out, its checkpoint removed: a resumed run neither
/// solves nor writes it again) and the log, but no DTZ checkpoint.
fn killed_before_the_dtz_checkpoint(work: &Path, m: &Material) {
    std::fs::remove_dir_all(work.join(format!("{m}.dtz"))).unwrap();
    assert!(work.join(format!("{m}.finished.zct")).exists());
    assert!(
        !work.join(m.to_string()).exists(),
        "the DTM checkpoint goes"
    );
}

#[test]
fn a_resumed_pair_reads_the_recorded_dtz_starts_and_recomputes_what_is_damaged() {
    let m: Material = "KRvKB".parse().unwrap();
    let tb = dependencies(&m);
    let reference = generate_pair(&m, &tb, &Default::default(), &GenOptions::default()).unwrap();
    let (dtm, dtz) = (bytes(&reference.dtm), bytes(&reference.dtz));
    let n = reference.dtm.size();
    let all = reference.dtz_starts;
    assert_eq!(all.replayed + all.computed, n);
    assert!(all.computed < n / 1000, "{all:?}");
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let log = work.join(format!("{m}.dtz.starts"));
    let same = |pair: &Pair, what: &str| {
        assert!(bytes(&pair.dtm) == dtm, "{what}: DTM");
        assert!(bytes(&pair.dtz) == dtz, "{what}: DTZ");
    };
    let pair = run(&m, &tb, work);
    same(&pair, "in a work folder");
    assert_eq!(pair.dtz_starts, all);
    assert!(log.exists(), "a work file, until the table's work files go");

    // Resumed: every start read back (before the log was kept, none was: 30.3 s for 8.0 s).
    killed_before_the_dtz_checkpoint(work, &m);
    let pair = run(&m, &tb, work);
    same(&pair, "resumed");
    assert_eq!(
        pair.dtz_starts, all,
        "resumed: the recorded starts are read"
    );

    // A bit flipped in an entry: its run (and only it) is computed again.
    killed_before_the_dtz_checkpoint(work, &m);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&log)
        .unwrap();
    let at = HEADER + 2 * (5 * RUN + 123);
    let mut b = [0u8];
    file.read_exact_at(&mut b, at).unwrap();
    file.write_all_at(&[b[0] ^ 0x20], at).unwrap();
    let pair = run(&m, &tb, work);
    same(&pair, "a damaged run");
    let StartCounts { replayed, computed } = pair.dtz_starts;
    assert!(
        (RUN..=all.computed + RUN).contains(&computed) && replayed + computed == n,
        "a damaged run: {:?}",
        pair.dtz_starts
    );

    // The kept DTM table damaged: removed and made again (its solve records the starts
    // again, so none is computed by the DTZ seeding).
    killed_before_the_dtz_checkpoint(work, &m);
    let kept = work.join(format!("{m}.finished.zct"));
    let len = std::fs::metadata(&kept).unwrap().len();
    let table = std::fs::OpenOptions::new().write(true).open(&kept).unwrap();
    table.write_all_at(&[0x55; 4], len / 2).unwrap();
    drop(table);
    let pair = run(&m, &tb, work);
    same(&pair, "a damaged DTM table in the work folder");
    assert_eq!(pair.dtz_starts, all);
    // Not a regular file: refused, not opened.
    killed_before_the_dtz_checkpoint(work, &m);
    std::fs::remove_file(&kept).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &kept).unwrap();
    let options = GenOptions {
        work_dir: Some(work.to_path_buf()),
        ..GenOptions::default()
    };
    let e = generate_pair(&m, &tb, &Default::default(), &options).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    std::fs::remove_file(&kept).unwrap();
    let pair = run(&m, &tb, work);
    same(&pair, "after the link was removed");

    // Truncated: not trusted at all, the DTZ group seeded as without a log (nothing replayed).
    killed_before_the_dtz_checkpoint(work, &m);
    let size = std::fs::metadata(&log).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&log)
        .unwrap()
        .set_len(size - 3)
        .unwrap();
    let pair = run(&m, &tb, work);
    same(&pair, "a truncated log");
    assert_eq!(pair.dtz_starts.replayed, 0);
    // The DTZ checkpoint is the DTZ run's own resume: no seeding at all.
    let pair = run(&m, &tb, work);
    same(&pair, "from the last checkpoints");
    assert_eq!(pair.dtz_starts, StartCounts::default());
    zermelo_chess::discard_checkpoint(work, &m, reference.dtz.metric()).unwrap();
    assert!(!log.exists(), "removed with the DTZ table's work files");
}

/// A pawn table killed after its DTM group k was finished but before its DTZ group k was: the
/// resumed DTZ group replays the log the DTM group left (it was seeded without one before).
#[test]
fn a_dtz_group_behind_its_finished_dtm_group_replays_its_log() {
    let m: Material = "KPvK".parse().unwrap();
    let tb = dependencies(&m);
    let reference = generate_pair(&m, &tb, &Default::default(), &GenOptions::default()).unwrap();
    let resume = |keep_log: bool| {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path();
        let stopped = GenOptions {
            work_dir: Some(work.to_path_buf()),
            stop_after_groups: Some(2),
            ..GenOptions::default()
        };
        assert!(generate_pair(&m, &tb, &Default::default(), &stopped).is_err());
        // The DTZ group count set back from 2 to 1 (magic, fingerprint, count, a CRC-32 per
        // group, the CRC-32 of it all; see checkpoint.rs), as a kill between the two groups 2
        // would have left it.
        let groups = work.join(format!("{m}.dtz.groups"));
        let b = std::fs::read(&groups).unwrap();
        assert_eq!(&b[..8], b"ZRMGRP02");
        assert_eq!(u32::from_le_bytes(b[16..20].try_into().unwrap()), 2);
        let mut one = b[..24].to_vec();
        one[16..20].copy_from_slice(&1u32.to_le_bytes());
        let crc = crc32fast::hash(&one);
        one.extend_from_slice(&crc.to_le_bytes());
        std::fs::write(&groups, one).unwrap();
        if !keep_log {
            std::fs::remove_file(work.join(format!("{m}.dtz.starts"))).unwrap();
        }
        let resumed = GenOptions {
            stop_after_groups: None,
            ..stopped
        };
        let pair = generate_pair(&m, &tb, &Default::default(), &resumed).unwrap();
        assert!(bytes(&pair.dtm) == bytes(&reference.dtm), "DTM");
        assert!(bytes(&pair.dtz) == bytes(&reference.dtz), "DTZ");
        pair.dtz_starts
    };
    // Without its log, group 1 is seeded from scratch (and not counted: nothing replayed).
    let without = resume(false);
    let with = resume(true);
    assert!(with.replayed > without.replayed, "{with:?} vs {without:?}");
    assert!(with.computed <= reference.dtz_starts.computed, "{with:?}");
}
