//! `io::open`, the one way in: every source, the size and memory checks that come before any
//! allocation sized by the input, and the hostile inputs of issue 12 part 5.

use std::io::Write;
use std::path::Path;

use zermelo::graph::{Convention, Csr, Rules};
use zermelo::io::{
    self, open, ErrorKind, InputFormat, LoadOptions, LoadedGraph, Rows, Source, Verdicts,
};
use zermelo::memory::Limit;
use zermelo::{solve, Outcome};

const CHAIN: &[u8] = b"# a chain\n4 3\n0 1\n1 2\n2 3\n";

fn bytes(
    name: &str,
    bytes: &[u8],
    options: &LoadOptions<'_>,
) -> Result<io::Loaded, io::ParseError> {
    open(Source::Bytes { name, bytes }, options)
}

fn limited(bytes: u64) -> LoadOptions<'static> {
    LoadOptions {
        memory: Limit::Bytes(bytes),
        ..LoadOptions::default()
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn every_source_gives_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    let expected = io::parse_edge_list(CHAIN, "x").unwrap();
    let path = write(dir.path(), "g.txt", CHAIN);
    let options = LoadOptions::default();
    let from_path = open(Source::Path(&path), &options).unwrap();
    let from_bytes = bytes("g.txt", CHAIN, &options).unwrap();
    let mut reader: &[u8] = CHAIN;
    let from_reader = open(
        Source::Reader {
            name: "r",
            reader: &mut reader,
        },
        &options,
    )
    .unwrap();
    for loaded in [&from_path, &from_bytes, &from_reader] {
        assert_eq!(loaded.csr(), Some(&expected));
        assert_eq!(loaded.format, InputFormat::Edges);
        assert_eq!(
            loaded.solve(),
            solve::retrograde(&expected, &Rules::normal())
        );
    }
    assert_eq!(from_path.name, path.display().to_string());
    assert_eq!(from_reader.name, "r");
}

#[test]
fn reverse_only_solves_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "g.txt", CHAIN);
    let options = LoadOptions {
        rows: Rows::ReverseOnly,
        ..LoadOptions::default()
    };
    let loaded = open(Source::Path(&path), &options).unwrap();
    assert!(matches!(loaded.graph, LoadedGraph::Reverse(_)));
    assert!(loaded.csr().is_none());
    let full = io::parse_edge_list(CHAIN, "x").unwrap();
    assert_eq!(loaded.solve(), solve::retrograde(&full, &Rules::normal()));
    // In memory there is nothing to save: both row sets are loaded.
    assert!(bytes("g", CHAIN, &options).unwrap().csr().is_some());
}

#[test]
fn binary_graphs_open_mapped_read_or_from_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let g = io::parse_edge_list(CHAIN, "x").unwrap();
    let mut zg = Vec::new();
    io::binary::write_graph(&mut zg, &g).unwrap();
    let path = write(dir.path(), "g.zg", &zg);
    for mmap in [false, true] {
        let options = LoadOptions {
            mmap,
            ..LoadOptions::default()
        };
        let loaded = open(Source::Path(&path), &options).unwrap();
        assert_eq!(loaded.format, InputFormat::Binary);
        assert_eq!(loaded.csr(), Some(&g));
    }
    assert_eq!(
        bytes("g.zg", &zg, &LoadOptions::default()).unwrap().csr(),
        Some(&g)
    );
}

