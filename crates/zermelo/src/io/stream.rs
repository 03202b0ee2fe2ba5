//! Text read as it arrives: one line at a time, each line checked before the next is read.
//!
//! A pipe, a FIFO or a device has no length to check before reading, and may never end
//! (`yes | zermelo parity -`, `zermelo tb probe --stdin < /dev/zero`). Read through a
//! [`LineReader`], such an input fails on its first bad line, naming it, after holding at most
//! one line ([`MAX_LINE`] bytes): a line longer than that, or one with a NUL byte (no text format
//! has one), is an error at once. [`read_checked`] keeps the lines that passed a format's
//! [`LineCheck`] for the format's parser, which then reads them as it reads a file.
//!
//! Cost: O(bytes), each byte examined once by the line split and once by the check.

use std::io::{BufRead, BufReader, Read};

use super::lexer::Lexer;
use super::{ErrorKind, ParseError};

/// The longest line the line-by-line readers accept, in bytes (16 MiB: a PGSolver vertex with a
/// million successors fits; `/dev/zero` piped through `tr` does not).
pub const MAX_LINE: usize = 16 << 20;

/// Reads lines of at most [`MAX_LINE`] bytes, numbered from 1.
pub struct LineReader<R> {
    reader: BufReader<R>,
    source: String,
    number: u64,
    line: Vec<u8>,
    max_line: usize,
    /// Whether the start of the input has been searched for a NUL byte.
    head_checked: bool,
}

impl<R: Read> LineReader<R> {
    /// A reader of `reader`, named `source` in errors.
    pub fn new(reader: R, source: &str) -> Self {
        LineReader {
            reader: BufReader::with_capacity(1 << 16, reader),
            source: source.to_string(),
            number: 0,
            line: Vec::new(),
            max_line: MAX_LINE,
            head_checked: false,
        }
    }

    /// The same reader with another line-length limit (tests).
    #[must_use]
    pub fn with_max_line(mut self, max_line: usize) -> Self {
        self.max_line = max_line;
        self
    }

    /// The number of the line last returned (0 before the first).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The next line without its `\n` (a final line may lack one), and whether it had one;
    /// `None` at the end of the input.
    ///
    /// # Errors
    /// A read error ([`ErrorKind::Io`]), a line over the limit or a NUL byte (syntax errors on
    /// that line).
    pub fn next_line(&mut self) -> Result<Option<(&[u8], bool)>, ParseError> {
        self.line.clear();
        let number = self.number + 1;
        let ended = loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ParseError::io(&self.source, &e)),
            };
            if chunk.is_empty() {
                break false;
            }
            if !std::mem::replace(&mut self.head_checked, true) {
                // Noise (`/dev/urandom`) is called binary data, not a bad first line. Lines of
                // plain text before the first NUL are left to be read (and answered, by `tb
                // probe --stdin`): the NUL then fails its own line.
                if let Some(at) = memchr::memchr(0, chunk) {
                    let before = &chunk[..at];
                    let text = std::str::from_utf8(before).is_ok_and(|t| {
                        t.contains('\n')
                            && !t
                                .chars()
                                .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
                    });
                    if !text {
                        let line = 1 + memchr::memchr_iter(b'\n', before).count() as u64;
                        return Err(ParseError::at(
                            &self.source,
                            line,
                            format!("binary data (a NUL byte at offset {at}): expected text"),
                        ));
                    }
                }
            }
            let (take, ended) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            if let Some(at) = memchr::memchr(0, &chunk[..take]) {
                let column = self.line.len() + at + 1;
                return Err(ParseError::at(
                    &self.source,
                    number,
                    format!("binary data (a NUL byte in column {column}): expected text"),
                ));
            }
            if self.line.len() + take > self.max_line {
                return Err(ParseError::at(
                    &self.source,
                    number,
                    format!(
                        "the line is longer than {} bytes: expected lines of text",
                        self.max_line
                    ),
                ));
            }
            self.line.extend_from_slice(&chunk[..take]);
            self.reader.consume(take + usize::from(ended));
            if ended {
                break true;
            }
        };
        if !ended && self.line.is_empty() {
            return Ok(None);
        }
        self.number = number;
        Ok(Some((&self.line, ended)))
    }
}

/// What a text format allows on one line, judged without the lines after it.
pub trait LineCheck {
    /// Checks line `number` of `source` (without its `\n`).
    ///
    /// # Errors
    /// A [`ParseError`] on that line saying what was expected.
    fn check(&mut self, number: u64, line: &[u8], source: &str) -> Result<(), ParseError>;
}

/// Accepts every line.
pub struct AnyLine;

impl LineCheck for AnyLine {
    fn check(&mut self, _: u64, _: &[u8], _: &str) -> Result<(), ParseError> {
        Ok(())
    }
}

