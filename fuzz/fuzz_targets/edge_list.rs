//! Edge lists: the sequential parser never panics, and the parallel loader (both of its row
//! layouts) accepts exactly what it accepts, with the same graph or the same error. Inputs whose
//! header declares more than the front door's memory limit allows are refused by `io::open`
//! before any parser sizes an array by them; only the others reach the three parsers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo::graph::Predecessors;
use zermelo::io::{
    declared_size, open, parse_edge_list, read_edge_list, read_edge_list_reverse, ErrorKind,
    InputFormat, LoadOptions, Progress, Source,
};
use zermelo::memory::Limit;

fuzz_target!(|data: &[u8]| {
    let options = LoadOptions {
        format: Some(InputFormat::Edges),
        memory: Limit::Bytes(256 << 20),
        ..LoadOptions::default()
    };
    if let Err(e) = open(
        Source::Bytes {
            name: "fuzz",
            bytes: data,
        },
        &options,
    ) {
        if e.kind() == ErrorKind::TooBig {
            return;
        }
    }
    // `open` may refuse bytes for another reason first (a NUL byte in a comment) while a file
    // with the same bytes is accepted; the three loaders below take no limit, so bound what
    // the header declares the way `open`'s memory check would.
    if let Ok(Some((n, m))) = declared_size(data, InputFormat::Edges) {
        if n > 1 << 22 || m > 1 << 24 {
            return;
        }
    }
    let sequential = parse_edge_list(data, "fuzz");
    let parallel = read_edge_list(data, "fuzz", &Progress::new(0));
    match (&sequential, &parallel) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "parallel loader built another graph"),
        (Err(a), Err(b)) => assert_eq!(a, b, "parallel loader reported another error"),
        _ => panic!("parsers disagree: {sequential:?} vs {parallel:?}"),
    }
    let reverse = read_edge_list_reverse(data, "fuzz", &Progress::new(0));
    match (&sequential, &reverse) {
        (Ok(a), Ok(r)) => {
            assert_eq!(a.node_count(), r.node_count());
            for v in 0..a.node_count() as u32 {
                assert_eq!(a.out_degree(v), r.out_degree(v));
                assert_eq!(a.predecessors(v), r.predecessors(v));
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("reverse-only loader disagrees"),
    }
});
