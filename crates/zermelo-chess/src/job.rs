//! A generation job: the tables of some [`Targets`] made into a tables folder, the one call
//! behind `zermelo tb gen`, the Makefile of `tb plan` (a `tb gen` per table) and Python's
//! `Tablebase.generate`.
//!
//! What the job decides, so that its front ends only print:
//!
//! * the order: every table after the tables it is generated from ([`Targets`]); a table
//!   whose file is present is checked (every block's checksum) and skipped;
//! * memory, up front: the largest table still to generate is estimated before anything is
//!   made and refused over the [`Limit`]; each table is checked again just before it is made,
//!   with the smaller tables it reads counted by their file sizes;
//! * a lock per table in the tables folder ([`TableLock`]): a table another process is
//!   generating is waited for, or refused;
//! * both metrics: the DTM table and the DTZ table under the job's rule, made together
//!   ([`generate_pair`]) when both are missing;
//! * resuming: checkpoints in the work folder (default `DIR/.work`), so the same job started
//!   again goes on where a killed one stopped and writes the same bytes;
//! * writing: a table goes to a file with no name (or a temporary one) in the tables folder,
//!   is synced and renamed into place, then its work files are deleted;
//! * disk: a table whose work files cannot fit in the space free is refused before it starts
//!   (the least they take: [`DiskFull`]), one that may not fit by the estimate
//!   ([`PlannedTable::disk`](crate::PlannedTable::disk)) is told ([`JobEvent::LowDisk`]),
//!   and a disk that runs full anyway stops the job with what it still needed and what was
//!   free ([`JobError::DiskFull`]); the same job started again with space freed goes on from
//!   the work folder.
//!
//! What happens is told to an observer as [`JobEvent`]s (a table started, its progress
//! counters, solved, written with its statistics, present, waiting for a lock); the run
//! returns a [`JobReport`].
//!
//! ```
//! use zermelo_chess::{GenerationJob, Material, Position, Tablebase, Targets, Value};
//!
//! let dir = tempfile::tempdir()?;
//! let targets = Targets::of(&[Material::parse_table("KRvK")?])?;
//! let report = GenerationJob::new(targets, dir.path()).run(&mut |_event| {})?;
//! assert_eq!(report.written.len(), 2); // KRvK.zct (DTM) and KRvK.zdz (DTZ)
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1")?;
//! assert_eq!(Tablebase::open(dir.path()).probe(&pos)?, Value::Win(27));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zermelo::game::compact::CompactError;
use zermelo::memory::{human_bytes, Estimate, Limit};

use crate::atomic::write_atomically;
use crate::disk::{self, DiskFull};
use crate::dtz::DEFAULT_RULE;
use crate::generate::{
    discard_checkpoint, estimate_memory, estimate_pair_memory, generate_pair, generate_with,
    largest_group, GenError, GenOptions, Lookahead,
};
use crate::index::Indexer;
use crate::lock::{lock_path, Acquire, Holder, TableLock};
use crate::material::Material;
use crate::plan::{disk_use, Targets};
use crate::probe::{table_file_present, ProbeError, Tablebase};
use crate::table::{Metric, Stats, Table, TableError};

/// How long a job waiting for another process's lock sleeps between two attempts.
const LOCK_POLL: Duration = Duration::from_millis(500);

/// The tables to make and how: build one with [`GenerationJob::new`], set what differs from
/// the defaults, then [`run`](GenerationJob::run) it.
#[derive(Clone, Debug)]
pub struct GenerationJob {
    /// The tables, in generation order.
    pub targets: Targets,
    /// The tables folder: made if missing; the smaller tables are read from it.
    pub tables: PathBuf,
    /// The work folder for checkpoints; `None`: `tables/.work`. Made with the first
    /// checkpoint.
    pub work_dir: Option<PathBuf>,
    /// The drawing rule of the DTZ tables in plies (100: the 50-move rule).
    pub rule: u32,
    /// The least time between two checkpoints.
    pub checkpoint_interval: Duration,
    /// Keep the solver's state in a memory-mapped file in the work folder.
    pub mapped: bool,
    /// How the engine finds the wins above a layer of lost positions (the same tables every
    /// way).
    pub lookahead: Lookahead,
    /// The memory the job may use. A table whose solver's state does not fit in it is
    /// generated out of core (the state memory-mapped in the work folder, its resident pages
    /// held under what is left); one whose out-of-core estimate does not fit either is
    /// refused. [`Limit::Available`] (the default) means [`DEFAULT_MEMORY_SHARE`] of the
    /// machine's memory (or of its memory cgroup's limit), so that a table too large for memory
    /// streams instead of being killed by the kernel.
    pub memory: Limit,
    /// Wait while another process holds a table's lock (`false`: refuse with
    /// [`JobError::Held`]).
    pub wait: bool,
    /// For tests: stop with [`GenError::Stopped`] once this many groups of a pawn table are
    /// in the work folder.
    pub stop_after_groups: Option<usize>,
    /// Map the tables folder's tables instead of reading them (see
    /// [`map_tables`](GenerationJob::map_tables)).
    map_tables: bool,
}

/// Which tables of a material are being generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generating {
    /// The table of one metric (the other one is present).
    One(Metric),
    /// The DTM and the DTZ table together.
    Both,
}

/// The counters of the table being generated, for a progress display: both start at 0.
#[derive(Clone, Debug, Default)]
pub struct GenProgress {
    /// Indices settled so far (decided, or in a finished group), of [`JobEvent::Started`]'s
    /// `indices`.
    pub settled: Arc<AtomicU64>,
    /// The layer (depth in plies) being solved.
    pub layer: Arc<AtomicU64>,
}

/// A table the job wrote.
#[derive(Clone, Debug)]
pub struct WrittenTable {
    /// Its material.
    pub material: Material,
    /// Its metric.
    pub metric: Metric,
    /// Its file.
    pub path: PathBuf,
    /// The file's size.
    pub bytes: u64,
    /// The time it took: solving, compressing, writing, counting.
    pub time: Duration,
    /// Its indices (positions up to symmetry, holes included).
    pub indices: u64,
    /// Its counts and longest values.
    pub stats: Stats,
}

