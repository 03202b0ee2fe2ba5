//! Synthesis against independent oracles on random specifications: realizability against the
//! explicit game of `zermelo_parity::io::parse_ehoa` (one controller vertex per input valuation,
//! no BDDs) solved by Zielonka's algorithm; every controller against an explicit closed loop
//! (every input valuation simulated, the product solved as a one-player parity game); broken
//! controllers rejected with a lasso that replays.

use zermelo::graph::generate::SplitMix64;
use zermelo::Player;
use zermelo_parity::io::parse_ehoa;
use zermelo_parity::{Arena, Solver};
use zermelo_synth::{
    check_closed_loop, parse_aiger, synthesize, write_aiger, Aig, Lasso, Options, Spec, Verdict,
};

/// A random deterministic complete parity automaton: every state maps each full valuation to a
/// (target, colour), labels are the disjunctions of their minterms.
fn random_spec(rng: &mut SplitMix64) -> String {
    let states = 1 + rng.below(5) as usize;
    let aps = 1 + rng.below(4) as usize;
    let controllable: Vec<usize> = loop {
        let c: Vec<usize> = (0..aps).filter(|_| rng.below(2) == 0).collect();
        if !c.is_empty() {
            break c;
        }
    };
    let colours = 1 + rng.below(4);
    let max = rng.below(2) == 0;
    let even = rng.below(2) == 0;
    let state_based = rng.below(4) == 0;
    let uncoloured = rng.below(6) == 0;
    let names: Vec<String> = (0..aps).map(|a| format!("\"p{a}\"")).collect();
    let mut text = format!(
        "HOA: v1\nStates: {states}\nStart: 0\nAP: {aps} {}\ncontrollable-AP: {}\n\
         acc-name: parity {} {} {colours}\nAcceptance: 1 t\n--BODY--\n",
        names.join(" "),
        controllable
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        if max { "max" } else { "min" },
        if even { "even" } else { "odd" },
    );
    for q in 0..states {
        if state_based {
            text += &format!("State: {q} {{{}}}\n", rng.below(colours));
        } else {
            text += &format!("State: {q}\n");
        }
        // Few distinct (target, colour) pairs per state, so that labels merge valuations.
        let pairs: Vec<(u64, u64)> = (0..1 + rng.below(3))
            .map(|_| (rng.below(states as u64), rng.below(colours)))
            .collect();
        let mut by_pair: Vec<Vec<u64>> = vec![Vec::new(); pairs.len()];
        for v in 0..1u64 << aps {
            by_pair[rng.below(pairs.len() as u64) as usize].push(v);
        }
        for (k, minterms) in by_pair.iter().enumerate() {
            if minterms.is_empty() {
                continue;
            }
            let label: Vec<String> = minterms
                .iter()
                .map(|v| {
                    let lits: Vec<String> = (0..aps)
                        .map(|a| {
                            if v >> a & 1 == 1 {
                                a.to_string()
                            } else {
                                format!("!{a}")
                            }
                        })
                        .collect();
                    lits.join("&")
                })
                .collect();
            let (target, colour) = pairs[k];
            let colour = if state_based || (uncoloured && colour == 0) {
                String::new()
            } else {
                format!(" {{{colour}}}")
            };
            text += &format!("[{}] {target}{colour}\n", label.join(" | "));
        }
    }
    text + "--END--\n"
}

/// Realizability by the explicit game, solved by Zielonka's algorithm.
fn explicit_realizable(text: &str) -> bool {
    let arena = parse_ehoa(text.as_bytes(), "oracle").unwrap();
    let s = zermelo_parity::solve(&arena, Solver::Zielonka);
    s.winner(arena.start().unwrap()) == Player::Zero
}

