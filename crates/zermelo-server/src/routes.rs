//! The router: every route, its handler, and the JSON fallbacks for 404 and 405.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::error::ApiError;
use crate::solve::{solve_request, SolveOptions, SolveResponse};
use crate::tablebase::{self, Tablebase, TablebaseError};
use crate::values::ValuesError;
use crate::{assets, AppState};

/// The message of every `/api/tb` endpoint when no tables are served.
pub const NO_TABLES: &str = "no tablebases are served (start with --tables DIR)";

/// The whole application: API, assets, fallbacks, body limit.
pub fn router(state: AppState) -> Router {
    let max_body = state.limits.max_body;
    let mut app = Router::new()
        .route(
            "/api/health",
            get(|| async { Json(serde_json::json!({"status": "ok"})) }),
        )
        .route("/api/solve", post(solve))
        .route("/api/tb", get(tb_probe))
        .route("/api/tb/batch", post(tb_batch))
        .route("/api/tb/mainline", get(tb_mainline))
        .route("/standard", get(tb_standard))
        .route("/standard/mainline", get(tb_standard_mainline))
        .route("/api/cgt/thermograph", get(cgt_thermograph));
    for path in assets::paths() {
        app = app.route(path, get(asset));
    }
    app.fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(receive_body))
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            refuse_long_bodies,
        ))
        .with_state(state)
}

/// Refuses a body announced longer than `--max-body` from its `Content-Length` header, before
/// reading any of it.
async fn refuse_long_bodies(
    State(state): State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(len) if len > state.limits.max_body as u64 => ApiError::too_large(format!(
            "request body of {len} bytes is over the limit of {} (--max-body; send a smaller \
             body)",
            state.limits.max_body
        ))
        .into_response(),
        _ => next.run(request).await,
    }
}

/// Receives the whole body (within `--max-body`) before the handler runs, then stops the
/// connection's request deadline ([`Phase::received`](crate::conn::Phase::received)): a client
/// that trickles its request in is cut off, computing the answer is not.
async fn receive_body(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    use axum::extract::{ConnectInfo, FromRequest};
    let Some(ConnectInfo(phase)) = request
        .extensions()
        .get::<ConnectInfo<crate::conn::Phase>>()
        .cloned()
    else {
        // Served without a connection of ours (tests calling the router directly).
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    let head = parts.clone();
    let bytes =
        match Bytes::from_request(axum::extract::Request::from_parts(parts, body), &()).await {
            Ok(bytes) => bytes,
            Err(rejection) => return ApiError::from(rejection).into_response(),
        };
    phase.received();
    next.run(axum::extract::Request::from_parts(head, bytes.into()))
        .await
}

async fn asset(uri: Uri) -> Response {
    assets::get(uri.path()).unwrap_or_else(|| not_found_for(uri.path()))
}

async fn not_found(uri: Uri) -> Response {
    not_found_for(uri.path())
}

fn not_found_for(path: &str) -> Response {
    ApiError::not_found(format!("no route {path}")).into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed on this route",
    )
    .into_response()
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|e| ApiError::bad_request(format!("bad query string: {}", e.body_text())))
}

