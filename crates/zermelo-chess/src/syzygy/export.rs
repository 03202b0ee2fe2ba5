//! zermelo's tables written as Syzygy's files ([`export_syzygy`]): a material's `.rtbw` and
//! `.rtbz`, readable by every Syzygy prober.
//!
//! zermelo's DTZ tables (50-move rule) are read by their own index: the material's table
//! block by block, the tables captures and promotions lead to through the generator's
//! [`SliceGame`] (ranked straight from its boards). What a prober reading the file does with
//! a position (legal, without en passant rights) is its *place* ([`super::place`]): its class
//! (WDL); whether a capture already reaches that class (then the prober takes the capture and
//! the file may hold any lower class: a *bounded* place); and whether the prober reads its
//! DTZ (not for draws, nor for wins that a capture or a pawn push keeps, which the prober
//! finds by itself), with the DTZ. Per file of the table (one without
//! pawns, one per leading-pawn file with them):
//!
//! 1. **Orders.** Each sub-table may list its pieces in any order the format allows
//!    ([`super::layouts`]), which decides which positions are neighbours in its sequence.
//!    Every order is tried on short stretches of its sequence (the positions there probed,
//!    filled and compressed as below), the best few again on more of them at scattered
//!    places, and the smallest kept; a DTZ file stores one side to move per sub-table: the
//!    side whose best order compresses smaller. A side (of a table without pawns) whose WDL
//!    codes in a small fraction of a bit per index is made of runs longer than the
//!    stretches: once it is stored (step 2), its best WDL orders are compared again on far
//!    longer stretches read from the stored sequence, and when that finds another order
//!    much smaller, the sequence is read into that order too and the smaller compressed one
//!    kept (step 3).
//! 2. **Positions.** Every legal position, one per symmetry class: zermelo's canonical
//!    indices, each block of its table decoded once (the blocks on rayon's threads, those
//!    of another side to move or leading-pawn file skipped), probed once and its place stored
//!    at every index the chosen orders give its class (a byte per WDL index, two per DTZ
//!    index). Which member of a class is walked does not matter: the encoder's indices of a
//!    class are the same from any member. Along a row of zermelo's index (only the piece of
//!    its last digit moving) the indices come from one [`RowIndex`], and the holes are
//!    skipped by their entries.
//! 3. **Values.** Free and bounded places are filled ([`super::fill`]); DTZ values are
//!    stored in moves (halved) unless a DTZ of exactly 100 plies makes plies necessary (the
//!    published generator's rule), mapped per class through a table sorted by frequency, and
//!    compressed ([`super::compress`]); the files are assembled with their checksums
//!    ([`super::write`]) and written atomically.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::compress::compress;
use super::encode::{self, Layout, RowIndex, RowShape, MAX_TB_PIECES};
use super::export_error::ExportError;
use super::fill::{fill_free, fill_wdl, FREE};
use super::layouts::{candidates, Candidate};
use super::name::TableName;
use super::place::{Place, Prober, EMPTY, NOT_READ};
use super::repair::Values;
use super::table::{shape_of, Metric, Shape};
use super::unrank::unrank;
use super::write::{assemble, Body, DtzInfo, SubTable};
use crate::dtz::DEFAULT_RULE;
use crate::index::Indexer;
use crate::material::Material;
use crate::probe::{ProbeError, Tablebase};
use crate::slice::{Board, SliceGame};
use crate::square::{Color, Piece, Role};
use crate::table::Metric as ZermeloMetric;
use crate::value::Value;

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

/// Where a sequence is sampled when orders are compared: `stretches` stretches of `len`
/// indices, evenly spaced or at scattered places.
#[derive(Clone, Copy, Debug)]
struct Sample {
    stretches: u64,
    len: u64,
    scattered: bool,
    /// More stretches, up to four times as many, where `stretches` would cover less than
    /// one index in `cover` of the sequence (none: 0).
    cover: u64,
}

impl Sample {
    const fn even(stretches: u64, len: u64) -> Sample {
        Sample {
            stretches,
            len,
            scattered: false,
            cover: 0,
        }
    }

    const fn scattered(stretches: u64, len: u64) -> Sample {
        Sample {
            scattered: true,
            ..Sample::even(stretches, len)
        }
    }
}

/// Many short stretches, so that every part of the board is seen (a quarter as many, a
/// quarter as long, in the first round, which keeps the best [`SHORTLIST`] for WDL and for
/// DTZ). The second round's lie at scattered places: evenly spaced, they fall on a few
/// placements of the leading pieces again and again, and KQNvKP's DTZ came out 1.35x the
/// published file (every file's order preferred there was among the worst on scattered
/// stretches; 1.04x with these).
const SECOND: Sample = Sample::scattered(256, 256);
const FIRST: Sample = Sample::even(64, 64);
/// A side with at most `FEW_ORDERS` orders (four kinds of pieces: a pair of identical ones,
/// or identical pieces on both sides) has its first round on [`FEW_FIRST`] instead: with
/// stretches of 64 its best order did not reach the shortlist (KBBvKR.rtbw came out 1.46x
/// the published file, 1.04x with these), and there are few orders to pay for.
const FEW_ORDERS: usize = 24;
const FEW_FIRST: Sample = Sample::even(8, 4096);
/// A side whose best WDL sample codes in fewer bits than one per `TINY` indices has its best
/// [`SHORTLIST`]` / 2` WDL orders compared again on [`LONG`] stretches: its runs span many
/// placements of the leading pieces, which short stretches do not see (KRRNvK: the short
/// sample's third best order is 1.4x smaller whole than its best; KQQRvK and KQBBvK, at
/// 1/16 and 1/31 bit per index, 1.5x and 1.3x). The long stretches lie at scattered places:
/// evenly spaced, they fall on the same few placements of the leading pieces (KQBBvK's
/// best order whole came fourth of twelve on 64 evenly spaced stretches of 16,384, first
/// on scattered ones). No sample is always right (the long one picked a 1.35x larger
/// KNNvKR.rtbw), so when the long one finds an order at least [`LONG_GAIN`] smaller, the
/// side is read into that order as well, both are compressed whole, and the smaller kept.
/// Below that gain no whole trial saved more than 4% (of 17 on the 3-5-piece tables), and
/// each costs a second sequence. The long round reads its stretches from the side's
/// sequence as the walk stored it in the short sample's order (an index unranked in one
/// order, ranked in the other: no position probed again, nor zermelo's table decoded).
/// A long sequence gets more long stretches, so that they cover at least a thirty-second
/// of it (KQBBvK: 64 stretches found its best order 1.08x smaller than the short sample's,
/// 100 found it more than 1.2x smaller, 256 1.39x; whole it is 1.35x). A side whose short
/// sample codes in no bits at all is left as it is, and so are the sides of pawn tables: on
/// KRRvKP, KRBvKP, KQQvKP, KBNvKP, KRPvKB and KNNvKP the long round changed two files of 12,
/// by 0.09% and 0.23%, and took a fifth of their time (229.5 s with it, 181.8 s without); of
/// all 190 pawn tables' files of 3-5 pieces it changed 12 WDL files, none by more than 5%
/// (KRBPvK.rtbw: 1.079x the published without it).
const TINY: u64 = 8;
const LONG: Sample = Sample {
    cover: 32,
    ..Sample::scattered(64, 16_384)
};
/// [`TINY`]'s trials: the long sample's gain, in tenths, that makes a whole trial.
const LONG_GAIN: u64 = 12;
const SHORTLIST: usize = 8;

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

