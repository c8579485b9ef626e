//! Live games: every game the server knows ([`hub`]), one task per live game ([`actor`]), what
//! one viewer may see of a game ([`view`]), a seat played over one stream ([`play`]), which
//! shard a game lives on and listing across shards ([`shard`]), and the cluster's index of
//! every shard's games ([`index`]).
//!
//! The room owns a game from its creation to its end: its log in the store, its clocks, its
//! watchers. It asks the bots' room for a bot seat's decision through
//! [`BotHost`](crate::bots::BotHost) and the who room whether a caller holds a seat. It must not
//! know matches, the ladder or reviews: those build on it, and it on none of them.

pub mod actor;
pub mod feed;
pub mod hub;
pub mod index;
pub mod play;
pub mod shard;
pub mod view;
