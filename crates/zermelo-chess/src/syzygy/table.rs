//! One Syzygy file (`.rtbw` or `.rtbz`): its header read and checked once, then lookups of a
//! position's stored value.
//!
//! A file starts with a 4-byte magic number and a flags byte (bit 0: both sides to move are
//! stored; bit 1: pawns, so one sub-table per file of the leading pawn, a/h to d/e). Then, per
//! sub-table layout, the order of the index's parts and the piece codes (low nibble for white
//! to move, high nibble for black); then the compression headers, index tables, size tables
//! and the data blocks (each 64-byte aligned). A DTZ file stores one side to move per
//! sub-table and may map stored values through four small tables.

use std::path::{Path, PathBuf};

use super::encode::{self, Layout, Leading, MAX_TB_PIECES};
use super::name::TableName;
use super::pairs::{u16_le, u8_at, Corrupt, Leaf, Pairs};
use super::SyzygyError;
use crate::position::Position;
use crate::square::Color;

/// WDL or DTZ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Metric {
    /// `.rtbw`: the five classes.
    Wdl,
    /// `.rtbz`: distance to zeroing.
    Dtz,
}

impl Metric {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Metric::Wdl => "rtbw",
            Metric::Dtz => "rtbz",
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Metric::Wdl => "WDL",
            Metric::Dtz => "DTZ",
        }
    }

    pub(crate) fn magic(self) -> [u8; 4] {
        match self {
            Metric::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            Metric::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }
}

/// Magic numbers of the tables of chess variants, so that such a file is named as what it is.
const VARIANT_MAGICS: [([u8; 4], &str); 6] = [
    (
        [0x55, 0x8d, 0xa4, 0x49],
        "an atomic chess WDL table (.atbw)",
    ),
    (
        [0x91, 0xa9, 0x5e, 0xeb],
        "an atomic chess DTZ table (.atbz)",
    ),
    (
        [0x7b, 0xf6, 0x93, 0x15],
        "a suicide chess WDL table (.stbw)",
    ),
    (
        [0xe4, 0xcf, 0xe7, 0x23],
        "a suicide chess DTZ table (.stbz)",
    ),
    (
        [0xbc, 0x55, 0xbc, 0x21],
        "a giveaway chess WDL table (.gtbw)",
    ),
    (
        [0xd6, 0xf5, 0x1b, 0x50],
        "a giveaway chess DTZ table (.gtbz)",
    ),
];

/// How the pieces lead the index.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Shape {
    Pawnless(Leading),
    /// `lead` pawns of one colour lead (the colour with fewer pawns, if both have some),
    /// followed by the `other` pawns of the other colour.
    Pawns {
        lead: usize,
        other: usize,
    },
}

/// A DTZ sub-table's flags and value maps.
#[derive(Debug, Default)]
struct DtzMaps {
    flags: u8,
    /// Per map (win, loss, cursed win, blessed loss order of the file): its first entry's
    /// offset and its length; entries are 2 bytes wide with flag 16.
    maps: Option<[(usize, usize); 4]>,
}

/// One sequence of values: the position order and the compressed values.
#[derive(Debug)]
struct Subtable {
    layout: Layout,
    pairs: Pairs,
    dtz: DtzMaps,
}

/// An opened, checked table file.
#[derive(Debug)]
pub(crate) struct TableFile {
    path: PathBuf,
    data: Vec<u8>,
    metric: Metric,
    shape: Shape,
    /// The orientation the file stores (white first).
    key: TableName,
    symmetric: bool,
    /// Per pawn file (one for pawnless tables), per stored side.
    subtables: Vec<Vec<Subtable>>,
}

fn corrupt(path: &Path, c: Corrupt) -> SyzygyError {
    SyzygyError::Corrupt {
        path: path.to_path_buf(),
        reason: c.0,
    }
}

impl TableFile {
    /// Checks and reads the header of `data`, the contents of `path`, a table of `name`.
    pub(crate) fn parse(
        path: &Path,
        data: Vec<u8>,
        name: &TableName,
        metric: Metric,
    ) -> Result<TableFile, SyzygyError> {
        check_magic(path, &data, metric)?;
        if data.len() % 64 != 16 {
            return Err(corrupt(
                path,
                Corrupt::new(format!(
                    "{} bytes: a Syzygy table is 64k + 16 bytes long (truncated?)",
                    data.len()
                )),
            ));
        }
        let shape = shape_of(name).map_err(|c| corrupt(path, c))?;
        let mut file = TableFile {
            path: path.to_path_buf(),
            data,
            metric,
            shape,
            key: name.clone(),
            symmetric: name.is_symmetric(),
            subtables: Vec::new(),
        };
        file.read_sections(name).map_err(|c| corrupt(path, c))?;
        Ok(file)
    }

