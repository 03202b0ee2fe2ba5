//! The values of every position of a game graph at once: each position's onside and offside
//! in simplest form, equal values found once and shared.
//!
//! Valuing each position alone ([`super::loopy_value`]) orders all pairs of the positions it
//! reaches, again for every position; a graph of every strip of a game (Backsliding Toads and
//! Frogs: 531,441 strips of 12 squares) has far too many. Here, for the onsides (the offsides
//! are the onsides of `-G`, negated):
//!
//! 1. **`on` and `off` for all at once.** `G+ = on` iff `on <= G+`, and `G+ = off` iff
//!    `G+ <= off`: two Büchi games on the graph itself ([`super::onside_leq_all`] against a
//!    game of one position), O(V + E) a round of attractors.
//! 2. **The rest from the bottom up.** The positions whose onside is still unknown, split into
//!    strongly connected components (Tarjan's numbering: a component after all it reaches);
//!    each valued in a graph of its positions and the onsides of the options that leave it. An
//!    option may be replaced by a game of the same onside without changing the onside (the
//!    swivel chair through the two options; as for stoppers in components.rs), and a move that
//!    leaves a component never comes back, so these are the onsides in the whole graph. In a
//!    component:
//!    * without an infinite alternating run: one order of all its pairs and one
//!      simplification give every simplest form ([`Stopper::all_of`]);
//!    * else by **sidling** (*Winning Ways* ch. 11): all start at `on`, each replaced by the
//!      simplest form of `{its Left options' | its Right options'}` until nothing changes (the
//!      greatest fixed point, which the onsides are);
//!    * where sidling does not settle (an onside with a cycle of its own, such as `under`):
//!      the moves on alternating runs deleted for one position, each deletion checked, as
//!      [`onside`] does; the stopper left is the onside of every position where one order
//!      each way says so; the positions left over are split into components again and valued
//!      the same way, now knowing those found. The search per position is the last resort.
//! 3. **Shared.** Every simplest form is interned (equal stoppers have equal numbered graphs),
//!    so a value is a pair of numbers and an option's value is embedded in a component's graph
//!    once. Where the graph holds each position's negative ([`every_value_negating`]; a strip
//!    of Toads and Frogs read backwards), the offsides are the negatives' onsides negated.
//!
//! Checked against the search per position on every strip of Backsliding Toads and Frogs of 1
//! to 6 squares and some of 7 (crates/zermelo-games/tests/backsliding.rs). Measured: all
//! 797,160 strips of 1 to 12 squares in 5.2-5.6 s (docs/benchmarks/values.md).

use std::collections::HashMap;

use super::order::onside_leq_all;
use super::reduce::dominated_left_deleted;
use super::sides::{onside, onside_cut, strongly_connected};
use super::{LoopyGraph, Sides, Stopper, MAX_STOPPER_NODES};
use crate::error::CgtError;

/// The number of a distinct stopper in [`Values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StopperId(u32);

/// The values of every position of a graph ([`every_value`]): each position's onside and
/// offside as the number of a distinct stopper in simplest form.
#[derive(Debug)]
pub struct Values {
    stoppers: Vec<Stopper>,
    index: HashMap<LoopyGraph, StopperId>,
    negated: HashMap<StopperId, StopperId>,
    combined: HashMap<(Vec<StopperId>, Vec<StopperId>), StopperId>,
    onside: Vec<Option<StopperId>>,
    offside: Vec<Option<StopperId>>,
}

impl Values {
    fn new() -> Values {
        Values {
            stoppers: Vec::new(),
            index: HashMap::new(),
            negated: HashMap::new(),
            combined: HashMap::new(),
            onside: Vec::new(),
            offside: Vec::new(),
        }
    }

    fn intern(&mut self, s: Stopper) -> StopperId {
        if let Some(&id) = self.index.get(s.graph()) {
            return id;
        }
        let id = StopperId(self.stoppers.len() as u32);
        self.index.insert(s.graph().clone(), id);
        self.stoppers.push(s);
        id
    }

    fn negate(&mut self, id: StopperId) -> StopperId {
        if let Some(&n) = self.negated.get(&id) {
            return n;
        }
        let n = self.intern(self.stoppers[id.0 as usize].negated());
        self.negated.insert(id, n);
        self.negated.insert(n, id);
        n
    }

