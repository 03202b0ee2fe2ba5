//! Blue-Red(-Green) Hackenbush: Left cuts blue or green edges, Right red or green ones; edges
//! no longer connected to the ground fall; who cannot cut loses (*Winning Ways* ch. 1-2, 7).
//!
//! **Input.** A rooted graph as edges `u-v:c` (`c` = `b` blue, `r` red, `g` green), vertex 0
//! being the ground, e.g. `0-1:b,1-2:r,0-2:g`; or a forest as for Green Hackenbush (a parent
//! list, roots on the ground) with one colour per vertex for the edge below it.
//!
//! **Methods.**
//! * Blue-Red trees (no green): Berlekamp's rule (*Winning Ways* ch. 2; Lessons in Play ch. 5):
//!   the subtrees on a vertex add; an edge of colour blue under a subtree of value `x` is worth
//!   `(x + n) / 2^(n-1)` for the least integer `n >= 1` with `x + n > 1`, a red one the
//!   negative of that for `-x`. Exact at any size ([`BigDyadic`]): O(n) additions.
//! * Anything else of at most [`MAX_SEARCH_EDGES`] edges: the canonical value by search over
//!   the sets of standing edges (a bit set each), memoized. Exponential in the worst case.
//!
//! Checked in the tests: Berlekamp's sign expansion for stalks, the tree rule against the search,
//! and the search against retrograde analysis of the explicit game graph.

use std::collections::HashMap;

use zermelo_cgt::{BigDyadic, CgtError, Value};

/// Largest number of edges the search handles (positions are 64-bit sets).
pub const MAX_SEARCH_EDGES: usize = 64;

/// Largest number of edges accepted at all.
pub const MAX_EDGES: usize = 1 << 24;

/// An edge's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Left's (`b`).
    Blue,
    /// Right's (`r`).
    Red,
    /// Either player's (`g`).
    Green,
}

impl Colour {
    fn parse(c: char) -> Option<Colour> {
        match c {
            'b' | 'B' | 'L' => Some(Colour::Blue),
            'r' | 'R' => Some(Colour::Red),
            'g' | 'G' => Some(Colour::Green),
            _ => None,
        }
    }

    fn swapped(self) -> Colour {
        match self {
            Colour::Blue => Colour::Red,
            Colour::Red => Colour::Blue,
            Colour::Green => Colour::Green,
        }
    }

    fn cuttable_by(self, left: bool) -> bool {
        match self {
            Colour::Blue => left,
            Colour::Red => !left,
            Colour::Green => true,
        }
    }
}

/// Why a picture could not be read or valued.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PictureError {
    /// A token that is not `u-v:c`.
    #[error(
        "edge {index} is {token:?}; expected `u-v:c` with c one of b (blue), r (red), g (green)"
    )]
    BadEdge {
        /// 1-based position in the list.
        index: usize,
        /// The text found.
        token: String,
    },
    /// A colour list entry that is not a colour.
    #[error("colour {index} is {found:?}; expected b, r or g (or - for a root)")]
    BadColour {
        /// 1-based position in the list.
        index: usize,
        /// The character found.
        found: char,
    },
    /// Colours and vertices do not match.
    #[error("{colours} colours for {vertices} vertices: give one per vertex")]
    ColourCount {
        /// Colours given.
        colours: usize,
        /// Vertices.
        vertices: usize,
    },
    /// No edges.
    #[error("no edges: give edges `u-v:c`, vertex 0 being the ground")]
    Empty,
    /// Too many edges for the method.
    #[error("{edges} edges is more than the {limit} that {method} supports")]
    TooLarge {
        /// Edges given.
        edges: usize,
        /// The limit.
        limit: usize,
        /// Which method.
        method: &'static str,
    },
    /// A value outgrew the number type.
    #[error(transparent)]
    Value(#[from] CgtError),
}

/// A Hackenbush picture: edges between vertices, vertex 0 the ground.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    vertices: usize,
    edges: Vec<(u32, u32, Colour)>,
    /// For a tree given as a parent list: the parent of each vertex (`None` for a root on the
    /// ground), the colour of the edge below it, and a top-down order.
    tree: Option<Tree>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Tree {
    parent: Vec<Option<u32>>,
    colour: Vec<Colour>,
    order: Vec<u32>,
}

