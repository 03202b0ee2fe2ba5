//! The compact engine against the explicit-graph solver on random synthetic indexed games:
//! random graphs with holes, verdicts (win, lose, tie), normal or misère play, multi-edges and
//! self-loops, and exits. Each exit is wired in the oracle's graph as a move to a node of a
//! value chain (`L0 <- W1 <- L2 ...` and `W0 <- L1 <- W2 ...`) whose value is the exit's, and
//! the graph is solved by `solve::retrograde`; every index must get the same outcome and depth,
//! for 1 to 4 threads and both counter modes.

use zermelo::game::compact::{
    self, CompactError, CompactOptions, CounterMode, IndexedGame, Lookahead, Start,
};
use zermelo::game::Value;
use zermelo::graph::generate::SplitMix64;
use zermelo::graph::{Convention, Csr, Rules};
use zermelo::solve;
use zermelo::{Depth, Outcome};

/// A random game over `0..n`: forward and backward lists, verdicts, holes, exits.
struct Synthetic {
    n: u64,
    forward: Vec<Vec<u64>>,
    backward: Vec<Vec<u64>>,
    hole: Vec<bool>,
    verdict: Vec<Option<Outcome>>,
    exit: Vec<Option<Value>>,
    convention: Convention,
}

fn value(outcome: Outcome, depth: u32) -> Value {
    Value::new(outcome, (outcome != Outcome::Draw).then_some(Depth(depth)))
}

impl Synthetic {
    fn random(rng: &mut SplitMix64, n: u64, density: u64, exits: bool) -> Synthetic {
        let m = rng.below(density * n + 1);
        let mut forward = vec![Vec::new(); n as usize];
        let mut backward = vec![Vec::new(); n as usize];
        for _ in 0..m {
            let (u, v) = (rng.below(n), rng.below(n));
            forward[u as usize].push(v);
            backward[v as usize].push(u);
        }
        let hole = (0..n).map(|_| rng.below(10) == 0).collect();
        let verdict = (0..n)
            .map(|_| match rng.below(12) {
                0 => Some(Outcome::Win),
                1 => Some(Outcome::Lose),
                2 => Some(Outcome::Draw),
                _ => None,
            })
            .collect();
        let exit = (0..n)
            .map(|_| match rng.below(if exits { 8 } else { 1 }) {
                1 => Some(value(Outcome::Win, 1 + rng.below(12) as u32)),
                // Deep losing exits too: the engine packs a losing exit of up to 127 plies
                // with the move counter and asks the game again for deeper ones.
                2 if rng.below(4) == 0 => Some(value(Outcome::Lose, 125 + rng.below(5) as u32)),
                2 => Some(value(Outcome::Lose, 1 + rng.below(12) as u32)),
                3 => Some(value(Outcome::Draw, 0)),
                _ => None,
            })
            .collect();
        let convention = if rng.below(2) == 0 {
            Convention::Normal
        } else {
            Convention::Misere
        };
        Synthetic {
            n,
            forward,
            backward,
            hole,
            verdict,
            exit,
            convention,
        }
    }

    /// The explicit graph: nodes `0..n`, then two value chains of `CHAIN` nodes each and one
    /// drawn node; exits become moves into them.
    fn oracle(&self) -> Vec<Value> {
        const CHAIN: u64 = 132;
        let (a, b, draw) = (self.n, self.n + CHAIN, self.n + 2 * CHAIN);
        // a + k has value (k even: lose, k odd: win) in k plies; b + k the opposite.
        let mut edges = Vec::new();
        let mut verdicts = vec![(a, Outcome::Lose), (b, Outcome::Win), (draw, Outcome::Draw)];
        for k in 1..CHAIN {
            edges.push((a + k, a + k - 1));
            edges.push((b + k, b + k - 1));
        }
        for u in 0..self.n {
            let i = u as usize;
            if self.hole[i] {
                verdicts.push((u, Outcome::Draw));
                continue;
            }
            if let Some(v) = self.verdict[i] {
                verdicts.push((u, v));
                continue;
            }
            edges.extend(self.forward[i].iter().map(|&v| (u, v)));
            if let Some(e) = self.exit[i] {
                // The mover's value e after the exit: the exit leads to the opposite value one
                // ply shorter.
                let target = match (e.outcome(), e.depth()) {
                    (Outcome::Draw, _) => draw,
                    (o, Some(d)) => {
                        let k = u64::from(d.0 - 1);
                        let child_loses = o == Outcome::Win;
                        // a + k loses when k is even; b + k loses when k is odd.
                        if child_loses == (k % 2 == 0) {
                            a + k
                        } else {
                            b + k
                        }
                    }
                    _ => unreachable!(),
                };
                edges.push((u, target));
            }
        }
        let nodes = self.n + 2 * CHAIN + 1;
        let graph = Csr::from_edges(nodes, edges).unwrap();
        let rules = Rules::with_convention(self.convention)
            .with_verdicts(nodes as usize, verdicts)
            .unwrap();
        let s = solve::retrograde(&graph, &rules);
        (0..self.n as u32)
            .map(|u| Value::new(s.outcome(u), s.depth(u)))
            .collect()
    }
}

