//! zermelo's tables written as Syzygy's files ([`export_syzygy`]): a material's `.rtbw` and
//! `.rtbz`, readable by every Syzygy prober.
//!
//! zermelo's tables are read only through [`Tablebase::probe_dtz`] (a position's value under
//! the 50-move rule), so this does not depend on how zermelo indexes its tables. In order:
//!
//! 1. **Positions.** Every legal position of the material without en passant rights, one per
//!    symmetry class, side by side with what a prober reading the file will do with it:
//!    its class (WDL); whether a capture already reaches that class (then the prober takes
//!    the capture and the file may hold any lower class: a *bounded* place); and whether the
//!    prober reads its DTZ (not for draws, nor for wins that a capture or a pawn push keeps,
//!    which the prober finds by itself), with the DTZ. The loops run in the order of
//!    zermelo's own index (the last piece innermost), so that consecutive probes read the
//!    same blocks of zermelo's tables; that is speed only, not correctness. The places are
//!    kept in one layout of the Syzygy index, two bytes each ([`Place`]).
//! 2. **Orders.** Each sub-table may list its pieces in any order the format allows
//!    ([`super::layouts`]); each order is tried on sampled stretches of its sequence (filled
//!    and compressed as below) and the smallest kept. A DTZ file stores one side to move per
//!    sub-table: the side whose best order compresses smaller.
//! 3. **Values.** Free and bounded places are filled ([`super::fill`]); DTZ values are
//!    stored in moves (halved) unless a DTZ of exactly 100 plies makes plies necessary (the
//!    published generator's rule), mapped per class through a table sorted by frequency, and
//!    compressed ([`super::compress`]); the files are assembled with their checksums
//!    ([`super::write`]) and written atomically.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::compress::compress;
use super::encode::{self, Layout, MAX_TB_PIECES};
use super::fill::{fill_free, fill_wdl, BOUNDED, FREE};
use super::layouts::{candidates, Candidate};
use super::name::TableName;
use super::table::{shape_of, Metric, Shape};
use super::unrank::unrank;
use super::write::{assemble, Body, DtzInfo, SubTable};
use crate::dtz::{Wdl50, DEFAULT_RULE};
use crate::material::Material;
use crate::position::{Move, Position, Setup};
use crate::probe::{ProbeError, Tablebase};
use crate::square::{Color, Piece, Role};
use crate::value::Value;

/// Why a table could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// A table of zermelo's that the export reads is missing or unusable (the material's own
    /// DTZ table, or one a capture or promotion leads to).
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The output could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A material Syzygy has no file for (bare kings, or more than 7 pieces).
    #[error("{0}: Syzygy has no table of this material")]
    Unsupported(String),
    /// A DTZ too long for the format's 12-bit values.
    #[error("{material}: a DTZ of {plies} plies is more than a Syzygy table holds")]
    TooLong {
        /// The material.
        material: String,
        /// The distance.
        plies: u32,
    },
}

/// What [`export_syzygy`] wrote.
#[derive(Clone, Debug)]
pub struct SyzygyExport {
    /// The material as Syzygy names its files (`KQvKR`).
    pub name: String,
    /// The WDL file written.
    pub wdl_path: PathBuf,
    /// The DTZ file written.
    pub dtz_path: PathBuf,
    /// The WDL file's size in bytes.
    pub wdl_bytes: u64,
    /// The DTZ file's size in bytes.
    pub dtz_bytes: u64,
    /// Legal positions enumerated (one per symmetry class and side to move).
    pub positions: u64,
    /// Wall-clock time.
    pub time: Duration,
}

/// A place of the Syzygy index: bits 12-15 the WDL place ([`super::fill`]'s encoding), bits
/// 0-11 the DTZ distance stored in plies ([`NOT_READ`] when the prober does not read it):
/// for wins and losses the DTZ minus 1, for cursed wins and blessed losses minus 101.
type Place = u16;
const NOT_READ: u16 = 0xfff;
const EMPTY: Place = (FREE as u16) << 12 | NOT_READ;

