//! CGSuite-style notation for [`Value`]s: [`Display`](std::fmt::Display) and
//! [`FromStr`](std::str::FromStr).
//!
//! Printed forms, simplest first (docs/formats.md has the grammar):
//!
//! | value | printed |
//! |---|---|
//! | numbers | `0`, `-2`, `3/8` |
//! | nimbers, number + nimber | `*`, `*3`, `1*`, `-1/2*2` |
//! | `k` ups (`↑ = {0|*}`), plus number and nimber | `^`, `v`, `^^`, `vv`, `^3`, `v4`, `^*`, `1v*3` |
//! | `{x | -x}` for a number `x > 0` | `+-1`, `+-1/2` |
//! | anything else | `{1|*}`, `{0,*|0}`, `{3||2|0}` (options in the same notation, with slashes) |
//!
//! Slashes as CGSuite prints them: a side with one option shows it without its braces, and the
//! outer bars are one more than the most bars inside: `{3||2|0}` is `{3|{2|0}}`,
//! `{2|1||0|-1}` is `{{2|1}|{0|-1}}`; a game of four bars keeps its braces, so that no more
//! than four are printed: `{5|{4||||3|||2||1|0}}`.
//!
//! Up multiples are recognised for `|k| <= 8` and infinitesimals whose stops agree; beyond that
//! the braces form is printed, which is always valid input.
//!
//! The parser reads everything printed, plus sums and differences (`1 + *`, `^ - *`), switches
//! `x+-y` (= `{x+y | x-y}`), negation `-{1|0}`, `^^^`, braces inside braces (`{3|{2|0}}`) and
//! parentheses (`-(1 + *)`, `+-(1/2*)`).

use std::collections::HashMap;
use std::fmt;
use std::ops::Neg;
use std::str::FromStr;

use super::value::{store, Form, Store, Value};
use crate::error::CgtError;
use crate::Dyadic;

/// Largest `|k|` recognised as `k` ups when printing, and accepted in `^k` when parsing.
const MAX_UPS: i64 = 8;
/// Largest nimber accepted by the parser (`*n` has `n` options, and `x + *n` costs about `n^3`
/// comparisons); `2^6 - 1`, so that nim-sums of accepted nimbers parse again when printed.
const MAX_NIMBER: u32 = 63;
/// Most bars printed between two sides: a game that would need more keeps its braces, as
/// CGSuite prints it (`maxSlashes` in its `CanonicalShortGame`): `{5|{4||||3|||2||1|0}}`.
const MAX_BARS: usize = 4;
/// Deepest nesting of braces accepted by the parser.
const MAX_DEPTH: usize = 200;

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = store().show(*self);
        f.write_str(&text)
    }
}

impl Value {
    /// The value in slash notation, for printing it as an option of a larger game.
    pub(crate) fn shown(self) -> Shown {
        store().shown(self)
    }

    /// How many characters `to_string()` writes, counted without writing them (saturating at
    /// `u64::MAX`). The canonical form is stored as a DAG and written as a tree, so a form of
    /// a few hundred positions can take more characters than any memory holds: a sum of 50
    /// Hackenbush parts of 12 edges, 75 positions, writes out to more than 10^18. O(positions).
    ///
    /// ```
    /// use zermelo_cgt::Value;
    /// let g: Value = "{3||2|0}".parse().unwrap();
    /// assert_eq!(g.written_len(), g.to_string().len() as u64);
    /// ```
    pub fn written_len(self) -> u64 {
        let mut memo = HashMap::new();
        let (len, bars) = store().written(self, &mut memo);
        braced_len(len, bars)
    }

    /// `n` when the value is the nimber `*n` (`Some(0)` for 0).
    pub fn as_nimber(self) -> Option<u32> {
        store().as_nimber(self)
    }
}

/// The length of [`Shown::braced`] of a text of `len` characters with `bars` outer bars.
fn braced_len(len: u64, bars: usize) -> u64 {
    if bars == 0 {
        len
    } else {
        len.saturating_add(2)
    }
}

/// A game's text in CGSuite's slash notation: `{3||2|0}` for `{3|{2|0}}`. A side with one
/// option shows it without its braces, and the game's own bars are one more than the most
/// bars of those; an option among several keeps its braces. The parser splits at the longest
/// run of bars, so the text reads back as the same game.
#[derive(Clone, Debug)]
pub(crate) struct Shown {
    /// The text, without outer braces when `bars > 0`.
    text: String,
    /// The bars between the sides of the outermost braces left out (0: a name, no braces).
    bars: usize,
}

