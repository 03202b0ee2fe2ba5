//! Extended HOA (`.ehoa`): the parity automata of SYNTCOMP's synthesis track, as Knor reads them,
//! turned into an explicit parity game.
//!
//! The file is a HOA v1 automaton (<https://adl.github.io/hoaf/>) with one more header,
//! `controllable-AP: i j ...`, naming the atomic propositions the controller sets; the others
//! are the environment's. The game (Knor's naive explicit construction, Mealy semantics): at
//! automaton state `q` the environment (player 1, Odd) picks an input valuation `i`; then the
//! controller (player 0, Even) picks a transition of `q` whose label holds for `i` and some
//! output valuation; the play goes on from the transition's target. Vertex ids: state `q` is
//! vertex `q`, then one controller vertex per (state, input valuation), then one vertex per
//! transition (carrying its colour, one successor: its target), then, if some input leaves the
//! controller without a transition, a sink won by the environment. Colours of `acc-name:
//! parity {max|min} {even|odd} K` become priorities of zermelo's max-even convention (a colour
//! accepting for the automaton is even); an uncoloured transition or state gets priority 0.
//!
//! Supported: state-based or transition-based colours (one per state or transition), explicit
//! labels `[...]` over `t`, `f`, AP numbers, `!`, `&`, `|` and parentheses, one start state.
//! Refused with a message: aliases (`@name`), implicit labels, several start states, more than
//! [`MAX_APS`] atomic propositions (exit "too big").

use crate::{Arena, Priority};
use zermelo::graph::Csr;
use zermelo::io::{ErrorKind, ParseError};
use zermelo::{NodeId, Player};

/// The most atomic propositions accepted: the game has `2^inputs` vertices per state and each
/// label is evaluated on `2^APs` valuations.
pub const MAX_APS: usize = 20;
/// The most (state, valuation) evaluations accepted.
const MAX_WORK: u64 = 1 << 25;

/// Parses an extended-HOA parity automaton and builds its game (module docs).
///
/// # Errors
/// [`ParseError`] with the line and what was expected; [`ErrorKind::TooBig`] past 20
/// propositions or 2^25 label evaluations.
pub fn parse_ehoa(bytes: &[u8], source: &str) -> Result<Arena, ParseError> {
    let tokens = tokenize(bytes, source)?;
    let mut p = Parser {
        tokens,
        at: 0,
        source,
        depth: 0,
    };
    let header = p.header()?;
    let states = p.body(&header)?;
    build(&header, &states, source)
}

/// Whether `bytes` look like a HOA file (first token `HOA:`), for format detection.
pub fn looks_like_hoa(bytes: &[u8]) -> bool {
    let text = bytes.iter().skip_while(|b| b.is_ascii_whitespace());
    let start: Vec<u8> = text.take(4).copied().collect();
    start == b"HOA:"
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Header(String),
    Ident(String),
    Int(u64),
    Str,
    Sym(u8),
    Body,
    End,
}

fn tokenize(bytes: &[u8], source: &str) -> Result<Vec<(Tok, u64)>, ParseError> {
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1u64);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line += 1;
            i += 1;
        } else if b.is_ascii_whitespace() {
            i += 1;
        } else if bytes[i..].starts_with(b"/*") {
            let end = find(bytes, i + 2, b"*/")
                .ok_or_else(|| ParseError::at(source, line, "unterminated comment"))?;
            line += bytes[i..end].iter().filter(|&&c| c == b'\n').count() as u64;
            i = end + 2;
        } else if b == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            if j >= bytes.len() {
                return Err(ParseError::at(source, line, "unterminated string"));
            }
            line += bytes[i..j].iter().filter(|&&c| c == b'\n').count() as u64;
            out.push((Tok::Str, line));
            i = j + 1;
        } else if bytes[i..].starts_with(b"--BODY--") {
            out.push((Tok::Body, line));
            i += 8;
        } else if bytes[i..].starts_with(b"--END--") {
            out.push((Tok::End, line));
            i += 7;
        } else if b.is_ascii_digit() {
            let j = i + bytes[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let text = std::str::from_utf8(&bytes[i..j]).unwrap_or("");
            let n = text
                .parse()
                .map_err(|_| ParseError::at(source, line, format!("number {text} too large")))?;
            out.push((Tok::Int(n), line));
            i = j;
        } else if b.is_ascii_alphabetic() || b == b'_' || b == b'@' {
            let j = i
                + 1
                + bytes[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'-')
                    .count();
            let word = String::from_utf8_lossy(&bytes[i..j]).into_owned();
            if bytes.get(j) == Some(&b':') {
                out.push((Tok::Header(word), line));
                i = j + 1;
            } else {
                out.push((Tok::Ident(word), line));
                i = j;
            }
        } else if b"[]{}()!&|".contains(&b) {
            out.push((Tok::Sym(b), line));
            i += 1;
        } else {
            let found = char::from(b);
            return Err(ParseError::at(
                source,
                line,
                format!("unexpected character {found:?}"),
            ));
        }
    }
    Ok(out)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..bytes.len().saturating_sub(needle.len() - 1)).find(|&k| bytes[k..].starts_with(needle))
}

