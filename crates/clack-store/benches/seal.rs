//! What sealing a finished game costs and saves, on real game logs: the size of a whole log as
//! stored sealed under each codec considered (zstd at three levels, lz4), and the time to
//! compress and to decompress one. Run with `cargo bench -p clack-store --bench seal`; the sizes
//! are printed before criterion's timings.
//!
//! The logs come from random players through the same `GameLog` the server uses.

use std::hint::black_box;

use clack_log::GameLog;
use clack_proto::v1 as pb;
use clack_rules::game::{Options, Turn};
use clack_rules::{Dealer, straight, streets};
use criterion::{Criterion, criterion_group, criterion_main};
use prost::Message;

/// The sealed log before compression, as the store encodes it.
#[derive(Clone, PartialEq, prost::Message)]
struct SealedLog {
    #[prost(message, repeated, tag = "1")]
    events: Vec<pb::Event>,
}

/// A whole game between random players, encoded as the store seals it (no game id, no sequence).
fn sealed_log(options: Options, seed: u64) -> Vec<u8> {
    let (mut log, mut events) = GameLog::create("bench", options, Vec::new(), seed, 1_764_500_000_000).expect("game");
    let mut players = Dealer::from_seed(!seed);
    let mut now = 1_764_500_000_000;
    while let Turn::Seat { seat } = log.game().turn() {
        let legal = log.game().legal_actions();
        // A player thinks 0.4 to 4 s.
        now += 400 + players.index(3600) as i64;
        events.extend(log.perform(seat, legal[players.index(legal.len())], now).expect("legal"));
    }
    // As the store seals them: no game id, no sequence, each time since the event before.
    let mut previous = 0;
    let events = events
        .into_iter()
        .map(|e| {
            let delta = e.unix_millis - previous;
            previous = e.unix_millis;
            pb::Event { game_id: String::new(), sequence: 0, unix_millis: delta, ..e }
        })
        .collect();
    SealedLog { events }.encode_to_vec()
}

fn tables() -> Vec<(&'static str, Options)> {
    let s = straight::Options::default();
    vec![
        ("straight-2p", Options::Straight(straight::Options { players: 2, ..s })),
        ("straight-4p", Options::Straight(straight::Options { players: 4, ..s })),
        ("streets-2p", Options::Streets(streets::Options { players: 2, ..streets::Options::default() })),
    ]
}

type Codec = (&'static str, fn(&[u8]) -> Vec<u8>, fn(&[u8]) -> Vec<u8>);

fn codecs() -> Vec<Codec> {
    vec![
        ("zstd-3", |raw| zstd::bulk::compress(raw, 3).expect("zstd"), |c| zstd::stream::decode_all(c).expect("zstd")),
        ("zstd-9", |raw| zstd::bulk::compress(raw, 9).expect("zstd"), |c| zstd::stream::decode_all(c).expect("zstd")),
        ("zstd-19", |raw| zstd::bulk::compress(raw, 19).expect("zstd"), |c| zstd::stream::decode_all(c).expect("zstd")),
        ("lz4", lz4_flex::compress_prepend_size, |c| lz4_flex::decompress_size_prepended(c).expect("lz4")),
    ]
}

#[allow(clippy::print_stdout)] // the size table
fn sizes(logs: &[(&str, Vec<Vec<u8>>)]) {
    println!("sealed log size per game (mean of {} games), raw = protobuf without ids:", logs[0].1.len());
    for (table, games) in logs {
        let raw: usize = games.iter().map(Vec::len).sum();
        let mut line = format!("  {table}: raw {:.0} B", raw as f64 / games.len() as f64);
        for (name, compress, _) in codecs() {
            let packed: usize = games.iter().map(|g| compress(g).len()).sum();
            line +=
                &format!(", {name} {:.0} B ({:.1}x)", packed as f64 / games.len() as f64, raw as f64 / packed as f64);
        }
        println!("{line}");
    }
}

fn bench(c: &mut Criterion) {
    let logs: Vec<(&str, Vec<Vec<u8>>)> = tables()
        .into_iter()
        .map(|(name, options)| (name, (0..200).map(|s| sealed_log(options, s)).collect()))
        .collect();
    sizes(&logs);
    let games = &logs[0].1;
    for (name, compress, decompress) in codecs() {
        let packed: Vec<Vec<u8>> = games.iter().map(|g| compress(g)).collect();
        let mut i = 0;
        c.bench_function(&format!("seal/straight-2p/{name}/compress"), |b| {
            b.iter(|| {
                i = (i + 1) % games.len();
                black_box(compress(&games[i]))
            })
        });
        c.bench_function(&format!("seal/straight-2p/{name}/decompress"), |b| {
            b.iter(|| {
                i = (i + 1) % packed.len();
                black_box(decompress(&packed[i]))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
