//! Logs as flat tables in Parquet files, for pandas, polars and DuckDB: `games.parquet` (one row
//! per game), `seats.parquet` (one per seat of a game), `moves.parquet` (one per action),
//! `rounds.parquet` (one per Straight Dominoes round) and `decisions.parquet` (one per decision
//! of a game the engine has reviewed, from the review a server keeps). Every game is replayed first, so only
//! finished games whose logs verify are written; the others are left out and named
//! ([`crate::verify`]). Each file is written under a temporary name and renamed into place only
//! once complete. `docs/analysis.md` lists every column.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray, UInt32Array, UInt64Array,
};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use clack_log::GameLog;
use clack_log::convert::stored_action;
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::Seat;
use clack_rules::game::Game;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;

use crate::verify::{self, Rejections};

/// Why the tables could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("cannot write {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error(transparent)]
    Parquet(#[from] ParquetError),
    #[error(transparent)]
    Arrow(#[from] ArrowError),
}

/// Games buffered before a batch of rows goes to the files (bounds memory on large exports).
const GAMES_PER_BATCH: usize = 5_000;

/// Writes the four tables into `dir`, one game at a time; call [`Tables::finish`] at the end.
/// Dropped unfinished, the tables leave nothing behind.
pub struct Tables {
    games: Table<GameRow>,
    seats: Table<SeatRow>,
    moves: Table<MoveRow>,
    rounds: Table<RoundRow>,
    decisions: Table<DecisionRow>,
    buffered: usize,
    rejections: Rejections,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables").field("buffered", &self.buffered).finish_non_exhaustive()
    }
}

impl Tables {
    pub fn create(dir: &Path) -> Result<Tables, TableError> {
        std::fs::create_dir_all(dir).map_err(|error| io_error(dir, error))?;
        Ok(Tables {
            games: Table::create(dir, "games")?,
            seats: Table::create(dir, "seats")?,
            moves: Table::create(dir, "moves")?,
            rounds: Table::create(dir, "rounds")?,
            decisions: Table::create(dir, "decisions")?,
            buffered: 0,
            rejections: Rejections::default(),
        })
    }

    /// Replays one game and adds its rows; a game whose log does not replay, or that never
    /// ended, adds none and is noted in [`Tables::rejections`]. Only a failed write is an error.
    pub fn add_game(&mut self, events: &[pb::Event]) -> Result<(), TableError> {
        let mut rows = GameRows::default();
        match verify::replay(events, |log, event| rows.event(log, event)) {
            Ok(log) => self.add_rows(&log, rows)?,
            Err(reason) => self.rejections.add(events, &reason),
        }
        Ok(())
    }

    /// Replays one game and adds its rows, and, if the game is written, the decisions of its
    /// engine review (`review`, when the game has one).
    pub fn add_reviewed_game(
        &mut self,
        events: &[pb::Event],
        review: Option<&pb::GameReview>,
    ) -> Result<(), TableError> {
        let left_out = self.rejections.count();
        self.add_game(events)?;
        if let Some(review) = review.filter(|_| self.rejections.count() == left_out) {
            self.decisions.rows.extend(review.decisions.iter().map(|d| decision_row(review, d)));
        }
        Ok(())
    }

    /// The games left out so far.
    pub fn rejections(&self) -> &Rejections {
        &self.rejections
    }

