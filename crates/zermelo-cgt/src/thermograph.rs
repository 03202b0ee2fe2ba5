//! Thermographs of short games: the walls of a game cooled by every temperature `t >= -1`, its
//! mean (the mast's value) and its temperature (where the mast starts).
//!
//! Reference: Berlekamp, Conway and Guy, *Winning Ways* ch. 6; Albert, Nowakowski and Wolfe,
//! *Lessons in Play* ch. 6; Siegel, *Combinatorial Game Theory* ch. II.5. The construction, by
//! induction on the canonical form:
//!
//! * an integer `n` is a mast at `n` from `t = -1` (temperature `-1`, CGSuite's convention);
//! * otherwise the **left scaffold** is the greatest right wall of the Left options, tilted by
//!   `-t` (Left pays `t` for moving), and the **right scaffold** the least left wall of the Right
//!   options, tilted by `+t`; the walls follow the scaffolds up to the least temperature `T`
//!   where they meet, and above `T` both are the vertical mast at their meeting value, the
//!   mean. `T` is the temperature. A non-integer number `m/2^k` comes out of the same
//!   construction with temperature `-1/2^k`, as CGSuite has it.
//!
//! Walls are [`Trajectory`]s: continuous piecewise-linear functions of `t` on `[-1, inf)`, with
//! exact dyadic breakpoints. A left wall only moves towards smaller values as `t` grows (slopes
//! `-1` and `0`), a right wall towards larger ones (`+1` and `0`), so scaffolds cross once.
//!
//! **Cost.** One scaffold construction per follower of the canonical form (memoized), each
//! linear in the breakpoints of its options' walls.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Neg;

use crate::error::CgtError;
use crate::{Dyadic, Value};

/// One linear piece of a [`Trajectory`]: from temperature `from` on, `value + slope * (t - from)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Piece {
    from: Dyadic,
    value: Dyadic,
    slope: i32,
}

/// A continuous piecewise-linear function of the temperature `t` on `[-1, inf)`: the wall or
/// scaffold of a thermograph. Exact (dyadic breakpoints and values).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trajectory {
    /// Sorted by `from`, the first from `-1`; neighbours have different slopes.
    pieces: Vec<Piece>,
}

fn minus_one() -> Dyadic {
    Dyadic::integer(-1)
}

fn sub(a: Dyadic, b: Dyadic) -> Result<Dyadic, CgtError> {
    a.checked_add(b.neg())
}

/// `k * d` for a small integer `k`.
fn times(d: Dyadic, k: i32) -> Result<Dyadic, CgtError> {
    let mut s = Dyadic::ZERO;
    for _ in 0..k.unsigned_abs() {
        s = s.checked_add(d)?;
    }
    Ok(if k < 0 { s.neg() } else { s })
}

/// `d / k` for `k` a power of two (up to sign): slopes of walls differ by 1 or 2.
fn divided(d: Dyadic, k: i32) -> Result<Dyadic, CgtError> {
    let m = k.unsigned_abs();
    if !m.is_power_of_two() {
        return Err(CgtError::TooBig(format!(
            "a thermograph's lines crossed with slopes {k} apart (expected a power of two)"
        )));
    }
    let mut q = d;
    for _ in 0..m.trailing_zeros() {
        q = q.half()?;
    }
    Ok(if k < 0 { q.neg() } else { q })
}

impl Piece {
    fn at(&self, t: Dyadic) -> Result<Dyadic, CgtError> {
        self.value
            .checked_add(times(sub(t, self.from)?, self.slope)?)
    }
}

impl Trajectory {
    /// The constant `x` (a vertical mast at `x`).
    pub fn constant(x: Dyadic) -> Trajectory {
        Trajectory {
            pieces: vec![Piece {
                from: minus_one(),
                value: x,
                slope: 0,
            }],
        }
    }

    /// The piece in force at `t` (the last starting at or below it).
    fn piece_at(&self, t: Dyadic) -> &Piece {
        let i = self.pieces.partition_point(|p| p.from <= t);
        &self.pieces[i.saturating_sub(1)]
    }