    /// The stopper numbered `id`.
    pub fn stopper(&self, id: StopperId) -> &Stopper {
        &self.stoppers[id.0 as usize]
    }

    /// How many distinct stoppers the sides of all the positions are.
    pub fn stopper_count(&self) -> usize {
        self.stoppers.len()
    }

    /// The onside and offside of node `v` (`None` where they were not found: a component past
    /// the sizes the method takes, or sides that are not stoppers).
    pub fn sides_ids(&self, v: u32) -> Option<(StopperId, StopperId)> {
        Some((self.onside[v as usize]?, self.offside[v as usize]?))
    }

    /// The value of node `v` as [`Sides`] (printed as [`super::loopy_value`] prints it).
    pub fn sides(&self, v: u32) -> Option<Sides> {
        let (on, off) = self.sides_ids(v)?;
        Some(Sides::from_parts(
            self.stopper(on).clone(),
            self.stopper(off).clone(),
            on == off,
        ))
    }

    /// The number of nodes valued.
    pub fn node_count(&self) -> usize {
        self.onside.len()
    }
}

/// The onside and offside of every node of `g`, in simplest form, each distinct stopper once.
///
/// # Errors
/// [`CgtError::TooBig`] when the Büchi games on the whole graph pass their limits
/// ([`super::MAX_ORDER_PAIRS`]); a component past its limits leaves its nodes unvalued (`None`)
/// instead.
pub fn every_value(g: &LoopyGraph) -> Result<Values, CgtError> {
    every_value_negating(g, None)
}

/// [`every_value`] for a graph that holds the negative of each of its positions: node
/// `negative[v]` is `-v` (Left's moves of the one are Right's of the other). The offside of
/// `v` is then the negative of the onside of `negative[v]`, and only the onsides are looked for:
/// half the work. A map that is not such (checked, O(E log E)) is ignored.
///
/// # Errors
/// As [`every_value`].
pub fn every_value_negating(g: &LoopyGraph, negative: Option<&[u32]>) -> Result<Values, CgtError> {
    let mut values = Values::new();
    let n = g.node_count();
    let onsides = onsides(g, vec![None; n], &mut values)?;
    if let Some(negative) = negative.filter(|m| is_negation(g, m)) {
        let offsides = (0..n)
            .map(|v| onsides[negative[v] as usize].map(|id| values.negate(id)))
            .collect();
        values.onside = onsides;
        values.offside = offsides;
        return Ok(values);
    }
    // A stopper's offside is its onside; the others' offsides are the onsides of -G, negated.
    let stoppers = g.stoppers();
    let known: Vec<Option<StopperId>> = (0..n)
        .map(|v| match (stoppers[v], onsides[v]) {
            (true, Some(id)) => Some(values.negate(id)),
            _ => None,
        })
        .collect();
    let negated = onsides_or_unknown(&g.negated(), known, &stoppers, &mut values)?;
    let offsides = negated
        .into_iter()
        .map(|x| x.map(|id| values.negate(id)))
        .collect();
    values.onside = onsides;
    values.offside = offsides;
    Ok(values)
}

/// Is node `negative[v]` the negative of `v` for every `v`: its Left options the negatives of
/// `v`'s Right options and the other way round?
fn is_negation(g: &LoopyGraph, negative: &[u32]) -> bool {
    let n = g.node_count();
    if negative.len() != n || negative.iter().any(|&w| w as usize >= n) {
        return false;
    }
    let sorted = |mut x: Vec<u32>| {
        x.sort_unstable();
        x.dedup();
        x
    };
    (0..n as u32).all(|v| {
        let w = negative[v as usize];
        [true, false].iter().all(|&left| {
            let mirrored = g.options(v, !left).iter().map(|&x| negative[x as usize]);
            sorted(g.options(w, left).to_vec()) == sorted(mirrored.collect())
        })
    })
}

