//! zermelo's tables written in Syzygy's format ([`export_syzygy`]) and read back: every
//! 3-4-piece table is generated here, exported, and probed with zermelo's Syzygy reader
//! ([`SyzygyTables`], itself checked against python-chess on the published tables in
//! `tests/syzygy.rs`; python-chess reads the exported files in
//! `crates/zermelo-py/tests/test_syzygy_export.py`). On every legal position (one per
//! symmetry class, and its 8 images, or 2 with pawns: a file may hold a position and its
//! reflection at two indices) of the 3-piece tables and on evenly spaced positions of the
//! 4-piece ones
//! (`ZERMELO_EXPORT_SAMPLE=0`: every position of every table; a number: that many per
//! table), the class must be zermelo's and the DTZ zermelo's, or one ply closer to zero where
//! the file stores moves rather than plies (the reader says so: `precise`).

use std::path::Path;

use zermelo_chess::dtz::syzygy_dtz;
use zermelo_chess::{
    export_syzygy, generate_with, Color, GenOptions, Material, Metric, Piece, Position, Role,
    Setup, SyzygyDtz, SyzygyTables, Tablebase, Wdl50,
};

/// zermelo's DTZ tables (50-move rule) of every 3- and 4-piece material, generated in memory.
fn zermelo_tables() -> (Tablebase, Vec<Material>) {
    let tb = Tablebase::in_memory();
    let all = Material::all_up_to(4);
    let options = GenOptions {
        metric: Metric::Dtz { rule: 100 },
        ..GenOptions::default()
    };
    for m in &all {
        tb.insert(generate_with(m, &tb, &Default::default(), &options).unwrap());
    }
    (tb, all)
}

/// Positions compared per 4-piece table (3-piece tables: every position).
fn sample_size() -> u64 {
    std::env::var("ZERMELO_EXPORT_SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(25_000)
}

/// The pieces of `m`, white first, kings first.
fn pieces(m: &Material) -> Vec<Piece> {
    let mut out = Vec::new();
    for color in [Color::White, Color::Black] {
        out.push(Piece {
            color,
            role: Role::King,
        });
        out.extend(m.side(color).iter().map(|&role| Piece { color, role }));
    }
    out
}

/// Every legal position of `m` up to symmetry (the white king in a1-d1-d4 without pawns, on
/// files a-d with them), both sides to move, identical pieces once.
fn positions(m: &Material) -> Vec<Position> {
    let pieces = pieces(m);
    let pawns = m.has_pawns();
    let mut out = Vec::new();
    let mut sq = vec![0u8; pieces.len()];
    fn place(k: usize, sq: &mut Vec<u8>, pieces: &[Piece], pawns: bool, out: &mut Vec<Position>) {
        if k == pieces.len() {
            for turn in [Color::White, Color::Black] {
                let mut setup = Setup::empty();
                setup.turn = turn;
                for (p, &s) in pieces.iter().zip(sq.iter()) {
                    setup.board[usize::from(s)] = Some(*p);
                }
                if let Ok(pos) = Position::from_setup(setup) {
                    out.push(pos);
                }
            }
            return;
        }
        for s in 0..64u8 {
            let (file, rank) = (s & 7, s >> 3);
            let ok = !sq[..k].contains(&s)
                && (k != 0 || (file < 4 && (pawns || rank <= file)))
                && (pieces[k].role != Role::Pawn || (1..7).contains(&rank))
                && (k == 0 || pieces[k] != pieces[k - 1] || sq[k - 1] < s);
            if ok {
                sq[k] = s;
                place(k + 1, sq, pieces, pawns, out);
            }
        }
    }
    place(0, &mut sq, &pieces, pawns, &mut out);
    out
}

/// Syzygy's DTZ `s` against zermelo's exact one `z` (signed as python-chess signs it): a
/// precise value equal; a rounded one equal or one ply closer to zero, of the same sign.
fn dtz_agrees(z: i32, s: SyzygyDtz) -> bool {
    if s.precise {
        s.plies == z
    } else {
        z != 0 && (s.plies == z || s.plies == z - z.signum())
    }
}

fn check(tb: &Tablebase, syz: &SyzygyTables, m: &Material, sample: u64) -> u64 {
    let all = positions(m);
    let stride = if m.piece_count() == 3 || sample == 0 {
        1
    } else {
        (all.len() as u64 / sample).max(1) as usize
    };
    let mut checked = 0;
    // Every symmetric image: a file may hold a position and its reflection at two indices.
    let symmetries: &[u8] = if m.has_pawns() {
        &[0, 1]
    } else {
        &[0, 1, 2, 3, 4, 5, 6, 7]
    };
    let images = all.iter().step_by(stride).flat_map(|pos| {
        symmetries.iter().map(move |&t| {
            let mut setup = Setup::empty();
            setup.turn = pos.turn();
            for (s, p) in pos.pieces() {
                setup.board[s.transform(t).index()] = Some(p);
            }
            Position::from_setup(setup).unwrap()
        })
    });
    for pos in images {
        let pos = &pos;
        let z = tb.probe_dtz(pos).unwrap();
        let class = Wdl50::of(z, 100);
        let wdl = syz.probe_wdl(pos).unwrap();
        assert_eq!(wdl, class, "{m} {}: WDL", pos.fen());
        let s = syz.probe_dtz(pos).unwrap();
        assert!(
            dtz_agrees(syzygy_dtz(z), s),
            "{m} {}: zermelo DTZ {}, exported {s:?}",
            pos.fen(),
            syzygy_dtz(z)
        );
        checked += 1;
    }
    checked
}

#[test]
fn exported_tables_answer_as_zermelo() {
    let started = std::time::Instant::now();
    let (tb, all) = zermelo_tables();
    eprintln!("generated {} tables in {:?}", all.len(), started.elapsed());
    let dir = tempfile::tempdir().unwrap();
    for m in &all {
        export_syzygy(&tb, m, dir.path()).unwrap();
    }
    eprintln!("exported in {:?}", started.elapsed());
    let syz = SyzygyTables::open(&[dir.path().to_path_buf()]).unwrap();
    let sample = sample_size();
    let mut total = 0;
    for m in &all {
        total += check(&tb, &syz, m, sample);
    }
    eprintln!("{total} positions agree, {:?} in all", started.elapsed());
    sizes_within_published(dir.path());
}

/// The exported files' sizes against the published ones (`../shared/syzygy-3-4`, when
/// present): at most 1.25 times each.
fn sizes_within_published(dir: &Path) {
    let published = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy-3-4");
    if !published.join("KQvKR.rtbw").is_file() {
        eprintln!(
            "sizes not compared: no published tables at {}",
            published.display()
        );
        return;
    }
    let mut worst = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_owned();
        let ours = std::fs::metadata(&path).unwrap().len();
        let theirs = std::fs::metadata(published.join(&name)).unwrap().len();
        worst.push((
            ours as f64 / theirs as f64,
            name.to_string_lossy().into_owned(),
        ));
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    eprintln!("largest against the published: {:?}", &worst[..5]);
    assert!(worst[0].0 <= 1.25, "{worst:?}");
}

#[test]
fn a_missing_table_is_named_and_nothing_is_written() {
    let tb = Tablebase::in_memory();
    let dir = tempfile::tempdir().unwrap();
    let krk: Material = "KRvK".parse().unwrap();
    let err = export_syzygy(&tb, &krk, dir.path())
        .unwrap_err()
        .to_string();
    assert!(err.contains("KRvK"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
