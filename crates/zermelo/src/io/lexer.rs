//! A line-oriented tokenizer for the whitespace-separated text formats.
//!
//! Lines end in `\n` (a trailing `\r` is whitespace); `#` starts a comment that runs to the end
//! of the line; blank and comment-only lines are skipped. Numbers are parsed straight from the
//! bytes, without allocating.

use super::{ErrorKind, ParseError};

/// Splits a buffer into lines of tokens, tracking line numbers.
pub(crate) struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u64,
    pub(crate) source: &'a str,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(bytes: &'a [u8], source: &'a str) -> Self {
        Lexer {
            bytes,
            pos: 0,
            line: 0,
            source,
        }
    }

    /// The number of the line last returned (0 before the first).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// The byte offset just past the line last returned.
    pub(crate) fn offset(&self) -> usize {
        self.pos.min(self.bytes.len())
    }

    /// The line number to blame at end of input.
    pub(crate) fn eof_line(&self) -> u64 {
        self.line.max(1)
    }

    /// The next line with content, its comment removed; `None` at end of input.
    pub(crate) fn next_line(&mut self) -> Option<&'a [u8]> {
        while self.pos < self.bytes.len() {
            let rest = &self.bytes[self.pos..];
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            self.pos += end + 1;
            self.line += 1;
            let mut line = &rest[..end];
            if let Some(hash) = line.iter().position(|&b| b == b'#') {
                line = &line[..hash];
            }
            if line.iter().any(|b| !is_space(*b)) {
                return Some(line);
            }
        }
        None
    }

    /// Parses a line of exactly `N` non-negative integers.
    pub(crate) fn numbers<const N: usize>(
        &self,
        line: &[u8],
        what: &str,
    ) -> Result<[u64; N], ParseError> {
        let mut out = [0u64; N];
        let mut count = 0;
        let mut i = 0;
        while i < line.len() {
            if is_space(line[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < line.len() && !is_space(line[i]) {
                i += 1;
            }
            let token = &line[start..i];
            if count == N {
                return Err(self.error(format!(
                    "expected {what}, found an extra token {:?}",
                    lossy(token)
                )));
            }
            out[count] = self.number(token, what)?;
            count += 1;
        }
        if count < N {
            return Err(self.error(format!(
                "expected {what}, found only {count} number{}",
                if count == 1 { "" } else { "s" }
            )));
        }
        Ok(out)
    }

    fn number(&self, token: &[u8], what: &str) -> Result<u64, ParseError> {
        let mut value: u64 = 0;
        for &b in token {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                return Err(self.error(format!(
                    "expected {what}, found {:?} (not a non-negative integer)",
                    lossy(token)
                )));
            }
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(digit)))
                .ok_or_else(|| {
                    self.error(format!("number {:?} is too large", lossy(token)))
                        .with_kind(ErrorKind::OutOfRange)
                })?;
        }
        Ok(value)
    }

    /// An error on the current line.
    pub(crate) fn error(&self, message: String) -> ParseError {
        ParseError::at(self.source, self.line.max(1), message)
    }
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// A token for an error message, shortened if long.
pub fn lossy(token: &[u8]) -> String {
    let s = String::from_utf8_lossy(&token[..token.len().min(40)]).into_owned();
    if token.len() > 40 {
        s + "..."
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_blanks_and_comments() {
        let text = b"# header next\n\n 3 4 # trailing\r\n\t\n5 6";
        let mut lx = Lexer::new(text, "t");
        let l = lx.next_line().unwrap();
        assert_eq!(lx.line(), 3);
        assert_eq!(lx.numbers::<2>(l, "N M").unwrap(), [3, 4]);
        let l = lx.next_line().unwrap();
        assert_eq!(lx.line(), 5);
        assert_eq!(lx.numbers::<2>(l, "u v").unwrap(), [5, 6]);
        assert!(lx.next_line().is_none());
    }

    #[test]
    fn reports_bad_tokens() {
        let mut lx = Lexer::new(b"1 x\n1 2 3\n1\n99999999999999999999 1", "f.txt");
        let l = lx.next_line().unwrap();
        let e = lx.numbers::<2>(l, "an edge `u v`").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.txt:1: expected an edge `u v`, found \"x\" (not a non-negative integer)"
        );
        let l = lx.next_line().unwrap();
        assert!(lx
            .numbers::<2>(l, "u v")
            .unwrap_err()
            .message
            .contains("extra token"));
        let l = lx.next_line().unwrap();
        assert!(lx
            .numbers::<2>(l, "u v")
            .unwrap_err()
            .message
            .contains("only 1 number"));
        let l = lx.next_line().unwrap();
        assert!(lx
            .numbers::<2>(l, "u v")
            .unwrap_err()
            .message
            .contains("too large"));
    }
}