#[derive(Default)]
struct Header {
    states: Option<u64>,
    start: Option<(u64, u64)>,
    aps: usize,
    controllable: Vec<usize>,
    /// `(max, even, colours)` from `acc-name: parity ...`.
    parity: Option<(bool, bool, u64)>,
}

/// A label: a Boolean formula over AP numbers.
#[derive(Debug)]
enum Label {
    Const(bool),
    Ap(usize),
    Not(Box<Label>),
    And(Box<Label>, Box<Label>),
    Or(Box<Label>, Box<Label>),
}

impl Label {
    fn holds(&self, valuation: u32) -> bool {
        match self {
            Label::Const(b) => *b,
            Label::Ap(a) => valuation >> a & 1 == 1,
            Label::Not(l) => !l.holds(valuation),
            Label::And(l, r) => l.holds(valuation) && r.holds(valuation),
            Label::Or(l, r) => l.holds(valuation) || r.holds(valuation),
        }
    }
}

struct Edge {
    label: Label,
    target: u64,
    colour: Option<u64>,
}

struct State {
    colour: Option<u64>,
    edges: Vec<Edge>,
}

struct Parser<'a> {
    tokens: Vec<(Tok, u64)>,
    at: usize,
    source: &'a str,
    /// Nesting of `!` and `(` in the label being read.
    depth: usize,
}

