//! The material dependency graph as a build plan: which tables a set of targets needs, and
//! which tables each of them waits for.
//!
//! A table is generated from the tables one capture or one promotion away
//! ([`Material::successors`], the tables [`generate`](crate::generate) probes); once those are
//! written it depends on nothing else, so tables whose dependencies are done can be built side
//! by side, on one machine (`make -j N`) or on many (one batch job per table), the slices of
//! seed 002. The plan lists every table of the targets' closure in generation order (each after
//! its dependencies) with its direct dependencies; the transitive ones are implied.
//!
//! Cost: O(T x S) for T tables of S successors each (S <= 12 for 5 pieces).
//!
//! Each table also comes with what generating it is estimated to take on a [`Machine`]
//! ([`PlannedTable::cost`]): memory, disk and time, from its index size and the rates measured
//! on the machine the project is measured on (2 cores of an AMD EPYC Zen 5, 24 GiB), so that a
//! plan for many machines can be sized before it runs.

use std::path::PathBuf;

use crate::generate::{estimate_memory, estimate_pair_memory, GenOptions};
use crate::index::Indexer;
use crate::material::{Material, TargetError, MAX_PIECES};
use crate::square::Color;
use crate::table::Metric;

/// The tables a job is asked for, checked once: canonical materials of 3 to [`MAX_PIECES`]
/// pieces, closed under dependencies and in generation order (each after the tables it is
/// generated from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Targets {
    order: Vec<Material>,
}

impl Targets {
    /// `materials` (any orientation) and every table they depend on.
    ///
    /// # Errors
    /// [`TargetError::Pieces`] for a material no table holds.
    pub fn of(materials: &[Material]) -> Result<Targets, TargetError> {
        let checked = materials
            .iter()
            .map(Material::table)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Targets {
            order: Material::generation_order(&checked),
        })
    }

    /// Every table of 3 to `max_pieces` pieces.
    ///
    /// # Errors
    /// [`TargetError::AllPieces`] unless `max_pieces` is 3 to [`MAX_PIECES`].
    pub fn all_up_to(max_pieces: usize) -> Result<Targets, TargetError> {
        if !(3..=MAX_PIECES).contains(&max_pieces) {
            return Err(TargetError::AllPieces(max_pieces));
        }
        Ok(Targets {
            order: Material::all_up_to(max_pieces),
        })
    }

    /// The tables, each after the tables it needs.
    pub fn tables(&self) -> &[Material] {
        &self.order
    }

    /// The build plan of these tables: what each needs, in waves.
    pub fn plan(&self) -> Plan {
        Plan::from_order(self.order.clone())
    }
}

/// One table of a plan and the tables it is generated from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedTable {
    /// The (canonical) material.
    pub material: Material,
    /// The tables it probes (one capture or promotion away), all earlier in the plan.
    pub needs: Vec<Material>,
}

impl PlannedTable {
    /// What generating this table needs in memory, in bytes, for DTZ tables of `rule`: the
    /// larger of its two tables made one at a time, with a work folder (where a pawn table's
    /// finished groups wait); the smaller tables it maps come on top, from the page cache.
    pub fn memory(&self, rule: u32) -> u64 {
        [Metric::Dtm, Metric::Dtz { rule }]
            .into_iter()
            .map(|metric| {
                let options = GenOptions {
                    metric,
                    work_dir: Some(PathBuf::from(".")),
                    ..GenOptions::default()
                };
                estimate_memory(&self.material, &options)
            })
            .max()
            .unwrap_or(0)
    }
}

/// The machine a plan is for: what one `tb gen` job may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The memory a job may use (`tb gen`'s `--max-memory`; by default
    /// [`DEFAULT_MEMORY_SHARE`](crate::DEFAULT_MEMORY_SHARE) of the machine's memory): a table
    /// whose estimate is larger is generated out of core, within it.
    pub memory_bytes: u64,
    /// The worker threads of a job.
    pub threads: usize,
}

/// What generating one table (DTM and DTZ, both sides to move) is estimated to take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    /// The table's indices (positions up to symmetry, both sides to move, holes included).
    pub indices: u64,
    /// Peak resident memory, in bytes: the in-memory estimate, or the machine's limit when the
    /// table is generated out of core.
    pub memory_bytes: u64,
    /// The two files written, in bytes.
    pub file_bytes: u64,
    /// Peak disk while the table is generated, in bytes: its files and the work folder at its
    /// fullest.
    pub disk_bytes: u64,
    /// Wall time, in seconds.
    pub seconds: f64,
    /// Whether the solver's state does not fit in the machine's limit (it is then kept in the
    /// work folder, memory-mapped).
    pub out_of_core: bool,
    /// The least memory `tb gen` makes the table in, in bytes: out of core, what stays in
    /// memory (both compressed tables, the frontiers) and the smaller tables it reads.
    pub least_memory_bytes: u64,
    /// Whether that fits in the machine's limit: `tb gen` refuses (exit 3) a table that does not.
    pub fits: bool,
}

