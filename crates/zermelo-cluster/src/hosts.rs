//! The hosts file: one `host:port` per line, process `i` on line `i + 1` (timely's format).

use std::io::Read;
use std::path::Path;

use crate::ClusterError;

/// The most bytes a hosts file may have (about 40,000 addresses).
const HOSTS_MAX_BYTES: u64 = 1 << 20;
/// The longest line of a hosts file.
const LINE_MAX: usize = 1024;

/// Reads and parses a hosts file, at most 1 MiB of it: a longer file (or a device
/// such as `/dev/zero`) is refused at once.
///
/// # Errors
/// [`ClusterError::Unreadable`] if it cannot be read, [`ClusterError::Input`] for a file too
/// long, a line too long or not `host:port` (see [`parse_hosts`]).
pub fn read_hosts(path: &Path, processes: usize) -> Result<Vec<String>, ClusterError> {
    let name = path.display().to_string();
    let unreadable =
        |e: std::io::Error| ClusterError::Unreadable(format!("{name}: cannot read: {e}"));
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(HOSTS_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > HOSTS_MAX_BYTES {
        return Err(ClusterError::Input(format!(
            "{name}: a hosts file has one host:port per line; this one is longer than {} KiB",
            HOSTS_MAX_BYTES >> 10
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        ClusterError::Input(format!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    parse_hosts(&text, &name, processes)
}

/// Parses a hosts file for `processes` processes: blank lines and `#` comments are skipped;
/// the first `processes` addresses are used, and there must be at least that many.
///
/// # Errors
/// [`ClusterError::Input`] naming the file and line of a malformed address, or too few lines.
pub fn parse_hosts(text: &str, name: &str, processes: usize) -> Result<Vec<String>, ClusterError> {
    let mut hosts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.len() > LINE_MAX {
            return Err(ClusterError::Input(format!(
                "{name}:{}: a line of {} bytes; expected host:port",
                i + 1,
                line.len()
            )));
        }
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |what: &str| {
            ClusterError::Input(format!(
                "{name}:{}: expected host:port, found {line:?} ({what})",
                i + 1
            ))
        };
        let (host, port) = line.rsplit_once(':').ok_or_else(|| bad("no port"))?;
        if host.is_empty() || line.contains(char::is_whitespace) {
            return Err(bad("no host, or spaces"));
        }
        port.parse::<u16>()
            .map_err(|_| bad("the port is not a number below 65536"))?;
        hosts.push(line.to_string());
    }
    if hosts.len() < processes {
        return Err(ClusterError::Input(format!(
            "{name}: --processes {processes} needs {processes} host:port lines, the file has {}",
            hosts.len()
        )));
    }
    hosts.truncate(processes);
    Ok(hosts)
}

/// The workers of process `process`: `given` (`--workers`), or the cores of this machine
/// shared among the processes of `hosts` that run on its host (all the cores when `process` is
/// not in `hosts`).
///
/// # Errors
/// [`ClusterError::Input`] above 64 workers per core: each worker keeps buffers for every
/// other, so more only costs memory.
pub fn workers(
    given: Option<u64>,
    hosts: &[String],
    process: usize,
) -> Result<usize, ClusterError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(w) = given else {
        let host = |a: &str| a.rsplit_once(':').map_or(a, |(h, _)| h).to_string();
        let this = hosts.get(process).map(|a| host(a));
        let here = hosts.iter().filter(|a| Some(host(a)) == this).count();
        return Ok((cores / here.max(1)).max(1));
    };
    if w > 64 * cores as u64 {
        return Err(ClusterError::Input(format!(
            "--workers {w}: more than 64 workers per core ({cores} cores here) only costs memory \
             (each worker keeps buffers for every other); use at most {}",
            64 * cores
        )));
    }
    Ok(w as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_addresses_skipping_comments() {
        let text = "# cluster\n127.0.0.1:7000\n\nnode-2.example:7001  # second\nextra:1\n";
        let hosts = parse_hosts(text, "hosts", 2).unwrap();
        assert_eq!(hosts, ["127.0.0.1:7000", "node-2.example:7001"]);
    }

    #[test]
    fn names_the_bad_line() {
        let err = parse_hosts("a:1\nb:x\n", "hosts", 2)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("hosts:2: expected host:port"), "{err}");
        let err = parse_hosts("a:1\n", "h", 3).unwrap_err().to_string();
        assert!(
            err.contains("needs 3 host:port lines, the file has 1"),
            "{err}"
        );
    }

    #[test]
    fn long_lines_and_endless_files_are_refused() {
        let line = "a".repeat(2000) + ":1\n";
        let err = parse_hosts(&line, "h", 1).unwrap_err().to_string();
        assert!(err.starts_with("h:1: a line of 2002 bytes"), "{err}");
        let err = read_hosts(Path::new("/dev/zero"), 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains("longer than 1024 KiB"), "{err}");
    }
}
