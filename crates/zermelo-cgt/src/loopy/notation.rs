//! CGSuite's loopy notation: stoppers printed in their simplest form, and loopy expressions
//! read.
//!
//! Printed (print.rs): a follower with no cycle below it as its short value (`1/2`, `^*`,
//! `{1|*}`); `on` (`{pass|}`), `off` (`{|pass}`), `over` (`{0|pass}`), `under` (`{pass|0}`),
//! `xover` (`{x|pass}`) and `xunder` (`{pass|x}`) for a number `x`; switches `+-over`,
//! `+-(5over)`; `Tiny(on)` (`{0||0|off}`) and `Miny(on)`, translated by a number; upon's and
//! uponth's families as CGSuite prints them (upon.rs: `upon = {pass|*}` is `^[on]`,
//! `{0||0|0,pass}` is `^<on>`, `{-1/4*|pass}` is `-1/4v[on]`); anything else as `{L|R}` with
//! CGSuite's slashes (`{on||0|-1/2}` is `{on|{0|-1/2}}`), where `pass` is the game at its own
//! bars and a node met again below itself is named: `a:{0||a|*}`.
//!
//! `pass` binds as in CGSuite, to the nearest bars, not to the braces: `{0||0|0,pass}` is
//! `{0||a}` with `a = {0|0,a}` (each run of bars splits one game; CGSuite's grammar,
//! `slashExpression` in `Cgsuite.g`, and `LoopyGameSpecNode`, which gives each such game its
//! own `pass`).
//!
//! Read: all of the short notation, plus those names, `upon` (`{pass|*}`), `dud`
//! (`{pass|pass}`), `pass` (an option by itself), `name:{...}` (or `name{...}`, as CGSuite
//! writes it) and references to it inside, sums and negatives of games with no reference to an
//! enclosing open node, parentheses (`(on + *) + ^`, `+-(5over)`), a value given by its sides
//! `S & T` (two stoppers with `T <= S`; `&` binds tighter than `+` and `-`, as in CGSuite:
//! `on & off + 1` is `(on & off) + 1`; not an option inside braces), and one comparison
//! `G >= H`, `G <= H`, `G == H`, `G > H`, `G < H` of games whose sides are found (stoppers,
//! `S & T`, small games whose sides are stoppers).

use std::collections::HashMap;

use super::stopper::node_value;
use super::upon::{UponForm, UPON_WORDS};
use super::{LoopyGraph, Sides, Stopper};
use crate::error::CgtError;
use crate::notation::ParseValueError;
use crate::{Dyadic, Value};

/// A loopy expression read: a game (a node of a graph), a value given by its sides, or a
/// comparison.
#[derive(Clone, Debug)]
pub enum LoopyExpr {
    /// A game: node `node` of `graph`.
    Game {
        /// The graph built from the text.
        graph: LoopyGraph,
        /// The game's node.
        node: u32,
    },
    /// A value written with its sides `S & T`, or a sum or negative with such a part: its
    /// onside and offside, each in simplest form.
    Sides(Sides),
    /// `left op right` and whether it holds (by the sides: `G <= H` iff `S_G <= S_H` and
    /// `T_G <= T_H`).
    Relation {
        /// The left side of the comparison (a stopper prints as itself).
        left: Sides,
        /// `>=`, `<=`, `==`, `>` or `<`.
        op: &'static str,
        /// The right side.
        right: Sides,
        /// Whether the relation holds.
        holds: bool,
    },
}

/// The most positions of a game that is not a stopper whose sides a comparison or a sum with
/// `S & T` looks for (each cut of a move is a comparison over pairs of positions).
pub const MAX_NOTATION_SIDES_POSITIONS: usize = 256;

