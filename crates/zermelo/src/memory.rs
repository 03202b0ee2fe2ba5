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
        self.graph.saturating_add(self.loading.max(self.solving))
    }
}

/// Estimates the memory of loading an edge list and solving it.
pub fn estimate(job: Job) -> Estimate {
    // Saturating: a header may declare absurd counts, and the estimate must then be huge rather
    // than wrap around to something small.
    let (n, m) = (job.nodes, job.edges);
    let threads = job.threads.max(1);
    let half = n
        .saturating_add(1)
        .saturating_mul(8)
        .saturating_add(m.saturating_mul(4));
    let graph = if job.forward {
        half.saturating_mul(2)
    } else {
        half.saturating_add(n.saturating_mul(4))
    };
    Estimate {
        graph,
        loading: n
            .saturating_mul(8)
            .saturating_add(4 << 20)
            .saturating_mul(threads),
        // state word + frontier/queue + solution (outcome byte + depth word)
        solving: n.saturating_mul(13),
    }
}

/// Estimates the memory of parsing an input held in memory (`input` bytes, already read) with
/// the sequential parsers and solving it: the builder keeps 16 bytes per move (a JSON document
/// as many) before the rows are packed.
pub fn estimate_in_memory(nodes: u64, edges: u64, input: u64) -> Estimate {
    let full = estimate(Job {
        nodes,
        edges,
        forward: true,
        threads: 1,
    });
    Estimate {
        graph: full.graph,
        loading: input.saturating_add(edges.saturating_mul(16)),
        solving: full.solving,
    }
}

/// How much memory a job may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Limit {
    /// What the machine has available now (`MemAvailable`), if known; no limit otherwise.
    #[default]
    Available,
    /// At most this many bytes.
    Bytes(u64),
    /// At most this many bytes, set by the named option (messages name it: `--max-memory`).
    Option(u64, &'static str),
    /// No limit.
    Unlimited,
}

impl Limit {
    /// Refuses an estimate over the limit, with a message giving the numbers (for `name`).
    ///
    /// # Errors
    /// The message, when `estimate.peak()` is over the limit.
    pub fn check(self, estimate: Estimate) -> Result<(), String> {
        let (limit, what) = match self {
            Limit::Bytes(b) => (b, "allowed by the memory limit".to_string()),
            Limit::Option(b, name) => (b, format!("allowed by {name}")),
            Limit::Available => match available() {
                Some(a) => (a, "available on this machine".to_string()),
                None => return Ok(()),
            },
            Limit::Unlimited => return Ok(()),
        };
        if estimate.peak() <= limit {
            return Ok(());
        }
        Err(format!(
            "this job needs about {} (graph {}, loading {}, solving {}) but only {} is {what}",
            human_bytes(estimate.peak()),
            human_bytes(estimate.graph),
            human_bytes(estimate.loading),
            human_bytes(estimate.solving),
            human_bytes(limit),
        ))
    }

    /// The most bytes of input worth reading into memory under this limit.
    pub fn input_cap(self) -> u64 {
        match self {
            Limit::Bytes(b) | Limit::Option(b, _) => b,
            Limit::Available => available().unwrap_or(u64::MAX),
            Limit::Unlimited => u64::MAX,
        }
    }
}

/// A size for people: `0 bytes`, `900 bytes`, `1.00 KiB`, `12.5 MiB`, `1.50 GiB`, `2.00 TiB`
/// (binary multiples, three significant digits; bytes exact below 1 KiB).
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return if bytes == 1 {
            "1 byte".into()
        } else {
            format!("{bytes} bytes")
        };
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$} {}", UNITS[unit])
}

/// Parses a size such as `800M`, `2G`, `1.5GiB`, `12 kb`, `123456` (bytes); binary multiples.
/// `None` for anything else, and for sizes of 2^64 bytes or more (which no machine has).
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
    let bytes = value * scale as f64;
    // 2^64 as f64 is exact; `as u64` would saturate silently above it.
    (bytes.is_finite() && bytes < 18_446_744_073_709_551_616.0).then_some(bytes as u64)
}

/// The memory this process may have at most, in bytes (Linux): the machine's `MemTotal`, or
/// the limit of the memory cgroup it runs in if that is lower (cgroup v2 `memory.max`, v1
/// `memory.limit_in_bytes`, of its own group), if known.
pub fn physical() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let total = line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024;
    Some(cgroup_limit().map_or(total, |c| c.min(total)))
}

/// The memory limit of this process's cgroup, if it has one.
fn cgroup_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read =
        |path: String| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    for line in groups.lines() {
        // `0::/path` (v2) or `4:memory:/path` (v1).
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let limit = if controllers.is_empty() {
            read(format!("/sys/fs/cgroup{path}/memory.max"))
        } else if controllers.split(',').any(|c| c == "memory") {
            read(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"))
        } else {
            None
        };
        // "max" (v2) does not parse; v1 says "no limit" with a number near 2^63.
        if let Some(l) = limit.filter(|&l| l < 1 << 62) {
            return Some(l);
        }
    }
    None
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
    fn absurd_counts_saturate_instead_of_wrapping() {
        let e = estimate(Job {
            nodes: u64::MAX,
            edges: u64::MAX,
            forward: true,
            threads: 100_000,
        });
        assert_eq!(e.peak(), u64::MAX);
        assert!(Limit::Bytes(1 << 40).check(e).is_err());
        assert!(Limit::Unlimited.check(e).is_ok());
        let small = estimate_in_memory(10, 10, 100);
        assert!(Limit::Bytes(1 << 20).check(small).is_ok());
        let msg = Limit::Bytes(100).check(small).unwrap_err();
        assert!(msg.contains("allowed by the memory limit"), "{msg}");
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("800M"), Some(800 << 20));
        assert_eq!(parse_size("2G"), Some(2 << 30));
        assert_eq!(parse_size("1.5GiB"), Some(3 << 29));
        for (bytes, text) in [
            (0, "0 bytes"),
            (1, "1 byte"),
            (1023, "1023 bytes"),
            (1024, "1.00 KiB"),
            (1536, "1.50 KiB"),
            (12_800_000, "12.2 MiB"),
            (3 << 29, "1.50 GiB"),
            (700 << 30, "700 GiB"),
            (u64::MAX, "16384 PiB"),
        ] {
            assert_eq!(human_bytes(bytes), text, "{bytes}");
        }
        // Issue 22: `--max-memory 1K` said "needs 0.00 GiB but only 0.00 GiB is allowed".
        let e = Limit::Option(1024, "--max-memory")
            .check(Estimate {
                graph: 3000,
                loading: 0,
                solving: 100,
            })
            .unwrap_err();
        assert_eq!(
            e,
            "this job needs about 3.03 KiB (graph 2.93 KiB, loading 0 bytes, solving 100 bytes) \
             but only 1.00 KiB is allowed by --max-memory"
        );
        assert_eq!(parse_size("123"), Some(123));
        assert_eq!(parse_size("12 kb"), Some(12 << 10));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("5X"), None);
        assert_eq!(parse_size("1 G"), Some(1 << 30));
        assert_eq!(parse_size("100000000000000000000G"), None);
        assert_eq!(parse_size("18446744073709551616"), None);
        assert_eq!(
            parse_size("18446744073709549568"),
            Some(18_446_744_073_709_549_568)
        );
        assert_eq!(parse_size("1e3"), None);
        assert_eq!(parse_size(""), None);
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