/// The deepest label nesting accepted.
const MAX_NESTING: usize = 200;

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|(t, _)| t)
    }

    fn line(&self) -> u64 {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |&(_, l)| l)
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.source, self.line(), message)
    }

    fn next(&mut self, expected: &str) -> Result<Tok, ParseError> {
        let t = self
            .peek()
            .cloned()
            .ok_or_else(|| self.error(format!("expected {expected}, found the end of the input")))
            .map_err(|e| e.with_kind(ErrorKind::Truncated))?;
        self.at += 1;
        Ok(t)
    }

    fn int(&mut self, what: &str) -> Result<u64, ParseError> {
        match self.next(what)? {
            Tok::Int(n) => Ok(n),
            other => {
                self.at -= 1;
                Err(self.error(format!("expected {what}, found {other:?}")))
            }
        }
    }

    /// Tokens up to the next header name or `--BODY--`.
    fn skip_values(&mut self) {
        while matches!(self.peek(), Some(t) if !matches!(t, Tok::Header(_) | Tok::Body)) {
            self.at += 1;
        }
    }

    fn header(&mut self) -> Result<Header, ParseError> {
        match self.next("HOA: v1")? {
            Tok::Header(h) if h == "HOA" => self.skip_values(),
            _ => return Err(ParseError::at(self.source, 1, "expected HOA: v1 first")),
        }
        let mut h = Header::default();
        loop {
            let line = self.line();
            match self.next("a header item or --BODY--")? {
                Tok::Body => break,
                Tok::Header(name) => match name.as_str() {
                    "States" => h.states = Some(self.int("the number of states")?),
                    "Start" => {
                        if h.start.is_some() {
                            return Err(self.error("several Start: headers are not supported"));
                        }
                        h.start = Some((self.int("a start state")?, line));
                        if self.peek() == Some(&Tok::Sym(b'&')) {
                            return Err(self.error("conjunctive start states are not supported"));
                        }
                    }
                    "AP" => {
                        let n = self.int("the number of atomic propositions")? as usize;
                        if n > MAX_APS {
                            return Err(self
                                .error(format!("{n} atomic propositions: at most {MAX_APS}"))
                                .with_kind(ErrorKind::TooBig));
                        }
                        for k in 0..n {
                            if self.next("a proposition name")? != Tok::Str {
                                self.at -= 1;
                                return Err(self.error(format!(
                                    "expected {n} quoted proposition names, found {k}"
                                )));
                            }
                        }
                        h.aps = n;
                    }
                    "controllable-AP" => {
                        while let Some(Tok::Int(a)) = self.peek() {
                            h.controllable.push(*a as usize);
                            self.at += 1;
                        }
                    }
                    "acc-name" => h.parity = Some(self.acc_name()?),
                    "Alias" => return Err(self.error("aliases (Alias:) are not supported")),
                    _ => self.skip_values(),
                },
                other => {
                    self.at -= 1;
                    return Err(self.error(format!("expected a header item, found {other:?}")));
                }
            }
        }
        // A proposition named twice (or on two `controllable-AP:` lines) is one output: kept
        // twice, the outputs' valuations (2^outputs per transition) would pass the work bound.
        h.controllable.sort_unstable();
        h.controllable.dedup();
        if let Some(&a) = h.controllable.iter().find(|&&a| a >= h.aps) {
            return Err(self.error(format!(
                "controllable-AP names proposition {a}, but AP: declares {}",
                h.aps
            )));
        }
        Ok(h)
    }

    fn acc_name(&mut self) -> Result<(bool, bool, u64), ParseError> {
        let word = |p: &mut Self| match p.next("parity max|min even|odd K") {
            Ok(Tok::Ident(w)) => Ok(w),
            _ => Err(p.error("expected acc-name: parity max|min even|odd K")),
        };
        let kind = word(self)?;
        let (order, side) = (word(self)?, word(self)?);
        let ok = kind == "parity"
            && matches!(order.as_str(), "max" | "min")
            && matches!(side.as_str(), "even" | "odd");
        if !ok {
            return Err(self.error(format!(
                "expected acc-name: parity max|min even|odd K, found {kind} {order} {side}"
            )));
        }
        let colours = self.int("the number of colours")?;
        Ok((order == "max", side == "even", colours))
    }

    fn body(&mut self, h: &Header) -> Result<Vec<State>, ParseError> {
        let n = h
            .states
            .ok_or_else(|| ParseError::whole(self.source, "missing header States: N"))?;
        if n > u64::from(u32::MAX) / 4 {
            return Err(self
                .error(format!("{n} states is too many"))
                .with_kind(ErrorKind::TooBig));
        }
        // Every state is defined in the body by `State:` and its number, two tokens: a count
        // the rest of the file cannot hold is refused before anything is allocated for it.
        let room = (self.tokens.len() - self.at) as u64 / 2;
        if n > room {
            return Err(self
                .error(format!(
                    "States: {n}, but the body has room for at most {room} state definitions"
                ))
                .with_kind(ErrorKind::Truncated));
        }
        let mut states: Vec<Option<State>> = (0..n).map(|_| None).collect();
        let mut current: Option<usize> = None;
        loop {
            match self.next("State:, an edge or --END--")? {
                Tok::End => break,
                Tok::Header(name) if name == "State" => {
                    if self.peek() == Some(&Tok::Sym(b'[')) {
                        return Err(self.error("state labels are not supported"));
                    }
                    let q = self.int("a state number")?;
                    if q >= n {
                        self.at -= 1;
                        return Err(self
                            .error(format!("state {q} out of range (States: {n})"))
                            .with_kind(ErrorKind::OutOfRange));
                    }
                    if states[q as usize].is_some() {
                        self.at -= 1;
                        return Err(self.error(format!("state {q} defined twice")));
                    }
                    if self.peek() == Some(&Tok::Str) {
                        self.at += 1;
                    }
                    let colour = self.colour(h)?;
                    states[q as usize] = Some(State {
                        colour,
                        edges: Vec::new(),
                    });
                    current = Some(q as usize);
                }
                Tok::Sym(b'[') => {
                    let Some(q) = current else {
                        return Err(self.error("an edge before any State:"));
                    };
                    let label = self.or(h)?;
                    if self.next("]")? != Tok::Sym(b']') {
                        self.at -= 1;
                        return Err(self.error("expected ] after the label"));
                    }
                    let target = self.int("a target state")?;
                    if target >= n {
                        self.at -= 1;
                        return Err(self
                            .error(format!("target {target} out of range (States: {n})"))
                            .with_kind(ErrorKind::OutOfRange));
                    }
                    let colour = self.colour(h)?;
                    let edge = Edge {
                        label,
                        target,
                        colour,
                    };
                    states[q]
                        .as_mut()
                        .expect("current state exists")
                        .edges
                        .push(edge);
                }
                Tok::Int(_) => {
                    self.at -= 1;
                    return Err(self.error("implicit labels are not supported: expected [label]"));
                }
                other => {
                    self.at -= 1;
                    return Err(self.error(format!(
                        "expected State:, [label] target or --END--, found {other:?}"
                    )));
                }
            }
        }
        states
            .into_iter()
            .enumerate()
            .map(|(q, s)| {
                s.ok_or_else(|| ParseError::whole(self.source, format!("state {q} is not defined")))
            })
            .collect()
    }

    /// An optional `{c}`: one colour below the acc-name's count.
    fn colour(&mut self, h: &Header) -> Result<Option<u64>, ParseError> {
        if self.peek() != Some(&Tok::Sym(b'{')) {
            return Ok(None);
        }
        self.at += 1;
        let c = self.int("a colour")?;
        let k = h.parity.map_or(0, |(_, _, k)| k);
        if c >= k {
            self.at -= 1;
            return Err(self
                .error(format!("colour {c}: acc-name declares {k} colours"))
                .with_kind(ErrorKind::OutOfRange));
        }
        match self.next("}")? {
            Tok::Sym(b'}') => Ok(Some(c)),
            _ => {
                self.at -= 1;
                Err(self.error("expected } (a parity automaton has one colour per item)"))
            }
        }
    }

    fn or(&mut self, h: &Header) -> Result<Label, ParseError> {
        let mut l = self.and(h)?;
        while self.peek() == Some(&Tok::Sym(b'|')) {
            self.at += 1;
            l = Label::Or(Box::new(l), Box::new(self.and(h)?));
        }
        Ok(l)
    }

    fn and(&mut self, h: &Header) -> Result<Label, ParseError> {
        let mut l = self.not(h)?;
        while self.peek() == Some(&Tok::Sym(b'&')) {
            self.at += 1;
            l = Label::And(Box::new(l), Box::new(self.not(h)?));
        }
        Ok(l)
    }

    fn not(&mut self, h: &Header) -> Result<Label, ParseError> {
        // The recursion follows the nesting: bound it so that no input overflows the stack.
        if self.depth >= MAX_NESTING {
            return Err(self.error(format!("label nested more than {MAX_NESTING} deep")));
        }
        match self.next("a label")? {
            Tok::Sym(b'!') => {
                self.depth += 1;
                let l = self.not(h);
                self.depth -= 1;
                Ok(Label::Not(Box::new(l?)))
            }
            Tok::Sym(b'(') => {
                self.depth += 1;
                let l = self.or(h);
                self.depth -= 1;
                let l = l?;
                match self.next(")")? {
                    Tok::Sym(b')') => Ok(l),
                    _ => {
                        self.at -= 1;
                        Err(self.error("expected )"))
                    }
                }
            }
            Tok::Int(a) if (a as usize) < h.aps => Ok(Label::Ap(a as usize)),
            Tok::Int(a) => {
                self.at -= 1;
                Err(self
                    .error(format!("proposition {a}: AP: declares {}", h.aps))
                    .with_kind(ErrorKind::OutOfRange))
            }
            Tok::Ident(w) if w == "t" => Ok(Label::Const(true)),
            Tok::Ident(w) if w == "f" => Ok(Label::Const(false)),
            Tok::Ident(w) if w.starts_with('@') => {
                self.at -= 1;
                Err(self.error(format!("aliases are not supported ({w})")))
            }
            other => {
                self.at -= 1;
                Err(self.error(format!("expected a label, found {other:?}")))
            }
        }
    }
}

