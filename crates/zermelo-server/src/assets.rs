//! The visualiser's files, embedded at build time from `web/` (no CDN, no npm build).

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// `(path, content type, bytes)` of every embedded file.
const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../web/index.html"),
    ),
    (
        "/tb",
        "text/html; charset=utf-8",
        include_str!("../web/tb.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../web/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/app.js"),
    ),
    (
        "/presets.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/presets.js"),
    ),
    (
        "/values",
        "text/html; charset=utf-8",
        include_str!("../web/values.html"),
    ),
    (
        "/values.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/values.js"),
    ),
    (
        "/tb.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/tb.js"),
    ),
];

/// The paths of the embedded files, for the router.
pub(crate) fn paths() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|f| f.0)
}

/// The embedded file at `path`.
pub(crate) fn get(path: &str) -> Option<Response> {
    let &(_, mime, body) = FILES.iter().find(|f| f.0 == path)?;
    Some(
        (
            [
                (header::CONTENT_TYPE, mime),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
    )
}