/// Stretches of a sequence that stand for it when orders are compared.
const SAMPLE_STRETCHES: u64 = 32;
const STRETCH: u64 = 2048;

/// Writes `material`'s tables, read from `tb` (its DTZ table and those of every material a
/// capture or promotion leads to, all for the 50-move rule), as Syzygy's `<name>.rtbw` and
/// `<name>.rtbz` in `dir`.
///
/// # Errors
/// A missing or unusable zermelo table ([`ExportError::Probe`]), an unwritable `dir`, a
/// material Syzygy has no file for.
pub fn export_syzygy(
    tb: &Tablebase,
    material: &Material,
    dir: &Path,
) -> Result<SyzygyExport, ExportError> {
    let started = Instant::now();
    let plan = Plan::new(material)?;
    let name = plan.name.to_string();
    let (wdl, dtz, positions) = plan.write(tb)?;
    let mut out = SyzygyExport {
        wdl_path: dir.join(format!("{name}.rtbw")),
        dtz_path: dir.join(format!("{name}.rtbz")),
        name,
        wdl_bytes: wdl.len() as u64,
        dtz_bytes: dtz.len() as u64,
        positions,
        time: Duration::ZERO,
    };
    for (path, bytes) in [(&out.wdl_path, wdl), (&out.dtz_path, dtz)] {
        crate::atomic::write_atomically(path, |w| {
            w.write_all(&bytes)?;
            Ok(bytes.len() as u64)
        })
        .map_err(|source| ExportError::Write {
            path: path.clone(),
            source,
        })?;
    }
    out.time = started.elapsed();
    Ok(out)
}

/// One piece of the enumeration: its piece in zermelo's orientation, its code in the file's.
#[derive(Clone, Copy, Debug)]
struct Slot {
    piece: Piece,
    code: u8,
}

/// How one material is written.
struct Plan {
    name: TableName,
    /// The file's white is zermelo's black.
    flip: bool,
    shape: Shape,
    symmetric: bool,
    pieces: usize,
    /// The kinds of pieces (file codes) and their counts.
    kinds: Vec<(u8, usize)>,
    /// The code of the leading pawns (pawn tables).
    lead: u8,
    /// The pieces in the order of zermelo's index (pawns, kings, white, black).
    slots: Vec<Slot>,
}

fn code_of(piece: Piece) -> u8 {
    piece.role as u8 + 1 + if piece.color == Color::Black { 8 } else { 0 }
}

impl Plan {
    fn new(material: &Material) -> Result<Plan, ExportError> {
        let unsupported = || ExportError::Unsupported(material.to_string());
        let (m, _) = material.canonical();
        if m.piece_count() < 3 || m.piece_count() > MAX_TB_PIECES {
            return Err(unsupported());
        }
        let piece = |color, role| Piece { color, role };
        let mut z: Vec<Piece> = Vec::new();
        for color in [Color::White, Color::Black] {
            z.extend(
                m.side(color)
                    .iter()
                    .filter(|&&r| r == Role::Pawn)
                    .map(|&r| piece(color, r)),
            );
        }
        z.push(piece(Color::White, Role::King));
        z.push(piece(Color::Black, Role::King));
        for color in [Color::White, Color::Black] {
            z.extend(
                m.side(color)
                    .iter()
                    .filter(|&&r| r != Role::Pawn)
                    .map(|&r| piece(color, r)),
            );
        }
        let codes: Vec<u8> = z.iter().map(|&p| code_of(p)).collect();
        let white = TableName::from_codes(&codes).map_err(|_| unsupported())?;
        let name = white.normalized();
        let flip = name != white;
        let slots: Vec<Slot> = z
            .iter()
            .map(|&p| Slot {
                piece: p,
                code: code_of(p) ^ if flip { 8 } else { 0 },
            })
            .collect();
        let shape = shape_of(&name).map_err(|_| unsupported())?;
        let mut kinds: Vec<(u8, usize)> = Vec::new();
        for s in &slots {
            match kinds.iter_mut().find(|k| k.0 == s.code) {
                Some(k) => k.1 += 1,
                None => kinds.push((s.code, 1)),
            }
        }
        kinds.sort_unstable();
        // The leading pawns: the colour with fewer pawns when both have some, white on a tie.
        let count = |code: u8| kinds.iter().find(|k| k.0 == code).map_or(0, |k| k.1);
        let (w, b) = (count(1), count(9));
        let lead = if w > 0 && (b == 0 || w <= b) { 1 } else { 9 };
        Ok(Plan {
            symmetric: name.is_symmetric(),
            pieces: slots.len(),
            name,
            flip,
            shape,
            kinds,
            lead,
            slots,
        })
    }