    /// Adds the rows of a game that replayed.
    fn add_rows(&mut self, log: &GameLog, rows: GameRows) -> Result<(), TableError> {
        let moves = rows.moves.len() as u64;
        let mut rounds = rows.rounds.len() as u64;
        if matches!(log.game(), Game::Streets(_)) && log.ended().is_some_and(|e| e.reason == "played_out") {
            rounds = 1;
        }
        self.add_game_rows(log, moves, rounds, rows.first_seat)?;
        self.moves.rows.extend(rows.moves);
        self.rounds.rows.extend(rows.rounds);
        self.buffered += 1;
        if self.buffered >= GAMES_PER_BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn add_game_rows(
        &mut self,
        log: &GameLog,
        moves: u64,
        rounds: u64,
        first_seat: Option<u32>,
    ) -> Result<(), TableError> {
        let created = log.created();
        let ended = log.ended();
        let chain = log.fork_chain();
        self.games.rows.push(GameRow {
            game_id: log.id().to_owned(),
            kind: log.game().kind().name().to_owned(),
            options: serde_json::to_string(&created.options).unwrap_or_default(),
            players: u32::from(log.game().players()),
            seed: created.seed,
            forked_from: chain.first().map(|(id, _)| id.clone()),
            fork_sequence: chain.first().map(|&(_, n)| n),
            first_seat,
            moves,
            rounds,
            reason: ended.map(|e| e.reason.clone()),
            winners: ended.map(|e| e.winners.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
            created_millis: log.created_millis(),
        });
        let decided = ended.filter(|e| e.reason != "abandoned");
        let sides: Vec<usize> = (0..log.game().players()).map(|s| side(log.game(), Seat(s))).collect();
        let mut winning: Vec<usize> = decided
            .map(|e| e.winners.iter().filter_map(|&w| sides.get(w as usize).copied()).collect())
            .unwrap_or_default();
        winning.sort_unstable();
        winning.dedup();
        for (seat, spec) in created.seats.iter().enumerate() {
            let won = winning.contains(&sides[seat]);
            let (occupant, bot) = match &spec.occupant {
                Some(pb::seat_spec::Occupant::Bot(b)) => ("bot", Some(format!("{}@{}", b.bot_id, b.version))),
                _ => ("open", None),
            };
            let name = match &log.seats()[seat] {
                clack_log::Occupant::Open { name } => name.clone(),
                clack_log::Occupant::Bot { .. } => None,
            };
            self.seats.rows.push(SeatRow {
                game_id: log.id().to_owned(),
                seat: seat as u32,
                side: sides[seat] as u32,
                occupant: occupant.to_owned(),
                name,
                bot,
                score: decided.and_then(|e| e.scores.get(sides[seat]).copied()),
                won: decided.map(|_| won),
                win_share: decided.map(|_| if won { 1.0 / winning.len() as f64 } else { 0.0 }),
            });
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), TableError> {
        self.games.flush()?;
        self.seats.flush()?;
        self.moves.flush()?;
        self.rounds.flush()?;
        self.decisions.flush()?;
        self.buffered = 0;
        Ok(())
    }

    /// Writes what is buffered, closes the files and puts them under their final names.
    pub fn finish(mut self) -> Result<(), TableError> {
        self.flush()?;
        // Every table is complete before any is renamed, so that a table that fails to close
        // leaves none of the new ones in place.
        let files = [
            self.games.close()?,
            self.seats.close()?,
            self.moves.close()?,
            self.rounds.close()?,
            self.decisions.close()?,
        ];
        for file in files {
            file.keep()?;
        }
        Ok(())
    }
}

/// One game's moves and rounds, gathered while its log replays and added to the tables only
/// once it has replayed whole, so that a game left out adds no row.
#[derive(Default)]
struct GameRows {
    moves: Vec<MoveRow>,
    rounds: Vec<RoundRow>,
    first_seat: Option<u32>,
}

impl GameRows {
    /// Notes an event, with the game as it stood before it.
    fn event(&mut self, log: &GameLog, event: &pb::Event) {
        match &event.payload {
            Some(Payload::ActionApplied(applied)) => {
                self.first_seat.get_or_insert(applied.seat);
                self.moves.push(move_row(log, event, applied));
            }
            Some(Payload::RoundEnded(ended)) => self.rounds.push(RoundRow {
                game_id: event.game_id.clone(),
                round: ended.round,
                end: round_end(ended.end),
                winner: ended.winner,
                points: ended.points,
                scores: join(&ended.scores),
            }),
            _ => {}
        }
    }
}

fn side(game: &Game, seat: Seat) -> usize {
    match game {
        Game::Straight(g) => g.options().side(seat),
        Game::Streets(_) => seat.index(),
    }
}

/// The round being played, as `GetStateAt` shows it. It is read from the game, not counted from
/// the deals in the log: a fork that starts inside a round has that round's deal among its
/// parent's events, embedded in its `GameCreated`, not in its own log.
fn round(game: &Game) -> u32 {
    match game {
        Game::Straight(g) => g.round(),
        Game::Streets(_) => 1,
    }
}

fn move_row(log: &GameLog, event: &pb::Event, applied: &pb::ActionApplied) -> MoveRow {
    let (kind, tile) = match applied.action.as_ref().and_then(|a| a.game.as_ref()) {
        Some(pb::action::Game::Straight(a)) => {
            let kind = pb::straight_action::Kind::try_from(a.kind).map_or("unspecified", |k| match k {
                pb::straight_action::Kind::Lead => "lead",
                pb::straight_action::Kind::Play => "play",
                pb::straight_action::Kind::Draw => "draw",
                pb::straight_action::Kind::Pass => "pass",
                pb::straight_action::Kind::Unspecified => "unspecified",
            });
            (kind, a.tile)
        }
        Some(pb::action::Game::Streets(a)) => {
            let kind = pb::streets_action::Kind::try_from(a.kind).map_or("unspecified", |k| match k {
                pb::streets_action::Kind::Place => "place",
                pb::streets_action::Kind::Discard => "discard",
                pb::streets_action::Kind::Pass => "pass",
                pb::streets_action::Kind::Unspecified => "unspecified",
            });
            (kind, a.tile)
        }
        None => ("unspecified", None),
    };
    MoveRow {
        game_id: event.game_id.clone(),
        sequence: event.sequence,
        round: round(log.game()),
        seat: applied.seat,
        kind: kind.to_owned(),
        tile: tile.map(|t| format!("{}-{}", t.low, t.high)),
        points: applied.points,
        notation: stored_action(applied.action.as_ref(), log.game()).map(|a| a.to_string()).unwrap_or_default(),
        unix_millis: event.unix_millis,
    }
}

fn round_end(end: i32) -> String {
    match pb::RoundEnd::try_from(end) {
        Ok(pb::RoundEnd::Domino) => "domino",
        Ok(pb::RoundEnd::Blocked) => "blocked",
        Ok(pb::RoundEnd::TargetReached) => "target",
        _ => "unspecified",
    }
    .to_owned()
}

fn join(values: &[i64]) -> String {
    values.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// One Parquet file and the rows waiting to go into it.
struct Table<R: Row> {
    writer: ArrowWriter<File>,
    schema: Arc<Schema>,
    rows: Vec<R>,
    file: Partial,
}

impl<R: Row> Table<R> {
    fn create(dir: &Path, name: &str) -> Result<Table<R>, TableError> {
        let path = dir.join(format!("{name}.parquet"));
        // The name starts with a dot so that readers of a directory of Parquet files (pyarrow's
        // datasets among them) pass over a table still being written.
        let temp = dir.join(format!(".{name}.parquet.partial"));
        let file = File::create(&temp).map_err(|error| io_error(&temp, error))?;
        let partial = Partial { temp, path, kept: false };
        let schema = Arc::new(R::schema());
        let properties = WriterProperties::builder().set_compression(Compression::SNAPPY).build();
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(properties))?;
        Ok(Table { writer, schema, rows: Vec::new(), file: partial })
    }

    /// Writes the file's footer; the file is complete but still under its temporary name.
    fn close(self) -> Result<Partial, TableError> {
        self.writer.close()?;
        Ok(self.file)
    }

    fn flush(&mut self) -> Result<(), TableError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let batch = RecordBatch::try_new(self.schema.clone(), R::columns(&self.rows))?;
        self.writer.write(&batch)?;
        self.rows.clear();
        Ok(())
    }
}

/// A file being written under a temporary name beside its final one, renamed into place only
/// once complete, so that a failed or interrupted export never leaves a partial table under the
/// name a reader opens. Dropped before then, it removes itself.
struct Partial {
    temp: PathBuf,
    path: PathBuf,
    kept: bool,
}

impl Partial {
    /// Puts the complete file under its final name.
    fn keep(mut self) -> Result<(), TableError> {
        std::fs::rename(&self.temp, &self.path).map_err(|error| io_error(&self.path, error))?;
        self.kept = true;
        Ok(())
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if !self.kept {
            // Nothing more can be done about a file that cannot be removed; it has a name no
            // reader takes for a table.
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

fn io_error(path: &Path, error: std::io::Error) -> TableError {
    TableError::Io { path: path.display().to_string(), error }
}

/// A row type: its schema and its rows as Arrow columns.
trait Row: Sized {
    fn schema() -> Schema;
    fn columns(rows: &[Self]) -> Vec<ArrayRef>;
}

fn field(name: &str, data_type: DataType, nullable: bool) -> Field {
    Field::new(name, data_type, nullable)
}

fn strings<R>(rows: &[R], f: impl Fn(&R) -> Option<&str>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<StringArray>())
}

fn u32s<R>(rows: &[R], f: impl Fn(&R) -> Option<u32>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<UInt32Array>())
}

fn u64s<R>(rows: &[R], f: impl Fn(&R) -> Option<u64>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<UInt64Array>())
}

fn i64s<R>(rows: &[R], f: impl Fn(&R) -> Option<i64>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<Int64Array>())
}

struct GameRow {
    game_id: String,
    kind: String,
    options: String,
    players: u32,
    seed: Option<u64>,
    forked_from: Option<String>,
    fork_sequence: Option<u64>,
    first_seat: Option<u32>,
    moves: u64,
    rounds: u64,
    reason: Option<String>,
    winners: Option<String>,
    created_millis: i64,
}

impl Row for GameRow {
    fn schema() -> Schema {
        Schema::new(vec![
            field("game_id", DataType::Utf8, false),
            field("kind", DataType::Utf8, false),
            field("options", DataType::Utf8, false),
            field("players", DataType::UInt32, false),
            field("seed", DataType::UInt64, true),
            field("forked_from", DataType::Utf8, true),
            field("fork_sequence", DataType::UInt64, true),
            field("first_seat", DataType::UInt32, true),
            field("moves", DataType::UInt64, false),
            field("rounds", DataType::UInt64, false),
            field("reason", DataType::Utf8, true),
            field("winners", DataType::Utf8, true),
            field("created_millis", DataType::Int64, false),
        ])
    }

