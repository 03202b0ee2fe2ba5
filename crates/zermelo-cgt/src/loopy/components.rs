//! Simplest forms of every position of a large stopper, one strongly connected component at a
//! time.
//!
//! [`Stopper::new`] orders all the positions of a game at once (k^2 pairs), so it stops at
//! [`MAX_STOPPER_NODES`]. A game whose cycles are short but whose positions are many (Fox and
//! Geese: the geese move only forward, so only the fox's shuttling repeats a position) is
//! valued here from the bottom up: the components of its graph in reverse topological order
//! (Tarjan's numbering), each one's positions valued in a graph of the component and the
//! simplest forms of the options that leave it. An option may be replaced by an equal stopper
//! without changing a game's value (the mirror strategy in `G - G'` answers inside the two
//! equal options with the strategy of their difference), and an option that leaves the
//! component never returns to it, so the stoppers found are those of the whole game. Cost: for
//! each component of `c` positions whose options leave it for values of `e` positions in all,
//! `c` orders of `(c + e)^2` pairs.

use std::collections::HashMap;

use super::sides::strongly_connected;
use super::{LoopyGraph, Stopper, MAX_STOPPER_NODES};
use crate::error::CgtError;

/// The simplest form of every node reachable from `starts` (`None` for the others), each node
/// valued once.
///
/// # Errors
/// [`CgtError::NotStopper`] (naming a node on an infinite alternating run) when a start is not
/// a stopper; [`CgtError::TooBig`] when one component and the values of its options pass
/// [`MAX_STOPPER_NODES`] positions.
pub fn stopper_values(g: &LoopyGraph, starts: &[u32]) -> Result<Vec<Option<Stopper>>, CgtError> {
    let stoppers = g.stoppers();
    if let Some(&s) = starts.iter().find(|&&s| !stoppers[s as usize]) {
        let node = g.alternating_cycle(s).unwrap_or(s);
        return Err(CgtError::NotStopper(u64::from(node)));
    }
    let order = g.reachable(starts);
    let n = g.node_count();
    // Local numbers: `order[i]` is local node `i`.
    let mut local = vec![u32::MAX; n];
    for (i, &v) in order.iter().enumerate() {
        local[v as usize] = i as u32;
    }
    let next = |i: usize| -> Vec<usize> {
        let v = order[i];
        g.left(v)
            .iter()
            .chain(g.right(v))
            .map(|&w| local[w as usize] as usize)
            .collect()
    };
    let component = strongly_connected(order.len(), next);
    let count = component.iter().map(|&c| c + 1).max().unwrap_or(0);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); count];
    for (i, &c) in component.iter().enumerate() {
        members[c].push(i as u32);
    }
    // Values interned by their printed simplest form (equal stoppers print alike): a
    // component's graph embeds each value its options reach once.
    let mut values = Interned::default();
    let mut value_of = vec![usize::MAX; order.len()];
    // Tarjan numbers a component after every component it reaches: leaves first.
    for (c, nodes) in members.iter().enumerate() {
        let mut graph = LoopyGraph::new();
        let mut at = HashMap::new();
        for &i in nodes {
            at.insert(i, graph.add_node());
        }
        let mut embedded: HashMap<usize, u32> = HashMap::new();
        for &i in nodes {
            for left in [true, false] {
                for &w in g.options(order[i as usize], left) {
                    let j = local[w as usize];
                    let to = if component[j as usize] == c {
                        at[&j]
                    } else {
                        let k = value_of[j as usize];
                        *embedded
                            .entry(k)
                            .or_insert_with(|| graph.append(values.get(k).graph()))
                    };
                    if left {
                        graph.add_left(at[&i], to);
                    } else {
                        graph.add_right(at[&i], to);
                    }
                }
            }
        }
        if graph.node_count() > MAX_STOPPER_NODES {
            return Err(CgtError::TooBig(format!(
                "a cycle of {} positions whose options take {} more is more than the \
                 {MAX_STOPPER_NODES} this program simplifies",
                nodes.len(),
                graph.node_count() - nodes.len()
            )));
        }
        for &i in nodes {
            let s = Stopper::new(&graph, at[&i])?;
            value_of[i as usize] = values.intern(s);
        }
    }
    let mut out = vec![None; n];
    for (i, &v) in order.iter().enumerate() {
        out[v as usize] = Some(values.get(value_of[i]).clone());
    }
    Ok(out)
}

/// Distinct stoppers, each once, by their printed form.
#[derive(Default)]
struct Interned {
    list: Vec<Stopper>,
    index: HashMap<String, usize>,
}

impl Interned {
    fn intern(&mut self, s: Stopper) -> usize {
        let text = s.to_string();
        if let Some(&k) = self.index.get(&text) {
            return k;
        }
        self.list.push(s);
        self.index.insert(text, self.list.len() - 1);
        self.list.len() - 1
    }

    fn get(&self, k: usize) -> &Stopper {
        &self.list[k]
    }
}
