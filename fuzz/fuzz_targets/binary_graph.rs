//! `.zg` binary graphs: every header, section and checksum problem is an error, never a panic,
//! and an accepted graph is a valid one (its forward and reverse rows agree).
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut file = tempfile::tempfile().expect("temporary file");
    file.write_all(data).expect("write");
    if let Ok(graph) = zermelo::io::binary::open_graph(&file, "fuzz") {
        let n = graph.node_count() as u32;
        let mut forward: Vec<(u32, u32)> = (0..n)
            .flat_map(|u| graph.successors(u).iter().map(move |&v| (u, v)))
            .collect();
        let mut backward: Vec<(u32, u32)> = (0..n)
            .flat_map(|v| graph.predecessors(v).iter().map(move |&u| (u, v)))
            .collect();
        forward.sort_unstable();
        backward.sort_unstable();
        assert_eq!(
            forward, backward,
            "reverse rows are not the transpose of forward rows"
        );
    }
});