    fn columns(rows: &[GameRow]) -> Vec<ArrayRef> {
        vec![
            strings(rows, |r| Some(&r.game_id)),
            strings(rows, |r| Some(&r.kind)),
            strings(rows, |r| Some(&r.options)),
            u32s(rows, |r| Some(r.players)),
            u64s(rows, |r| r.seed),
            strings(rows, |r| r.forked_from.as_deref()),
            u64s(rows, |r| r.fork_sequence),
            u32s(rows, |r| r.first_seat),
            u64s(rows, |r| Some(r.moves)),
            u64s(rows, |r| Some(r.rounds)),
            strings(rows, |r| r.reason.as_deref()),
            strings(rows, |r| r.winners.as_deref()),
            i64s(rows, |r| Some(r.created_millis)),
        ]
    }
}

struct SeatRow {
    game_id: String,
    seat: u32,
    side: u32,
    occupant: String,
    name: Option<String>,
    bot: Option<String>,
    score: Option<i64>,
    won: Option<bool>,
    win_share: Option<f64>,
}

impl Row for SeatRow {
    fn schema() -> Schema {
        Schema::new(vec![
            field("game_id", DataType::Utf8, false),
            field("seat", DataType::UInt32, false),
            field("side", DataType::UInt32, false),
            field("occupant", DataType::Utf8, false),
            field("name", DataType::Utf8, true),
            field("bot", DataType::Utf8, true),
            field("score", DataType::Int64, true),
            field("won", DataType::Boolean, true),
            field("win_share", DataType::Float64, true),
        ])
    }

