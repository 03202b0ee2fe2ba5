//! The generalized Sprague–Grundy function γ of impartial games with cycles, and their sums.
//!
//! Reference: C. A. B. Smith, "Graphs and composite games", J. Combin. Theory 1 (1966);
//! A. S. Fraenkel and Y. Perl, "Constructions in combinatorial games with cycles" (1975);
//! A. S. Fraenkel and Y. Yesha, "The generalized Sprague–Grundy function and its invariance
//! under certain mappings", J. Combin. Theory A 43 (1986).
//!
//! **Values.** Every node gets either a finite value `m` or an infinite value `∞(K)`, `K` the set
//! of finite values among its options (written `inf{0,2}`, `inf{}` when empty; docs/formats.md).
//! `γ(u) = m` exactly when (a) no option of `u` has value `m`, (b) every option with a larger or
//! infinite value has an option of value `m` (a reversing move), (c) `u` has options of every
//! value below `m`, and the labelling is well founded (Smith's counter function). On an acyclic
//! graph γ is the ordinary Grundy function.
//!
//! **Outcome.** `0`: lost for the player to move; `m > 0`: won; `∞(K)`: won iff `0 ∈ K`, a draw
//! otherwise.
//!
//! **Sums** (Smith 1966): finite parts add by XOR (`s`); with no infinite part the sum is worth
//! `s`; with one infinite part `∞(K)` it is worth `∞(K ⊕ s)` (won iff `s ∈ K`: move that part
//! to an option of value `s`); with two or more it is `∞()`, a draw.
//!
//! **Algorithm** (Fraenkel–Yesha, in the form of retrograde analysis). Round `m = 0, 1, ...`
//! works on the subgraph `G_m` of nodes whose value is not yet below `m` (unlabelled nodes and
//! nodes already known to be infinite). Within it, a backward wave labels `m` every unlabelled
//! node all of whose `G_m`-options are "reversed" (have an option labelled `m`), exactly as
//! retrograde analysis labels LOSE from WIN: a counter per unlabelled node holds its
//! `G_m`-options not yet reversed; a node labelled `m` reverses its predecessors, whose
//! predecessors count down. At the end of the round, an unlabelled node with no option labelled
//! `m` can never meet (c) again: it is infinite. Nodes with such an option go on to round
//! `m + 1`.
//!
//! **Cost.** O(V + E) per value level (one counter pass over the out-rows of the unlabelled
//! nodes, one backward wave over reverse rows), O((μ + 1)(V + E)) in all, where μ, the largest
//! finite value, is at most the largest out-degree; O(V) extra memory (a value and a round
//! stamp per node, a counter, a queue). The sets `K` are gathered in one last O(V + E) pass.
//!
//! **Invariant.** After round `m`, every node of value `≤ m` is labelled, and every node marked
//! infinite has no option of some value `≤ m` it would need for (c).

use std::fmt;

use crate::graph::{Convention, Csr, Rules};
use crate::outcome::{NodeId, Outcome};
use crate::solve::{Nimber, SumMove};

/// Raw label: not yet labelled.
const UNSET: u32 = u32::MAX;
/// Raw label: infinite.
const INF: u32 = u32::MAX - 1;

/// A generalized Sprague–Grundy value: finite, or infinite with the finite values among the
/// options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopyValue<'a> {
    /// A finite value: behaves in sums exactly as a Nim heap of this size.
    Finite(Nimber),
    /// `∞(K)`: the finite values of the options, sorted, without repeats.
    Infinite(&'a [u32]),
}

impl LoopyValue<'_> {
    /// WIN, LOSE or DRAW for the player to move in this game alone.
    pub fn outcome(&self) -> Outcome {
        match self {
            LoopyValue::Finite(Nimber(0)) => Outcome::Lose,
            LoopyValue::Finite(_) => Outcome::Win,
            LoopyValue::Infinite(k) if k.first() == Some(&0) => Outcome::Win,
            LoopyValue::Infinite(_) => Outcome::Draw,
        }
    }

    /// The finite value, if any.
    pub fn finite(&self) -> Option<Nimber> {
        match self {
            LoopyValue::Finite(n) => Some(*n),
            LoopyValue::Infinite(_) => None,
        }
    }
}

