//! Every failure a request can meet, and the one place where each becomes a gRPC status.
//!
//! Messages are written for the client: they name the field, or say in a player's words why a
//! move is not allowed. Storage failures and internal errors are logged here with their detail
//! and reach the client only as a short message.

use clack_log::ReplayError;
use clack_log::convert::{ActionError, FieldError};
use clack_store::StoreError;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    InvalidArgument(#[from] FieldError),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    FailedPrecondition(String),
    #[error("{0}")]
    Aborted(String),
    /// Something that may exist once only is already there (a remote bot's connection).
    #[error("{0}")]
    AlreadyExists(String),
    #[error("{0}")]
    Unauthenticated(String),
    #[error("{0}")]
    PermissionDenied(String),
    #[error("{0}")]
    ResourceExhausted(String),
    /// A position past the end of what exists (a sequence the game has not reached).
    #[error("{0}")]
    OutOfRange(String),
    /// A quota that frees up with time: RESOURCE_EXHAUSTED with a `RetryInfo` saying how long.
    #[error("{message}")]
    RetryLater { message: String, after: std::time::Duration },
    #[error("the log of game {game} does not replay: {error}")]
    DataLoss { game: String, error: ReplayError },
    #[error("the stored log of game {game} does not decode: {detail}")]
    Damaged { game: String, detail: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Internal(String),
    /// The shared database (a cluster's PostgreSQL) could not answer: UNAVAILABLE, naming it.
    #[error("the shared database (PostgreSQL) is unavailable: {0}")]
    Database(String),
    /// A game of another shard: NOT_FOUND here, naming the shard that has it.
    #[error(
        "game {game} lives on shard {owner}, not on this shard ({here}); send its id as x-clack-game metadata so the proxy routes the call there"
    )]
    OtherShard { game: String, owner: String, here: String },
    /// Another shard's answer to a fan-out call, with that shard's status code.
    #[error("shard {shard}: {message}")]
    Shard { shard: String, code: Code, message: String },
}

impl Error {
    /// The same error about one field of the request (`seats[2]: ...`), keeping its status.
    pub fn about(self, field: &str) -> Error {
        match self {
            Error::NotFound(m) => Error::NotFound(format!("{field}: {m}")),
            Error::FailedPrecondition(m) => Error::FailedPrecondition(format!("{field}: {m}")),
            Error::PermissionDenied(m) => Error::PermissionDenied(format!("{field}: {m}")),
            other => other,
        }
    }
}

impl From<ActionError> for Error {
    fn from(e: ActionError) -> Error {
        match e {
            ActionError::Field(field) => Error::InvalidArgument(field),
            ActionError::Illegal(illegal) => Error::FailedPrecondition(illegal.to_string()),
        }
    }
}

impl From<clack_log::AbandonError> for Error {
    fn from(e: clack_log::AbandonError) -> Error {
        Error::FailedPrecondition(e.to_string())
    }
}

impl From<clack_log::TimeoutError> for Error {
    fn from(e: clack_log::TimeoutError) -> Error {
        Error::FailedPrecondition(e.to_string())
    }
}

impl From<clack_rules::game::GameError> for Error {
    fn from(e: clack_rules::game::GameError) -> Error {
        Error::FailedPrecondition(e.to_string())
    }
}

impl From<Error> for Status {
    fn from(error: Error) -> Status {
        if let Error::RetryLater { message, after } = &error {
            // Whole milliseconds up, so that a client that waits exactly this long is let in.
            let after = std::time::Duration::from_millis(after.as_millis() as u64 + 1);
            let details = ErrorDetails::with_retry_info(Some(after));
            return Status::with_error_details(Code::ResourceExhausted, message.clone(), details);
        }
        if let Error::OtherShard { game, owner, .. } = &error {
            // Machine-readable too: the owning shard as the resource's owner.
            let details =
                ErrorDetails::with_resource_info("clack.v1.Game", game, format!("shard:{owner}"), error.to_string());
            return Status::with_error_details(Code::NotFound, error.to_string(), details);
        }
        let (code, message) = match &error {
            Error::InvalidArgument(_) => (Code::InvalidArgument, error.to_string()),
            Error::NotFound(_) | Error::OtherShard { .. } => (Code::NotFound, error.to_string()),
            Error::Shard { code, .. } => (*code, error.to_string()),
            Error::FailedPrecondition(_) | Error::Store(StoreError::Sealed(_)) => {
                (Code::FailedPrecondition, error.to_string())
            }
            Error::Aborted(_) | Error::Store(StoreError::Conflict { .. }) => (Code::Aborted, error.to_string()),
            Error::AlreadyExists(_) => (Code::AlreadyExists, error.to_string()),
            Error::Unauthenticated(_) => (Code::Unauthenticated, error.to_string()),
            Error::PermissionDenied(_) => (Code::PermissionDenied, error.to_string()),
            Error::ResourceExhausted(_) | Error::RetryLater { .. } => (Code::ResourceExhausted, error.to_string()),
            Error::OutOfRange(_) => (Code::OutOfRange, error.to_string()),
            Error::DataLoss { game, .. } | Error::Damaged { game, .. } => {
                tracing::error!(%error, "stored data does not replay");
                (
                    Code::DataLoss,
                    format!("the stored log of game {game} cannot be read back; the server log has the detail"),
                )
            }
            Error::Store(StoreError::Corrupt(_) | StoreError::Lost(_)) => {
                tracing::error!(%error, "stored data does not decode");
                (Code::DataLoss, "stored data cannot be read back; the server log has the detail".to_owned())
            }
            Error::Store(StoreError::Gap(_)) | Error::Internal(_) => {
                tracing::error!(%error, "internal error");
                (Code::Internal, "internal error".to_owned())
            }
            Error::Store(StoreError::Full(_)) => {
                tracing::error!(%error, "storage full");
                let message = "the server's disk is full: moves and other writes are refused until space is freed; \
                               reads and watching still work";
                (Code::Unavailable, message.to_owned())
            }
            Error::Database(_) => {
                (Code::Unavailable, format!("{error}; calls that need shared state are refused until it is back"))
            }
            Error::Store(StoreError::Backend(_)) => {
                tracing::error!(%error, "storage failure");
                (Code::Unavailable, "storage is unavailable; try again".to_owned())
            }
        };
        Status::new(code, message)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
