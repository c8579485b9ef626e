//! Writes the seed corpora in `fuzz/seeds/<target>/`, the inputs each fuzz run starts from:
//! real encoded requests, real logs and real bots, so that libFuzzer begins inside the formats
//! instead of having to discover protobuf and Rhai from nothing.
//!
//! `cargo run --manifest-path fuzz/Cargo.toml --example seeds` (rewrites the directories).

use std::path::{Path, PathBuf};

use clack_log::convert;
use clack_proto::v1 as pb;
use clack_rules::game::Game;
use prost::Message;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = root.join("seeds");
    write(&seeds.join("rules"), rules())?;
    write(&seeds.join("convert"), requests())?;
    write(&seeds.join("replay"), logs())?;
    write(&seeds.join("sandbox"), scripts(&root.join(".."))?)?;
    write(&seeds.join("store"), records())?;
    Ok(())
}

fn write(dir: &Path, inputs: Vec<Vec<u8>>) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    for (i, input) in inputs.iter().enumerate() {
        std::fs::write(dir.join(format!("seed-{i:03}")), input)?;
    }
    eprintln!("{}: {} inputs", dir.display(), inputs.len());
    Ok(())
}

/// Pseudo-random bytes (xorshift): most steps they encode are legal moves, so they play games
/// a long way under every option the first bytes choose.
fn rules() -> Vec<Vec<u8>> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..24)
        .map(|_| {
            (0..4096)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 24) as u8
                })
                .collect()
        })
        .collect()
}

fn with_prefix(prefix: &[u8], message: &impl Message) -> Vec<u8> {
    let mut bytes = prefix.to_vec();
    bytes.extend(message.encode_to_vec());
    bytes
}

/// Every request message the convert target reads, well formed, against many positions.
fn requests() -> Vec<Vec<u8>> {
    let mut inputs = Vec::new();
    for options in clack_fuzz::preset_options() {
        let options = Some(convert::options_to_proto(options));
        let create = pb::CreateGameRequest { options: options.clone(), seats: Vec::new(), seed: Some(3) };
        inputs.push(with_prefix(&[0], &create));
        inputs.push(with_prefix(&[4], &pb::RunMatchRequest { options, ..Default::default() }));
    }
    let bot_seat = pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat { bot_id: "b".into(), version: "v".into() })),
    };
    let open = pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat {})) };
    let create = pb::CreateGameRequest {
        options: Some(convert::options_to_proto(clack_fuzz::preset_options()[3])),
        seats: vec![bot_seat, open],
        seed: None,
    };
    inputs.push(with_prefix(&[0], &create));
    for (at, log) in clack_fuzz::convert::positions().iter().enumerate().step_by(3) {
        let Some(seat) = log.to_move() else { continue };
        let at = at as u8;
        for action in log.game().legal_actions().into_iter().take(3) {
            let mut action = convert::action_to_proto(action);
            // Clients may leave out what only one end allows; half the seeds do.
            if let (Some(pb::action::Game::Straight(a)), Game::Straight(_)) = (action.game.as_mut(), log.game())
                && at % 2 == 0
            {
                a.arm = 0;
                a.matched = None;
            }
            let request = pb::ActRequest {
                game_id: "g".into(),
                seat: u32::from(seat.0),
                action: Some(action),
                ..Default::default()
            };
            inputs.push(with_prefix(&[1, at], &request));
        }
        inputs.push(with_prefix(
            &[2, at],
            &pb::JoinGameRequest { game_id: "g".into(), seat: Some(1), name: "ada".into() },
        ));
    }
    inputs.push(with_prefix(&[3], &pb::ListGamesRequest { kind: 2, status: 1, page_size: 10, ..Default::default() }));
    for event in clack_fuzz::replay::logs()[0].iter().take(6) {
        let mut bytes = vec![5];
        bytes.extend(clack_log::json::to_line(event).into_bytes());
        inputs.push(bytes);
    }
    inputs
}

/// Real logs, framed (mode 0), and a few edit scripts (mode 1).
fn logs() -> Vec<Vec<u8>> {
    let mut inputs = Vec::new();
    for log in clack_fuzz::replay::logs() {
        let encoded: Vec<Vec<u8>> = log.iter().map(Message::encode_to_vec).collect();
        let mut input = vec![0];
        input.extend(clack_fuzz::encode_frames(encoded.iter().map(Vec::as_slice)));
        inputs.push(input);
    }
    for i in 0..8u8 {
        inputs.push(vec![1, i, i.wrapping_mul(37), 3, i, 200, 17, i, 1]);
    }
    inputs
}

/// The example bots and the hostile corpus, once against each game.
fn scripts(repo: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    let mut inputs = Vec::new();
    for dir in ["bots", "tests/hostile"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(repo.join(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "rhai"))
            .collect();
        files.sort();
        for file in files {
            let source = std::fs::read(&file)?;
            // The positions cycle through the presets: 0 is Straight Dominoes, 3 Streets.
            let at = if source.windows(7).any(|w| w == b"streets") { 3 } else { 0 };
            let mut input = vec![at];
            input.extend(source);
            inputs.push(input);
        }
    }
    Ok(inputs)
}

/// The records a real store holds for live and finished games, framed as the store target reads
/// them.
fn records() -> Vec<Vec<u8>> {
    use clack_store::{EventStore, SledStore};
    let dir = std::env::temp_dir().join(format!("clack-seeds-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = SledStore::open(&dir).expect("a store");
    let mut inputs = Vec::new();
    for (n, options) in clack_fuzz::preset_options().into_iter().enumerate() {
        for moves in [6, 100_000] {
            let id = format!("seed{n}-{moves}");
            let (log, events) = clack_fuzz::played(options, n as u64, moves);
            let events: Vec<pb::Event> = events.into_iter().map(|e| pb::Event { game_id: id.clone(), ..e }).collect();
            let finished = log.status() == clack_log::Status::Finished;
            let summary = pb::GameSummary {
                game_id: id.clone(),
                kind: convert::kind_to_proto(options.kind()) as i32,
                status: if finished { pb::GameStatus::Finished } else { pb::GameStatus::Active } as i32,
                sequence: events.len() as u64,
                ..Default::default()
            };
            store.append(&id, 0, &events, &summary).expect("append");
            let mut frames = Vec::new();
            for item in store.raw_log().iter() {
                let (key, value) = item.expect("record");
                let Some(at) = key.windows(id.len()).position(|w| w == id.as_bytes()) else { continue };
                let frame: Vec<u8> = match key[0] {
                    b'e' => [&[0u8][..], &key[key.len() - 8..], &value].concat(),
                    b's' => [&[1u8][..], &value].concat(),
                    b'g' => [&[2u8][..], &value].concat(),
                    b'i' => [&[3u8, (at - 1) as u8][..], &key[1..at], &value].concat(),
                    _ => continue,
                };
                frames.push(frame);
            }
            inputs.push(clack_fuzz::encode_frames(frames.iter().map(Vec::as_slice)));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    inputs
}
