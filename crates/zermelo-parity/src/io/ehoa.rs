//! Extended HOA (`.ehoa`): the parity automata of SYNTCOMP's synthesis track, as Knor reads
//! them: [`parse_automaton`] gives the [`Automaton`] as written, checked once (states, targets,
//! colours and propositions in range, one start state); `ehoa_game.rs` turns it into an
//! explicit parity game ([`parse_ehoa`](super::parse_ehoa)) and the synthesis crate into a
//! controller.
//!
//! The file is a HOA v1 automaton (<https://adl.github.io/hoaf/>) with one more header,
//! `controllable-AP: i j ...`, naming the atomic propositions the controller sets; the others
//! are the environment's.
//!
//! Supported: state-based or transition-based colours (one per state or transition), explicit
//! labels `[...]` over `t`, `f`, AP numbers, `!`, `&`, `|` and parentheses, one start state.
//! Refused with a message: aliases (`@name`), implicit labels, several start states, an
//! acceptance other than `acc-name: parity ...`, more than [`MAX_AUTOMATON_APS`] atomic
//! propositions (exit "too big").

use crate::Priority;
use zermelo::io::{ErrorKind, ParseError};

/// The most atomic propositions an automaton may have: a valuation is one `u64`.
pub const MAX_AUTOMATON_APS: usize = 64;

/// An extended-HOA parity automaton as written (module docs), checked once by
/// [`parse_automaton`]: every target, colour and proposition number is in range, every state
/// is defined once.
#[derive(Clone, Debug, PartialEq)]
pub struct Automaton {
    /// The atomic propositions' names, by number (`AP: n "a" "b" ...`).
    pub aps: Vec<String>,
    /// The propositions the controller sets (`controllable-AP:`), sorted, each once.
    pub controllable: Vec<usize>,
    /// The acceptance condition, if the file names one (`acc-name: parity ...`).
    pub parity: Option<ParityCondition>,
    /// The start state (`Start:`), if any.
    pub start: Option<u32>,
    /// The states, by number.
    pub states: Vec<AutomatonState>,
}

/// `acc-name: parity {max|min} {even|odd} K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParityCondition {
    /// `max` (the highest colour seen infinitely often decides) or `min`.
    pub max: bool,
    /// `even` (an even deciding colour is accepting) or `odd`.
    pub even: bool,
    /// The number of colours K (colours are `0..K`). A `max` condition may declare any K
    /// (the priorities do not depend on it); a `min` condition at most `u32::MAX / 4`.
    pub colours: u64,
}

/// A state: its colour (state-based acceptance) and its transitions in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct AutomatonState {
    /// `{c}` after `State: q`, if any.
    pub colour: Option<u32>,
    /// The transitions, in file order.
    pub edges: Vec<Transition>,
    /// The line of `State: q`, for messages.
    pub line: u64,
}

/// A transition `[label] target {colour}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    /// When it is taken: a Boolean formula over proposition numbers.
    pub label: Label,
    /// The target state.
    pub target: u32,
    /// `{c}`, if any (transition-based acceptance).
    pub colour: Option<u32>,
    /// The line of the transition, for messages.
    pub line: u64,
}

/// A label: a Boolean formula over proposition numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Label {
    /// `t` or `f`.
    Const(bool),
    /// A proposition number.
    Ap(usize),
    /// `!l`.
    Not(Box<Label>),
    /// `l & r`.
    And(Box<Label>, Box<Label>),
    /// `l | r`.
    Or(Box<Label>, Box<Label>),
}

impl Label {
    /// Whether the label holds for `valuation` (bit `a` is proposition `a`).
    pub fn holds(&self, valuation: u64) -> bool {
        match self {
            Label::Const(b) => *b,
            Label::Ap(a) => valuation >> a & 1 == 1,
            Label::Not(l) => !l.holds(valuation),
            Label::And(l, r) => l.holds(valuation) && r.holds(valuation),
            Label::Or(l, r) => l.holds(valuation) || r.holds(valuation),
        }
    }
}

