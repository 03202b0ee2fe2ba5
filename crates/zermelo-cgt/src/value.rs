//! [`Value`]: a short partizan game in canonical form, interned (hash-consed) in one store.
//!
//! Canonical forms are unique (Conway, *On Numbers and Games*, ch. 10), so after interning two
//! games are equal exactly when their handles are: equality and hashing are O(1). The store
//! also memoizes comparisons, sums and negatives. It lives for the whole process behind a mutex;
//! every public operation locks it once.
//!
//! Numbers are stored as [`Dyadic`]s rather than as option trees (`5` is not `{4|}` five levels
//! deep), and a number plus a non-number is computed by the translation principle
//! `x + G = {x + G^L | x + G^R}`, so sums with large numbers stay cheap.

use std::cell::Cell;
use std::cmp::Ordering;
use std::hash::{BuildHasherDefault, Hasher};

/// The store's tables, keyed by small integers (handles) and forms made of them: FxHash
/// (rustc's hasher: a multiply and a rotate a word) rather than SipHash, which took a third of
/// the time of sums and comparisons.
pub(crate) type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// rustc's FxHash: not resistant to chosen keys, which the store's handles are not.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}
use std::sync::{Mutex, MutexGuard, OnceLock};

use crate::error::CgtError;
use crate::Dyadic;

/// A short partizan game in canonical form (a handle into the process-wide store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Value(pub(crate) u32);

/// A canonical form as stored.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Form {
    /// A number.
    Number(Dyadic),
    /// A game that is not a number: its Left and Right options, sorted by handle.
    Options {
        left: Box<[Value]>,
        right: Box<[Value]>,
    },
}

/// The relation between two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `G < H`.
    Less,
    /// `G = H`.
    Equal,
    /// `G > H`.
    Greater,
    /// `G || H`: neither `G <= H` nor `G >= H`.
    Confused,
}

/// Who wins a game, by its relation to 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeClass {
    /// `G > 0`: Left wins, whoever starts.
    L,
    /// `G < 0`: Right wins, whoever starts.
    R,
    /// `G || 0`: the first player wins.
    N,
    /// `G = 0`: the second player wins.
    P,
}

impl OutcomeClass {
    /// `L`, `R`, `N` or `P`.
    pub fn as_str(self) -> &'static str {
        match self {
            OutcomeClass::L => "L",
            OutcomeClass::R => "R",
            OutcomeClass::N => "N",
            OutcomeClass::P => "P",
        }
    }

    /// Does Left win when Left moves first?
    pub fn left_first_wins(self) -> bool {
        matches!(self, OutcomeClass::L | OutcomeClass::N)
    }

    /// Does Right win when Right moves first?
    pub fn right_first_wins(self) -> bool {
        matches!(self, OutcomeClass::R | OutcomeClass::N)
    }
}

/// The interned forms and the memo tables.
#[derive(Default)]
pub(crate) struct Store {
    pub(crate) forms: Vec<Form>,
    index: HashMap<Form, Value>,
    pub(crate) leq: HashMap<(Value, Value), bool>,
    pub(crate) sum: HashMap<(Value, Value), Value>,
    pub(crate) neg: HashMap<Value, Value>,
    /// The nimbers built so far: `nimbers[n] = *n`, and back.
    nimbers: Vec<Value>,
    pub(crate) nimber_of: HashMap<Value, u32>,
    /// Values built as a number plus a nimber `x + *m` (m >= 1), and their parts: such sums
    /// add by adding the numbers and nim-adding the nimbers.
    pub(crate) number_nimber: HashMap<Value, (Dyadic, u32)>,
    /// Left (true) and Right stops.
    stops: HashMap<(Value, bool), Dyadic>,
    /// Option handles held by the interned forms (each form is held twice: in `forms` and as
    /// a key of `index`).
    option_handles: u64,
}

static STORE: OnceLock<Mutex<Store>> = OnceLock::new();

thread_local! {
    /// The work limit of the evaluation running on this thread and the steps left to it
    /// (`None`: no limit), spent by the store while this thread holds it: see
    /// [`with_work_limit`].
    static WORK: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
}

/// Runs `f` with at most `limit` steps of work for the store (each call to sum or compare two
/// games is one, memoized or not: that is what the time follows); past it, sums and canonical forms fail with
/// [`CgtError::TooMuchWork`]. A comparison cannot fail, so it only spends: the next sum or
/// canonical form stops. Nothing wrong is memoized: a failed sum is not recorded, and the
/// comparisons made are exact. A call inside another keeps the outer limit.
pub(crate) fn with_work_limit<T>(limit: u64, f: impl FnOnce() -> T) -> T {
    if WORK.get().is_some() {
        return f();
    }
    WORK.set(Some((limit, limit)));
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            WORK.set(None);
        }
    }
    let _reset = Reset;
    f()
}

/// Spends one step of this thread's work limit, if it has one.
#[inline]
pub(crate) fn spend() {
    if let Some((limit, left)) = WORK.get() {
        WORK.set(Some((limit, left.saturating_sub(1))));
    }
}

