//! `zermelo tb verify --against DIR --tables ZDIR [MATERIAL...]`: Syzygy's tables in DIR checked
//! position by position against zermelo's DTZ tables in ZDIR ([`compare_with_syzygy`]), an
//! independent check of downloaded tables by a second generator.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use zermelo_chess::dtz::syzygy_dtz;
use zermelo_chess::{
    compare_with_syzygy, Comparison, Material, Metric, SyzygyTables, Tablebase, Wdl50,
};

use crate::cmd::tables::check_dirs;
use crate::error::{CliResult, Failure};

/// Differences printed per material.
const SHOWN: usize = 10;

/// Compares the materials named in `items` (all that both directories hold when none is).
pub(crate) fn against(syzygy_dir: &Path, own_dir: &Path, items: &[String]) -> CliResult {
    check_dirs(&[syzygy_dir.to_path_buf(), own_dir.to_path_buf()])?;
    let dirs = [syzygy_dir.to_path_buf()];
    // SAFETY: the command only reads the tables; published Syzygy files are not rewritten in
    // place (a file replaced by rename leaves the mapping intact).
    #[allow(unsafe_code)]
    let syzygy = unsafe { SyzygyTables::open_mapped(&dirs) }
        .map_err(Failure::input)?
        .with_every_checksum();
    // SAFETY: as for the Syzygy files; zermelo writes its tables by rename.
    #[allow(unsafe_code)]
    let own = unsafe { Tablebase::open_mapped(own_dir) };
    let materials = if items.is_empty() {
        in_both(syzygy_dir, own_dir)?
    } else {
        named(items, &syzygy, own_dir)?
    };
    let (mut differ, mut positions) = (0usize, 0u64);
    for m in &materials {
        let c = compare_with_syzygy(m, &own, &syzygy, SHOWN).map_err(Failure::input)?;
        positions += c.positions;
        report(&c);
        differ += usize::from(!c.agrees());
    }
    if differ > 0 {
        return Err(Failure::Rejected(format!(
            "{differ} of {} materials differ between {} (Syzygy) and {} (zermelo)",
            materials.len(),
            syzygy_dir.display(),
            own_dir.display()
        )));
    }
    crate::say!(
        "{} materials, {positions} positions: Syzygy's tables in {} agree with zermelo's in {}",
        materials.len(),
        syzygy_dir.display(),
        own_dir.display()
    );
    Ok(())
}

/// One material's lines: its counts, then its first differences.
fn report(c: &Comparison) {
    let m = &c.material;
    if c.agrees() {
        crate::say!(
            "{m}: {} positions agree (class and DTZ; {} Syzygy DTZ rounded one ply short)",
            c.positions,
            c.rounded
        );
        return;
    }
    crate::say!(
        "{m}: DIFFERENT: {} classes and {} DTZ of {} positions differ; the first:",
        c.wdl_differ,
        c.dtz_differ,
        c.positions
    );
    for d in &c.first {
        let rounded = if d.syzygy_dtz.precise {
            ""
        } else {
            " (rounded)"
        };
        crate::say!(
            "  {}: zermelo {} dtz {}, Syzygy {} dtz {}{rounded}",
            d.fen,
            Wdl50::of(d.zermelo, zermelo_chess::dtz::DEFAULT_RULE),
            syzygy_dtz(d.zermelo),
            d.syzygy_wdl,
            d.syzygy_dtz.plies
        );
    }
}

/// The named materials, each of which both directories must hold (else exit 2, naming what is
/// missing where).
fn named(items: &[String], syzygy: &SyzygyTables, own_dir: &Path) -> CliResult<Vec<Material>> {
    let mut out = Vec::new();
    for text in items {
        let m = Material::parse_table(text).map_err(Failure::input)?;
        let zdz = own_dir.join(Metric::Dtz { rule: 100 }.file_name(&m));
        if !zermelo_chess::table_file_present(&zdz).map_err(Failure::input)? {
            return Err(Failure::input(format!(
                "{}: no zermelo DTZ table of {m} (`zermelo tb gen {m} --tables {}` writes it)",
                zdz.display(),
                own_dir.display()
            )));
        }
        for dtz in [false, true] {
            if syzygy.file_of(&m, dtz).map_err(Failure::input)?.is_none() {
                return Err(Failure::input(format!(
                    "no Syzygy {} table of {m} in {}",
                    if dtz { "DTZ" } else { "WDL" },
                    syzygy.dirs()[0].display()
                )));
            }
        }
        out.push(m);
    }
    Ok(Material::generation_order(&out)
        .into_iter()
        .filter(|m| out.contains(m))
        .collect())
}

/// Every material with a Syzygy WDL table in `syzygy_dir` and a zermelo DTZ table in
/// `own_dir`, smallest first; the others are named on standard error.
fn in_both(syzygy_dir: &Path, own_dir: &Path) -> CliResult<Vec<Material>> {
    let theirs = materials_in(syzygy_dir, ".rtbw")?;
    let ours = materials_in(own_dir, ".zdz")?;
    for (only, mine, other, dir) in [
        ("Syzygy's", &theirs, &ours, syzygy_dir),
        ("zermelo's", &ours, &theirs, own_dir),
    ] {
        let alone: Vec<String> = mine.difference(other).map(|m| m.to_string()).collect();
        if !alone.is_empty() {
            crate::note!(
                "zermelo: not compared, only {only} tables (in {}): {}",
                dir.display(),
                alone.join(" ")
            );
        }
    }
    let both: Vec<Material> = theirs.intersection(&ours).cloned().collect();
    if both.is_empty() {
        return Err(Failure::input(format!(
            "no material has both a Syzygy table (.rtbw) in {} and a zermelo DTZ table (.zdz) in {}",
            syzygy_dir.display(),
            own_dir.display()
        )));
    }
    Ok(Material::generation_order(&both)
        .into_iter()
        .filter(|m| both.contains(m))
        .collect())
}

/// The materials (canonical) of the files of `dir` whose names end in `suffix`.
fn materials_in(dir: &Path, suffix: &str) -> CliResult<BTreeSet<Material>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure::input(format!("{}: cannot read directory: {e}", dir.display())))?;
    let mut out = BTreeSet::new();
    for entry in entries.flatten() {
        let name = PathBuf::from(entry.file_name());
        let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(suffix)) else {
            continue;
        };
        match Material::parse_table(stem) {
            Ok(m) => {
                out.insert(m);
            }
            Err(e) => crate::note!("zermelo: skipping {}: {e}", name.display()),
        }
    }
    Ok(out)
}
