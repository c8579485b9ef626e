//! Clack's event log.
//!
//! A game is an append-only stream of `clack.v1.Event` protobuf messages: the same schema is
//! stored, streamed to clients and exported. This crate owns what those events mean:
//! [`GameLog`] folds them into a game (replaying is verifying), makes the events a move causes,
//! derives the open seats' turn clocks from the events' own times (`clock`), [`redact`] cuts them
//! down to what one viewer may see, [`redeal`] records and checks a fork that re-deals what one
//! seat could not see, and [`json`] writes and reads the JSON lines export. It knows nothing of
//! storage, the network or bots.

mod clock;
pub mod convert;
pub mod json;
mod log;
mod redact;
pub mod redeal;

pub use clock::{Allowance, TimeControl, TimeoutPolicy};
pub use log::{
    AbandonError, GameLog, JoinError, Occupant, RULES_VERSION, ReplayError, Status, TimeoutError, envelope,
    round_payload,
};
pub use redact::{Viewer, redact};
