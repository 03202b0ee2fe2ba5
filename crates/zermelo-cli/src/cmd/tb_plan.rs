//! `zermelo tb plan`: the material dependency graph ([`Plan`]) as a Makefile, a Slurm
//! submission script or JSON, so that independent tables are generated side by side on one
//! machine (`make -j N`) or on many (one batch job per table, on a shared tables folder).
//!
//! Every job runs `zermelo tb gen MATERIAL --tables DIR`, which takes the table's lock in DIR
//! (so a table is never generated twice at once) and finds the tables it needs there. Each
//! table comes with its estimated cost on a machine like this one ([`PlannedTable::cost`]:
//! memory under `--max-memory` or 3/4 of this machine's memory, disk, and time on `--threads`).

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use zermelo_chess::dtz::DEFAULT_RULE;
use zermelo_chess::{
    Cost, Machine, Material, Metric, Plan, PlannedTable, Targets, DEFAULT_MEMORY_SHARE, MAX_PIECES,
};

use crate::error::{CliResult, Failure};
use crate::output::emit;

/// Arguments of `zermelo tb plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The materials to build (with every table they depend on), e.g. KRPvKR.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    materials: Vec<String>,
    /// Every ending with up to N pieces.
    #[arg(long, value_name = "N")]
    all: Option<usize>,
    /// The tables folder the jobs write to and read from (shared by every machine).
    #[arg(long, value_name = "DIR", default_value = "./tables")]
    tables: PathBuf,
    /// `make`: a Makefile, one target per table (`make -j N`); `slurm`: a shell script that
    /// submits one `sbatch` job per table, each `--dependency=afterok` on the jobs it needs;
    /// `json`: the tables, their dependencies and the command for each.
    #[arg(long, value_enum, default_value = "make")]
    format: PlanFormat,
    /// The drawing rule of the DTZ tables, passed on to `tb gen --rule`.
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_RULE,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(zermelo_chess::dtz::MAX_RULE)))]
    rule: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PlanFormat {
    Make,
    Slurm,
    Json,
}

/// Runs `zermelo tb plan`.
pub fn run(args: PlanArgs) -> CliResult {
    let targets = match args.all {
        Some(n) => Targets::all_up_to(n).map_err(|_| {
            Failure::input(format!(
                "--all {n}: tables exist for 3 to {MAX_PIECES} pieces"
            ))
        })?,
        None => {
            let mut materials = Vec::new();
            for m in &args.materials {
                materials.push(Material::parse_table(m).map_err(Failure::input)?);
            }
            Targets::of(&materials).map_err(Failure::input)?
        }
    };
    let plan = targets.plan();
    let dir = args.tables.to_str().ok_or_else(|| {
        Failure::input(format!(
            "{}: the tables folder must be valid UTF-8 to be written into a plan",
            args.tables.display()
        ))
    })?;
    let machine = this_machine();
    let cost = |t: &PlannedTable| t.cost(args.rule, &machine);
    let text = match args.format {
        PlanFormat::Make => makefile(&plan, dir, args.rule, &cost)?,
        PlanFormat::Slurm => slurm(&plan, dir, args.rule, &cost),
        PlanFormat::Json => json(&plan, dir, args.rule, &machine, &cost),
    };
    emit(None, |w| w.write_all(text.as_bytes()))
}

/// The machine the estimates are for: this one, a job limited as `tb gen` limits it
/// (`--max-memory`, else [`DEFAULT_MEMORY_SHARE`] of its memory or of its cgroup's limit), on
/// the threads of `--threads`.
fn this_machine() -> Machine {
    use zermelo::memory::Limit;
    let physical = zermelo::memory::physical().unwrap_or(24 << 30);
    let memory_bytes = match crate::limits::memory_limit() {
        Limit::Bytes(b) | Limit::Option(b, _) => b,
        _ => (physical as f64 * DEFAULT_MEMORY_SHARE) as u64,
    };
    Machine {
        memory_bytes,
        threads: rayon::current_num_threads(),
    }
}

