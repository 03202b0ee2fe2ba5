//! The limits of the method: how large a number may grow, and how much work a value written in
//! notation may ask for. Errors name them ([`CgtError`](crate::CgtError)).

/// Largest exponent `k` of a denominator `2^k`.
pub const MAX_EXP: u32 = 100;
/// Largest number of bits of a numerator's magnitude.
pub const MAX_BITS: u32 = 110;

/// The steps (sums and comparisons of games, each call counted, memoized or not) one value
/// written in notation may take by default: under half a second in a release build (30-45 ns a
/// step on an AMD EPYC Zen 3: `2*30+-30*30` takes 7.4 million, `2*52+-52*52` 141 million and
/// 5 s).
/// [`Value::parse_with_work_limit`](crate::Value::parse_with_work_limit) sets another. Games given as graphs have no such limit
/// (their size is the input's, and the memory limit applies).
pub const NOTATION_WORK: u64 = 10_000_000;
