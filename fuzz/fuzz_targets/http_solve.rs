//! `/api/solve` request bodies (JSON or edge list) under the server's default limits: an
//! answer or an API error, never a panic or an allocation the limits should have refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_server::{solve_request, Limits, SolveOptions};

fuzz_target!(|data: &[u8]| {
    let (flags, body) = match data.split_first() {
        Some((&f, rest)) => (f, rest),
        None => (0, data),
    };
    let options = SolveOptions {
        trace: flags & 1 != 0,
        misere: flags & 2 != 0,
    };
    let _ = solve_request(body, options, &Limits::default());
});