/// One line of a table's estimates, for the comments of a Makefile or a script; a table
/// `tb gen` would refuse under the plan's memory says so.
fn cost_line(m: &Material, c: &Cost) -> String {
    let human = zermelo::memory::human_bytes;
    let mut line = format!(
        "# {m}: {} indices, about {} of memory{}, {} of disk, {}",
        c.indices,
        human(c.memory_bytes),
        if c.out_of_core { " (out of core)" } else { "" },
        human(c.disk_bytes),
        duration(c.seconds)
    );
    if !c.fits {
        let _ = write!(
            line,
            "\n# {m} DOES NOT FIT: even out of core it needs about {}, more than the {} of \
             this plan's machine (tb gen refuses it: make the plan on a larger machine or \
             with a larger --max-memory)",
            human(c.least_memory_bytes),
            human(c.memory_bytes)
        );
    }
    line
}

/// Seconds as `1.5 h`, `12 min` or `40 s`.
fn duration(seconds: f64) -> String {
    if seconds >= 5400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else if seconds >= 90.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{seconds:.0} s")
    }
}

/// `tb gen`'s arguments after the material.
fn gen_flags(rule: u32) -> Vec<String> {
    if rule == DEFAULT_RULE {
        Vec::new()
    } else {
        vec!["--rule".into(), rule.to_string()]
    }
}

/// A Makefile: `all`, then per table a phony target named after the material and a file
/// target, its DTZ table (`tb gen` writes it after the DTM table), with the DTZ tables it
/// needs as order-only prerequisites (a table need not be rebuilt when one it was generated
/// from is newer).
fn makefile(
    plan: &Plan,
    dir: &str,
    rule: u32,
    cost: &dyn Fn(&PlannedTable) -> Cost,
) -> CliResult<String> {
    let bad = |c: char| !(c.is_ascii_alphanumeric() || "/._-+,@=~".contains(c));
    if dir.is_empty() || dir.contains(bad) {
        return Err(Failure::input(format!(
            "--tables {dir:?}: make cannot name files in this folder (spaces or one of \
             `$#:%*?'\"\\`); use a path of letters, digits and `/._-+,@=~` (a symbolic link will do)"
        )));
    }
    let dir = dir.trim_end_matches('/');
    let dir = if dir.is_empty() { "/" } else { dir };
    let names: Vec<String> = plan
        .tables()
        .iter()
        .map(|t| t.material.to_string())
        .collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Chess tablebases: {} tables, generated by `zermelo tb plan`.\n\
         # `make -j N` generates up to N independent tables side by side; each target is a\n\
         # table's DTZ file, which `zermelo tb gen` writes after its DTM file. `make NAME`\n\
         # builds one material and what it needs. Every `tb gen` takes its table's lock in\n\
         # the tables folder, so several makes (or machines) may share the folder.\n\
         # Override ZERMELO, TABLES or GENFLAGS on the command line: make ZERMELO=./zermelo",
        names.len()
    );
    let _ = writeln!(s, "ZERMELO ?= zermelo");
    let _ = writeln!(s, "TABLES ?= {dir}");
    let _ = writeln!(s, "GENFLAGS ?= {}", gen_flags(rule).join(" "));
    let _ = writeln!(s);
    let _ = writeln!(s, ".PHONY: all {}", names.join(" "));
    let _ = writeln!(s, "all: {}", names.join(" "));
    for t in plan.tables() {
        let m = &t.material;
        let needs: Vec<String> = t
            .needs
            .iter()
            .map(|n| format!("$(TABLES)/{n}.zdz"))
            .collect();
        let _ = writeln!(s);
        let _ = writeln!(s, "{}", cost_line(m, &cost(t)));
        let _ = writeln!(s, "{m}: $(TABLES)/{m}.zdz");
        if needs.is_empty() {
            let _ = writeln!(s, "$(TABLES)/{m}.zdz:");
        } else {
            let _ = writeln!(s, "$(TABLES)/{m}.zdz: | {}", needs.join(" "));
        }
        let _ = writeln!(s, "\t$(ZERMELO) tb gen {m} --tables $(TABLES) $(GENFLAGS)");
    }
    Ok(s)
}

