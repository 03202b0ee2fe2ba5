//! AIGER 1.9 files (<https://fmv.jku.at/aiger/FORMAT.aiger>): ASCII (`aag`) and binary (`aig`),
//! written ([`write_aiger`]) and read ([`parse_aiger`]).
//!
//! Written: the header `aag M I L O A` (`aig` for binary), inputs, latches (`lit next`: reset
//! 0, AIGER's default), outputs, AND gates (`lhs rhs0 rhs1`, `lhs > rhs0 >= rhs1`), the symbol
//! table (`i0 name`, `l0 name`, `o0 name`) and a comment. Read: both formats, with AIGER 1.9's
//! optional reset values (0, 1; an uninitialised latch is refused), ASCII gates in any order
//! as long as they form no cycle; bad-state, constraint, justice and fairness sections are
//! refused (a controller has none). Errors name the line (the byte offset in binary gates).

use std::io::{self, Write};

use zermelo::io::{ErrorKind, ParseError};

use crate::aig::{Aig, Lit};

/// The most variables (AIGER's M) accepted when reading: 2^28.
pub const MAX_AIGER_VARS: u64 = 1 << 28;

/// Writes `aig` as ASCII AIGER (`binary = false`) or binary AIGER, with `comment` lines.
///
/// # Errors
/// Those of `out`.
pub fn write_aiger(out: &mut dyn Write, aig: &Aig, binary: bool, comment: &str) -> io::Result<()> {
    let (i, l, o, a) = (
        aig.inputs,
        aig.latch_count(),
        aig.outputs.len(),
        aig.ands.len(),
    );
    let kind = if binary { "aig" } else { "aag" };
    writeln!(out, "{kind} {} {i} {l} {o} {a}", aig.max_var())?;
    if !binary {
        for k in 0..i {
            writeln!(out, "{}", aig.input(k))?;
        }
    }
    for k in 0..l {
        let reset = if aig.latch_reset[k as usize] {
            " 1"
        } else {
            ""
        };
        if binary {
            writeln!(out, "{}{reset}", aig.latch_next[k as usize])?;
        } else {
            writeln!(
                out,
                "{} {}{reset}",
                aig.latch(k),
                aig.latch_next[k as usize]
            )?;
        }
    }
    for &lit in &aig.outputs {
        writeln!(out, "{lit}")?;
    }
    let first = aig.first_and();
    for (g, &(x, y)) in aig.ands.iter().enumerate() {
        let lhs = 2 * (first + g as u32);
        let (x, y) = if x >= y { (x, y) } else { (y, x) };
        if binary {
            put_delta(out, lhs - x)?;
            put_delta(out, x - y)?;
        } else {
            writeln!(out, "{lhs} {x} {y}")?;
        }
    }
    let symbols = [
        ('i', &aig.input_names),
        ('l', &aig.latch_names),
        ('o', &aig.output_names),
    ];
    for (c, names) in symbols {
        for (k, name) in names.iter().enumerate() {
            if !name.is_empty() {
                writeln!(out, "{c}{k} {}", name.replace('\n', " "))?;
            }
        }
    }
    writeln!(out, "c")?;
    for line in comment.lines() {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn put_delta(out: &mut dyn Write, mut x: u32) -> io::Result<()> {
    while x >= 0x80 {
        out.write_all(&[(x & 0x7f) as u8 | 0x80])?;
        x >>= 7;
    }
    out.write_all(&[x as u8])
}

/// Reads an ASCII or binary AIGER circuit (module docs).
///
/// # Errors
/// [`ParseError`] naming `source`, the line and what was expected.
pub fn parse_aiger(bytes: &[u8], source: &str) -> Result<Aig, ParseError> {
    Reader {
        bytes,
        at: 0,
        line: 0,
        source,
    }
    .read()
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u64,
    source: &'a str,
}

impl<'a> Reader<'a> {
    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.source, self.line.max(1), message)
    }

    /// The next line's text (without its newline); `None` at the end.
    fn next_line(&mut self) -> Option<&'a [u8]> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let bytes: &'a [u8] = self.bytes;
        let rest = &bytes[self.at..];
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.at += (end + 1).min(rest.len());
        self.line += 1;
        Some(&rest[..end])
    }

    /// A line of `count` unsigned numbers.
    fn numbers(&mut self, count: usize, what: &str) -> Result<Vec<u64>, ParseError> {
        let line = self
            .next_line()
            .ok_or_else(|| self.error(format!("expected {what}, found the end of the file")))
            .map_err(|e| e.with_kind(ErrorKind::Truncated))?;
        let text = String::from_utf8_lossy(line);
        let parts: Vec<&str> = text.split_ascii_whitespace().collect();
        let values: Option<Vec<u64>> = parts.iter().map(|p| p.parse().ok()).collect();
        match values {
            Some(v) if v.len() == count || (what == "a latch" && v.len() == count + 1) => Ok(v),
            _ => Err(self.error(format!("expected {what}, found {:?}", text.trim()))),
        }
    }

    fn read(mut self) -> Result<Aig, ParseError> {
        let header = self
            .next_line()
            .ok_or_else(|| self.error("empty file: expected the header aag M I L O A"))?;
        let text = String::from_utf8_lossy(header).into_owned();
        let parts: Vec<&str> = text.split_ascii_whitespace().collect();
        let binary = match parts.first() {
            Some(&"aag") => false,
            Some(&"aig") => true,
            _ => return Err(self.error(format!("expected aag or aig M I L O A, found {text:?}"))),
        };
        let numbers: Option<Vec<u64>> = parts[1..].iter().map(|p| p.parse().ok()).collect();
        let numbers = numbers
            .filter(|n| (5..=9).contains(&n.len()))
            .ok_or_else(|| self.error(format!("expected aag M I L O A, found {text:?}")))?;
        let [m, i, l, o, a] = [numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]];
        if numbers[5..].iter().any(|&x| x != 0) {
            return Err(self.error(
                "bad-state, constraint, justice or fairness properties: a controller has none",
            ));
        }
        if m > MAX_AIGER_VARS {
            return Err(self
                .error(format!(
                    "M = {m}: at most MAX_AIGER_VARS = {MAX_AIGER_VARS} variables"
                ))
                .with_kind(ErrorKind::TooBig));
        }
        // Every item needs at least two bytes (but the inputs of a binary file are implicit and
        // take none), and a variable beyond the items is never used: refuse counts the file
        // cannot hold before allocating for them (and before adding them up could overflow).
        let room = self.bytes.len() as u64;
        let written_inputs = if binary { 0 } else { i };
        if [written_inputs, l, o, a].iter().any(|&x| x > room) {
            return Err(self
                .error("the header counts more items than the file can hold")
                .with_kind(ErrorKind::Truncated));
        }
        if i > m {
            return Err(self.error(format!("M = {m} but I = {i}")));
        }
        let defined = i + l + a;
        if defined > m || (binary && defined != m) {
            return Err(self.error(format!("M = {m} but I + L + A = {defined}")));
        }
        if written_inputs + l + a + o > room || m > defined + room {
            return Err(self
                .error("the header counts more items than the file can hold")
                .with_kind(ErrorKind::Truncated));
        }
        let mut aig = Aig::new(i as u32, l as u32);
        let max_lit = 2 * m + 1;
        let lit_ok = |x: u64| x <= max_lit;
        // Inputs (ASCII): any even literal, each variable once; mapped to 1..=I.
        let mut var_map: Vec<u32> = vec![u32::MAX; (m + 1) as usize];
        var_map[0] = 0;
        let define = |me: &Self, var: u64, to: u32, map: &mut Vec<u32>| {
            if var == 0 || var > m || map[var as usize] != u32::MAX {
                return Err(me.error(format!("variable {var} defined twice or out of range")));
            }
            map[var as usize] = to;
            Ok(())
        };
        for k in 0..i {
            if binary {
                var_map[(k + 1) as usize] = (k + 1) as u32;
            } else {
                let v = self.numbers(1, "an input literal")?[0];
                if v % 2 == 1 {
                    return Err(self.error(format!("input literal {v} is negated")));
                }
                define(&self, v / 2, (k + 1) as u32, &mut var_map)?;
            }
        }
        let mut latch_next_raw = Vec::with_capacity(l as usize);
        for k in 0..l {
            let fields = self.numbers(if binary { 1 } else { 2 }, "a latch")?;
            let (lhs, rest) = if binary {
                (2 * (i + k + 1), &fields[..])
            } else {
                (fields[0], &fields[1..])
            };
            if lhs % 2 == 1 || !lit_ok(rest[0]) {
                return Err(self.error(format!("bad latch {fields:?}")));
            }
            if binary {
                var_map[(i + k + 1) as usize] = (i + k + 1) as u32;
            } else {
                define(&self, lhs / 2, (i + k + 1) as u32, &mut var_map)?;
            }
            let reset = match rest.get(1) {
                None | Some(0) => false,
                Some(1) => true,
                Some(&r) if r == lhs => {
                    return Err(self.error("an uninitialised latch: expected reset 0 or 1"))
                }
                Some(r) => return Err(self.error(format!("latch reset {r}: expected 0 or 1"))),
            };
            aig.latch_reset[k as usize] = reset;
            latch_next_raw.push(rest[0]);
        }
        let mut outputs_raw = Vec::with_capacity(o as usize);
        for _ in 0..o {
            let x = self.numbers(1, "an output literal")?[0];
            if !lit_ok(x) {
                return Err(self.error(format!("output literal {x} beyond M = {m}")));
            }
            outputs_raw.push(x);
        }
        let gates = if binary {
            self.binary_gates(i + l, a)?
        } else {
            let mut gates = Vec::with_capacity(a as usize);
            for _ in 0..a {
                let g = self.numbers(3, "an AND gate lhs rhs0 rhs1")?;
                if g[0] % 2 == 1 || !lit_ok(g[1]) || !lit_ok(g[2]) {
                    return Err(self.error(format!("bad AND gate {g:?}")));
                }
                define(&self, g[0] / 2, u32::MAX - 1, &mut var_map)?;
                gates.push((g[0] / 2, g[1], g[2], self.line));
            }
            gates
        };
        self.symbols(&mut aig)?;
        // Gates in an order where each follows its operands (ASCII files may list any order).
        let order = topological(&gates, &var_map, self.source)?;
        let first = aig.first_and();
        for (k, &g) in order.iter().enumerate() {
            var_map[gates[g].0 as usize] = first + k as u32;
        }
        let tr = |map: &[u32], x: u64| -> Result<Lit, ParseError> {
            let v = map[(x / 2) as usize];
            if v == u32::MAX {
                return Err(ParseError::whole(
                    self.source,
                    format!("literal {x} uses variable {} that is never defined", x / 2),
                ));
            }
            Ok(2 * v + (x & 1) as u32)
        };
        for &g in &order {
            let (_, x, y, _) = gates[g];
            let (x, y) = (tr(&var_map, x)?, tr(&var_map, y)?);
            // Operands in the order the writer and the hashing use: the larger first.
            aig.ands.push((x.max(y), x.min(y)));
        }
        for (k, &x) in latch_next_raw.iter().enumerate() {
            aig.latch_next[k] = tr(&var_map, x)?;
        }
        aig.outputs = outputs_raw
            .iter()
            .map(|&x| tr(&var_map, x))
            .collect::<Result<_, _>>()?;
        aig.output_names.resize(o as usize, String::new());
        aig.rehash();
        Ok(aig)
    }

    fn binary_gates(
        &mut self,
        defined: u64,
        a: u64,
    ) -> Result<Vec<(u64, u64, u64, u64)>, ParseError> {
        // The gates' bytes follow the outputs' lines: errors name the line they start on.
        self.line += 1;
        let mut gates = Vec::with_capacity(a as usize);
        for k in 0..a {
            let lhs = 2 * (defined + k + 1);
            let d0 = self.delta()?;
            let d1 = self.delta()?;
            if d0 > lhs || d1 > lhs - d0 || d0 == 0 {
                return Err(self.error(format!("AND gate {lhs}: bad deltas {d0}, {d1}")));
            }
            gates.push((lhs / 2, lhs - d0, lhs - d0 - d1, self.line));
        }
        Ok(gates)
    }

    fn delta(&mut self) -> Result<u64, ParseError> {
        let mut x: u64 = 0;
        for shift in (0..).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or_else(|| {
                self.error("the binary AND gates end early")
                    .with_kind(ErrorKind::Truncated)
            })?;
            self.at += 1;
            if shift > 56 {
                return Err(self.error("a binary delta too large"));
            }
            x |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                break;
            }
        }
        Ok(x)
    }

    /// The symbol table (`i0 name`, `l0 name`, `o0 name`) up to the comment section.
    fn symbols(&mut self, aig: &mut Aig) -> Result<(), ParseError> {
        aig.output_names.clear();
        while let Some(line) = self.next_line() {
            let text = String::from_utf8_lossy(line).trim_end().to_string();
            if text == "c" {
                break;
            }
            if text.is_empty() {
                continue;
            }
            let first = text.chars().next().map_or(0, char::len_utf8);
            let (kind, rest) = text.split_at(first);
            let (index, name) = rest.split_once(' ').unwrap_or((rest, ""));
            let index: usize = index.parse().map_err(|_| {
                self.error(format!("expected a symbol i0/l0/o0 name, found {text:?}"))
            })?;
            let names = match kind {
                "i" => &mut aig.input_names,
                "l" => &mut aig.latch_names,
                "o" => &mut aig.output_names,
                "b" | "c" | "j" | "f" => continue,
                _ => return Err(self.error(format!("expected a symbol, found {text:?}"))),
            };
            if kind == "o" && names.len() <= index && index < 1 << 20 {
                names.resize(index + 1, String::new());
            }
            let slot = names
                .get_mut(index)
                .ok_or_else(|| self.error(format!("symbol {kind}{index}: no such {kind}")))?;
            *slot = name.to_string();
        }
        Ok(())
    }
}