    /// Reads the layouts, compression headers and section offsets.
    fn read_sections(&mut self, name: &TableName) -> Result<(), Corrupt> {
        let data = &self.data;
        let flags = data[4];
        let sides = match self.metric {
            Metric::Wdl if flags & 1 != 0 => 2,
            _ => 1,
        };
        let files = if flags & 2 != 0 { 4 } else { 1 };
        let pieces = name.piece_count();
        // A DTZ file lists one side's layout (the low nibbles), a WDL file both.
        let listed = match self.metric {
            Metric::Wdl => 2,
            Metric::Dtz => 1,
        };
        let (layouts, mut at) = read_layouts(data, self.shape, pieces, files, listed)?;
        if let Shape::Pawnless(_) = self.shape {
            self.key = TableName::from_codes(&layouts[0][0].pieces)?;
            self.symmetric = self.key.is_symmetric();
        }
        let leaf = match self.metric {
            Metric::Wdl => Leaf::Wdl,
            Metric::Dtz => Leaf::Dtz,
        };
        let mut subtables = Vec::new();
        for file_layouts in layouts.into_iter().take(files) {
            let mut per_side = Vec::new();
            for layout in file_layouts.into_iter().take(sides) {
                let (pairs, next) = Pairs::parse(data, at, layout.size, leaf)?;
                let dtz = DtzMaps {
                    flags: u8_at(data, at)?,
                    maps: None,
                };
                at = next;
                per_side.push(Subtable { layout, pairs, dtz });
            }
            subtables.push(per_side);
        }
        if self.metric == Metric::Dtz {
            at = read_maps(data, at, &mut subtables)?;
        }
        place_sections(data.len(), at, &mut subtables)?;
        self.subtables = subtables;
        Ok(())
    }

    /// The sub-table and index of `pos`; `None` when a DTZ table does not store its side to
    /// move.
    fn locate(&self, pos: &Position) -> Result<Option<(&Subtable, u64)>, Corrupt> {
        let white = TableName::of_white(pos);
        let (flip, side) = if self.symmetric {
            (pos.turn() == Color::Black, 0)
        } else if white != self.key {
            (true, usize::from(pos.turn() == Color::White))
        } else {
            (false, usize::from(pos.turn() == Color::Black))
        };
        let mut sq = [0u8; MAX_TB_PIECES];
        let n = self.key.piece_count();
        let sq = &mut sq[..n];
        match self.shape {
            Shape::Pawnless(leading) => {
                let stored = self.stored_side(0, side, true)?;
                let Some(sub) = stored else { return Ok(None) };
                collect_squares(pos, &sub.layout.pieces, flip, false, sq, 0)?;
                let idx = encode::pawnless_index(&sub.layout, leading, sq);
                Ok(Some((sub, idx)))
            }
            Shape::Pawns { lead, other } => {
                // Every layout lists the leading pawns first; the first file's says which.
                let lead_codes = &self.subtables[0][0].layout.pieces;
                collect_squares(pos, lead_codes, flip, true, &mut sq[..lead], 0)?;
                let f = encode::lead_pawn_file(sq, lead);
                let Some(sub) = self.stored_side(f, side, false)? else {
                    return Ok(None);
                };
                collect_squares(pos, &sub.layout.pieces, flip, true, sq, lead)?;
                let idx = encode::pawn_index(&sub.layout, lead, other, sq);
                Ok(Some((sub, idx)))
            }
        }
    }

    /// The sub-table of `file` for `side`: a WDL table's own, a DTZ table's only if it stores
    /// that side (pawnless symmetric tables store both as one).
    fn stored_side(
        &self,
        file: usize,
        side: usize,
        symmetric_counts: bool,
    ) -> Result<Option<&Subtable>, Corrupt> {
        let per_side = self
            .subtables
            .get(file)
            .ok_or_else(|| Corrupt::new(format!("no sub-table for pawn file {file}")))?;
        match self.metric {
            Metric::Wdl => per_side
                .get(side)
                .map(Some)
                .ok_or_else(|| Corrupt::new("the side to move is not stored")),
            Metric::Dtz => {
                let sub = &per_side[0];
                let stores =
                    usize::from(sub.dtz.flags & 1) == side || (symmetric_counts && self.symmetric);
                Ok(stores.then_some(sub))
            }
        }
    }