/// Reads a loopy expression (module docs).
///
/// # Errors
/// [`ParseValueError`] with the column: malformed text, an unknown name, `pass` outside braces,
/// a sum or negative of a game with a reference to an enclosing open node, `S & T` with a side
/// that is not a stopper or with `T <= S` false, `S & T` as an option, a comparison (or a sum
/// with `S & T`) of a game whose sides are not found, or a short part past the work limit.
pub fn parse_loopy(text: &str) -> Result<LoopyExpr, ParseValueError> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
        g: LoopyGraph::new(),
        open: Vec::new(),
        scope: Vec::new(),
        depth: 0,
        starts: Vec::new(),
    };
    p.skip_space();
    let a = p.sum()?;
    let op = p.relation();
    let result = match (op, a) {
        (None, Term::Node(node)) => LoopyExpr::Game {
            node,
            graph: std::mem::take(&mut p.g),
        },
        (None, Term::Sided(s, _)) => LoopyExpr::Sides(s),
        (Some(op), a) => {
            p.skip_space();
            let b = p.sum()?;
            let (left, right) = (p.sides(a)?, p.sides(b)?);
            let le = |x: &Sides, y: &Sides| x.leq(y).map_err(|e| p.error_at(0, e.to_string()));
            let (ab, ba) = (le(&left, &right)?, le(&right, &left)?);
            let holds = match op {
                ">=" => ba,
                "<=" => ab,
                "==" => ab && ba,
                ">" => ba && !ab,
                _ => ab && !ba,
            };
            LoopyExpr::Relation {
                left,
                op,
                right,
                holds,
            }
        }
    };
    p.skip_space();
    match p.chars.get(p.pos) {
        Some(')') => Err(p.error("this `)` closes no `(`".into())),
        Some(c) => Err(p.error(format!("unexpected {c:?} after a complete value"))),
        None => Ok(result),
    }
}

/// Does the text use loopy notation (names, `pass`, `:`, `&` or a comparison), rather than only
/// the short notation?
pub fn is_loopy_text(text: &str) -> bool {
    text.chars()
        .any(|c| (c.is_ascii_alphabetic() && c != 'v') || ":<>=&".contains(c))
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    g: LoopyGraph,
    /// Braces being read (innermost last): `pass` is the last.
    open: Vec<u32>,
    /// Names in scope, innermost last.
    scope: Vec<(String, u32)>,
    depth: usize,
    /// Where each atom's text began (its node, the position), for errors about sides.
    starts: Vec<(u32, usize)>,
}

/// An element of a braces list: a game, `pass` (the game at the nearest bars), or a run of `k`
/// bars (with its position).
enum Item {
    Game(u32),
    Pass,
    Bars(usize, usize),
}

/// A part of an expression: a node of the graph, or a value given by its sides (with the
/// column where it starts).
enum Term {
    Node(u32),
    Sided(Sides, usize),
}

/// Largest sum built while reading (positions of the product).
const MAX_SUM_NODES: usize = 1 << 16;

impl Parser {
    fn error_at(&self, pos: usize, message: String) -> ParseValueError {
        ParseValueError {
            column: pos + 1,
            message,
        }
    }

    fn error(&self, message: String) -> ParseValueError {
        self.error_at(self.pos, message)
    }

    fn skip_space(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.chars.get(self.pos).copied()
    }

    fn looking_at(&mut self, s: &str) -> bool {
        self.skip_space();
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    fn relation(&mut self) -> Option<&'static str> {
        for op in [">=", "<=", "==", ">", "<"] {
            if self.looking_at(op) {
                self.pos += op.len();
                return Some(op);
            }
        }
        None
    }

    /// `switch (('+' | '-') switch)*`.
    fn sum(&mut self) -> Result<Term, ParseValueError> {
        let mut v = self.switch()?;
        loop {
            if self.looking_at("+-") {
                return Err(self.error("`+-` here: write `x+-y` with a number x".into()));
            }
            match self.peek() {
                Some('+') => {
                    let at = self.pos;
                    self.pos += 1;
                    let t = self.switch()?;
                    v = self.add_terms(v, t, at)?;
                }
                Some('-') => {
                    let at = self.pos;
                    self.pos += 1;
                    let t = self.switch()?;
                    let t = self.negate_term(t, at)?;
                    v = self.add_terms(v, t, at)?;
                }
                _ => return Ok(v),
            }
        }
    }

    /// A switch `x+-y` or `+-y` (its parts become options, so neither may be `S & T`), or a
    /// unary term.
    fn switch(&mut self) -> Result<Term, ParseValueError> {
        if self.looking_at("+-") {
            let at = self.pos;
            self.pos += 2;
            let g = self.unary_node()?;
            let n = self.negate(g, at)?;
            return Ok(Term::Node(self.braces_node(&[g], &[n])));
        }
        let x = self.unary()?;
        if self.looking_at("+-") {
            let x = self.node(x)?;
            let at = self.pos;
            self.pos += 2;
            let y = self.unary_node()?;
            let minus = self.negate(y, at)?;
            let (l, r) = (self.add(x, y, at)?, self.add(x, minus, at)?);
            return Ok(Term::Node(self.braces_node(&[l], &[r])));
        }
        Ok(x)
    }