/// [`onsides`] where a stopper whose onside was not found stays unknown (its offside is the
/// same unknown).
fn onsides_or_unknown(
    g: &LoopyGraph,
    known: Vec<Option<StopperId>>,
    stoppers: &[bool],
    values: &mut Values,
) -> Result<Vec<Option<StopperId>>, CgtError> {
    let skip: Vec<bool> = (0..g.node_count())
        .map(|v| stoppers[v] && known[v].is_none())
        .collect();
    let mut out = onsides_with(g, known, &skip, values)?;
    for (v, x) in out.iter_mut().enumerate() {
        if skip[v] {
            *x = None;
        }
    }
    Ok(out)
}

fn onsides(
    g: &LoopyGraph,
    known: Vec<Option<StopperId>>,
    values: &mut Values,
) -> Result<Vec<Option<StopperId>>, CgtError> {
    let skip = vec![false; g.node_count()];
    onsides_with(g, known, &skip, values)
}

/// `on`: one position, a Left move to itself.
fn on_graph() -> LoopyGraph {
    let mut on = LoopyGraph::new();
    let v = on.add_node();
    on.add_left(v, v);
    on
}

/// The onside of every node of `g` not `known` (nodes in `skip` are left unvalued, and so is
/// every node with an option whose onside is not found).
fn onsides_with(
    g: &LoopyGraph,
    mut known: Vec<Option<StopperId>>,
    skip: &[bool],
    values: &mut Values,
) -> Result<Vec<Option<StopperId>>, CgtError> {
    let n = g.node_count();
    let on = on_graph();
    let off = on.negated();
    let on_id = values.intern(Stopper::new(&on, 0)?);
    let off_id = values.intern(Stopper::new(&off, 0)?);
    let at_least_on = onside_leq_all(&on, g)?;
    let at_most_off = onside_leq_all(g, &off)?;
    for v in 0..n {
        if known[v].is_none() && !skip[v] {
            if at_least_on[v] {
                known[v] = Some(on_id);
            } else if at_most_off[v] {
                known[v] = Some(off_id);
            }
        }
    }
    // The rest, one component of the unknown nodes at a time, leaves first.
    let open: Vec<bool> = (0..n).map(|v| known[v].is_none() && !skip[v]).collect();
    let nodes: Vec<u32> = (0..n as u32).filter(|&v| open[v as usize]).collect();
    let mut local = vec![u32::MAX; n];
    for (i, &v) in nodes.iter().enumerate() {
        local[v as usize] = i as u32;
    }
    let next = |i: usize| -> Vec<usize> {
        let v = nodes[i];
        g.left(v)
            .iter()
            .chain(g.right(v))
            .filter(|&&w| open[w as usize])
            .map(|&w| local[w as usize] as usize)
            .collect()
    };
    let component = strongly_connected(nodes.len(), next);
    let count = component.iter().map(|&c| c + 1).max().unwrap_or(0);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); count];
    for (i, &c) in component.iter().enumerate() {
        members[c].push(nodes[i]);
    }
    let mut failed = vec![false; n];
    for (v, f) in failed.iter_mut().enumerate() {
        *f = skip[v];
    }
    for part in &members {
        solve_part(g, part, &mut known, &mut failed, values)?;
    }
    Ok(known)
}

/// What [`component_onsides`] found for a component's nodes.
enum Found {
    /// Every node's onside, or `None` where it was not found.
    All(Vec<Option<StopperId>>),
    /// Some nodes' onsides (`None` for the others, still to be looked for, knowing these).
    Some(Vec<Option<StopperId>>),
    /// Nothing: an option's onside is unknown, or the component is too large.
    Nothing,
}