    fn columns(rows: &[SeatRow]) -> Vec<ArrayRef> {
        vec![
            strings(rows, |r| Some(&r.game_id)),
            u32s(rows, |r| Some(r.seat)),
            u32s(rows, |r| Some(r.side)),
            strings(rows, |r| Some(&r.occupant)),
            strings(rows, |r| r.name.as_deref()),
            strings(rows, |r| r.bot.as_deref()),
            i64s(rows, |r| r.score),
            Arc::new(rows.iter().map(|r| r.won).collect::<BooleanArray>()),
            Arc::new(rows.iter().map(|r| r.win_share).collect::<Float64Array>()),
        ]
    }
}

struct MoveRow {
    game_id: String,
    sequence: u64,
    round: u32,
    seat: u32,
    kind: String,
    tile: Option<String>,
    points: u32,
    notation: String,
    unix_millis: i64,
}

impl Row for MoveRow {
    fn schema() -> Schema {
        Schema::new(vec![
            field("game_id", DataType::Utf8, false),
            field("sequence", DataType::UInt64, false),
            field("round", DataType::UInt32, false),
            field("seat", DataType::UInt32, false),
            field("kind", DataType::Utf8, false),
            field("tile", DataType::Utf8, true),
            field("points", DataType::UInt32, false),
            field("notation", DataType::Utf8, false),
            field("unix_millis", DataType::Int64, false),
        ])
    }