/// The gates in an order where each comes after the gates it reads; a cycle is an error.
fn topological(
    gates: &[(u64, u64, u64, u64)],
    var_map: &[u32],
    source: &str,
) -> Result<Vec<usize>, ParseError> {
    let mut index: crate::bdd::FxMap<u64, usize> = crate::bdd::FxMap::default();
    for (k, g) in gates.iter().enumerate() {
        index.insert(g.0, k);
    }
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; gates.len()];
    let mut order = Vec::with_capacity(gates.len());
    for root in 0..gates.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0u8)];
        state[root] = 1;
        while let Some(&mut (g, ref mut operand)) = stack.last_mut() {
            if *operand == 2 {
                state[g] = 2;
                order.push(g);
                stack.pop();
                continue;
            }
            let x = if *operand == 0 {
                gates[g].1
            } else {
                gates[g].2
            };
            *operand += 1;
            let v = x / 2;
            if var_map.get(v as usize) != Some(&(u32::MAX - 1)) {
                continue; // an input, a latch, the constant or undefined (reported later)
            }
            let h = index[&v];
            match state[h] {
                0 => {
                    state[h] = 1;
                    stack.push((h, 0));
                }
                1 => {
                    return Err(ParseError::at(
                        source,
                        gates[h].3,
                        format!("the AND gates form a cycle through variable {v}"),
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aig::not;

    fn sample() -> Aig {
        let mut a = Aig::new(2, 1);
        let (x, y, l) = (a.input(0), a.input(1), a.latch(0));
        let g = a.and(x, not(l));
        let h = a.or(g, y);
        a.latch_next[0] = h;
        a.outputs = vec![g, not(h), 1];
        a.input_names = vec!["x".into(), "y".into()];
        a.output_names = vec!["g".into(), "h".into(), "one".into()];
        a
    }

    #[test]
    fn both_formats_round_trip() {
        let a = sample();
        for binary in [false, true] {
            let mut bytes = Vec::new();
            write_aiger(&mut bytes, &a, binary, "made by a test").unwrap();
            let b = parse_aiger(&bytes, "t").unwrap();
            assert_eq!(b, a, "{}", String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn binary_inputs_take_no_bytes() {
        // Found by the fuzzer: a binary circuit with more inputs than its file has bytes (they
        // are implicit) was refused as truncated once written back.
        let text = b"aig 22 22 0 1 0\n2\n";
        let a = parse_aiger(text, "t").unwrap();
        assert_eq!(a.outputs.len(), 1);
        let mut bytes = Vec::new();
        write_aiger(&mut bytes, &a, true, "").unwrap();
        assert_eq!(parse_aiger(&bytes, "again").unwrap(), a);
        let e = parse_aiger(b"aig 3 18446744073709551615 0 0 0\n", "t").unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
    }

    #[test]
    fn gates_in_any_order_but_no_cycles() {
        let text = "aag 4 1 0 1 2\n2\n8\n8 6 2\n6 3 2\ni0 x\no0 out\n";
        let a = parse_aiger(text.as_bytes(), "t").unwrap();
        assert_eq!(a.ands.len(), 2);
        assert_eq!(a.output_names, ["out"]);
        let cycle = "aag 3 1 0 1 2\n2\n6\n6 4 2\n4 6 2\n";
        let e = parse_aiger(cycle.as_bytes(), "t").unwrap_err();
        assert!(e.message.contains("cycle"), "{e}");
    }

    #[test]
    fn bad_files_name_the_line() {
        let cases: &[(&str, Option<u64>)] = &[
            ("aag 1 1 0 1 0\n2\n9\n", Some(3)),
            ("aag 1 1 0 1\n", Some(1)),
            ("aag 2 1 1 0 0\n2\n4 2 4\n", Some(3)),
            ("aag 1 1 0 0 0 1\n2\n", Some(1)),
            ("aag 3 1 0 1 1\n2\n6\n6 2\n", Some(4)),
            ("aig 2 1 0 1 1\n4\n\x05", Some(3)),
            // Found by the fuzzer: a symbol whose first byte starts a multi-byte character; a
            // count whose sum with the others overflows.
            ("aag 2 1 1 1 0\n2\n4 2\n4\ni0 req\n\u{fffd}0 ack\n", Some(6)),
            ("aag 4 1 0 18446744073709551615 2\n2\n", Some(1)),
        ];
        for &(text, line) in cases {
            let e = parse_aiger(text.as_bytes(), "bad.aag").unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }
}