/// The stretches `sample` takes of a sequence of `size` indices (all of a short one).
fn ranges(size: u64, sample: Sample) -> Vec<(u64, u64)> {
    let len = sample.len;
    let stretches = match sample.cover {
        0 => sample.stretches,
        c => (size / c / len).clamp(sample.stretches, 4 * sample.stretches),
    };
    if size <= 2 * stretches * len {
        return vec![(0, size)];
    }
    (0..stretches)
        .map(|k| {
            let from = if sample.scattered {
                scatter(k) % (size - len)
            } else {
                k * (size - len) / (stretches - 1)
            };
            (from, from + len)
        })
        .collect()
}

/// The start of scattered stretch `k` before it is reduced to the sequence (SplitMix64).
fn scatter(k: u64) -> u64 {
    let mut z = (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One piece of the enumeration: its piece in zermelo's orientation, its code in the file's.
#[derive(Clone, Copy, Debug)]
struct Slot {
    piece: Piece,
    code: u8,
}

/// How one material is written.
struct Plan {
    /// The material, canonical: the orientation of the positions enumerated.
    material: Material,
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
    /// The pieces: pawns, kings, white, black.
    slots: Vec<Slot>,
    /// Per slot, the slot of zermelo's index that holds its piece.
    zslots: Vec<usize>,
    /// The slots of zermelo's index that hold pawns.
    pawn_zslots: Vec<usize>,
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
        let indexer = Indexer::new(&m);
        let zermelo = indexer.slots();
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
        let mut taken = [false; 8];
        let zslots: Vec<usize> = slots
            .iter()
            .map(|s| {
                let z = (0..zermelo.len())
                    .find(|&z| !taken[z] && zermelo[z] == s.piece)
                    .expect("zermelo's index has the material's pieces");
                taken[z] = true;
                z
            })
            .collect();
        let pawn_zslots = (0..zermelo.len())
            .filter(|&z| zermelo[z].role == Role::Pawn)
            .collect();
        Ok(Plan {
            zslots,
            pawn_zslots,
            material: m.clone(),
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

    /// The slot of the piece zermelo's index moves first (its last digit: the last slot that
    /// is not a pawn), if it is the only one of its kind.
    fn moving(&self) -> Option<usize> {
        let last = (0..self.pieces).rev().find(|&z| {
            let k = self.zslots.iter().position(|&k| k == z).expect("a slot");
            self.slots[k].piece.role != Role::Pawn
        })?;
        let slot = self.zslots.iter().position(|&z| z == last)?;
        let code = self.slots[slot].code;
        (self.kinds.iter().find(|k| k.0 == code)?.1 == 1).then_some(slot)
    }

    fn files(&self) -> usize {
        match self.shape {
            Shape::Pawnless(_) => 1,
            Shape::Pawns { .. } => 4,
        }
    }

    /// The side to move (zermelo's orientation) of the positions stored when both colours
    /// have the same pieces: white in the file's orientation.
    fn symmetric_turn(&self) -> Color {
        if self.flip {
            Color::Black
        } else {
            Color::White
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
        let own = tb.dtz_table(&self.material)?;
        let game = SliceGame::new(
            &self.material,
            tb,
            ZermeloMetric::Dtz { rule: DEFAULT_RULE },
        )?;
        let name = self.name.to_string();
        // The DTM table spares the probes of a win's pawn moves ([`Prober::winning_push`]);
        // without it (or with one of another index) they are probed.
        let dtm = if self.material.has_pawns() {
            tb.table(&self.material)
                .ok()
                .filter(|dtm| dtm.size() == own.size())
        } else {
            None
        };
        let prober = Prober {
            tb,
            game: &game,
            own: &own,
            name: &name,
            dtm: dtm.as_deref(),
        };
        let orders = candidates(&self.kinds, self.shape, self.lead);
        let mut wdl_files = Vec::new();
        let mut dtz_files = Vec::new();
        let mut positions = 0;
        for file in 0..self.files() {
            let sub = Sub {
                plan: self,
                prober: &prober,
                file,
            };
            let choice = sub.choose(&orders)?;
            let (wdl, dtz, n) = sub.tables(&orders, &choice)?;
            positions += n;
            wdl_files.push(wdl);
            dtz_files.push(vec![dtz]);
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

    fn layout(&self, order: &Candidate, file: usize) -> Result<Layout, ExportError> {
        order
            .layout(self.shape, file)
            .map_err(|_| self.unsupported())
    }

    /// Where each of `codes`' pieces takes its square from: per code position, a slot.
    fn slots_of(&self, codes: &[u8]) -> Vec<usize> {
        let mut taken = vec![false; self.pieces];
        codes
            .iter()
            .map(|&c| {
                let k = (0..self.pieces)
                    .find(|&k| !taken[k] && self.slots[k].code == c)
                    .expect("the layout lists the material's pieces");
                taken[k] = true;
                k
            })
            .collect()
    }
}

/// Which order each sub-table of a file uses and which side its DTZ table stores.
struct Choice {
    /// Per side to move stored, the WDL order (an index into the candidates).
    wdl: Vec<usize>,
    /// Per side to move stored, the orders to compare again on long stretches once the
    /// side is stored ([`TINY`]; none for most sides).
    long: Vec<Vec<usize>>,
    /// The side the DTZ table stores and its order.
    dtz_side: usize,
    dtz: usize,
}

/// The estimated sizes of one order's WDL and DTZ sequences.
#[derive(Clone, Copy, Debug)]
struct Cost {
    wdl: u64,
    dtz: u64,
    /// Indices sampled.
    values: u64,
}

/// One file of a table (pawnless tables have one; pawn tables one per leading-pawn file).
struct Sub<'a> {
    plan: &'a Plan,
    prober: &'a Prober<'a>,
    file: usize,
}

/// An order's layout and, per position in its codes, the slot it takes its square from.
#[derive(PartialEq, Eq)]
struct Target {
    layout: Layout,
    slots: Vec<usize>,
}

impl Sub<'_> {
    /// The orders: every candidate on a few short stretches, then the best few on longer
    /// ones; per side the smallest WDL, and the side and order with the smallest DTZ.
    fn choose(&self, orders: &[Candidate]) -> Result<Choice, ExportError> {
        let sides = self.plan.sides();
        let (mut wdl, mut long) = (Vec::new(), Vec::new());
        let mut dtz_best = (u64::MAX, 0, 0);
        for side in 0..sides {
            let mut shortlist: Vec<usize> = (0..orders.len()).collect();
            if orders.len() > SHORTLIST {
                let first = if orders.len() <= FEW_ORDERS {
                    FEW_FIRST
                } else {
                    FIRST
                };
                let costs = self.costs(orders, &shortlist, side, first)?;
                let mut by_wdl = shortlist.clone();
                by_wdl.sort_by_key(|&k| (costs[k].wdl, k));
                let mut by_dtz = shortlist.clone();
                by_dtz.sort_by_key(|&k| (costs[k].dtz, k));
                shortlist = by_wdl[..SHORTLIST / 2].to_vec();
                for k in by_dtz {
                    if shortlist.len() == SHORTLIST {
                        break;
                    }
                    if !shortlist.contains(&k) {
                        shortlist.push(k);
                    }
                }
            }
            let costs = self.costs(orders, &shortlist, side, SECOND)?;
            let mut by_wdl = shortlist.clone();
            by_wdl.sort_by_key(|&k| (costs[k].wdl, k));
            let best = costs[by_wdl[0]];
            wdl.push(by_wdl[0]);
            let pawnless = matches!(self.plan.shape, Shape::Pawnless(_));
            long.push(
                if pawnless && best.wdl > 0 && best.wdl.saturating_mul(TINY) < best.values {
                    by_wdl[..by_wdl.len().min(SHORTLIST / 2)].to_vec()
                } else {
                    Vec::new()
                },
            );
            let best_dtz = *shortlist
                .iter()
                .min_by_key(|&&k| (costs[k].dtz, k))
                .expect("an order");
            if costs[best_dtz].dtz < dtz_best.0 {
                dtz_best = (costs[best_dtz].dtz, side, best_dtz);
            }
        }
        Ok(Choice {
            wdl,
            long,
            dtz_side: dtz_best.1,
            dtz: dtz_best.2,
        })
    }

    /// Estimated sizes of the orders `which` (indexed like `orders`), from the positions at
    /// the stretches `sample` takes of each order's sequence.
    ///
    /// The positions of all the orders are probed together in the order of zermelo's index:
    /// each order's stretches lie all over zermelo's table, and probed order by order nearly
    /// every probe decoded a block of it for one entry.
    fn costs(
        &self,
        orders: &[Candidate],
        which: &[usize],
        side: usize,
        sample: Sample,
    ) -> Result<Vec<Cost>, ExportError> {
        let boards: Vec<Vec<Option<Board>>> = which
            .par_iter()
            .map(|&k| {
                let layout = self.plan.layout(&orders[k], self.file)?;
                Ok(self.sample(&orders[k], &layout, side, sample))
            })
            .collect::<Result<_, ExportError>>()?;
        // (zermelo's index, order, sample) of every legal sampled position, by index.
        let game = self.prober.game;
        let mut at: Vec<(u64, u32, u32)> = boards
            .par_iter()
            .enumerate()
            .flat_map_iter(|(j, bs)| {
                bs.iter().enumerate().filter_map(move |(i, b)| {
                    b.as_ref().map(|b| (game.rank(b), j as u32, i as u32))
                })
            })
            .collect();
        at.par_sort_unstable();
        let values: Vec<Value> = at
            .par_iter()
            .map(|&(z, _, _)| self.prober.own.value_of_legal(z).map_err(ProbeError::from))
            .collect::<Result<_, ProbeError>>()?;
        let mut value_of: Vec<Vec<Option<(u64, Value)>>> =
            boards.iter().map(|b| vec![None; b.len()]).collect();
        for (&(z, j, i), &v) in at.iter().zip(&values) {
            value_of[j as usize][i as usize] = Some((z, v));
        }
        let found: Result<Vec<(usize, Cost)>, ExportError> = which
            .par_iter()
            .zip(boards.par_iter().zip(&value_of))
            .map(|(&k, (bs, vs))| {
                let places: Vec<Place> = bs
                    .iter()
                    .zip(vs)
                    .map(|(b, v)| match (b, v) {
                        (Some(b), &Some((z, v))) => self.prober.place_of(b, z, v, true),
                        _ => Ok(EMPTY),
                    })
                    .collect::<Result<_, _>>()?;
                Ok((
                    k,
                    Cost {
                        wdl: code_bits(&wdl_body(&places).0),
                        values: places.len() as u64,
                        dtz: code_bits(&dtz_body(places, (false, false), side).0 .0),
                    },
                ))
            })
            .collect();
        let mut out = vec![
            Cost {
                wdl: u64::MAX,
                dtz: u64::MAX,
                values: 0,
            };
            orders.len()
        ];
        for (k, c) in found? {
            out[k] = c;
        }
        Ok(out)
    }

    /// The boards at the sampled indices of `order`'s sequence for `side` (`None` where an
    /// index holds no legal position), in zermelo's orientation.
    fn sample(
        &self,
        order: &Candidate,
        layout: &Layout,
        side: usize,
        sample: Sample,
    ) -> Vec<Option<Board>> {
        let ranges = ranges(layout.size, sample);
        // Per code of the order, zermelo's slot of that piece.
        let zslots: Vec<usize> = self
            .plan
            .slots_of(&order.codes)
            .iter()
            .map(|&k| self.plan.zslots[k])
            .collect();
        // The order's side `side` is white in the file's orientation.
        let turn = if (side == 1) != self.plan.flip {
            Color::Black
        } else {
            Color::White
        };
        let game = self.prober.game;
        ranges
            .into_iter()
            .flat_map(|(from, to)| from..to)
            .map(|i| {
                let (sq, canonical) = unrank(layout, self.plan.shape, self.file, i);
                if !canonical {
                    return None;
                }
                let mut b = Board { turn, sq: [0; 8] };
                for (k, &z) in zslots.iter().enumerate() {
                    b.sq[z] = if self.plan.flip { sq[k] ^ 0x38 } else { sq[k] };
                }
                game.is_legal(&b).then_some(b)
            })
            .collect()
    }

    /// Every position of the file probed once and stored in the chosen orders; the WDL
    /// sub-tables (one per side) and the DTZ sub-table, and the positions found.
    fn tables(
        &self,
        orders: &[Candidate],
        choice: &Choice,
    ) -> Result<(Vec<SubTable>, SubTable, u64), ExportError> {
        let plan = self.plan;
        let target = |k: usize| -> Result<Target, ExportError> {
            Ok(Target {
                layout: plan.layout(&orders[k], self.file)?,
                slots: plan.slots_of(&orders[k].codes),
            })
        };
        let wdl_targets: Vec<Target> = choice
            .wdl
            .iter()
            .map(|&k| target(k))
            .collect::<Result<_, _>>()?;
        let wdl_sides: Vec<usize> = (0..wdl_targets.len()).collect();
        let dtz_target = target(choice.dtz)?;
        let mut places = self.places(&wdl_targets, &wdl_sides, &dtz_target, choice.dtz_side)?;
        let plies = plies(&places.hundred, choice.dtz_side, plan.sides());
        // Every WDL order tried, with its side: the stored ones, then the long round's.
        let mut trials: Vec<(usize, usize)> = choice.wdl.iter().copied().enumerate().collect();
        for (side, which) in choice.long.iter().enumerate() {
            let stored = &wdl_targets[side];
            let Some(k) = self.long_round(orders, which, stored, &places.wdl[side])? else {
                continue;
            };
            let t = target(k)?;
            places
                .wdl
                .push(self.permuted(&t, stored, &places.wdl[side]));
            trials.push((side, k));
        }
        // The sequences are compressed side by side (each alone is sequential).
        let (wdl_bodies, ((body, _), info)) = rayon::join(
            || {
                places
                    .wdl
                    .into_par_iter()
                    .map(wdl_sequence_body)
                    .collect::<Vec<(Body, u64)>>()
            },
            || dtz_body(places.dtz, plies, choice.dtz_side),
        );
        let wdl_subs = smallest_per_side(wdl_bodies, &trials, choice.wdl.len())
            .into_iter()
            .map(|(k, body)| SubTable {
                order: orders[k].clone(),
                body,
                dtz: None,
            })
            .collect();
        let dtz_sub = SubTable {
            order: orders[choice.dtz].clone(),
            body,
            dtz: Some(info),
        };
        Ok((wdl_subs, dtz_sub, places.positions))
    }

    /// The long round of a side stored in `stored` as `seq` whose short sample coded in a
    /// small fraction of a bit per index ([`TINY`]): the orders `which` compared on [`LONG`]
    /// stretches read from `seq` (no position probed again), `which[0]` the stored order;
    /// the order that codes in at least [`LONG_GAIN`] times fewer bits than the stored one,
    /// if there is one.
    fn long_round(
        &self,
        orders: &[Candidate],
        which: &[usize],
        stored: &Target,
        seq: &[u8],
    ) -> Result<Option<usize>, ExportError> {
        if which.len() < 2 {
            return Ok(None);
        }
        let bits: Vec<(u64, usize)> = which
            .par_iter()
            .map(|&k| {
                let layout = self.plan.layout(&orders[k], self.file)?;
                let slots = self.plan.slots_of(&orders[k].codes);
                debug_assert!(
                    k != which[0] || (&layout, &slots) == (&stored.layout, &stored.slots)
                );
                // The stored order's places are the sequence's own.
                let place = |i: u64| {
                    if k == which[0] {
                        seq[i as usize]
                    } else {
                        self.read_at(&layout, &slots, stored, seq, i)
                    }
                };
                let places: Vec<Place> = ranges(layout.size, LONG)
                    .into_iter()
                    .flat_map(|(from, to)| from..to)
                    .map(|i| u16::from(place(i)) << 12 | NOT_READ)
                    .collect();
                Ok((code_bits(&wdl_body(&places).0), k))
            })
            .collect::<Result<_, ExportError>>()?;
        let ours = bits
            .iter()
            .find(|&&(_, k)| Some(&k) == which.first())
            .map_or(u64::MAX, |&(b, _)| b);
        let &(best, k) = bits.iter().min().expect("an order");
        Ok(
            (k != which[0] && ours.saturating_mul(10) >= best.saturating_mul(LONG_GAIN))
                .then_some(k),
        )
    }

    /// The place at index `i` of the order whose layout is `layout` (its pieces taking their
    /// squares from `slots`), read from `seq`, the same side stored in `stored`: [`FREE`]
    /// where the index holds no position (as the walk leaves it).
    fn read_at(&self, layout: &Layout, slots: &[usize], stored: &Target, seq: &[u8], i: u64) -> u8 {
        let (sq, canonical) = unrank(layout, self.plan.shape, self.file, i);
        if !canonical {
            return FREE;
        }
        let walk = Walk {
            plan: self.plan,
            prober: self.prober,
            file: self.file,
        };
        // By slot, in zermelo's orientation, identical pieces in increasing squares (as
        // [`Store::record`] has them).
        let mut at = [0u8; MAX_TB_PIECES];
        for (j, &slot) in slots.iter().enumerate() {
            at[slot] = walk.oriented(sq[j]);
        }
        let plan = self.plan;
        for k in 1..plan.pieces {
            let mut j = k;
            while j > 0 && plan.slots[j - 1].piece == plan.slots[j].piece && at[j - 1] > at[j] {
                at.swap(j - 1, j);
                j -= 1;
            }
        }
        seq[walk.indices(stored, &at).0 as usize]
    }

    /// The side stored in `stored` as `seq`, in the order of `target` instead: what the walk
    /// stores there, read index by index.
    fn permuted(&self, target: &Target, stored: &Target, seq: &[u8]) -> Vec<u8> {
        const CHUNK: usize = 1 << 16;
        let mut out = vec![FREE; target.layout.size as usize];
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                let first = (c * CHUNK) as u64;
                for (j, o) in chunk.iter_mut().enumerate() {
                    *o = self.read_at(&target.layout, &target.slots, stored, seq, first + j as u64);
                }
            });
        out
    }

    /// Every position of the file probed once and its place stored in the WDL targets of
    /// its side (`wdl_sides`, per target) and, for `dtz_side`, in the DTZ target.
    fn places(
        &self,
        wdl_targets: &[Target],
        wdl_sides: &[usize],
        dtz_target: &Target,
        dtz_side: usize,
    ) -> Result<Places, ExportError> {
        let wdl: Vec<Vec<AtomicU8>> = wdl_targets
            .iter()
            .map(|t| (0..t.layout.size).map(|_| AtomicU8::new(FREE)).collect())
            .collect();
        let dtz: Vec<AtomicU16> = (0..dtz_target.layout.size)
            .map(|_| AtomicU16::new(EMPTY))
            .collect();
        let hundred = Default::default();
        let walk = Walk {
            plan: self.plan,
            prober: self.prober,
            file: self.file,
        };
        let moving = self.plan.moving().map(|slot| {
            let place = |t: &Target| {
                t.slots
                    .iter()
                    .position(|&s| s == slot)
                    .expect("every slot has a place")
            };
            (
                slot,
                wdl_targets.iter().map(place).collect(),
                place(dtz_target),
            )
        });
        let store = Store {
            moving,
            walk: &walk,
            wdl: &wdl,
            wdl_targets,
            dtz: &dtz,
            dtz_target,
            dtz_side,
            dtz_as_wdl: (0..wdl_targets.len())
                .find(|&t| wdl_sides[t] == dtz_side && wdl_targets[t] == *dtz_target),
            wdl_sides,
            hundred: &hundred,
        };
        let positions = store.enumerate()?;
        Ok(Places {
            wdl: wdl
                .into_iter()
                .map(|v| v.into_iter().map(AtomicU8::into_inner).collect())
                .collect(),
            dtz: dtz.into_iter().map(AtomicU16::into_inner).collect(),
            hundred: hundred.map(|side| side.map(AtomicBool::into_inner)),
            positions,
        })
    }
}

/// The places of one file's positions in its orders.
struct Places {
    /// Per WDL target, the WDL places ([`super::fill`]'s encoding).
    wdl: Vec<Vec<u8>>,
    /// The DTZ side's places.
    dtz: Vec<Place>,
    /// Per side to move: a win, a loss of exactly 100 plies seen.
    hundred: [[bool; 2]; 2],
    /// Positions stored (one per symmetry class and side to move).
    positions: u64,
}

/// Per side of `sides`, the smallest of its trials (`(side, order)` per body, each body with
/// its size in bytes; the first on a tie): the order kept and its body.
fn smallest_per_side<B>(
    bodies: Vec<(B, u64)>,
    trials: &[(usize, usize)],
    sides: usize,
) -> Vec<(usize, B)> {
    let mut kept: Vec<Option<(u64, usize, B)>> = (0..sides).map(|_| None).collect();
    for ((body, bytes), &(side, k)) in bodies.into_iter().zip(trials) {
        if kept[side].as_ref().is_none_or(|b| bytes < b.0) {
            kept[side] = Some((bytes, k, body));
        }
    }
    kept.into_iter()
        .map(|b| {
            let (_, k, body) = b.expect("every side has an order");
            (k, body)
        })
        .collect()
}

/// Whether `side`'s wins and losses are stored in plies: a DTZ of exactly 100 for the side
/// to move, or its opposite for the other side, would be rounded across the rule (the
/// published generator's rule). `hundred[side]` says whether a win, a loss of exactly 100
/// plies occurs with that side to move.
fn plies(hundred: &[[bool; 2]; 2], side: usize, sides: usize) -> (bool, bool) {
    let own = hundred[side];
    // With one side stored, the other side's positions are its colour mirrors.
    let theirs = if sides == 1 { own } else { hundred[1 - side] };
    (own[0] || theirs[1], own[1] || theirs[0])
}

/// Whether two of the leading pawns on `lead` tie for the lead: the least in
/// [`encode::PAWN_ORDER`] stands on two mirror squares.
fn lead_tied(lead: &[u8]) -> bool {
    let order = |s: u8| encode::PAWN_ORDER[usize::from(s)];
    let Some(least) = lead.iter().map(|&s| order(s)).min() else {
        return false;
    };
    lead.iter().filter(|&&s| order(s) == least).count() > 1
}

/// The enumeration of one file's positions into the chosen layouts.
struct Store<'a> {
    walk: &'a Walk<'a>,
    wdl: &'a [Vec<AtomicU8>],
    wdl_targets: &'a [Target],
    /// Per WDL target, its side to move.
    wdl_sides: &'a [usize],
    dtz: &'a [AtomicU16],
    dtz_target: &'a Target,
    dtz_side: usize,
    /// The WDL target that is also the DTZ target (the same indices), if one is.
    dtz_as_wdl: Option<usize>,
    /// Per side to move: a win, a loss of exactly 100 plies seen.
    hundred: &'a [[AtomicBool; 2]; 2],
    /// The slot of the piece that zermelo's index moves first (its last digit), when it is
    /// the only one of its kind, and its place in each WDL target and the DTZ target: the
    /// indices of a row of positions where only it moves come from one [`RowIndex`].
    moving: Option<(usize, Vec<usize>, usize)>,
}

/// The row last indexed in one target: the squares of the other pieces (the moving piece's
/// square `64`), a byte each, and its rule, `None` if the row has none.
#[derive(Default)]
struct Row {
    key: Option<u64>,
    index: Option<RowIndex>,
}

impl Store<'_> {
    /// Every legal position of the file, once per symmetry class: zermelo's canonical
    /// indices, block by block of its table (each block decoded once, the blocks on rayon's
    /// threads), the side to move and, with pawns, the file of the leading pawn checked first.
    /// Returns how many.
    fn enumerate(&self) -> Result<u64, ExportError> {
        let walk = self.walk;
        let game = walk.prober.game;
        let indexer = game.indexer();
        let wanted = |first: u64, end: u64| {
            let (a, b) = (indexer.decode(first), indexer.decode(end - 1));
            // A block that straddles two sides to move or two pawn placements is read.
            a.0 != b.0 || walk.pawns_of(&a.1) != walk.pawns_of(&b.1) || walk.wanted(a.0, &a.1)
        };
        let own = walk.prober.own;
        // A DTZ table's filler marks the holes: the other entries' boards are only decoded.
        let marked = own.entries_mark_holes();
        let counts = own.par_entries(wanted, |first, entries| {
            let mut n = 0;
            // Per WDL target, then the DTZ target.
            let mut rows: Vec<Row> = (0..=self.wdl_targets.len())
                .map(|_| Row::default())
                .collect();
            let mut last: Option<((Color, u64), bool)> = None;
            for (k, e) in entries.enumerate() {
                let idx = first + k as u64;
                let board = if marked {
                    (!own.entry_marks_hole(e)).then(|| game.board(idx))
                } else {
                    game.legal_board(idx)
                };
                let Some(b) = board else {
                    continue;
                };
                // Whether a position is wanted depends on its side to move and pawns alone,
                // which change seldom along a block.
                let key = (b.turn, walk.pawns_of(&b.sq));
                let wanted = match last {
                    Some((k, w)) if k == key => w,
                    _ => {
                        let w = walk.wanted(b.turn, &b.sq);
                        last = Some((key, w));
                        w
                    }
                };
                if wanted {
                    let value = walk
                        .prober
                        .own
                        .legal_value_of_entry(idx, e)
                        .map_err(ProbeError::from)?;
                    self.record(&b, idx, value, &mut rows)?;
                    n += 1;
                }
            }
            Ok::<u64, ExportError>(n)
        });
        counts.map_err(ProbeError::from)?.into_iter().sum()
    }

    /// Probes the legal board `b` at index `idx` of value `value` and stores its place in the
    /// layouts of its side.
    fn record(
        &self,
        b: &Board,
        idx: u64,
        value: Value,
        rows: &mut [Row],
    ) -> Result<(), ExportError> {
        let walk = self.walk;
        let plan = walk.plan;
        let side = walk.side(b.turn);
        match value {
            Value::Win(100) => self.hundred[side][0].store(true, Relaxed),
            Value::Lose(100) => self.hundred[side][1].store(true, Relaxed),
            _ => {}
        }
        let place = walk.prober.place_of(b, idx, value, side == self.dtz_side)?;
        let mut sq = [0u8; MAX_TB_PIECES];
        for (k, &z) in plan.zslots.iter().enumerate() {
            sq[k] = b.sq[z];
            // Identical pieces in increasing squares, as encoded before (the leading pawns'
            // order breaks the encoder's ties).
            let mut j = k;
            while j > 0 && plan.slots[j - 1].piece == plan.slots[j].piece && sq[j - 1] > sq[j] {
                sq.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut as_dtz = None;
        for t in (0..self.wdl_targets.len()).filter(|&t| self.wdl_sides[t] == side) {
            let (a, c) = self.indices(t, &sq, rows);
            for idx in std::iter::once(a).chain(c) {
                self.wdl[t][idx as usize].store((place >> 12) as u8, Relaxed);
            }
            if Some(t) == self.dtz_as_wdl {
                as_dtz = Some((a, c));
            }
        }
        if side == self.dtz_side {
            let (a, c) = match as_dtz {
                Some(ac) => ac,
                None => self.indices(self.wdl_targets.len(), &sq, rows),
            };
            for idx in std::iter::once(a).chain(c) {
                self.dtz[idx as usize].store(place, Relaxed);
            }
        }
        Ok(())
    }
}

impl Store<'_> {
    /// [`Walk::indices`] in target `t` (a WDL target, or the DTZ target after them), through
    /// the row of `sq` when the moving piece has one.
    #[inline]
    fn indices(&self, t: usize, sq: &[u8; MAX_TB_PIECES], rows: &mut [Row]) -> (u64, Option<u64>) {
        let target = self.wdl_targets.get(t).unwrap_or(self.dtz_target);
        let Some((slot, wdl_places, dtz_place)) = &self.moving else {
            return self.walk.indices(target, sq);
        };
        // A row's rule gives one index: a position with two is encoded in full.
        if self.walk.pawns_tied(sq) {
            return self.walk.indices(target, sq);
        }
        let place = wdl_places.get(t).copied().unwrap_or(*dtz_place);
        let row = &mut rows[t];
        let key = sq.iter().enumerate().fold(0u64, |k, (i, &s)| {
            k | u64::from(if i == *slot { 64 } else { s }) << (8 * i)
        });
        if row.key != Some(key) {
            let n = self.walk.plan.pieces;
            let mut at = [0u8; MAX_TB_PIECES];
            for (k, &s) in target.slots.iter().enumerate() {
                at[k] = self.walk.oriented(sq[s]);
            }
            row.index = RowIndex::new(&target.layout, self.walk.row_shape(), &at[..n], place);
            row.key = Some(key);
        }
        match &row.index {
            Some(r) => {
                let idx = r.index(self.walk.oriented(sq[*slot]));
                debug_assert_eq!((idx, None), self.walk.indices(target, sq));
                (idx, None)
            }
            None => self.walk.indices(target, sq),
        }
    }
}

/// The positions of one file of the table, and how they are probed and placed.
struct Walk<'a> {
    plan: &'a Plan,
    prober: &'a Prober<'a>,
    file: usize,
}

impl Walk<'_> {
    /// The side to move stored (0 or 1) of a position with `turn` to move (zermelo's
    /// orientation).
    fn side(&self, turn: Color) -> usize {
        usize::from((turn == Color::Black) != self.plan.flip) % self.plan.sides()
    }

    /// Whether the file holds the positions with `turn` to move and pieces on `zsq`
    /// (zermelo's slots): a side to move stored (one when both sides have the same pieces),
    /// and with pawns the leading pawn on this file.
    fn wanted(&self, turn: Color, zsq: &[u8; 8]) -> bool {
        let plan = self.plan;
        if plan.symmetric && turn != plan.symmetric_turn() {
            return false;
        }
        if plan.files() == 1 {
            return true;
        }
        let mut lead = [0u8; MAX_TB_PIECES];
        let mut n = 0;
        for (k, s) in plan.slots.iter().enumerate() {
            if s.code == plan.lead {
                lead[n] = self.oriented(zsq[plan.zslots[k]]);
                n += 1;
            }
        }
        encode::lead_pawn_file(&mut lead[..n], n) == self.file
    }

    /// The squares of the pawns on `zsq` (zermelo's slots), a byte each (at most five pawns:
    /// [`MAX_TB_PIECES`] pieces, two of them kings).
    #[inline]
    fn pawns_of(&self, zsq: &[u8; 8]) -> u64 {
        self.plan
            .pawn_zslots
            .iter()
            .fold(0, |key, &z| key << 8 | u64::from(zsq[z]))
    }

    fn row_shape(&self) -> RowShape {
        match self.plan.shape {
            Shape::Pawnless(leading) => RowShape::Pawnless(leading),
            Shape::Pawns { lead, other } => RowShape::Pawns { lead, other },
        }
    }

    fn oriented(&self, s: u8) -> u8 {
        if self.plan.flip {
            s ^ 0x38
        } else {
            s
        }
    }

    /// The indices in `target` of the position whose slots stand on `sq` (zermelo's
    /// orientation): the encoder's, and that of the encoder's reflection of it when that is
    /// another index. The encoder brings a position to a canonical frame by the leading
    /// pieces alone, so when they do not decide the frame, a position and its reflection
    /// have two indices, and a prober may read either:
    /// * without pawns, when the leading pieces all stand on the a1-h8 diagonal (the
    ///   reflection in that diagonal);
    /// * with pawns, when two leading pawns stand on mirror squares (a7 and h7) and come
    ///   first in [`encode::PAWN_ORDER`]: the first of them in the order of squares leads, so
    ///   the position and its left-right mirror both lead from the same side, a file a-d.
    ///
    /// Otherwise the reflection's frame is the position's (without pawns the encoder reflects
    /// it back by a leading piece off the diagonal; with pawns the frame's leading pawn is the
    /// reflection's mirrored, which the encoder mirrors back).
    fn indices(&self, target: &Target, sq: &[u8; MAX_TB_PIECES]) -> (u64, Option<u64>) {
        let n = self.plan.pieces;
        let mut at = [0u8; MAX_TB_PIECES];
        for (k, &slot) in target.slots.iter().enumerate() {
            at[k] = self.oriented(sq[slot]);
        }
        let given = at;
        let first = self.encode(target, &mut at[..n]);
        // `at` is now in the encoder's frame.
        let on_diagonal = |s: &u8| s >> 3 == s & 7;
        match self.plan.shape {
            Shape::Pawnless(leading) if at[..leading.count()].iter().all(on_diagonal) => {
                for s in &mut at[..n] {
                    *s = ((*s >> 3) | (*s << 3)) & 63;
                }
            }
            Shape::Pawns { lead, .. } if lead_tied(&given[..lead]) => {
                // The mirror, its leading pawns in the order of squares (a prober's).
                at = given;
                for s in &mut at[..n] {
                    *s ^= 7;
                }
                at[..lead].sort_unstable();
            }
            _ => return (first, None),
        }
        let second = self.encode(target, &mut at[..n]);
        (first, (second != first).then_some(second))
    }

    /// Whether the position whose slots stand on `sq` has two indices in a layout (see
    /// [`Walk::indices`]) for a reason of its pawns: two leading pawns tied for the lead.
    fn pawns_tied(&self, sq: &[u8; MAX_TB_PIECES]) -> bool {
        let Shape::Pawns { lead, .. } = self.plan.shape else {
            return false;
        };
        if lead < 2 {
            return false;
        }
        let mut at = [0u8; MAX_TB_PIECES];
        let mut k = 0;
        for (slot, s) in self.plan.slots.iter().enumerate() {
            if s.code == self.plan.lead {
                at[k] = self.oriented(sq[slot]);
                k += 1;
            }
        }
        lead_tied(&at[..k])
    }

    fn encode(&self, target: &Target, at: &mut [u8]) -> u64 {
        match self.plan.shape {
            Shape::Pawnless(leading) => encode::pawnless_index(&target.layout, leading, at),
            Shape::Pawns { lead, other } => {
                encode::lead_pawn_file(at, lead);
                encode::pawn_index(&target.layout, lead, other, at)
            }
        }
    }
}