    fn files(&self) -> usize {
        match self.shape {
            Shape::Pawnless(_) => 1,
            Shape::Pawns { .. } => 4,
        }
    }

    /// Sides to move stored: both unless both colours have the same pieces.
    fn sides(&self) -> usize {
        if self.symmetric {
            1
        } else {
            2
        }
    }

    /// The two files' bytes and the positions enumerated.
    fn write(&self, tb: &Tablebase) -> Result<(Vec<u8>, Vec<u8>, u64), ExportError> {
        let orders = candidates(&self.kinds, self.shape, self.lead);
        let mut wdl_files = Vec::new();
        let mut dtz_files = Vec::new();
        let mut positions = 0;
        let hundred = [
            [AtomicBool::new(false), AtomicBool::new(false)],
            [AtomicBool::new(false), AtomicBool::new(false)],
        ];
        // The places of every file first: whether DTZ is stored in plies depends on all.
        let mut places = Vec::new();
        for file in 0..self.files() {
            let base = &orders[0];
            let layout = base
                .layout(self.shape, file)
                .map_err(|_| self.unsupported())?;
            let (p, n) = self.places(tb, file, &layout, base, &hundred)?;
            positions += n;
            places.push((layout, p));
        }
        let hundred = hundred.map(|side| side.map(|b| b.into_inner()));
        for (file, (layout, p)) in places.into_iter().enumerate() {
            let ctx = File {
                plan: self,
                file,
                base: &orders[0],
                base_layout: &layout,
                places: &p,
                hundred,
            };
            let mut wdl = Vec::new();
            for side in 0..self.sides() {
                wdl.push(ctx.wdl_subtable(side, &orders)?);
            }
            wdl_files.push(wdl);
            dtz_files.push(vec![ctx.dtz_subtable(&orders)?]);
        }
        let two_orders = matches!(self.shape, Shape::Pawns { other, .. } if other > 0);
        let pawns = self.files() == 4;
        Ok((
            assemble(Metric::Wdl, self.pieces, pawns, two_orders, &wdl_files),
            assemble(Metric::Dtz, self.pieces, pawns, two_orders, &dtz_files),
            positions,
        ))
    }

    fn unsupported(&self) -> ExportError {
        ExportError::Unsupported(self.name.to_string())
    }

    /// The places of sub-table `file` in the layout of `base`, per side to move, and the
    /// legal positions found. Notes in `hundred[side][0 win, 1 loss]` whether a DTZ of
    /// exactly 100 plies occurs.
    fn places(
        &self,
        tb: &Tablebase,
        file: usize,
        layout: &Layout,
        base: &Candidate,
        hundred: &[[AtomicBool; 2]; 2],
    ) -> Result<(Vec<Vec<AtomicU16>>, u64), ExportError> {
        let sides = self.sides();
        let places: Vec<Vec<AtomicU16>> = (0..sides)
            .map(|_| (0..layout.size).map(|_| AtomicU16::new(EMPTY)).collect())
            .collect();
        // Where each slot's square goes in the base layout.
        let mut taken = vec![false; self.pieces];
        let to_base: Vec<usize> = self
            .slots
            .iter()
            .map(|s| {
                let k = (0..self.pieces)
                    .find(|&k| !taken[k] && base.codes[k] == s.code)
                    .expect("every slot has a code in the layout");
                taken[k] = true;
                k
            })
            .collect();
        // Tasks: the side to move and the squares of the first two slots.
        let turns: Vec<Color> = if self.symmetric {
            vec![if self.flip {
                Color::Black
            } else {
                Color::White
            }]
        } else {
            vec![Color::White, Color::Black]
        };
        let mut tasks = Vec::new();
        for &turn in &turns {
            for a in 0..64u8 {
                for b in 0..64u8 {
                    let sq = [a, b];
                    if self.allowed(&sq, 0) && self.allowed(&sq, 1) {
                        tasks.push((turn, a, b));
                    }
                }
            }
        }
        let walk = Walk {
            plan: self,
            tb,
            file,
            layout,
            to_base: &to_base,
            places: &places,
            hundred,
        };
        let counts: Result<Vec<u64>, ExportError> = tasks
            .par_iter()
            .map(|&(turn, a, b)| {
                let mut sq = [0u8; MAX_TB_PIECES];
                sq[0] = a;
                sq[1] = b;
                let mut moves = Vec::new();
                walk.place(&mut sq, 2, turn, &mut moves)
            })
            .collect();
        Ok((places, counts?.iter().sum()))
    }

