//! Who asks, and what they may do: accounts, API keys and owner tokens ([`access`]), secrets
//! and seat tokens ([`auth`]), the authorization model ([`policy`]) and quotas ([`quota`]),
//! with the accounts' tables in the shared database when the server is a shard ([`shared`]).
//!
//! Every RPC starts here: the service asks [`access`] who the caller is, [`policy`] whether
//! they may, and [`quota`] whether they still have room. This room must not know games, bots or
//! the services; the rooms above pass it what they need checked (an owner, a count), and it
//! answers with a typed error that `crate::error` maps to a status.

pub mod access;
pub mod auth;
pub mod policy;
pub mod quota;
pub mod shared;