/// Seconds per index (DTM and DTZ together, both sides to move) on 2 threads of the measuring
/// machine, for a table of 5 pieces without pawns, all different: KRBvKR 0.17 us (Zen 4).
const PER_INDEX_DISTINCT: f64 = 0.17e-6;
/// The same with two or more pieces alike (their squares are ranked as a combination, a
/// quarter of the seeding's time in a profile of KQQvKRR): KQQvKR 0.382 us, KRRvKQ 0.359,
/// KQQvKQ 0.399.
const PER_INDEX_REPEATED: f64 = 0.38e-6;
/// The same for a table with pawns (its index counts every pawn placement, invalid ones
/// included): KRPvKR 0.176 us (141.8 s in the `--all 5` run, Zen 4).
const PER_INDEX_PAWNS: f64 = 0.18e-6;
/// How much slower a 6-piece table is per index than a 5-piece one: its captures probe 5-piece
/// tables block by block (too large to decode into memory) where a 5-piece table's probe
/// decoded 4-piece ones. KQQQQvK 0.352 us (few captures), KQQvKRR 0.586 us (many).
const SIX_PIECES: f64 = 1.2;
/// How much cheaper a table is per index when one side has its king alone (and no pawns): its
/// few moves make the layers short, and since each layer chooses pushing or looking ahead
/// from a sample of its frontier, the strong side's many predecessors are rarely listed.
/// Measured (118c702, 2 threads, Zen 5): KQRNvK 0.142 us (0.84x of the distinct-piece
/// figure), KQQRvK 0.254 us (0.67x of the repeated-piece one), KQQQQvK 0.234 us (0.51x, with
/// [`SIX_PIECES`]).
const BARE_KING: f64 = 0.65;
/// How much slower a table runs out of core: KQQvKQ under a limit of half its state, its
/// pages in the page cache, 2.0x; KQQvKRR in a 6 GiB cgroup counting the page cache (its state
/// truly streamed from the disk), 3,847.8 s against 1,812.8 s in memory at the time: 2.1x.
const OUT_OF_CORE_SLOWDOWN: f64 = 2.0;
/// The two files, in bytes per index: 0.26 (KQQQQvK) to 0.57 (KQQvKQ); KQQvKRR 0.44.
const FILE_BYTES_PER_INDEX: f64 = 0.45;
/// The work folder at its fullest, in bytes per index, in memory: the DTZ starts (2 bytes per
/// index), the seeding checkpoint (2 bytes per index) and the first layered checkpoint that
/// replaces it (compressed: 0.48 bytes per index for KQQvKRR), side by side for a moment.
/// KQQvKRR: 4.43.
const WORK_BYTES_PER_INDEX: f64 = 4.4;

impl PlannedTable {
    /// What generating this table is estimated to take on `machine`, for DTZ tables of `rule`.
    pub fn cost(&self, rule: u32, machine: &Machine) -> Cost {
        let ix = Indexer::new(&self.material);
        let indices = ix.size();
        let per_index = if ix.has_pawns() {
            PER_INDEX_PAWNS
        } else if self.material.has_repeated_piece() {
            PER_INDEX_REPEATED
        } else {
            PER_INDEX_DISTINCT
        } * if self.material.piece_count() >= 6 {
            SIX_PIECES
        } else {
            1.0
        } * if !ix.has_pawns()
            && [Color::White, Color::Black]
                .iter()
                .any(|&c| self.material.side(c).is_empty())
        {
            BARE_KING
        } else {
            1.0
        };
        let in_memory = self.memory(rule);
        let out_of_core = in_memory > machine.memory_bytes;
        let threads = machine.threads.max(1) as f64;
        let mut seconds = indices as f64 * per_index * 2.0 / threads;
        if out_of_core {
            seconds *= OUT_OF_CORE_SLOWDOWN;
        }
        // As `tb gen` decides it: both tables made in one run, out of core, the smaller tables
        // of one metric read beside them (a file per metric: half the two files' bytes).
        let least = {
            let pair = |mapped| {
                let options = GenOptions {
                    mapped,
                    work_dir: Some(PathBuf::from(".")),
                    ..GenOptions::default()
                };
                estimate_pair_memory(&self.material, &options, rule)
            };
            let dependencies: u64 = self
                .needs
                .iter()
                .map(|n| Indexer::new(n).size() as f64 * FILE_BYTES_PER_INDEX / 2.0)
                .sum::<f64>() as u64;
            pair(false).min(pair(true)) + dependencies
        };
        let disk = self.disk();
        Cost {
            indices,
            least_memory_bytes: least,
            fits: least <= machine.memory_bytes,
            memory_bytes: in_memory.min(machine.memory_bytes),
            file_bytes: disk.files,
            disk_bytes: disk.files + disk.work,
            seconds,
            out_of_core,
        }
    }