/// The share of the machine's memory (or of its memory cgroup's limit) a job uses when no
/// limit is given ([`GenerationJob::memory`] = [`Limit::Available`]).
pub const DEFAULT_MEMORY_SHARE: f64 = 0.75;

/// What a generating process holds besides its estimate (code, threads, buffers of the
/// compressor and of the probes: 24 MiB measured generating KQQQvK, 13 MiB KQvKR), counted
/// against the memory limit with the estimate, and left out of the resident budget of an
/// out-of-core state.
const PROCESS_BASELINE: u64 = 32 << 20;

/// The least resident budget of an out-of-core state (below it, the solver would spend its
/// time faulting pages in): a limit that leaves less is refused.
const MIN_RESIDENT_BUDGET: u64 = 16 << 20;

/// What a job tells its observer, in order.
#[derive(Debug)]
#[non_exhaustive]
pub enum JobEvent<'a> {
    /// Another process holds the lock of `material`; the job waits for it (told again only
    /// when the holder changes).
    Waiting {
        /// The table.
        material: &'a Material,
        /// Who holds the lock.
        holder: &'a Holder,
    },
    /// The table is in the folder (and its checksums are right): skipped.
    Present {
        /// The table's material.
        material: &'a Material,
        /// Its metric.
        metric: Metric,
    },
    /// Generating starts.
    Started {
        /// The material.
        material: &'a Material,
        /// One table or both.
        generating: Generating,
        /// Which target this is, from 1.
        step: usize,
        /// How many targets the job has.
        steps: usize,
        /// The indices to settle: the table's, twice for both tables.
        indices: u64,
        /// The counters the generation moves.
        progress: &'a GenProgress,
    },
    /// The solver's state does not fit in the memory allowed: it is kept in the work folder
    /// and streamed (memory-mapped, its resident pages held under `budget` bytes).
    OutOfCore {
        /// The material.
        material: &'a Material,
        /// The estimate of the generation in memory, in bytes.
        in_memory: u64,
        /// The bytes of the solver's state allowed to stay resident.
        budget: u64,
    },
    /// By the estimate ([`PlannedTable::disk`](crate::PlannedTable::disk)), `material`'s
    /// tables and work files may not fit in the space free on `folder`'s disk: the job goes on
    /// (the estimate is rough), and stops with [`JobError::DiskFull`] if the disk runs full.
    LowDisk {
        /// The table about to be generated.
        material: &'a Material,
        /// The folder (the work folder, or the tables' folder when they are on two disks).
        folder: &'a Path,
        /// The bytes the estimate says it still needs there.
        needed: u64,
        /// The bytes free there.
        free: u64,
    },
    /// Solved; the tables are written next.
    Solved {
        /// The material.
        material: &'a Material,
    },
    /// A table was written.
    Written(&'a WrittenTable),
}

/// What a job did.
#[derive(Clone, Debug, Default)]
pub struct JobReport {
    /// The tables written, in order.
    pub written: Vec<WrittenTable>,
    /// The tables that were present already.
    pub present: Vec<(Material, Metric)>,
    /// The time from the memory check to the last table.
    pub time: Duration,
}

/// A folder of the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folder {
    /// The tables folder ([`GenerationJob::tables`]).
    Tables,
    /// The work folder ([`GenerationJob::work_dir`]).
    Work,
}

impl Folder {
    /// `the tables' folder`, `the work folder`.
    pub fn name(self) -> &'static str {
        match self {
            Folder::Tables => "the tables' folder",
            Folder::Work => "the work folder",
        }
    }
}

/// What is wrong with a folder's path.
#[derive(Debug)]
#[non_exhaustive]
pub enum FolderProblem {
    /// Something else is there (a file, a FIFO).
    NotADirectory,
    /// A symbolic link to this path, where nothing is.
    DanglingLink(PathBuf),
    /// Nothing is there and it cannot be made.
    Create(io::Error),
}

/// A folder of the job cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.describe(self.folder.name()))]
pub struct FolderError {
    /// Its path.
    pub path: PathBuf,
    /// Which folder it was meant to be.
    pub folder: Folder,
    /// What is wrong.
    pub problem: FolderProblem,
}

impl FolderError {
    /// The message, naming the folder `what` (a front end adds its option's name).
    pub fn describe(&self, what: &str) -> String {
        let path = self.path.display();
        match &self.problem {
            FolderProblem::NotADirectory => format!("{path}: not a directory ({what})"),
            FolderProblem::DanglingLink(target) => format!(
                "{path}: a symbolic link to {}, which does not exist ({what})",
                target.display()
            ),
            FolderProblem::Create(e) => format!("{path}: cannot create {what}: {e}"),
        }
    }
}