/// The onsides of one component's nodes into `known` (or `failed`). Where only some are found,
/// the others are split into components again, below the nodes found, and valued the same way.
fn solve_part(
    g: &LoopyGraph,
    part: &[u32],
    known: &mut [Option<StopperId>],
    failed: &mut [bool],
    values: &mut Values,
) -> Result<(), CgtError> {
    let found = component_onsides(g, part, known, failed, values)?;
    let (ids, partial) = match found {
        Found::All(ids) => (ids, false),
        Found::Some(ids) => (ids, true),
        Found::Nothing => (vec![None; part.len()], false),
    };
    let mut rest = Vec::new();
    for (&v, id) in part.iter().zip(ids) {
        match id {
            Some(id) => known[v as usize] = Some(id),
            None if partial => rest.push(v),
            None => failed[v as usize] = true,
        }
    }
    if rest.is_empty() {
        return Ok(());
    }
    // Tarjan's numbering of what is left: each piece after the pieces it reaches.
    let index: HashMap<u32, usize> = rest.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let next = |i: usize| -> Vec<usize> {
        let v = rest[i];
        g.left(v)
            .iter()
            .chain(g.right(v))
            .filter_map(|w| index.get(w).copied())
            .collect()
    };
    let component = strongly_connected(rest.len(), next);
    let count = component.iter().map(|&c| c + 1).max().unwrap_or(0);
    let mut pieces: Vec<Vec<u32>> = vec![Vec::new(); count];
    for (i, &c) in component.iter().enumerate() {
        pieces[c].push(rest[i]);
    }
    for piece in &pieces {
        solve_part(g, piece, known, failed, values)?;
    }
    Ok(())
}

/// The onsides of the nodes of one component (`part`), its options that leave it standing for
/// their onsides.
fn component_onsides(
    g: &LoopyGraph,
    part: &[u32],
    known: &[Option<StopperId>],
    failed: &[bool],
    values: &mut Values,
) -> Result<Found, CgtError> {
    let mut graph = LoopyGraph::new();
    let mut at: HashMap<u32, u32> = HashMap::with_capacity(part.len());
    for &v in part {
        at.insert(v, graph.add_node());
    }
    let mut embedded: HashMap<StopperId, u32> = HashMap::new();
    for &v in part {
        for left in [true, false] {
            for &w in g.options(v, left) {
                let to = match at.get(&w) {
                    Some(&to) => to,
                    None => {
                        if failed[w as usize] {
                            return Ok(Found::Nothing);
                        }
                        let Some(id) = known[w as usize] else {
                            return Ok(Found::Nothing);
                        };
                        *embedded
                            .entry(id)
                            .or_insert_with(|| graph.append(values.stopper(id).graph()))
                    }
                };
                if left {
                    graph.add_left(at[&v], to);
                } else {
                    graph.add_right(at[&v], to);
                }
            }
        }
    }
    if graph.node_count() > MAX_STOPPER_NODES {
        return Ok(Found::Nothing);
    }
    let roots: Vec<u32> = part.iter().map(|v| at[v]).collect();
    if graph.is_stopper(roots[0]) {
        let found = match Stopper::all_of(&graph, &roots) {
            Ok(found) => found,
            Err(CgtError::TooBig(_)) => return Ok(Found::Nothing),
            Err(e) => return Err(e),
        };
        return Ok(Found::All(
            found.into_iter().map(|s| Some(values.intern(s))).collect(),
        ));
    }
    if let Some(found) = sidle(g, part, &at, known, values)? {
        return Ok(Found::All(found.into_iter().map(Some).collect()));
    }
    let shared = shared_cut(&graph, &roots, values)?;
    if shared.iter().any(Option::is_some) {
        return Ok(Found::Some(shared));
    }
    let mut out = Vec::with_capacity(roots.len());
    for &r in &roots {
        out.push(match onside(&graph, r) {
            Ok(s) => Some(values.intern(s)),
            Err(CgtError::TooBig(_) | CgtError::NotStopperSided(_)) => None,
            Err(e) => return Err(e),
        });
    }
    Ok(Found::All(out))
}

/// The most rounds [`sidle`] takes before it gives up.
const MAX_SIDLING_ROUNDS: usize = 24;

