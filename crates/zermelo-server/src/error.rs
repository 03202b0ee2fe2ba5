//! The one error type of every handler: a status and a message, rendered as `{"error": ...}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An HTTP error answered as JSON `{"error": message}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// 400, 404, 405, 413, ...
    pub status: StatusCode,
    /// What went wrong, for a person.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: nothing is served here.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 413: the request is over a limit.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    /// Any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

/// The one place where the kind of an input error picks the HTTP status.
impl From<zermelo::io::ParseError> for ApiError {
    fn from(e: zermelo::io::ParseError) -> ApiError {
        use zermelo::io::ErrorKind;
        let status = match e.kind() {
            ErrorKind::TooBig => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::Io => StatusCode::INTERNAL_SERVER_ERROR,
            // Syntax, out of range, truncated, corrupt, and kinds added later.
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<axum::extract::rejection::BytesRejection> for ApiError {
    fn from(r: axum::extract::rejection::BytesRejection) -> ApiError {
        let status = r.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError::too_large(
                "request body too large (over --max-body; send a smaller body)",
            );
        }
        ApiError::new(status, r.body_text())
    }
}