    /// Whether slot `k` may stand on `sq[k]` given the slots before it: a free square, a
    /// pawn off the first and last ranks, identical pieces in increasing squares, and the
    /// symmetry reduction (without pawns the white king in a1-d1-d4 and, on its diagonal,
    /// the black king not above it; with pawns the white king on files a-d).
    fn allowed(&self, sq: &[u8], k: usize) -> bool {
        let s = sq[k];
        if sq[..k].contains(&s) {
            return false;
        }
        let slot = self.slots[k];
        if slot.piece.role == Role::Pawn && !(8..56).contains(&s) {
            return false;
        }
        if k > 0 && self.slots[k - 1].piece == slot.piece && sq[k - 1] > s {
            return false;
        }
        let (file, rank) = (s & 7, s >> 3);
        let pawns = self.files() == 4;
        match (slot.piece.color, slot.piece.role) {
            (Color::White, Role::King) if pawns => file < 4,
            (Color::White, Role::King) => file < 4 && rank <= file,
            (Color::Black, Role::King) if !pawns => {
                let wk = self
                    .slots
                    .iter()
                    .position(|t| t.piece.role == Role::King)
                    .expect("a white king");
                let w = sq[wk];
                (w & 7) != (w >> 3) || rank <= file
            }
            _ => true,
        }
    }
}

/// The enumeration of one sub-table's positions.
struct Walk<'a> {
    plan: &'a Plan,
    tb: &'a Tablebase,
    file: usize,
    layout: &'a Layout,
    to_base: &'a [usize],
    places: &'a [Vec<AtomicU16>],
    hundred: &'a [[AtomicBool; 2]; 2],
}

