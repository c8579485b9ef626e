//! The rules of Clack's two games, and nothing else.
//!
//! This crate owns tiles, positions, legal actions, scoring and hidden information for
//! [Straight Dominoes](straight) and [Streets and Avenues](streets). It is pure: no IO, no async,
//! no clock, no storage, no protobuf, no scripting. Chance (shuffles and draws) comes in as
//! explicit chance outcomes, which the [`Dealer`] can produce from a seed, so a game is a pure
//! function of its options and its moves. Everything above it — the event log, the store, the
//! server, the bots — builds on that.

pub mod chance;
pub mod game;
pub mod straight;
pub mod streets;
pub mod tile;

pub use chance::Dealer;
pub use game::{Game, Kind};
pub use tile::{ParseTileError, Seat, Tile, TileSet};
