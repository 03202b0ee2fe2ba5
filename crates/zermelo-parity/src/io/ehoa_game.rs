//! The explicit parity game of an extended-HOA automaton ([`parse_ehoa`]), what `zermelo
//! parity FILE.ehoa` solves.
//!
//! Knor's naive explicit construction, Mealy semantics: at automaton state `q` the environment
//! (player 1, Odd) picks an input valuation `i`; then the controller (player 0, Even) picks a
//! transition of `q` whose label holds for `i` and some output valuation; the play goes on from
//! the transition's target. Vertex ids: state `q` is vertex `q`, then one controller vertex per
//! (state, input valuation), then one vertex per transition (carrying its colour, one
//! successor: its target), then, if some input leaves the controller without a transition, a
//! sink won by the environment. Colours become priorities of zermelo's max-even convention
//! ([`ParityCondition::priority`]); a vertex that is neither a state nor a transition has
//! priority 0.

use super::ehoa::{parse_automaton, Automaton, ParityCondition};
use crate::{Arena, Priority};
use zermelo::graph::Csr;
use zermelo::io::{ErrorKind, ParseError};
use zermelo::Player;

/// The most atomic propositions of an explicit game: it has `2^inputs` vertices per state and
/// each label is evaluated on `2^APs` valuations.
pub const MAX_APS: usize = 20;
/// The most (state, valuation) evaluations accepted.
const MAX_WORK: u64 = 1 << 25;

/// Parses an extended-HOA parity automaton and builds its game (module docs).
///
/// # Errors
/// [`ParseError`] with the line and what was expected; [`ErrorKind::TooBig`] past
/// [`MAX_APS`] propositions or 2^25 label evaluations.
pub fn parse_ehoa(bytes: &[u8], source: &str) -> Result<Arena, ParseError> {
    let automaton = parse_automaton(bytes, source)?;
    build(&automaton, source)
}

/// The priority of a colour, or 0 without an `acc-name:`.
fn priority(parity: Option<ParityCondition>, colour: Option<u32>) -> Priority {
    parity.map_or(0, |p| p.priority(colour))
}

fn build(a: &Automaton, source: &str) -> Result<Arena, ParseError> {
    let aps = a.aps.len();
    if aps > MAX_APS {
        return Err(ParseError::whole(
            source,
            format!("{aps} atomic propositions: at most {MAX_APS} in an explicit game (MAX_APS)"),
        )
        .with_kind(ErrorKind::TooBig));
    }
    let inputs: Vec<usize> = (0..aps).filter(|x| !a.controllable.contains(x)).collect();
    let outputs: Vec<usize> = a.controllable.clone();
    let states = &a.states;
    let n = states.len() as u64;
    let per_state = 1u64 << inputs.len();
    let edges: u64 = states.iter().map(|s| s.edges.len() as u64).sum();
    let work = (n + edges).saturating_mul(1 << aps);
    if work > MAX_WORK {
        return Err(ParseError::whole(
            source,
            format!("{n} states, {edges} transitions over {aps} propositions: too big"),
        )
        .with_kind(ErrorKind::TooBig));
    }
    let choice = |q: u64, i: u64| n + q * per_state + i;
    let first_edge = n + n * per_state;
    let mut vertices: Vec<(Player, Priority)> = Vec::new();
    for s in states {
        vertices.push((Player::One, priority(a.parity, s.colour)));
    }
    vertices.extend((0..n * per_state).map(|_| (Player::Zero, 0)));
    let mut moves: Vec<(u64, u64)> = Vec::new();
    let mut edge_id = first_edge;
    let mut sink_needed = false;
    let sink = first_edge + edges;
    for (q, s) in states.iter().enumerate() {
        let q = q as u64;
        for i in 0..per_state {
            moves.push((q, choice(q, i)));
            let input = spread(i, &inputs);
            let mut any = false;
            for (k, e) in s.edges.iter().enumerate() {
                let enabled =
                    (0..1u64 << outputs.len()).any(|o| e.label.holds(input | spread(o, &outputs)));
                if enabled {
                    moves.push((choice(q, i), edge_id + k as u64));
                    any = true;
                }
            }
            if !any {
                moves.push((choice(q, i), sink));
                sink_needed = true;
            }
        }
        for e in &s.edges {
            vertices.push((Player::Zero, priority(a.parity, e.colour)));
            moves.push((edge_id, u64::from(e.target)));
            edge_id += 1;
        }
    }
    if sink_needed {
        vertices.push((Player::One, 1));
        moves.push((sink, sink));
    }
    let graph = Csr::from_edges(vertices.len() as u64, moves)
        .map_err(|e| zermelo::io::graph_error(ParseError::whole(source, e.to_string()), &e))?;
    let (owner, priority) = vertices.into_iter().unzip();
    Arena::new(graph, owner, priority)
        .and_then(|arena| arena.with_start(a.start))
        .map_err(|e| ParseError::whole(source, e.to_string()))
}

