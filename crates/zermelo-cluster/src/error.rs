//! Why a cluster solve failed: one kind per cause, so that every process fails the same way.

/// Why a cluster solve failed.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterError {
    /// The input (graph, hosts file, flags) is wrong.
    #[error("{0}")]
    Input(String),
    /// The job is too big (ids, counters or memory).
    #[error("{0}")]
    TooBig(String),
    /// A peer could not be reached, disconnected or stopped answering.
    #[error("{0}")]
    Peer(String),
    /// The work folder holds unusable checkpoints.
    #[error("{0}")]
    Checkpoint(String),
    /// Reading the input or writing checkpoints failed.
    #[error("{0}")]
    Io(String),
    /// The input cannot be opened or read (missing, a folder, permissions).
    #[error("{0}")]
    Unreadable(String),
}