    /// Every stored value of sub-table `side` of pawn file `file`, in index order, with
    /// its DTZ map applied (for tests of the writer).
    #[cfg(test)]
    pub(crate) fn stored_values(&self, file: usize, side: usize) -> Vec<u16> {
        let sub = &self.subtables[file][side];
        (0..sub.layout.size)
            .map(|i| sub.pairs.value(&self.data, i).expect("a readable table"))
            .collect()
    }

    /// The stored WDL class (-2..=2) of `pos`, which must have this table's material.
    pub(crate) fn wdl(&self, pos: &Position) -> Result<i8, SyzygyError> {
        let found = self.locate(pos).map_err(|c| corrupt(&self.path, c))?;
        let (sub, idx) = found
            .ok_or_else(|| corrupt(&self.path, Corrupt::new("the side to move is not stored")))?;
        let v = sub
            .pairs
            .value(&self.data, idx)
            .map_err(|c| corrupt(&self.path, c))?;
        if v > 4 {
            return Err(corrupt(&self.path, Corrupt::new(format!("WDL value {v}"))));
        }
        Ok(v as i8 - 2)
    }

    /// The stored DTZ of `pos` knowing its class `wdl` (not 0): plies (or moves, doubled), and
    /// whether they were doubled (then possibly one ply short of the truth); `None` when the table
    /// stores the other side to move.
    pub(crate) fn dtz(&self, pos: &Position, wdl: i8) -> Result<Option<(i32, bool)>, SyzygyError> {
        let found = self.locate(pos).map_err(|c| corrupt(&self.path, c))?;
        let Some((sub, idx)) = found else {
            return Ok(None);
        };
        let stored = sub
            .pairs
            .value(&self.data, idx)
            .map_err(|c| corrupt(&self.path, c))?;
        let value = self
            .mapped(sub, stored, wdl)
            .map_err(|c| corrupt(&self.path, c))?;
        // Flag 4 (wins) and 8 (losses): the values count plies; otherwise moves.
        let plies_flag = match wdl {
            2 => 4,
            -2 => 8,
            _ => 0,
        };
        let doubled = sub.dtz.flags & plies_flag == 0 || wdl % 2 != 0;
        let value = i32::from(value);
        Ok(Some(if doubled {
            (2 * value, true)
        } else {
            (value, false)
        }))
    }

    /// A stored DTZ value through the map of `wdl`'s class, when the table has maps.
    fn mapped(&self, sub: &Subtable, stored: u16, wdl: i8) -> Result<u16, Corrupt> {
        let Some(maps) = sub.dtz.maps else {
            return Ok(stored);
        };
        // The maps' order in the file: win, loss, cursed win, blessed loss.
        let which = match wdl {
            2 => 0,
            -2 => 1,
            1 => 2,
            _ => 3,
        };
        let (start, len) = maps[which];
        let k = usize::from(stored);
        if k >= len {
            return Err(Corrupt::new(format!("DTZ map entry {k} of {len}")));
        }
        if sub.dtz.flags & 16 != 0 {
            u16_le(&self.data, start + 2 * k)
        } else {
            u8_at(&self.data, start + k).map(u16::from)
        }
    }
}

fn check_magic(path: &Path, data: &[u8], metric: Metric) -> Result<(), SyzygyError> {
    let not_a_table = |reason: String| SyzygyError::NotATable {
        path: path.to_path_buf(),
        reason,
    };
    let Some(magic) = data.get(..4) else {
        return Err(not_a_table(format!(
            "{} bytes: too short for a Syzygy table",
            data.len()
        )));
    };
    if magic == metric.magic() && data.len() > 5 {
        return Ok(());
    }
    let other = match metric {
        Metric::Wdl => Metric::Dtz,
        Metric::Dtz => Metric::Wdl,
    };
    let what = if magic == metric.magic() {
        "a header and nothing more".to_string()
    } else if magic == other.magic() {
        format!(
            "a {} table where a {} table is expected",
            other.name(),
            metric.name()
        )
    } else if let Some((_, variant)) = VARIANT_MAGICS.iter().find(|(m, _)| m == magic) {
        format!("{variant}, not a standard chess table")
    } else {
        format!(
            "bad magic number {magic:02x?}: not a Syzygy {} table",
            metric.name()
        )
    };
    Err(not_a_table(what))
}

