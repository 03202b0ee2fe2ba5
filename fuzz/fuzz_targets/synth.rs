//! Specifications for `zermelo synth`: no panic on any input; an accepted specification with at
//! most 64 states is synthesized, and its controller passes the closed-loop check.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_synth::{check_closed_loop, synthesize, Options, Spec, Verdict};

fuzz_target!(|data: &[u8]| {
    let Ok(mut spec) = Spec::parse(data, "fuzz") else {
        return;
    };
    if spec.automaton.states.len() > 64 {
        return;
    }
    if let Ok(result) = synthesize(&mut spec, &Options::default()) {
        if let Some(aig) = result.controller {
            let verdict = check_closed_loop(&mut spec, &aig, "c").unwrap();
            assert!(matches!(verdict, Verdict::Correct { .. }));
        }
    }
});
