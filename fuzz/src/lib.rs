//! The bodies of Clack's fuzz targets, and the games and framings they share.
//!
//! Each target in `fuzz_targets/` is one line that calls `run` of a module here, so the checks a
//! target makes can be read (and reused by the seed generator in `examples/seeds.rs`) without
//! the libFuzzer entry point. This crate owns no behaviour of Clack: it only drives the public
//! APIs of the rules, the log and the bots with untrusted bytes and asserts their promises. A
//! failed assertion or a panic is a finding.

pub mod convert;
pub mod replay;
pub mod rules;
pub mod sandbox;
pub mod store;

use clack_log::GameLog;
use clack_proto::v1 as pb;
use clack_rules::game::{Options, Turn};
use clack_rules::{Dealer, straight, streets};

/// The option sets the position and game caches are built from: both games, small and large
/// tables, the rules' variants that change the shape of play.
pub fn preset_options() -> Vec<Options> {
    vec![
        Options::Straight(straight::Options { players: 2, target: 60, ..straight::Options::default() }),
        Options::Straight(straight::Options {
            players: 4,
            teams: true,
            spinner: straight::SpinnerRule::FirstDouble,
            may_draw_when_able: true,
            target: 100,
            ..straight::Options::default()
        }),
        Options::Straight(straight::Options {
            players: 3,
            spinner: straight::SpinnerRule::None,
            boneyard_reserve: 2,
            blocked_scoring: straight::BlockedScoring::Opponents,
            finish_round_at_target: true,
            target: 40,
            ..straight::Options::default()
        }),
        Options::Streets(streets::Options::default()),
        Options::Streets(streets::Options { players: 4, may_pass_when_able: true, ..streets::Options::default() }),
        Options::Streets(streets::Options {
            set: streets::DominoSet::DoubleTwelve,
            players: 3,
            ..streets::Options::default()
        }),
    ]
}

/// A game played with random legal moves from `seed` for at most `moves` moves (every seat
/// joined first); returns the log and every event it made.
pub fn played(options: Options, seed: u64, moves: usize) -> (GameLog, Vec<pb::Event>) {
    let (mut log, mut events) =
        GameLog::create("fuzz", options, Vec::new(), seed, 1_000).unwrap_or_else(|e| panic!("preset options: {e}"));
    for seat in 0..options.players() {
        let (_, event) = log.join(Some(u32::from(seat)), "p", 1_000).unwrap_or_else(|e| panic!("open seat: {e}"));
        events.push(event);
    }
    let mut dealer = Dealer::from_seed(seed);
    for _ in 0..moves {
        let Turn::Seat { seat } = log.game().turn() else { break };
        let legal = log.game().legal_actions();
        let action = legal[dealer.index(legal.len())];
        events.extend(log.perform(seat, action, 2_000).unwrap_or_else(|e| panic!("legal action: {e}")));
    }
    (log, events)
}

/// Splits `data` into frames of `[length: u16 little-endian][bytes]`; a short last frame is
/// taken as it is.
pub fn frames(mut data: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while data.len() >= 2 {
        let len = usize::from(u16::from_le_bytes([data[0], data[1]]));
        let rest = &data[2..];
        let (frame, tail) = rest.split_at(len.min(rest.len()));
        out.push(frame);
        data = tail;
    }
    out
}

/// The framing [`frames`] reads.
pub fn encode_frames<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    for part in parts {
        let len = u16::try_from(part.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&part[..usize::from(len)]);
    }
    out
}