pub(crate) fn shape_of(name: &TableName) -> Result<Shape, Corrupt> {
    let (w, b) = (name.pawns(0), name.pawns(1));
    if w + b > 0 {
        let (lead, other) = if w > 0 && b > 0 {
            (w.min(b), w.max(b))
        } else {
            (w + b, 0)
        };
        return Ok(Shape::Pawns { lead, other });
    }
    match name.unique_pieces() {
        0..=1 => Err(Corrupt::new(format!(
            "{name}: fewer than two unique pieces (a variant's table?)"
        ))),
        2 => Ok(Shape::Pawnless(Leading::KingPair)),
        _ => Ok(Shape::Pawnless(Leading::ThreeUnique)),
    }
}

/// The layouts of every (file, side), and where the compression headers start.
fn read_layouts(
    data: &[u8],
    shape: Shape,
    pieces: usize,
    files: usize,
    sides: usize,
) -> Result<(Vec<Vec<Layout>>, usize), Corrupt> {
    let mut at = 5;
    let mut out = Vec::new();
    let file_count = match shape {
        Shape::Pawnless(_) => 1,
        Shape::Pawns { .. } => 4,
    };
    if files > file_count {
        return Err(Corrupt::new("pawn files in a pawnless table"));
    }
    for f in 0..file_count {
        let orders = match shape {
            Shape::Pawns { other, .. } if other > 0 => 2,
            _ => 1,
        };
        let mut per_side = Vec::new();
        for side in 0..sides {
            let nibble = |b: u8| if side == 0 { b & 0x0f } else { b >> 4 };
            let order = nibble(u8_at(data, at)?);
            let order2 = if orders == 2 {
                nibble(u8_at(data, at + 1)?)
            } else {
                0x0f
            };
            let codes = (0..pieces)
                .map(|i| u8_at(data, at + orders + i).map(nibble))
                .collect::<Result<Vec<_>, _>>()?;
            per_side.push(layout(codes, shape, order, order2, f)?);
        }
        out.push(per_side);
        at += pieces + orders;
    }
    Ok((out, at + (at & 1)))
}

/// A sub-table's layout: groups of identical pieces and the factor of each part of the index
/// (the header's `order` says where the leading part stands among them).
pub(crate) fn layout(
    pieces: Vec<u8>,
    shape: Shape,
    order: u8,
    order2: u8,
    file: usize,
) -> Result<Layout, Corrupt> {
    if pieces.iter().any(|&c| !(1..=6).contains(&(c & 7))) {
        return Err(Corrupt::new(format!("piece codes {pieces:?}")));
    }
    let n = pieces.len();
    let mut groups = [0u8; MAX_TB_PIECES];
    let (first, lead_places) = match shape {
        Shape::Pawnless(leading) => (leading.count(), leading.placements()),
        Shape::Pawns { lead, other } => {
            if other > 0 {
                groups[lead] = other as u8;
            }
            (lead + other, encode::leading_pawn_placements(lead, file))
        }
    };
    let lead_count = match shape {
        Shape::Pawnless(l) => l.count(),
        Shape::Pawns { lead, .. } => lead,
    };
    groups[0] = lead_count as u8;
    let mut i = first;
    while i < n {
        let run = pieces[i..].iter().take_while(|&&c| c == pieces[i]).count();
        groups[i] = run as u8;
        i += run;
    }
    let mut layout = Layout {
        pieces,
        groups,
        factors: [0; MAX_TB_PIECES],
        size: 0,
    };
    layout.size = factors(&mut layout, shape, order, order2, lead_places)?;
    Ok(layout)
}