    /// What generating this table (DTM and DTZ) takes on the disk at its fullest, estimated
    /// from its index size (0.45 bytes per index of files, 4.4 of work folder: KQQvKRR's): the
    /// same in memory and out of core (the state file, 2 bytes per index, is its own seeding
    /// checkpoint: it takes the place of the copy counted in memory).
    pub fn disk(&self) -> DiskUse {
        disk_use(&self.material)
    }
}

/// [`PlannedTable::disk`] of `material`.
pub(crate) fn disk_use(material: &Material) -> DiskUse {
    let indices = Indexer::new(material).size() as f64;
    DiskUse {
        files: (indices * FILE_BYTES_PER_INDEX) as u64,
        work: (indices * WORK_BYTES_PER_INDEX) as u64,
    }
}

/// What generating a table takes on the disk at its fullest, in bytes ([`PlannedTable::disk`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiskUse {
    /// Its two files, in the tables folder.
    pub files: u64,
    /// Its work files, in the work folder.
    pub work: u64,
}

/// The tables to build for some targets, in generation order, with their dependencies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    tables: Vec<PlannedTable>,
}

impl Plan {
    /// The plan for `targets` and every table they depend on.
    pub fn for_targets(targets: &[Material]) -> Plan {
        Plan::from_order(Material::generation_order(targets))
    }

    /// The plan for every table of 3 to `max_pieces` pieces.
    pub fn all_up_to(max_pieces: usize) -> Plan {
        Plan::from_order(Material::all_up_to(max_pieces))
    }

    fn from_order(order: Vec<Material>) -> Plan {
        let tables = order
            .into_iter()
            .map(|material| PlannedTable {
                needs: material.successors(),
                material,
            })
            .collect();
        Plan { tables }
    }

    /// The tables, each after the tables it needs.
    pub fn tables(&self) -> &[PlannedTable] {
        &self.tables
    }