    /// The value at temperature `t >= -1`.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when the value outgrows [`Dyadic`].
    pub fn value_at(&self, t: Dyadic) -> Result<Dyadic, CgtError> {
        self.piece_at(t).at(t)
    }

    /// The breakpoints `(t, value)`: `t = -1` first, then every temperature where the slope
    /// changes. Above the last one the function continues with [`Trajectory::final_slope`].
    pub fn points(&self) -> Vec<(Dyadic, Dyadic)> {
        self.pieces.iter().map(|p| (p.from, p.value)).collect()
    }

    /// The slope (value per degree) above the last breakpoint: 0 for a wall's mast.
    pub fn final_slope(&self) -> i32 {
        self.pieces.last().map_or(0, |p| p.slope)
    }

    /// `self(t) + k t` (the slope of every piece changed by `k`).
    fn tilted(&self, k: i32) -> Result<Trajectory, CgtError> {
        let pieces = self
            .pieces
            .iter()
            .map(|p| {
                Ok(Piece {
                    from: p.from,
                    value: p.value.checked_add(times(p.from, k)?)?,
                    slope: p.slope + k,
                })
            })
            .collect::<Result<_, CgtError>>()?;
        Ok(Trajectory { pieces })
    }

    /// Appends a piece, merging it into the last when the line goes on unchanged.
    fn push(pieces: &mut Vec<Piece>, p: Piece) {
        match pieces.last() {
            Some(last) if last.slope == p.slope => {}
            Some(last) if last.from == p.from => {
                *pieces.last_mut().expect("a last piece") = p;
            }
            _ => pieces.push(p),
        }
    }

    /// The temperatures where either function changes slope, in order, from `-1`.
    fn merged_breaks(&self, other: &Trajectory) -> Vec<Dyadic> {
        let mut ts: Vec<Dyadic> = self
            .pieces
            .iter()
            .chain(&other.pieces)
            .map(|p| p.from)
            .collect();
        ts.sort_unstable();
        ts.dedup();
        ts
    }

    /// The pointwise maximum (`max`) or minimum of two trajectories.
    fn envelope(&self, other: &Trajectory, max: bool) -> Result<Trajectory, CgtError> {
        let ts = self.merged_breaks(other);
        let mut pieces = Vec::new();
        for (i, &t) in ts.iter().enumerate() {
            let (a, b) = (self.piece_at(t), other.piece_at(t));
            let (va, vb) = (a.at(t)?, b.at(t)?);
            let line = |p: &Piece, v: Dyadic| Piece {
                from: t,
                value: v,
                slope: p.slope,
            };
            let (pa, pb) = (line(a, va), line(b, vb));
            // Which dominates just above t: by value, ties by slope.
            let better = |x: &Piece, y: &Piece| {
                let by = (x.value, x.slope).cmp(&(y.value, y.slope));
                if max {
                    by.is_ge()
                } else {
                    by.is_le()
                }
            };
            let (first, second) = if better(&pa, &pb) { (pa, pb) } else { (pb, pa) };
            Trajectory::push(&mut pieces, first);
            // They cross inside the interval when `second`'s slope wins and the gap closes
            // before the next breakpoint.
            let overtakes = if max {
                second.slope > first.slope
            } else {
                second.slope < first.slope
            };
            if overtakes && first.value != second.value {
                let gap = sub(first.value, second.value)?;
                let cross = t.checked_add(divided(gap, second.slope - first.slope)?)?;
                if ts.get(i + 1).is_none_or(|&next| cross < next) {
                    let v = first.at(cross)?;
                    Trajectory::push(
                        &mut pieces,
                        Piece {
                            from: cross,
                            value: v,
                            slope: second.slope,
                        },
                    );
                }
            }
        }
        Ok(Trajectory { pieces })
    }

    /// The pointwise maximum.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when a value outgrows [`Dyadic`].
    pub fn max(&self, other: &Trajectory) -> Result<Trajectory, CgtError> {
        self.envelope(other, true)
    }