impl ParityCondition {
    /// The priority of colour `colour` (`None`: an uncoloured state or transition) in
    /// zermelo's max-even convention: an accepting colour is even, and a higher priority
    /// decides. A play that sees no colour infinitely often is accepted as HOA's acceptance
    /// formula says: for `max` conditions as if it saw a colour below 0, for `min` conditions
    /// as if it saw colour K. Priorities run from 0 to K + 1.
    pub fn priority(&self, colour: Option<u32>) -> Priority {
        let k = self.colours;
        // The rank of the colour in the deciding order, 0 for "no colour" (the parser keeps
        // colours, and K for `min`, below u32::MAX / 4).
        let rank = match (self.max, colour) {
            (true, Some(c)) => c + 1,
            (false, Some(c)) => (k - u64::from(c).min(k)) as u32,
            (_, None) => 0,
        };
        // Whether the colour (or the absence of one) is accepting.
        let accepting = match (self.max, colour) {
            (_, Some(c)) => (c % 2 == 0) == self.even,
            // Below colour 0: -1 is odd.
            (true, None) => !self.even,
            // Colour K.
            (false, None) => (k % 2 == 0) == self.even,
        };
        // Keep the order, fix the parity: 2 * rank, plus one for rejecting.
        2 * rank + u32::from(!accepting)
    }
}

