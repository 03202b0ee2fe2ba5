//! The table file format v3: every codec round-trips, and hostile files (truncated, bit flips,
//! absurd sizes, wrong material, old versions, blocks that decode wrong behind valid
//! checksums) are clear errors, never a panic.

use zermelo_chess::{
    generate, verify, Codec, Material, Position, Table, TableError, Tablebase, WriteOptions,
};

/// Generates `target` and its dependencies in memory.
fn build(target: &str) -> (Tablebase, Material) {
    let tb = Tablebase::in_memory();
    let m: Material = target.parse().unwrap();
    for dep in Material::generation_order(std::slice::from_ref(&m)) {
        let t = generate(&dep, &tb, &Default::default()).unwrap();
        tb.insert(t);
    }
    (tb, m)
}

fn bytes_of(table: &Table, options: &WriteOptions) -> Vec<u8> {
    let mut bytes = Vec::new();
    let n = table.write_with(&mut bytes, options).unwrap();
    assert_eq!(n, bytes.len() as u64);
    bytes
}

const CODECS: [Codec; 4] = [
    Codec::Raw,
    Codec::Zstd(1),
    Codec::Zstd(19),
    Codec::RunLength,
];

#[test]
fn every_codec_round_trips_values_stats_and_verification() {
    for name in ["KRvK", "KPvK"] {
        let (tb, m) = build(name);
        let generated = tb.table(&m).unwrap();
        let stats = generated.stats().unwrap();
        for codec in CODECS {
            for block_entries in [1 << 10, 1 << 13, 1 << 20] {
                let options = WriteOptions {
                    codec,
                    block_entries,
                };
                let read = Table::from_bytes(&bytes_of(&generated, &options)).unwrap();
                assert_eq!(read.material(), &m);
                // One lookup scans a run-length block: entry by entry, only small blocks.
                let step = if block_entries > 1 << 13 { 97 } else { 1 };
                for i in (0..generated.size()).step_by(step) {
                    assert_eq!(
                        read.value(i).unwrap(),
                        generated.value(i).unwrap(),
                        "{name} {codec:?} {block_entries} index {i}"
                    );
                }
                assert_eq!(read.stats().unwrap(), stats, "{name} {codec:?}");
                // Rewriting a read table gives the same bytes.
                assert_eq!(bytes_of(&read, &options), bytes_of(&generated, &options));
            }
        }
        // The compressed table verifies against move generation like the generated one.
        let read = Table::from_bytes(&bytes_of(&generated, &WriteOptions::default())).unwrap();
        tb.insert(read);
        assert_eq!(verify(&m, &tb).unwrap(), None, "{name}");
    }
}

#[test]
fn compressed_tables_are_smaller() {
    let (tb, m) = build("KRvK");
    let t = tb.table(&m).unwrap();
    let raw = bytes_of(
        &t,
        &WriteOptions {
            codec: Codec::Raw,
            ..Default::default()
        },
    )
    .len();
    let zstd = bytes_of(&t, &WriteOptions::default()).len();
    assert!(zstd * 3 < raw, "zstd {zstd} bytes, raw {raw}");
}

fn small_table_bytes(codec: Codec) -> Vec<u8> {
    let (tb, m) = build("KNvK");
    let options = WriteOptions {
        codec,
        block_entries: 1 << 10,
    };
    bytes_of(&tb.table(&m).unwrap(), &options)
}

#[test]
fn truncated_files_are_errors() {
    for codec in CODECS {
        let bytes = small_table_bytes(codec);
        for len in 0..bytes.len() {
            let err = Table::from_bytes(&bytes[..len]).unwrap_err();
            assert!(matches!(err, TableError::Corrupt { .. }), "{len}: {err}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Table::from_bytes(&longer)
            .unwrap_err()
            .to_string()
            .contains("after the last block"));
    }
}

#[test]
fn every_bit_flip_is_an_error() {
    for codec in [Codec::Zstd(9), Codec::RunLength] {
        let bytes = small_table_bytes(codec);
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                assert!(Table::from_bytes(&bad).is_err(), "byte {at} bit {bit}");
            }
        }
    }
}

