//! Text inputs that do not go through `zermelo::io::open` (parity games, solutions, verdicts,
//! boards, values): read whole, bounded by `--max-memory`, NUL bytes refused as binary data, and
//! pipes, FIFOs and devices checked line by line as they arrive.

use std::fs;
use std::io;
use std::path::Path;

use zermelo::io::stream::LineCheck;

use crate::error::{CliResult, Failure};

/// The first bytes of a stream searched for a NUL byte (and looked at for a binary file).
const CHECKED: usize = 1 << 16;

/// Reads a whole text input (`-` for standard input) and returns its bytes and display name.
///
/// What it holds is bounded by `--max-memory` (or the memory available): a regular file by its
/// size before anything is read, anything else (a pipe, a FIFO, a device) while it is read. A
/// NUL byte in the first 64 KiB is refused at once unless the input is one of zermelo's binary
/// files (they begin with `ZERMELO`): no text format contains one, and `/dev/zero` would
/// otherwise be read until memory runs out.
pub fn read_input(path: &Path) -> CliResult<(Vec<u8>, String)> {
    read_input_with(path, None, true)
}

/// [`read_input`] for a binary format of other tools (AIGER's `aig`): NUL bytes allowed.
pub fn read_binary_input(path: &Path) -> CliResult<(Vec<u8>, String)> {
    read_input_with(path, None, false)
}

/// [`read_input`] for a line-based text format: a pipe, a FIFO or a device is read line by line
/// through `check` ([`zermelo::io::stream`]), so an endless stream fails on its first bad line
/// (`file:line`, exit 2) holding one line in memory. A regular file is read as by
/// [`read_input`]: its size is known and its parser names the first bad line.
pub fn read_text_input(path: &Path, check: &mut dyn LineCheck) -> CliResult<(Vec<u8>, String)> {
    read_input_with(path, Some(check), true)
}

fn read_input_with(
    path: &Path,
    check: Option<&mut dyn LineCheck>,
    text: bool,
) -> CliResult<(Vec<u8>, String)> {
    let cap = crate::limits::memory_limit().input_cap();
    let unreadable =
        |name: &str, e: io::Error| Failure::Unreadable(format!("{name}: cannot read: {e}"));
    let (reader, name, len): (Box<dyn io::Read>, String, Option<u64>) = if path.as_os_str() == "-" {
        (Box::new(io::stdin()), "<stdin>".to_string(), None)
    } else {
        let name = path.display().to_string();
        if path.is_dir() {
            return Err(Failure::Unreadable(format!(
                "{name}: is a directory, expected a file"
            )));
        }
        let file = fs::File::open(path).map_err(|e| unreadable(&name, e))?;
        let meta = file.metadata().map_err(|e| unreadable(&name, e))?;
        let len = meta.is_file().then_some(meta.len());
        (Box::new(file), name, len)
    };
    let too_big = |name: &str| {
        Failure::TooBig(format!(
            "{name}: the input is larger than the memory limit ({cap} bytes) allows"
        ))
    };
    if len.is_some_and(|l| l > cap) {
        return Err(too_big(&name));
    }
    if let (None, Some(check)) = (len, check) {
        // zermelo's own binary files (a `.zs` for verify) are not lines: read them whole.
        let mut reader = io::BufReader::with_capacity(CHECKED, reader);
        let head = loop {
            match io::BufRead::fill_buf(&mut reader) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other.map_err(|e| unreadable(&name, e))?,
            }
        };
        if !(b"ZERMELO".starts_with(head) || head.starts_with(b"ZERMELO")) || head.is_empty() {
            let bytes = zermelo::io::stream::read_checked(reader, &name, cap, check)?;
            return Ok((bytes, name));
        }
        return read_whole(Box::new(reader), name, len, cap, text);
    }
    read_whole(reader, name, len, cap, text)
}

/// Reads all of `reader` (at most `cap` bytes), refusing (when `text`) a NUL byte in the first
/// 64 KiB of what is not one of zermelo's binary files.
fn read_whole(
    mut reader: Box<dyn io::Read>,
    name: String,
    len: Option<u64>,
    cap: u64,
    text: bool,
) -> CliResult<(Vec<u8>, String)> {
    let unreadable =
        |name: &str, e: io::Error| Failure::Unreadable(format!("{name}: cannot read: {e}"));
    let too_big = |name: &str| {
        Failure::TooBig(format!(
            "{name}: the input is larger than the memory limit ({cap} bytes) allows"
        ))
    };
    let mut bytes = Vec::with_capacity(len.map_or(0, |l| l as usize));
    let mut chunk = vec![0u8; CHECKED];
    loop {
        let got = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(unreadable(&name, e)),
        };
        if (bytes.len() + got) as u64 > cap {
            return Err(too_big(&name));
        }
        let start = bytes.len();
        bytes.extend_from_slice(&chunk[..got]);
        // zermelo's own binary files (`.zs` solutions for verify) begin with `ZERMELO`, which
        // has no NUL: a NUL before its end means the input is not one of them.
        if text && start < CHECKED && !bytes.starts_with(b"ZERMELO") {
            if let Some(i) = bytes[start..].iter().position(|&b| b == 0) {
                return Err(Failure::input(format!(
                    "{name}: binary data (a NUL byte at offset {}): expected text",
                    start + i
                )));
            }
        }
    }
    Ok((bytes, name))
}