/// [`CgtError::TooMuchWork`] once this thread's work limit is spent.
#[inline]
pub(crate) fn check_work() -> Result<(), CgtError> {
    match WORK.get() {
        Some((limit, 0)) => Err(CgtError::TooMuchWork(limit)),
        _ => Ok(()),
    }
}

/// Locks the store (a panic elsewhere while it was held leaves it consistent: every table is
/// only ever extended with correct entries).
pub(crate) fn store() -> MutexGuard<'static, Store> {
    let m = STORE.get_or_init(|| {
        let mut s = Store::default();
        s.intern(Form::Number(Dyadic::ZERO)); // Value(0) is 0
        Mutex::new(s)
    });
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Store {
    /// The handle of a canonical form, interning it if new.
    pub(crate) fn intern(&mut self, form: Form) -> Value {
        if let Some(&v) = self.index.get(&form) {
            return v;
        }
        let v = Value(self.forms.len() as u32);
        if let Form::Options { left, right } = &form {
            self.option_handles += (left.len() + right.len()) as u64;
        }
        self.forms.push(form.clone());
        self.index.insert(form, v);
        v
    }

    /// About how many bytes the forms and memo tables hold (their allocated capacity), plus the
    /// next doubling of the largest.
    pub(crate) fn bytes(&self) -> u64 {
        fn table<K, V>(m: &HashMap<K, V>) -> u64 {
            // hashbrown: one control byte per bucket besides the entry.
            (m.capacity() * (std::mem::size_of::<(K, V)>() + 1)) as u64
        }
        let forms = (self.forms.capacity() * std::mem::size_of::<Form>()) as u64;
        let handles = 2 * self.option_handles * std::mem::size_of::<Value>() as u64;
        let tables = [
            table(&self.index),
            table(&self.leq),
            table(&self.sum),
            table(&self.neg),
            table(&self.nimber_of),
            table(&self.number_nimber),
            table(&self.stops),
            forms,
        ];
        // The next growth of the largest table allocates twice its size while the old one is
        // still held: count it now, so that a limit is not passed by one doubling.
        let largest = tables.iter().copied().max().unwrap_or(0);
        tables.iter().sum::<u64>()
            + 2 * largest
            + handles
            + (self.nimbers.capacity() * std::mem::size_of::<Value>()) as u64
    }

    /// `*n`, built directly: `{*0, ..., *(n-1) | *0, ..., *(n-1)}` is canonical (no option
    /// dominates another, none reverses).
    pub(crate) fn nimber(&mut self, n: u32) -> Value {
        if self.nimbers.is_empty() {
            self.nimbers.push(Value::ZERO);
            self.nimber_of.insert(Value::ZERO, 0);
        }
        while self.nimbers.len() <= n as usize {
            let mut options = self.nimbers.clone();
            options.sort_unstable();
            let k = self.nimbers.len() as u32;
            let v = self.intern(Form::Options {
                left: options.clone().into(),
                right: options.into(),
            });
            self.nimbers.push(v);
            self.nimber_of.insert(v, k);
        }
        self.nimbers[n as usize]
    }

    pub(crate) fn form(&self, v: Value) -> &Form {
        &self.forms[v.0 as usize]
    }

    pub(crate) fn number(&mut self, d: Dyadic) -> Value {
        self.intern(Form::Number(d))
    }

    pub(crate) fn as_number(&self, v: Value) -> Option<Dyadic> {
        match self.form(v) {
            Form::Number(d) => Some(*d),
            Form::Options { .. } => None,
        }
    }

    /// The Left options of the canonical form.
    pub(crate) fn left(&mut self, v: Value) -> Vec<Value> {
        match self.form(v) {
            Form::Number(d) => {
                let o = d.left_option();
                o.map(|d| self.number(d)).into_iter().collect()
            }
            Form::Options { left, .. } => left.to_vec(),
        }
    }

    /// The Right options of the canonical form.
    pub(crate) fn right(&mut self, v: Value) -> Vec<Value> {
        match self.form(v) {
            Form::Number(d) => {
                let o = d.right_option();
                o.map(|d| self.number(d)).into_iter().collect()
            }
            Form::Options { right, .. } => right.to_vec(),
        }
    }

    pub(crate) fn relation(&mut self, a: Value, b: Value) -> Relation {
        if a == b {
            return Relation::Equal;
        }
        match (self.leq_v(a, b), self.leq_v(b, a)) {
            (true, true) => Relation::Equal,
            (true, false) => Relation::Less,
            (false, true) => Relation::Greater,
            (false, false) => Relation::Confused,
        }
    }
}

impl Value {
    /// The game 0 (`{|}`).
    pub const ZERO: Value = Value(0);

    /// A number.
    pub fn number(d: Dyadic) -> Value {
        store().number(d)
    }

    /// An integer.
    pub fn integer(n: i64) -> Value {
        Value::number(Dyadic::integer(n))
    }