    /// The pointwise minimum.
    ///
    /// # Errors
    /// As [`Trajectory::max`].
    pub fn min(&self, other: &Trajectory) -> Result<Trajectory, CgtError> {
        self.envelope(other, false)
    }

    /// The function up to `t` (inclusive), then constant at its value there.
    fn cut_at(&self, t: Dyadic) -> Result<Trajectory, CgtError> {
        let mut pieces: Vec<Piece> = self.pieces.iter().copied().filter(|p| p.from < t).collect();
        let v = self.value_at(t)?;
        Trajectory::push(
            &mut pieces,
            Piece {
                from: t,
                value: v,
                slope: 0,
            },
        );
        if pieces.is_empty() || pieces[0].from != minus_one() {
            pieces.insert(
                0,
                Piece {
                    from: minus_one(),
                    value: v,
                    slope: 0,
                },
            );
        }
        Ok(Trajectory { pieces })
    }

    /// `-self`.
    fn negated(&self) -> Trajectory {
        Trajectory {
            pieces: self
                .pieces
                .iter()
                .map(|p| Piece {
                    from: p.from,
                    value: p.value.neg(),
                    slope: -p.slope,
                })
                .collect(),
        }
    }
}

/// The thermograph of a short game: its two walls, its mean and its temperature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Thermograph {
    left: Trajectory,
    right: Trajectory,
    mean: Dyadic,
    temperature: Dyadic,
}

impl Thermograph {
    /// A vertical mast at the integer-valued `x` from `t = -1` (temperature `-1`).
    fn mast(x: Dyadic) -> Thermograph {
        Thermograph {
            left: Trajectory::constant(x),
            right: Trajectory::constant(x),
            mean: x,
            temperature: minus_one(),
        }
    }

    /// The left wall (Left's value when Left moves first in the game cooled by `t`).
    pub fn left_wall(&self) -> &Trajectory {
        &self.left
    }

    /// The right wall.
    pub fn right_wall(&self) -> &Trajectory {
        &self.right
    }

    /// The mean: the value of the mast.
    pub fn mean(&self) -> Dyadic {
        self.mean
    }

    /// The temperature: where the mast starts (`-1` for an integer, `-1/2^k` for a number
    /// `m/2^k`, 0 for a number plus a non-zero infinitesimal).
    pub fn temperature(&self) -> Dyadic {
        self.temperature
    }

    /// The thermograph of `-G`: walls swapped and mirrored.
    pub fn negated(&self) -> Thermograph {
        Thermograph {
            left: self.right.negated(),
            right: self.left.negated(),
            mean: self.mean.neg(),
            temperature: self.temperature,
        }
    }

    /// Walls from the scaffolds: they run along the scaffolds up to the least temperature
    /// where the left scaffold is no longer above the right one, then along the mast.
    fn from_scaffolds(left: &Trajectory, right: &Trajectory) -> Result<Thermograph, CgtError> {
        let ts = left.merged_breaks(right);
        let gap = |t: Dyadic| -> Result<(Dyadic, i32), CgtError> {
            let (l, r) = (left.piece_at(t), right.piece_at(t));
            Ok((sub(l.at(t)?, r.at(t)?)?, l.slope - r.slope))
        };
        let mut meet = None;
        for (i, &t) in ts.iter().enumerate() {
            let (g, slope) = gap(t)?;
            if g <= Dyadic::ZERO {
                meet = Some(t);
                break;
            }
            if slope < 0 {
                let cross = t.checked_add(divided(g, -slope)?)?;
                if ts.get(i + 1).is_none_or(|&next| cross < next) {
                    meet = Some(cross);
                    break;
                }
            }
        }
        let Some(t) = meet else {
            // Both scaffolds end with slope -1 and +1 (a game's options have masts), so
            // they always meet.
            return Err(CgtError::TooBig(
                "the scaffolds of a thermograph never met".into(),
            ));
        };
        let (l, r) = (left.value_at(t)?, right.value_at(t)?);
        if t == minus_one() && l < r {
            // A cave at the base: not reached by canonical forms (their scaffolds start with
            // the left one on or above the right one), kept total as CGSuite has it: the mast
            // stands on 0 if 0 is between the scaffolds, else on the one nearer to 0.
            let x = Dyadic::ZERO.max(l).min(r);
            return Ok(Thermograph::mast(x));
        }
        Ok(Thermograph {
            left: left.cut_at(t)?,
            right: right.cut_at(t)?,
            mean: l,
            temperature: t,
        })
    }