/// The valuation (a bit per AP number) that sets `aps[j]` to bit `j` of `bits`.
fn spread(bits: u64, aps: &[usize]) -> u64 {
    aps.iter()
        .enumerate()
        .filter(|&(j, _)| bits >> j & 1 == 1)
        .fold(0, |v, (_, &a)| v | 1 << a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::looks_like_hoa;

    /// A one-state automaton: the controller must copy input 0 to output 1; colour 0 (max
    /// even: accepting) when it does, 1 when it does not.
    const COPY: &str = "HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n\
        acc-name: parity max even 2\nAcceptance: 2 Fin(1) & Inf(0)\n--BODY--\nState: 0\n\
        [0&1 | !0&!1] 0 {0}\n[0&!1 | !0&1] 0 {1}\n--END--\n";

    #[test]
    fn copy_game_is_won_by_the_controller() {
        let a = parse_ehoa(COPY.as_bytes(), "copy.ehoa").unwrap();
        // 1 state + 2 input valuations + 2 transitions.
        assert_eq!(a.vertex_count(), 5);
        let s = crate::solve(&a, crate::Solver::Auto);
        crate::verify(&a, &s).unwrap();
        assert_eq!(s.winner(0), Player::Zero);
        assert_eq!(a.start(), Some(0));
    }

    #[test]
    fn a_proposition_named_controllable_many_times_is_one_output() {
        // Found by the fuzzer: repeats of `controllable-AP: 1` made 2^repeats output
        // valuations per transition (a 4 KB file parsed for hours; here 2^40 without the fix).
        let text = COPY.replace("controllable-AP: 1\n", &"controllable-AP: 1 1\n".repeat(20));
        let twice = parse_ehoa(text.as_bytes(), "t").unwrap();
        let once = parse_ehoa(COPY.as_bytes(), "t").unwrap();
        assert_eq!(twice.vertex_count(), once.vertex_count());
        assert_eq!(twice.edge_count(), once.edge_count());
    }

    #[test]
    fn a_state_count_the_body_cannot_hold_is_refused_before_allocating() {
        // Found by the fuzzer: `States: 835300028` in an 88-byte file allocated 33 GB.
        let text = COPY.replace("States: 1\n", "States: 835300028\n");
        let e = parse_ehoa(text.as_bytes(), "big.ehoa").unwrap_err();
        assert_eq!((e.line, e.kind), (Some(9), ErrorKind::Truncated), "{e:?}");
        assert!(e.to_string().contains("room for at most"), "{e}");
    }

    #[test]
    fn uncontrollable_output_loses() {
        // Same automaton, but the environment sets both propositions: it can always mismatch.
        let text = COPY.replace("controllable-AP: 1\n", "controllable-AP:\n");
        let a = parse_ehoa(text.as_bytes(), "env.ehoa").unwrap();
        let s = crate::solve(&a, crate::Solver::Auto);
        crate::verify(&a, &s).unwrap();
        assert_eq!(s.winner(0), Player::One);
    }

    #[test]
    fn errors_name_the_line() {
        let bad = COPY.replace("[0&!1 | !0&1] 0 {1}", "[0&!1 | !0&1] 7 {1}");
        let e = parse_ehoa(bad.as_bytes(), "x.ehoa").unwrap_err();
        assert_eq!((e.line, e.kind), (Some(11), ErrorKind::OutOfRange), "{e:?}");
        let bad = COPY.replace("{1}", "{2}");
        assert_eq!(parse_ehoa(bad.as_bytes(), "x").unwrap_err().line, Some(11));
        let bad = COPY.replace("[0&1 | !0&!1]", "[0&1 | !0&!]");
        assert_eq!(parse_ehoa(bad.as_bytes(), "x").unwrap_err().line, Some(10));
        let bad = COPY.replace("--END--\n", "");
        assert_eq!(
            parse_ehoa(bad.as_bytes(), "x").unwrap_err().kind,
            ErrorKind::Truncated
        );
        assert!(looks_like_hoa(COPY.as_bytes()));
        assert!(!looks_like_hoa(b"parity 3;"));
    }

    /// A seeded stand-in for the fuzz target: damaged copies of a valid file (bytes replaced by
    /// the format's own characters, cut short, lines dropped) never panic, and every game that
    /// parses solves to a certificate.
    #[test]
    fn damaged_automata_never_panic() {
        let mut rng = zermelo::graph::generate::SplitMix64::new(5);
        let alphabet = b"0123 []{}()!&|tf@:\"\n-/*HOAState";
        let (mut parsed, mut refused) = (0, 0);
        for _ in 0..3000 {
            let mut text = COPY.as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(text.len() as u64) as usize;
                match rng.below(3) {
                    0 => text[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                    1 => text.truncate(at),
                    _ => {
                        let end = text[at..]
                            .iter()
                            .position(|&b| b == b'\n')
                            .map_or(text.len(), |k| at + k);
                        text.drain(at..end);
                    }
                }
                if text.is_empty() {
                    break;
                }
            }
            match parse_ehoa(&text, "damaged") {
                Ok(a) => {
                    parsed += 1;
                    let s = crate::solve(&a, crate::Solver::Auto);
                    crate::verify(&a, &s).unwrap();
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.message.is_empty());
                }
            }
        }
        assert!(
            parsed > 100 && refused > 1000,
            "{parsed} parsed, {refused} refused"
        );
    }
}
