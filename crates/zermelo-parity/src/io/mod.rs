//! The formats of parity games: PGSolver's `parity N;` games and `paritysol` solutions, JSON
//! solutions, and SYNTCOMP's extended HOA automata (docs/formats.md). Parsers take bytes and a
//! source name and return [`zermelo::io::ParseError`] (source, line, what was expected), as the
//! core's graph formats do; each text format has a [`LineCheck`](zermelo::io::stream::LineCheck)
//! so that a stream fails on its first bad line.

mod ehoa;
mod ehoa_game;
mod game;
mod pgsolver;

pub use ehoa::{
    looks_like_hoa, parse_automaton, Automaton, AutomatonState, Label, ParityCondition, Transition,
    MAX_AUTOMATON_APS,
};
pub use ehoa_game::{parse_ehoa, MAX_APS};
pub use game::{estimate_memory, parse_game, GameLines};
pub use pgsolver::{
    parse_paritysol, parse_pgsolver, write_parity_json, write_paritysol, write_pgsolver,
    ParitysolLines, PgsolverLines,
};