impl Picture {
    /// Parses `0-1:b,1-2:r` (commas and/or whitespace between edges).
    ///
    /// # Errors
    /// [`PictureError`] naming the edge.
    pub fn parse_edges(text: &str) -> Result<Picture, PictureError> {
        let mut edges = Vec::new();
        for (i, token) in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .enumerate()
        {
            let bad = || PictureError::BadEdge {
                index: i + 1,
                token: token.to_string(),
            };
            let (ends, colour) = token.split_once(':').ok_or_else(bad)?;
            let (u, v) = ends.split_once('-').ok_or_else(bad)?;
            let (u, v): (u32, u32) = (u.parse().map_err(|_| bad())?, v.parse().map_err(|_| bad())?);
            let mut cs = colour.chars();
            let colour = match (cs.next().and_then(Colour::parse), cs.next()) {
                (Some(c), None) => c,
                _ => return Err(bad()),
            };
            if edges.len() >= MAX_EDGES {
                return Err(PictureError::TooLarge {
                    edges: edges.len() + 1,
                    limit: MAX_EDGES,
                    method: "the parser",
                });
            }
            edges.push((u, v, colour));
        }
        if edges.is_empty() {
            return Err(PictureError::Empty);
        }
        // Vertex numbers are names: renumber them densely in their order (0, the ground, stays
        // 0), so that `0-1000000000:b` is one edge and not a billion vertices.
        let mut names: Vec<u32> = edges.iter().flat_map(|&(u, v, _)| [u, v]).collect();
        names.push(0);
        names.sort_unstable();
        names.dedup();
        let dense = |x: u32| names.binary_search(&x).expect("every end was named") as u32;
        for e in &mut edges {
            (e.0, e.1) = (dense(e.0), dense(e.1));
        }
        Ok(Picture {
            vertices: names.len(),
            edges,
            tree: None,
        })
    }

    /// A forest from a validated parent list ([`super::hackenbush::Forest`]) and one colour per
    /// vertex (`b`, `r`, `g`; `-` or anything for a root, whose entry is not an edge).
    ///
    /// # Errors
    /// [`PictureError::ColourCount`], [`PictureError::BadColour`], [`PictureError::Empty`].
    pub fn from_forest(
        forest: &super::hackenbush::Forest,
        colours: &str,
    ) -> Result<Picture, PictureError> {
        let cs: Vec<char> = colours
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .collect();
        let n = forest.vertex_count();
        if cs.len() != n {
            return Err(PictureError::ColourCount {
                colours: cs.len(),
                vertices: n,
            });
        }
        let mut parent = Vec::with_capacity(n);
        let mut colour = Vec::with_capacity(n);
        let mut edges = Vec::new();
        for (v, &ch) in cs.iter().enumerate() {
            let p = forest.parent(v);
            parent.push(p.map(|p| p as u32));
            let c = match p {
                None => Colour::Green, // no edge below a root
                Some(_) => Colour::parse(ch).ok_or(PictureError::BadColour {
                    index: v + 1,
                    found: ch,
                })?,
            };
            colour.push(c);
            if let Some(p) = p {
                // Vertex 0 of the picture is the ground; forest vertex v is picture vertex v + 1.
                edges.push((p as u32 + 1, v as u32 + 1, c));
            }
        }
        if edges.is_empty() {
            return Err(PictureError::Empty);
        }
        // Roots are the ground: picture vertex r + 1 for a root r is merged into vertex 0.
        let root_of = |x: u32| -> u32 {
            if x >= 1 && parent[(x - 1) as usize].is_none() {
                0
            } else {
                x
            }
        };
        let edges = edges
            .into_iter()
            .map(|(a, b, c)| (root_of(a), root_of(b), c))
            .collect();
        let order = top_down(&parent);
        Ok(Picture {
            vertices: n + 1,
            edges,
            tree: Some(Tree {
                parent,
                colour,
                order,
            }),
        })
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// True when no edge is green.
    pub fn is_blue_red(&self) -> bool {
        self.edges.iter().all(|e| e.2 != Colour::Green)
    }

    /// The picture with blue and red swapped (the negative game).
    pub fn swapped(&self) -> Picture {
        let mut p = self.clone();
        for e in &mut p.edges {
            e.2 = e.2.swapped();
        }
        if let Some(t) = &mut p.tree {
            for c in &mut t.colour {
                *c = c.swapped();
            }
        }
        p
    }

    /// The value: Berlekamp's rule for Blue-Red trees, else the search.
    ///
    /// # Errors
    /// [`PictureError::TooLarge`] past [`MAX_SEARCH_EDGES`] when the search is needed;
    /// [`PictureError::Value`] when a number outgrows [`zermelo_cgt::Dyadic`].
    pub fn value(&self) -> Result<Value, PictureError> {
        match self.tree_number() {
            Some(x) => Ok(Value::number(
                x.to_dyadic().ok_or(CgtError::NumberTooLarge)?,
            )),
            None => self.search_value(),
        }
    }

    /// For a Blue-Red tree, its value by Berlekamp's rule, exact at any size (O(n) additions of
    /// numbers whose size grows with the tree); `None` for other pictures.
    pub fn tree_number(&self) -> Option<BigDyadic> {
        if !self.is_blue_red() {
            return None;
        }
        match &self.tree {
            Some(t) => Some(tree_value(t)),
            None => self.edge_tree().map(|t| tree_value(&t)),
        }
    }

    /// The picture as a tree rooted at the ground, when its edges form one (every edge
    /// standing on the ground, no cycle, no loop, no two edges between the same vertices).
    fn edge_tree(&self) -> Option<Tree> {
        let n = self.vertices;
        let mut around: Vec<Vec<(u32, Colour)>> = vec![Vec::new(); n];
        for &(u, v, c) in &self.edges {
            if u == v {
                return None;
            }
            around[u as usize].push((v, c));
            around[v as usize].push((u, c));
        }
        let mut parent: Vec<Option<u32>> = vec![None; n];
        let mut colour = vec![Colour::Green; n];
        let mut seen = vec![false; n];
        seen[0] = true;
        let mut order = vec![0u32];
        let mut head = 0;
        while head < order.len() {
            let u = order[head];
            head += 1;
            for &(w, c) in &around[u as usize] {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    parent[w as usize] = Some(u);
                    colour[w as usize] = c;
                    order.push(w);
                }
            }
        }
        // A tree on the vertices reached: one edge fewer than them, and every edge reached.
        let grounded = self.edges.iter().all(|&(u, _, _)| seen[u as usize]);
        (grounded && self.edges.len() + 1 == order.len()).then(|| Tree {
            order: top_down(&parent),
            parent,
            colour,
        })
    }