#[test]
fn options_merge_into_the_inputs_rules() {
    let json = br#"{"nodes": 3, "edges": [[0, 1]], "verdicts": [[2, "draw"]]}"#;
    let text = b"1 win\n";
    let options = LoadOptions {
        misere: true,
        verdicts: Some(Verdicts {
            name: "v.txt",
            text,
        }),
        ..LoadOptions::default()
    };
    let loaded = bytes("g.json", json, &options).unwrap();
    assert_eq!(loaded.rules.convention(), Convention::Misere);
    assert_eq!(
        loaded.rules.verdicts(),
        &[(1, Outcome::Win), (2, Outcome::Draw)]
    );
    let conflict = Verdicts {
        name: "v.txt",
        text: b"2 lose\n",
    };
    let e = bytes(
        "g.json",
        json,
        &LoadOptions {
            verdicts: Some(conflict),
            ..LoadOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.source, "g.json and v.txt");
    assert!(e.message.contains("two different verdicts"), "{e}");
}

#[test]
fn json_with_four_billion_nodes_is_refused_before_allocating() {
    let json = br#"{"nodes": 4294967295, "edges": []}"#;
    let e = bytes("big.json", json, &limited(1 << 30)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TooBig, "{e}");
    assert!(e.message.contains("this job needs about"), "{e}");
    // Without an explicit limit the machine's available memory applies (this machine has far
    // less than the ~130 GiB such a graph needs).
    let e = bytes("big.json", json, &LoadOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TooBig, "{e}");
}

#[test]
fn the_memory_limit_holds_for_every_format() {
    let big = 1_000_000u64;
    let edges = format!("{big} 0\n");
    let json = format!(r#"{{"nodes": {big}, "edges": []}}"#);
    let two = format!("{big} 0 0\n");
    let one_mib = limited(1 << 20);
    for (name, text, format) in [
        ("g.txt", edges.as_bytes(), InputFormat::Edges),
        ("g.json", json.as_bytes(), InputFormat::Json),
        ("g.txt", two.as_bytes(), InputFormat::TwoPlayer),
    ] {
        let options = LoadOptions {
            format: Some(format),
            ..one_mib
        };
        let e = bytes(name, text, &options).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooBig, "{format:?}: {e}");
        let mut reader = text;
        let e = open(
            Source::Reader {
                name,
                reader: &mut reader,
            },
            &options,
        )
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooBig, "{format:?}: {e}");
        // The same input in a file.
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), name, text);
        let e = open(Source::Path(&path), &options).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooBig, "{format:?} file: {e}");
        // And a limit that fits.
        assert!(bytes(
            name,
            text,
            &LoadOptions {
                format: Some(format),
                ..limited(1 << 30)
            }
        )
        .is_ok());
    }
}

#[test]
fn a_header_after_a_mebibyte_of_comments_is_still_checked() {
    let mut text = Vec::new();
    while text.len() < (1 << 20) + 100 {
        text.extend_from_slice(b"# a comment line that pads the header far away\n");
    }
    text.extend_from_slice(b"4294967295 0\n");
    assert_eq!(
        io::declared_size(&text, InputFormat::Edges).unwrap(),
        Some((4_294_967_295, 0))
    );
    let e = bytes("far.txt", &text, &limited(1 << 30)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TooBig, "{e}");
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "far.txt", &text);
    let e = open(Source::Path(&path), &limited(1 << 30)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TooBig, "{e}");
}

#[test]
fn noise_devices_are_refused_at_once() {
    for dev in ["/dev/zero", "/dev/urandom"] {
        if !Path::new(dev).exists() {
            continue;
        }
        let t = std::time::Instant::now();
        let e = open(Source::Path(Path::new(dev)), &LoadOptions::default()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Syntax, "{dev}: {e}");
        assert!(e.message.contains("binary data"), "{dev}: {e}");
        assert!(t.elapsed().as_secs() < 5, "{dev} took {:?}", t.elapsed());
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_is_read_sequentially() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("g.fifo");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !status.is_ok_and(|s| s.success()) {
        return; // no mkfifo here
    }
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(writer_path)
            .unwrap();
        f.write_all(CHAIN).unwrap();
    });
    let loaded = open(Source::Path(&fifo), &LoadOptions::default()).unwrap();
    writer.join().unwrap();
    assert_eq!(
        loaded.csr(),
        Some(&io::parse_edge_list(CHAIN, "x").unwrap())
    );
}

#[test]
fn a_stream_over_the_limit_stops_reading() {
    let mut endless = std::io::Read::take(std::io::repeat(b'#'), 64 << 20);
    let e = open(
        Source::Reader {
            name: "endless",
            reader: &mut endless,
        },
        &limited(1 << 20),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TooBig, "{e}");
}

#[test]
fn error_kinds_tell_problems_apart() {
    let kind = |text: &[u8]| {
        bytes("g.txt", text, &LoadOptions::default())
            .unwrap_err()
            .kind()
    };
    assert_eq!(kind(b"2 1\n0 x\n"), ErrorKind::Syntax);
    assert_eq!(kind(b"2 1\n0 5\n"), ErrorKind::OutOfRange);
    assert_eq!(kind(b"2 3\n0 1\n"), ErrorKind::Truncated);
    assert_eq!(kind(b"99999999999999999999 0\n"), ErrorKind::OutOfRange);
    assert_eq!(kind(b"4294967296 0\n"), ErrorKind::TooBig);
    let e = open(
        Source::Path(Path::new("/nonexistent/zermelo/g.txt")),
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    let g = Csr::from_edges(3, [(0, 1), (1, 2)]).unwrap();
    let mut zg = Vec::new();
    io::binary::write_graph(&mut zg, &g).unwrap();
    let e = bytes("g.zg", &zg[..zg.len() - 64], &LoadOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Truncated, "{e}");
    zg[130] ^= 1; // in the forward offsets
    let e = bytes("g.zg", &zg, &LoadOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Corrupt, "{e}");
}
