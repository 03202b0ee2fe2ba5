//! The hosts file: one `host:port` per line, process `i` on line `i + 1` (timely's format).

use crate::ClusterError;

/// Parses a hosts file for `processes` processes: blank lines and `#` comments are skipped;
/// the first `processes` addresses are used, and there must be at least that many.
///
/// # Errors
/// [`ClusterError::Input`] naming the file and line of a malformed address, or too few lines.
pub fn parse_hosts(text: &str, name: &str, processes: usize) -> Result<Vec<String>, ClusterError> {
    let mut hosts = Vec::new();
    for (i, line) in text.lines().enumerate() {
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
}