/// Rewrites header field `at..at + v.len()` and fixes the header checksum, as a forger would.
fn forge(bytes: &[u8], at: usize, v: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + v.len()].copy_from_slice(v);
    let crc = crc32(&out[..60]);
    out[60..64].copy_from_slice(&crc.to_le_bytes());
    out
}

/// CRC-32 (IEEE), bit by bit: an independent check of the file's checksums.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn error_of(bytes: &[u8]) -> String {
    Table::from_bytes(bytes).unwrap_err().to_string()
}

#[test]
fn absurd_header_fields_are_clear_errors() {
    let bytes = small_table_bytes(Codec::Zstd(9));
    assert!(Table::from_bytes(&forge(&bytes, 0, &[])).is_ok());
    let absurd_blocks = forge(&bytes, 48, &(1u64 << 62).to_le_bytes());
    assert!(error_of(&absurd_blocks).contains("blocks"));
    let absurd_entries = forge(&bytes, 32, &u64::MAX.to_le_bytes());
    assert!(error_of(&absurd_entries).contains("entries"));
    let odd_block = forge(&bytes, 40, &1000u32.to_le_bytes());
    assert!(error_of(&odd_block).contains("power of two"));
    let huge_block = forge(&bytes, 40, &(1u32 << 31).to_le_bytes());
    assert!(error_of(&huge_block).contains("power of two"));
    let codec = forge(&bytes, 13, &[7]);
    assert!(error_of(&codec).contains("unknown codec 7"));
    let metric = forge(&bytes, 12, &[9]);
    assert!(error_of(&metric).contains("unknown metric 9"));
    // A DTZ table needs a rule length (bytes 14..16), which a DTM table leaves at zero.
    let dtz_without_rule = forge(&bytes, 12, &[2]);
    assert!(error_of(&dtz_without_rule).contains("rule of 0 plies"));
    // A material of another size, a non-canonical one, one with too many pieces.
    for (name, expect) in [
        ("KQvKR", "entries"),
        ("KvKN", "canonical"),
        ("KQQQQQvK", "at most"),
        ("K?vK", "bad material"),
    ] {
        let mut field = [0u8; 16];
        field[..name.len()].copy_from_slice(name.as_bytes());
        let err = error_of(&forge(&bytes, 16, &field));
        assert!(err.contains(expect), "{name}: {err}");
    }
    assert!(error_of(&bytes[..5]).contains("truncated"));
    assert!(error_of(b"not a table at all").contains("bad magic"));
}

#[test]
fn old_versions_name_the_command_that_regenerates_them() {
    // A version 1 header: magic, version, metric, material at 13..28.
    let mut v1 = Vec::new();
    v1.extend_from_slice(b"ZRMCHESS");
    v1.extend_from_slice(&1u32.to_le_bytes());
    v1.push(1);
    let mut name = [0u8; 15];
    name[..4].copy_from_slice(b"KNvK");
    v1.extend_from_slice(&name);
    v1.extend_from_slice(&[0; 12]);
    assert_eq!(
        error_of(&v1),
        "<memory>: table format version 1, this zermelo reads version 4: \
         regenerate with `zermelo tb gen KNvK`"
    );
    // Version 2 indexed pawn tables with the pawn digits last, version 3 pawnless tables with
    // the white king in its triangle and 64 squares per piece: both refused. Version 3's pawn
    // tables (indexed as today) are still read.
    let version = |bytes: &[u8], v: u32| forge(bytes, 8, &v.to_le_bytes());
    let (tb, m) = build("KPvK");
    let kpvk = bytes_of(&tb.table(&m).unwrap(), &WriteOptions::default());
    assert_eq!(
        error_of(&version(&kpvk, 2)),
        "<memory>: table format version 2, this zermelo reads version 4: \
         regenerate with `zermelo tb gen KPvK`"
    );
    let krvk = tb_bytes("KRvK");
    for v in [2, 3] {
        assert_eq!(
            error_of(&version(&krvk, v)),
            format!(
                "<memory>: table format version {v}, this zermelo reads version 4: \
                 regenerate with `zermelo tb gen KRvK`"
            )
        );
    }
    let read = Table::from_bytes(&version(&kpvk, 3)).unwrap();
    let fresh = Table::from_bytes(&kpvk).unwrap();
    assert_eq!(read.stats().unwrap(), fresh.stats().unwrap());
    // Written again, it becomes a version 4 file with the same entries.
    let mut again = Vec::new();
    read.write_to(&mut again).unwrap();
    assert_eq!(&again[8..12], &4u32.to_le_bytes());
    let again = Table::from_bytes(&again).unwrap();
    for idx in 0..fresh.size() {
        assert_eq!(
            again.value(idx).unwrap(),
            fresh.value(idx).unwrap(),
            "{idx}"
        );
    }
}

