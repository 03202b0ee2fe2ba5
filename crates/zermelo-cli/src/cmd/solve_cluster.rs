//! `zermelo solve FILE --cluster --processes N --process I --hosts HOSTS [--workers W]`: one
//! process of a cluster solve (the `zermelo-cluster` crate, on timely dataflow).
//!
//! Process 0 writes the whole solution, in the formats and to the places `zermelo solve` uses;
//! the other processes write nothing but progress on standard error.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use zermelo::graph::{Convention, Rules};
use zermelo::NodeId;
use zermelo_cluster::{Cluster, ClusterError, Gathered, Job, Report};

use crate::error::{CliResult, Failure};
use crate::input::GameArgs;
use crate::output::emit;
use crate::progress::Progress;
use crate::render::{json_opt, write_summary, Format};

/// The cluster flags of `zermelo solve`.
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// Solve as one process of a cluster (timely dataflow over TCP); needs --processes,
    /// --process and --hosts. Reads edge lists and .zg graphs.
    #[arg(long, requires_all = ["processes", "process", "hosts"])]
    pub cluster: bool,
    /// Number of processes in the cluster.
    #[arg(long, value_name = "N", requires = "cluster")]
    pub processes: Option<usize>,
    /// This process's index, 0..N (process 0 writes the solution).
    #[arg(long, value_name = "I", requires = "cluster")]
    pub process: Option<usize>,
    /// Hosts file: one host:port per line, process I listens on line I+1.
    #[arg(long, value_name = "HOSTS", requires = "cluster")]
    pub hosts: Option<PathBuf>,
    /// Worker threads per process; every process must have the same number (give it when the
    /// machines differ) [default: the cores of this machine divided by the processes the hosts
    /// file puts on its host]. At most 1024, and at most 64 per core.
    #[arg(long, value_name = "W", requires = "cluster",
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub workers: Option<u64>,
    /// Work folder for checkpoints at round boundaries; rerunning the same job with the same
    /// folder resumes from the last round every process completed.
    #[arg(long, value_name = "DIR", requires = "cluster")]
    pub work_dir: Option<PathBuf>,
    /// Seconds between two checkpoints (0: after every round) [default: 60].
    #[arg(long, value_name = "SECS", requires = "work_dir",
          value_parser = clap::value_parser!(u64).range(0..=MAX_SECONDS))]
    pub checkpoint_every: Option<u64>,
    /// Seconds a peer may stay silent (every process sends a heartbeat every second) before it
    /// counts as lost: exit code 4 [default: 60].
    #[arg(long, value_name = "SECS", requires = "cluster",
          value_parser = clap::value_parser!(u64).range(1..=MAX_SECONDS))]
    pub peer_timeout: Option<u64>,
    /// Seconds to wait at start-up for every peer to connect: exit code 4 [default: 60].
    #[arg(long, value_name = "SECS", requires = "cluster",
          value_parser = clap::value_parser!(u64).range(1..=MAX_SECONDS))]
    pub connect_timeout: Option<u64>,
}

/// The longest timeout or checkpoint interval: one year.
const MAX_SECONDS: u64 = 365 * 24 * 3600;

/// What `zermelo solve` asks to be written.
pub struct Output<'a> {
    /// `--format`.
    pub format: Format,
    /// `-o`.
    pub file: Option<&'a Path>,
    /// `--summary`.
    pub summary: bool,
    /// `--stats`.
    pub stats: bool,
}

/// Runs this process's part of a cluster solve.
pub fn run(args: &ClusterArgs, game: &GameArgs, output: Output<'_>) -> CliResult {
    let t0 = Instant::now();
    let (Some(processes), Some(process), Some(hosts)) =
        (args.processes, args.process, args.hosts.as_ref())
    else {
        return Err(Failure::input(
            "--cluster needs --processes N, --process I and --hosts HOSTS",
        ));
    };
    if processes == 0 || process >= processes {
        return Err(Failure::input(format!(
            "--process {process} must be below --processes {processes}"
        )));
    }
    let hosts = zermelo_cluster::read_hosts(hosts, processes).map_err(failure)?;
    let workers = zermelo_cluster::workers(args.workers, &hosts, process).map_err(failure)?;
    let (_, nodes, edges) = zermelo_cluster::input_size(&game.file).map_err(failure)?;
    let rules = rules(game, nodes as usize)?;
    let to_binary = output
        .file
        .and_then(|p| p.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("zs"));
    let best_moves = !(output.summary || to_binary);
    let estimate =
        zermelo_cluster::estimate(nodes, edges, (processes, process, workers), best_moves);
    crate::limits::check_memory(&game.file.display().to_string(), estimate)?;
    let bar = Progress::global().count("solve", nodes);
    let decided = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counter = Arc::clone(&decided);
    let cluster = Cluster {
        hosts,
        process,
        workers,
        timeout: Duration::from_secs(args.peer_timeout.unwrap_or(60)),
        connect_timeout: Duration::from_secs(args.connect_timeout.unwrap_or(60)),
    };
    let job = Job {
        input: game.file.clone(),
        rules,
        work_dir: args.work_dir.clone(),
        checkpoint_every: Duration::from_secs(args.checkpoint_every.unwrap_or(60)),
        progress: Some(Arc::new(move |r| {
            if let Report::Round { frontier, .. } = r {
                counter.fetch_add(frontier, Relaxed);
            }
        })),
        // Counts and .zs files hold no moves.
        best_moves,
    };
    let mut solved = {
        let solved = zermelo_cluster::run(&cluster, &job);
        bar.counter().store(decided.load(Relaxed), Relaxed);
        bar.finish();
        solved.map_err(failure)?
    };
    let Some(g) = solved.gathered.take() else {
        // Not process 0: nothing to write, but the job is done only once process 0 has written.
        solved.finish(Ok(())).map_err(failure)?;
        if output.stats {
            crate::note!("stats: process {process}: peak memory {}", memory());
        }
        return Ok(());
    };
    let t1 = Instant::now();
    solved.writing();
    let written = emit(output.file, |out| {
        if to_binary {
            zermelo::io::binary::write_solution(out, &g.solution)
        } else if output.summary {
            let n = g.solution.len();
            write_summary(out, n, g.edges, &g.solution.counts(), output.format)
        } else {
            write_gathered(out, &g, output.format)
        }
    });
    solved
        .finish(written.as_ref().map(|_| ()).map_err(ToString::to_string))
        .map_err(failure)?;
    written?;
    if output.stats {
        print_stats(&g, processes, workers, [t0, t1, Instant::now()]);
    }
    Ok(())
}