/// The max-even priority of colour `c` (module docs).
fn priority(parity: Option<(bool, bool, u64)>, colour: Option<u64>) -> Priority {
    let (Some((max, even, k)), Some(c)) = (parity, colour) else {
        return 0;
    };
    let top = k + k % 2;
    let p = match (max, even) {
        (true, true) => c,
        (true, false) => c + 1,
        (false, true) => top - c,
        (false, false) => top + 1 - c,
    };
    Priority::try_from(p).unwrap_or(Priority::MAX)
}

fn build(h: &Header, states: &[State], source: &str) -> Result<Arena, ParseError> {
    let inputs: Vec<usize> = (0..h.aps).filter(|a| !h.controllable.contains(a)).collect();
    let outputs: Vec<usize> = h.controllable.clone();
    let n = states.len() as u64;
    let per_state = 1u64 << inputs.len();
    let edges: u64 = states.iter().map(|s| s.edges.len() as u64).sum();
    let work = (n + edges).saturating_mul(1 << h.aps);
    if work > MAX_WORK {
        return Err(ParseError::whole(
            source,
            format!(
                "{n} states, {edges} transitions over {} propositions: too big",
                h.aps
            ),
        )
        .with_kind(ErrorKind::TooBig));
    }
    let choice = |q: u64, i: u64| n + q * per_state + i;
    let first_edge = n + n * per_state;
    let mut vertices: Vec<(Player, Priority)> = Vec::new();
    for s in states {
        vertices.push((Player::One, priority(h.parity, s.colour)));
    }
    vertices.extend((0..n * per_state).map(|_| (Player::Zero, 0)));
    let mut moves: Vec<(u64, u64)> = Vec::new();
    let mut edge_id = first_edge;
    let mut sink_needed = false;
    let sink = first_edge + edges;
    for (q, s) in states.iter().enumerate() {
        let q = q as u64;
        for i in 0..per_state {
            moves.push((q, choice(q, i)));
            let input = spread(i, &inputs);
            let mut any = false;
            for (k, e) in s.edges.iter().enumerate() {
                let enabled =
                    (0..1u64 << outputs.len()).any(|o| e.label.holds(input | spread(o, &outputs)));
                if enabled {
                    moves.push((choice(q, i), edge_id + k as u64));
                    any = true;
                }
            }
            if !any {
                moves.push((choice(q, i), sink));
                sink_needed = true;
            }
        }
        for e in &s.edges {
            vertices.push((Player::Zero, priority(h.parity, e.colour)));
            moves.push((edge_id, e.target));
            edge_id += 1;
        }
    }
    if sink_needed {
        vertices.push((Player::One, 1));
        moves.push((sink, sink));
    }
    let graph = Csr::from_edges(vertices.len() as u64, moves)
        .map_err(|e| zermelo::io::graph_error(ParseError::whole(source, e.to_string()), &e))?;
    let (owner, priority) = vertices.into_iter().unzip();
    let start = h.start;
    if let Some((s, line)) = start {
        if s >= n {
            return Err(ParseError::at(
                source,
                line,
                format!("start state {s} out of range (States: {n})"),
            )
            .with_kind(ErrorKind::OutOfRange));
        }
    }
    Arena::new(graph, owner, priority)
        .and_then(|a| a.with_start(start.map(|(s, _)| s as NodeId)))
        .map_err(|e| ParseError::whole(source, e.to_string()))
}

