//! Every endpoint and every error case of the HTTP API, through the router in memory
//! (`tower::ServiceExt::oneshot`), plus graceful shutdown on a real port.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use zermelo_server::{
    router, AppState, Limits, MoveProbe, PositionProbe, Tablebase, TablebaseError, Values,
    ValuesError,
};

const SEED_CASES: &str = include_str!("../../zermelo/tests/data/seed-examples.json");

async fn call(
    state: AppState,
    method: Method,
    uri: &str,
    body: impl Into<Body>,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .body(body.into())
        .unwrap();
    let res = router(state).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| json!({ "raw": String::from_utf8_lossy(&bytes) }));
    (status, value)
}

fn plain() -> AppState {
    AppState::new(Limits::default(), None)
}

async fn post_solve(uri: &str, body: &str) -> (StatusCode, Value) {
    call(plain(), Method::POST, uri, body.to_string()).await
}

fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field in {v}"))
}

#[tokio::test]
async fn solve_matches_every_seed_case() {
    let cases: Value = serde_json::from_str(SEED_CASES).unwrap();
    for case in cases["cases"].as_array().unwrap() {
        let graph = json!({
            "nodes": case["nodes"], "edges": case["edges"], "misere": case["terminal"] == "WIN",
        });
        let (status, v) = post_solve("/api/solve", &graph.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{}", case["name"]);
        let labels: Vec<String> = v["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["outcome"].as_str().unwrap().to_uppercase())
            .collect();
        let depths: Vec<Value> = v["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["depth"].clone())
            .collect();
        assert_eq!(json!(labels), case["labels"], "{}", case["name"]);
        assert_eq!(json!(depths), case["dist"], "{}", case["name"]);
        assert!(v.get("trace").is_none());
    }
}

#[tokio::test]
async fn forced_chain_trace_is_the_backward_wave_in_order() {
    let (status, v) = post_solve(
        "/api/solve?trace=true",
        r#"{"nodes":4,"edges":[[0,1],[1,2],[2,3]]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        v["trace"],
        json!([
            {"event": "seed", "node": 3, "outcome": "lose"},
            {"event": "pop", "node": 3},
            {"event": "win", "node": 2, "child": 3, "depth": 1},
            {"event": "pop", "node": 2},
            {"event": "lose_at_zero", "node": 1, "child": 2, "depth": 2},
            {"event": "pop", "node": 1},
            {"event": "win", "node": 0, "child": 1, "depth": 3},
            {"event": "pop", "node": 0},
        ])
    );
    assert_eq!(
        v["solution"][0],
        json!({"node": 0, "outcome": "win", "depth": 3, "best_move": 1})
    );
    assert_eq!(
        (&v["win"], &v["lose"], &v["draw"], &v["max_depth"]),
        (&json!(2), &json!(2), &json!(0), &json!(3))
    );
}

#[tokio::test]
async fn cycle_plus_terminal_trace_has_decrements_and_draws() {
    let body = r#"{"nodes":5,"edges":[[0,1],[0,2],[1,3],[2,1],[2,4],[4,2]]}"#;
    let (_, v) = post_solve("/api/solve?trace=true", body).await;
    let kinds: Vec<&str> = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "seed",
            "pop",
            "win",
            "pop",
            "decrement",
            "decrement",
            "draw",
            "draw",
            "draw"
        ]
    );
    assert_eq!(
        v["trace"][4],
        json!({"event": "decrement", "node": 0, "child": 1, "remaining": 1})
    );
}

#[tokio::test]
async fn trace_matches_the_library_solver() {
    // The same code path: the events are exactly those of `solve_observed`.
    use zermelo::graph::{Csr, Rules};
    let edges = [(0, 1), (1, 0), (0, 2), (2, 3), (3, 2), (3, 4)];
    let g = Csr::from_edges(5, edges).unwrap();
    let mut events: Vec<zermelo::solve::Event> = Vec::new();
    zermelo::solve::solve_observed(&g, &Rules::normal(), &mut events);
    let body = json!({"nodes": 5, "edges": edges}).to_string();
    let (_, v) = post_solve("/api/solve?trace=true", &body).await;
    let expected: Vec<Value> = events
        .into_iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(v["trace"], json!(expected));
}

#[tokio::test]
async fn edge_list_body_and_misere_query() {
    let (status, v) = post_solve("/api/solve", "# chain\n3 2\n0 1\n1 2\n").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["solution"][0]["outcome"], "lose");
    let (_, v) = post_solve("/api/solve?misere=true", "3 2\n0 1\n1 2\n").await;
    assert_eq!(v["solution"][0]["outcome"], "win");
    let (_, v) = post_solve(
        "/api/solve",
        r#"{"nodes":2,"edges":[[0,1]],"verdicts":[[1,"draw"]]}"#,
    )
    .await;
    assert_eq!(v["solution"][0]["outcome"], "draw");
}

