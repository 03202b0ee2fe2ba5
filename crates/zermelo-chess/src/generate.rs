//! Generation of one table by retrograde analysis over its slice.
//!
//! Every legal index is a node; its moves that keep the material are edges inside the slice,
//! and its captures and promotions lead into smaller tables, whose values are already known.
//! Those exits are wired to a *value chain* of extra nodes (`L0 <- W1 <- L2 <- ...`, plus a
//! self-looping draw node) whose solved value is exactly the probed one, so that zermelo's
//! generic retrograde solver ([`zermelo::solve::retrograde_parallel`], O(V + E)) yields the
//! depth to mate of the whole slice. Positions with en passant rights get a twin node (the
//! same position plus the en passant captures) that the double pawn push leads into.
//! Cost: one move generation per node, edges held as a reverse CSR (4 bytes each).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use zermelo::graph::{Predecessors, Rules};
use zermelo::{NodeId, Outcome};

use crate::index::Indexer;
use crate::material::Material;
use crate::position::{Move, Position};
use crate::probe::{ProbeError, Tablebase};
use crate::square::{Color, Role, Square};
use crate::table::Table;
use crate::value::{Value, ILLEGAL, MAX_PLIES};

/// Why a table cannot be generated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// A smaller table it depends on is missing or corrupt.
    #[error("generating {material}: {source}")]
    Dependency {
        /// The table being generated.
        material: Material,
        /// The probe failure.
        source: Box<ProbeError>,
    },
    /// The material is not supported (too many pieces, or not canonical).
    #[error("cannot generate {0}: {1}")]
    Unsupported(Material, String),
}

/// The value chain's length: nodes for depths `0..=MAX_PLIES`.
const CHAIN: u32 = MAX_PLIES + 1;

/// Generates the table of the canonical `material`; every table it depends on must be
/// reachable through `tb`. `progress` counts nodes whose moves have been generated.
pub fn generate(
    material: &Material,
    tb: &Tablebase,
    progress: &AtomicU64,
) -> Result<Table, GenError> {
    if !material.is_canonical() || material.piece_count() > 4 || material.piece_count() < 3 {
        return Err(GenError::Unsupported(
            material.clone(),
            "supported: canonical materials of 3 or 4 pieces".into(),
        ));
    }
    let dep = |source| GenError::Dependency {
        material: material.clone(),
        source: Box::new(source),
    };
    for m in material.successors() {
        tb.table(&m).map_err(dep)?;
    }
    let indexer = Indexer::new(material);
    let slice = Slice::new(&indexer, tb);
    let graph = slice.build(progress).map_err(dep)?;
    let solution = zermelo::solve::retrograde_parallel(&graph, &Rules::normal());
    let n = indexer.size() as usize;
    let mut entries = vec![ILLEGAL; n];
    entries.par_iter_mut().enumerate().for_each(|(i, e)| {
        if graph.legal[i] {
            let value = match solution.outcome(i as NodeId) {
                Outcome::Draw => Value::Draw,
                Outcome::Win => Value::Win(solution.depth(i as NodeId).map_or(0, |d| d.plies())),
                Outcome::Lose => Value::Lose(solution.depth(i as NodeId).map_or(0, |d| d.plies())),
            };
            // Depths above MAX_PLIES cannot occur with at most 4 pieces (the longest is 79).
            *e = crate::value::encode(value).unwrap_or(ILLEGAL);
        }
    });
    Ok(Table::from_entries(material, entries))
}

/// The nodes of one slice: legal indices, then en passant twins, then the value chain.
struct Slice<'a> {
    indexer: &'a Indexer,
    tb: &'a Tablebase,
    twins: Vec<Position>,
    twin_ids: HashMap<(u64, Square), NodeId>,
}