/// Parses an extended-HOA parity automaton (module docs).
///
/// # Errors
/// [`ParseError`] with the line and what was expected; [`ErrorKind::TooBig`] past
/// [`MAX_AUTOMATON_APS`] propositions or `2^30` states.
pub fn parse_automaton(bytes: &[u8], source: &str) -> Result<Automaton, ParseError> {
    let tokens = tokenize(bytes, source)?;
    let mut p = Parser {
        tokens,
        at: 0,
        source,
        depth: 0,
    };
    let header = p.header()?;
    let states = p.body(&header)?;
    let n = states.len() as u64;
    if let Some((s, line)) = header.start {
        if s >= n {
            return Err(ParseError::at(
                source,
                line,
                format!("start state {s} out of range (States: {n})"),
            )
            .with_kind(ErrorKind::OutOfRange));
        }
    }
    Ok(Automaton {
        aps: header.aps,
        controllable: header.controllable,
        parity: header.parity,
        start: header.start.map(|(s, _)| s as u32),
        states,
    })
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
    Str(String),
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
            let text = unescape(&bytes[i + 1..j]);
            line += bytes[i..j].iter().filter(|&&c| c == b'\n').count() as u64;
            out.push((Tok::Str(text), line));
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

/// The text of a quoted string: `\\x` stands for `x`; invalid UTF-8 replaced.
fn unescape(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut k = 0;
    while k < raw.len() {
        if raw[k] == b'\\' && k + 1 < raw.len() {
            k += 1;
        }
        out.push(raw[k]);
        k += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..bytes.len().saturating_sub(needle.len() - 1)).find(|&k| bytes[k..].starts_with(needle))
}

#[derive(Default)]
struct Header {
    states: Option<u64>,
    start: Option<(u64, u64)>,
    aps: Vec<String>,
    controllable: Vec<usize>,
    parity: Option<ParityCondition>,
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
                        let n = self.int("the number of atomic propositions")?;
                        if n > MAX_AUTOMATON_APS as u64 {
                            return Err(self
                                .error(format!(
                                    "{n} atomic propositions: at most {MAX_AUTOMATON_APS} \
                                     (the limit MAX_AUTOMATON_APS)"
                                ))
                                .with_kind(ErrorKind::TooBig));
                        }
                        h.aps.clear();
                        for k in 0..n {
                            match self.next("a proposition name")? {
                                Tok::Str(name) => {
                                    // Inputs and outputs of a controller are matched by name
                                    // (AIGER's symbol table): two propositions of one name
                                    // would be one signal read or set twice.
                                    if let Some(first) = h.aps.iter().position(|a| *a == name) {
                                        self.at -= 1;
                                        return Err(self.error(format!(
                                            "proposition {k} is named \"{name}\" as \
                                             proposition {first} is: each name may appear once"
                                        )));
                                    }
                                    h.aps.push(name);
                                }
                                _ => {
                                    self.at -= 1;
                                    return Err(self.error(format!(
                                        "expected {n} quoted proposition names, found {k}"
                                    )));
                                }
                            }
                        }
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
        if let Some(&a) = h.controllable.iter().find(|&&a| a >= h.aps.len()) {
            return Err(self.error(format!(
                "controllable-AP names proposition {a}, but AP: declares {}",
                h.aps.len()
            )));
        }
        Ok(h)
    }

    fn acc_name(&mut self) -> Result<ParityCondition, ParseError> {
        let word = |p: &mut Self| match p.next("parity max|min even|odd K") {
            Ok(Tok::Ident(w)) => Ok(w),
            _ => Err(p.error("expected acc-name: parity max|min even|odd K")),
        };
        let kind = word(self)?;
        if kind != "parity" {
            self.at -= 1;
            return Err(self.error(format!(
                "acc-name: {kind}: only parity acceptance is supported (expected acc-name: \
                 parity max|min even|odd K)"
            )));
        }
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
        // Priorities go up to 2K + 1 (a colour's, or K's for min): keep them in a u32.
        if order == "min" && colours > u64::from(u32::MAX / 4) {
            return Err(self.error(format!("{colours} colours is too many for parity min")));
        }
        Ok(ParityCondition {
            max: order == "max",
            even: side == "even",
            colours,
        })
    }

    fn body(&mut self, h: &Header) -> Result<Vec<AutomatonState>, ParseError> {
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
        let mut states: Vec<Option<AutomatonState>> = (0..n).map(|_| None).collect();
        let mut current: Option<usize> = None;
        loop {
            let line = self.line();
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
                    if matches!(self.peek(), Some(Tok::Str(_))) {
                        self.at += 1;
                    }
                    let colour = self.colour(h)?;
                    states[q as usize] = Some(AutomatonState {
                        colour,
                        edges: Vec::new(),
                        line,
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
                    let edge = Transition {
                        label,
                        target: target as u32,
                        colour,
                        line,
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
    fn colour(&mut self, h: &Header) -> Result<Option<u32>, ParseError> {
        if self.peek() != Some(&Tok::Sym(b'{')) {
            return Ok(None);
        }
        self.at += 1;
        let c = self.int("a colour")?;
        let k = h.parity.map_or(0, |p| p.colours);
        if c >= k || c > u64::from(u32::MAX / 4) {
            self.at -= 1;
            return Err(self
                .error(format!("colour {c}: acc-name declares {k} colours"))
                .with_kind(ErrorKind::OutOfRange));
        }
        match self.next("}")? {
            Tok::Sym(b'}') => Ok(Some(c as u32)),
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
            Tok::Int(a) if a < h.aps.len() as u64 => Ok(Label::Ap(a as usize)),
            Tok::Int(a) => {
                self.at -= 1;
                Err(self
                    .error(format!("proposition {a}: AP: declares {}", h.aps.len()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_map_to_max_even_priorities() {
        // Accepting colours become even priorities in every convention, the deciding order is
        // kept, and "no colour" decides as HOA's acceptance formulas say.
        for (max, even) in [(true, true), (true, false), (false, true), (false, false)] {
            for k in 1..6u64 {
                let p = ParityCondition {
                    max,
                    even,
                    colours: k,
                };
                for c in 0..k as u32 {
                    let accepting = (c % 2 == 0) == even;
                    assert_eq!(p.priority(Some(c)) % 2 == 0, accepting, "{p:?} {c}");
                    let next = if max { c + 1 } else { c.wrapping_sub(1) };
                    if u64::from(next) < k {
                        assert!(p.priority(Some(next)) > p.priority(Some(c)), "{p:?} {c}");
                    }
                    assert!(p.priority(None) < p.priority(Some(c)));
                }
                // parity max even: `Inf(K-1) | (Fin(K-2) & ...)` is false on no colour; max
                // odd: `Fin(K-1) & (...)` true; min: the colour K decides.
                let none_accepted = if max { !even } else { (k % 2 == 0) == even };
                assert_eq!(p.priority(None) % 2 == 0, none_accepted, "{p:?}");
            }
        }
    }

    #[test]
    fn names_and_lines_are_kept() {
        let text = "HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"a\\\"b\" \"o\"\ncontrollable-AP: 1\n\
            acc-name: parity max even 2\n--BODY--\nState: 0\n[0&1] 0 {0}\n[!0|!1] 0 {1}\n--END--\n";
        let a = parse_automaton(text.as_bytes(), "t").unwrap();
        assert_eq!(a.aps, ["a\"b", "o"]);
        assert_eq!((a.states[0].line, a.states[0].edges[1].line), (8, 10));
        assert!(a.states[0].edges[0].label.holds(0b11));
        let e = parse_automaton(text.replace("parity max even 2", "Buchi").as_bytes(), "t");
        assert!(e.unwrap_err().message.contains("only parity acceptance"));
        // Found by fuzzing: `AP: 2 "ack" "ack"` was accepted, and the controller's AIGER file
        // then named one output twice.
        let twice = text.replace("\"a\\\"b\" \"o\"", "\"o\" \"o\"");
        assert_ne!(twice, text);
        let e = parse_automaton(twice.as_bytes(), "t").unwrap_err();
        assert_eq!(e.line, Some(4), "{e:?}");
        assert!(e.message.contains("proposition 1 is named \"o\""), "{e:?}");
    }
}