#[tokio::test]
async fn malformed_input_is_400_with_a_message() {
    let cases = [
        (
            "{\"nodes\": 2, \"edges\": [[0,1]",
            "request body:1: invalid JSON",
        ),
        (r#"{"nodes": 2}"#, "missing field `edges`"),
        (
            r#"{"nodes": 2, "edges": [], "mesere": true}"#,
            "unknown field `mesere`",
        ),
        (
            r#"{"nodes": 2, "edges": [[0, 5]]}"#,
            "edges[0] = [0, 5]: node 5 is out of range",
        ),
        (
            r#"{"nodes": 2, "edges": [], "verdicts": [[0, "tie"]]}"#,
            "verdicts[0]: expected win, lose or draw",
        ),
        ("3 2\n0 1\n1 x\n", "request body:3: expected an edge `u v`"),
        ("3 2\n0 1\n1 7\n", "request body:3:"),
        ("3 5\n0 1\n", "request body:"),
        ("", "request body:"),
        ("hello", "request body:1:"),
    ];
    for (body, want) in cases {
        let (status, v) = post_solve("/api/solve", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body:?}: {v}");
        assert!(error_of(&v).contains(want), "{body:?}: {v}");
    }
    let (status, v) = post_solve("/api/solve?trace=maybe", "1 0\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).starts_with("bad query string"));
    let (status, _) = post_solve("/api/solve?bogus=1", "1 0\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn unknown_route_and_wrong_method() {
    let (status, v) = call(plain(), Method::GET, "/api/nope", Body::empty()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_of(&v), "no route /api/nope");
    let (status, v) = call(plain(), Method::GET, "/api/solve", Body::empty()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(error_of(&v).contains("method not allowed"));
    let (status, _) = call(plain(), Method::DELETE, "/", Body::empty()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

fn small_limits() -> AppState {
    AppState::new(
        Limits {
            max_nodes: 10,
            max_edges: 20,
            max_body: 1000,
            max_trace_events: 15,
            max_batch: 2,
        },
        None,
    )
}

#[tokio::test]
async fn over_the_limits_is_413() {
    let cases = [
        (
            "/api/solve",
            r#"{"nodes": 11, "edges": []}"#.to_string(),
            "11 nodes; this server accepts at most 10 (--max-nodes)",
        ),
        ("/api/solve", "11 0\n".to_string(), "--max-nodes"),
        (
            "/api/solve",
            "2 21\n".to_string(),
            "21 edges; this server accepts at most 20 (--max-edges)",
        ),
        (
            "/api/solve",
            json!({"nodes": 2, "edges": vec![[0, 1]; 21]}).to_string(),
            "--max-edges",
        ),
        (
            "/api/solve",
            format!("1 0\n{}", "#".repeat(2000)),
            "request body too large",
        ),
        (
            "/api/solve?trace=true",
            json!({"nodes": 10, "edges": (0..9).map(|i| [i, i + 1]).collect::<Vec<_>>()})
                .to_string(),
            "the trace has more than 15 events",
        ),
    ];
    for (uri, body, want) in cases {
        let (status, v) = call(small_limits(), Method::POST, uri, body).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{want}: {v}");
        assert!(error_of(&v).contains(want), "{want}: {v}");
    }
    // The same graph without the trace is fine.
    let body =
        json!({"nodes": 10, "edges": (0..9).map(|i| [i, i + 1]).collect::<Vec<_>>()}).to_string();
    let (status, _) = call(small_limits(), Method::POST, "/api/solve", body).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn tablebase_endpoints_without_tables_are_404() {
    for (method, uri, body) in [
        (Method::GET, "/api/tb?fen=8/8/8/8/8/8/8/8%20w%20-%20-", ""),
        (Method::GET, "/api/tb/mainline?fen=x", ""),
        (Method::POST, "/api/tb/batch", r#"{"fens": ["x"]}"#),
    ] {
        let (status, v) = call(plain(), method, uri, body.to_string()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(
            error_of(&v),
            "no tablebases are served (start with --tables DIR)"
        );
    }
}

/// A toy "tablebase": positions are counters `n`; from `n` one may go to `n - 1` (n > 0).
/// So `0` is lost, odd numbers won in n plies, even numbers lost in n plies.
struct Countdown;

impl Tablebase for Countdown {
    fn probe(&self, fen: &str) -> Result<PositionProbe, TablebaseError> {
        let n: u32 = fen
            .parse()
            .map_err(|_| TablebaseError::BadFen(fen.to_string()))?;
        if n > 100 {
            return Err(TablebaseError::NoTable(format!("{n} is past the table")));
        }
        let value = |k: u32| {
            if k % 2 == 1 {
                zermelo::Value::Win(k)
            } else {
                zermelo::Value::Lose(k)
            }
        };
        let moves = (n > 0)
            .then(|| MoveProbe::new(format!("{n}-{}", n - 1), (n - 1).to_string(), value(n - 1)))
            .into_iter()
            .collect();
        Ok(PositionProbe::new(n.to_string(), value(n), moves))
    }
}

fn with_tables() -> AppState {
    AppState::new(
        Limits {
            max_batch: 3,
            ..Limits::default()
        },
        Some(Arc::new(Countdown)),
    )
}

#[tokio::test]
async fn tablebase_endpoints_through_the_seam() {
    let (status, v) = call(with_tables(), Method::GET, "/api/tb?fen=3", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        v,
        json!({"fen": "3", "outcome": "win", "dtm_plies": 3, "dtm_moves": 2, "moves": [{"uci": "3-2", "fen": "2", "outcome": "lose", "dtm_plies": 2, "dtm_moves": 1}]})
    );
    let (status, v) = call(
        with_tables(),
        Method::GET,
        "/api/tb/mainline?fen=3",
        Body::empty(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let ucis: Vec<&str> = v["mainline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(ucis, ["3-2", "2-1", "1-0"]);
    let (status, v) = call(
        with_tables(),
        Method::POST,
        "/api/tb/batch",
        r#"{"fens": ["1", "x", "200"]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["results"][0]["outcome"], "win");
    assert_eq!(v["results"][1]["error"], "bad FEN: x");
    assert!(v["results"][2]["error"]
        .as_str()
        .unwrap()
        .starts_with("no table"));
}

#[tokio::test]
async fn tablebase_errors() {
    let cases = [
        (Method::GET, "/api/tb?fen=x", "", StatusCode::BAD_REQUEST),
        (Method::GET, "/api/tb?fen=200", "", StatusCode::NOT_FOUND),
        (Method::GET, "/api/tb", "", StatusCode::BAD_REQUEST),
        (Method::GET, "/api/tb/mainline", "", StatusCode::BAD_REQUEST),
        (
            Method::POST,
            "/api/tb/batch",
            "{\"fens\": [",
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::POST,
            "/api/tb/batch",
            r#"{"fen": "1"}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::POST,
            "/api/tb/batch",
            r#"{"fens": ["1","1","1","1"]}"#,
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (Method::POST, "/api/tb", "", StatusCode::METHOD_NOT_ALLOWED),
    ];
    for (method, uri, body, want) in cases {
        let (status, v) = call(with_tables(), method, uri, body.to_string()).await;
        assert_eq!(status, want, "{uri} {body}: {v}");
        error_of(&v);
    }
}

#[tokio::test]
async fn assets_are_embedded() {
    for (path, needle) in [
        ("/", "<svg id=\"graph\""),
        ("/tb", "id=\"board\""),
        ("/app.js", "/api/solve?trace=true"),
        ("/values", "id=\"picture\""),
        ("/values.js", "/api/cgt/thermograph?value="),
    ] {
        let req = Request::builder().uri(path).body(Body::empty()).unwrap();
        let res = router(plain()).oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        assert!(text.contains(needle), "{path}");
    }
    let (status, v) = call(plain(), Method::GET, "/api/health", Body::empty()).await;
    assert_eq!((status, v), (StatusCode::OK, json!({"status": "ok"})));
}

#[tokio::test]
async fn serves_on_a_real_port_and_keeps_answering_after_bad_requests() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (tx, rx) = tokio::sync::oneshot::channel();
    let server = tokio::spawn(zermelo_server::serve(
        "127.0.0.1:0".parse().unwrap(),
        small_limits(),
        move |a| {
            let _ = tx.send(a);
        },
    ));
    let addr = rx.await.unwrap();
    let send = |raw: String| async move {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(raw.as_bytes()).await.unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out).await;
        out
    };
    let req = |body: &str| {
        format!("POST /api/solve HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}", body.len())
    };
    assert!(send("GARBAGE\r\n\r\n".into())
        .await
        .starts_with("HTTP/1.1 400"));
    assert!(send(req("{")).await.starts_with("HTTP/1.1 400"));
    assert!(send(req(&"#".repeat(5000)))
        .await
        .starts_with("HTTP/1.1 413"));
    let ok = send(req("2 1\n0 1\n")).await;
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    assert!(ok.contains(r#""outcome":"win""#));
    server.abort();
}

// ---------------------------------------------------------------------------------------------
// Hostile requests (issue 12, part 5)
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn the_size_check_holds_wherever_the_header_is() {
    let mut body = String::new();
    while body.len() < (1 << 20) + 1000 {
        body.push_str("# a comment that pushes the header past the first mebibyte\n");
    }
    for header in ["4294967295 0\n", "1000000 0\n"] {
        let state = AppState::new(
            Limits {
                max_body: 4 << 20,
                ..Limits::default()
            },
            None,
        );
        let text = format!("{body}{header}");
        let (status, v) = call(state, Method::POST, "/api/solve", text).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{header}: {v}");
        assert!(error_of(&v).contains("--max-nodes"), "{v}");
    }
}

#[tokio::test]
async fn json_with_four_billion_nodes_is_413_not_an_abort() {
    let (status, v) = post_solve("/api/solve", r#"{"nodes": 4294967295, "edges": []}"#).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    // Truncated and out-of-range inputs are the client's fault: 400.
    let (status, _) = post_solve("/api/solve", "3 2\n0 1\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = post_solve("/api/solve", "3 1\n0 7\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// Starts a server on port 0 with `connections`; returns its address, the shutdown trigger
/// and the server task.
async fn start(
    connections: zermelo_server::Connections,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(zermelo_server::serve_until(
        "127.0.0.1:0".parse().unwrap(),
        small_limits(),
        connections,
        async move {
            let _ = stopped.await;
        },
        move |a| {
            let _ = tx.send(a);
        },
    ));
    (rx.await.unwrap(), stop, server)
}

async fn health(addr: std::net::SocketAddr) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out).await;
    out
}

/// Opens a connection and sends half a request (headers promising a body that never comes).
async fn stalled(addr: std::net::SocketAddr) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n2 1\n")
        .await
        .unwrap();
    s
}

#[tokio::test]
async fn content_length_over_max_body_is_refused_from_the_header() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (addr, stop, server) = start(zermelo_server::Connections::default()).await;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    // small_limits() allows 1000 bytes; announce a gigabyte and send none of it.
    s.write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n")
        .await
        .unwrap();
    let mut buf = vec![0u8; 4096];
    let got = tokio::time::timeout(std::time::Duration::from_secs(5), s.read(&mut buf))
        .await
        .expect("answered without waiting for the body")
        .unwrap();
    let head = String::from_utf8_lossy(&buf[..got]);
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert!(head.contains("--max-body"), "{head}");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn stalled_clients_are_cut_off_and_cannot_take_every_connection() {
    let limits = zermelo_server::Connections {
        max: 2,
        idle_timeout: std::time::Duration::from_millis(500),
        request_timeout: std::time::Duration::from_secs(10),
        shutdown_grace: std::time::Duration::from_secs(5),
    };
    let (addr, stop, server) = start(limits).await;
    let mut a = stalled(addr).await;
    let _b = stalled(addr).await;
    // Both slots are taken by stalled clients; a third client is answered once the idle
    // timeout frees a slot.
    let t = std::time::Instant::now();
    let answer = tokio::time::timeout(std::time::Duration::from_secs(10), health(addr))
        .await
        .expect("answered after the idle timeout");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    // The stalled client was disconnected (end of stream, or a reset).
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        tokio::io::AsyncReadExt::read_to_end(&mut a, &mut rest),
    )
    .await;
    assert!(closed.is_ok(), "the stalled connection is still open");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn shutdown_does_not_wait_forever_for_a_stalled_request() {
    let limits = zermelo_server::Connections {
        max: 16,
        idle_timeout: std::time::Duration::from_secs(3600),
        request_timeout: std::time::Duration::from_secs(3600),
        shutdown_grace: std::time::Duration::from_millis(300),
    };
    let (addr, stop, server) = start(limits).await;
    let _stalled = stalled(addr).await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let t = std::time::Instant::now();
    let _ = stop.send(());
    tokio::time::timeout(std::time::Duration::from_secs(10), server)
        .await
        .expect("the server stops within its grace period")
        .unwrap()
        .unwrap();
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

/// A slow-loris client: a request line, then one header line every `every`, for `lines` lines.
fn slow_sender(
    addr: std::net::SocketAddr,
    every: std::time::Duration,
    lines: usize,
) -> tokio::task::JoinHandle<()> {
    use tokio::io::AsyncWriteExt;
    tokio::spawn(async move {
        let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
            return;
        };
        if s.write_all(b"GET /api/health HTTP/1.1\r\n").await.is_err() {
            return;
        }
        for i in 0..lines {
            tokio::time::sleep(every).await;
            if s.write_all(format!("X-Slow-{i}: a\r\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
        }
    })
}

#[tokio::test]
async fn slow_senders_are_cut_off_by_the_request_deadline() {
    // Issue 22: clients sending one header line every few seconds never hit the idle timeout
    // and held every slot. Here 10 such clients against 8 slots, each line well within the
    // idle timeout; the request deadline frees the slots.
    let limits = zermelo_server::Connections {
        max: 8,
        idle_timeout: std::time::Duration::from_secs(5),
        request_timeout: std::time::Duration::from_secs(1),
        shutdown_grace: std::time::Duration::from_secs(5),
    };
    let (addr, stop, server) = start(limits).await;
    let senders: Vec<_> = (0..10)
        .map(|_| slow_sender(addr, std::time::Duration::from_millis(300), 60))
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let t = std::time::Instant::now();
    let answer = tokio::time::timeout(std::time::Duration::from_secs(8), health(addr))
        .await
        .expect("a normal request is answered while slow senders keep sending");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        t.elapsed() < std::time::Duration::from_secs(4),
        "{:?}",
        t.elapsed()
    );
    // The slow senders were disconnected: their writes fail long before their 18 s are up.
    for s in senders {
        tokio::time::timeout(std::time::Duration::from_secs(10), s)
            .await
            .expect("a slow sender is still connected")
            .unwrap();
    }
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn the_request_deadline_spares_keep_alive_pauses_between_requests() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let limits = zermelo_server::Connections {
        max: 8,
        idle_timeout: std::time::Duration::from_secs(5),
        request_timeout: std::time::Duration::from_millis(500),
        shutdown_grace: std::time::Duration::from_secs(5),
    };
    let (addr, stop, server) = start(limits).await;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    for i in 0..3 {
        if i > 0 {
            // Longer than the request deadline, shorter than the idle timeout.
            tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        }
        // A body sent in two parts within the deadline.
        let body = "3 2\n0 1\n1 2\n";
        let head = format!(
            "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        s.write_all(body.as_bytes()).await.unwrap();
        let mut buf = vec![0u8; 8192];
        let got = tokio::time::timeout(std::time::Duration::from_secs(5), s.read(&mut buf))
            .await
            .expect("answered")
            .unwrap();
        let text = String::from_utf8_lossy(&buf[..got]);
        assert!(text.starts_with("HTTP/1.1 200"), "request {i}: {text}");
    }
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

/// Values that echo the value asked for, and refuse "bad".
struct EchoValues;

impl Values for EchoValues {
    fn thermograph(&self, value: &str) -> Result<Value, ValuesError> {
        match value {
            "bad" => Err(ValuesError::BadValue("column 1: bad".into())),
            v => Ok(json!({ "value": v })),
        }
    }
}

#[tokio::test]
async fn thermographs_through_the_seam() {
    let (status, v) = call(
        plain(),
        Method::GET,
        "/api/cgt/thermograph?value=*",
        Body::empty(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_of(&v), "no game values are served");
    let state = || plain().with_values(Arc::new(EchoValues));
    let (status, v) = call(
        state(),
        Method::GET,
        "/api/cgt/thermograph?value=%7B1%7C0%7D",
        Body::empty(),
    )
    .await;
    assert_eq!((status, v), (StatusCode::OK, json!({ "value": "{1|0}" })));
    let (status, v) = call(
        state(),
        Method::GET,
        "/api/cgt/thermograph?value=bad",
        Body::empty(),
    )
    .await;
    assert_eq!(
        (status, error_of(&v)),
        (StatusCode::BAD_REQUEST, "column 1: bad")
    );
    let (status, _) = call(state(), Method::GET, "/api/cgt/thermograph", Body::empty()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