/// The onsides of one component by sidling (*Winning Ways* ch. 11): every position starts as
/// `on` and is replaced, round after round, by the simplest form of `{onsides of its Left
/// options | of its Right options}` (each round's values in place) until a round changes
/// nothing. The onsides are the greatest such fixed point. The approximations only go down,
/// and they stop in finitely many rounds where the onsides are built from the exits' values
/// and short games; an onside with a cycle of its own (`over` = `{0|over}`: `1, 1/2, 1/4,
/// ...`) is approached forever, so past [`MAX_SIDLING_ROUNDS`] rounds `None` says to look
/// for the onsides another way.
fn sidle(
    g: &LoopyGraph,
    part: &[u32],
    at: &HashMap<u32, u32>,
    known: &[Option<StopperId>],
    values: &mut Values,
) -> Result<Option<Vec<StopperId>>, CgtError> {
    let on = values.intern(Stopper::new(&on_graph(), 0)?);
    let mut cur = vec![on; part.len()];
    for _ in 0..MAX_SIDLING_ROUNDS {
        let mut changed = false;
        for (i, &v) in part.iter().enumerate() {
            let side = |left: bool| -> Vec<StopperId> {
                let mut ids: Vec<StopperId> = g
                    .options(v, left)
                    .iter()
                    .map(|w| match at.get(w) {
                        Some(&j) => cur[j as usize],
                        None => known[*w as usize].expect("an exit's onside is known"),
                    })
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            };
            let (l, r) = (side(true), side(false));
            let Some(next) = values.combine(l, r)? else {
                return Ok(None);
            };
            if next != cur[i] {
                cur[i] = next;
                changed = true;
            }
        }
        if !changed {
            return Ok(Some(cur));
        }
    }
    Ok(None)
}

impl Values {
    /// The simplest form of `{lefts | rights}` (distinct stoppers, sorted), memoized; `None`
    /// past [`MAX_STOPPER_NODES`] positions.
    fn combine(
        &mut self,
        lefts: Vec<StopperId>,
        rights: Vec<StopperId>,
    ) -> Result<Option<StopperId>, CgtError> {
        let key = (lefts, rights);
        if let Some(&id) = self.combined.get(&key) {
            return Ok(Some(id));
        }
        let mut graph = LoopyGraph::new();
        let root = graph.add_node();
        let mut placed: HashMap<StopperId, u32> = HashMap::new();
        for (ids, left) in [(&key.0, true), (&key.1, false)] {
            for &id in ids {
                let to = *placed
                    .entry(id)
                    .or_insert_with(|| graph.append(self.stoppers[id.0 as usize].graph()));
                if left {
                    graph.add_left(root, to);
                } else {
                    graph.add_right(root, to);
                }
            }
        }
        if graph.node_count() > MAX_STOPPER_NODES {
            return Ok(None);
        }
        let id = self.intern(Stopper::new(&graph, root)?);
        self.combined.insert(key, id);
        Ok(Some(id))
    }
}

/// The onsides of the roots of a component that sidling does not settle, as many as one cut
/// gives: the moves on infinite alternating runs deleted as [`onside`] deletes them for the
/// first root (after the dominated Left options, which keeps every node's onside), the stopper
/// left valued at every root and kept at each root whose onside it matches (one order of all
/// pairs of the two graphs each way). `None` for the other roots; all `None` when no cut is
/// found.
fn shared_cut(
    graph: &LoopyGraph,
    roots: &[u32],
    values: &mut Values,
) -> Result<Vec<Option<StopperId>>, CgtError> {
    let none = vec![None; roots.len()];
    let reduced = match dominated_left_deleted(graph) {
        Ok(r) => r,
        Err(CgtError::TooBig(_)) => return Ok(none),
        Err(e) => return Err(e),
    };
    let cut = match onside_cut(&reduced, roots[0]) {
        Ok(Some(cut)) => cut,
        Ok(None) | Err(CgtError::TooBig(_)) => return Ok(none),
        Err(e) => return Err(e),
    };
    let k = graph.node_count();
    let (up, down) = match (onside_leq_all(graph, &cut), onside_leq_all(&cut, graph)) {
        (Ok(up), Ok(down)) => (up, down),
        (Err(CgtError::TooBig(_)), _) | (_, Err(CgtError::TooBig(_))) => return Ok(none),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let same = |r: u32| up[r as usize * k + r as usize] && down[r as usize * k + r as usize];
    let matched: Vec<u32> = roots.iter().copied().filter(|&r| same(r)).collect();
    let mut found = match Stopper::all_of(&cut, &matched) {
        Ok(found) => found.into_iter(),
        Err(CgtError::TooBig(_)) => return Ok(none),
        Err(e) => return Err(e),
    };
    let mut out = Vec::with_capacity(roots.len());
    for &r in roots {
        out.push(match same(r) {
            true => Some(values.intern(found.next().expect("one for each root matched"))),
            false => None,
        });
    }
    Ok(out)
}