impl Shown {
    /// A name (`1/2`, `^*`, `on`, `a:{0|a}`): never braced again.
    pub(crate) fn atom(text: String) -> Self {
        Shown { text, bars: 0 }
    }

    /// `{left|right}`, with its outer braces left out until [`Shown::braced`].
    pub(crate) fn options(left: Vec<Shown>, right: Vec<Shown>) -> Self {
        fn side(options: Vec<Shown>) -> (String, usize) {
            if options.len() == 1 {
                let only = options.into_iter().next().expect("one option");
                (only.text, only.bars)
            } else {
                let texts: Vec<String> = options.into_iter().map(Shown::braced).collect();
                (texts.join(","), 0)
            }
        }
        let (l, lb) = side(left);
        let (r, rb) = side(right);
        let bars = lb.max(rb) + 1;
        let text = format!("{l}{}{r}", "|".repeat(bars));
        if bars == MAX_BARS {
            Shown::atom(format!("{{{text}}}"))
        } else {
            Shown { text, bars }
        }
    }

    /// The text as a whole game: in braces unless a name.
    pub(crate) fn braced(self) -> String {
        if self.bars == 0 {
            self.text
        } else {
            format!("{{{}}}", self.text)
        }
    }
}

impl Store {
    fn show(&mut self, v: Value) -> String {
        self.shown(v).braced()
    }

    /// `v` in slash notation: a name for it (a number, an infinitesimal, a switch) or its
    /// options with their bars counted (module docs).
    fn shown(&mut self, v: Value) -> Shown {
        if let Some(text) = self.name(v) {
            return Shown::atom(text);
        }
        let (left, right) = (self.left(v), self.right(v));
        let l: Vec<Shown> = left.into_iter().map(|o| self.shown(o)).collect();
        let r: Vec<Shown> = right.into_iter().map(|o| self.shown(o)).collect();
        Shown::options(l, r)
    }

    /// The length and outer bars of [`Store::shown`]'s text, memoized on the DAG's positions
    /// (as [`Shown::options`] counts them).
    fn written(&mut self, v: Value, memo: &mut HashMap<Value, (u64, usize)>) -> (u64, usize) {
        if let Some(&w) = memo.get(&v) {
            return w;
        }
        let w = match self.name(v) {
            Some(text) => (text.len() as u64, 0),
            None => {
                let (left, right) = (self.left(v), self.right(v));
                let mut side = |options: Vec<Value>| -> (u64, usize) {
                    let lens: Vec<(u64, usize)> =
                        options.into_iter().map(|o| self.written(o, memo)).collect();
                    if let [only] = lens.as_slice() {
                        return *only;
                    }
                    let commas = lens.len().saturating_sub(1) as u64;
                    let texts = lens.iter().fold(commas, |n, &(len, bars)| {
                        n.saturating_add(braced_len(len, bars))
                    });
                    (texts, 0)
                };
                let (l, lb) = side(left);
                let (r, rb) = side(right);
                let bars = lb.max(rb) + 1;
                let len = l.saturating_add(bars as u64).saturating_add(r);
                if bars == MAX_BARS {
                    (len.saturating_add(2), 0)
                } else {
                    (len, bars)
                }
            }
        };
        memo.insert(v, w);
        w
    }

    /// `v`'s name when it has one: a number, `x + k.^ + *m`, or `+-x`.
    fn name(&mut self, v: Value) -> Option<String> {
        if let Some(x) = self.as_number(v) {
            return Some(x.to_string());
        }
        if let Some(text) = self.show_infinitesimal(v) {
            return Some(text);
        }
        let (left, right) = (self.left(v), self.right(v));
        if let ([a], [b]) = (left.as_slice(), right.as_slice()) {
            if let Some(x) = self.as_number(*a) {
                if x > Dyadic::ZERO && self.as_number(*b) == Some(x.neg()) {
                    return Some(format!("+-{x}"));
                }
            }
        }
        None
    }