impl Walk<'_> {
    /// Places slots `k..` (the ones before are on `sq`) and records every legal position;
    /// returns how many.
    fn place(
        &self,
        sq: &mut [u8; MAX_TB_PIECES],
        k: usize,
        turn: Color,
        moves: &mut Vec<Move>,
    ) -> Result<u64, ExportError> {
        let plan = self.plan;
        if k == plan.pieces {
            return self.record(sq, turn, moves);
        }
        // Once every pawn stands (pawns come first; tasks start with two slots placed), the
        // leading pawn must be on this sub-table's file.
        let pawns = plan
            .slots
            .iter()
            .filter(|s| s.piece.role == Role::Pawn)
            .count();
        if pawns > 0 && k == pawns.max(2) && self.lead_file(sq) != self.file {
            return Ok(0);
        }
        let mut n = 0;
        for s in 0..64u8 {
            sq[k] = s;
            if plan.allowed(sq, k) {
                n += self.place(sq, k + 1, turn, moves)?;
            }
        }
        Ok(n)
    }

    /// The file (0 = a/h .. 3 = d/e) of the leading pawn, in the file's orientation.
    fn lead_file(&self, sq: &[u8]) -> usize {
        let mut lead: Vec<u8> = Vec::new();
        for (k, s) in self.plan.slots.iter().enumerate() {
            if s.code == self.plan.lead {
                lead.push(self.oriented(sq[k]));
            }
        }
        let n = lead.len();
        encode::lead_pawn_file(&mut lead, n)
    }

    fn oriented(&self, s: u8) -> u8 {
        if self.plan.flip {
            s ^ 0x38
        } else {
            s
        }
    }

    /// Probes the position on `sq` and stores its place.
    fn record(
        &self,
        sq: &[u8; MAX_TB_PIECES],
        turn: Color,
        moves: &mut Vec<Move>,
    ) -> Result<u64, ExportError> {
        let plan = self.plan;
        let mut setup = Setup::empty();
        setup.turn = turn;
        for (k, slot) in plan.slots.iter().enumerate() {
            setup.board[usize::from(sq[k])] = Some(slot.piece);
        }
        let Ok(pos) = Position::from_setup(setup) else {
            return Ok(0);
        };
        let side = usize::from((turn == Color::Black) != plan.flip) % plan.sides();
        let place = self.place_of(&pos, side, moves)?;
        let mut at = [0u8; MAX_TB_PIECES];
        for (k, &b) in self.to_base.iter().enumerate() {
            at[b] = self.oriented(sq[k]);
        }
        let n = plan.pieces;
        let idx = match plan.shape {
            Shape::Pawnless(leading) => encode::pawnless_index(self.layout, leading, &mut at[..n]),
            Shape::Pawns { lead, other } => {
                encode::lead_pawn_file(&mut at[..n], lead);
                encode::pawn_index(self.layout, lead, other, &mut at[..n])
            }
        };
        self.places[side][idx as usize].store(place, Relaxed);
        Ok(1)
    }

    /// What a prober does with `pos` (legal, no en passant rights), as a [`Place`].
    fn place_of(
        &self,
        pos: &Position,
        side: usize,
        moves: &mut Vec<Move>,
    ) -> Result<Place, ExportError> {
        let tb = self.tb;
        let class = |p: &Position| -> Result<i8, ProbeError> {
            Ok(Wdl50::of(tb.probe_dtz(p)?, DEFAULT_RULE).syzygy())
        };
        let value = tb.probe_dtz(pos)?;
        let t = Wdl50::of(value, DEFAULT_RULE).syzygy();
        pos.legal_moves_into(moves);
        // The best class a capture (of a piece on the target square) reaches.
        let mut capture = -3;
        if t > -2 {
            for &m in moves.iter().filter(|m| pos.piece_at(m.to).is_some()) {
                capture = capture.max(-class(&pos.play(m))?);
                if capture == t {
                    break;
                }
            }
        }
        let wdl = (t + 2) as u16 | if capture == t { u16::from(BOUNDED) } else { 0 };
        let read = t != 0 && !(t > 0 && (capture == t || self.winning_push(pos, moves, t)?));
        match value {
            Value::Win(100) => self.hundred[side][0].store(true, Relaxed),
            Value::Lose(100) => self.hundred[side][1].store(true, Relaxed),
            _ => {}
        }
        let distance = match (read, value) {
            (false, _) | (true, Value::Draw) => NOT_READ,
            (true, Value::Win(d)) if t == 2 => (d - 1) as u16,
            (true, Value::Lose(d)) if t == -2 => (d.max(1) - 1) as u16,
            (true, Value::Win(d) | Value::Lose(d)) => {
                let beyond = d - (DEFAULT_RULE + 1);
                if beyond >= u32::from(NOT_READ) {
                    return Err(ExportError::TooLong {
                        material: self.plan.name.to_string(),
                        plies: d,
                    });
                }
                beyond as u16
            }
        };
        Ok(wdl << 12 | distance)
    }

    /// Whether a pawn move that captures nothing keeps the class `t` (the prober tries them
    /// before reading a win's DTZ).
    fn winning_push(&self, pos: &Position, moves: &[Move], t: i8) -> Result<bool, ExportError> {
        for &m in moves {
            let pawn = pos.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn);
            if pawn && !m.capture {
                let after = Wdl50::of(self.tb.probe_dtz(&pos.play(m))?, DEFAULT_RULE);
                if -after.syzygy() == t {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// One sub-table's places and how to read them in any order.
struct File<'a> {
    plan: &'a Plan,
    file: usize,
    base: &'a Candidate,
    base_layout: &'a Layout,
    places: &'a [Vec<AtomicU16>],
    hundred: [[bool; 2]; 2],
}

impl File<'_> {
    /// The places of `side` at the indices `range` of `order`'s layout.
    fn places_in(
        &self,
        order: &Candidate,
        layout: &Layout,
        side: usize,
        from: u64,
        to: u64,
    ) -> Vec<Place> {
        let plan = self.plan;
        let places = &self.places[side];
        if order == self.base {
            return (from..to)
                .map(|i| places[i as usize].load(Relaxed))
                .collect();
        }
        // Where each of the order's pieces goes in the base layout.
        let mut taken = vec![false; plan.pieces];
        let to_base: Vec<usize> = order
            .codes
            .iter()
            .map(|&c| {
                let k = (0..plan.pieces)
                    .find(|&k| !taken[k] && self.base.codes[k] == c)
                    .expect("the same pieces");
                taken[k] = true;
                k
            })
            .collect();
        let n = plan.pieces;
        (from..to)
            .into_par_iter()
            .map(|i| {
                let (sq, canonical) = unrank(layout, plan.shape, self.file, i);
                if !canonical {
                    return EMPTY;
                }
                let mut at = [0u8; MAX_TB_PIECES];
                for (k, &b) in to_base.iter().enumerate() {
                    at[b] = sq[k];
                }
                let idx = match plan.shape {
                    Shape::Pawnless(leading) => {
                        encode::pawnless_index(self.base_layout, leading, &mut at[..n])
                    }
                    Shape::Pawns { lead, other } => {
                        encode::lead_pawn_file(&mut at[..n], lead);
                        encode::pawn_index(self.base_layout, lead, other, &mut at[..n])
                    }
                };
                places[idx as usize].load(Relaxed)
            })
            .collect()
    }

    /// The places standing for `order`'s sequence when orders are compared: all of it, or
    /// evenly spaced stretches.
    fn sample(&self, order: &Candidate, side: usize) -> Result<Vec<Place>, ExportError> {
        let layout = order
            .layout(self.plan.shape, self.file)
            .map_err(|_| self.plan.unsupported())?;
        let size = layout.size;
        if size <= SAMPLE_STRETCHES * STRETCH * 2 {
            return Ok(self.places_in(order, &layout, side, 0, size));
        }
        let mut out = Vec::new();
        for k in 0..SAMPLE_STRETCHES {
            let from = k * (size - STRETCH) / (SAMPLE_STRETCHES - 1);
            out.extend(self.places_in(order, &layout, side, from, from + STRETCH));
        }
        Ok(out)
    }

    /// The order whose sequence compresses smallest by `cost`, and that cost.
    fn best_order<'o>(
        &self,
        orders: &'o [Candidate],
        side: usize,
        cost: impl Fn(&[Place]) -> u64 + Sync,
    ) -> Result<(&'o Candidate, u64), ExportError> {
        let costs: Result<Vec<u64>, ExportError> = orders
            .par_iter()
            .map(|o| Ok(cost(&self.sample(o, side)?)))
            .collect();
        let costs = costs?;
        let best = (0..orders.len())
            .min_by_key(|&k| (costs[k], k))
            .expect("an order");
        Ok((&orders[best], costs[best]))
    }

    fn wdl_subtable(&self, side: usize, orders: &[Candidate]) -> Result<SubTable, ExportError> {
        let (order, _) = self.best_order(orders, side, |p| wdl_body(p).1)?;
        let layout = order
            .layout(self.plan.shape, self.file)
            .map_err(|_| self.plan.unsupported())?;
        let places = self.places_in(order, &layout, side, 0, layout.size);
        Ok(SubTable {
            order: order.clone(),
            body: wdl_body(&places).0,
            dtz: None,
        })
    }

    /// The DTZ sub-table of the side whose best order compresses smaller.
    fn dtz_subtable(&self, orders: &[Candidate]) -> Result<SubTable, ExportError> {
        let mut best: Option<(usize, &Candidate, u64)> = None;
        for side in 0..self.plan.sides() {
            let plies = self.plies(side);
            let (order, cost) = self.best_order(orders, side, |p| dtz_body(p, plies, side).0 .1)?;
            if best.is_none_or(|b| cost < b.2) {
                best = Some((side, order, cost));
            }
        }
        let (side, order, _) = best.expect("a side");
        let layout = order
            .layout(self.plan.shape, self.file)
            .map_err(|_| self.plan.unsupported())?;
        let places = self.places_in(order, &layout, side, 0, layout.size);
        let ((body, _), info) = dtz_body(&places, self.plies(side), side);
        Ok(SubTable {
            order: order.clone(),
            body,
            dtz: Some(info),
        })
    }

    /// Whether `side`'s wins and losses are stored in plies: a DTZ of exactly 100 for the
    /// side to move, or its opposite for the other side, would be rounded across the rule.
    fn plies(&self, side: usize) -> (bool, bool) {
        let other = (side + 1) % 2;
        let h = &self.hundred;
        let stored = self.plan.sides() - 1;
        let (own, theirs) = (h[side.min(stored)], h[other.min(stored)]);
        (own[0] || theirs[1], own[1] || theirs[0])
    }
}

