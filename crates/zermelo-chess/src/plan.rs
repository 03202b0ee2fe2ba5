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

use std::path::PathBuf;

use crate::generate::{estimate_memory, GenOptions};
use crate::material::{Material, TargetError, MAX_PIECES};
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
