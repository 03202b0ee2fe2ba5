//! The synthesis game of a [`Spec`], built over BDDs, and its solution.
//!
//! At automaton state `q` the environment (player 1) picks an input valuation, then the
//! controller (player 0) picks an output valuation, and the automaton moves. Instead of one
//! controller vertex per input valuation (`2^inputs` per state, as the explicit game of
//! `zermelo parity FILE.ehoa`), the inputs of a state are split into classes: two inputs are in
//! one class when they enable the same choices, where a choice is a (target, priority) pair that
//! some output makes the automaton take. A class is a BDD over the inputs, found by
//! partition refinement with one split per choice. Vertices:
//!
//! * `q` for each automaton state (the environment's; the priority of the state's colour, or
//!   0 with transition-based colours);
//! * one controller vertex per (state, class), priority 0, with a move to each choice the class
//!   enables;
//! * one vertex per distinct (target, priority) choice, shared by every state, with that
//!   priority and one move: to the target.
//!
//! Before that, when a controller is wanted, bisimilar automaton states are merged (Moore's
//! partition refinement: same colour, and the same transitions: labels, priorities and blocks
//! of targets), so that equivalent states share one strategy: the game's "states" are the
//! blocks. Realizability alone skips it (the answer is the same).
//!
//! The controller wins from the start state iff the specification is realizable; its
//! positional strategy, read at the controller vertices, names a choice per (state, class).

use zermelo::io::{ErrorKind, ParseError};
use zermelo::{NodeId, Player};
use zermelo_parity::{Arena, ParitySolution, Priority, Solver};

use crate::bdd::{Bdd, FxMap};
use crate::spec::Spec;

/// The most vertices of a synthesis game.
pub const MAX_GAME_VERTICES: usize = 1 << 26;

/// A set of transitions of one state that lead to one target with one priority.
pub(crate) struct Group {
    /// The choice vertex's index among the choices.
    pub choice: u32,
    /// The union of the transitions' labels (inputs and outputs).
    pub label: Bdd,
}

/// A controller vertex: the inputs of one class of one state.
pub(crate) struct Class {
    pub state: u32,
    pub inputs: Bdd,
}

/// The game, with what the strategy's reading needs.
pub(crate) struct Game {
    pub arena: Arena,
    /// The block of the start state.
    pub start: u32,
    /// Per automaton state, its groups.
    pub groups: Vec<Vec<Group>>,
    /// The controller vertices, in vertex order (vertex `states + k` is class `k`).
    pub classes: Vec<Class>,
    /// The first class of each state (and one past the last).
    pub first_class: Vec<u32>,
    /// The (target, priority) of each choice vertex.
    pub choices: Vec<(u32, Priority)>,
}

impl Game {
    /// Builds the game of `spec` (module docs).
    pub(crate) fn build(spec: &mut Spec, merge: bool) -> Result<Game, ParseError> {
        let (block, reps) = if merge {
            bisimulation(spec)
        } else {
            let n = spec.automaton.states.len();
            ((0..n as u32).collect(), (0..n).collect())
        };
        let n = reps.len();
        let outputs = spec.output_vars();
        let mut choice_of: FxMap<(u32, Priority), u32> = FxMap::default();
        let mut choices = Vec::new();
        let mut groups = Vec::with_capacity(n);
        let mut classes = Vec::new();
        let mut first_class = Vec::with_capacity(n + 1);
        for (b, &q) in reps.iter().enumerate() {
            let mut mine: Vec<Group> = Vec::new();
            for (k, edge) in spec.automaton.states[q].edges.iter().enumerate() {
                let key = (block[edge.target as usize], spec.priority(q, k));
                let next = choices.len() as u32;
                let choice = *choice_of.entry(key).or_insert(next);
                if choice == next {
                    choices.push(key);
                }
                let label = spec.labels[q][k];
                match mine.iter_mut().find(|g| g.choice == choice) {
                    Some(g) => g.label = spec.bdd.or(g.label, label),
                    None => mine.push(Group { choice, label }),
                }
            }
            first_class.push(classes.len() as u32);
            // Partition refinement of the inputs by the groups they enable.
            let mut parts = vec![Bdd::TRUE];
            for g in &mine {
                let enabled = spec.bdd.exists(g.label, outputs);
                let mut split = Vec::with_capacity(parts.len() + 1);
                for &p in &parts {
                    let inside = spec.bdd.and(p, enabled);
                    let outside = spec.bdd.diff(p, enabled);
                    split.extend([inside, outside].into_iter().filter(|&b| b != Bdd::FALSE));
                }
                parts = split;
                if spec.bdd.overflowed() {
                    return Err(spec.too_big("the game construction"));
                }
            }
            classes.extend(parts.into_iter().map(|inputs| Class {
                state: b as u32,
                inputs,
            }));
            if n + classes.len() + choices.len() > MAX_GAME_VERTICES {
                return Err(ParseError::whole(
                    &spec.source,
                    format!(
                        "the game has more than MAX_GAME_VERTICES = {MAX_GAME_VERTICES} vertices"
                    ),
                )
                .with_kind(ErrorKind::TooBig));
            }
            groups.push(mine);
        }
        first_class.push(classes.len() as u32);
        let start = block[spec.start as usize];
        let arena = Game::arena(spec, &reps, start, &groups, &classes, &choices)?;
        Ok(Game {
            arena,
            start,
            groups,
            classes,
            first_class,
            choices,
        })
    }