fn tb_bytes(name: &str) -> Vec<u8> {
    let (tb, m) = build(name);
    bytes_of(&tb.table(&m).unwrap(), &WriteOptions::default())
}

/// Replaces block 0 with `block` and fixes the directory and every checksum.
fn forge_block(bytes: &[u8], block: &[u8]) -> Vec<u8> {
    let count = u64::from_le_bytes(bytes[48..56].try_into().unwrap()) as usize;
    let dir_end = 64 + 12 * count;
    let old_end = u64::from_le_bytes(bytes[64..72].try_into().unwrap()) as usize;
    let mut dir = bytes[64..dir_end].to_vec();
    let shift = block.len() as i64 - old_end as i64;
    for k in 0..count {
        let end = u64::from_le_bytes(dir[12 * k..12 * k + 8].try_into().unwrap());
        let end = (end as i64 + shift) as u64;
        dir[12 * k..12 * k + 8].copy_from_slice(&end.to_le_bytes());
    }
    dir[8..12].copy_from_slice(&crc32(block).to_le_bytes());
    let mut out = bytes[..64].to_vec();
    out.extend_from_slice(&dir);
    out.extend_from_slice(block);
    out.extend_from_slice(&bytes[dir_end + old_end..]);
    let crc = crc32(&dir);
    forge(&out, 56, &crc.to_le_bytes())
}

#[test]
fn blocks_that_decode_wrong_behind_valid_checksums_are_errors() {
    let (tb, m) = build("KNvK");
    let table = tb.table(&m).unwrap();
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/K6N w - - 0 1").unwrap();
    let zstd = bytes_of(
        &table,
        &WriteOptions {
            codec: Codec::Zstd(3),
            block_entries: 1 << 10,
        },
    );
    let rle = bytes_of(
        &table,
        &WriteOptions {
            codec: Codec::RunLength,
            block_entries: 1 << 10,
        },
    );
    let raw = bytes_of(
        &table,
        &WriteOptions {
            codec: Codec::Raw,
            block_entries: 1 << 10,
        },
    );
    let short_zstd = zstd::bulk::compress(&[0u8; 100], 3).unwrap();
    let long_zstd = zstd::bulk::compress(&[0u8; 5000], 3).unwrap();
    let cases = [
        forge_block(&zstd, &short_zstd),
        forge_block(&zstd, &long_zstd),
        forge_block(&zstd, b"garbage, not zstd"),
        forge_block(&rle, &[0, 10]),               // a run of 11, short
        forge_block(&rle, &[0, 0xff, 0xff, 0x7f]), // a run far past the block
        forge_block(&rle, &[0, 0x80]),             // a varint cut short
        forge_block(&rle, &[0; 11].map(|_| 0x80)), // a varint of more than 64 bits
    ];
    for (k, bytes) in cases.iter().enumerate() {
        let read = Table::from_bytes(bytes).unwrap();
        // Run-length lookups decode only up to the entry asked for.
        assert!((0..1024).any(|i| read.value(i).is_err()), "case {k}");
        assert!(read.stats().is_err(), "case {k}");
        let tb = Tablebase::in_memory();
        tb.insert(read);
        // Positions in other blocks still probe; block 0 fails cleanly.
        let _ = tb.probe(&pos);
        assert!(verify(&m, &tb).is_err(), "case {k}");
    }
    // A raw block of the wrong length is refused when the file is opened.
    assert!(error_of(&forge_block(&raw, &[0; 100])).contains("raw bytes"));
}

