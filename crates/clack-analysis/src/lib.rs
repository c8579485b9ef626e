//! Analysis of finished games: what many logs say together.
//!
//! [`input`] streams JSON lines exports into games (each line read by [`line`], a fast reader
//! for the export's own form); [`verify`] holds the rule every tool applies first (a game counts
//! only if its log replays and the game ended; any other is left out and named); [`summary`]
//! folds each game into totals per game kind and configuration and per bot version, with 95%
//! confidence intervals from [`stats`], and the engine's reviews that come with them into totals
//! per player by [`reviewed`]; [`report`] draws the totals as one self-contained HTML
//! page with SVG charts; [`tables`] writes the logs as flat Parquet tables.
//!
//! It is pure: it reads events it is handed and writes the files it is told to. It knows
//! nothing of servers, stores or the network; the binary fetches the logs.

pub mod input;
pub mod line;
pub mod report;
pub mod reviewed;
pub mod stats;
pub mod summary;
pub mod tables;
pub mod verify;

pub use input::{InputError, analyze_input, analyze_text, for_each_game, for_each_game_in};
pub use summary::{Analysis, Summary};
pub use tables::{TableError, Tables};
pub use verify::Rejections;
