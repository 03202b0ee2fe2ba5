//! Syzygy `.rtbw` files read by `zermelo_chess::SyzygyTables`: a damaged or hostile file (its
//! first byte picks the material it is named as and, with its high bit, has the file's last 16
//! bytes made its checksum, so that the fuzzer gets past that check to the parser) is an error
//! naming the file, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_chess::syzygy::syzygy_checksum;
use zermelo_chess::{Position, SyzygyTables};

/// Materials and positions to probe each file as.
const CASES: [(&str, &[&str]); 3] = [
    ("KRvK", &["8/8/8/8/8/2k5/8/K6R w - - 0 1", "8/8/8/8/8/2k5/8/K6R b - - 0 1"]),
    ("KQvK", &["8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "7k/8/8/8/8/8/8/KQ6 b - - 0 1"]),
    ("KPvK", &["8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "8/8/8/8/8/8/P7/K1k5 b - - 0 1"]),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let (material, fens) = CASES[(pick & 0x7f) as usize % CASES.len()];
    let mut file = file.to_vec();
    if pick & 0x80 != 0 && file.len() >= 16 {
        let body = file.len() - 16;
        let sum = syzygy_checksum(&file[..body]);
        file[body..].copy_from_slice(&sum);
    }
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    if std::fs::write(dir.path().join(format!("{material}.rtbw")), &file).is_err() {
        return;
    }
    let Ok(tables) = SyzygyTables::open(&[dir.path().to_path_buf()]) else {
        return;
    };
    for fen in fens {
        if let Ok(pos) = Position::from_fen(fen) {
            let _ = tables.probe_wdl(&pos);
        }
    }
});