/// Why a job stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// The tables folder or the work folder cannot be used.
    #[error(transparent)]
    Folder(#[from] FolderError),
    /// A table needs more memory than the job may use.
    #[error("{table}{}: {message}", if *largest { ", the largest table to generate" } else { "" })]
    Memory {
        /// The table: `KQvKR`, `KQvKR (DTZ)`, `KQvKR (DTM and DTZ)`.
        table: String,
        /// Refused up front, as the largest of the job's tables.
        largest: bool,
        /// The estimate against the limit ([`Limit::check`]).
        message: String,
    },
    /// A table's lock cannot be taken (the folder cannot be written, something else at the
    /// lock's name).
    #[error("locking {material}: {source}")]
    Lock {
        /// The table.
        material: Material,
        /// The cause.
        source: io::Error,
    },
    /// Another process is generating a table and the job does not wait.
    #[error("{material} is being generated by {holder}; not waiting")]
    Held {
        /// The table.
        material: Material,
        /// Who holds its lock.
        holder: Holder,
    },
    /// A table in the folder is unusable: damaged, of another rule, or its name taken by
    /// something that is not a file.
    #[error(transparent)]
    Table(ProbeError),
    /// Generating a table failed.
    #[error(transparent)]
    Generate(#[from] GenError),
    /// A table cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The table's file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A written table's work files cannot be deleted.
    #[error("{}: {source}", dir.display())]
    Work {
        /// The work folder.
        dir: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A written table's statistics cannot be counted.
    #[error(transparent)]
    Stats(TableError),
    /// The disk ran full while the job wrote a file, or a table's work files cannot fit in
    /// the space free: what was needed and what is free. The same job started again once
    /// there is room goes on where this one stopped.
    #[error(transparent)]
    DiskFull(Box<DiskFull>),
}

impl GenerationJob {
    /// The job for `targets` in the folder `tables`, with the defaults: the work folder
    /// `tables/.work`, the 50-move rule, a checkpoint a minute, the solver's state in memory
    /// while it fits, a memory limit of [`DEFAULT_MEMORY_SHARE`] of the machine's memory (or of
    /// its memory cgroup's limit), waiting for locks.
    pub fn new(targets: Targets, tables: impl Into<PathBuf>) -> GenerationJob {
        GenerationJob {
            targets,
            tables: tables.into(),
            work_dir: None,
            rule: DEFAULT_RULE,
            checkpoint_interval: Duration::from_secs(60),
            mapped: false,
            lookahead: Lookahead::Auto,
            memory: Limit::Available,
            wait: true,
            stop_after_groups: None,
            map_tables: false,
        }
    }

    /// Maps the tables of the folder instead of reading them into memory: the smaller tables
    /// stay in the page cache, one tablebase serves the whole job, and a present table's
    /// pages are released once its checksums are checked. Read, each target's tables are
    /// opened afresh, so that what one target read is freed before the next.
    ///
    /// # Safety
    /// No table file in the folder may be modified or truncated in place while the job runs
    /// (replacing one by rename, as every job does, is fine).
    #[allow(unsafe_code)]
    pub unsafe fn map_tables(&mut self) {
        self.map_tables = true;
    }

    /// The work folder: [`work_dir`](GenerationJob::work_dir), or `.work` in the tables folder.
    pub fn work_folder(&self) -> PathBuf {
        self.work_dir
            .clone()
            .unwrap_or_else(|| self.tables.join(".work"))
    }

    /// Makes every table of the targets that the folder lacks, telling `observe` what happens.
    ///
    /// # Errors
    /// The first failure ([`JobError`]); the tables written before it stay, and the same job
    /// resumes the table it was generating.
    pub fn run(&self, observe: &mut dyn FnMut(&JobEvent<'_>)) -> Result<JobReport, JobError> {
        folder(&self.tables, Folder::Tables, true)?;
        let work = self.work_folder();
        // Made when the first checkpoint is (a refused job leaves nothing behind).
        folder(&work, Folder::Work, false)?;
        let options = GenOptions {
            work_dir: Some(work.clone()),
            checkpoint_interval: self.checkpoint_interval,
            mapped: self.mapped,
            stop_after_groups: self.stop_after_groups,
            lookahead: self.lookahead,
            ..GenOptions::default()
        };
        self.check_memory_up_front(&options)?;
        self.check_disk_up_front(&options)?;
        let started = Instant::now();
        let shared = self.map_tables.then(|| self.tablebase());
        let mut session = Session {
            job: self,
            work,
            options,
            observe,
            report: JobReport::default(),
        };
        let steps = self.targets.tables().len();
        for (k, m) in self.targets.tables().iter().enumerate() {
            let fresh;
            let tb = match &shared {
                Some(tb) => tb,
                None => {
                    fresh = self.tablebase();
                    &fresh
                }
            };
            session
                .material(m, tb, (k + 1, steps))
                .map_err(|e| self.when_disk_full(e, k))?;
        }
        session.report.time = started.elapsed();
        Ok(session.report)
    }

    /// The two metrics, DTM first.
    fn metrics(&self) -> [Metric; 2] {
        [Metric::Dtm, Metric::Dtz { rule: self.rule }]
    }

    fn tablebase(&self) -> Tablebase {
        let tb = if self.map_tables {
            // SAFETY: whoever called `map_tables` vouched that no table of the folder changes
            // in place; the job itself replaces tables only by rename.
            #[allow(unsafe_code)]
            unsafe {
                Tablebase::open_mapped(&self.tables)
            }
        } else {
            Tablebase::open(&self.tables)
        };
        tb.with_rule(self.rule)
    }

    /// The file of `m`'s table of `metric`.
    fn path(&self, m: &Material, metric: Metric) -> PathBuf {
        self.tables.join(metric.file_name(m))
    }

    /// Whether `m`'s table of `metric` is there (something else at its name is an error).
    fn present(&self, m: &Material, metric: Metric) -> Result<bool, JobError> {
        table_file_present(&self.path(m, metric)).map_err(JobError::Table)
    }

    /// The tables still to generate: each material with the metric generated alone, or
    /// `None` for both together.
    fn to_generate(&self) -> Result<Vec<(&Material, Option<Metric>)>, JobError> {
        let mut todo = Vec::new();
        for m in self.targets.tables() {
            let mut missing = Vec::new();
            for metric in self.metrics() {
                if !self.present(m, metric)? {
                    missing.push(metric);
                }
            }
            if let [Metric::Dtm, Metric::Dtz { .. }] = missing[..] {
                todo.push((m, None));
                continue;
            }
            todo.extend(missing.into_iter().map(|metric| (m, Some(metric))));
        }
        Ok(todo)
    }

    /// Refuses before anything is generated when a table to generate does not fit in memory
    /// (the largest one is named).
    fn check_memory_up_front(&self, options: &GenOptions) -> Result<(), JobError> {
        // (estimate, material, the metric generated alone or `None` for both together)
        let mut largest: Option<(u64, &Material, Option<Metric>)> = None;
        for (m, metric) in self.to_generate()? {
            let estimate = match metric {
                None => estimate_pair_memory(m, options, self.rule),
                Some(metric) => estimate_memory(
                    m,
                    &GenOptions {
                        metric,
                        ..options.clone()
                    },
                ),
            };
            if largest.is_none_or(|(e, ..)| estimate > e) {
                largest = Some((estimate, m, metric));
            }
        }
        match largest {
            Some((_, m, metric)) => self.fit_up_front(m, metric, options).map(|_| ()),
            None => Ok(()),
        }
    }

    /// [`fit`](Self::fit) for `m`'s table of `metric` (`None`: both together), named as the
    /// largest table to generate.
    fn fit_up_front(
        &self,
        m: &Material,
        metric: Option<Metric>,
        options: &GenOptions,
    ) -> Result<(GenOptions, Option<(u64, u64)>), JobError> {
        let (table, graph) = match metric {
            Some(Metric::Dtm) => (m.to_string(), self.dependencies_size(m, Metric::Dtm)),
            Some(dtz) => (format!("{m} (DTZ)"), self.dependencies_size(m, dtz)),
            None => (
                format!("{m} (DTM and DTZ)"),
                self.metrics()
                    .iter()
                    .map(|&x| self.dependencies_size(m, x))
                    .max()
                    .unwrap_or(0),
            ),
        };
        let options = GenOptions {
            metric: metric.unwrap_or(Metric::Dtm),
            ..options.clone()
        };
        let estimate = |o: &GenOptions| match metric {
            Some(_) => estimate_memory(m, o),
            None => estimate_pair_memory(m, o, self.rule),
        };
        self.fit(table, true, graph, &options, estimate)
    }

    /// Refuses before anything is generated when the work files of a table to generate cannot
    /// fit in the space free on the work folder's disk (the table needing most is named).
    fn check_disk_up_front(&self, options: &GenOptions) -> Result<(), JobError> {
        let mut most: Option<(u64, &Material)> = None;
        for (m, metric) in self.to_generate()? {
            // A table refused for its memory is refused when it comes (up front, only the
            // largest is checked): taken as out of core here.
            let mapped = self
                .fit_up_front(m, metric, options)
                .map_or(true, |(o, _)| o.mapped);
            let least = self.least_work(m, metric.is_none(), mapped);
            if most.is_none_or(|(b, _)| least > b) {
                most = Some((least, m));
            }
        }
        match most {
            Some((least, m)) => self.check_room(m, least),
            None => Ok(()),
        }
    }

    /// The least the work files of `m` take on the disk besides what they hold already: the
    /// DTZ starts of its largest group when both tables are made together (`pair`), and the
    /// solver's state of that group when it is `mapped` (both written whole, 2 bytes per
    /// index each; the state file reserved at once).
    fn least_work(&self, m: &Material, pair: bool, mapped: bool) -> u64 {
        let whole = (u64::from(pair) + u64::from(mapped)) * 2 * largest_group(m);
        whole.saturating_sub(disk::held(&self.work_folder(), m))
    }

    /// Refuses `m` when the `least` bytes its work files take are more than the work folder's
    /// disk has free.
    fn check_room(&self, m: &Material, least: u64) -> Result<(), JobError> {
        let work = self.work_folder();
        match disk::free_space(&work) {
            Some(free) if free < least => Err(JobError::DiskFull(Box::new(DiskFull {
                material: m.clone(),
                file: None,
                folder: work,
                needed: least,
                free: Some(free),
            }))),
            _ => Ok(()),
        }
    }

    /// The estimate of what generating `m` (both tables with `pair`) still needs on the
    /// disk, with the folders where it is short of the space free: `(folder, needed, free)`.
    fn short_of_disk(&self, m: &Material, pair: bool) -> Vec<(PathBuf, u64, u64)> {
        let (tables, work) = (self.tables.clone(), self.work_folder());
        let d = disk_use(m);
        let (files, work_files) = if pair {
            (d.files, d.work)
        } else {
            // One table's file, no DTZ starts.
            (d.files / 2, d.work.saturating_sub(2 * largest_group(m)))
        };
        let work_files = work_files.saturating_sub(disk::held(&work, m));
        let needs = if disk::same_file_system(&tables, &work) {
            vec![(work, files + work_files)]
        } else {
            vec![(tables, files), (work, work_files)]
        };
        needs
            .into_iter()
            .filter_map(|(folder, needed)| {
                let free = disk::free_space(&folder)?;
                (free < needed).then_some((folder, needed, free))
            })
            .collect()
    }

    /// `e` as [`JobError::DiskFull`] when it is the disk running full while target `k` was
    /// generated: the file, what the job still needs on that disk, what is free there.
    fn when_disk_full(&self, e: JobError, k: usize) -> JobError {
        let (file, source) = match e {
            JobError::Write { path, source } if disk::is_full(&source) => (path, source),
            JobError::Lock { material, source } if disk::is_full(&source) => {
                (lock_path(&self.tables, &material), source)
            }
            JobError::Generate(GenError::WorkFile { path, source, .. })
                if disk::is_full(&source) =>
            {
                (path, source)
            }
            JobError::Generate(GenError::Engine {
                source: CompactError::Io { path, source },
                ..
            }) if disk::is_full(&source) => (path, source),
            e => return e,
        };
        let work = self.work_folder();
        let folder = if file.starts_with(&work) {
            work
        } else {
            self.tables.clone()
        };
        JobError::DiskFull(Box::new(DiskFull {
            material: self.targets.tables()[k].clone(),
            needed: self.remaining_disk(k, &folder),
            free: disk::free_space(&folder),
            folder,
            file: Some((file, source)),
        }))
    }

    /// The estimate of what the job still writes on the disk of `folder` (the tables' or the
    /// work folder) from target `k` on, at its fullest: the files of the tables still to make
    /// and the largest work folder among them, less what the work files of target `k` hold
    /// already.
    fn remaining_disk(&self, k: usize, folder: &Path) -> u64 {
        let work = self.work_folder();
        let same = disk::same_file_system(&self.tables, &work);
        let (on_tables, on_work) = (same || folder != work, same || folder == work);
        let (mut written, mut peak) = (0u64, 0u64);
        for m in &self.targets.tables()[k..] {
            let missing = self
                .metrics()
                .iter()
                .filter(|&&metric| !self.present(m, metric).unwrap_or(false))
                .count() as u64;
            if missing == 0 {
                continue;
            }
            let d = disk_use(m);
            let files = if on_tables { d.files * missing / 2 } else { 0 };
            let work_files = if on_work { d.work } else { 0 };
            peak = peak.max(written + files + work_files);
            written += files;
        }
        let held = if on_work {
            disk::held(&work, &self.targets.tables()[k])
        } else {
            0
        };
        peak.saturating_sub(held)
    }

    /// The memory the job may use as a limit: [`Limit::Available`] becomes
    /// [`DEFAULT_MEMORY_SHARE`] of [`zermelo::memory::physical`].
    fn limit(&self) -> Limit {
        match self.memory {
            Limit::Available => match zermelo::memory::physical() {
                Some(p) => Limit::Option(
                    (p as f64 * DEFAULT_MEMORY_SHARE) as u64,
                    "the default limit (3/4 of this machine's memory; raise it with --max-memory)",
                ),
                None => Limit::Unlimited,
            },
            other => other,
        }
    }

    /// How a table is generated within the memory allowed: `options` as they are when the
    /// smaller tables it reads (`dependencies` bytes), the solver's estimate and the process
    /// itself ([`PROCESS_BASELINE`]) fit; else out of core (`mapped`, with the resident budget
    /// of what the limit leaves, at least [`MIN_RESIDENT_BUDGET`]); refused
    /// ([`JobError::Memory`]) when even that does not fit, so that the peak stays under the
    /// limit. Returns the options and, out of core, the in-memory estimate and the budget.
    fn fit(
        &self,
        table: String,
        largest: bool,
        dependencies: u64,
        options: &GenOptions,
        estimate: impl Fn(&GenOptions) -> u64,
    ) -> Result<(GenOptions, Option<(u64, u64)>), JobError> {
        let limit = self.limit();
        // The process itself counts against the limit too: a limit below it cannot be kept.
        let at = |solving: u64| Estimate {
            graph: dependencies,
            loading: 0,
            solving: solving.saturating_add(PROCESS_BASELINE),
        };
        let in_memory = estimate(options);
        let bound = match limit {
            Limit::Bytes(b) | Limit::Option(b, _) => Some(b),
            _ => None,
        };
        let budget = |core: u64| {
            bound.map(|b| {
                b.saturating_sub(dependencies + core + PROCESS_BASELINE)
                    .max(MIN_RESIDENT_BUDGET)
            })
        };
        if limit.check(at(in_memory)).is_ok() {
            let mut options = options.clone();
            if options.mapped {
                // Mapped by choice: the state's pages stay within what the limit leaves.
                options.resident_budget = budget(estimate(&options));
            }
            return Ok((options, None));
        }
        let mapped = GenOptions {
            mapped: true,
            ..options.clone()
        };
        // Out of core, the state's pages need a resident budget of their own.
        let core = estimate(&mapped);
        let least = core.saturating_add(MIN_RESIDENT_BUDGET);
        if let Err(message) = limit.check(at(least)) {
            // Refused: the message gives the lesser of the two needs.
            let message = match limit.check(at(in_memory)) {
                Err(m) if in_memory <= least => format!(
                    "{m} (solving counts {} for the process itself)",
                    human_bytes(PROCESS_BASELINE)
                ),
                _ => format!(
                    "{message} (the state out of core: solving counts {} for the process \
                     itself and the {} the state keeps resident at least)",
                    human_bytes(PROCESS_BASELINE),
                    human_bytes(MIN_RESIDENT_BUDGET)
                ),
            };
            return Err(JobError::Memory {
                table,
                largest,
                message,
            });
        }
        let budget = budget(core).unwrap_or(u64::MAX);
        Ok((
            GenOptions {
                resident_budget: Some(budget),
                ..mapped
            },
            Some((in_memory, budget)),
        ))
    }

    /// The bytes of the smaller tables of `m` already in the folder (read while `m` is
    /// generated).
    fn dependencies_size(&self, m: &Material, metric: Metric) -> u64 {
        m.successors()
            .iter()
            .filter_map(|d| std::fs::metadata(self.path(d, metric)).ok())
            .map(|meta| meta.len())
            .sum()
    }
}

/// A job being run: where it writes, whom it tells, what it did.
struct Session<'a> {
    job: &'a GenerationJob,
    work: PathBuf,
    options: GenOptions,
    observe: &'a mut dyn FnMut(&JobEvent<'_>),
    report: JobReport,
}

impl Session<'_> {
    /// Makes the tables of `m` that are missing, under its lock.
    fn material(
        &mut self,
        m: &Material,
        tb: &Tablebase,
        step: (usize, usize),
    ) -> Result<(), JobError> {
        let job = self.job;
        let mut missing = false;
        for metric in job.metrics() {
            missing |= !job.present(m, metric)?;
        }
        // Another process (here or on another machine sharing the folder) may be making it.
        let _lock = if missing { Some(self.lock(m)?) } else { None };
        let mut absent = true;
        for metric in job.metrics() {
            absent &= !job.present(m, metric)?;
        }
        if absent {
            // Both at once: the DTZ groups are seeded from the DTM seeding's starts.
            return self.pair(m, tb, step);
        }
        for metric in job.metrics() {
            self.one(m, metric, tb, step)?;
        }
        Ok(())
    }

    /// Takes `m`'s lock in the tables folder, waiting while another live process holds it
    /// (or refusing, if the job does not wait).
    fn lock(&mut self, m: &Material) -> Result<TableLock, JobError> {
        let mut told: Option<(u32, String)> = None;
        loop {
            let acquired =
                TableLock::try_acquire(&self.job.tables, m).map_err(|source| JobError::Lock {
                    material: m.clone(),
                    source,
                })?;
            let holder = match acquired {
                Acquire::Acquired(lock) => return Ok(lock),
                Acquire::Held(holder) => holder,
            };
            if !self.job.wait {
                return Err(JobError::Held {
                    material: m.clone(),
                    holder,
                });
            }
            let who = (holder.pid, holder.host.clone());
            if told.as_ref() != Some(&who) {
                (self.observe)(&JobEvent::Waiting {
                    material: m,
                    holder: &holder,
                });
                told = Some(who);
            }
            std::thread::sleep(LOCK_POLL);
        }
    }

    /// Generates and writes `m`'s table of `metric` unless it is present (and readable).
    fn one(
        &mut self,
        m: &Material,
        metric: Metric,
        tb: &Tablebase,
        (step, steps): (usize, usize),
    ) -> Result<(), JobError> {
        let job = self.job;
        let path = job.path(m, metric);
        if job.present(m, metric)? {
            // Opening it checks every block's checksum (and lets a mapped table's pages go
            // again: a resumed `--all 5` counted the 1.6 GB of tables present in its peak).
            tb.table_for(m, metric).map_err(JobError::Table)?;
            (self.observe)(&JobEvent::Present {
                material: m,
                metric,
            });
            self.report.present.push((m.clone(), metric));
            return Ok(());
        }
        let options = GenOptions {
            metric,
            ..self.options.clone()
        };
        let (options, out_of_core) = job.fit(
            m.to_string(),
            false,
            job.dependencies_size(m, metric),
            &options,
            |o| estimate_memory(m, o),
        )?;
        self.tell_out_of_core(m, out_of_core);
        self.room(m, false, options.mapped)?;
        let t0 = Instant::now();
        let progress = GenProgress::default();
        (self.observe)(&JobEvent::Started {
            material: m,
            generating: Generating::One(metric),
            step,
            steps,
            indices: Indexer::new(m).size(),
            progress: &progress,
        });
        let options = GenOptions {
            layer: Some(progress.layer.clone()),
            ..options
        };
        let table = generate_with(m, tb, &progress.settled, &options)?;
        (self.observe)(&JobEvent::Solved { material: m });
        self.write(m, &table, None, path, t0.elapsed())
    }

    /// Generates and writes both tables of `m` ([`generate_pair`]), neither being present.
    fn pair(
        &mut self,
        m: &Material,
        tb: &Tablebase,
        (step, steps): (usize, usize),
    ) -> Result<(), JobError> {
        let job = self.job;
        let [dtm, dtz] = job.metrics();
        let (options, out_of_core) = job.fit(
            m.to_string(),
            false,
            // Read block by block and released after each group: the larger set counts.
            job.dependencies_size(m, dtm)
                .max(job.dependencies_size(m, dtz)),
            &self.options,
            |o| estimate_pair_memory(m, o, job.rule),
        )?;
        self.tell_out_of_core(m, out_of_core);
        self.room(m, true, options.mapped)?;
        let progress = GenProgress::default();
        (self.observe)(&JobEvent::Started {
            material: m,
            generating: Generating::Both,
            step,
            steps,
            indices: 2 * Indexer::new(m).size(),
            progress: &progress,
        });
        let options = GenOptions {
            layer: Some(progress.layer.clone()),
            ..options
        };
        let pair = generate_pair(m, tb, &progress.settled, &options)?;
        (self.observe)(&JobEvent::Solved { material: m });
        // A DTM table kept in the work folder by a killed run comes back without the counts its
        // solve made: its DTZ twin tells its holes from its losses in 254 plies (which the
        // index alone tells only by decoding every filler entry's board: 15 s of KQQQQvK).
        self.write(
            m,
            &pair.dtm,
            Some(&pair.dtz),
            job.path(m, dtm),
            pair.dtm_time,
        )?;
        self.write(m, &pair.dtz, None, job.path(m, dtz), pair.dtz_time)
    }

    /// Refuses `m` (both tables with `pair`, its state `mapped` or not) when its work files
    /// cannot fit in the space free on the disk; tells the observer where the estimate says
    /// that its files may not.
    fn room(&mut self, m: &Material, pair: bool, mapped: bool) -> Result<(), JobError> {
        let job = self.job;
        job.check_room(m, job.least_work(m, pair, mapped))?;
        for (folder, needed, free) in job.short_of_disk(m, pair) {
            (self.observe)(&JobEvent::LowDisk {
                material: m,
                folder: &folder,
                needed,
                free,
            });
        }
        Ok(())
    }

    /// Tells the observer that `m` is generated out of core (`(in-memory estimate, budget)`).
    fn tell_out_of_core(&mut self, m: &Material, out_of_core: Option<(u64, u64)>) {
        if let Some((in_memory, budget)) = out_of_core {
            (self.observe)(&JobEvent::OutOfCore {
                material: m,
                in_memory,
                budget,
            });
        }
    }

    /// Writes a generated table to `path`, deletes its work files, counts its statistics (with
    /// the DTZ `twin` of a DTM table where there is one) and tells the observer.
    fn write(
        &mut self,
        m: &Material,
        table: &Table,
        twin: Option<&Table>,
        path: PathBuf,
        took: Duration,
    ) -> Result<(), JobError> {
        let t0 = Instant::now();
        let metric = table.metric();
        let bytes =
            write_atomically(&path, |w| table.write_to(w)).map_err(|source| JobError::Write {
                path: path.clone(),
                source,
            })?;
        discard_checkpoint(&self.work, m, metric).map_err(|source| JobError::Work {
            dir: self.work.clone(),
            source,
        })?;
        let stats = match twin {
            Some(z) => table.stats_with_twin(z),
            None => table.stats(),
        }
        .map_err(JobError::Stats)?;
        let written = WrittenTable {
            material: m.clone(),
            metric,
            path,
            bytes,
            time: took + t0.elapsed(),
            indices: table.size(),
            stats,
        };
        (self.observe)(&JobEvent::Written(&written));
        self.report.written.push(written);
        Ok(())
    }
}