    /// The vertex count (vertex 0 the ground) and the edges.
    pub(crate) fn parts(&self) -> (usize, &[(u32, u32, Colour)]) {
        (self.vertices, &self.edges)
    }

    /// A picture of `vertices` vertices (0 the ground) and these edges.
    pub(crate) fn from_parts(vertices: usize, edges: Vec<(u32, u32, Colour)>) -> Picture {
        Picture {
            vertices,
            edges,
            tree: None,
        }
    }

    /// The value by search over sets of standing edges.
    ///
    /// # Errors
    /// As [`Picture::value`].
    pub fn search_value(&self) -> Result<Value, PictureError> {
        if self.edges.len() > MAX_SEARCH_EDGES {
            return Err(PictureError::TooLarge {
                edges: self.edges.len(),
                limit: MAX_SEARCH_EDGES,
                method: "the search (graphs, or trees with green edges)",
            });
        }
        let mut s = Search {
            picture: self,
            memo: HashMap::new(),
        };
        Ok(s.value(self.all())?)
    }

    fn all(&self) -> u64 {
        if self.edges.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.edges.len()) - 1
        }
    }

    /// The edges still connected to the ground among `standing`.
    pub fn grounded(&self, standing: u64) -> u64 {
        let mut reached = vec![false; self.vertices];
        reached[0] = true;
        let mut kept = 0u64;
        loop {
            let mut grew = false;
            for (i, &(u, v, _)) in self.edges.iter().enumerate() {
                if standing >> i & 1 == 1
                    && kept >> i & 1 == 0
                    && (reached[u as usize] || reached[v as usize])
                {
                    kept |= 1 << i;
                    reached[u as usize] = true;
                    reached[v as usize] = true;
                    grew = true;
                }
            }
            if !grew {
                return kept;
            }
        }
    }

    /// The positions after each cut of `left` (true) or Right, from the standing set.
    pub fn moves(&self, standing: u64, left: bool) -> Vec<u64> {
        let mut out: Vec<u64> = (0..self.edges.len())
            .filter(|&i| standing >> i & 1 == 1 && self.edges[i].2.cuttable_by(left))
            .map(|i| self.grounded(standing & !(1 << i)))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The starting position (every grounded edge).
    pub fn start(&self) -> u64 {
        self.grounded(self.all())
    }
}