    /// The nimber `*n`.
    ///
    /// # Errors
    /// Never for `n` small enough to build (kept fallible like every constructor).
    pub fn nimber(n: u32) -> Result<Value, CgtError> {
        Ok(store().nimber(n))
    }

    /// The canonical form of `{left | right}` for options already in canonical form: dominated
    /// options removed, reversible options bypassed, numbers recognised.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when a number outgrows [`Dyadic`].
    pub fn from_options(left: &[Value], right: &[Value]) -> Result<Value, CgtError> {
        store().canonical(left.to_vec(), right.to_vec())
    }

    /// The Left options of the canonical form (a number `x` shows its canonical options).
    pub fn left_options(self) -> Vec<Value> {
        store().left(self)
    }

    /// The Right options of the canonical form.
    pub fn right_options(self) -> Vec<Value> {
        store().right(self)
    }

    /// The number this game equals, if it is one.
    pub fn as_number(self) -> Option<Dyadic> {
        store().as_number(self)
    }

    /// `G + H`, the disjunctive sum.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when a number outgrows [`Dyadic`].
    pub fn checked_add(self, other: Value) -> Result<Value, CgtError> {
        store().add_v(self, other)
    }

    /// The sum of many games (0 for none).
    ///
    /// # Errors
    /// As [`Value::checked_add`].
    pub fn sum(values: &[Value]) -> Result<Value, CgtError> {
        let mut s = store();
        values
            .iter()
            .try_fold(Value::ZERO, |acc, &v| s.add_v(acc, v))
    }

    /// `G - H`.
    ///
    /// # Errors
    /// As [`Value::checked_add`].
    pub fn checked_sub(self, other: Value) -> Result<Value, CgtError> {
        let mut s = store();
        let n = s.neg_v(other);
        s.add_v(self, n)
    }

    /// `G <= H`.
    pub fn leq(self, other: Value) -> bool {
        store().leq_v(self, other)
    }

    /// `<`, `=`, `>` or `||`.
    pub fn relation(self, other: Value) -> Relation {
        store().relation(self, other)
    }

    /// The game's order as an [`Ordering`], `None` when confused.
    pub fn partial_cmp_game(self, other: Value) -> Option<Ordering> {
        match self.relation(other) {
            Relation::Less => Some(Ordering::Less),
            Relation::Equal => Some(Ordering::Equal),
            Relation::Greater => Some(Ordering::Greater),
            Relation::Confused => None,
        }
    }

    /// How many positions the canonical form has: itself and its followers, each once, a
    /// number counted as one position (its own options are not stored). O(positions).
    pub fn positions(self) -> usize {
        let s = store();
        let mut seen = std::collections::HashSet::from([self]);
        let mut stack = vec![self];
        while let Some(v) = stack.pop() {
            if let Form::Options { left, right } = s.form(v) {
                for &o in left.iter().chain(right.iter()) {
                    if seen.insert(o) {
                        stack.push(o);
                    }
                }
            }
        }
        seen.len()
    }

    /// L, R, N or P.
    pub fn outcome(self) -> OutcomeClass {
        match store().relation(self, Value::ZERO) {
            Relation::Greater => OutcomeClass::L,
            Relation::Less => OutcomeClass::R,
            Relation::Equal => OutcomeClass::P,
            Relation::Confused => OutcomeClass::N,
        }
    }

    /// Left's and Right's stops: the numbers reached when both play on until a number is
    /// reached, Left (resp. Right) moving first.
    pub fn stops(self) -> (Dyadic, Dyadic) {
        let mut s = store();
        (s.stop(self, true), s.stop(self, false))
    }

    /// Mean and temperature of any short game, from its thermograph
    /// ([`Value::thermograph`]): for a number `x = m/2^k` the mean is `x` and the temperature
    /// `-1/2^k` (`-1` for an integer: CGSuite's convention); a number plus an infinitesimal has
    /// temperature 0; a switch `{a | b}` of numbers `a > b` has mean `(a + b) / 2` and
    /// temperature `(a - b) / 2`.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when a wall of the thermograph outgrows [`Dyadic`].
    pub fn mean_and_temperature(self) -> Result<(Dyadic, Dyadic), CgtError> {
        let t = self.thermograph()?;
        Ok((t.mean(), t.temperature()))
    }
}

impl std::ops::Neg for Value {
    type Output = Value;

    /// `-G`: Left and Right swapped.
    fn neg(self) -> Value {
        store().neg_v(self)
    }
}

impl Store {
    /// Left's (`left_first`) or Right's stop, memoized.
    pub(crate) fn stop(&mut self, v: Value, left_first: bool) -> Dyadic {
        if let Some(d) = self.as_number(v) {
            return d;
        }
        if let Some(&d) = self.stops.get(&(v, left_first)) {
            return d;
        }
        let opts = if left_first {
            self.left(v)
        } else {
            self.right(v)
        };
        let stops = opts.into_iter().map(|o| self.stop(o, !left_first));
        let d = if left_first { stops.max() } else { stops.min() }.unwrap_or(Dyadic::ZERO);
        self.stops.insert((v, left_first), d);
        d
    }
}