    /// `x + k.^ + *m` when `v` is one, for `|k| <= MAX_UPS`.
    fn show_infinitesimal(&mut self, v: Value) -> Option<String> {
        let (l, r) = (self.stop(v, true), self.stop(v, false));
        if l != r {
            return None;
        }
        let minus_x = self.number(l.neg());
        let h = self.add_v(v, minus_x).ok()?;
        let up = self.up().ok()?;
        let down = self.neg_v(up);
        let (mut pos, mut neg) = (h, h);
        for k in 0..=MAX_UPS {
            if let Some(m) = self.as_nimber(pos) {
                return Some(format_nus(l, k, m));
            }
            if let Some(m) = self.as_nimber(neg) {
                return Some(format_nus(l, -k, m));
            }
            pos = self.add_v(pos, down).ok()?;
            neg = self.add_v(neg, up).ok()?;
        }
        None
    }

    /// `↑ = {0 | *}`.
    pub(crate) fn up(&mut self) -> Result<Value, CgtError> {
        let star = self.canonical(vec![Value::ZERO], vec![Value::ZERO])?;
        self.canonical(vec![Value::ZERO], vec![star])
    }

    /// `n` when `v = *n`: its Left and Right options are the same nimbers `*0 .. *(n-1)`.
    fn as_nimber(&mut self, v: Value) -> Option<u32> {
        if let Some(&n) = self.nimber_of.get(&v) {
            return Some(n);
        }
        let n = self.recognise_nimber(v)?;
        self.nimber_of.insert(v, n);
        Some(n)
    }

    fn recognise_nimber(&mut self, v: Value) -> Option<u32> {
        match self.form(v).clone() {
            Form::Number(d) => (d == Dyadic::ZERO).then_some(0),
            Form::Options { left, right } => {
                if left != right {
                    return None;
                }
                let mut seen = vec![false; left.len()];
                for &o in left.iter() {
                    let m = self.as_nimber(o)? as usize;
                    *seen.get_mut(m)? = true;
                }
                seen.iter().all(|&s| s).then_some(left.len() as u32)
            }
        }
    }
}