/// A WDL sequence's body and its size in bytes.
fn wdl_body(places: &[Place]) -> (Body, u64) {
    let mut wdl: Vec<u8> = places.iter().map(|&p| (p >> 12) as u8).collect();
    fill_wdl(&mut wdl);
    if wdl.iter().all(|&v| v == wdl[0]) {
        return (Body::Constant(wdl[0]), 2);
    }
    let coded = compress(&wdl.iter().map(|&v| u16::from(v)).collect::<Vec<_>>(), 6);
    let bytes = coded.file_bytes();
    (Body::Coded(coded), bytes)
}

/// A DTZ sequence's body, its size, and its flags and maps, for `side` storing wins and
/// losses in plies as `plies` says.
fn dtz_body(places: &[Place], plies: (bool, bool), side: usize) -> ((Body, u64), DtzInfo) {
    // Per class (map order: win, loss, cursed win, blessed loss), the stored values by
    // frequency.
    let stored = |p: Place| -> Option<(usize, u16)> {
        let d = p & NOT_READ;
        if d == NOT_READ {
            return None;
        }
        Some(match (p >> 12) & 7 {
            4 => (0, if plies.0 { d } else { d / 2 }),
            0 => (1, if plies.1 { d } else { d / 2 }),
            3 => (2, d / 2),
            _ => (3, d / 2),
        })
    };
    let mut freq = vec![[0u64; 4096]; 4];
    for &p in places {
        if let Some((map, v)) = stored(p) {
            freq[map][usize::from(v)] += 1;
        }
    }
    let mut info = DtzInfo {
        side: side as u8,
        wins_in_plies: plies.0,
        losses_in_plies: plies.1,
        maps: Default::default(),
    };
    let mut rank = vec![[0u16; 4096]; 4];
    for map in 0..4 {
        let mut values: Vec<u16> = (0..4096u16)
            .filter(|&v| freq[map][usize::from(v)] > 0)
            .collect();
        values.sort_by_key(|&v| (std::cmp::Reverse(freq[map][usize::from(v)]), v));
        for (k, &v) in values.iter().enumerate() {
            rank[map][usize::from(v)] = k as u16;
        }
        info.maps[map] = values;
    }
    if info.maps.iter().flatten().all(|&v| v == 0) {
        return ((Body::Constant(0), 2), info);
    }
    let free = u16::MAX;
    let mut seq: Vec<u16> = places
        .iter()
        .map(|&p| stored(p).map_or(free, |(map, v)| rank[map][usize::from(v)]))
        .collect();
    fill_free(&mut seq, free);
    let coded = compress(&seq, 10);
    let bytes = coded.file_bytes() + info.maps.iter().map(|m| 1 + m.len() as u64).sum::<u64>();
    ((Body::Coded(coded), bytes), info)
}