impl IndexedGame for Synthetic {
    fn index_count(&self) -> u64 {
        self.n
    }

    fn start(&self, index: u64) -> Start {
        let i = index as usize;
        if self.hole[i] {
            return Start::Hole;
        }
        if let Some(v) = self.verdict[i] {
            return Start::Terminal(v);
        }
        let moves = self.forward[i].len() as u32;
        match (moves, self.exit[i]) {
            (0, None) => Start::Terminal(self.convention.stuck_outcome()),
            (moves, exit) => Start::Open { moves, exit },
        }
    }

    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        out.extend_from_slice(&self.backward[index as usize]);
    }

    fn successors(&self, index: u64, out: &mut Vec<u64>) -> bool {
        out.extend_from_slice(&self.forward[index as usize]);
        true
    }

    fn any_successor(&self, index: u64, found: &mut dyn FnMut(u64) -> bool) -> Option<bool> {
        Some(self.forward[index as usize].iter().any(|&v| found(v)))
    }
}

fn options(threads: usize, counters: CounterMode) -> CompactOptions {
    CompactOptions {
        threads: Some(threads),
        counters,
        ..CompactOptions::default()
    }
}

fn check(game: &Synthetic, seed: u64) {
    let expected = game.oracle();
    for threads in 1..=4 {
        for mode in [CounterMode::Counter, CounterMode::Recompute] {
            // Pushing from every lost position, looking ahead at every layer, and the choice
            // per layer.
            for lookahead in [Lookahead::Never, Lookahead::Always, Lookahead::Auto] {
                let options = CompactOptions {
                    lookahead,
                    ..options(threads, mode)
                };
                let s = compact::solve(game, &options).unwrap();
                for (i, want) in expected.iter().enumerate() {
                    assert_eq!(
                        s.value(i as u64),
                        *want,
                        "seed {seed}, index {i}, {threads} threads, {mode:?}, {lookahead:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn random_games_without_exits_match_the_graph_solver() {
    for seed in 0..1500 {
        let mut rng = SplitMix64::new(seed);
        let n = 1 + rng.below(30);
        let density = 1 + rng.below(3);
        let game = Synthetic::random(&mut rng, n, density, false);
        check(&game, seed);
    }
}

#[test]
fn random_games_with_exits_match_the_graph_solver() {
    for seed in 0..3000 {
        let mut rng = SplitMix64::new(1 << 32 | seed);
        let n = 1 + rng.below(30);
        let density = 1 + rng.below(3);
        let game = Synthetic::random(&mut rng, n, density, true);
        check(&game, seed);
    }
}

#[test]
fn larger_random_games_match_across_several_chunks() {
    // Past 65 536 indices the frontier is split into several parallel work items.
    for seed in 0..3 {
        let mut rng = SplitMix64::new(7 << 40 | seed);
        let game = Synthetic::random(&mut rng, 200_000, 2, true);
        check(&game, seed);
    }
}

/// A hub with more moves than a cell's counter holds (8191): its count spills into the side
/// map and back.
#[test]
fn positions_with_thousands_of_moves_spill_their_counters() {
    for (spokes, lose_spoke) in [(9000u64, false), (9000, true), (20_000, false)] {
        let n = spokes + 2;
        let mut game = Synthetic {
            n,
            forward: vec![Vec::new(); n as usize],
            backward: vec![Vec::new(); n as usize],
            hole: vec![false; n as usize],
            verdict: vec![None; n as usize],
            exit: vec![None; n as usize],
            convention: Convention::Normal,
        };
        // 0 -> every spoke; spoke k -> n-1 (lost when it has no moves) wins in 1, or with
        // `lose_spoke` the last spoke is itself stuck (lost in 0).
        for k in 1..=spokes {
            game.forward[0].push(k);
            game.backward[k as usize].push(0);
            if !(lose_spoke && k == spokes) {
                game.forward[k as usize].push(n - 1);
                game.backward[(n - 1) as usize].push(k);
            }
        }
        let s = compact::solve(&game, &options(2, CounterMode::Counter)).unwrap();
        let want = if lose_spoke {
            value(Outcome::Win, 1)
        } else {
            value(Outcome::Lose, 2)
        };
        assert_eq!(s.value(0), want);
        check(&game, spokes);
    }
}

#[test]
fn contract_breaches_are_errors() {
    let mut rng = SplitMix64::new(3);
    let mut game = Synthetic::random(&mut rng, 5, 0, false);
    game.hole = vec![false; 5];
    game.verdict = vec![None; 5];
    game.exit[2] = Some(value(Outcome::Win, 0));
    assert!(matches!(
        compact::solve(&game, &CompactOptions::default()),
        Err(CompactError::BadExit { index: 2, .. })
    ));
    let recompute = options(1, CounterMode::Recompute);
    assert!(matches!(
        compact::solve(&NoSuccessors, &recompute),
        Err(CompactError::NoSuccessors)
    ));
    let limited = CompactOptions {
        max_memory: Some(10),
        ..CompactOptions::default()
    };
    assert!(matches!(
        compact::solve(&game, &limited),
        Err(CompactError::TooBig { .. })
    ));
}

/// One open index without moves or exit, and no successor generation.
struct NoSuccessors;

impl IndexedGame for NoSuccessors {
    fn index_count(&self) -> u64 {
        1
    }
    fn start(&self, _: u64) -> Start {
        Start::Open {
            moves: 0,
            exit: None,
        }
    }
    fn predecessors(&self, _: u64, _: &mut Vec<u64>) {}
}

#[test]
fn an_open_position_needs_a_move_or_an_exit() {
    assert!(matches!(
        compact::solve(&NoSuccessors, &CompactOptions::default()),
        Err(CompactError::NoMoves { index: 0 })
    ));
}

/// A chain longer than the cells hold is refused, not wrapped around.
#[test]
fn depths_beyond_the_cell_are_refused() {
    let n = u64::from(compact::MAX_DEPTH) + 3;
    let game = Synthetic {
        n,
        forward: (0..n)
            .map(|u| if u == 0 { vec![] } else { vec![u - 1] })
            .collect(),
        backward: (0..n)
            .map(|u| if u + 1 < n { vec![u + 1] } else { vec![] })
            .collect(),
        hole: vec![false; n as usize],
        verdict: vec![None; n as usize],
        exit: vec![None; n as usize],
        convention: Convention::Normal,
    };
    assert!(matches!(
        compact::solve(&game, &CompactOptions::default()),
        Err(CompactError::TooDeep)
    ));
}

/// Runs `game` in `dir` with a checkpoint at every layer, copying the checkpoint of layer
/// `copy_at` into `copy` on the way.
fn run_copying(
    game: &Synthetic,
    dir: &std::path::Path,
    copy: &std::path::Path,
    copy_at: u32,
    mapped: bool,
) -> compact::CompactSolution {
    let (from, to) = (dir.join("checkpoint.zck"), copy.join("checkpoint.zck"));
    std::fs::create_dir_all(copy).unwrap();
    let options = CompactOptions {
        work_dir: Some(dir.to_path_buf()),
        mapped,
        fingerprint: 42,
        progress: Some(std::sync::Arc::new(move |p: &compact::LayerProgress| {
            // The checkpoint of the previous boundary was written when the next layer ends;
            // it is synced and renamed behind the solver, so wait until it is there (its
            // layer is the header's `u32` at byte 24).
            if p.layer == copy_at {
                let started = std::time::Instant::now();
                loop {
                    let layer = std::fs::read(&from)
                        .ok()
                        .filter(|b| b.len() >= 28)
                        .map(|b| u32::from_le_bytes(b[24..28].try_into().unwrap()));
                    if layer == Some(copy_at) {
                        break;
                    }
                    assert!(
                        started.elapsed().as_secs() < 30,
                        "no checkpoint of layer {copy_at}"
                    );
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                std::fs::copy(&from, &to).unwrap();
            }
        })),
        ..CompactOptions::default()
    };
    compact::solve(game, &options).unwrap()
}

#[test]
fn a_run_resumes_from_a_checkpoint_with_the_same_values() {
    let mut rng = SplitMix64::new(99);
    let game = Synthetic::random(&mut rng, 3000, 2, true);
    let expected = game.oracle();
    // At 0: the checkpoint taken right after seeding.
    for (mapped, at) in [(false, 3), (true, 3), (false, 0), (true, 0)] {
        let work = tempfile::tempdir().unwrap();
        let (a, b) = (work.path().join("a"), work.path().join("b"));
        let first = run_copying(&game, &a, &b, at, mapped);
        assert_eq!(first.resumed_from(), None);
        assert!(
            !a.join("checkpoint.zck").exists(),
            "a finished run removes its checkpoint"
        );
        assert!(b.join("checkpoint.zck").exists());
        let options = CompactOptions {
            work_dir: Some(b.clone()),
            mapped,
            fingerprint: 42,
            ..CompactOptions::default()
        };
        let resumed = compact::solve(&game, &options).unwrap();
        assert_eq!(resumed.resumed_from(), Some(at));
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(resumed.value(i as u64), *want, "index {i}, mapped {mapped}");
            assert_eq!(resumed.code(i as u64), first.code(i as u64));
        }
    }
}

#[test]
fn foreign_or_damaged_checkpoints_are_refused() {
    let mut rng = SplitMix64::new(5);
    let game = Synthetic::random(&mut rng, 2000, 2, true);
    let work = tempfile::tempdir().unwrap();
    let (a, b) = (work.path().join("a"), work.path().join("b"));
    run_copying(&game, &a, &b, 2, false);
    let with = |fingerprint| CompactOptions {
        work_dir: Some(b.clone()),
        fingerprint,
        ..CompactOptions::default()
    };
    let err = compact::solve(&game, &with(7)).unwrap_err();
    assert!(err.to_string().contains("another game"), "{err}");
    let path = b.join("checkpoint.zck");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = compact::solve(&game, &with(42)).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    bytes.truncate(middle);
    std::fs::write(&path, &bytes).unwrap();
    let err = compact::solve(&game, &with(42)).unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");
}

/// A game that lists predecessors only: looking ahead is asked for at every layer, the game
/// cannot, and every layer is pushed from instead.
struct PushOnly(Synthetic);

impl IndexedGame for PushOnly {
    fn index_count(&self) -> u64 {
        self.0.index_count()
    }
    fn start(&self, index: u64) -> Start {
        self.0.start(index)
    }
    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        self.0.predecessors(index, out)
    }
}

#[test]
fn a_game_without_successors_is_pushed_from_when_looking_ahead_is_asked_for() {
    for seed in 0..200 {
        let mut rng = SplitMix64::new(11 << 40 | seed);
        let n = 1 + rng.below(30);
        let game = Synthetic::random(&mut rng, n, 2, true);
        let expected = game.oracle();
        let options = CompactOptions {
            lookahead: Lookahead::Always,
            ..options(2, CounterMode::Counter)
        };
        let s = compact::solve(&PushOnly(game), &options).unwrap();
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(s.value(i as u64), *want, "seed {seed}, index {i}");
        }
    }
}

/// A mapped state held under a resident budget far below its size: the residency guard takes
/// its pages out of the resident set again and again while the threads update them, and the
/// values are the heap run's (Linux: the guard reads `/proc/self/statm`).
#[cfg(target_os = "linux")]
#[test]
fn a_mapped_state_under_a_tight_resident_budget_solves_the_same() {
    let mut rng = SplitMix64::new(11 << 40);
    // 3 million indices: 6 MB of cells, a budget of one page.
    let game = Synthetic::random(&mut rng, 3_000_000, 2, true);
    let heap = compact::solve(&game, &options(2, CounterMode::Counter)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mapped = compact::solve(
        &game,
        &CompactOptions {
            work_dir: Some(dir.path().to_path_buf()),
            mapped: true,
            resident_budget: Some(4096),
            ..options(2, CounterMode::Counter)
        },
    )
    .unwrap();
    assert!(
        mapped.resident_releases() > 0,
        "the guard released the state's pages"
    );
    for i in 0..game.index_count() {
        assert_eq!(mapped.value(i), heap.value(i), "index {i}");
    }
    assert_eq!(heap.resident_releases(), 0);
}

/// [`Synthetic`] with a position that breaks the seeding (an open position without moves or
/// exit: the engine stops with an error there, as a chess table stops when a dependency is
/// refused or the disk is full), counting the indices whose starts the seeding asked for.
struct Broken<'a> {
    game: &'a Synthetic,
    at: Option<u64>,
    asked: std::sync::atomic::AtomicU64,
}

impl IndexedGame for Broken<'_> {
    fn index_count(&self) -> u64 {
        self.game.n
    }

    /// The seeding's question (counted); the layers ask [`IndexedGame::start`] again only for
    /// some exits.
    fn start_range(&self, first: u64, out: &mut [Start]) {
        self.asked
            .fetch_add(out.len() as u64, std::sync::atomic::Ordering::Relaxed);
        for (k, s) in out.iter_mut().enumerate() {
            *s = self.start(first + k as u64);
        }
    }

    fn start(&self, index: u64) -> Start {
        if Some(index) == self.at {
            return Start::Open {
                moves: 0,
                exit: None,
            };
        }
        self.game.start(index)
    }

    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        self.game.predecessors(index, out);
    }

    fn successors(&self, index: u64, out: &mut Vec<u64>) -> bool {
        self.game.successors(index, out)
    }
}

/// Out of core (a mapped state), a seeding checkpoint is the state file itself: nothing is
/// copied, the file outlives a failed run, the next run checks its prefix, clears what lies past
/// it and seeds only the rest; a damaged prefix is refused; a run with its cells on the heap
/// starts over (and removes the file).
#[test]
fn a_mapped_seeding_checkpoint_is_the_state_file_itself() {
    use std::sync::atomic::Ordering::Relaxed;
    const SLICE: u64 = 1 << 20; // the engine's seeding slice
    let mut rng = SplitMix64::new(77);
    let n = 2 * SLICE + 12_345;
    let game = Synthetic::random(&mut rng, n, 2, true);
    let fresh = compact::solve(&game, &CompactOptions::default()).unwrap();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("w");
    let options = |mapped: bool, budget: Option<u64>| CompactOptions {
        work_dir: Some(dir.clone()),
        mapped,
        resident_budget: budget,
        fingerprint: 7,
        checkpoint_every: Some(std::time::Duration::ZERO),
        ..CompactOptions::default()
    };
    let (state, header) = (dir.join("state.cells"), dir.join("seed.zck"));
    let fail = || {
        let broken = Broken {
            game: &game,
            at: Some(2 * SLICE + 5),
            asked: Default::default(),
        };
        let e = compact::solve(&broken, &options(true, None)).err();
        assert!(matches!(e, Some(CompactError::NoMoves { .. })), "{e:?}");
        assert!(state.exists(), "kept: it backs the seeding checkpoint");
        assert!(!dir.join("seed.cells").exists(), "no copy of the cells");
        assert_eq!(&std::fs::read(&header).unwrap()[..8], b"ZMSEEDIP");
    };
    let poke = |cell: u64, bytes: &[u8]| {
        use std::os::unix::fs::FileExt;
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&state)
            .unwrap();
        f.write_all_at(bytes, 2 * cell).unwrap();
    };
    let whole = || Broken {
        game: &game,
        at: None,
        asked: Default::default(),
    };

    fail();
    // A cell of the prefix changed: refused, naming the state file.
    poke(123, &[0xAB, 0xCD]);
    let e = compact::solve(&whole(), &options(true, None))
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("state.cells") && e.to_string().contains("checksum"),
        "{e}"
    );

    fail();
    // What the killed run seeded past its checkpoint is cleared, not trusted.
    poke(2 * SLICE + 100, &[0x12, 0x34]);
    let g = whole();
    let resumed = compact::solve(&g, &options(true, Some(1 << 20))).unwrap();
    assert_eq!(
        g.asked.load(Relaxed),
        n - 2 * SLICE,
        "only the rest is seeded"
    );
    for i in 0..n {
        assert_eq!(resumed.code(i), fresh.code(i), "index {i}");
    }
    drop(resumed);
    assert!(
        !header.exists() && !state.exists(),
        "the work folder cleaned"
    );

    fail();
    // The cells on the heap now: the seeding starts over, the state file goes.
    let g = whole();
    let resumed = compact::solve(&g, &options(false, None)).unwrap();
    assert_eq!(g.asked.load(Relaxed), n);
    assert!(!state.exists() && !header.exists());
    for i in 0..n {
        assert_eq!(resumed.code(i), fresh.code(i), "index {i}");
    }
}