/// Sets each part's factor, the parts taken in the order the header gives; returns the
/// number of indices.
fn factors(
    layout: &mut Layout,
    shape: Shape,
    order: u8,
    order2: u8,
    lead_places: u64,
) -> Result<u64, Corrupt> {
    let n = layout.pieces.len();
    let lead = usize::from(layout.groups[0]);
    let (mut i, second) = match shape {
        Shape::Pawns { other, .. } if other > 0 => (lead + other, Some(other)),
        _ => (lead, None),
    };
    let mut free = 64 - i as i32;
    let mut f: u64 = 1;
    let mut placed_lead = false;
    let overflow = || Corrupt::new("more indices than 2^64");
    for k in 0..=MAX_TB_PIECES as u8 + 1 {
        if k == order {
            layout.factors[0] = f;
            f = f.checked_mul(lead_places).ok_or_else(overflow)?;
            placed_lead = true;
        } else if k == order2 && second.is_some() {
            let other = second.unwrap_or(0);
            layout.factors[lead] = f;
            let count = encode::binomial(48 - lead as i32, other);
            f = f.checked_mul(count).ok_or_else(overflow)?;
        } else if i < n {
            let g = usize::from(layout.groups[i]);
            layout.factors[i] = f;
            f = f
                .checked_mul(encode::binomial(free, g))
                .ok_or_else(overflow)?;
            free -= g as i32;
            i += g;
        }
    }
    if !placed_lead || i < n {
        return Err(Corrupt::new(format!("index order {order} out of range")));
    }
    Ok(f)
}

/// The four value maps of each DTZ sub-table that has them (flag 2), after the compression
/// headers; returns where the index tables start.
fn read_maps(
    data: &[u8],
    mut at: usize,
    subtables: &mut [Vec<Subtable>],
) -> Result<usize, Corrupt> {
    for sub in subtables.iter_mut().flatten() {
        if sub.dtz.flags & 2 == 0 {
            continue;
        }
        let wide = sub.dtz.flags & 16 != 0;
        if wide {
            at += at & 1;
        }
        let mut maps = [(0, 0); 4];
        for map in &mut maps {
            let (len, width) = if wide {
                (usize::from(u16_le(data, at)?), 2)
            } else {
                (usize::from(u8_at(data, at)?), 1)
            };
            *map = (at + width, len);
            at += width * (1 + len);
        }
        sub.dtz.maps = Some(maps);
    }
    Ok(at + (at & 1))
}

/// Places the index tables, then the size tables, then the 64-byte-aligned data of every
/// sub-table in file order, checking that all lie within the file.
fn place_sections(
    len: usize,
    start: usize,
    subtables: &mut [Vec<Subtable>],
) -> Result<(), Corrupt> {
    let mut at = start as u64;
    let mut offsets = Vec::new();
    for section in 0..3 {
        for sub in subtables.iter().flatten() {
            if section == 2 {
                at = at.div_ceil(64).saturating_mul(64);
            }
            offsets.push(at);
            at = at.saturating_add(sub.pairs.section_lengths()[section]);
        }
    }
    if at > len as u64 {
        return Err(Corrupt::new(format!(
            "sections end at byte {at}, past the end of the file ({len} bytes)"
        )));
    }
    let count = offsets.len() / 3;
    for (k, sub) in subtables.iter_mut().flatten().enumerate() {
        let [i, s, d] = [0, 1, 2].map(|section| offsets[section * count + k] as usize);
        sub.pairs.place(i, s, d);
    }
    Ok(())
}

/// Fills `sq[from..]` with the squares of the pieces `codes[from..]` name, each code's squares
/// in square order (identical pieces share a code and follow each other), colours swapped
/// when `flip`, and ranks mirrored too when `mirror_ranks` (pawn tables: pawnless indices are
/// symmetric anyway).
fn collect_squares(
    pos: &Position,
    codes: &[u8],
    flip: bool,
    mirror_ranks: bool,
    sq: &mut [u8],
    from: usize,
) -> Result<(), Corrupt> {
    let mut i = from;
    while i < sq.len() {
        let code = *codes
            .get(i)
            .ok_or_else(|| Corrupt::new("fewer piece codes than pieces"))?;
        let black = (code & 8 != 0) != flip;
        let before = i;
        for (s, p) in pos.pieces() {
            if (p.color == Color::Black) == black && p.role as u8 + 1 == code & 7 {
                let slot = sq
                    .get_mut(i)
                    .ok_or_else(|| Corrupt::new("the position's material is not the table's"))?;
                let s = s.index() as u8;
                *slot = if flip && mirror_ranks { s ^ 0x38 } else { s };
                i += 1;
            }
        }
        if i == before {
            return Err(Corrupt::new("the position's material is not the table's"));
        }
    }
    Ok(())
}
