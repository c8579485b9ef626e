//! What a move costs the store: appends of one event to games already under way (the store's
//! hot path: the game's last sequence is known and its summary unchanged), alone or in groups,
//! with and without the flush that makes them durable. Run with `cargo bench -p clack-store`.

use std::hint::black_box;

use clack_proto::v1 as pb;
use clack_store::{Append, EventStore, MemoryStore, SledStore};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Games under way, appended to in turn.
struct Games {
    /// Each game's id and last sequence.
    games: Vec<(String, u64)>,
    next: usize,
}

impl Games {
    fn start(store: &dyn EventStore, count: usize) -> Games {
        let mut games = Games { games: (0..count).map(|i| (format!("01JBENCH{i:018}"), 0)).collect(), next: 0 };
        let first = games.group(count);
        assert!(store.append_all(&first).iter().all(Result::is_ok), "the games start");
        games
    }

    /// The next move of each of the next `size` games: one event about the size of a move's.
    fn group(&mut self, size: usize) -> Vec<Append> {
        (0..size)
            .map(|_| {
                let count = self.games.len();
                let (game_id, sequence) = &mut self.games[self.next];
                self.next = (self.next + 1) % count;
                let expected = *sequence;
                *sequence += 1;
                let payload = pb::event::Payload::ActionApplied(pb::ActionApplied {
                    seat: 1,
                    points: 10,
                    action: Some(pb::Action::default()),
                });
                let event = pb::Event {
                    game_id: game_id.clone(),
                    sequence: *sequence,
                    unix_millis: 1_764_000_000_000,
                    payload: Some(payload),
                };
                let summary = pb::GameSummary { game_id: game_id.clone(), sequence: *sequence, ..Default::default() };
                Append { game_id: game_id.clone(), expected, events: vec![event], summary }
            })
            .collect()
    }
}

fn append_benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let sled = SledStore::open(dir.path()).expect("sled store");
    let memory = MemoryStore::new();
    let mut on_sled = Games::start(&sled, 1000);
    let mut in_memory = Games::start(&memory, 1000);
    let mut bench = c.benchmark_group("append_all");
    for size in [1usize, 16, 64] {
        bench.throughput(Throughput::Elements(size as u64));
        bench.bench_with_input(BenchmarkId::new("sled_and_flush", size), &size, |b, &size| {
            b.iter_batched(
                || on_sled.group(size),
                |appends| {
                    black_box(sled.append_all(&appends));
                    sled.flush().expect("flush");
                },
                BatchSize::SmallInput,
            )
        });
        bench.bench_with_input(BenchmarkId::new("sled", size), &size, |b, &size| {
            b.iter_batched(
                || on_sled.group(size),
                |appends| black_box(sled.append_all(&appends)),
                BatchSize::SmallInput,
            )
        });
        bench.bench_with_input(BenchmarkId::new("memory", size), &size, |b, &size| {
            b.iter_batched(
                || in_memory.group(size),
                |appends| black_box(memory.append_all(&appends)),
                BatchSize::SmallInput,
            )
        });
    }
    bench.finish();
}

criterion_group!(benches, append_benches);
criterion_main!(benches);