impl<'a> Slice<'a> {
    fn new(indexer: &'a Indexer, tb: &'a Tablebase) -> Slice<'a> {
        let m = indexer.material();
        let both_pawns = m.side(Color::White).contains(&Role::Pawn)
            && m.side(Color::Black).contains(&Role::Pawn);
        let twins: Vec<Position> = if both_pawns {
            (0..indexer.size())
                .into_par_iter()
                .filter_map(|i| indexer.legal(i))
                .flat_map_iter(ep_twins)
                .collect()
        } else {
            Vec::new()
        };
        let base = indexer.size() as NodeId;
        let twin_ids = twins
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let key = (
                    indexer.rank(p).unwrap_or(0),
                    p.ep_square().expect("twins have ep"),
                );
                (key, base + k as NodeId)
            })
            .collect();
        Slice {
            indexer,
            tb,
            twins,
            twin_ids,
        }
    }

    fn draw_node(&self) -> NodeId {
        (self.indexer.size() + self.twins.len() as u64) as NodeId
    }

    fn chain_node(&self, value: Value) -> NodeId {
        match value.plies() {
            None => self.draw_node(),
            Some(d) => self.draw_node() + 1 + d.min(CHAIN - 1),
        }
    }

    fn position(&self, node: usize) -> Option<Position> {
        let n = self.indexer.size() as usize;
        if node < n {
            self.indexer.legal(node as u64)
        } else {
            self.twins.get(node - n).copied()
        }
    }

    /// The successors of `pos`.
    fn successors(
        &self,
        pos: &Position,
        moves: &mut Vec<Move>,
        out: &mut Vec<NodeId>,
    ) -> Result<(), ProbeError> {
        pos.legal_moves_into(moves);
        if moves.is_empty() && !pos.is_check() {
            out.push(self.draw_node()); // stalemate
        }
        for &m in moves.iter() {
            let child = pos.play(m);
            if m.capture || m.promotion.is_some() {
                out.push(self.chain_node(self.tb.probe(&child)?));
                continue;
            }
            let (idx, t) = self
                .indexer
                .rank_with_transform(&child)
                .ok_or_else(|| ProbeError::Illegal(child.fen()))?;
            let id = match child.ep_square() {
                Some(ep) => *self
                    .twin_ids
                    .get(&(idx, ep.transform(t)))
                    .ok_or_else(|| ProbeError::Illegal(child.fen()))?,
                None => idx as NodeId,
            };
            out.push(id);
        }
        Ok(())
    }

    fn build(&self, progress: &AtomicU64) -> Result<SliceGraph, ProbeError> {
        let nodes = self.indexer.size() as usize + self.twins.len();
        let total = nodes + 1 + CHAIN as usize;
        const CHUNK: usize = 1 << 14;
        let chunks: Vec<(Vec<u32>, Vec<NodeId>)> = (0..nodes.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (mut degrees, mut edges, mut moves) =
                    (Vec::with_capacity(CHUNK), Vec::new(), Vec::new());
                for node in c * CHUNK..((c + 1) * CHUNK).min(nodes) {
                    let before = edges.len();
                    if let Some(pos) = self.position(node) {
                        self.successors(&pos, &mut moves, &mut edges)?;
                    }
                    degrees.push((edges.len() - before) as u32);
                }
                progress.fetch_add(degrees.len() as u64, Relaxed);
                Ok((degrees, edges))
            })
            .collect::<Result<_, ProbeError>>()?;
        let mut out_degree: Vec<u32> = Vec::with_capacity(total);
        let mut in_count = vec![0u64; total + 1];
        for (degrees, edges) in &chunks {
            out_degree.extend_from_slice(degrees);
            for &v in edges {
                in_count[v as usize + 1] += 1;
            }
        }
        // The draw node loops on itself; chain node d has one move, to chain node d - 1.
        out_degree.push(1);
        in_count[self.draw_node() as usize + 1] += 1;
        for d in 0..CHAIN {
            out_degree.push(u32::from(d > 0));
            if d > 0 {
                in_count[self.draw_node() as usize + d as usize + 1] += 1;
            }
        }
        for i in 1..in_count.len() {
            in_count[i] += in_count[i - 1];
        }
        let mut fill = in_count.clone();
        let mut preds = vec![0 as NodeId; in_count[total] as usize];
        let mut add = |u: NodeId, v: NodeId| {
            preds[fill[v as usize] as usize] = u;
            fill[v as usize] += 1;
        };
        let mut u = 0 as NodeId;
        for (degrees, edges) in &chunks {
            let mut at = 0;
            for &d in degrees {
                for &v in &edges[at..at + d as usize] {
                    add(u, v);
                }
                at += d as usize;
                u += 1;
            }
        }
        let draw = self.draw_node();
        add(draw, draw);
        for d in 1..CHAIN {
            add(draw + 1 + d, draw + d);
        }
        drop(chunks);
        let legal = (0..self.indexer.size() as usize)
            .into_par_iter()
            .map(|i| out_degree[i] > 0 || self.indexer.legal(i as u64).is_some())
            .collect();
        Ok(SliceGraph {
            out_degree,
            offsets: in_count,
            preds,
            legal,
        })
    }
}

/// The positions with en passant rights that `pos` (without them) stands for: the side not to
/// move may have just double-pushed a pawn that a pawn of the side to move can take.
fn ep_twins(pos: Position) -> Vec<Position> {
    let them = pos.turn().other();
    let fwd = them.forward();
    let mut out = Vec::new();
    for (sq, p) in pos.pieces() {
        let double_pushed = p.color == them
            && p.role == Role::Pawn
            && sq.rank() == if them == Color::White { 3 } else { 4 };
        if !double_pushed {
            continue;
        }
        let (Some(ep), Some(origin)) = (sq.offset(0, -fwd), sq.offset(0, -2 * fwd)) else {
            continue;
        };
        if pos.piece_at(ep).is_some() || pos.piece_at(origin).is_some() {
            continue;
        }
        let mut twin = pos;
        twin.set_ep_square(Some(ep));
        // Keep it only if an en passant capture is legal (the FEN convention).
        let twin = Position::from_fen(&twin.fen()).ok();
        if let Some(t) = twin.filter(|t| t.ep_square().is_some()) {
            out.push(t);
        }
    }
    out
}

/// A slice as a reverse CSR for the generic solver.
struct SliceGraph {
    out_degree: Vec<u32>,
    offsets: Vec<u64>,
    preds: Vec<NodeId>,
    legal: Vec<bool>,
}

impl Predecessors for SliceGraph {
    fn node_count(&self) -> usize {
        self.out_degree.len()
    }

    fn out_degree(&self, u: NodeId) -> u32 {
        self.out_degree[u as usize]
    }

    fn predecessors(&self, v: NodeId) -> &[NodeId] {
        &self.preds[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }
}