/// `text` as one word for the POSIX shell.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A POSIX shell script submitting one job per table in generation order, each with
/// `--dependency=afterok:` on the jobs of the tables it needs; tables already in the folder
/// are skipped (when the script runs, not when the plan is made).
fn slurm(plan: &Plan, dir: &str, rule: u32, cost: &dyn Fn(&PlannedTable) -> Cost) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "#!/bin/sh\n\
         # Chess tablebases on a Slurm cluster: {} tables, generated by `zermelo tb plan`.\n\
         # Submits one job per table (`sbatch --parsable`), each held until the jobs of the\n\
         # tables it needs have succeeded (--dependency=afterok); the tables folder must be\n\
         # shared by every node. Tables already there are skipped. Set SBATCH_FLAGS for the\n\
         # partition, account or time limit, ZERMELO for the binary's path on the nodes:\n\
         #   SBATCH_FLAGS='--partition=long --time=12:00:00' sh tb-jobs.sh\n\
         # Each job's output goes to TABLES/.slurm/MATERIAL-JOBID.out.",
        plan.tables().len()
    );
    let _ = writeln!(s, "set -eu");
    let _ = writeln!(s, "ZERMELO=\"${{ZERMELO:-zermelo}}\"");
    let _ = writeln!(s, "SBATCH=\"${{SBATCH:-sbatch}}\"");
    let _ = writeln!(s, "TABLES={}", sh_quote(dir));
    // The folder once more quoted, for the command line of --wrap.
    let _ = writeln!(s, "TABLES_ARG={}", sh_quote(&sh_quote(dir)));
    let flags = gen_flags(rule).join(" ");
    let _ = writeln!(s, "GENFLAGS={}", sh_quote(&flags));
    let _ = writeln!(s, "mkdir -p \"$TABLES/.slurm\"");
    let _ = writeln!(
        s,
        "\n# submit MATERIAL LIMIT_MB MINUTES JOB...: submits MATERIAL's job after the JOBs (empty\n\
         # ones are tables already there) and prints its id; prints nothing if its tables are\n\
         # there. LIMIT_MB is the plan's memory, given to `tb gen` as --max-memory (so that it\n\
         # decides in memory or out of core as the plan did, not from 3/4 of the job's memory\n\
         # cgroup); the job asks Slurm for 256 MB more. MINUTES is twice the estimate (on a\n\
         # machine like the one the plan was made on).\n\
         submit() {{\n\
         \x20 m=$1; limit=$2; minutes=$3; shift 3\n\
         \x20 mem=$((limit + 256))\n\
         \x20 if [ -f \"$TABLES/$m.zct\" ] && [ -f \"$TABLES/$m.zdz\" ]; then return 0; fi\n\
         \x20 deps=\n\
         \x20 for j in \"$@\"; do if [ -n \"$j\" ]; then deps=\"${{deps:+$deps:}}$j\"; fi; done\n\
         \x20 # shellcheck disable=SC2086\n\
         \x20 id=$($SBATCH --parsable --job-name=\"tb-$m\" --mem=\"${{mem}}M\" --time=\"$minutes\" ${{SBATCH_FLAGS:-}} \\\n\
         \x20   ${{deps:+--dependency=afterok:$deps}} --output=\"$TABLES/.slurm/$m-%j.out\" \\\n\
         \x20   --wrap=\"$ZERMELO tb gen $m --tables $TABLES_ARG --max-memory ${{limit}}M $GENFLAGS\")\n\
         \x20 echo \"${{id%%;*}}\"\n\
         }}\n"
    );
    for t in plan.tables() {
        let m = &t.material;
        let c = cost(t);
        let mb = c.memory_bytes.div_ceil(1 << 20);
        let minutes = (2.0 * c.seconds / 60.0).ceil() as u64 + 10;
        let deps: String = t.needs.iter().map(|n| format!(" \"$job_{n}\"")).collect();
        let _ = writeln!(s, "{}", cost_line(m, &c));
        let _ = writeln!(s, "job_{m}=$(submit {m} {mb} {minutes}{deps})");
    }
    let _ = writeln!(
        s,
        "echo \"submitted the jobs of {} tables\"",
        plan.tables().len()
    );
    s
}