/// The whitespace-separated formats (edge lists, two-player files): a header of `header`
/// numbers, then lines of `body` numbers; blank lines and `#` comments anywhere.
pub struct NumberLines {
    header: Option<(usize, &'static str)>,
    body: (usize, &'static str),
}

impl NumberLines {
    /// An edge list (`n m`, then `u v`).
    pub fn edge_list() -> Self {
        NumberLines {
            header: Some((2, "a header line `n m` (nodes, edges)")),
            body: (2, "an edge `u v`"),
        }
    }

    /// A two-player file (`n m0 m1`, then `u v`).
    pub fn two_player() -> Self {
        NumberLines {
            header: Some((
                3,
                "a header line `n m0 m1` (positions, moves of each player)",
            )),
            body: (2, "a move `u v`"),
        }
    }
}

impl LineCheck for NumberLines {
    fn check(&mut self, number: u64, line: &[u8], source: &str) -> Result<(), ParseError> {
        let (count, what) = self.header.unwrap_or(self.body);
        let mut lx = Lexer::new(line, source);
        let Some(content) = lx.next_line() else {
            return Ok(());
        };
        let at = |e: ParseError| ParseError {
            line: Some(number),
            ..e
        };
        match count {
            2 => lx.numbers::<2>(content, what).map(drop),
            _ => lx.numbers::<3>(content, what).map(drop),
        }
        .map_err(at)?;
        self.header = None;
        Ok(())
    }
}

/// A graph as an edge list or a JSON object, told apart by the first character (`{` is JSON,
/// whose lines are not checked one by one).
#[derive(Default)]
pub struct GraphLines {
    json: Option<bool>,
    edges: Option<NumberLines>,
}

impl LineCheck for GraphLines {
    fn check(&mut self, number: u64, line: &[u8], source: &str) -> Result<(), ParseError> {
        if self.json.is_none() {
            match line.iter().find(|b| !b.is_ascii_whitespace()) {
                None => return Ok(()),
                Some(b) => self.json = Some(*b == b'{'),
            }
        }
        if self.json == Some(true) {
            return Ok(());
        }
        self.edges
            .get_or_insert_with(NumberLines::edge_list)
            .check(number, line, source)
    }
}

/// Reads `reader` to its end through `check`, line by line, and returns its bytes: the first bad
/// line stops the reading, so an endless stream of bad lines costs one line of memory.
///
/// # Errors
/// A read error, a line refused by [`LineReader`] or `check`, or more than `cap` bytes in all
/// ([`ErrorKind::TooBig`]).
pub fn read_checked(
    reader: impl Read,
    source: &str,
    cap: u64,
    check: &mut dyn LineCheck,
) -> Result<Vec<u8>, ParseError> {
    read_lines(LineReader::new(reader, source), cap, check)
}

/// [`read_checked`] through a [`LineReader`] set up by the caller (another line limit: a JSON
/// graph may be one long line).
///
/// # Errors
/// As [`read_checked`].
pub fn read_lines(
    mut lines: LineReader<impl Read>,
    cap: u64,
    check: &mut dyn LineCheck,
) -> Result<Vec<u8>, ParseError> {
    let source = lines.source.clone();
    let source = source.as_str();
    let mut bytes = Vec::new();
    let too_big = || {
        ParseError::whole(
            source,
            format!("the input is larger than the memory limit ({cap} bytes) allows"),
        )
        .with_kind(ErrorKind::TooBig)
    };
    let max_line = lines.max_line;
    loop {
        let number = lines.number + 1;
        // A line longer than what is left under the cap is the cap's error.
        let left = usize::try_from(cap.saturating_sub(bytes.len() as u64)).unwrap_or(usize::MAX);
        lines.max_line = max_line.min(left);
        let capped = lines.max_line < max_line;
        let Some((line, ended)) = lines.next_line().map_err(|e| {
            if capped && e.message.starts_with("the line is longer") {
                too_big()
            } else {
                e
            }
        })?
        else {
            break;
        };
        if (bytes.len() + line.len() + 1) as u64 > cap {
            return Err(too_big());
        }
        check.check(number, line, source)?;
        bytes.extend_from_slice(line);
        if ended {
            bytes.push(b'\n');
        }
    }
    Ok(bytes)
}

/// Random texts for checking that a format's [`LineCheck`] is never stricter than its parser:
/// `count` texts of up to 40 bytes over `alphabet`, each after one of `starts` (chosen at random,
/// so that the parser accepts some), the same texts on every machine. The crates that add
/// formats (parity games, boards) run their checks over them as this module's tests do.
pub fn random_texts(alphabet: &[u8], starts: &[&[u8]], count: usize) -> Vec<Vec<u8>> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let len = (next() % 40) as usize;
            let mut text: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let start = starts[(next() % starts.len() as u64) as usize];
            text.splice(0..0, start.iter().copied());
            text
        })
        .collect()
}