/// Makes sure `dir` is a folder or nothing, creating it (and its parents) if nothing is there
/// and `create` says so; something else at its path (a file, a FIFO, a link to nothing) is an
/// error naming the folder it was meant to be.
fn folder(dir: &Path, which: Folder, create: bool) -> Result<(), FolderError> {
    let problem = match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => FolderProblem::NotADirectory,
        // Looked at again without following links: another process may have made the folder
        // since (two `tb gen` into one new folder), which is no error.
        Err(_) => match std::fs::symlink_metadata(dir) {
            Ok(m) if m.file_type().is_symlink() => {
                FolderProblem::DanglingLink(std::fs::read_link(dir).unwrap_or_default())
            }
            Ok(m) if m.is_dir() => return Ok(()),
            Ok(_) => FolderProblem::NotADirectory,
            Err(_) if !create => return Ok(()),
            Err(_) => match std::fs::create_dir_all(dir) {
                Ok(()) => return Ok(()),
                Err(e) => FolderProblem::Create(e),
            },
        },
    };
    Err(FolderError {
        path: dir.to_path_buf(),
        folder: which,
        problem,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(targets: &str, dir: &Path) -> GenerationJob {
        let m = Material::parse_table(targets).unwrap();
        GenerationJob::new(Targets::of(&[m]).unwrap(), dir)
    }

    #[test]
    fn a_job_makes_both_tables_once_and_then_finds_them_present() {
        let dir = tempfile::tempdir().unwrap();
        let mut events = Vec::new();
        let report = job("KRvK", dir.path())
            .run(&mut |e| {
                events.push(match e {
                    JobEvent::Started { generating, .. } => format!("started {generating:?}"),
                    JobEvent::Solved { .. } => "solved".into(),
                    JobEvent::Written(w) => format!("{} {}", w.material, w.metric.name()),
                    other => format!("{other:?}"),
                })
            })
            .unwrap();
        assert_eq!(events, ["started Both", "solved", "KRvK DTM", "KRvK DTZ"]);
        let names: Vec<_> = report.written.iter().map(|w| w.path.clone()).collect();
        assert_eq!(
            names,
            [dir.path().join("KRvK.zct"), dir.path().join("KRvK.zdz")]
        );
        // Nothing but the tables (the work folder is made by the first checkpoint, if any).
        let mut files: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".work")
            .collect();
        files.sort();
        assert_eq!(files, ["KRvK.zct", "KRvK.zdz"]);
        let again = job("KRvK", dir.path()).run(&mut |_| {}).unwrap();
        assert!(again.written.is_empty());
        assert_eq!(again.present.len(), 2);
    }

    #[test]
    fn a_job_over_its_memory_limit_makes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = job("KQvKR", dir.path());
        j.memory = Limit::Bytes(1 << 20);
        let e = j.run(&mut |_| {}).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("KQvKR (DTM and DTZ), the largest table to generate: "),
            "{e}"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// A damaged seeding checkpoint is refused with what to do (delete the group's checkpoints
    /// and run again), and doing so makes the table.
    #[test]
    fn a_damaged_seeding_checkpoint_says_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let j = job("KRvK", dir.path());
        let group = j.work_folder().join("KRvK");
        std::fs::create_dir_all(&group).unwrap();
        let mut header = b"ZMSEED01".to_vec();
        header.resize(52, 0);
        std::fs::write(group.join("seed.zck"), header).unwrap();
        let e = j.run(&mut |_| {}).unwrap_err();
        assert!(
            matches!(
                &e,
                JobError::Generate(GenError::Engine {
                    source: CompactError::Checkpoint { .. },
                    ..
                })
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "generating KRvK: {}: damaged: checksum mismatch; delete {} (the checkpoints of \
                 the group being solved) and run the same command again: the group starts over",
                group.join("seed.zck").display(),
                group.display()
            )
        );
        std::fs::remove_dir_all(&group).unwrap();
        assert_eq!(j.run(&mut |_| {}).unwrap().written.len(), 2);
    }

    /// `--max-memory` is kept, not only compared with the estimate: the process itself counts,
    /// and out of core the least resident budget of the state too, so a limit below that is
    /// refused and one at it is taken (in memory, or out of core with that budget).
    #[test]
    fn a_limit_below_the_process_and_its_least_budget_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let options = GenOptions {
            work_dir: Some(dir.path().join(".work")),
            ..GenOptions::default()
        };
        let fit = |material: &str, limit: u64| {
            let m = Material::parse_table(material).unwrap();
            let mut j = job(material, dir.path());
            j.memory = Limit::Option(limit, "--max-memory");
            j.fit(m.to_string(), false, 0, &options, |o| {
                estimate_pair_memory(&m, o, 100)
            })
        };
        // KRvK: in memory at its estimate and the process, refused below.
        let m = Material::parse_table("KRvK").unwrap();
        let least = estimate_pair_memory(&m, &options, 100) + PROCESS_BASELINE;
        let (o, out_of_core) = fit("KRvK", least).unwrap();
        assert!(!o.mapped && out_of_core.is_none());
        let Err(JobError::Memory { message, .. }) = fit("KRvK", least - 1) else {
            panic!("refused");
        };
        // The lesser need: in memory, not out of core.
        assert!(
            message.starts_with(&format!("this job needs about {} ", human_bytes(least)))
                && message.ends_with(&format!(
                    "but only {} is allowed by --max-memory (solving counts 32.0 MiB for the \
                     process itself)",
                    human_bytes(least - 1)
                )),
            "{message}"
        );
        assert!(fit("KRvK", 1 << 20).is_err());
        // KQQvKQ (236 MB of state): out of core down to its bitmaps, compressed tables, the
        // process and the least budget; refused below.
        let m = Material::parse_table("KQQvKQ").unwrap();
        let mapped = GenOptions {
            mapped: true,
            ..options.clone()
        };
        let floor = estimate_pair_memory(&m, &mapped, 100) + PROCESS_BASELINE + MIN_RESIDENT_BUDGET;
        assert!(floor < estimate_pair_memory(&m, &options, 100) / 2);
        let (o, out_of_core) = fit("KQQvKQ", floor).unwrap();
        assert!(o.mapped);
        assert_eq!(out_of_core.unwrap().1, MIN_RESIDENT_BUDGET);
        assert_eq!(o.resident_budget, Some(MIN_RESIDENT_BUDGET));
        assert!(fit("KQQvKQ", floor - 1).is_err());
    }

    /// The work folder's section of docs/formats.md names every file a generation leaves
    /// there and the magic of each file with a header (`<material>` for the material), and no
    /// longer says that a resumed run ignores the DTZ starts.
    #[test]
    fn docs_formats_md_describes_the_work_folder_as_written() {
        let docs = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/formats.md"),
        )
        .unwrap();
        let start = docs.find("## Chess generation work folder").unwrap();
        let section = &docs[start..];
        let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
        assert!(!section.contains("does not read it"), "{section}");
        // And the global options say what `tb gen`'s default limit is.
        let global = &docs[docs.find("## Global options").unwrap()..start];
        assert!(
            global.contains("`tb gen`'s default is 3/4 of the machine's memory"),
            "{global}"
        );
        // A pawn table stopped after its first groups: values, group counts, DTZ starts.
        let dir = tempfile::tempdir().unwrap();
        let mut j = job("KPvK", dir.path());
        j.stop_after_groups = Some(1);
        j.checkpoint_interval = Duration::ZERO;
        assert!(matches!(
            j.run(&mut |_| {}),
            Err(JobError::Generate(GenError::Stopped(..)))
        ));
        let work = j.work_folder();
        let mut files: Vec<PathBuf> = Vec::new();
        let mut dirs = vec![work.clone()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else {
                    files.push(p);
                }
            }
        }
        // And the finished DTM table a pawnless pair keeps there.
        files.push(crate::checkpoint::finished_table_path(&work, "KQvKR"));
        let mut magics = 0;
        for path in &files {
            let name = path.file_name().unwrap().to_string_lossy();
            // A DTZ table's files are named after `<material>.dtz` (said once in the section).
            let documented =
                name.replacen("KPvK", "<material>", 1)
                    .replacen("KQvKR", "<material>", 1);
            let as_dtm = documented.replacen("<material>.dtz.", "<material>.", 1);
            assert!(
                [&documented, &as_dtm]
                    .iter()
                    .any(|n| section.contains(&format!("`{n}`"))),
                "{documented} ({}) is not in docs/formats.md",
                path.display()
            );
            let head = std::fs::read(path).unwrap_or_default();
            if let Some(magic) = head.get(..8).filter(|m| m.starts_with(b"Z")) {
                let magic = String::from_utf8_lossy(magic);
                assert!(section.contains(&format!("`{magic}`")), "{magic} of {name}");
                magics += 1;
            }
        }
        assert!(
            files.iter().any(|p| p.ends_with("KPvK.dtz.starts")) && magics >= 3,
            "{files:?}"
        );
    }

    /// Every way a write of the job meets a full disk (a table, its lock, a work file of the
    /// generation, the engine's checkpoint or state) is told as [`JobError::DiskFull`] naming
    /// the file, with what the job still needs on that disk and what is free there; other
    /// failures stay what they were.
    #[test]
    fn a_full_disk_names_the_file_what_is_needed_and_what_is_free() {
        let dir = tempfile::tempdir().unwrap();
        let j = job("KQvKR", dir.path());
        let k = j.targets.tables().len() - 1;
        let work = j.work_folder();
        let m = Material::parse_table("KQvKR").unwrap();
        let enospc = || io::Error::from_raw_os_error(28);
        let edquot = || io::Error::from_raw_os_error(122);
        let starts = work.join("KQvKR.dtz.starts");
        let cases = [
            (
                JobError::Write {
                    path: dir.path().join("KQvKR.zct"),
                    source: enospc(),
                },
                dir.path().join("KQvKR.zct"),
            ),
            (
                JobError::Lock {
                    material: m.clone(),
                    source: edquot(),
                },
                dir.path().join("KQvKR.lock"),
            ),
            (
                JobError::Generate(GenError::WorkFile {
                    material: m.clone(),
                    path: starts.clone(),
                    source: enospc(),
                }),
                starts.clone(),
            ),
            (
                JobError::Generate(GenError::Engine {
                    material: m.clone(),
                    source: CompactError::Io {
                        path: work.join("KQvKR/state.cells"),
                        source: io::Error::new(
                            io::ErrorKind::StorageFull,
                            "cannot reserve the 6989136 bytes of the solver's state",
                        ),
                    },
                }),
                work.join("KQvKR/state.cells"),
            ),
        ];
        for (e, file) in cases {
            let JobError::DiskFull(full) = j.when_disk_full(e, k) else {
                panic!("{} is a full disk", file.display());
            };
            assert_eq!(full.material, m);
            assert_eq!(full.file.as_ref().unwrap().0, file);
            let folder = if file.starts_with(&work) {
                &work
            } else {
                &j.tables
            };
            assert_eq!(&full.folder, folder);
            // Nothing made yet: both tables of KQvKR and its work folder at its fullest.
            let d = disk_use(&m);
            assert_eq!(full.needed, d.files + d.work);
            assert!(full.free.is_some());
            // (The temporary folder has more free than the estimate: "more than".)
            let text = full.to_string();
            assert!(
                text.starts_with(&format!("{}: ", file.display()))
                    && text.contains("the disk is full; generating KQvKR needs ")
                    && text.contains(&human_bytes(d.files + d.work))
                    && text.contains(" free there); free some space"),
                "{text}"
            );
        }
        let other = JobError::Generate(GenError::WorkFile {
            material: m.clone(),
            path: starts,
            source: io::Error::from_raw_os_error(5),
        });
        assert!(matches!(
            j.when_disk_full(other, k),
            JobError::Generate(GenError::WorkFile { .. })
        ));
    }

    /// The least a table's work files take is what a run has not written yet: the DTZ starts
    /// of a pair, the state file out of core, less the blocks the work folder holds for it.
    #[test]
    fn the_least_disk_of_a_table_is_its_starts_and_state_less_what_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let j = job("KQvKR", dir.path());
        let m = Material::parse_table("KQvKR").unwrap();
        let group = Indexer::new(&m).size();
        assert_eq!(j.least_work(&m, false, false), 0);
        assert_eq!(j.least_work(&m, true, false), 2 * group);
        assert_eq!(j.least_work(&m, true, true), 4 * group);
        let work = j.work_folder();
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(work.join("KQvKR.dtz.starts"), vec![7u8; 1 << 20]).unwrap();
        let left = j.least_work(&m, true, false);
        assert!(left <= 2 * group - (1 << 20), "{left}");
        // Refused, naming what is needed and what is free, when the disk has less.
        assert!(j.check_room(&m, 1 << 20).is_ok());
        let JobError::DiskFull(e) = j.check_room(&m, u64::MAX).unwrap_err() else {
            panic!("a full disk");
        };
        assert!(e.file.is_none() && e.needed == u64::MAX && e.free.is_some());
        assert!(
            e.to_string()
                .starts_with("KQvKR: its work files need at least "),
            "{e}"
        );
    }

    #[test]
    fn a_file_where_a_folder_belongs_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = job("KRvK", &file).run(&mut |_| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: not a directory (the tables' folder)", file.display())
        );
        let mut j = job("KRvK", dir.path());
        j.work_dir = Some(file.clone());
        let JobError::Folder(e) = j.run(&mut |_| {}).unwrap_err() else {
            panic!("a folder error");
        };
        assert_eq!(e.folder, Folder::Work);
        assert_eq!(
            e.describe("the work folder, --work-dir"),
            format!(
                "{}: not a directory (the work folder, --work-dir)",
                file.display()
            )
        );
    }
}