    fn unary_node(&mut self) -> Result<u32, ParseValueError> {
        let t = self.unary()?;
        self.node(t)
    }

    /// The node of a term that must be a game: `S & T` is refused where it would be an option.
    fn node(&self, t: Term) -> Result<u32, ParseValueError> {
        match t {
            Term::Node(n) => Ok(n),
            Term::Sided(_, at) => Err(self.error_at(
                at,
                "`S & T` gives a value by its sides, not a game: it cannot be an option (in \
                 braces or a switch `+-`)"
                    .into(),
            )),
        }
    }

    /// The sides of a term: a game's found from its graph (a stopper's simplest form twice).
    fn sides(&self, t: Term) -> Result<Sides, ParseValueError> {
        let (v, at) = match t {
            Term::Sided(s, _) => return Ok(s),
            Term::Node(v) => (v, self.start_of(v)),
        };
        self.closed(v, at)?;
        let g = self.g.restricted(v);
        if !g.is_stopper(0) && g.node_count() > MAX_NOTATION_SIDES_POSITIONS {
            return Err(self.error_at(
                at,
                format!(
                    "a game of {} positions that is not a stopper: its sides are looked for \
                     up to {MAX_NOTATION_SIDES_POSITIONS} positions",
                    g.node_count()
                ),
            ));
        }
        Sides::new(&g, 0).map_err(|e| self.error_at(at, e.to_string()))
    }

    /// Where the text of a node began (the start of the expression when unknown).
    fn start_of(&self, v: u32) -> usize {
        self.starts
            .iter()
            .rev()
            .find(|&&(n, _)| n == v)
            .map_or(0, |&(_, at)| at)
    }

    fn negate_term(&mut self, t: Term, at: usize) -> Result<Term, ParseValueError> {
        match t {
            Term::Node(v) => {
                let n = self.negate(v, at)?;
                self.starts.push((n, at));
                Ok(Term::Node(n))
            }
            Term::Sided(s, start) => Ok(Term::Sided(s.negated(), start)),
        }
    }

    /// `a + b`: in the graph for two games, by the sides (upsum of the onsides, downsum of the
    /// offsides) when one is `S & T`.
    fn add_terms(&mut self, a: Term, b: Term, at: usize) -> Result<Term, ParseValueError> {
        match (a, b) {
            (Term::Node(x), Term::Node(y)) => {
                let start = self.start_of(x);
                let n = self.add(x, y, at)?;
                self.starts.push((n, start));
                Ok(Term::Node(n))
            }
            (a, b) => {
                let start = match &a {
                    Term::Sided(_, s) => *s,
                    Term::Node(v) => self.start_of(*v),
                };
                let (x, y) = (self.sides(a)?, self.sides(b)?);
                let sum = x.add(&y).map_err(|e| self.error_at(at, e.to_string()))?;
                Ok(Term::Sided(sum, start))
            }
        }
    }

    fn braces_node(&mut self, left: &[u32], right: &[u32]) -> u32 {
        let n = self.g.add_node();
        for &l in left {
            self.g.add_left(n, l);
        }
        for &r in right {
            self.g.add_right(n, r);
        }
        n
    }

    fn unary(&mut self) -> Result<Term, ParseValueError> {
        let mut negate = false;
        self.skip_space();
        let at = self.pos;
        while self.peek() == Some('-')
            && !self
                .chars
                .get(self.pos + 1)
                .is_some_and(|c| c.is_ascii_digit())
        {
            self.pos += 1;
            negate = !negate;
        }
        let v = self.sidle()?;
        if negate {
            self.negate_term(v, at)
        } else {
            Ok(v)
        }
    }