/// Writes `inf{0,2}` for `∞(0, 2)`.
fn write_infinite(f: &mut impl fmt::Write, set: impl IntoIterator<Item = u32>) -> fmt::Result {
    f.write_str("inf{")?;
    for (i, k) in set.into_iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        write!(f, "{k}")?;
    }
    f.write_char('}')
}

impl fmt::Display for LoopyValue<'_> {
    /// `3`, `inf{0,2}`, `inf{}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopyValue::Finite(n) => n.fmt(f),
            LoopyValue::Infinite(k) => write_infinite(f, k.iter().copied()),
        }
    }
}

/// Grundy values are defined for normal play only: misère play or explicit verdicts change who
/// wins a sum, so the values (and the XOR rule) say nothing there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotNormalPlay;

impl fmt::Display for NotNormalPlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "Grundy values (and the XOR rule for sums) hold for normal play only, without \
             misère or explicit verdicts",
        )
    }
}

impl std::error::Error for NotNormalPlay {}

/// Whether Grundy values hold under `rules`: normal play, no explicit verdicts.
///
/// # Errors
/// [`NotNormalPlay`] otherwise.
pub fn normal_play(rules: &Rules) -> Result<(), NotNormalPlay> {
    if rules.convention() == Convention::Misere || !rules.verdicts().is_empty() {
        return Err(NotNormalPlay);
    }
    Ok(())
}

/// The Grundy value of every position of an impartial game under `rules`: the ordinary values
/// by one pass of mex when the graph has no cycle ([`grundy`](crate::solve::grundy)), the
/// generalized ones ([`loopy_grundy`]) when it has. What `zermelo grundy` and the Python
/// package's `loopy_grundy` answer.
///
/// # Errors
/// [`NotNormalPlay`] under misère play or with explicit verdicts.
pub fn grundy_values(graph: &Csr, rules: &Rules) -> Result<LoopyValues, NotNormalPlay> {
    normal_play(rules)?;
    Ok(match crate::solve::grundy(graph) {
        Ok(values) => LoopyValues::from_finite(&values),
        Err(_) => loopy_grundy(graph),
    })
}

/// The γ values of every node of a graph (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopyValues {
    /// Finite value, or [`INF`].
    raw: Vec<u32>,
    /// `sets[offsets[u]..offsets[u + 1]]`: the set `K` of an infinite node (empty otherwise).
    offsets: Vec<u64>,
    sets: Vec<u32>,
    rounds: u32,
}

impl LoopyValues {
    /// The values of an acyclic graph, from [`grundy`](crate::solve::grundy) (all finite).
    pub fn from_finite(values: &[Nimber]) -> LoopyValues {
        LoopyValues {
            raw: values.iter().map(|g| g.0.min(INF - 1)).collect(),
            offsets: vec![0; values.len() + 1],
            sets: Vec::new(),
            rounds: 0,
        }
    }

