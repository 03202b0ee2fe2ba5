//! The seam between the server and game values: the [`Values`] trait behind
//! `GET /api/cgt/thermograph?value=...` and the values page (`/values`).
//!
//! The server knows no game theory. The `zermelo serve` command passes an implementation over
//! `zermelo-cgt` to [`AppState::with_values`](crate::AppState::with_values); without one the
//! endpoint answers 404 `{"error": "no game values are served"}`.

/// Game values the server can show.
pub trait Values: Send + Sync + 'static {
    /// The thermograph of a value written in CGSuite notation, as the JSON object of
    /// `zermelo cgt thermograph --format json` (`value`, `outcome`, `mean`, `temperature`,
    /// `left_wall`, `right_wall`) with the picture as `svg`.
    ///
    /// # Errors
    /// [`ValuesError::BadValue`] for malformed notation or a value past the work limit (400).
    fn thermograph(&self, value: &str) -> Result<serde_json::Value, ValuesError>;
}

/// Why a value could not be shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValuesError {
    /// The value is malformed (with the column), or too much work to evaluate.
    #[error("{0}")]
    BadValue(String),
}