    /// `operand ('&' operand)?`: a value by its sides, each a stopper, the offside at most the
    /// onside.
    fn sidle(&mut self) -> Result<Term, ParseValueError> {
        self.skip_space();
        let start = self.pos;
        let on = self.operand()?;
        if self.peek() != Some('&') {
            return Ok(on);
        }
        let amp = self.pos;
        let side_of_sides = |p: &Parser, at: usize| {
            p.error_at(
                at,
                "a side of `S & T` is a stopper, not a value given by its sides".into(),
            )
        };
        let Term::Node(on) = on else {
            return Err(side_of_sides(self, start));
        };
        self.pos += 1;
        self.skip_space();
        let off_at = self.pos;
        let Term::Node(off) = self.operand()? else {
            return Err(side_of_sides(self, off_at));
        };
        self.closed(on, start)?;
        self.closed(off, off_at)?;
        let side = |p: &Parser, v: u32, at: usize, which: &str| {
            Stopper::new(&p.g, v).map_err(|e| match e {
                CgtError::NotStopper(_) => p.error_at(
                    at,
                    format!(
                        "the {which} of `S & T` must be a stopper (no infinite alternating play)"
                    ),
                ),
                e => p.error_at(at, e.to_string()),
            })
        };
        let (s, t) = (
            side(self, on, start, "onside")?,
            side(self, off, off_at, "offside")?,
        );
        let sides = Sides::from_sides(s, t).map_err(|e| self.error_at(amp, e.to_string()))?;
        Ok(Term::Sided(sides, start))
    }

    /// `( sum )`, or an atom.
    fn operand(&mut self) -> Result<Term, ParseValueError> {
        if self.peek() != Some('(') {
            return Ok(Term::Node(self.atom()?));
        }
        let open = self.pos;
        self.depth += 1;
        if self.depth > 200 {
            return Err(self.error("braces and parentheses nested deeper than 200".into()));
        }
        self.pos += 1;
        let t = self.sum()?;
        if self.peek() != Some(')') {
            let found = match self.chars.get(self.pos) {
                Some(c) => format!("{c:?} at column {}", self.pos + 1),
                None => "the end".into(),
            };
            return Err(self.error_at(
                open,
                format!("this `(` is not closed: expected `)`, found {found}"),
            ));
        }
        self.pos += 1;
        self.depth -= 1;
        if let Term::Node(v) = t {
            self.starts.push((v, open));
        }
        Ok(t)
    }