/// [`Synthetic`] whose seeding fails on the range holding `at`: the game gives its indices as
/// holes, as chess does when a probe or its log of starts fails, and says so through
/// [`IndexedGame::failed`].
struct Failing<'a> {
    game: &'a Synthetic,
    at: u64,
    failed: std::sync::atomic::AtomicBool,
}

impl IndexedGame for Failing<'_> {
    fn index_count(&self) -> u64 {
        self.game.n
    }

    fn start_range(&self, first: u64, out: &mut [Start]) {
        if (first..first + out.len() as u64).contains(&self.at) {
            self.failed
                .store(true, std::sync::atomic::Ordering::Relaxed);
            out.fill(Start::Hole);
            return;
        }
        for (k, s) in out.iter_mut().enumerate() {
            *s = self.game.start(first + k as u64);
        }
    }

    fn start(&self, index: u64) -> Start {
        self.game.start(index)
    }

    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        self.game.predecessors(index, out);
    }

    fn failed(&self) -> bool {
        self.failed.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// A game that fails while it is seeded stops the engine before any checkpoint holds the
/// starts it gave in place of the real ones, so that the run started again once the cause is
/// gone (a disk with room again) writes the values of a run that never failed.
#[test]
fn a_game_that_fails_leaves_no_checkpoint_of_its_failure() {
    const SLICE: u64 = 1 << 20; // the engine's seeding slice
    let mut rng = SplitMix64::new(78);
    let n = 2 * SLICE + 12_345;
    let game = Synthetic::random(&mut rng, n, 2, true);
    let fresh = compact::solve(&game, &CompactOptions::default()).unwrap();
    for mapped in [false, true] {
        let work = tempfile::tempdir().unwrap();
        let options = CompactOptions {
            work_dir: Some(work.path().to_path_buf()),
            mapped,
            fingerprint: 8,
            checkpoint_every: Some(std::time::Duration::ZERO),
            ..CompactOptions::default()
        };
        let failing = Failing {
            game: &game,
            at: 2 * SLICE + 5,
            failed: Default::default(),
        };
        let e = compact::solve(&failing, &options).err();
        assert!(matches!(e, Some(CompactError::GameFailed)), "{e:?}");
        let resumed = compact::solve(&game, &options).unwrap();
        for i in 0..n {
            assert_eq!(resumed.code(i), fresh.code(i), "index {i}, mapped {mapped}");
        }
    }
}

/// docs/formats.md's section on the engine's work folder names every file a failed run leaves
/// there and the magic of each header, for the cells on the heap and in the state file.
#[test]
fn docs_formats_md_names_the_work_folder_files_and_magics() {
    const SLICE: u64 = 1 << 20; // the engine's seeding slice
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/formats.md"),
    )
    .unwrap();
    let start = docs
        .find("### Pursuit values (`--values FILE`) and the work folder")
        .unwrap();
    let section = &docs[start..];
    let section = &section[..section[3..].find("\n### ").unwrap() + 3];
    let mut rng = SplitMix64::new(79);
    let n = 2 * SLICE + 7;
    let game = Synthetic::random(&mut rng, n, 2, true);
    for mapped in [false, true] {
        let work = tempfile::tempdir().unwrap();
        let broken = Broken {
            game: &game,
            at: Some(2 * SLICE + 1),
            asked: Default::default(),
        };
        let options = CompactOptions {
            work_dir: Some(work.path().to_path_buf()),
            mapped,
            fingerprint: 9,
            checkpoint_every: Some(std::time::Duration::ZERO),
            ..CompactOptions::default()
        };
        assert!(compact::solve(&broken, &options).is_err());
        let mut names = Vec::new();
        for e in std::fs::read_dir(work.path()).unwrap() {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(section.contains(&format!("`{name}`")), "{name}");
            let head = std::fs::read(&path).unwrap();
            if head.starts_with(b"ZM") {
                let magic = String::from_utf8_lossy(&head[..8]).into_owned();
                assert!(section.contains(&format!("`{magic}`")), "{magic} of {name}");
            }
            names.push(name);
        }
        names.sort();
        let kept = if mapped {
            ["seed.zck", "state.cells"]
        } else {
            ["seed.cells", "seed.zck"]
        };
        assert_eq!(names, kept, "mapped {mapped}");
    }
}