/// The closed loop, explicitly: every input valuation simulated from every reachable (state,
/// latches); product states and edges as vertices of a one-player game owned by the
/// environment; the circuit is correct iff the environment loses from the start.
fn explicit_closed_loop(spec: &Spec, aig: &Aig) -> bool {
    let a = &spec.automaton;
    let latches = aig.latch_count() as usize;
    let mut index = std::collections::HashMap::new();
    let start = (spec.start, vec![false; latches]);
    let mut states = vec![start.clone()];
    index.insert(start, 0u64);
    let mut vertices: Vec<(Player, u32)> = Vec::new();
    let mut moves = Vec::new();
    let mut edge_vertices = Vec::new();
    let mut at = 0;
    while at < states.len() {
        let (q, values) = states[at].clone();
        for i in 0..1u64 << spec.inputs.len() {
            let inputs: Vec<u64> = (0..spec.inputs.len()).map(|k| i >> k & 1).collect();
            let words: Vec<u64> = values.iter().map(|&b| u64::from(b)).collect();
            let (outs, next) = aig.simulate(&inputs, &words);
            let mut valuation = 0u64;
            for (k, &ap) in spec.inputs.iter().enumerate() {
                valuation |= (i >> k & 1) << ap;
            }
            for (k, &ap) in spec.outputs.iter().enumerate() {
                valuation |= (outs[k] & 1) << ap;
            }
            let state = &a.states[q as usize];
            let taken: Vec<usize> = (0..state.edges.len())
                .filter(|&k| state.edges[k].label.holds(valuation))
                .collect();
            assert_eq!(taken.len(), 1, "deterministic and complete");
            let k = taken[0];
            let key = (
                state.edges[k].target,
                next.iter().map(|&w| w & 1 == 1).collect(),
            );
            let fresh = states.len() as u64;
            let to = *index.entry(key.clone()).or_insert(fresh);
            if to == fresh {
                states.push(key);
            }
            edge_vertices.push((at as u64, to, spec.priority(q as usize, k)));
        }
        at += 1;
    }
    let n = states.len() as u64;
    vertices.extend((0..n).map(|_| (Player::One, 0)));
    for (e, &(from, to, p)) in edge_vertices.iter().enumerate() {
        vertices.push((Player::One, p));
        moves.push((from, n + e as u64));
        moves.push((n + e as u64, to));
    }
    let arena = Arena::from_edges(&vertices, moves).unwrap();
    let s = zermelo_parity::solve(&arena, Solver::Zielonka);
    s.winner(0) == Player::Zero
}

/// Replays a lasso on the circuit and the automaton: each step's outputs are the circuit's,
/// its transition the one that holds, the cycle closes, and its highest priority is odd.
fn replays(spec: &Spec, aig: &Aig, lasso: &Lasso) -> bool {
    let steps: Vec<_> = lasso.prefix.iter().chain(&lasso.cycle).collect();
    let mut at = (spec.start, vec![false; aig.latch_count() as usize]);
    for (j, step) in steps.iter().enumerate() {
        if (step.state, step.latches.clone()) != at {
            return false;
        }
        let inputs: Vec<u64> = spec.inputs.iter().map(|&a| step.inputs >> a & 1).collect();
        let words: Vec<u64> = at.1.iter().map(|&b| u64::from(b)).collect();
        let (outs, next) = aig.simulate(&inputs, &words);
        let outputs = spec
            .outputs
            .iter()
            .enumerate()
            .fold(0, |v, (k, &a)| v | (outs[k] & 1) << a);
        if outputs != step.outputs {
            return false;
        }
        let edge = &spec.automaton.states[step.state as usize].edges[step.edge];
        if !edge.label.holds(step.inputs | step.outputs) {
            return false;
        }
        at = (edge.target, next.iter().map(|&w| w & 1 == 1).collect());
        if j + 1 == steps.len() {
            let first = &lasso.cycle[0];
            if at != (first.state, first.latches.clone()) {
                return false;
            }
        }
    }
    let top = lasso.cycle.iter().map(|s| s.priority).max().unwrap();
    top % 2 == 1
}

#[test]
fn realizability_and_controllers_agree_with_explicit_oracles() {
    let mut rng = SplitMix64::new(45);
    let (mut realizable, mut unrealizable, mut broken) = (0, 0, 0);
    for round in 0..400 {
        let text = random_spec(&mut rng);
        let mut spec = Spec::parse(text.as_bytes(), "random.ehoa").unwrap();
        let expected = explicit_realizable(&text);
        let solver = Solver::ALL[round % Solver::ALL.len()];
        let options = Options {
            solver,
            realizability_only: false,
        };
        let result = synthesize(&mut spec, &options).unwrap();
        assert_eq!(result.realizable, expected, "{solver:?}\n{text}");
        let Some(aig) = result.controller else {
            unrealizable += 1;
            continue;
        };
        realizable += 1;
        // Through both file formats and back.
        for binary in [false, true] {
            let mut bytes = Vec::new();
            write_aiger(&mut bytes, &aig, binary, "test").unwrap();
            assert_eq!(parse_aiger(&bytes, "c").unwrap(), aig);
        }
        assert!(explicit_closed_loop(&spec, &aig), "{text}");
        let verdict = check_closed_loop(&mut spec, &aig, "c").unwrap();
        assert!(
            matches!(verdict, Verdict::Correct { .. }),
            "{verdict:?}\n{text}"
        );
        // Broken controllers: an output negated, a latch's next state negated.
        let mut mutants = Vec::new();
        let mut m = aig.clone();
        m.outputs[0] ^= 1;
        mutants.push(m);
        if aig.latch_count() > 0 {
            let mut m = aig.clone();
            m.latch_next[0] ^= 1;
            mutants.push(m);
        }
        for m in mutants {
            let good = explicit_closed_loop(&spec, &m);
            match check_closed_loop(&mut spec, &m, "m").unwrap() {
                Verdict::Correct { .. } => assert!(good, "{text}"),
                Verdict::Wrong(lasso) => {
                    assert!(!good, "{text}");
                    assert!(replays(&spec, &m, &lasso), "{lasso:?}\n{text}");
                    broken += 1;
                }
            }
        }
    }
    assert!(
        realizable > 80 && unrealizable > 80 && broken > 40,
        "{realizable} {unrealizable} {broken}"
    );
}

