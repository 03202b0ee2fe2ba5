//! Values of the positions of an acyclic partizan game graph.
//!
//! Cost: one iterative depth-first search from the starts (O(V + E) over the reachable
//! positions, finding a cycle if there is one), then one canonicalization per reachable
//! position in postorder (children first), each over that position's options.

use crate::error::CgtError;
use crate::Value;
use zermelo::graph::TwoPlayerGraph;
use zermelo::solve::Cycle;
use zermelo::{NodeId, Player};

/// The value of every position reachable from `starts` (`None` for the others), Left being
/// player 0.
///
/// # Errors
/// [`CgtError::OutOfRange`] for a bad start, [`CgtError::Cycle`] (with the cycle) when the
/// positions reachable from the starts are not acyclic, [`CgtError::NumberTooLarge`].
pub fn graph_values(
    game: &TwoPlayerGraph,
    starts: &[NodeId],
) -> Result<Vec<Option<Value>>, CgtError> {
    let n = game.position_count();
    let options = |p: NodeId, player: Player| -> Vec<NodeId> {
        let mut o: Vec<NodeId> = game
            .states()
            .successors(TwoPlayerGraph::state(p, player))
            .iter()
            .map(|&s| TwoPlayerGraph::split(s).0)
            .collect();
        o.sort_unstable();
        o.dedup();
        o
    };
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let mut colour = vec![WHITE; n];
    let mut value: Vec<Option<Value>> = vec![None; n];
    for &root in starts {
        if root as usize >= n {
            return Err(CgtError::OutOfRange {
                position: u64::from(root),
                positions: n,
            });
        }
        if colour[root as usize] != WHITE {
            continue;
        }
        colour[root as usize] = GREY;
        let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> =
            vec![(root, children(&options, root), 0)];
        while let Some(top) = stack.last_mut() {
            if let Some(&v) = top.1.get(top.2) {
                top.2 += 1;
                match colour[v as usize] {
                    WHITE => {
                        colour[v as usize] = GREY;
                        stack.push((v, children(&options, v), 0));
                    }
                    GREY => {
                        let at = stack.iter().rposition(|e| e.0 == v).unwrap_or(0);
                        let nodes = stack[at..].iter().map(|e| e.0).collect();
                        return Err(CgtError::Cycle(Cycle { nodes }));
                    }
                    _ => {}
                }
            } else {
                let u = top.0;
                stack.pop();
                colour[u as usize] = BLACK;
                let of = |ps: Vec<NodeId>| -> Vec<Value> {
                    ps.iter()
                        .map(|&p| value[p as usize].expect("children are valued first"))
                        .collect()
                };
                let left = of(options(u, Player::Zero));
                let right = of(options(u, Player::One));
                value[u as usize] = Some(Value::from_options(&left, &right)?);
                super::check_memory(0)?;
            }
        }
    }
    Ok(value)
}

/// Every position one move away, by either player.
fn children(options: &impl Fn(NodeId, Player) -> Vec<NodeId>, p: NodeId) -> Vec<NodeId> {
    let mut c = options(p, Player::Zero);
    c.extend(options(p, Player::One));
    c.sort_unstable();
    c.dedup();
    c
}
