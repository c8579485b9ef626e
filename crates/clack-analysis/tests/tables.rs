//! The Parquet tables read back with the Parquet crate's own Arrow reader: a game that does not
//! replay, or never ended, is left out and named while the others are written; a run that stops
//! part way leaves no table under its final name; and the moves of a fork that starts inside a
//! later round carry that round, as `rounds.parquet` (and `GetStateAt`) do.

mod fixture;

use std::path::Path;

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use clack_analysis::Tables;
use clack_log::GameLog;
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use fixture::{damaged, game, straight2, streets2, unfinished};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

const TABLES: [&str; 5] = ["games", "seats", "moves", "rounds", "decisions"];

fn read(dir: &Path, table: &str) -> Vec<RecordBatch> {
    let file = std::fs::File::open(dir.join(format!("{table}.parquet"))).expect("the table is there");
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).expect("a Parquet file").build().expect("reads");
    reader.collect::<Result<_, _>>().expect("batches")
}

fn strings(dir: &Path, table: &str, column: &str) -> Vec<String> {
    let batches = read(dir, table);
    let columns = batches.iter().map(|b| b.column_by_name(column).expect("the column").as_string::<i32>().clone());
    columns.flat_map(|c| c.iter().map(|v| v.unwrap_or_default().to_owned()).collect::<Vec<_>>()).collect()
}

fn u32s(dir: &Path, table: &str, column: &str) -> Vec<u32> {
    let batches = read(dir, table);
    let columns =
        batches.iter().map(|b| b.column_by_name(column).expect("the column").as_primitive::<UInt32Type>().clone());
    columns.flat_map(|c| c.iter().map(Option::unwrap_or_default).collect::<Vec<_>>()).collect()
}

/// The names in `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let entries = std::fs::read_dir(dir).expect("the directory");
    let mut names: Vec<String> =
        entries.map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Plays the first legal action until the game is over.
fn play_out(log: &mut GameLog, events: &mut Vec<pb::Event>) {
    let mut now = events.last().map_or(0, |e| e.unix_millis);
    while let Some(seat) = log.to_move() {
        now += 10;
        let action = log.game().legal_actions()[0];
        events.extend(log.perform(seat, action, now).expect("legal"));
    }
}

/// The sequence of the deal of `round` in a log.
fn deal_of(events: &[pb::Event], round: u32) -> u64 {
    let dealt = events.iter().find(|e| matches!(&e.payload, Some(Payload::Dealt(d)) if d.round == round));
    dealt.expect("the game has that round").sequence
}

/// A fork of `parent` after its event `sequence`, with open seats, played out.
fn fork(id: &str, parent: &[pb::Event], sequence: u64) -> Vec<pb::Event> {
    let now = parent.last().map_or(0, |e| e.unix_millis) + 1_000;
    let (mut log, mut events) = GameLog::fork(id, parent, sequence, Vec::new(), 99, now).expect("a fork");
    play_out(&mut log, &mut events);
    events
}

/// Writes the tables of `games` into `dir`.
fn write(dir: &Path, games: &[Vec<pb::Event>]) -> Tables {
    let mut tables = Tables::create(dir).expect("creates");
    for game in games {
        tables.add_game(game).expect("only a failed write stops the tables");
    }
    tables
}

#[test]
fn the_moves_of_a_fork_inside_a_later_round_carry_that_round() {
    let parent = game("p", straight2(250), Vec::new(), 7, false);
    let games =
        vec![parent.clone(), fork("f2", &parent, deal_of(&parent, 2)), fork("f6", &parent, deal_of(&parent, 6))];
    let dir = tempfile::tempdir().expect("dir");
    write(dir.path(), &games).finish().expect("finishes");
    let moves: Vec<(String, u32)> =
        strings(dir.path(), "moves", "game_id").into_iter().zip(u32s(dir.path(), "moves", "round")).collect();
    let rounds: Vec<(String, u32)> =
        strings(dir.path(), "rounds", "game_id").into_iter().zip(u32s(dir.path(), "rounds", "round")).collect();
    for id in ["p", "f2", "f6"] {
        // Every round a game plays ends with its reckoning, so the rounds its moves are labelled
        // with are, in order, the rounds of rounds.parquet.
        let mut labels: Vec<u32> = moves.iter().filter(|(g, _)| g == id).map(|&(_, r)| r).collect();
        labels.dedup();
        let ended: Vec<u32> = rounds.iter().filter(|(g, _)| g == id).map(|&(_, r)| r).collect();
        assert_eq!(labels, ended, "game {id}");
    }
    let first = |id: &str| moves.iter().find(|(g, _)| g == id).map(|&(_, r)| r);
    assert_eq!((first("f2"), first("f6")), (Some(2), Some(6)));
}

#[test]
fn games_that_do_not_replay_or_never_ended_are_left_out_and_named() {
    let good = game("s2", straight2(20), Vec::new(), 4, true);
    let games = vec![
        game("t1", streets2(), Vec::new(), 1, false),
        damaged(game("s1", straight2(20), Vec::new(), 3, false)),
        unfinished(&good),
        game("s3", straight2(20), Vec::new(), 5, false),
    ];
    let dir = tempfile::tempdir().expect("dir");
    let tables = write(dir.path(), &games);
    let rejections = tables.rejections().clone();
    tables.finish().expect("finishes");
    assert_eq!(strings(dir.path(), "games", "game_id"), vec!["t1", "s3"]);
    assert!(strings(dir.path(), "moves", "game_id").iter().all(|g| g == "t1" || g == "s3"));
    assert!(strings(dir.path(), "rounds", "game_id").iter().all(|g| g == "s3"));
    assert_eq!(rejections.count(), 2);
    let named = rejections.first();
    assert!(named[0].starts_with("game s1: ") && named[0].contains("disagrees"), "{named:?}");
    assert!(named[1].starts_with("game s2: ") && named[1].contains("never ended"), "{named:?}");
}

#[test]
fn tables_are_written_under_their_final_names_only_once_complete() {
    let games = vec![game("t1", streets2(), Vec::new(), 1, false)];
    let dir = tempfile::tempdir().expect("dir");
    let tables = write(dir.path(), &games);
    assert!(files(dir.path()).iter().all(|f| !f.ends_with(".parquet")), "{:?}", files(dir.path()));
    // A run that stops part way (the tables dropped unfinished) leaves nothing behind.
    drop(tables);
    assert!(files(dir.path()).is_empty(), "{:?}", files(dir.path()));
    write(dir.path(), &games).finish().expect("finishes");
    let expected: Vec<String> =
        ["decisions", "games", "moves", "rounds", "seats"].iter().map(|t| format!("{t}.parquet")).collect();
    assert_eq!(files(dir.path()), expected);
    for table in TABLES {
        read(dir.path(), table);
    }
}