/// The bits of code of a sample's body: a table's fixed costs would drown the differences
/// of samples.
fn code_bits(body: &Body) -> u64 {
    match body {
        Body::Coded(c) => c.bits,
        Body::Constant(_) => 0,
    }
}

/// A WDL sequence of places (each a [`super::fill`] place) as a body, and its size.
fn wdl_sequence_body(mut wdl: Vec<u8>) -> (Body, u64) {
    fill_wdl(&mut wdl);
    if wdl.iter().all(|&v| v == wdl[0]) {
        return (Body::Constant(wdl[0]), 2);
    }
    let coded = compress(Values::Bytes(&wdl), 6);
    let bytes = coded.file_bytes();
    (Body::Coded(coded), bytes)
}

/// The WDL body of a sequence of places, and its size.
fn wdl_body(places: &[Place]) -> (Body, u64) {
    wdl_sequence_body(places.iter().map(|&p| (p >> 12) as u8).collect())
}

/// A DTZ sequence's body, its size, and its flags and maps, for `side` storing wins and
/// losses in plies as `plies` says.
fn dtz_body(mut places: Vec<Place>, plies: (bool, bool), side: usize) -> ((Body, u64), DtzInfo) {
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
    // Long sequences on one chunk per thread.
    let chunk = places
        .len()
        .div_ceil(rayon::current_num_threads())
        .max(1 << 20);
    let freq = places
        .par_chunks(chunk)
        .map(|c| {
            let mut freq = vec![[0u64; 4096]; 4];
            for &p in c {
                if let Some((map, v)) = stored(p) {
                    freq[map][usize::from(v)] += 1;
                }
            }
            freq
        })
        .reduce_with(|mut a, b| {
            for (x, y) in a.iter_mut().flatten().zip(b.iter().flatten()) {
                *x += y;
            }
            a
        })
        .expect("a position");
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
    places.par_chunks_mut(chunk).for_each(|c| {
        for p in c {
            *p = stored(*p).map_or(free, |(map, v)| rank[map][usize::from(v)]);
        }
    });
    fill_free(&mut places, free);
    let coded = compress(Values::Owned(places), 10);
    let bytes = coded.file_bytes() + info.maps.iter().map(|m| 1 + m.len() as u64).sum::<u64>();
    ((Body::Coded(coded), bytes), info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate_with, GenOptions};
    use crate::position::{Position, Setup};

    /// zermelo's DTZ tables of `materials` (each after those it leads to), in memory.
    fn tables(materials: &[&str]) -> Tablebase {
        let tb = Tablebase::in_memory();
        let options = GenOptions {
            metric: ZermeloMetric::Dtz { rule: DEFAULT_RULE },
            ..GenOptions::default()
        };
        for m in materials {
            let m: Material = m.parse().unwrap();
            tb.insert(generate_with(&m, &tb, &Default::default(), &options).unwrap());
        }
        tb
    }

    impl Walk<'_> {
        /// [`Walk::indices`] with the reflection always encoded.
        fn both_indices(&self, target: &Target, sq: &[u8; MAX_TB_PIECES]) -> (u64, Option<u64>) {
            let n = self.plan.pieces;
            let mut at = [0u8; MAX_TB_PIECES];
            for (k, &slot) in target.slots.iter().enumerate() {
                at[k] = self.oriented(sq[slot]);
            }
            let given = at;
            let first = self.encode(target, &mut at[..n]);
            match self.plan.shape {
                Shape::Pawnless(_) => {
                    for s in &mut at[..n] {
                        *s = ((*s >> 3) | (*s << 3)) & 63;
                    }
                }
                // The mirror of the position as given, its leading pawns in the order of
                // squares, as a prober lists them.
                Shape::Pawns { lead, .. } => {
                    at = given;
                    for s in &mut at[..n] {
                        *s ^= 7;
                    }
                    at[..lead].sort_unstable();
                }
            }
            let second = self.encode(target, &mut at[..n]);
            (first, (second != first).then_some(second))
        }
    }

    impl Plan {
        /// Whether slot `k` may stand on `sq[k]` given the slots before it: a free square, a
        /// pawn off the first and last ranks, identical pieces in increasing squares, and the
        /// symmetry reduction (without pawns the white king in a1-d1-d4 and, on its diagonal,
        /// the black king not above it; with pawns the white king on files a-d).
        pub(super) fn allowed(&self, sq: &[u8], k: usize) -> bool {
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

    /// The places as the export stored them before it walked zermelo's index: every placement
    /// of the slots on squares `allowed` (the white king in a1-d1-d4 or on files a-d, so both
    /// of two positions the diagonal reflects into each other when both kings stand on it),
    /// each validated as a new [`Position`].
    #[test]
    fn the_smaller_trial_of_each_side_is_kept() {
        // Side 0 tried in orders 3 and 7 (7 smaller), side 1 in order 5 alone, side 0's
        // third trial as small as the best: the first of equals stays.
        let bodies = vec![("a", 900), ("b", 100), ("c", 50), ("d", 100)];
        let trials = [(0, 3), (0, 7), (1, 5), (0, 9)];
        assert_eq!(
            smallest_per_side(bodies, &trials, 2),
            vec![(7, "b"), (5, "c")]
        );
    }

    fn by_placements(
        sub: &Sub,
        wdl: &[Target],
        wdl_sides: &[usize],
        dtz: &Target,
        dtz_side: usize,
    ) -> Places {
        let plan = sub.plan;
        let walk = Walk {
            plan,
            prober: sub.prober,
            file: sub.file,
        };
        let mut out = Places {
            wdl: wdl
                .iter()
                .map(|t| vec![FREE; t.layout.size as usize])
                .collect(),
            dtz: vec![EMPTY; dtz.layout.size as usize],
            hundred: [[false; 2]; 2],
            positions: 0,
        };
        let mut sq = [0u8; MAX_TB_PIECES];
        let mut record = |sq: &[u8; MAX_TB_PIECES], out: &mut Places| {
            for turn in [Color::White, Color::Black] {
                let mut setup = Setup::empty();
                setup.turn = turn;
                for (k, slot) in plan.slots.iter().enumerate() {
                    setup.board[usize::from(sq[k])] = Some(slot.piece);
                }
                if Position::from_setup(setup).is_err() {
                    continue;
                }
                let mut b = Board { turn, sq: [0; 8] };
                for (k, &z) in plan.zslots.iter().enumerate() {
                    b.sq[z] = sq[k];
                }
                if !walk.wanted(turn, &b.sq) {
                    continue;
                }
                let side = walk.side(turn);
                let idx = sub.prober.game.rank(&b);
                let value = sub.prober.own.value_of_legal(idx).unwrap();
                match value {
                    Value::Win(100) => out.hundred[side][0] = true,
                    Value::Lose(100) => out.hundred[side][1] = true,
                    _ => {}
                }
                let place = sub.prober.place_of(&b, idx, value, true).unwrap();
                for t in (0..wdl.len()).filter(|&t| wdl_sides[t] == side) {
                    let (a, c) = walk.both_indices(&wdl[t], sq);
                    for idx in std::iter::once(a).chain(c) {
                        out.wdl[t][idx as usize] = (place >> 12) as u8;
                    }
                }
                if side == dtz_side {
                    let (a, c) = walk.both_indices(dtz, sq);
                    for idx in std::iter::once(a).chain(c) {
                        out.dtz[idx as usize] = place;
                    }
                }
                out.positions += 1;
            }
        };
        fn place(
            plan: &Plan,
            sq: &mut [u8; MAX_TB_PIECES],
            k: usize,
            out: &mut Places,
            record: &mut impl FnMut(&[u8; MAX_TB_PIECES], &mut Places),
        ) {
            if k == plan.pieces {
                return record(sq, out);
            }
            for s in 0..64u8 {
                sq[k] = s;
                if plan.allowed(sq, k) {
                    place(plan, sq, k + 1, out, record);
                }
            }
        }
        place(plan, &mut sq, 0, &mut out, &mut record);
        out
    }

    /// A row's index is the encoder's, for every square of the moving piece, in every order
    /// and file of materials with and without pawns, identical pieces and pawns of both
    /// colours (random placements, the moving piece at every place the row accepts).
    #[test]
    fn row_indices_are_the_encoders() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut rows = 0;
        for name in [
            "KQRvKR", "KRBvKR", "KBNvKN", "KNNvKB", "KRvKN", "KRPvKR", "KPPvKP", "KRPvKP", "KPvKP",
        ] {
            let plan = Plan::new(&name.parse().unwrap()).unwrap();
            let walk_shape = match plan.shape {
                Shape::Pawnless(l) => RowShape::Pawnless(l),
                Shape::Pawns { lead, other } => RowShape::Pawns { lead, other },
            };
            let n = plan.pieces;
            for order in candidates(&plan.kinds, plan.shape, plan.lead) {
                for file in 0..plan.files() {
                    let layout = plan.layout(&order, file).unwrap();
                    let encoded = |sq: &[u8]| {
                        let mut at = sq.to_vec();
                        match plan.shape {
                            Shape::Pawnless(leading) => {
                                encode::pawnless_index(&layout, leading, &mut at)
                            }
                            Shape::Pawns { lead, other } => {
                                encode::lead_pawn_file(&mut at, lead);
                                encode::pawn_index(&layout, lead, other, &mut at)
                            }
                        }
                    };
                    for _ in 0..200 {
                        // Distinct squares, pawns on ranks 2-7, kings apart.
                        let mut sq = vec![0u8; n];
                        loop {
                            for (k, &c) in layout.pieces.iter().enumerate() {
                                sq[k] = if c & 7 == 1 {
                                    8 + (next() % 48) as u8
                                } else {
                                    (next() % 64) as u8
                                };
                            }
                            let kings: Vec<u8> = (0..n)
                                .filter(|&k| layout.pieces[k] & 7 == 6)
                                .map(|k| sq[k])
                                .collect();
                            let apart = (kings[0] % 8).abs_diff(kings[1] % 8) > 1
                                || (kings[0] / 8).abs_diff(kings[1] / 8) > 1;
                            let distinct = (0..n).all(|i| (0..i).all(|j| sq[i] != sq[j]));
                            if apart && distinct {
                                break;
                            }
                        }
                        for p in 0..n {
                            let Some(row) = RowIndex::new(&layout, walk_shape, &sq, p) else {
                                continue;
                            };
                            rows += 1;
                            for t in 0..64u8 {
                                let mut moved = sq.clone();
                                moved[p] = t;
                                let king = layout.pieces[p] & 7 == 6;
                                let near_king = (0..n).any(|k| {
                                    k != p
                                        && layout.pieces[k] & 7 == 6
                                        && (sq[k] % 8).abs_diff(t % 8) <= 1
                                        && (sq[k] / 8).abs_diff(t / 8) <= 1
                                });
                                if (0..n).any(|k| k != p && sq[k] == t) || (king && near_king) {
                                    continue;
                                }
                                assert_eq!(
                                    row.index(t),
                                    encoded(&moved),
                                    "{name} {:?} file {file} {sq:?} piece {p} on {t}",
                                    order.codes
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(rows > 10_000, "{rows} rows");
    }

    /// Walking zermelo's canonical indices stores what enumerating placements stored, at
    /// every index of every file, on 3- and 4-piece materials with and without pawns and
    /// with identical pieces; it visits each position once, where the placements visited both
    /// of a pair the diagonal reflects into each other.
    #[test]
    fn walking_zermelo_indices_stores_what_placements_stored() {
        // KPPvK: two leading pawns on mirror squares (a7, h7) tie for the lead, and a position
        // and its mirror have two indices (the export once stored one of them).
        let tb = tables(&[
            "KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KNNvK", "KRvKN", "KQvKN", "KBvKN", "KNvKN",
            "KNvKP", "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KRRvK", "KRBvK", "KRNvK", "KBBvK",
            "KBNvK", "KQPvK", "KRPvK", "KBPvK", "KNPvK", "KPPvK",
        ]);
        for name in ["KRvK", "KPvK", "KNNvK", "KRvKN", "KNvKP", "KPPvK"] {
            let material: Material = name.parse().unwrap();
            let plan = Plan::new(&material).unwrap();
            let own = tb.dtz_table(&plan.material).unwrap();
            let game = SliceGame::new(&plan.material, &tb, own.metric()).unwrap();
            let prober = Prober {
                tb: &tb,
                game: &game,
                own: &own,
                name,
                dtm: None,
            };
            let orders = candidates(&plan.kinds, plan.shape, plan.lead);
            for file in 0..plan.files() {
                let sub = Sub {
                    plan: &plan,
                    prober: &prober,
                    file,
                };
                let target = |k: usize| Target {
                    layout: plan.layout(&orders[k], file).unwrap(),
                    slots: plan.slots_of(&orders[k].codes),
                };
                // Every side in the first order; the last side also in a second one, tried
                // beside it (as a side whose samples disagree is).
                let mut wdl: Vec<Target> = (0..plan.sides()).map(|_| target(0)).collect();
                let mut wdl_sides: Vec<usize> = (0..plan.sides()).collect();
                wdl.push(target(orders.len() / 2));
                wdl_sides.push(plan.sides() - 1);
                let dtz = target(orders.len() - 1);
                let dtz_side = plan.sides() - 1;
                let walked = sub.places(&wdl, &wdl_sides, &dtz, dtz_side).unwrap();
                let placed = by_placements(&sub, &wdl, &wdl_sides, &dtz, dtz_side);
                assert_eq!(walked.wdl.len(), wdl.len());
                for (t, (w, p)) in walked.wdl.iter().zip(&placed.wdl).enumerate() {
                    let differ: Vec<usize> = (0..w.len()).filter(|&i| w[i] != p[i]).collect();
                    assert!(
                        differ.is_empty(),
                        "{name} file {file} WDL target {t}: {} of {} places differ, first at {:?}",
                        differ.len(),
                        w.len(),
                        &differ[..differ.len().min(4)]
                    );
                }
                // The last side read from its sequence in the first order into the second
                // (the long round's trial) is what the walk stored in the second.
                let last = plan.sides() - 1;
                let read = sub.permuted(&wdl[wdl.len() - 1], &wdl[last], &walked.wdl[last]);
                let differ = (0..read.len())
                    .filter(|&i| read[i] != walked.wdl[wdl.len() - 1][i])
                    .count();
                assert_eq!(
                    differ, 0,
                    "{name} file {file}: places read differ from stored"
                );
                // Read into its own order, a sequence is itself (the long round reads the
                // stored order's stretches straight from it).
                assert!(
                    sub.permuted(&wdl[last], &wdl[last], &walked.wdl[last]) == walked.wdl[last],
                    "{name} file {file}: a sequence read into its own order changed"
                );
                assert!(walked.dtz == placed.dtz, "{name} file {file}");
                assert_eq!(walked.hundred, placed.hundred, "{name} file {file}");
                // Pawns: one placement per class (the white king on files a-d); without:
                // the diagonal's pairs twice.
                assert!(walked.positions > 0);
                if plan.files() == 4 {
                    assert_eq!(walked.positions, placed.positions, "{name} file {file}");
                } else {
                    assert!(walked.positions < placed.positions, "{name}");
                }
            }
        }
    }
}
