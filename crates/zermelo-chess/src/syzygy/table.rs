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

use zermelo::io::Mapping;

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

/// A table file's bytes: read into memory, or mapped (only the pages probed are read).
pub(crate) enum TableBytes {
    /// Read whole.
    Read(Vec<u8>),
    /// Memory-mapped.
    Mapped(Mapping),
}

impl TableBytes {
    fn get(&self) -> &[u8] {
        match self {
            TableBytes::Read(v) => v,
            TableBytes::Mapped(m) => m.bytes(),
        }
    }
}

impl std::fmt::Debug for TableBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self {
            TableBytes::Read(_) => "read",
            TableBytes::Mapped(_) => "mapped",
        };
        write!(f, "{} bytes, {how}", self.get().len())
    }
}

/// An opened, checked table file.
#[derive(Debug)]
pub(crate) struct TableFile {
    path: PathBuf,
    data: TableBytes,
    metric: Metric,
    shape: Shape,
    /// The orientation the file stores (white first).
    key: TableName,
    symmetric: bool,
    /// Per pawn file (one for pawnless tables), per stored side.
    subtables: Vec<Vec<Subtable>>,
}

/// Files up to this size have their checksum checked when they are opened (64 MiB: every
/// published table of up to 5 pieces but the largest DTZ ones, about 40 ms of hashing at most);
/// a larger one when asked ([`super::SyzygyTables::with_every_checksum`]: `tb verify
/// --against`).
/// Syzygy's own probing code never checks it (`tbcheck` does, apart).
pub(crate) const CHECKSUM_ON_OPEN: u64 = 64 << 20;

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
        data: TableBytes,
        name: &TableName,
        metric: Metric,
        every_checksum: bool,
    ) -> Result<TableFile, SyzygyError> {
        let len = data.get().len();
        check_magic(path, data.get(), metric)?;
        if len % 64 != 16 {
            return Err(corrupt(
                path,
                Corrupt::new(format!(
                    "{len} bytes: a Syzygy table is 64k + 16 bytes long (truncated?)"
                )),
            ));
        }
        if every_checksum || len as u64 <= CHECKSUM_ON_OPEN {
            let (body, stored) = data.get().split_at(len - 16);
            if super::checksum::syzygy_checksum(body) != stored {
                return Err(corrupt(
                    path,
                    Corrupt::new(
                        "its checksum (the last 16 bytes) does not match its contents: the \
                         file is damaged",
                    ),
                ));
            }
            if let TableBytes::Mapped(m) = &data {
                m.release(); // read whole for the checksum; probes fault in what they read
            }
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
        let data = self.data.get();
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

    /// The stored WDL class (-2..=2) of `pos`, which must have this table's material.
    pub(crate) fn wdl(&self, pos: &Position) -> Result<i8, SyzygyError> {
        let found = self.locate(pos).map_err(|c| corrupt(&self.path, c))?;
        let (sub, idx) = found
            .ok_or_else(|| corrupt(&self.path, Corrupt::new("the side to move is not stored")))?;
        let v = sub
            .pairs
            .value(self.data.get(), idx)
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
            .value(self.data.get(), idx)
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
            u16_le(self.data.get(), start + 2 * k)
        } else {
            u8_at(self.data.get(), start + k).map(u16::from)
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

/// The index arithmetic for 6 and 7 pieces (no such published file is kept here): layouts built
/// as a file would declare them, every part's factor placed in each order a header may give,
/// then random legal positions indexed as [`TableFile::locate`] does. Each index must lie in
/// the table; positions that are not images of each other under the board's symmetries must
/// have different indices (also when one piece walks over every free square); and the images
/// of a position take at most two indices (the format identifies them all, except across the
/// a1-h8 diagonal while the leading pieces stand on it, and across the mirror while the
/// leading pawns tie).
#[cfg(test)]
mod many_pieces {
    use std::collections::HashMap;

    use super::*;
    use crate::square::{Piece, Role, Square};

    /// A piece code as files write them (bit 3 black, pawn = 1 .. king = 6).
    fn code(color: Color, role: Role) -> u8 {
        role as u8 + 1 + if color == Color::Black { 8 } else { 0 }
    }

    /// `material`'s pieces as (colour, role), white first, from `KQRvKQR`-style text.
    fn pieces(material: &str) -> Vec<(Color, Role)> {
        let (w, b) = material.split_once('v').unwrap();
        let role = |c: char| match c {
            'K' => Role::King,
            'Q' => Role::Queen,
            'R' => Role::Rook,
            'B' => Role::Bishop,
            'N' => Role::Knight,
            _ => Role::Pawn,
        };
        let side = |s: &str, color| s.chars().map(move |c| (color, role(c))).collect::<Vec<_>>();
        let mut out = side(w, Color::White);
        out.extend(side(b, Color::Black));
        out
    }

    /// The piece codes in a file's order: the leading part first (the unique pieces, or the
    /// kings, or the leading pawns then the other colour's pawns), then the rest grouped.
    fn codes(material: &str, shape: Shape) -> Vec<u8> {
        let ps = pieces(material);
        let count = |c: &(Color, Role)| ps.iter().filter(|p| *p == c).count();
        let mut codes: Vec<u8> = Vec::new();
        match shape {
            Shape::Pawns { lead, .. } => {
                let leader = if ps
                    .iter()
                    .filter(|p| **p == (Color::White, Role::Pawn))
                    .count()
                    == lead
                {
                    Color::White
                } else {
                    Color::Black
                };
                codes.extend(std::iter::repeat_n(code(leader, Role::Pawn), lead));
                let other = leader.other();
                let n = count(&(other, Role::Pawn));
                codes.extend(std::iter::repeat_n(code(other, Role::Pawn), n));
            }
            Shape::Pawnless(Leading::ThreeUnique) => {
                let unique: Vec<_> = ps.iter().filter(|p| count(p) == 1).take(3).collect();
                codes.extend(unique.iter().map(|&&(c, r)| code(c, r)));
            }
            Shape::Pawnless(Leading::KingPair) => {
                codes.extend([
                    code(Color::White, Role::King),
                    code(Color::Black, Role::King),
                ]);
            }
        }
        let mut rest: Vec<u8> = ps.iter().map(|&(c, r)| code(c, r)).collect();
        for c in &codes {
            let k = rest.iter().position(|r| r == c).unwrap();
            rest.remove(k);
        }
        rest.sort_unstable();
        codes.extend(rest);
        codes
    }

    /// A random legal position of `material` (pawns on ranks 2-7).
    fn random_position(material: &str, x: &mut u64) -> Position {
        loop {
            let mut pos = Position::empty(if *x & 1 == 0 {
                Color::White
            } else {
                Color::Black
            });
            let mut ok = true;
            for (color, role) in pieces(material) {
                *x ^= *x << 13;
                *x ^= *x >> 7;
                *x ^= *x << 17;
                let sq = Square::new((*x % 64) as u8).unwrap();
                let back_rank = sq.rank() == 0 || sq.rank() == 7;
                if pos.piece_at(sq).is_some() || (role == Role::Pawn && back_rank) {
                    ok = false;
                    break;
                }
                pos.set(sq, Some(Piece { color, role }));
            }
            if ok && !pos.opponent_in_check() {
                return pos;
            }
        }
    }

    /// `pos` under one of the board's symmetries (bit 0: files mirrored, bit 1: ranks, bit 2:
    /// the a1-h8 diagonal).
    fn transformed(pos: &Position, t: u8) -> Position {
        let mut out = Position::empty(pos.turn());
        for (sq, p) in pos.pieces() {
            let mut s = sq.index() as u8;
            if t & 1 != 0 {
                s ^= 7;
            }
            if t & 2 != 0 {
                s ^= 0x38;
            }
            if t & 4 != 0 {
                s = ((s >> 3) | (s << 3)) & 63;
            }
            out.set(Square::new(s).unwrap(), Some(p));
        }
        out
    }

    /// The pawn file (0 without pawns) and the index within its sub-table of `pos`, with the
    /// layouts of each pawn file (one for pawnless tables).
    fn file_and_index(pos: &Position, layouts: &[Layout], shape: Shape) -> (usize, u64) {
        let n = layouts[0].pieces.len();
        let mut sq = [0u8; MAX_TB_PIECES];
        let sq = &mut sq[..n];
        match shape {
            Shape::Pawnless(leading) => {
                collect_squares(pos, &layouts[0].pieces, false, false, sq, 0).unwrap();
                (0, encode::pawnless_index(&layouts[0], leading, sq))
            }
            Shape::Pawns { lead, other } => {
                collect_squares(pos, &layouts[0].pieces, false, true, &mut sq[..lead], 0).unwrap();
                let f = encode::lead_pawn_file(sq, lead);
                collect_squares(pos, &layouts[f].pieces, false, true, sq, lead).unwrap();
                (f, encode::pawn_index(&layouts[f], lead, other, sq))
            }
        }
    }

    /// One index over all sub-tables (those of files a/h..d/e follow each other).
    fn index(pos: &Position, layouts: &[Layout], shape: Shape) -> u64 {
        let (f, idx) = file_and_index(pos, layouts, shape);
        layouts[..f].iter().map(|l| l.size).sum::<u64>() + idx
    }

    /// python-chess's indices of 6- and 7-piece positions under the layouts files declare
    /// (`tests/data/syzygy-index-oracle.csv`, written by `scripts/syzygy-index-oracle.py`)
    /// are ours.
    #[test]
    fn python_chess_indices_of_six_and_seven_pieces_are_ours() {
        let csv = include_str!("../../tests/data/syzygy-index-oracle.csv");
        let mut checked = 0;
        for line in csv.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let name = TableName::parse(f[0]).unwrap();
            let codes: Vec<u8> = f[1].split(' ').map(|c| c.parse().unwrap()).collect();
            let (order, order2): (u8, u8) = (f[2].parse().unwrap(), f[3].parse().unwrap());
            let pos = Position::from_fen(f[4]).unwrap();
            let want: (usize, u64) = (f[5].parse().unwrap(), f[6].parse().unwrap());
            let shape = shape_of(&name).unwrap();
            let files = if matches!(shape, Shape::Pawns { .. }) {
                4
            } else {
                1
            };
            let layouts: Vec<Layout> = (0..files)
                .map(|file| layout(codes.clone(), shape, order, order2, file).unwrap())
                .collect();
            let got = file_and_index(&pos, &layouts, shape);
            assert_eq!(got, want, "{} order {order}/{order2}: {}", f[0], f[4]);
            assert!(got.1 < layouts[got.0].size, "{line}");
            checked += 1;
        }
        assert!(checked >= 4_000, "{checked}");
    }

    fn check(material: &str, orders: &[(u8, u8)], samples: usize) {
        let name = TableName::parse(material).unwrap();
        assert!(name.piece_count() >= 6, "{material}");
        let shape = shape_of(&name).unwrap();
        let codes = codes(material, shape);
        let files = if matches!(shape, Shape::Pawns { .. }) {
            4
        } else {
            1
        };
        for &(order, order2) in orders {
            let layouts: Vec<Layout> = (0..files)
                .map(|f| layout(codes.clone(), shape, order, order2, f).unwrap())
                .collect();
            let total: u64 = layouts.iter().map(|l| l.size).sum();
            let images: &[u8] = match shape {
                Shape::Pawnless(_) => &[0, 1, 2, 3, 4, 5, 6, 7],
                Shape::Pawns { .. } => &[0, 1],
            };
            let mut seen: HashMap<u64, Position> = HashMap::new();
            let mut record = |idx: u64, pos: Position| {
                assert!(idx < total, "{material} {}: {idx} of {total}", pos.fen());
                if let Some(other) = seen.insert(idx, pos) {
                    assert!(
                        images.iter().any(|&t| transformed(&other, t) == pos),
                        "{material} order {order}: {} and {} share index {idx}",
                        pos.fen(),
                        other.fen()
                    );
                }
            };
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ u64::from(order);
            for k in 0..samples {
                let pos = random_position(material, &mut x);
                record(index(&pos, &layouts, shape), pos);
                let of_images: std::collections::BTreeSet<u64> = images
                    .iter()
                    .map(|&t| index(&transformed(&pos, t), &layouts, shape))
                    .collect();
                assert!(
                    of_images.len() <= 2,
                    "{material}: {} {of_images:?}",
                    pos.fen()
                );
                if k % 100 != 0 {
                    continue;
                }
                // One piece (the last) over every square it may stand on.
                let (from, piece) = pos.pieces().last().unwrap();
                for to in 0..64u8 {
                    let to = Square::new(to).unwrap();
                    let back_rank = to.rank() == 0 || to.rank() == 7;
                    if pos.piece_at(to).is_some() || (piece.role == Role::Pawn && back_rank) {
                        continue;
                    }
                    let mut moved = pos;
                    moved.set(from, None);
                    moved.set(to, Some(piece));
                    if !moved.opponent_in_check() {
                        record(index(&moved, &layouts, shape), moved);
                    }
                }
            }
        }
    }

    #[test]
    fn six_and_seven_pieces_without_pawns() {
        // Three unique leading pieces, then single pieces (factors of 61..58 squares left).
        check("KQRvKQR", &[(0, 0x0f), (3, 0x0f)], 4_000);
        check("KQRBvKQR", &[(0, 0x0f), (4, 0x0f)], 4_000);
        // Only the kings unique: the king pair leads, then groups of 2 and 3 equal pieces.
        check("KNNNvKRR", &[(0, 0x0f), (2, 0x0f)], 4_000);
        check("KRRvKBB", &[(0, 0x0f), (1, 0x0f)], 4_000);
    }

    #[test]
    fn six_and_seven_pieces_with_pawns() {
        // One colour's pawns lead; with pawns on both sides the others form the second part.
        check("KRPPvKR", &[(0, 0x0f), (2, 0x0f)], 4_000);
        check("KPPPvKPP", &[(0, 1), (1, 0), (0, 2)], 4_000);
        check("KQPvKRPP", &[(0, 1), (2, 1)], 4_000);
        check("KPPPPvKP", &[(0, 1), (1, 0)], 4_000);
    }

    #[test]
    fn seven_piece_names_normalize_and_count() {
        for (given, file) in [
            ("KRRvKQQNN", None),
            ("KPvKQRBN", Some("KQRBNvKP")),
            ("KBBvKQQ", Some("KQQvKBB")),
            ("KPPPvKPP", Some("KPPPvKPP")),
        ] {
            let n = TableName::parse(given).unwrap();
            match file {
                Some(f) => {
                    assert_eq!(n.normalized().to_string(), f, "{given}");
                    assert!(n.piece_count() <= MAX_TB_PIECES);
                }
                None => assert!(n.piece_count() > MAX_TB_PIECES),
            }
        }
    }
}