    /// At `pass` standing alone as an option, followed by `,`, `|` or `}` (then read).
    fn pass_option(&mut self) -> bool {
        if !self.looking_at("pass") {
            return false;
        }
        let mut end = self.pos + "pass".len();
        if self
            .chars
            .get(end)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            return false;
        }
        while self.chars.get(end).is_some_and(|c| c.is_whitespace()) {
            end += 1;
        }
        let alone = self.chars.get(end).is_some_and(|c| ",|}".contains(*c));
        if alone {
            self.pos = end;
        }
        alone
    }

    /// A game that sums and negatives may use: nothing below it still being read.
    fn closed(&self, v: u32, at: usize) -> Result<(), ParseValueError> {
        let reach = self.g.reachable(&[v]);
        if reach.iter().any(|w| self.open.contains(w)) {
            return Err(self.error_at(
                at,
                "a sum or negative of a game that refers to an enclosing node (a cycle still \
                 being read): name the whole game instead"
                    .into(),
            ));
        }
        Ok(())
    }

    fn negate(&mut self, v: u32, at: usize) -> Result<u32, ParseValueError> {
        self.closed(v, at)?;
        let part = self.g.restricted(v).negated();
        Ok(self.graft(&part))
    }

    fn add(&mut self, a: u32, b: u32, at: usize) -> Result<u32, ParseValueError> {
        self.closed(a, at)?;
        self.closed(b, at)?;
        // Two short games add as short games (the notation's own sums, with its work limit).
        let mut memo = HashMap::new();
        if let (Some(x), Some(y)) = (
            node_value(&self.g, a, &mut memo),
            node_value(&self.g, b, &mut memo),
        ) {
            let big = |e: CgtError| ParseValueError {
                column: at + 1,
                message: e.to_string(),
            };
            let sum = crate::value::with_work_limit(crate::NOTATION_WORK, || x.checked_add(y))
                .map_err(big)?;
            return self.g.add_value(sum).map_err(big);
        }
        let sum = self
            .g
            .sum(&[a, b], MAX_SUM_NODES)
            .map_err(|e| self.error_at(at, e.to_string()))?;
        // A stopper is kept in its simplest form, so later sums stay small.
        let part = match Stopper::new(&sum, 0) {
            Ok(s) => s.graph().clone(),
            Err(CgtError::NotStopper(_)) => sum,
            Err(e) => return Err(self.error_at(at, e.to_string())),
        };
        Ok(self.graft(&part))
    }

    /// Copies a graph in; its node 0 becomes the returned node.
    fn graft(&mut self, part: &LoopyGraph) -> u32 {
        let shift = self.g.node_count() as u32;
        self.g = self.g.union(part);
        shift
    }

    fn atom(&mut self) -> Result<u32, ParseValueError> {
        self.skip_space();
        let at = self.pos;
        let v = self.atom_at()?;
        self.starts.push((v, at));
        Ok(v)
    }

    fn atom_at(&mut self) -> Result<u32, ParseValueError> {
        match self.peek() {
            Some('{') => self.braces(None),
            Some(c) if c.is_ascii_alphabetic() && c != 'v' => self.word(),
            Some(c) if c.is_ascii_digit() || "-^v*".contains(c) => self.nus(),
            Some(')') => Err(self.error("expected a value, found `)`".into())),
            Some(c) => Err(self.error(format!(
                "expected a value (a number, *, ^, v, on, off, over, under, upon, dud, pass, a \
                 name or {{...}}), found {c:?}"
            ))),
            None => Err(self.error("expected a value, found the end".into())),
        }
    }

    fn word(&mut self) -> Result<u32, ParseValueError> {
        let at = self.pos;
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            self.pos += 1;
        }
        let word: String = self.chars[at..self.pos].iter().collect();
        // `a:{...}`, or `a{...}` as CGSuite writes a named node.
        let colon = self.peek() == Some(':');
        if colon || self.peek() == Some('{') {
            if colon {
                self.pos += 1;
                if self.peek() != Some('{') {
                    return Err(self.error(format!("expected `{{` after `{word}:`")));
                }
            }
            if is_keyword(&word) {
                return Err(self.error_at(at, format!("`{word}` is a named value, not a name")));
            }
            return self.braces(Some(word));
        }
        // `{a|b}` with `None` for `pass`, the options 0 or *.
        let loopy = |p: &mut Parser, left: Option<Small>, right: Option<Small>| -> u32 {
            let n = p.g.add_node();
            let l = left.map_or(n, |s| s.node(&mut p.g));
            let r = right.map_or(n, |s| s.node(&mut p.g));
            p.g.add_left(n, l);
            p.g.add_right(n, r);
            n
        };
        Ok(match word.as_str() {
            "on" => {
                let n = self.g.add_node();
                self.g.add_left(n, n);
                n
            }
            "off" => {
                let n = self.g.add_node();
                self.g.add_right(n, n);
                n
            }
            "over" => loopy(self, Some(Small::Zero), None),
            "under" => loopy(self, None, Some(Small::Zero)),
            "upon" => loopy(self, None, Some(Small::Star)),
            "dud" => loopy(self, None, None),
            "Tiny" | "Miny" if self.peek() == Some('(') => return self.tiny(word == "Tiny", at),
            "pass" => {
                return Err(self.error_at(
                    at,
                    "`pass` is an option by itself (`{0|pass}`): a move to the game at the \
                     nearest bars, not a game to add, negate or use outside braces"
                        .into(),
                ))
            }
            _ => match self.scope.iter().rev().find(|(n, _)| *n == word) {
                Some(&(_, node)) => node,
                None => {
                    return Err(self.error_at(
                        at,
                        format!(
                            "unknown name `{word}`: name a node as `{word}:{{...}}` and refer to \
                             it inside"
                        ),
                    ))
                }
            },
        })
    }

    /// A short value `[number][ups][star]`, then `over` or `under` added if written right
    /// after it (`3/2under`).
    fn nus(&mut self) -> Result<u32, ParseValueError> {
        let at = self.pos;
        if self.chars.get(self.pos) == Some(&'-') {
            self.pos += 1;
        }
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_digit() || *c == '/')
        {
            self.pos += 1;
        }
        if let Some(node) = self.upon_family(at)? {
            return Ok(node);
        }
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_digit() || "/^v*".contains(*c))
        {
            self.pos += 1;
        }
        let text: String = self.chars[at..self.pos].iter().collect();
        let v = Value::parse_with_work_limit(&text, Some(crate::NOTATION_WORK)).map_err(|e| {
            ParseValueError {
                column: at + e.column,
                message: e.message,
            }
        })?;
        let node = self
            .g
            .add_value(v)
            .map_err(|e| self.error_at(at, e.to_string()))?;
        for (suffix, word) in [("over", "over"), ("under", "under")] {
            let rest: String = self.chars[self.pos..].iter().take(suffix.len()).collect();
            if rest == suffix {
                self.pos += suffix.len();
                let pseudo = match word {
                    "over" => {
                        let n = self.g.add_node();
                        let z = Small::Zero.node(&mut self.g);
                        self.g.add_left(n, z);
                        self.g.add_right(n, n);
                        n
                    }
                    _ => {
                        let n = self.g.add_node();
                        let z = Small::Zero.node(&mut self.g);
                        self.g.add_left(n, n);
                        self.g.add_right(n, z);
                        n
                    }
                };
                return self.add(node, pseudo, at);
            }
        }
        // `xTiny(G)`, `xMiny(G)`: translated by the number.
        for (word, tiny) in [("Tiny(", true), ("Miny(", false)] {
            let rest: String = self.chars[self.pos..].iter().take(word.len()).collect();
            if rest == word {
                self.pos += word.len() - 1;
                let t = self.tiny(tiny, at)?;
                return self.add(node, t, at);
            }
        }
        Ok(node)
    }

    /// `Tiny(G) = {0||0|-G}` or `Miny(G) = {G|0||0}`, the word read (from `at`).
    fn tiny(&mut self, tiny: bool, at: usize) -> Result<u32, ParseValueError> {
        let t = self.operand()?;
        let g = self.node(t)?;
        let zero = Small::Zero.node(&mut self.g);
        if tiny {
            let minus = self.negate(g, at)?;
            let r = self.braces_node(&[zero], &[minus]);
            Ok(self.braces_node(&[zero], &[r]))
        } else {
            let l = self.braces_node(&[g], &[zero]);
            Ok(self.braces_node(&[l], &[zero]))
        }
    }

    /// `x^[on]*m`, `x^<on>*m` or their `v` negatives (upon.rs), the number `x` (from `at`)
    /// already passed; `None` when the text goes on otherwise.
    fn upon_family(&mut self, at: usize) -> Result<Option<u32>, ParseValueError> {
        let Some(&(word, kind, down)) = UPON_WORDS.iter().find(|(w, ..)| {
            w.chars()
                .enumerate()
                .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
        }) else {
            return Ok(None);
        };
        let number = if self.pos == at {
            Dyadic::ZERO
        } else {
            let text: String = self.chars[at..self.pos].iter().collect();
            let v = Value::parse_with_work_limit(&text, Some(crate::NOTATION_WORK))
                .map_err(|e| self.error_at(at + e.column - 1, e.message))?;
            v.as_number()
                .ok_or_else(|| self.error_at(at, format!("expected a number, found {text:?}")))?
        };
        self.pos += word.len();
        let mut nimber = 0;
        if self.chars.get(self.pos) == Some(&'*') {
            self.pos += 1;
            let digits = self.pos;
            while self.chars.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
            let text: String = self.chars[digits..self.pos].iter().collect();
            nimber = match text.as_str() {
                "" => 1,
                t => t
                    .parse::<u32>()
                    .ok()
                    .filter(|&m| m <= 63)
                    .ok_or_else(|| self.error_at(digits, "nimbers up to *63".into()))?,
            };
        }
        let form = UponForm {
            kind,
            number,
            nimber,
            down,
        };
        let part = form.graph().map_err(|e| self.error_at(at, e.to_string()))?;
        Ok(Some(self.graft(&part)))
    }

    fn braces(&mut self, name: Option<String>) -> Result<u32, ParseValueError> {
        self.depth += 1;
        if self.depth > 200 {
            return Err(self.error("braces and parentheses nested deeper than 200".into()));
        }
        self.skip_space();
        self.pos += 1; // '{'
        let node = self.g.add_node();
        self.open.push(node);
        if let Some(n) = &name {
            self.scope.push((n.clone(), node));
        }
        let mut items = Vec::new();
        loop {
            match self.peek() {
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                Some('|') => {
                    let at = self.pos;
                    let mut k = 0;
                    while self.chars.get(self.pos) == Some(&'|') {
                        self.pos += 1;
                        k += 1;
                    }
                    items.push(Item::Bars(k, at));
                }
                Some(',') => self.pos += 1,
                None => return Err(self.error("expected `}` to close `{`".into())),
                _ if self.pass_option() => items.push(Item::Pass),
                _ => {
                    let t = self.sum()?;
                    items.push(Item::Game(self.node(t)?));
                }
            }
        }
        self.depth -= 1;
        self.open.pop();
        if name.is_some() {
            self.scope.pop();
        }
        if !items.iter().any(|i| matches!(i, Item::Bars(..))) {
            return Err(self.error("expected `|` between Left's and Right's options".into()));
        }
        self.build(node, &items)?;
        Ok(node)
    }

    /// Fills `node` from a braces list split at its longest run of bars; the parts with bars
    /// of their own become new nodes.
    fn build(&mut self, node: u32, items: &[Item]) -> Result<(), ParseValueError> {
        let k = items
            .iter()
            .filter_map(|i| match i {
                Item::Bars(k, _) => Some(*k),
                Item::Game(_) | Item::Pass => None,
            })
            .max()
            .unwrap_or(0);
        let splits: Vec<usize> = (0..items.len())
            .filter(|&i| matches!(items[i], Item::Bars(j, _) if j == k))
            .collect();
        if splits.len() > 1 {
            let Item::Bars(_, at) = items[splits[1]] else {
                unreachable!("filtered to bars")
            };
            return Err(self.error_at(
                at,
                format!("two runs of {k} bars at the same level: ambiguous"),
            ));
        }
        let (l, r) = (&items[..splits[0]], &items[splits[0] + 1..]);
        for (part, left) in [(l, true), (r, false)] {
            let targets: Vec<u32> = if part.iter().any(|i| matches!(i, Item::Bars(..))) {
                let inner = self.g.add_node();
                self.build(inner, part)?;
                vec![inner]
            } else {
                part.iter()
                    .map(|i| match i {
                        Item::Game(g) => *g,
                        // As in CGSuite: the game at these bars, not the enclosing braces'.
                        Item::Pass => node,
                        Item::Bars(..) => unreachable!("no bars here"),
                    })
                    .collect()
            };
            for t in targets {
                if left {
                    self.g.add_left(node, t);
                } else {
                    self.g.add_right(node, t);
                }
            }
        }
        Ok(())
    }
}