/// The valuation (a bit per AP number) that sets `aps[j]` to bit `j` of `bits`.
fn spread(bits: u64, aps: &[usize]) -> u32 {
    aps.iter()
        .enumerate()
        .filter(|&(j, _)| bits >> j & 1 == 1)
        .fold(0, |v, (_, &a)| v | 1 << a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-state automaton: the controller must copy input 0 to output 1; colour 0 (max
    /// even: accepting) when it does, 1 when it does not.
    const COPY: &str = "HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n\
        acc-name: parity max even 2\nAcceptance: 2 Fin(1) & Inf(0)\n--BODY--\nState: 0\n\
        [0&1 | !0&!1] 0 {0}\n[0&!1 | !0&1] 0 {1}\n--END--\n";

    #[test]
    fn copy_game_is_won_by_the_controller() {
        let a = parse_ehoa(COPY.as_bytes(), "copy.ehoa").unwrap();
        // 1 state + 2 input valuations + 2 transitions.
        assert_eq!(a.vertex_count(), 5);
        let s = crate::solve(&a, crate::Solver::Auto);
        crate::verify(&a, &s).unwrap();
        assert_eq!(s.winner(0), Player::Zero);
        assert_eq!(a.start(), Some(0));
    }

    #[test]
    fn a_proposition_named_controllable_many_times_is_one_output() {
        // Found by the fuzzer: repeats of `controllable-AP: 1` made 2^repeats output
        // valuations per transition (a 4 KB file parsed for hours; here 2^40 without the fix).
        let text = COPY.replace("controllable-AP: 1\n", &"controllable-AP: 1 1\n".repeat(20));
        let twice = parse_ehoa(text.as_bytes(), "t").unwrap();
        let once = parse_ehoa(COPY.as_bytes(), "t").unwrap();
        assert_eq!(twice.vertex_count(), once.vertex_count());
        assert_eq!(twice.edge_count(), once.edge_count());
    }

    #[test]
    fn a_state_count_the_body_cannot_hold_is_refused_before_allocating() {
        // Found by the fuzzer: `States: 835300028` in an 88-byte file allocated 33 GB.
        let text = COPY.replace("States: 1\n", "States: 835300028\n");
        let e = parse_ehoa(text.as_bytes(), "big.ehoa").unwrap_err();
        assert_eq!((e.line, e.kind), (Some(9), ErrorKind::Truncated), "{e:?}");
        assert!(e.to_string().contains("room for at most"), "{e}");
    }

    #[test]
    fn uncontrollable_output_loses() {
        // Same automaton, but the environment sets both propositions: it can always mismatch.
        let text = COPY.replace("controllable-AP: 1\n", "controllable-AP:\n");
        let a = parse_ehoa(text.as_bytes(), "env.ehoa").unwrap();
        let s = crate::solve(&a, crate::Solver::Auto);
        crate::verify(&a, &s).unwrap();
        assert_eq!(s.winner(0), Player::One);
    }

    #[test]
    fn errors_name_the_line() {
        let bad = COPY.replace("[0&!1 | !0&1] 0 {1}", "[0&!1 | !0&1] 7 {1}");
        let e = parse_ehoa(bad.as_bytes(), "x.ehoa").unwrap_err();
        assert_eq!((e.line, e.kind), (Some(11), ErrorKind::OutOfRange), "{e:?}");
        let bad = COPY.replace("{1}", "{2}");
        assert_eq!(parse_ehoa(bad.as_bytes(), "x").unwrap_err().line, Some(11));
        let bad = COPY.replace("[0&1 | !0&!1]", "[0&1 | !0&!]");
        assert_eq!(parse_ehoa(bad.as_bytes(), "x").unwrap_err().line, Some(10));
        let bad = COPY.replace("--END--\n", "");
        assert_eq!(
            parse_ehoa(bad.as_bytes(), "x").unwrap_err().kind,
            ErrorKind::Truncated
        );
        assert!(looks_like_hoa(COPY.as_bytes()));
        assert!(!looks_like_hoa(b"parity 3;"));
    }

    /// A seeded stand-in for the fuzz target: damaged copies of a valid file (bytes replaced by
    /// the format's own characters, cut short, lines dropped) never panic, and every game that
    /// parses solves to a certificate.
    #[test]
    fn damaged_automata_never_panic() {
        let mut rng = zermelo::graph::generate::SplitMix64::new(5);
        let alphabet = b"0123 []{}()!&|tf@:\"\n-/*HOAState";
        let (mut parsed, mut refused) = (0, 0);
        for _ in 0..3000 {
            let mut text = COPY.as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(text.len() as u64) as usize;
                match rng.below(3) {
                    0 => text[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                    1 => text.truncate(at),
                    _ => {
                        let end = text[at..]
                            .iter()
                            .position(|&b| b == b'\n')
                            .map_or(text.len(), |k| at + k);
                        text.drain(at..end);
                    }
                }
                if text.is_empty() {
                    break;
                }
            }
            match parse_ehoa(&text, "damaged") {
                Ok(a) => {
                    parsed += 1;
                    let s = crate::solve(&a, crate::Solver::Auto);
                    crate::verify(&a, &s).unwrap();
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.message.is_empty());
                }
            }
        }
        assert!(
            parsed > 100 && refused > 1000,
            "{parsed} parsed, {refused} refused"
        );
    }

    #[test]
    fn colours_map_to_max_even_priorities() {
        // Accepting colours become even priorities in every convention.
        for (max, even) in [(true, true), (true, false), (false, true), (false, false)] {
            for k in 1..6u64 {
                for c in 0..k {
                    let accepting = (c % 2 == 0) == even;
                    let p = priority(Some((max, even, k)), Some(c));
                    assert_eq!(p % 2 == 0, accepting, "{max} {even} {k} {c}");
                }
            }
        }
    }
}