#[test]
fn a_file_holding_another_material_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (tb, m) = build("KNvK");
    let bytes = bytes_of(&tb.table(&m).unwrap(), &WriteOptions::default());
    // KBvK has as many indices as KNvK: only the name inside tells them apart.
    std::fs::write(dir.path().join("KBvK.zct"), &bytes).unwrap();
    let tb = Tablebase::open(dir.path());
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/K6B w - - 0 1").unwrap();
    let err = tb.probe(&pos).unwrap_err().to_string();
    assert!(err.contains("holds KNvK, expected KBvK"), "{err}");
}

#[test]
#[allow(unsafe_code)]
fn mapped_and_read_tables_probe_alike() {
    let dir = tempfile::tempdir().unwrap();
    let (built, m) = build("KRvK");
    let bytes = bytes_of(&built.table(&m).unwrap(), &WriteOptions::default());
    std::fs::write(dir.path().join(Table::file_name(&m)), &bytes).unwrap();
    let read = Tablebase::open(dir.path());
    // SAFETY: the test owns the directory and does not touch the file while it is mapped.
    let mapped = unsafe { Tablebase::open_mapped(dir.path()) };
    for fen in [
        "8/8/8/4k3/8/8/8/K6R w - - 0 1",
        "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        "8/8/8/4k3/8/8/8/K6R b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let want = built.probe(&pos).unwrap();
        assert_eq!(read.probe(&pos).unwrap(), want, "{fen}");
        assert_eq!(mapped.probe(&pos).unwrap(), want, "{fen}");
    }
}

/// The resident kilobytes of this process's mappings of `path` (`/proc/self/smaps`).
#[cfg(target_os = "linux")]
fn resident_kib_of(path: &std::path::Path) -> u64 {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let name = path.to_str().unwrap();
    let mut total = 0;
    let mut inside = false;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if first.contains('-') && !first.ends_with(':') {
            // A mapping's header: `start-end perms offset dev inode path`.
            inside = line.split_whitespace().nth(5) == Some(name);
        } else if inside && first == "Rss:" {
            total += line
                .split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<u64>()
                .unwrap();
        }
    }
    total
}

/// Opening a mapped table reads all of it (the checksums), and none of it stays resident:
/// in `tb gen --all 5`, the tables a larger one opened counted whole in its peak (KPPvKQ:
/// 2.1 GB against 0.5 GB alone).
#[test]
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn an_opened_mapped_table_leaves_the_resident_set() {
    let dir = tempfile::tempdir().unwrap();
    let (built, m) = build("KRvK");
    let path = dir.path().join(Table::file_name(&m));
    std::fs::write(
        &path,
        bytes_of(&built.table(&m).unwrap(), &WriteOptions::default()),
    )
    .unwrap();
    let path = path.canonicalize().unwrap();
    // SAFETY: the test owns the file and does not touch it while it is mapped.
    let table = unsafe { Table::open_mapped(&path) }.unwrap();
    assert_eq!(resident_kib_of(&path), 0, "checked, then let go");
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/K6R w - - 0 1").unwrap();
    let want = built.probe(&pos).unwrap();
    // SAFETY: as above.
    let tb = unsafe { Tablebase::open_mapped(dir.path()) };
    assert_eq!(tb.probe(&pos).unwrap(), want);
    assert!(resident_kib_of(&path) > 0, "a probe reads a block back");
    tb.release_pages();
    drop(table);
    assert_eq!(resident_kib_of(&path), 0);
}