    /// A picture of the thermograph in SVG: temperature upwards, values growing to the left
    /// (as *Winning Ways* draws them), one unit the same length on both axes.
    pub fn to_svg(&self, title: &str) -> String {
        svg(self, title)
    }
}

/// Thermographs of values, memoized by canonical form.
#[derive(Default)]
pub struct Thermographs {
    memo: HashMap<Value, Thermograph>,
}

impl Thermographs {
    /// An empty memo.
    pub fn new() -> Thermographs {
        Thermographs::default()
    }

    /// The thermograph of `g`.
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when a wall's value or breakpoint outgrows [`Dyadic`].
    pub fn of(&mut self, g: Value) -> Result<Thermograph, CgtError> {
        if let Some(t) = self.memo.get(&g) {
            return Ok(t.clone());
        }
        let t = match g.as_number() {
            Some(x) if x.is_integer() => Thermograph::mast(x),
            _ => {
                let mut left: Option<Trajectory> = None;
                for o in g.left_options() {
                    let wall = self.of(o)?.right;
                    left = Some(match left {
                        Some(s) => s.max(&wall)?,
                        None => wall,
                    });
                }
                let mut right: Option<Trajectory> = None;
                for o in g.right_options() {
                    let wall = self.of(o)?.left;
                    right = Some(match right {
                        Some(s) => s.min(&wall)?,
                        None => wall,
                    });
                }
                match (left, right) {
                    (Some(l), Some(r)) => {
                        Thermograph::from_scaffolds(&l.tilted(-1)?, &r.tilted(1)?)?
                    }
                    // A game with no options on one side is an integer in canonical form.
                    _ => Thermograph::mast(g.stops().0),
                }
            }
        };
        self.memo.insert(g, t.clone());
        Ok(t)
    }
}

impl Value {
    /// The thermograph of this game (module `thermograph`).
    ///
    /// # Errors
    /// [`CgtError::NumberTooLarge`] when a wall outgrows [`Dyadic`].
    pub fn thermograph(self) -> Result<Thermograph, CgtError> {
        Thermographs::new().of(self)
    }
}

/// `x` as a decimal for a picture (exact dyadics print as fractions elsewhere).
fn float(x: Dyadic) -> f64 {
    x.numerator() as f64 / 2f64.powi(x.exponent() as i32)
}