async fn solve(
    State(state): State<AppState>,
    options: Result<Query<SolveOptions>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<SolveResponse>, ApiError> {
    let options = query(options)?;
    let body = body?;
    let limits = state.limits;
    // Solving is CPU-bound: keep it off the async workers.
    tokio::task::spawn_blocking(move || solve_request(&body, options, &limits))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FenQuery {
    fen: String,
}

/// The query of lichess's routes: `fen`, and whatever else a lichess client sends along
/// (lichess's `dtc`, a cache-buster), ignored as lichess ignores it.
#[derive(Deserialize)]
struct LichessQuery {
    fen: String,
}

/// A lichess answer: JSON, readable from any origin (a browser client of lichess's public
/// tablebase calls it from its own site; the answers are public, read-only data).
fn lichess_json(answer: serde_json::Value) -> Response {
    let mut response = Json(answer).into_response();
    response.headers_mut().insert(
        axum::http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
        axum::http::HeaderValue::from_static("*"),
    );
    response
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Batch {
    fens: Vec<String>,
}

fn tables(state: &AppState) -> Result<&dyn Tablebase, ApiError> {
    state
        .tables
        .as_deref()
        .ok_or_else(|| ApiError::not_found(NO_TABLES))
}

fn tb_error(e: TablebaseError) -> ApiError {
    match e {
        TablebaseError::BadFen(_) | TablebaseError::Unsupported(_) => {
            ApiError::bad_request(e.to_string())
        }
        TablebaseError::NoTable(_) => ApiError::not_found(e.to_string()),
    }
}

async fn tb_probe(
    State(state): State<AppState>,
    q: Result<Query<FenQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let tb = tables(&state)?;
    let fen = query(q)?.fen;
    let probe = tb.probe(&fen).map_err(tb_error)?;
    Ok(Json(probe).into_response())
}

/// lichess's tablebase API (`GET /standard?fen=...`, underscores allowed for spaces).
async fn tb_standard(
    State(state): State<AppState>,
    q: Result<Query<LichessQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let tb = tables(&state)?;
    let fen = query(q)?.fen.replace('_', " ");
    let answer = tb.standard(&fen).map_err(tb_error)?;
    Ok(lichess_json(answer))
}

/// lichess's main line (`GET /standard/mainline?fen=...`, underscores allowed for spaces).
async fn tb_standard_mainline(
    State(state): State<AppState>,
    q: Result<Query<LichessQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let tb = state
        .tables
        .clone()
        .ok_or_else(|| ApiError::not_found(NO_TABLES))?;
    let fen = query(q)?.fen.replace('_', " ");
    // A line is hundreds of probes: on the blocking pool, not on the async workers.
    let answer = tokio::task::spawn_blocking(move || tb.standard_mainline(&fen))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(tb_error)?;
    Ok(lichess_json(answer))
}

async fn tb_mainline(
    State(state): State<AppState>,
    q: Result<Query<FenQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let tb = tables(&state)?;
    let fen = query(q)?.fen;
    let line = tablebase::mainline(tb, &fen).map_err(tb_error)?;
    Ok(Json(serde_json::json!({ "fen": fen, "mainline": line })).into_response())
}

/// Each FEN is answered in place: a probe, or `{"fen", "error"}` for that one FEN. Probing is
/// blocking work (table reads): it runs on the blocking pool, not on the async workers.
async fn tb_batch(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let tb = state
        .tables
        .clone()
        .ok_or_else(|| ApiError::not_found(NO_TABLES))?;
    // Any content type: curl's default form type must not turn a good request into a 400.
    let batch: Batch = serde_json::from_slice(&body?)
        .map_err(|e| ApiError::bad_request(format!("expected {{\"fens\": [...]}}: {e}")))?;
    if batch.fens.len() > state.limits.max_batch {
        return Err(ApiError::too_large(format!(
            "{} FENs in one batch; this server accepts at most {}",
            batch.fens.len(),
            state.limits.max_batch
        )));
    }
    let answers = tokio::task::spawn_blocking(move || {
        batch
            .fens
            .iter()
            .map(|fen| match tb.probe(fen) {
                Ok(p) => serde_json::to_value(p).unwrap_or_default(),
                Err(e) => serde_json::json!({ "fen": fen, "error": e.to_string() }),
            })
            .collect::<Vec<serde_json::Value>>()
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(Json(serde_json::json!({ "results": answers })).into_response())
}

#[derive(Deserialize)]
struct ValueQuery {
    value: String,
}

/// The thermograph of a value typed in (`GET /api/cgt/thermograph?value=...`), computed on the
/// blocking pool (a value may take up to its work limit).
async fn cgt_thermograph(
    State(state): State<AppState>,
    q: Result<Query<ValueQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let values = state
        .values
        .clone()
        .ok_or_else(|| ApiError::not_found("no game values are served"))?;
    let value = query(q)?.value;
    let answer = tokio::task::spawn_blocking(move || values.thermograph(&value))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(|ValuesError::BadValue(m)| ApiError::bad_request(m))?;
    Ok(Json(answer).into_response())
}