/// The short games the named values use.
#[derive(Clone, Copy)]
enum Small {
    Zero,
    Star,
}

impl Small {
    fn node(self, g: &mut LoopyGraph) -> u32 {
        let zero = g.add_node();
        match self {
            Small::Zero => zero,
            Small::Star => {
                let star = g.add_node();
                g.add_left(star, zero);
                g.add_right(star, zero);
                star
            }
        }
    }
}

fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "on" | "off" | "over" | "under" | "upon" | "dud" | "pass" | "Tiny" | "Miny"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(text: &str) -> String {
        match parse_loopy(text).unwrap() {
            LoopyExpr::Sides(s) => s.to_string(),
            LoopyExpr::Game { graph, node } => Sides::new(&graph, node).unwrap().to_string(),
            LoopyExpr::Relation { holds, .. } => holds.to_string(),
        }
    }

    #[test]
    fn ampersand_is_loopy_text() {
        assert!(is_loopy_text("1 & 0") && !is_loopy_text("{1|0}"));
    }

    /// `&` binds tighter than `+`, `-` and a unary minus; a number's own sign stays with it.
    #[test]
    fn ampersand_precedence() {
        assert_eq!(printed("1 & 0 + 1"), "2 & 1");
        assert_eq!(printed("1 + 1 & 0"), "2 & 1");
        assert_eq!(printed("- {1|} & 0"), "0 & -2");
        assert_eq!(printed("-1 & -2"), "-1 & -2");
        assert_eq!(printed("1&0>=0"), "true");
        assert_eq!(printed("  on &off "), "dud");
    }

    /// A side that is a sum keeps its column in errors about it.
    #[test]
    fn errors_name_the_part() {
        let e = parse_loopy("0 + 0 & 1").unwrap_err();
        assert_eq!(e.column, 7, "{e}");
        // A game in a comparison with sides: compared by its own sides (dud's).
        assert_eq!(printed("on + off >= 1 & 0"), "false");
        assert_eq!(printed("on + off <= on & 0"), "true");
    }
}