fn svg(th: &Thermograph, title: &str) -> String {
    // The box: values from the walls at t = -1 and the mast, temperatures from -1 to a unit
    // above the temperature (at least to 1).
    let walls = [th.left_wall(), th.right_wall()];
    let values: Vec<f64> = walls
        .iter()
        .flat_map(|w| w.points())
        .map(|(_, v)| float(v))
        .collect();
    let vmax = values.iter().copied().fold(float(th.mean), f64::max) + 0.5;
    let vmin = values.iter().copied().fold(float(th.mean), f64::min) - 0.5;
    let tmax = (float(th.temperature) + 1.0).max(1.0);
    let (tmin, margin) = (-1.0, 40.0);
    let span = (vmax - vmin).max(tmax - tmin);
    let scale = 320.0 / span;
    let (w, h) = (
        (vmax - vmin) * scale + 2.0 * margin + 20.0,
        (tmax - tmin) * scale + 2.0 * margin + 16.0,
    );
    let x = |v: f64| margin + (vmax - v) * scale;
    let y = |t: f64| margin + (tmax - t) * scale;
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.1} {h:.1}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        escape(title)
    );
    // Axes: t = 0 and t = -1 across, the value 0 upwards (where it is in the box).
    for (t, label) in [(0.0, "t = 0"), (-1.0, "t = -1")] {
        let _ = writeln!(
            out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#bbb\" \
             stroke-dasharray=\"4 3\"/><text x=\"{:.1}\" y=\"{:.1}\" fill=\"#888\">{label}</text>",
            margin / 2.0,
            y(t),
            w - margin / 2.0,
            y(t),
            w - margin + 2.0,
            y(t) - 3.0
        );
    }
    // Integer values under the base, integer temperatures on the right (a dozen at most).
    let base = y(tmin) + 14.0;
    let (lo, hi) = (vmin.ceil() as i64, vmax.floor() as i64);
    let step = ((hi - lo) / 12).max(1);
    for n in (lo..=hi).filter(|n| n % step == 0) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{base:.1}\" fill=\"#666\" text-anchor=\"middle\">{n}</text>",
            x(n as f64)
        );
    }
    let top = tmax.floor() as i64;
    let step = (top / 12).max(1);
    for n in (1..=top).filter(|n| n % step == 0) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#888\">t = {n}</text>",
            w - margin + 2.0,
            y(n as f64) + 4.0
        );
    }
    if (vmin..=vmax).contains(&0.0) {
        let _ = writeln!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{1:.1}\" x2=\"{0:.1}\" y2=\"{2:.1}\" stroke=\"#ddd\"/>",
            x(0.0),
            margin / 2.0,
            h - margin / 2.0
        );
    }
    for (wall, colour) in [(th.left_wall(), "#1f5fbf"), (th.right_wall(), "#bf1f1f")] {
        let mut pts: Vec<(f64, f64)> = wall
            .points()
            .into_iter()
            .map(|(t, v)| (x(float(v)), y(float(t))))
            .collect();
        pts.push((x(float(th.mean)), y(float(th.temperature).max(tmin))));
        let path: Vec<String> = pts.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
            path.join(" ")
        );
    }
    let (mx, mt) = (x(float(th.mean)), y(float(th.temperature)));
    let _ = writeln!(
        out,
        "<line x1=\"{mx:.1}\" y1=\"{mt:.1}\" x2=\"{mx:.1}\" y2=\"{:.1}\" stroke=\"black\" \
         stroke-width=\"2\"/>\n<polygon points=\"{mx:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\"/>",
        margin,
        margin - 8.0,
        mx - 4.0,
        margin,
        mx + 4.0,
        margin
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\">mean {}, temperature {}</text>\n</svg>",
        margin / 2.0,
        h - 4.0,
        th.mean,
        th.temperature
    );
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Dyadic {
        text.parse::<Value>().unwrap().as_number().unwrap()
    }

    fn th(text: &str) -> Thermograph {
        text.parse::<Value>().unwrap().thermograph().unwrap()
    }

    #[test]
    fn envelopes_cross_where_the_lines_do() {
        // -t against t: the max is -t up to 0, then t.
        let a = Trajectory::constant(Dyadic::ZERO).tilted(-1).unwrap();
        let b = Trajectory::constant(Dyadic::ZERO).tilted(1).unwrap();
        let m = a.max(&b).unwrap();
        assert_eq!(
            m.points(),
            vec![(d("-1"), d("1")), (Dyadic::ZERO, Dyadic::ZERO)]
        );
        assert_eq!(m.final_slope(), 1);
        let n = a.min(&b).unwrap();
        assert_eq!(n.value_at(d("-1")).unwrap(), d("-1"));
        assert_eq!(n.value_at(d("3")).unwrap(), d("-3"));
    }

    #[test]
    fn switches_and_numbers() {
        let t = th("+-1");
        assert_eq!((t.mean(), t.temperature()), (Dyadic::ZERO, d("1")));
        assert_eq!(
            t.left_wall().points(),
            vec![(d("-1"), d("2")), (d("1"), d("0"))]
        );
        let t = th("3/8");
        assert_eq!((t.mean(), t.temperature()), (d("3/8"), d("-1/8")));
        let t = th("5");
        assert_eq!((t.mean(), t.temperature()), (d("5"), d("-1")));
        let t = th("*");
        assert_eq!((t.mean(), t.temperature()), (Dyadic::ZERO, Dyadic::ZERO));
    }
}