struct Search<'a> {
    picture: &'a Picture,
    memo: HashMap<u64, Value>,
}

impl Search<'_> {
    fn value(&mut self, standing: u64) -> Result<Value, CgtError> {
        let standing = self.picture.grounded(standing);
        if let Some(&v) = self.memo.get(&standing) {
            return Ok(v);
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (side, left) in [(0, true), (1, false)] {
            for m in self.picture.moves(standing, left) {
                sides[side].push(self.value(m)?);
            }
        }
        let v = Value::from_options(&sides[0], &sides[1])?;
        self.memo.insert(standing, v);
        zermelo_cgt::check_memory(zermelo_cgt::memo_bytes(&self.memo))?;
        Ok(v)
    }
}

/// Parents before children.
fn top_down(parent: &[Option<u32>]) -> Vec<u32> {
    let n = parent.len();
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[*p as usize].push(v as u32);
        }
    }
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&v| parent[v as usize].is_none())
        .collect();
    let mut head = 0;
    while head < order.len() {
        let v = order[head] as usize;
        head += 1;
        order.extend_from_slice(&children[v]);
    }
    order
}

/// Berlekamp's rule, bottom-up over a Blue-Red forest, in exact arithmetic of any size.
fn tree_value(t: &Tree) -> BigDyadic {
    let n = t.parent.len();
    let mut above = vec![BigDyadic::zero(); n]; // sum of the subtrees standing on each vertex
    let mut total = BigDyadic::zero();
    for &v in t.order.iter().rev() {
        let v = v as usize;
        let x = std::mem::take(&mut above[v]);
        match t.parent[v] {
            Some(p) => {
                let e = edge_under(t.colour[v] == Colour::Blue, &x);
                above[p as usize] = above[p as usize].add(&e);
            }
            None => total = total.add(&x),
        }
    }
    total
}

/// The value of a blue (`blue`) or red edge carrying a subtree worth `x`: for blue,
/// `(x + n) / 2^(n-1)` with the least integer `n >= 1` such that `x + n > 1`.
pub fn edge_under(blue: bool, x: &BigDyadic) -> BigDyadic {
    if !blue {
        return edge_under(true, &x.negated()).negated();
    }
    // n > 1 - x; |x| is at most the number of edges, so the floor fits.
    let one_minus = BigDyadic::integer(1).add(&x.negated());
    let n = one_minus.floor().map_or(1, |f| f + 1).max(1);
    x.add(&BigDyadic::integer(n)).halved(n as u64 - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_pictures() {
        let v = |t: &str| {
            Picture::parse_edges(t)
                .unwrap()
                .value()
                .unwrap()
                .to_string()
        };
        assert_eq!(v("0-1:b"), "1");
        assert_eq!(v("0-1:r"), "-1");
        assert_eq!(v("0-1:g"), "*");
        assert_eq!(v("0-1:b,1-2:r"), "1/2"); // Winning Ways ch. 1: a blue-red stalk is 1/2
        assert_eq!(v("0-1:r,1-2:b"), "-1/2");
        assert_eq!(v("0-1:b,0-1:r"), "0"); // two edges side by side: 1 - 1
        assert_eq!(v("0-1:g,1-2:g"), "*2");
        // A blue edge with a green one on top: {0, * | } ... Left cuts blue -> 0 or green -> 1;
        // Right cuts green -> 1. So {0, 1 | 1} = {1|1} = 1*.
        assert_eq!(v("0-1:b,1-2:g"), "1*");
        assert!(Picture::parse_edges("0-1:q").is_err());
        assert!(Picture::parse_edges("").is_err());
        assert!(Picture::parse_edges("0-1").is_err());
        // Found by the fuzzer: vertex numbers are names, a large one is not that many vertices.
        assert_eq!(v("0-0001000000000:b"), "1");
        assert_eq!(v("0-4294967295:b,4294967295-7:r"), "1/2");
        assert_eq!(Picture::parse_edges("5-9:b").unwrap().parts().0, 3);
    }
}