/// `--misere` and `--verdicts` for a graph of `nodes` nodes, as `zermelo solve` reads them.
fn rules(game: &GameArgs, nodes: usize) -> CliResult<Rules> {
    let convention = if game.misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let mut verdicts = Vec::new();
    let mut source = game.file.display().to_string();
    if let Some(path) = &game.verdicts {
        let (bytes, vname) = crate::read::read_input(path)?;
        verdicts = zermelo::io::parse_verdicts(&bytes, &vname, nodes)?;
        source = format!("{source} and {vname}");
    }
    Rules::with_convention(convention)
        .with_verdicts(nodes, verdicts)
        .map_err(|e| Failure::input(format!("{source}: verdicts: {e}")))
}

/// The exit code of each kind of cluster failure (see `error.rs`).
fn failure(e: ClusterError) -> Failure {
    match e {
        ClusterError::Input(m) | ClusterError::Checkpoint(m) => Failure::BadInput(m),
        ClusterError::TooBig(m) => Failure::TooBig(m),
        ClusterError::Peer(m) => Failure::Cluster(m),
        ClusterError::Unreadable(m) => Failure::Unreadable(m),
        other => Failure::Internal(anyhow::anyhow!("{other}")),
    }
}

fn opt(v: Option<impl std::fmt::Display>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The full solution, byte for byte as `zermelo solve` writes it for a one-player graph.
fn write_gathered(out: &mut dyn Write, g: &Gathered, format: Format) -> io::Result<()> {
    let s = &g.solution;
    let n = s.len() as NodeId;
    match format {
        Format::Csv => {
            writeln!(out, "{}", zermelo::io::CSV_HEADER)?;
            for u in 0..n {
                let depth = opt(s.depth(u).map(|d| d.0));
                let mv = opt(g.best_move(u));
                writeln!(out, "{u},{},{depth},{mv}", s.outcome(u))?;
            }
            Ok(())
        }
        Format::Table => {
            let digits = s.len().max(1).to_string().len();
            let w = "node".len().max(digits);
            let mv = "best_move".len().max(digits);
            writeln!(
                out,
                "{:>w$}  {:<7}  {:>5}  {:>mv$}",
                "node", "outcome", "depth", "best_move"
            )?;
            for u in 0..n {
                let row = format!(
                    "{u:>w$}  {:<7}  {:>5}  {:>mv$}",
                    s.outcome(u).as_str(),
                    opt(s.depth(u)),
                    opt(g.best_move(u)),
                );
                writeln!(out, "{}", row.trim_end())?;
            }
            Ok(())
        }
        Format::Json => {
            let c = s.counts();
            write!(
                out,
                "{{\"nodes\":{},\"edges\":{},\"win\":{},\"lose\":{},\"draw\":{},\"max_depth\":",
                s.len(),
                g.edges,
                c.win,
                c.lose,
                c.draw
            )?;
            json_opt(out, c.max_depth)?;
            out.write_all(b",\"solution\":[")?;
            for u in 0..n {
                if u > 0 {
                    out.write_all(b",")?;
                }
                write!(
                    out,
                    "\n{{\"node\":{u},\"outcome\":\"{}\",\"depth\":",
                    s.outcome(u)
                )?;
                json_opt(out, s.depth(u))?;
                out.write_all(b",\"best_move\":")?;
                json_opt(out, g.best_move(u))?;
                out.write_all(b"}")?;
            }
            out.write_all(b"\n]}\n")
        }
    }
}

/// `--stats`: phases, and one line per round with its frontier and the bytes it sent between
/// processes.
fn print_stats(g: &Gathered, processes: usize, workers: usize, t: [Instant; 3]) {
    let [load, solve, gather] = g.seconds;
    crate::note!(
        "stats: cluster of {processes} processes x {workers} workers; load {load:.3}s, solve \
         {solve:.3}s, gather {gather:.3}s, write {:.3}s, total {:.3}s; {} nodes, {} edges; \
         resumed from round {}; peak memory of process 0 {}",
        (t[2] - t[1]).as_secs_f64(),
        (t[2] - t[0]).as_secs_f64(),
        g.solution.len(),
        g.edges,
        g.resumed_from,
        memory(),
    );
    let total: u64 = g.rounds.iter().map(|r| r.bytes).sum();
    for (i, r) in g.rounds.iter().enumerate() {
        crate::note!(
            "stats: round {:>4}: frontier {:>10}, {:>12} bytes between processes, {:.3}s",
            g.resumed_from + i as u64,
            r.frontier,
            r.bytes,
            r.seconds
        );
    }
    crate::note!(
        "stats: {total} bytes between processes in {} rounds",
        g.rounds.len()
    );
}

/// Peak resident memory of this process (Linux: `VmHWM` in /proc/self/status).
fn memory() -> String {
    let kib = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
    kib.map_or("unknown".into(), |kib| {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    })
}