    /// The value of node `u`.
    ///
    /// # Panics
    /// If `u` is not a node of the graph.
    pub fn get(&self, u: NodeId) -> LoopyValue<'_> {
        match self.raw[u as usize] {
            INF => {
                let (a, b) = (self.offsets[u as usize], self.offsets[u as usize + 1]);
                LoopyValue::Infinite(&self.sets[a as usize..b as usize])
            }
            m => LoopyValue::Finite(Nimber(m)),
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// True for the empty graph.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// True when some node is infinite.
    pub fn has_infinite(&self) -> bool {
        self.raw.contains(&INF)
    }

    /// Value rounds the computation ran (at most the largest finite value + 2).
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Every value, as a vector of finite values (`None` for infinite ones).
    pub fn finite_values(&self) -> Vec<Option<Nimber>> {
        self.raw
            .iter()
            .map(|&m| (m != INF).then_some(Nimber(m)))
            .collect()
    }
}

/// The generalized Sprague–Grundy value of every node (Fraenkel–Yesha rounds; module docs).
///
/// ```
/// use zermelo::graph::Csr;
/// use zermelo::solve::{loopy_grundy, LoopyValue, Nimber};
/// // 0 -> 1 -> 0 is a cycle with an exit 1 -> 2, and 2 is terminal.
/// let g = Csr::from_edges(3, [(0, 1), (1, 0), (1, 2)]).unwrap();
/// let v = loopy_grundy(&g);
/// assert_eq!(v.get(2), LoopyValue::Finite(Nimber(0)));
/// assert_eq!(v.get(1), LoopyValue::Finite(Nimber(1)));
/// assert_eq!(v.get(0), LoopyValue::Finite(Nimber(0)));
/// assert_eq!(v.get(0).to_string(), "0");
/// ```
pub fn loopy_grundy(graph: &Csr) -> LoopyValues {
    let n = graph.node_count();
    let mut raw = vec![UNSET; n];
    // reversed[v] == m + 1: in round m, v has an option labelled m.
    let mut reversed = vec![0u32; n];
    let mut counter = vec![0u32; n];
    let mut active: Vec<NodeId> = graph.nodes().collect();
    let mut queue: Vec<NodeId> = Vec::new();
    let mut m = 0u32;
    while !active.is_empty() {
        let stamp = m + 1;
        queue.clear();
        for &u in &active {
            let c = graph
                .successors(u)
                .iter()
                .filter(|&&v| raw[v as usize] >= INF)
                .count() as u32;
            counter[u as usize] = c;
            if c == 0 {
                queue.push(u);
            }
        }
        // Labelled after the counting pass: a node labelled m is still in G_m for its
        // predecessors' counters.
        for &u in &queue {
            raw[u as usize] = m;
        }
        let mut head = 0;
        while let Some(&x) = queue.get(head) {
            head += 1;
            for &p in graph.predecessors(x) {
                if raw[p as usize] < INF || reversed[p as usize] == stamp {
                    continue; // labelled below m (never in G_m), or reversed already
                }
                reversed[p as usize] = stamp;
                for &q in graph.predecessors(p) {
                    if raw[q as usize] == UNSET {
                        counter[q as usize] -= 1;
                        if counter[q as usize] == 0 {
                            raw[q as usize] = m;
                            queue.push(q);
                        }
                    }
                }
            }
        }
        active.retain(|&u| {
            let r = &mut raw[u as usize];
            if *r == m {
                return false;
            }
            if reversed[u as usize] != stamp {
                *r = INF;
                return false;
            }
            true
        });
        m += 1;
    }
    let (offsets, sets) = gather_sets(graph, &raw);
    LoopyValues {
        raw,
        offsets,
        sets,
        rounds: m,
    }
}

/// The sets `K` of the infinite nodes, as offsets + one array.
fn gather_sets(graph: &Csr, raw: &[u32]) -> (Vec<u64>, Vec<u32>) {
    let mut offsets = Vec::with_capacity(raw.len() + 1);
    let mut sets = Vec::new();
    offsets.push(0);
    for u in graph.nodes() {
        if raw[u as usize] == INF {
            let start = sets.len();
            sets.extend(
                graph
                    .successors(u)
                    .iter()
                    .map(|&v| raw[v as usize])
                    .filter(|&g| g < INF),
            );
            sets[start..].sort_unstable();
            let mut keep = start;
            for i in start..sets.len() {
                if keep == start || sets[keep - 1] != sets[i] {
                    sets[keep] = sets[i];
                    keep += 1;
                }
            }
            sets.truncate(keep);
        }
        offsets.push(sets.len() as u64);
    }
    (offsets, sets)
}

/// The value of a sum of loopy games, by Smith's rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SumValue {
    /// The XOR of the (all finite) parts.
    Finite(Nimber),
    /// `∞(K)`: one infinite part with `K ⊕ s`, or `∞()` for two or more infinite parts.
    Infinite(Vec<u32>),
}

impl SumValue {
    /// WIN, LOSE or DRAW for the player to move in the sum.
    pub fn outcome(&self) -> Outcome {
        match self {
            SumValue::Finite(g) => LoopyValue::Finite(*g).outcome(),
            SumValue::Infinite(k) => LoopyValue::Infinite(k).outcome(),
        }
    }
}

impl fmt::Display for SumValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SumValue::Finite(g) => g.fmt(f),
            SumValue::Infinite(k) => write_infinite(f, k.iter().copied()),
        }
    }
}