    /// The tables grouped in waves: wave 0 needs nothing, wave `k` only tables of earlier
    /// waves. The number of tables of the widest wave is the most that can usefully run at
    /// once; the number of waves is the longest chain of dependencies.
    pub fn waves(&self) -> Vec<Vec<Material>> {
        let mut wave_of: Vec<usize> = Vec::with_capacity(self.tables.len());
        let mut waves: Vec<Vec<Material>> = Vec::new();
        for (i, t) in self.tables.iter().enumerate() {
            let w = t
                .needs
                .iter()
                .filter_map(|n| self.tables[..i].iter().position(|u| &u.material == n))
                .map(|j| wave_of[j] + 1)
                .max()
                .unwrap_or(0);
            wave_of.push(w);
            if waves.len() <= w {
                waves.resize(w + 1, Vec::new());
            }
            waves[w].push(t.material.clone());
        }
        waves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> Material {
        s.parse().unwrap()
    }

    #[test]
    fn every_table_comes_after_what_it_needs_and_needs_what_it_probes() {
        for plan in [Plan::all_up_to(4), Plan::for_targets(&[m("KRPvKR")])] {
            let tables = plan.tables();
            for (i, t) in tables.iter().enumerate() {
                assert_eq!(t.needs, t.material.successors());
                for n in &t.needs {
                    assert!(
                        tables[..i].iter().any(|u| &u.material == n),
                        "{} before {n}",
                        t.material
                    );
                }
            }
        }
    }

    #[test]
    fn a_pawn_table_needs_its_captures_and_promotions() {
        let plan = Plan::for_targets(&[m("KPvK")]);
        let names: Vec<String> = plan
            .tables()
            .iter()
            .map(|t| t.material.to_string())
            .collect();
        assert_eq!(names.last().map(String::as_str), Some("KPvK"));
        let mut needs: Vec<String> = plan
            .tables()
            .last()
            .unwrap()
            .needs
            .iter()
            .map(|n| n.to_string())
            .collect();
        needs.sort();
        assert_eq!(needs, ["KBvK", "KNvK", "KQvK", "KRvK"]);
    }

    #[test]
    fn targets_are_checked_once_and_closed_under_dependencies() {
        let t = Targets::of(&[m("KRvKQ")]).unwrap();
        let names: Vec<String> = t.tables().iter().map(ToString::to_string).collect();
        assert_eq!(names.last().map(String::as_str), Some("KQvKR"));
        assert!(names.contains(&"KQvK".to_string()) && names.contains(&"KRvK".to_string()));
        assert_eq!(t.plan(), Plan::for_targets(&[m("KQvKR")]));
        assert_eq!(Targets::all_up_to(3).unwrap().tables().len(), 5);
        assert_eq!(Targets::all_up_to(7), Err(TargetError::AllPieces(7)));
        assert!(matches!(
            Targets::of(&[m("KvK")]),
            Err(TargetError::Pieces { pieces: 2, .. })
        ));
    }

    #[test]
    fn repeated_pieces_are_told() {
        assert!(m("KQQvKR").has_repeated_piece());
        assert!(m("KRvKNN").has_repeated_piece());
        assert!(!m("KRBvKR").has_repeated_piece());
        assert!(!m("KQvK").has_repeated_piece());
    }

    /// The estimates against what `tb gen` took on the measuring machine (AMD EPYC Zen 5, 2
    /// threads, 24 GiB; docs/benchmarks/chess.md): wall seconds, peak resident memory and,
    /// where it was sampled, peak disk (the files and the work folder at its fullest), each
    /// within 30%.
    #[test]
    fn estimates_are_within_30_percent_of_the_measured_tables() {
        let machine = Machine {
            memory_bytes: 18 << 30,
            threads: 2,
        };
        // (material, wall seconds, peak MiB, peak disk bytes or 0 where not sampled)
        let measured = [
            ("KQQvKR", 40.0, 287.7, 0u64),
            ("KRRvKQ", 37.6, 291.3, 0),
            ("KQQvKQ", 41.8, 293.0, 0),
            ("KQRNvK", 29.8, 522.8, 0),
            ("KQQRvK", 26.6, 269.1, 0),
            ("KQQQQvK", 120.5, 1269.7, 0),
            (
                "KQQvKRR",
                1683.6,
                7419.8,
                13_695_885_594 + 759_814_987 + 602_588_043,
            ),
        ];
        let near = |estimate: f64, measured: f64| (estimate - measured).abs() <= 0.3 * measured;
        // Out of core in a 6 GiB cgroup (page cache counted): 3,847.8 s, work folder at most
        // 15,637,215,939 bytes (sampled every 2 s) besides its two files.
        let six = Machine {
            memory_bytes: 6 << 30,
            threads: 2,
        };
        let c = PlannedTable {
            material: m("KQQvKRR"),
            needs: Vec::new(),
        }
        .cost(100, &six);
        assert!(c.out_of_core);
        assert!(near(c.seconds, 3847.8), "{:.1} s estimated", c.seconds);
        let disk = (15_637_215_939u64 + 759_814_987 + 602_588_043) as f64;
        assert!(
            near(c.disk_bytes as f64, disk),
            "{} bytes of disk",
            c.disk_bytes
        );
        for (name, seconds, mib, disk) in measured {
            let t = PlannedTable {
                material: m(name),
                needs: Vec::new(),
            };
            let c = t.cost(100, &machine);
            assert!(!c.out_of_core, "{name}");
            assert!(
                near(c.seconds, seconds),
                "{name}: {:.1} s estimated, {seconds} s measured",
                c.seconds
            );
            let est = c.memory_bytes as f64 / f64::from(1 << 20);
            assert!(
                near(est, mib),
                "{name}: {est:.1} MiB estimated, {mib} MiB measured"
            );
            if disk > 0 {
                let d = c.disk_bytes as f64;
                assert!(
                    near(d, disk as f64),
                    "{name}: {d} bytes of disk estimated, {disk} measured"
                );
            }
        }
    }

    #[test]
    fn a_table_past_the_limit_is_planned_out_of_core() {
        let t = PlannedTable {
            material: m("KQQvKRR"),
            needs: Vec::new(),
        };
        let roomy = t.cost(
            100,
            &Machine {
                memory_bytes: 64 << 30,
                threads: 2,
            },
        );
        let tight = t.cost(
            100,
            &Machine {
                memory_bytes: 6 << 30,
                threads: 2,
            },
        );
        assert!(!roomy.out_of_core && tight.out_of_core);
        assert_eq!(tight.memory_bytes, 6 << 30);
        // Out of core the state file is its own seeding checkpoint: no more disk than in memory.
        assert!(tight.seconds > roomy.seconds && tight.disk_bytes == roomy.disk_bytes);
        let four = t.cost(
            100,
            &Machine {
                memory_bytes: 64 << 30,
                threads: 4,
            },
        );
        assert!((four.seconds * 2.0 - roomy.seconds).abs() < 1e-6);
    }

    #[test]
    fn waves_are_levels_of_the_dependency_graph() {
        let plan = Plan::all_up_to(3);
        let waves = plan.waves();
        // KQvK, KRvK, KBvK, KNvK need nothing; KPvK needs all four.
        assert_eq!(waves.len(), 2);
        assert_eq!(waves[0].len(), 4);
        assert_eq!(waves[1], vec![m("KPvK")]);
        let four = Plan::all_up_to(4);
        let total: usize = four.waves().iter().map(Vec::len).sum();
        assert_eq!(total, 35);
    }
}
