//! `zermelo serve`: starts on a free port, answers, and stops cleanly on SIGTERM and SIGINT.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

fn start(extra: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, addr)
}

fn post(addr: &str, path: &str, body: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[cfg(unix)]
fn stop_with(child: Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{signal}: {:?}", out.status);
    assert!(String::from_utf8_lossy(&out.stderr).contains("server stopped"));
}

#[cfg(unix)]
#[test]
fn serves_and_shuts_down_gracefully() {
    for signal in ["-TERM", "-INT"] {
        let (child, addr) = start(&["--max-nodes", "10"]);
        let ok = post(&addr, "/api/solve", "2 1\n0 1\n");
        assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
        assert!(
            ok.contains(r#"{"node":0,"outcome":"win","depth":1,"best_move":1}"#),
            "{ok}"
        );
        // The CLI prints the same JSON for the same graph (issue 12: one vocabulary).
        let graph = "4 4\n0 1\n1 2\n2 1\n0 3\n";
        let served: serde_json::Value = serde_json::from_str(
            post(&addr, "/api/solve", graph)
                .split("\r\n\r\n")
                .nth(1)
                .unwrap(),
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("g.txt"), graph).unwrap();
        let cli = Command::new(env!("CARGO_BIN_EXE_zermelo"))
            .args(["solve", "--format", "json"])
            .arg(dir.path().join("g.txt"))
            .output()
            .unwrap();
        let printed: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
        assert_eq!(printed, served);
        let big = post(&addr, "/api/solve", "11 0\n");
        assert!(big.starts_with("HTTP/1.1 413"), "{big}");
        assert!(big.contains("--max-nodes"));
        stop_with(child, signal);
    }
}

#[test]
fn tables_must_be_a_directory() {
    let out = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["serve", "--bind", "127.0.0.1:0", "--tables", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nowhere: not a directory"));
}

fn get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[cfg(unix)]
#[test]
fn serves_chess_tables() {
    let dir = tempfile::tempdir().unwrap();
    let gen = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["tb", "gen", "KQvK", "-q", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(gen.status.success(), "{gen:?}");
    let (child, addr) = start(&["--tables", dir.path().to_str().unwrap()]);
    // KQvK, white mates in one with Qe7#.
    let fen = "4k3/8/4K3/4Q3/8/8/8/8%20w%20-%20-%200%201";
    let probe = get(&addr, &format!("/api/tb?fen={fen}"));
    assert!(probe.starts_with("HTTP/1.1 200"), "{probe}");
    let body: serde_json::Value =
        serde_json::from_str(probe.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["outcome"], "win");
    assert_eq!(body["dtm_plies"], 1);
    assert_eq!(body["dtm_moves"], 1);
    assert_eq!(body["moves"][0]["outcome"], "lose");
    assert_eq!(body["moves"][0]["dtm_plies"], 0);
    // The CLI prints the same JSON for the same FEN (issue 12: one vocabulary).
    let mut cli = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["tb", "probe", "--stdin", "--tables"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    cli.stdin
        .take()
        .unwrap()
        .write_all(b"4k3/8/4K3/4Q3/8/8/8/8 w - - 0 1\n")
        .unwrap();
    let out = cli.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed, body);
    let line = get(&addr, &format!("/api/tb/mainline?fen={fen}"));
    let line: serde_json::Value =
        serde_json::from_str(line.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(line["mainline"].as_array().unwrap().len(), 1, "{line}");
    assert_eq!(line["mainline"][0]["uci"], body["moves"][0]["uci"]);
    // lichess's shape on /standard (underscores for spaces, as lichess allows).
    let std = get(&addr, "/standard?fen=4k3/8/4K3/4Q3/8/8/8/8_w_-_-_0_1");
    assert!(std.starts_with("HTTP/1.1 200"), "{std}");
    let std: serde_json::Value =
        serde_json::from_str(std.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(std["category"], "win", "{std}");
    assert_eq!(std["dtz"], 1);
    assert_eq!(std["precise_dtz"], 1);
    assert_eq!(std["dtm"], 1);
    for key in [
        "checkmate",
        "stalemate",
        "insufficient_material",
        "variant_win",
        "variant_loss",
    ] {
        assert_eq!(std[key], false, "{key}");
    }
    let first = &std["moves"][0];
    assert_eq!(first["category"], "loss", "{first}");
    assert_eq!(first["checkmate"], true);
    assert_eq!(first["dtz"], -1);
    // lichess keeps a `dtm` of 0 for draws: a mated position's is null.
    assert_eq!(first["dtm"], serde_json::Value::Null);
    assert_eq!(first["zeroing"], false);
    assert!(first["san"].as_str().unwrap().ends_with('#'), "{first}");
    for key in [
        "uci",
        "san",
        "zeroing",
        "conversion",
        "category",
        "dtz",
        "precise_dtz",
        "dtm",
        "checkmate",
        "stalemate",
        "insufficient_material",
    ] {
        assert!(first.get(key).is_some(), "{key}: {first}");
    }
    // The halfmove clock counts: a mate in one a ply past the rule is a cursed win.
    let cursed = get(&addr, "/standard?fen=4k3/8/4K3/4Q3/8/8/8/8_w_-_-_100_80");
    let cursed: serde_json::Value =
        serde_json::from_str(cursed.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(cursed["category"], "cursed-win", "{cursed}");
    // ... and the mate, delivered when a draw could have been claimed, a blessed loss for
    // the mated side (lichess's convention: the move's class agrees with the position's).
    assert_eq!(cursed["moves"][0]["checkmate"], true, "{cursed}");
    assert_eq!(cursed["moves"][0]["category"], "blessed-loss", "{cursed}");
    let late_mate = json_body(
        &get(&addr, "/standard?fen=4k3/4Q3/4K3/8/8/8/8/8_b_-_-_101_80"),
        200,
    );
    assert_eq!(late_mate["checkmate"], true, "{late_mate}");
    assert_eq!(late_mate["category"], "blessed-loss", "{late_mate}");
    let in_time = json_body(
        &get(&addr, "/standard?fen=4k3/4Q3/4K3/8/8/8/8/8_b_-_-_100_80"),
        200,
    );
    assert_eq!(in_time["category"], "loss", "{in_time}");
    // What a lichess client sends along is ignored, and any origin may read the answer.
    let extra = get(
        &addr,
        "/standard?fen=4k3/8/4K3/4Q3/8/8/8/8_w_-_-_0_1&dtc=auxiliary&_=17",
    );
    assert!(extra.starts_with("HTTP/1.1 200"), "{extra}");
    assert!(
        extra
            .to_ascii_lowercase()
            .contains("access-control-allow-origin: *"),
        "{extra}"
    );
    // Bad input is a 400 naming what is wrong: a clock that is not a number, above 150 or
    // after a double push; castling rights; more pieces than any table has (Syzygy's: 7).
    for (fen, expect) in [
        ("4k3/8/4K3/4Q3/8/8/8/8_w_-_-_x_1", "halfmove clock"),
        ("4k3/8/4K3/4Q3/8/8/8/8_w_-_-_151_90", "halfmove clock 151"),
        ("4k3/8/8/3pP3/8/8/8/4K3_w_-_d6_5_40", "en passant"),
        ("r3k3/8/8/8/8/8/8/4K3_b_q_-_0_1", "castling"),
        ("4k3/8/8/8/8/8/8/QRRBNNK1_w_-_-_0_1", "8 pieces"),
    ] {
        let answer = get(&addr, &format!("/standard?fen={fen}"));
        assert!(answer.starts_with("HTTP/1.1 400"), "{fen}: {answer}");
        assert!(answer.contains(expect), "{fen}: {answer}");
    }
    let no_table = get(&addr, "/standard?fen=4k3/8/8/8/8/8/8/RR2K3_w_-_-_0_1");
    assert!(no_table.starts_with("HTTP/1.1 404"), "{no_table}");
    // 6 or 7 pieces: a table that could be there (Syzygy's), named, not a bad request.
    let six = get(&addr, "/standard?fen=4k3/8/8/8/8/8/8/QRRBK3_w_-_-_0_1");
    assert!(six.starts_with("HTTP/1.1 404"), "{six}");
    assert!(six.contains("KQRRBvK.rtbw"), "{six}");
    let bad = get(&addr, "/api/tb?fen=nonsense");
    assert!(bad.starts_with("HTTP/1.1 400"), "{bad}");
    let missing = get(
        &addr,
        "/api/tb?fen=4k3/8/8/8/8/8/8/RR2K3%20w%20-%20-%200%201",
    );
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    stop_with(child, "-TERM");
}

/// The JSON body of an HTTP answer that must be `status`.
fn json_body(answer: &str, status: u16) -> serde_json::Value {
    assert!(
        answer.starts_with(&format!("HTTP/1.1 {status}")),
        "expected {status}: {answer}"
    );
    serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap()
}

/// `GET /standard/mainline` in lichess's shape: `dtz`, `precise_dtz`, `mainline` steps of
/// `{uci, san, dtz, precise_dtz}` that follow `/standard`'s best move, `winner`; the line ends
/// at mate or where the clock lets a draw be claimed, and is empty for a draw.
#[cfg(unix)]
#[test]
fn serves_lichess_mainline() {
    let dir = tempfile::tempdir().unwrap();
    let gen = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["tb", "gen", "KRvK", "-q", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(gen.status.success(), "{gen:?}");
    let (child, addr) = start(&["--tables", dir.path().to_str().unwrap()]);
    // KRvK has no zeroing move short of mate, so the line is the DTZ in plies long, its DTZ
    // counting down with alternating signs, and it ends in mate by white.
    let fen = "8/8/8/8/8/8/1k6/2R4K_w_-_-_0_1";
    let line = json_body(&get(&addr, &format!("/standard/mainline?fen={fen}")), 200);
    let dtz = line["dtz"].as_i64().unwrap();
    assert!(dtz > 10, "{line}");
    assert_eq!(line["precise_dtz"], dtz);
    assert_eq!(line["winner"], "w", "{line}");
    let steps = line["mainline"].as_array().unwrap();
    assert_eq!(steps.len() as i64, dtz, "{line}");
    for (i, step) in steps.iter().enumerate() {
        let left = dtz - 1 - i as i64;
        let signed = if i % 2 == 0 { -left } else { left };
        // The last move mates: Syzygy gives the mated side -1.
        let expect = if left == 0 { -1 } else { signed };
        assert_eq!(step["dtz"], expect, "step {i}: {step}");
        assert_eq!(step["precise_dtz"], expect, "step {i}: {step}");
        for key in ["uci", "san"] {
            assert!(step[key].is_string(), "{key}: {step}");
        }
    }
    assert!(steps.last().unwrap()["san"]
        .as_str()
        .unwrap()
        .ends_with('#'));
    // The first step is /standard's best move.
    let std = json_body(&get(&addr, &format!("/standard?fen={fen}")), 200);
    assert_eq!(steps[0]["uci"], std["moves"][0]["uci"]);
    assert_eq!(steps[0]["san"], std["moves"][0]["san"]);
    assert_eq!(line["dtz"], std["dtz"]);
    // With 90 plies on the clock, the line stops when the clock reaches 100: no winner.
    let late = json_body(
        &get(
            &addr,
            "/standard/mainline?fen=8/8/8/8/8/8/1k6/2R4K_w_-_-_90_60",
        ),
        200,
    );
    assert_eq!(late["dtz"], dtz);
    assert_eq!(late["mainline"].as_array().unwrap().len(), 10, "{late}");
    assert_eq!(late["winner"], serde_json::Value::Null);
    // A draw (black takes the rook): an empty line.
    let draw = json_body(
        &get(
            &addr,
            "/standard/mainline?fen=8/8/8/8/8/8/1k6/2R4K_b_-_-_0_1",
        ),
        200,
    );
    assert_eq!(draw["dtz"], 0);
    assert_eq!(draw["mainline"], serde_json::json!([]));
    assert_eq!(draw["winner"], serde_json::Value::Null);
    // Black to move mated at once: nothing to play, white won.
    let mated = json_body(
        &get(&addr, "/standard/mainline?fen=k6R/8/K7/8/8/8/8/8_b_-_-_0_1"),
        200,
    );
    assert_eq!(mated["dtz"], -1);
    assert_eq!(mated["mainline"], serde_json::json!([]));
    assert_eq!(mated["winner"], "w");
    // Bad input as on /standard: 400 for a bad FEN, 404 for a missing table.
    let bad = get(
        &addr,
        "/standard/mainline?fen=8/8/8/8/8/8/1k6/2R4K_w_-_-_x_1",
    );
    assert!(bad.starts_with("HTTP/1.1 400"), "{bad}");
    assert!(bad.contains("halfmove clock"), "{bad}");
    let missing = get(
        &addr,
        "/standard/mainline?fen=4k3/8/8/8/8/8/8/RR2K3_w_-_-_0_1",
    );
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    let no_fen = get(&addr, "/standard/mainline");
    assert!(no_fen.starts_with("HTTP/1.1 400"), "{no_fen}");
    stop_with(child, "-TERM");
}

/// The values page and `GET /api/cgt/thermograph`: the same mean, temperature and walls as
/// `zermelo cgt thermograph --format json`, with the picture; malformed notation is 400.
#[cfg(unix)]
#[test]
fn serves_thermographs() {
    let (child, addr) = start(&[]);
    let page = get(&addr, "/values");
    assert!(
        page.starts_with("HTTP/1.1 200") && page.contains("/values.js"),
        "{page}"
    );
    let v = json_body(
        &get(&addr, "/api/cgt/thermograph?value=%7B2%7C%7C1%7C0%7D"),
        200,
    );
    assert_eq!(
        (v["value"].as_str(), v["mean"].as_str()),
        (Some("{2||1|0}"), Some("5/4"))
    );
    assert_eq!(v["temperature"], "3/4");
    assert_eq!(
        v["left_wall"],
        serde_json::json!([["-1", "3"], ["3/4", "5/4"]])
    );
    assert!(v["svg"].as_str().unwrap().starts_with("<svg "));
    let e = json_body(&get(&addr, "/api/cgt/thermograph?value=%7B1"), 400);
    assert!(e["error"].as_str().unwrap().contains("column 3"), "{e}");
    stop_with(child, "-TERM");
}

/// `zermelo serve` over Syzygy's published 3-piece files (`examples/syzygy`) and zermelo's
/// tables together: `/standard` in lichess's shape with `precise_dtz` null where a Syzygy DTZ is
/// rounded and `dtm` null where zermelo has no table; a damaged Syzygy file fails only the
/// requests that need it, with a JSON error naming it, and the server goes on serving.
#[cfg(unix)]
#[test]
fn serves_syzygy_files_and_survives_a_damaged_one() {
    let syzygy = tempfile::tempdir().unwrap();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/syzygy");
    for m in ["KRvK", "KQvK", "KPvK", "KBvK", "KNvK"] {
        for ext in ["rtbw", "rtbz"] {
            let name = format!("{m}.{ext}");
            std::fs::copy(examples.join(&name), syzygy.path().join(&name)).unwrap();
        }
    }
    let zermelo = tempfile::tempdir().unwrap();
    let gen = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["tb", "gen", "KQvK", "-q", "--tables"])
        .arg(zermelo.path())
        .output()
        .unwrap();
    assert!(gen.status.success(), "{gen:?}");
    let tables = format!("{}:{}", zermelo.path().display(), syzygy.path().display());
    let (child, addr) = start(&["--tables", &tables]);
    // KRvK from Syzygy's files: DTZ 27 stored in moves (rounded), no DTM.
    let krk = json_body(
        &get(&addr, "/standard?fen=8/8/8/8/8/2k5/8/K6R_w_-_-_0_1"),
        200,
    );
    assert_eq!(krk["category"], "win", "{krk}");
    assert_eq!(krk["dtz"], 27, "{krk}");
    assert!(krk["precise_dtz"].is_null(), "{krk}");
    assert!(krk["dtm"].is_null(), "{krk}");
    assert_eq!(krk["moves"][0]["uci"], "h1d1", "{krk}");
    // At a clock of 73 the rounded 27 may be 28: lichess's maybe-win.
    let late = json_body(
        &get(&addr, "/standard?fen=8/8/8/8/8/2k5/8/K6R_w_-_-_73_1"),
        200,
    );
    assert_eq!(late["category"], "maybe-win", "{late}");
    // KQvK from zermelo's tables (first in the list): exact DTZ and DTM.
    let kqk = json_body(
        &get(&addr, "/standard?fen=4k3/8/4K3/4Q3/8/8/8/8_w_-_-_0_1"),
        200,
    );
    assert_eq!(kqk["dtz"], 1, "{kqk}");
    assert_eq!(kqk["precise_dtz"], 1, "{kqk}");
    assert_eq!(kqk["dtm"], 1, "{kqk}");
    let line = json_body(
        &get(
            &addr,
            "/standard/mainline?fen=8/8/8/8/8/2k5/8/K6R_w_-_-_0_1",
        ),
        200,
    );
    assert_eq!(line["winner"], "w", "{line}");
    // Damage KRvK's DTZ file: those requests fail, naming it; the rest are served.
    let path = syzygy.path().join("KRvK.rtbz");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[..4].copy_from_slice(&[1, 2, 3, 4]);
    // A new file renamed over the old (the mapped one is left intact): the server has KRvK's
    // open already, so the damaged file is seen by a fresh server.
    std::fs::write(syzygy.path().join("new"), &bytes).unwrap();
    std::fs::rename(syzygy.path().join("new"), &path).unwrap();
    stop_with(child, "-TERM");
    let (child, addr) = start(&["--tables", &tables]);
    for path in [
        "/standard?fen=8/8/8/8/8/2k5/8/K6R_w_-_-_0_1",
        "/standard/mainline?fen=8/8/8/8/8/2k5/8/K6R_w_-_-_0_1",
        "/api/tb?fen=8/8/8/8/8/2k5/8/K6R%20w%20-%20-%200%201",
    ] {
        let answer = get(&addr, path);
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {answer}");
        let body = json_body(&answer, 404);
        let error = body["error"].as_str().unwrap();
        assert!(
            error.contains("KRvK.rtbz") && error.contains("bad magic"),
            "{error}"
        );
    }
    let kpk = json_body(
        &get(&addr, "/standard?fen=8/8/8/8/8/2k5/4P3/K7_w_-_-_0_1"),
        200,
    );
    assert!(kpk["category"].is_string(), "{kpk}");
    stop_with(child, "-TERM");
}

/// A 6-piece table (KQQQQvK, 515 million indices, made with the 3-5-piece tables it needs)
/// through every reader: `tb stats` (Syzygy's published longest DTZ: 5 plies with white to
/// move, 6 with black; white never fails to win), `tb probe`, `tb line` and the server's
/// `/standard` and `/api/tb` (one answer, as for 5 pieces), and `tb verify`'s certificate
/// rules. The tables are left in `target/tmp/six-piece` for the Python test of a 6-piece table
/// (crates/zermelo-py/tests/test_chess_six.py, which scripts/python-tests.sh points there).
#[cfg(unix)]
#[test]
fn six_piece_tables_are_probed_counted_and_served() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("six-piece");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.to_str().unwrap();
    let zermelo = || Command::new(env!("CARGO_BIN_EXE_zermelo"));
    let gen = zermelo()
        .args(["-q", "tb", "gen", "KQQQQvK", "--tables", t])
        .output()
        .unwrap();
    assert!(gen.status.success(), "{gen:?}");
    let stats = zermelo()
        .args(["tb", "stats", "KQQQQvK", "--format", "json", "--tables", t])
        .output()
        .unwrap();
    assert!(stats.status.success(), "{stats:?}");
    let stats: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(stats["material"], "KQQQQvK");
    for key in ["cursed_win", "draw", "blessed_loss", "lose"] {
        assert_eq!(stats["white"][key], 0, "white {key}: {stats}");
    }
    // zermelo's own counts (queens as one combination; counted as Syzygy counts, they are
    // its published 1,013,793,816 wins and 294,008,532 draws: docs/benchmarks/chess.md).
    assert_eq!(stats["white"]["win"], 42_243_681, "{stats}");
    assert_eq!(stats["black"]["draw"], 12_251_123, "{stats}");
    assert_eq!(stats["black"]["lose"], 239_624_431, "{stats}");
    assert_eq!(stats["white"]["longest_dtz_win"], 5, "{stats}");
    assert_eq!(stats["black"]["longest_dtz_loss"], 6, "{stats}");
    // White to move: four queens against a cornered king.
    let fen = "3k4/8/8/8/8/8/8/1QQ1QQK1 w - - 0 1";
    let probe = zermelo()
        .args(["tb", "probe", fen, "--tables", t])
        .output()
        .unwrap();
    assert!(probe.status.success(), "{probe:?}");
    let text = String::from_utf8_lossy(&probe.stdout);
    assert!(text.contains("outcome   win"), "{text}");
    let line = zermelo()
        .args(["tb", "line", fen, "--tables", t])
        .output()
        .unwrap();
    assert!(line.status.success(), "{line:?}");
    assert!(
        String::from_utf8_lossy(&line.stdout).contains("checkmate"),
        "{line:?}"
    );
    let (child, addr) = start(&["--tables", t]);
    let std = get(&addr, &format!("/standard?fen={}", fen.replace(' ', "_")));
    assert!(std.starts_with("HTTP/1.1 200"), "{std}");
    let std: serde_json::Value =
        serde_json::from_str(std.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(std["category"], "win", "{std}");
    assert!(std["dtm"].as_u64().unwrap() >= 1, "{std}");
    assert!(!std["moves"].as_array().unwrap().is_empty(), "{std}");
    let api = get(&addr, &format!("/api/tb?fen={}", fen.replace(' ', "%20")));
    assert!(api.starts_with("HTTP/1.1 200"), "{api}");
    let api: serde_json::Value =
        serde_json::from_str(api.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(api["outcome"], "win", "{api}");
    stop_with(child, "-TERM");
    // Every table in the directory (the 6-piece one and the 3-5-piece ones it captures into)
    // against the certificate rules, on 100,000 indices drawn across each (every index of
    // the 6-piece table takes CPU-minutes: docs/benchmarks/chess.md).
    let verify = zermelo()
        .args(["-q", "tb", "verify", t, "--sample", "100000", "--tables", t])
        .output()
        .unwrap();
    assert!(verify.status.success(), "{verify:?}");
    let text = String::from_utf8_lossy(&verify.stdout);
    for table in ["KQQQQvK", "KQQQQvK DTZ"] {
        let line = format!("{table}: ok (100000 of 515448780 indices checked)");
        assert!(text.contains(&line), "{text}");
    }
    assert!(text.contains("KQvK: ok\n"), "{text}");
    assert!(text.contains("4 tables verified"), "{text}");
}