#[test]
fn bad_specifications_are_refused_with_their_line() {
    let copy = "HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n\
        acc-name: parity max even 2\nAcceptance: 2 Fin(1) & Inf(0)\n--BODY--\nState: 0\n\
        [0&1 | !0&!1] 0 {0}\n[0&!1 | !0&1] 0 {1}\n--END--\n";
    assert!(Spec::parse(copy.as_bytes(), "ok").is_ok());
    let cases = [
        (
            copy.replace("controllable-AP: 1\n", ""),
            "no controllable propositions",
            None,
        ),
        (
            copy.replace("[0&!1 | !0&1] 0 {1}\n", ""),
            "not complete: no transition for i=0 o=1",
            Some(9),
        ),
        (
            copy.replace("[0&!1 | !0&1]", "[0 | !0&1]"),
            "not deterministic",
            Some(11),
        ),
        (
            copy.replace("acc-name: parity max even 2", "acc-name: Buchi"),
            "only parity",
            Some(6),
        ),
        (
            copy.replace("acc-name: parity max even 2\n", "")
                .replace(" {0}", "")
                .replace(" {1}", ""),
            "no acc-name",
            None,
        ),
    ];
    for (text, message, line) in cases {
        let e = Spec::parse(text.as_bytes(), "bad.ehoa")
            .err()
            .expect(message);
        assert!(e.message.contains(message), "{message}: {e}");
        assert_eq!(e.line, line, "{e}");
    }
    // 65 propositions: refused at the header, before any valuation.
    let names: Vec<String> = (0..65).map(|a| format!("\"p{a}\"")).collect();
    let many = copy.replace("AP: 2 \"i\" \"o\"", &format!("AP: 65 {}", names.join(" ")));
    let e = Spec::parse(many.as_bytes(), "many.ehoa").err().unwrap();
    assert_eq!(e.kind, zermelo::io::ErrorKind::TooBig);
    assert!(e.message.contains("MAX_AUTOMATON_APS"), "{e}");
}

#[test]
fn many_propositions_are_handled_without_enumerating_valuations() {
    // 60 propositions: output 2k + 1 must equal input 2k for k < 20; inputs 40..60 are noise.
    // 2^60 valuations; the BDDs stay small (each output next to its input in the order).
    let aps = 60;
    let names: Vec<String> = (0..aps).map(|a| format!("\"p{a}\"")).collect();
    let same: Vec<String> = (0..20)
        .map(|k| format!("(({i} & {o}) | (!{i} & !{o}))", i = 2 * k, o = 2 * k + 1))
        .collect();
    let good = same.join(" & ");
    let text = format!(
        "HOA: v1\nStates: 1\nStart: 0\nAP: {aps} {}\ncontrollable-AP: {}\n\
         acc-name: parity max even 2\n--BODY--\nState: 0\n[{good}] 0 {{0}}\n[!({good})] 0 {{1}}\n--END--\n",
        names.join(" "),
        (0..20).map(|k| (2 * k + 1).to_string()).collect::<Vec<_>>().join(" "),
    );
    let mut spec = Spec::parse(text.as_bytes(), "wide.ehoa").unwrap();
    let result = synthesize(&mut spec, &Options::default()).unwrap();
    let aig = result.controller.unwrap();
    assert_eq!((aig.inputs, aig.outputs.len()), (40, 20));
    assert_eq!((aig.ands.len(), aig.latch_count()), (0, 0));
    assert!(matches!(
        check_closed_loop(&mut spec, &aig, "c").unwrap(),
        Verdict::Correct { .. }
    ));
}