fn format_nus(x: Dyadic, k: i64, m: u32) -> String {
    let mut s = String::new();
    if x != Dyadic::ZERO || (k == 0 && m == 0) {
        s.push_str(&x.to_string());
    }
    let arrow = if k > 0 { '^' } else { 'v' };
    match k.unsigned_abs() {
        0 => {}
        1 => s.push(arrow),
        2 => {
            s.push(arrow);
            s.push(arrow);
        }
        n => {
            s.push(arrow);
            s.push_str(&n.to_string());
        }
    }
    match m {
        0 => {}
        1 => s.push('*'),
        m => {
            s.push('*');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// A value that could not be parsed: where (1-based character column) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct ParseValueError {
    /// 1-based column of the problem.
    pub column: usize,
    /// What was expected.
    pub message: String,
}

impl FromStr for Value {
    type Err = ParseValueError;

    /// Parses CGSuite notation (module docs). The evaluation may take at most
    /// [`NOTATION_WORK`](super::NOTATION_WORK) steps ([`CgtError::TooMuchWork`] as the error's
    /// message past it).
    fn from_str(text: &str) -> Result<Value, ParseValueError> {
        super::value::with_work_limit(super::NOTATION_WORK, || parse(text))
    }
}

impl Value {
    /// Parses CGSuite notation as [`str::parse`] does, with at most `limit` steps of evaluation
    /// instead of [`NOTATION_WORK`](super::NOTATION_WORK) (`None`: no limit).
    ///
    /// ```
    /// use zermelo_cgt::Value;
    /// // 7.4 million sums and comparisons: refused with a limit of one million.
    /// let err = Value::parse_with_work_limit("2*30+-30*30", Some(1_000_000)).unwrap_err();
    /// assert!(err.message.contains("more than 1000000 sums and comparisons"));
    /// let v = Value::parse_with_work_limit("2*30+-30*30", None).unwrap();
    /// assert_eq!(v.to_string(), "{32|-28}");
    /// ```
    pub fn parse_with_work_limit(text: &str, limit: Option<u64>) -> Result<Value, ParseValueError> {
        match limit {
            Some(limit) => super::value::with_work_limit(limit, || parse(text)),
            None => parse(text),
        }
    }
}

fn parse(text: &str) -> Result<Value, ParseValueError> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
        depth: 0,
    };
    let v = p.expr()?;
    p.skip_space();
    match p.chars.get(p.pos) {
        Some(')') => Err(p.error("this `)` closes no `(`".into())),
        Some(c) => Err(p.error(format!("unexpected {c:?} after a complete value"))),
        None => Ok(v),
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
}

/// An element of a braces list: a game, or a run of `k` bars.
enum Item {
    Game(Value),
    Bars(usize, usize),
}

impl Parser {
    fn error(&self, message: String) -> ParseValueError {
        ParseValueError {
            column: self.pos + 1,
            message,
        }
    }

    fn big(&self, e: CgtError) -> ParseValueError {
        self.error(e.to_string())
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

    fn peek2(&mut self, a: char, b: char) -> bool {
        self.peek() == Some(a) && self.chars.get(self.pos + 1) == Some(&b)
    }

    /// `term (('+' | '-') term)*`, where `+-` is not a sum.
    fn expr(&mut self) -> Result<Value, ParseValueError> {
        let mut v = self.switch()?;
        loop {
            if self.peek2('+', '-') {
                return Err(self.error("`+-` here: write `x+-y` with a number x".into()));
            }
            match self.peek() {
                Some('+') => {
                    self.pos += 1;
                    let t = self.switch()?;
                    v = v.checked_add(t).map_err(|e| self.big(e))?;
                }
                Some('-') => {
                    self.pos += 1;
                    let t = self.switch()?;
                    v = v.checked_sub(t).map_err(|e| self.big(e))?;
                }
                _ => return Ok(v),
            }
        }
    }

    /// `+-G` (= `{G | -G}`), or `x+-G` (= `{x + G | x - G}`), or a unary term.
    fn switch(&mut self) -> Result<Value, ParseValueError> {
        if self.peek2('+', '-') {
            self.pos += 2;
            let g = self.unary()?;
            return Value::from_options(&[g], &[g.neg()]).map_err(|e| self.big(e));
        }
        let x = self.unary()?;
        if self.peek2('+', '-') {
            self.pos += 2;
            let g = self.unary()?;
            let l = x.checked_add(g).map_err(|e| self.big(e))?;
            let r = x.checked_sub(g).map_err(|e| self.big(e))?;
            return Value::from_options(&[l], &[r]).map_err(|e| self.big(e));
        }
        Ok(x)
    }

    /// Minus signs (not before digits, where they belong to the number), then an atom.
    fn unary(&mut self) -> Result<Value, ParseValueError> {
        let mut negate = false;
        while self.peek() == Some('-')
            && !self
                .chars
                .get(self.pos + 1)
                .is_some_and(|c| c.is_ascii_digit())
        {
            self.pos += 1;
            negate = !negate;
        }
        let v = self.atom()?;
        Ok(if negate { v.neg() } else { v })
    }

    /// `{...}`, `(expr)`, or `[number][ups][star]`.
    fn atom(&mut self) -> Result<Value, ParseValueError> {
        match self.peek() {
            Some('{') => self.braces(),
            Some('(') => self.group(),
            Some(')') => Err(self.error("expected a value, found `)`".into())),
            Some(c) if c.is_ascii_digit() || "-^v*".contains(c) => self.nus(),
            Some(c) => Err(self.error(format!(
                "expected a value (a number, *, ^, v, {{...}} or (...)), found {c:?}"
            ))),
            None => Err(self.error("expected a value, found the end".into())),
        }
    }

    /// `( expr )`; an unclosed `(` is the error's column.
    fn group(&mut self) -> Result<Value, ParseValueError> {
        let open = self.pos;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!(
                "braces and parentheses nested deeper than {MAX_DEPTH}"
            )));
        }
        self.pos += 1;
        let v = self.expr()?;
        if self.peek() != Some(')') {
            let found = match self.chars.get(self.pos) {
                Some(c) => format!("{c:?} at column {}", self.pos + 1),
                None => "the end".into(),
            };
            return Err(ParseValueError {
                column: open + 1,
                message: format!("this `(` is not closed: expected `)`, found {found}"),
            });
        }
        self.pos += 1;
        self.depth -= 1;
        Ok(v)
    }

    /// Up to 38 digits (every number [`Dyadic`] holds has fewer).
    fn digits(&mut self) -> Option<u128> {
        let start = self.pos;
        while self.chars.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == start || self.pos - start > 38 {
            if self.pos > start {
                self.pos = start;
            }
            return None;
        }
        self.chars[start..self.pos]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
    }

    fn nus(&mut self) -> Result<Value, ParseValueError> {
        let mut parts = Vec::new();
        // Number: -?digits(/digits)?
        let negative = self.chars.get(self.pos) == Some(&'-');
        if negative || self.chars.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
            if negative {
                self.pos += 1;
            }
            let n = self
                .digits()
                .ok_or_else(|| self.error("expected digits (at most 38)".into()))?;
            let n = i128::try_from(n).map_err(|_| self.big(CgtError::NumberTooLarge))?;
            let mut d = Dyadic::new(n, 0).map_err(|e| self.big(e))?;
            if self.chars.get(self.pos) == Some(&'/') {
                self.pos += 1;
                let q = self
                    .digits()
                    .ok_or_else(|| self.error("expected a denominator".into()))?;
                if !q.is_power_of_two() {
                    return Err(self.error(format!(
                        "denominator {q} is not a power of 2: short games' numbers are dyadic"
                    )));
                }
                d = Dyadic::new(n, q.trailing_zeros()).map_err(|e| self.big(e))?;
            }
            if negative {
                d = d.neg();
            }
            parts.push(Value::number(d));
        }
        // Ups: ^^^, ^3, vv, v2.
        if let Some(&arrow) = self
            .chars
            .get(self.pos)
            .filter(|c| **c == '^' || **c == 'v')
        {
            let mut k = 0i64;
            while self.chars.get(self.pos) == Some(&arrow) {
                self.pos += 1;
                k += 1;
            }
            if k == 1 {
                if let Some(n) = self.digits() {
                    k = i64::try_from(n).unwrap_or(i64::MAX);
                }
            }
            if !(1..=MAX_UPS * 2).contains(&k) {
                return Err(self.error(format!("at most {} ups", MAX_UPS * 2)));
            }
            let up = store().up().map_err(|e| self.big(e))?;
            let up = if arrow == 'v' { up.neg() } else { up };
            for _ in 0..k {
                parts.push(up);
            }
        }
        if self.chars.get(self.pos) == Some(&'*') {
            self.pos += 1;
            let m = self.digits().unwrap_or(1);
            if m > u128::from(MAX_NIMBER) {
                return Err(self.error(format!("nimbers up to *{MAX_NIMBER}")));
            }
            parts.push(Value::nimber(m as u32).map_err(|e| self.big(e))?);
        }
        if parts.is_empty() {
            return Err(self.error("expected a value".into()));
        }
        Value::sum(&parts).map_err(|e| self.big(e))
    }

    fn braces(&mut self) -> Result<Value, ParseValueError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!(
                "braces and parentheses nested deeper than {MAX_DEPTH}"
            )));
        }
        self.pos += 1; // '{'
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
                _ => items.push(Item::Game(self.expr()?)),
            }
        }
        self.depth -= 1;
        if !items.iter().any(|i| matches!(i, Item::Bars(..))) {
            return Err(self.error("expected `|` between Left's and Right's options".into()));
        }
        self.build(&items)
    }

    /// The game of a braces list: split at the longest run of bars (there must be one).
    fn build(&self, items: &[Item]) -> Result<Value, ParseValueError> {
        let longest = items
            .iter()
            .filter_map(|i| match i {
                Item::Bars(k, _) => Some(*k),
                Item::Game(_) => None,
            })
            .max();
        let Some(k) = longest else {
            return match items {
                [Item::Game(g)] => Ok(*g),
                _ => Err(self.error("expected one game between bars".into())),
            };
        };
        let splits: Vec<usize> = (0..items.len())
            .filter(|&i| matches!(items[i], Item::Bars(j, _) if j == k))
            .collect();
        if splits.len() > 1 {
            let Item::Bars(_, at) = items[splits[1]] else {
                unreachable!("filtered to bars")
            };
            return Err(ParseValueError {
                column: at + 1,
                message: format!("two runs of {k} bars at the same level: ambiguous"),
            });
        }
        let (l, r) = (&items[..splits[0]], &items[splits[0] + 1..]);
        let side = |part: &[Item]| -> Result<Vec<Value>, ParseValueError> {
            if part.iter().any(|i| matches!(i, Item::Bars(..))) {
                Ok(vec![self.build(part)?])
            } else {
                Ok(part
                    .iter()
                    .map(|i| match i {
                        Item::Game(g) => *g,
                        Item::Bars(..) => unreachable!("no bars here"),
                    })
                    .collect())
            }
        };
        Value::from_options(&side(l)?, &side(r)?).map_err(|e| self.big(e))
    }
}
