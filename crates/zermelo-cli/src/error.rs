//! How the CLI fails, and the exit code for each kind of failure.

use std::process::ExitCode;

/// A failure with its exit code.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The user's input is wrong (file, syntax, ids, flags): exit 2.
    #[error("{0}")]
    BadInput(String),
    /// The job needs more memory than is available or allowed: exit 3.
    #[error("{0}")]
    TooBig(String),
    /// An input could not be read (missing file, permissions, a read error): exit 5.
    #[error("{0}")]
    Unreadable(String),
    /// A claimed solution is not valid: exit 1.
    #[error("{0}")]
    Rejected(String),
    /// A cluster peer could not be reached, disconnected or stopped answering: exit 4.
    #[error("{0}")]
    Cluster(String),
    /// Anything else (I/O on output, internal errors): exit 1.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl Failure {
    /// Bad input, from anything printable.
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure::BadInput(message.to_string())
    }

    /// The process exit code (the table is in `--help` and docs/formats.md).
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::BadInput(_) => ExitCode::from(2),
            Failure::TooBig(_) => ExitCode::from(3),
            Failure::Cluster(_) => ExitCode::from(4),
            Failure::Unreadable(_) => ExitCode::from(5),
            Failure::Rejected(_) | Failure::Internal(_) => ExitCode::from(1),
        }
    }
}

/// The one place where the kind of an input error picks the failure, hence the exit code.
impl From<zermelo::io::ParseError> for Failure {
    fn from(e: zermelo::io::ParseError) -> Self {
        use zermelo::io::ErrorKind;
        match e.kind() {
            ErrorKind::Io => Failure::Unreadable(e.to_string()),
            ErrorKind::TooBig => Failure::TooBig(e.to_string()),
            // Syntax, out of range, truncated, corrupt, and kinds added later.
            _ => Failure::input(e),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Internal(e.into())
    }
}

/// Result of a subcommand.
pub type CliResult<T = ()> = Result<T, Failure>;