    fn arena(
        spec: &mut Spec,
        reps: &[usize],
        start: u32,
        groups: &[Vec<Group>],
        classes: &[Class],
        choices: &[(u32, Priority)],
    ) -> Result<Arena, ParseError> {
        let n = groups.len();
        let first_choice = (n + classes.len()) as u64;
        let outputs = spec.output_vars();
        let mut vertices: Vec<(Player, Priority)> = Vec::with_capacity(n + classes.len());
        for &q in reps {
            // With transition-based colours every cycle passes a choice vertex, which carries
            // the priority; 0 is below all of them.
            let s = &spec.automaton.states[q];
            let p = s.colour.map_or(0, |c| spec.parity.priority(Some(c)));
            vertices.push((Player::One, p));
        }
        vertices.extend(classes.iter().map(|_| (Player::Zero, 0)));
        vertices.extend(choices.iter().map(|&(_, p)| (Player::Zero, p)));
        let mut moves = Vec::new();
        for (k, class) in classes.iter().enumerate() {
            let v = (n + k) as u64;
            moves.push((u64::from(class.state), v));
            for g in &groups[class.state as usize] {
                let enabled = spec.bdd.and(g.label, class.inputs);
                if spec.bdd.exists(enabled, outputs) != Bdd::FALSE {
                    moves.push((v, first_choice + u64::from(g.choice)));
                }
            }
        }
        for (c, &(target, _)) in choices.iter().enumerate() {
            moves.push((first_choice + c as u64, u64::from(target)));
        }
        if spec.bdd.overflowed() {
            return Err(spec.too_big("the game construction"));
        }
        Arena::from_edges(&vertices, moves)
            .and_then(|a| a.with_start(Some(start as NodeId)))
            .map_err(|e| ParseError::whole(&spec.source, format!("the game: {e}")))
    }

    /// The class vertex of class `k`.
    pub(crate) fn class_vertex(&self, k: usize) -> NodeId {
        (self.groups.len() + k) as NodeId
    }

    /// The choice a strategy plays at class `k`, as an index into the state's groups.
    pub(crate) fn chosen_group(&self, solution: &ParitySolution, k: usize) -> usize {
        let v = self.class_vertex(k);
        let first_choice = (self.groups.len() + self.classes.len()) as NodeId;
        let to = solution
            .strategy(v)
            .expect("the winner's vertices have moves");
        let choice = to - first_choice;
        let state = self.classes[k].state as usize;
        self.groups[state]
            .iter()
            .position(|g| g.choice == choice)
            .expect("a move goes to a choice of the state")
    }
}

/// Bisimilar automaton states (module docs): the block of every state, and the first state of
/// each block (blocks numbered in order of their first state).
fn bisimulation(spec: &Spec) -> (Vec<u32>, Vec<usize>) {
    let states = &spec.automaton.states;
    let n = states.len();
    let colour = |q: usize| {
        states[q]
            .colour
            .map_or(u32::MAX, |c| spec.parity.priority(Some(c)))
    };
    let mut ids: FxMap<u32, u32> = FxMap::default();
    let mut block: Vec<u32> = (0..n)
        .map(|q| {
            let fresh = ids.len() as u32;
            *ids.entry(colour(q)).or_insert(fresh)
        })
        .collect();
    let mut count = ids.len();
    loop {
        let mut ids: FxMap<Vec<u32>, u32> = FxMap::default();
        let mut next = vec![0u32; n];
        for q in 0..n {
            // Labels compared as BDD nodes, transition by transition: no BDD operation per
            // round (two states whose labels split the same union differently stay apart).
            let mut to: Vec<(u32, Priority, Bdd)> = spec.automaton.states[q]
                .edges
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    (
                        block[e.target as usize],
                        spec.priority(q, k),
                        spec.labels[q][k],
                    )
                })
                .collect();
            to.sort_unstable();
            let mut signature = vec![block[q]];
            signature.extend(to.iter().flat_map(|&(b, p, l)| [b, p, l.index() as u32]));
            let fresh = ids.len() as u32;
            next[q] = *ids.entry(signature).or_insert(fresh);
        }
        block = next;
        if ids.len() == count {
            break;
        }
        count = ids.len();
    }
    let mut reps = vec![usize::MAX; count];
    let mut renumber = vec![u32::MAX; count];
    let mut seen = 0;
    for (q, &b) in block.iter().enumerate() {
        let b = b as usize;
        if renumber[b] == u32::MAX {
            renumber[b] = seen;
            reps[seen as usize] = q;
            seen += 1;
        }
    }
    (block.iter().map(|&b| renumber[b as usize]).collect(), reps)
}

/// Solves the game: whether the controller wins from the start state, and the solution.
pub(crate) fn solve(game: &Game, solver: Solver) -> (bool, ParitySolution) {
    let solution = zermelo_parity::solve(&game.arena, solver);
    (solution.winner(game.start) == Player::Zero, solution)
}
