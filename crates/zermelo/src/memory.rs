//! Estimates of the memory a solve needs, so that a job too big for the machine is refused up
//! front with a number instead of dying halfway.

/// What a job will hold in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Positions.
    pub nodes: u64,
    /// Moves.
    pub edges: u64,
    /// Whether forward rows are built (needed for best moves, lines, verification; not for
    /// counts).
    pub forward: bool,
    /// Loader threads (each keeps two counters per node while loading).
    pub threads: u64,
}

/// The estimate, in bytes, split by phase; the peak is the larger phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Graph rows kept for solving.
    pub graph: u64,
    /// Transient loader counters (freed before solving).
    pub loading: u64,
    /// Solver state, frontiers and the solution.
    pub solving: u64,
}

impl Estimate {
    /// Peak bytes: the graph plus whichever phase needs more.
    pub fn peak(&self) -> u64 {
        self.graph + self.loading.max(self.solving)
    }
}

/// Estimates the memory of loading an edge list and solving it.
pub fn estimate(job: Job) -> Estimate {
    let (n, m) = (job.nodes, job.edges);
    let half = 8 * (n + 1) + 4 * m; // offsets + ids of one direction
    let graph = if job.forward { 2 * half } else { half + 4 * n };
    Estimate {
        graph,
        loading: 8 * n * job.threads.max(1) + (4 << 20) * job.threads.max(1),
        // state word + frontier/queue + solution (outcome byte + depth word)
        solving: 4 * n + 4 * n + 5 * n,
    }
}

/// Parses a size such as `800M`, `2G`, `1.5GiB`, `123456` (bytes); binary multiples.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num.parse().ok()?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    };
    (value >= 0.0 && value.is_finite()).then_some((value * scale as f64) as u64)
}

/// `MemAvailable` of this machine in bytes (Linux), if known.
pub fn available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("800M"), Some(800 << 20));
        assert_eq!(parse_size("2G"), Some(2 << 30));
        assert_eq!(parse_size("1.5GiB"), Some(3 << 29));
        assert_eq!(parse_size("123"), Some(123));
        assert_eq!(parse_size("12 kb"), Some(12 << 10));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("5X"), None);
    }

    #[test]
    fn estimate_covers_the_rows() {
        let e = estimate(Job {
            nodes: 10_000_000,
            edges: 50_000_000,
            forward: false,
            threads: 2,
        });
        // Reverse rows alone are 280 MB; the peak with loader counters is above that.
        assert!(e.graph >= 280_000_000 && e.peak() < 800_000_000, "{e:?}");
    }
}