/// `{"tables_dir", "rule", "machine": {"memory_bytes", "threads"}, "tables": [{"material",
/// "pieces", "files", "depends_on", "indices", "memory_bytes", "disk_bytes", "seconds",
/// "file_bytes", "out_of_core", "least_memory_bytes", "fits", "command"}], "waves", "total": {"seconds", "file_bytes",
/// "largest_disk_bytes"}}`: the total time is one machine's, table after table.
fn json(
    plan: &Plan,
    dir: &str,
    rule: u32,
    machine: &Machine,
    cost: &dyn Fn(&PlannedTable) -> Cost,
) -> String {
    let (mut seconds, mut files, mut largest) = (0.0, 0u64, 0u64);
    let tables: Vec<serde_json::Value> = plan
        .tables()
        .iter()
        .map(|t| {
            let m = &t.material;
            let mut command = vec![
                "zermelo".to_string(),
                "tb".into(),
                "gen".into(),
                m.to_string(),
                "--tables".into(),
                dir.to_string(),
            ];
            command.extend(gen_flags(rule));
            let c = cost(t);
            seconds += c.seconds;
            files += c.file_bytes;
            largest = largest.max(c.disk_bytes);
            serde_json::json!({
                "material": m.to_string(),
                "pieces": m.piece_count(),
                "files": [Metric::Dtm.file_name(m), Metric::Dtz { rule }.file_name(m)],
                "depends_on": t.needs.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "indices": c.indices,
                "memory_bytes": c.memory_bytes,
                "disk_bytes": c.disk_bytes,
                "file_bytes": c.file_bytes,
                "seconds": (c.seconds * 10.0).round() / 10.0,
                "out_of_core": c.out_of_core,
                "least_memory_bytes": c.least_memory_bytes,
                "fits": c.fits,
                "command": command,
            })
        })
        .collect();
    let waves: Vec<Vec<String>> = plan
        .waves()
        .into_iter()
        .map(|w| w.iter().map(ToString::to_string).collect())
        .collect();
    let doc = serde_json::json!({
        "tables_dir": dir,
        "rule": rule,
        "machine": {"memory_bytes": machine.memory_bytes, "threads": machine.threads},
        "tables": tables,
        "waves": waves,
        "total": {"seconds": seconds.round(), "file_bytes": files, "largest_disk_bytes": largest},
    });
    format!("{doc:#}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting_survives_quotes_and_spaces() {
        assert_eq!(sh_quote("a b"), "'a b'");
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn make_refuses_folders_it_cannot_name() {
        let plan = Plan::all_up_to(3);
        let machine = this_machine();
        let cost = |t: &PlannedTable| t.cost(100, &machine);
        assert!(makefile(&plan, "my tables", 100, &cost).is_err());
        assert!(makefile(&plan, "a$b", 100, &cost).is_err());
        let text = makefile(&plan, "/shared/tb/", 100, &cost).unwrap();
        assert!(text.contains("TABLES ?= /shared/tb\n"), "{text}");
        let rule = text
            .lines()
            .find(|l| l.starts_with("$(TABLES)/KPvK.zdz: | "))
            .expect("KPvK's rule");
        for n in ["KQvK", "KRvK", "KBvK", "KNvK"] {
            assert!(rule.contains(&format!("$(TABLES)/{n}.zdz")), "{rule}");
        }
        assert!(text.contains("$(TABLES)/KQvK.zdz:\n"), "{text}");
    }
}