    fn columns(rows: &[MoveRow]) -> Vec<ArrayRef> {
        vec![
            strings(rows, |r| Some(&r.game_id)),
            u64s(rows, |r| Some(r.sequence)),
            u32s(rows, |r| Some(r.round)),
            u32s(rows, |r| Some(r.seat)),
            strings(rows, |r| Some(&r.kind)),
            strings(rows, |r| r.tile.as_deref()),
            u32s(rows, |r| Some(r.points)),
            strings(rows, |r| Some(&r.notation)),
            i64s(rows, |r| Some(r.unix_millis)),
        ]
    }
}

struct RoundRow {
    game_id: String,
    round: u32,
    end: String,
    winner: Option<u32>,
    points: u32,
    scores: String,
}

impl Row for RoundRow {
    fn schema() -> Schema {
        Schema::new(vec![
            field("game_id", DataType::Utf8, false),
            field("round", DataType::UInt32, false),
            field("end", DataType::Utf8, false),
            field("winner", DataType::UInt32, true),
            field("points", DataType::UInt32, false),
            field("scores", DataType::Utf8, false),
        ])
    }

    fn columns(rows: &[RoundRow]) -> Vec<ArrayRef> {
        vec![
            strings(rows, |r| Some(&r.game_id)),
            u32s(rows, |r| Some(r.round)),
            strings(rows, |r| Some(&r.end)),
            u32s(rows, |r| r.winner),
            u32s(rows, |r| Some(r.points)),
            strings(rows, |r| Some(&r.scores)),
        ]
    }
}

/// One reviewed decision.
struct DecisionRow {
    game_id: String,
    level: String,
    sequence: u64,
    seat: u32,
    played: String,
    best: String,
    best_value: Option<f64>,
    played_value: Option<f64>,
    loss: Option<f64>,
    loss_stderr: Option<f64>,
    win_loss: Option<f64>,
    label: String,
    choices: u32,
}

fn decision_row(review: &pb::GameReview, d: &pb::DecisionReview) -> DecisionRow {
    let label = pb::MoveLabel::try_from(d.label).unwrap_or(pb::MoveLabel::Unspecified);
    let label = label.as_str_name().trim_start_matches("MOVE_LABEL_").to_ascii_lowercase();
    DecisionRow {
        game_id: review.game_id.clone(),
        level: review.level.clone(),
        sequence: d.sequence,
        seat: d.seat,
        played: d.played.clone(),
        best: d.best.clone(),
        best_value: d.best_value.map(|e| e.mean),
        played_value: d.played_value.map(|e| e.mean),
        loss: d.loss.map(|e| e.mean),
        loss_stderr: d.loss.map(|e| e.stderr),
        win_loss: d.win_loss.map(|e| e.mean),
        label,
        choices: d.choices,
    }
}

fn f64s<R>(rows: &[R], f: impl Fn(&R) -> Option<f64>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<Float64Array>())
}

impl Row for DecisionRow {
    fn schema() -> Schema {
        Schema::new(vec![
            field("game_id", DataType::Utf8, false),
            field("level", DataType::Utf8, false),
            field("sequence", DataType::UInt64, false),
            field("seat", DataType::UInt32, false),
            field("played", DataType::Utf8, false),
            field("best", DataType::Utf8, false),
            field("best_value", DataType::Float64, true),
            field("played_value", DataType::Float64, true),
            field("loss", DataType::Float64, true),
            field("loss_stderr", DataType::Float64, true),
            field("win_loss", DataType::Float64, true),
            field("label", DataType::Utf8, false),
            field("choices", DataType::UInt32, false),
        ])
    }

    fn columns(rows: &[DecisionRow]) -> Vec<ArrayRef> {
        vec![
            strings(rows, |r| Some(&r.game_id)),
            strings(rows, |r| Some(&r.level)),
            u64s(rows, |r| Some(r.sequence)),
            u32s(rows, |r| Some(r.seat)),
            strings(rows, |r| Some(&r.played)),
            strings(rows, |r| Some(&r.best)),
            f64s(rows, |r| r.best_value),
            f64s(rows, |r| r.played_value),
            f64s(rows, |r| r.loss),
            f64s(rows, |r| r.loss_stderr),
            f64s(rows, |r| r.win_loss),
            strings(rows, |r| Some(&r.label)),
            u32s(rows, |r| Some(r.choices)),
        ]
    }
}
