//! Hooks for the benchmarks in `benches/` (hidden from the docs, not a stable API): the
//! generator's inner steps on their own (un-moves, seeding without the probes), away from
//! the engine's memory traffic.

use crate::index::Indexer;
use crate::material::{Material, ParseMaterialError};
use crate::probe::Tablebase;
use crate::slice::{Board, SliceGame};
use crate::table::{Metric, Table};

/// The un-moves of a fixed sample of legal boards of one material (the layer loop's move
/// generation), with placeholder smaller tables (un-moves never read them).
pub struct Unmoves {
    game: SliceGame,
    boards: Vec<Board>,
    out: Vec<u64>,
}

impl Unmoves {
    /// `count` legal boards of `material` (canonical), at indices of a fixed pseudo-random
    /// sequence.
    ///
    /// # Errors
    /// A material that does not parse.
    pub fn new(material: &str, count: usize) -> Result<Unmoves, ParseMaterialError> {
        let game = placeholder_game(material)?;
        let size = game.indexer().size();
        let boards = indices(0x9E37_79B9_7F4A_7C15, size)
            .filter_map(|i| game.legal_board(i))
            .take(count)
            .collect();
        Ok(Unmoves {
            game,
            boards,
            out: Vec::new(),
        })
    }

    /// Lists the un-moves of every board; returns how many there were and the sum of their
    /// indices (so that nothing is optimized away, and two builds can be compared).
    pub fn run(&mut self) -> (u64, u64) {
        let (mut count, mut sum) = (0u64, 0u64);
        for b in &self.boards {
            self.out.clear();
            self.game.unmoves(b, &mut self.out);
            count += self.out.len() as u64;
            sum = self.out.iter().fold(sum, |s, &i| s.wrapping_add(i));
        }
        (count, sum)
    }
}

/// The seeding of a fixed sample of indices of one material (legal or not): the legality test
/// of each and, for a legal one, its quiet moves counted and its exits listed (not probed).
pub struct Seeding {
    game: SliceGame,
    indices: Vec<u64>,
}

impl Seeding {
    /// `count` indices of `material` (canonical) from a fixed pseudo-random sequence.
    ///
    /// # Errors
    /// A material that does not parse.
    pub fn new(material: &str, count: usize) -> Result<Seeding, ParseMaterialError> {
        let game = placeholder_game(material)?;
        let size = game.indexer().size();
        let indices = indices(0x2545_F491_4F6C_DD1D, size).take(count).collect();
        Ok(Seeding { game, indices })
    }

    /// Seeds every index; returns the legal ones, the quiet moves and the exits counted.
    pub fn run(&self) -> (u64, u64, u64) {
        let (mut legal, mut quiet, mut exits) = (0u64, 0u64, 0u64);
        for &idx in &self.indices {
            let Some(b) = self.game.legal_board(idx) else {
                continue;
            };
            legal += 1;
            let (_, q) = self.game.count_and_exits(&b, |_| {
                exits += 1;
                true
            });
            quiet += u64::from(q) + u64::from(self.game.in_check(&b));
        }
        (legal, quiet, exits)
    }
}

/// Indices below `size` from a fixed xorshift sequence started at `seed` (the same samples
/// in every build, so that instruction counts compare).
fn indices(mut seed: u64, size: u64) -> impl Iterator<Item = u64> {
    std::iter::repeat_with(move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % size
    })
}

/// The slice game of `material` with placeholder smaller tables (zeros: neither un-moves nor
/// counting moves reads them; the slice tests use it too).
pub(crate) fn placeholder_game(material: &str) -> Result<SliceGame, ParseMaterialError> {
    let m: Material = material.parse()?;
    let tb = Tablebase::in_memory();
    for dep in Material::generation_order(std::slice::from_ref(&m)) {
        if dep != m {
            let entries = vec![0u8; Indexer::new(&dep).size() as usize];
            tb.insert(Table::from_entries(&dep, Metric::Dtm, entries));
        }
    }
    Ok(SliceGame::new(&m, &tb, Metric::Dtm).expect("placeholder tables present"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hooks run and count something, the same each time (the benchmarks compare runs).
    #[test]
    fn hooks_count_the_same_each_time() {
        let mut unmoves = Unmoves::new("KRvKN", 2_000).unwrap();
        let first = unmoves.run();
        assert!(first.0 > 2_000, "{first:?}");
        assert_eq!(unmoves.run(), first);
        let seeding = Seeding::new("KPvKR", 2_000).unwrap();
        let (legal, quiet, exits) = seeding.run();
        assert!(
            legal > 500 && quiet > legal && exits > 0,
            "{legal} {quiet} {exits}"
        );
        assert_eq!(seeding.run(), (legal, quiet, exits));
        assert!(Unmoves::new("KXvK", 1).is_err());
    }
}