/// Whether `check` passes `bytes` whole, keeping them byte for byte (panics when it passes
/// them but keeps other bytes: a test helper).
pub fn passes_whole(bytes: &[u8], check: &mut dyn LineCheck) -> bool {
    let got = read_checked(bytes, "t", u64::MAX, check);
    if let Ok(kept) = &got {
        assert_eq!(kept, bytes, "the kept bytes differ");
    }
    got.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless reader: the same bytes forever.
    struct Forever(&'static [u8], usize);

    impl Read for Forever {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            for b in buf.iter_mut() {
                *b = self.0[self.1 % self.0.len()];
                self.1 += 1;
            }
            Ok(buf.len())
        }
    }

    fn passes(bytes: &[u8], check: &mut dyn LineCheck) -> bool {
        passes_whole(bytes, check)
    }

    /// The checks are never stricter than the parsers: whatever a parser accepts passes its
    /// check (on random texts over each format's alphabet, NUL-free as every text format is).
    /// Parity games' and boards' checks are tested the same way in their crates.
    #[test]
    fn checks_never_refuse_what_the_parsers_accept() {
        let alphabet = b"0123 ;,\n\n\n#\"\rstart.*EPT{}sol,windrawlose";
        let starts: [&[u8]; 7] = [
            b"1 draw\n0 win\n",
            b"1 0 draw\n0 1 lose\n",
            b"node,outcome,depth\n1,draw,\n0,win,1\n",
            b"2 1\n0 1\n",
            b"2 1 0\n0 1\n",
            b"",
            b"",
        ];
        let mut accepted = [0usize; 5];
        for text in random_texts(alphabet, &starts, 200_000) {
            if super::super::parse_edge_list(&text, "t").is_ok() {
                accepted[0] += 1;
                assert!(passes(&text, &mut NumberLines::edge_list()), "{text:?}");
                assert!(passes(&text, &mut GraphLines::default()), "{text:?}");
            }
            if super::super::parse_two_player(&text, "t").is_ok() {
                accepted[1] += 1;
                assert!(passes(&text, &mut NumberLines::two_player()), "{text:?}");
            }
            if super::super::parse_solution_csv(&text, "t", 2).is_ok() {
                accepted[2] += 1;
                let mut check = super::super::SolutionCsvLines::default();
                assert!(passes(&text, &mut check), "{text:?}");
            }
            if super::super::parse_verdicts(&text, "t", 2).is_ok() {
                accepted[3] += 1;
                assert!(passes(&text, &mut super::super::VerdictLines), "{text:?}");
            }
            if super::super::parse_two_player_verdicts(&text, "t", 2).is_ok() {
                accepted[4] += 1;
                assert!(passes(&text, &mut super::super::VerdictLines), "{text:?}");
            }
        }
        // Each parser accepted a fair share, or the property above says little.
        assert!(accepted.iter().all(|&a| a > 500), "{accepted:?}");
    }

    #[test]
    fn lines_keep_their_bytes_and_numbers() {
        let text = b"2 1\n\n0 1 # c\r\n1 0";
        let got = read_checked(&text[..], "t", 1 << 20, &mut NumberLines::edge_list()).unwrap();
        assert_eq!(got, text);
        let mut r = LineReader::new(&b"a\nb"[..], "t");
        assert_eq!(r.next_line().unwrap(), Some((&b"a"[..], true)));
        assert_eq!(r.next_line().unwrap(), Some((&b"b"[..], false)));
        assert_eq!(r.number(), 2);
        assert_eq!(r.next_line().unwrap(), None);
    }

    #[test]
    fn text_lines_before_a_nul_are_read_and_noise_is_binary_at_once() {
        // Plain text, then a NUL in the same read: the text lines come first, then the NUL's
        // line fails (so `tb probe --stdin` answers them).
        let mut r = LineReader::new(&b"a b\nc\n\0x\n"[..], "t");
        assert_eq!(r.next_line().unwrap(), Some((&b"a b"[..], true)));
        assert_eq!(r.next_line().unwrap(), Some((&b"c"[..], true)));
        let e = r.next_line().unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("binary data"), "{e}");
        // Bytes that are not text before the NUL (noise), or the NUL on the first line: the
        // whole input is binary data, refused before any line is read.
        for noise in [
            &b"\xff\xfe\n\x01\0"[..],
            &b"ab\0\ncd\n"[..],
            &b"a\x07\nb\0"[..],
        ] {
            let e = LineReader::new(noise, "t").next_line().unwrap_err();
            assert!(
                e.message.contains("binary data (a NUL byte at offset"),
                "{e}"
            );
        }
    }

    #[test]
    fn endless_bad_input_fails_on_its_first_line() {
        let e = read_checked(
            Forever(b"y\n", 0),
            "yes",
            u64::MAX,
            &mut NumberLines::edge_list(),
        )
        .unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
        let e = read_checked(Forever(b"\0", 0), "zero", u64::MAX, &mut AnyLine).unwrap_err();
        assert_eq!(e.line, Some(1));
        assert!(e.message.contains("NUL"), "{e}");
        let e = LineReader::new(Forever(b"a", 0), "a")
            .with_max_line(1000)
            .next_line()
            .unwrap_err();
        assert!(e.message.contains("longer than 1000"), "{e}");
    }

    #[test]
    fn a_good_header_then_a_bad_line_names_that_line() {
        let e = read_checked(
            Forever(b"3 2\n0 1\nx\n", 0),
            "g",
            u64::MAX,
            &mut NumberLines::edge_list(),
        )
        .unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().starts_with("g:3:"), "{e}");
        let e = read_checked(
            Forever(b"1 1\n", 0),
            "g",
            1000,
            &mut NumberLines::edge_list(),
        )
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooBig);
    }
}
