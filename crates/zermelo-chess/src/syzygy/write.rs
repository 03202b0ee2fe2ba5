//! A Syzygy file assembled from its compressed sub-tables, in the order the published
//! probers read it (docs/formats.md, "Syzygy tables"): magic and flags, the layouts of every
//! sub-table, the compression headers, a DTZ file's value maps, the sparse indices, the size
//! tables, the 64-byte-aligned blocks, and the 16-byte checksum Syzygy's `tbcheck` verifies.

use super::checksum::syzygy_checksum;
use super::compress::Coded;
use super::layouts::Candidate;
use super::table::Metric;

/// A sub-table's values: one value throughout, or compressed.
#[derive(Debug)]
pub(crate) enum Body {
    /// WDL: the class plus 2; DTZ: always 0 (the probers read 0 from a constant DTZ table).
    Constant(u8),
    Coded(Coded),
}

/// A DTZ sub-table's flags and maps.
#[derive(Clone, Debug, Default)]
pub(crate) struct DtzInfo {
    /// Which side to move the sub-table stores (1: black).
    pub(crate) side: u8,
    /// Wins (then losses) stored in plies rather than moves.
    pub(crate) wins_in_plies: bool,
    pub(crate) losses_in_plies: bool,
    /// The four maps (win, loss, cursed win, blessed loss): per stored symbol, the value.
    pub(crate) maps: [Vec<u16>; 4],
}

impl DtzInfo {
    fn wide(&self) -> bool {
        self.maps
            .iter()
            .any(|m| m.len() > 255 || m.iter().any(|&v| v > 255))
    }

    fn flags(&self, body: &Body) -> u8 {
        let mut f =
            self.side | u8::from(self.wins_in_plies) << 2 | u8::from(self.losses_in_plies) << 3;
        match body {
            Body::Constant(_) => f |= 0x80,
            Body::Coded(_) => f |= 2 | u8::from(self.wide()) << 4,
        }
        f
    }
}

/// One sub-table to write: its piece order and values.
#[derive(Debug)]
pub(crate) struct SubTable {
    pub(crate) order: Candidate,
    pub(crate) body: Body,
    /// `Some` for a DTZ sub-table.
    pub(crate) dtz: Option<DtzInfo>,
}

/// The bytes of a file of `metric` with `pieces` pieces: `files` holds per pawn file (one for
/// a pawnless table) the sub-tables stored, per side to move (a WDL file of an asymmetric
/// material stores both, anything else one). `two_orders`: both colours have pawns.
pub(crate) fn assemble(
    metric: Metric,
    pieces: usize,
    pawns: bool,
    two_orders: bool,
    files: &[Vec<SubTable>],
) -> Vec<u8> {
    let split = metric == Metric::Wdl && files[0].len() == 2;
    let mut out = Vec::new();
    out.extend_from_slice(&metric.magic());
    out.push((pieces as u8) << 4 | u8::from(split) | u8::from(pawns) << 1);
    write_layouts(&mut out, metric, pieces, two_orders, files);
    align(&mut out, 2);
    let all: Vec<&SubTable> = files.iter().flatten().collect();
    for sub in &all {
        match (&sub.body, &sub.dtz) {
            (Body::Constant(v), None) => out.extend_from_slice(&[0x80, *v]),
            (Body::Constant(_), Some(d)) => out.extend_from_slice(&[d.flags(&sub.body), 0]),
            (Body::Coded(c), dtz) => {
                out.push(dtz.as_ref().map_or(0, |d| d.flags(&sub.body)));
                out.extend_from_slice(&c.header);
            }
        }
        align(&mut out, 2);
    }
    if metric == Metric::Dtz {
        for sub in &all {
            if let (Body::Coded(_), Some(d)) = (&sub.body, &sub.dtz) {
                write_maps(&mut out, d);
            }
        }
        align(&mut out, 2);
    }
    let coded: Vec<&Coded> = all
        .iter()
        .filter_map(|s| match &s.body {
            Body::Coded(c) => Some(c),
            Body::Constant(_) => None,
        })
        .collect();
    for c in &coded {
        out.extend_from_slice(&c.index);
    }
    for c in &coded {
        out.extend_from_slice(&c.sizes);
    }
    align(&mut out, 64);
    for c in &coded {
        out.extend_from_slice(&c.data);
        align(&mut out, 64);
    }
    let sum = syzygy_checksum(&out);
    out.extend_from_slice(&sum);
    out
}

fn align(out: &mut Vec<u8>, to: usize) {
    while out.len() % to != 0 {
        out.push(0);
    }
}

/// Per pawn file: the order bytes and the piece codes, the first stored side in the low
/// nibbles and the second (or the first again) in the high ones; a DTZ file only the low.
fn write_layouts(
    out: &mut Vec<u8>,
    metric: Metric,
    pieces: usize,
    two_orders: bool,
    files: &[Vec<SubTable>],
) {
    for subs in files {
        let low = &subs[0].order;
        let high = match metric {
            Metric::Wdl => &subs[subs.len() - 1].order,
            Metric::Dtz => low,
        };
        let nibbles = |a: u8, b: u8| match metric {
            Metric::Wdl => a | b << 4,
            Metric::Dtz => a,
        };
        out.push(nibbles(low.order, high.order));
        if two_orders {
            out.push(nibbles(low.order2, high.order2));
        }
        for k in 0..pieces {
            out.push(nibbles(low.codes[k], high.codes[k]));
        }
    }
}

fn write_maps(out: &mut Vec<u8>, d: &DtzInfo) {
    if d.wide() {
        align(out, 2);
        for map in &d.maps {
            out.extend_from_slice(&(map.len() as u16).to_le_bytes());
            for &v in map {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    } else {
        for map in &d.maps {
            out.push(map.len() as u8);
            out.extend(map.iter().map(|&v| v as u8));
        }
    }
}