/// The value of the sum of the parts standing at `starts`.
///
/// # Panics
/// If a start is not a node of the graph of `values`.
pub fn loopy_sum_value(values: &LoopyValues, starts: &[NodeId]) -> SumValue {
    let mut s = 0u32;
    let mut infinite: Vec<&[u32]> = Vec::new();
    for &u in starts {
        match values.get(u) {
            LoopyValue::Finite(g) => s ^= g.0,
            LoopyValue::Infinite(k) => infinite.push(k),
        }
    }
    match infinite.as_slice() {
        [] => SumValue::Finite(Nimber(s)),
        [k] => {
            let mut set: Vec<u32> = k.iter().map(|&x| x ^ s).collect();
            set.sort_unstable();
            SumValue::Infinite(set)
        }
        _ => SumValue::Infinite(Vec::new()),
    }
}

/// The analysis of a sum of loopy games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopySumAnalysis {
    /// The value of the sum.
    pub value: SumValue,
    /// XOR of the finite parts.
    pub finite_part: Nimber,
    /// WIN, LOSE or DRAW for the player to move.
    pub outcome: Outcome,
    /// A move to a sum that is lost for the opponent (when WIN), or to one that is drawn (when
    /// DRAW: making such a move every turn is a drawing strategy); lowest component, then lowest
    /// target.
    pub best_move: Option<SumMove>,
}

/// Analyses the sum of loopy games at `starts`: its value, outcome and a winning move, or a
/// drawing move (a move to a drawn sum, which exists from every drawn sum; repeating it is the
/// drawing strategy). Cost: the out-degrees of the starts, times the number of starts.
///
/// # Panics
/// If a start is not a node of `graph`, or `values` does not belong to `graph`.
pub fn analyse_loopy_sum(graph: &Csr, values: &LoopyValues, starts: &[NodeId]) -> LoopySumAnalysis {
    let value = loopy_sum_value(values, starts);
    let outcome = value.outcome();
    let finite_part = Nimber(
        starts
            .iter()
            .filter_map(|&u| values.get(u).finite())
            .fold(0, |acc, g| acc ^ g.0),
    );
    let wanted = match outcome {
        Outcome::Win => Some(Outcome::Lose),
        Outcome::Draw => Some(Outcome::Draw),
        Outcome::Lose => None,
    };
    let mut after = starts.to_vec();
    let best_move = wanted.and_then(|wanted| {
        starts.iter().enumerate().find_map(|(component, &from)| {
            let mut targets: Vec<NodeId> = graph.successors(from).to_vec();
            targets.sort_unstable();
            let found = targets.into_iter().find(|&to| {
                after[component] = to;
                loopy_sum_value(values, &after).outcome() == wanted
            });
            after[component] = from;
            found.map(|to| SumMove {
                component,
                from,
                to,
            })
        })
    });
    LoopySumAnalysis {
        value,
        finite_part,
        outcome,
        best_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cycle_without_exit_is_a_draw() {
        let g = Csr::from_edges(2, [(0, 1), (1, 0)]).unwrap();
        let v = loopy_grundy(&g);
        assert_eq!(v.get(0), LoopyValue::Infinite(&[]));
        assert_eq!(v.get(0).to_string(), "inf{}");
        assert_eq!(v.get(0).outcome(), Outcome::Draw);
    }

    #[test]
    fn infinite_with_an_exit_to_zero_wins() {
        // 0 <-> 1, 0 -> 2 (terminal). Round 0: 2 is labelled 0, so 0 is reversed; 1's only
        // option 0 is reversed -> γ(1) = 0.
        // Round 1: 0 has options of value 0 (1 and 2): γ(0) = 1.
        let g = Csr::from_edges(3, [(0, 1), (1, 0), (0, 2)]).unwrap();
        let v = loopy_grundy(&g);
        assert_eq!(v.get(1), LoopyValue::Finite(Nimber(0)));
        assert_eq!(v.get(0), LoopyValue::Finite(Nimber(1)));
        // A self-loop next to a terminal: ∞(0), a win.
        let g = Csr::from_edges(2, [(0, 0), (0, 1)]).unwrap();
        let v = loopy_grundy(&g);
        assert_eq!(v.get(0), LoopyValue::Infinite(&[0]));
        assert_eq!(v.get(0).outcome(), Outcome::Win);
        let a = analyse_loopy_sum(&g, &v, &[0, 0]);
        assert_eq!(a.outcome, Outcome::Draw);
        assert!(a.best_move.is_some());
    }
}
