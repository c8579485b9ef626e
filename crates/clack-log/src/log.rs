//! A game as the fold of its events, and the one place where new events are made.
//!
//! [`GameLog::apply`] folds one stored event into the state: chance events and actions go to the
//! rules engine, and every *derived* event (the points of an action, a round's reckoning, the end
//! of the game) is recomputed and compared with what was stored. So replaying a log is also
//! verifying it, and a log that does not replay is reported, never half-loaded.
//!
//! New events are made by the `perform`-style methods, which build the events a move causes
//! (the action, what it scored, the deals and draws that follow) and fold each one in with the
//! same `apply`. There is no second code path that could drift from replay.

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::game::{self, Game, Turn};
use clack_rules::{Seat, straight};

use crate::clock::{Clocks, TimeControl, TimeoutPolicy};
use crate::convert::{self, FieldError, Table};

/// The version of the rules engine recorded in every new game.
pub const RULES_VERSION: &str = concat!("clack-rules ", env!("CARGO_PKG_VERSION"));

/// How far a game has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Open seats are still unclaimed.
    Waiting,
    Active,
    Finished,
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occupant {
    Open { name: Option<String> },
    Bot { bot_id: String, version: String },
}

/// A stored log that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the log is empty or does not start with GameCreated")]
    NoCreation,
    #[error("event {sequence} is out of order (expected {expected})")]
    Sequence { sequence: u64, expected: u64 },
    #[error("event {sequence} is malformed: {error}")]
    Malformed { sequence: u64, error: FieldError },
    #[error("event {sequence} does not fit the game: {error}")]
    Illegal { sequence: u64, error: game::GameError },
    #[error("event {sequence} disagrees with the rules: stored {stored}, rebuilt {rebuilt}")]
    Mismatch { sequence: u64, stored: String, rebuilt: String },
    #[error("event {sequence} is not expected here: {what}")]
    Unexpected { sequence: u64, what: &'static str },
}

/// Why a seat cannot be claimed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(u32),
    #[error("seat {0} is taken")]
    Taken(u32),
    #[error("every seat is taken")]
    Full,
    #[error("the game is over")]
    Over,
}

/// Why a game cannot be abandoned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AbandonError {
    #[error("the game has started: every seat is taken")]
    Started,
    #[error("the game is over")]
    Over,
}

/// Why no timeout can be recorded now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeoutError {
    #[error("no clock is running")]
    NotRunning,
    #[error("the clock runs until {deadline}")]
    Early { deadline: i64 },
    #[error(transparent)]
    Rules(#[from] game::GameError),
}

/// A game: its creation, its seats, the rules state, and how many events it has.
#[derive(Clone, Debug)]
pub struct GameLog {
    id: String,
    created: std::sync::Arc<pb::GameCreated>,
    created_millis: i64,
    /// When the last event was made (Unix milliseconds).
    last_millis: i64,
    game: Game,
    seats: Vec<Occupant>,
    sequence: u64,
    seed: u64,
    /// Derived events the last input implies and that must come next.
    expected: Vec<Payload>,
    resigned: Option<Seat>,
    /// Set once the game is called off before it started: it ends with no winners.
    abandoned: bool,
    /// The open seats' turn clocks, when the game has a time control.
    clocks: Option<Clocks>,
    /// A seat whose clock ran out under AUTO_MOVE: its first legal action must come next.
    owed_move: Option<Seat>,
    ended: Option<pb::GameEnded>,
    faults: u64,
    /// Every action so far with its points: the public history bots see.
    history: Vec<(Seat, game::Action, u32)>,
    /// Every chance outcome and action so far, in order: the whole game for an engine, which
    /// hides from each seat what it may not see.
    steps: Vec<game::Step>,
}

impl GameLog {
    /// A new game without clocks; see [`GameLog::create_timed`].
    pub fn create(
        id: &str,
        options: game::Options,
        seats: Vec<pb::SeatSpec>,
        seed: u64,
        now: i64,
    ) -> Result<(GameLog, Vec<pb::Event>), FieldError> {
        GameLog::create_timed(id, options, None, seats, seed, now)
    }

    /// A new game and its first events: `GameCreated`, then the deal (and for Straight
    /// Dominoes, the draw for the lead). The open seats are clocked if `clock` is given.
    pub fn create_timed(
        id: &str,
        options: game::Options,
        clock: Option<TimeControl>,
        seats: Vec<pb::SeatSpec>,
        seed: u64,
        now: i64,
    ) -> Result<(GameLog, Vec<pb::Event>), FieldError> {
        GameLog::create_at(id, options, Table { clock, bot_pace_millis: 0 }, seats, seed, now)
    }

    /// A new game at a table with clocks and a bots' pace; see [`GameLog::create_timed`].
    pub fn create_at(
        id: &str,
        options: game::Options,
        table: Table,
        seats: Vec<pb::SeatSpec>,
        seed: u64,
        now: i64,
    ) -> Result<(GameLog, Vec<pb::Event>), FieldError> {
        let created = creation(options, table, seats, seed, None)?;
        GameLog::open(id, created, now)
    }

    /// A new game that starts from a game as it stood after its event `sequence` (`parent`
    /// holds that game's events, at least up to there), with new seats, and its first events:
    /// `GameCreated` with the parent's events embedded, then whatever the position owes (a
    /// round's reckoning, a deal), with chance from this game's own `seed`. The position must
    /// still have a move to make: a game that is over (or owes its end) cannot be forked.
    pub fn fork(
        id: &str,
        parent: &[pb::Event],
        sequence: u64,
        seats: Vec<pb::SeatSpec>,
        seed: u64,
        now: i64,
    ) -> Result<(GameLog, Vec<pb::Event>), FieldError> {
        GameLog::fork_redealt(id, parent, sequence, seats, seed, now, None)
    }

    /// [`GameLog::fork`], with what one seat could not see re-dealt as `redeal` records (see
    /// [`crate::redeal`]).
    pub fn fork_redealt(
        id: &str,
        parent: &[pb::Event],
        sequence: u64,
        seats: Vec<pb::SeatSpec>,
        seed: u64,
        now: i64,
        redeal: Option<pb::Redeal>,
    ) -> Result<(GameLog, Vec<pb::Event>), FieldError> {
        let last = parent.len() as u64;
        if sequence == 0 || sequence > last {
            return Err(FieldError::new("sequence", format!("must be from 1 to {last}")));
        }
        let fork = pb::Fork {
            game_id: parent[0].game_id.clone(),
            sequence,
            events: parent[..sequence as usize].to_vec(),
            redeal,
        };
        let start = fork_start(&fork).map_err(|e| FieldError::new("sequence", e))?;
        // A fork keeps its parent's table (clocks, bots' pace) as well as its rules.
        let table = convert::table_from_proto(start.created.options.as_ref())?;
        let created = creation(start.game.options(), table, seats, seed, Some(fork))?;
        GameLog::open(id, created, now)
    }

    /// The games this one was forked from, nearest first: each parent's id and the sequence
    /// the fork started after. Empty for a game that is not a fork.
    pub fn fork_chain(&self) -> Vec<(String, u64)> {
        let mut chain = Vec::new();
        let mut created = &*self.created;
        while let Some(fork) = &created.fork {
            chain.push((fork.game_id.clone(), fork.sequence));
            match fork.events.first().and_then(|e| e.payload.as_ref()) {
                Some(Payload::GameCreated(parent)) => created = parent,
                _ => break,
            }
        }
        chain
    }

    /// Folds a new game's `GameCreated` in and records what follows it.
    fn open(id: &str, created: pb::GameCreated, now: i64) -> Result<(GameLog, Vec<pb::Event>), FieldError> {
        let first = envelope(id, 1, now, Payload::GameCreated(created));
        let mut log = GameLog::from_creation(&first).map_err(|e| FieldError::new("seats", e.to_string()))?;
        let mut events = vec![first];
        log.settle(now, &mut events).map_err(|e| FieldError::new("options", e.to_string()))?;
        Ok((log, events))
    }

    fn from_creation(event: &pb::Event) -> Result<GameLog, ReplayError> {
        let Some(Payload::GameCreated(created)) = &event.payload else { return Err(ReplayError::NoCreation) };
        if event.sequence != 1 {
            return Err(ReplayError::Sequence { sequence: event.sequence, expected: 1 });
        }
        let malformed = |error| ReplayError::Malformed { sequence: 1, error };
        let options = convert::options_from_proto(created.options.as_ref()).map_err(malformed)?;
        let (game, expected, history, steps) = match &created.fork {
            None => {
                let game = Game::new(options).map_err(|e| malformed(FieldError::new("options", e.to_string())))?;
                (game, Vec::new(), Vec::new(), Vec::new())
            }
            Some(fork) => {
                let start = fork_start(fork).map_err(|e| malformed(FieldError::new("fork", e)))?;
                if start.created.options != created.options || start.created.kind != created.kind {
                    return Err(malformed(FieldError::new("options", "a fork keeps its parent's options")));
                }
                (start.game, start.expected, start.history, start.steps)
            }
        };
        let seats = created.seats.iter().map(occupant).collect::<Result<Vec<_>, _>>().map_err(malformed)?;
        if seats.len() != usize::from(game.players()) {
            return Err(malformed(FieldError::new("seats", "one per player")));
        }
        let control = convert::table_from_proto(created.options.as_ref()).map_err(malformed)?.clock;
        let clocked = seats.iter().map(|s| matches!(s, Occupant::Open { .. }));
        let clocks = control.map(|control| Clocks::new(control, clocked, event.unix_millis));
        Ok(GameLog {
            id: event.game_id.clone(),
            created: std::sync::Arc::new(created.clone()),
            created_millis: event.unix_millis,
            last_millis: event.unix_millis,
            game,
            seats,
            sequence: 1,
            seed: created.seed.unwrap_or_default(),
            expected,
            resigned: None,
            abandoned: false,
            clocks,
            owed_move: None,
            ended: None,
            faults: 0,
            history,
            steps,
        })
    }

    /// The game as its first event creates it, for folding a log in step by step with
    /// [`apply`](GameLog::apply) (a replay that stops part way, as `GetStateAt` does). A whole
    /// log is read with [`replay`](GameLog::replay), which also checks that it is complete.
    pub fn begin(first: &pb::Event) -> Result<GameLog, ReplayError> {
        GameLog::from_creation(first)
    }

    /// Rebuilds a game from its whole log, checking every derived event on the way.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a pb::Event>) -> Result<GameLog, ReplayError> {
        let mut events = events.into_iter();
        let mut log = GameLog::from_creation(events.next().ok_or(ReplayError::NoCreation)?)?;
        for event in events {
            log.apply(event)?;
        }
        log.finish_replay()?;
        Ok(log)
    }

    /// Checks that a replay did not stop where an event was still owed: a derived one (a
    /// round's reckoning, the end), or a chance outcome. Every move is stored together with the
    /// deals and draws that follow it, so a log at rest never waits for the dealer; one that
    /// does has lost its tail, and loading it would leave a game nobody can move.
    pub fn finish_replay(&self) -> Result<(), ReplayError> {
        let owes_end = self.game.is_over() && self.ended.is_none();
        let owes_chance = self.game.turn() == Turn::Chance && self.ended.is_none();
        if !self.expected.is_empty() || owes_end || self.owed_move.is_some() || owes_chance {
            return Err(ReplayError::Unexpected { sequence: self.sequence + 1, what: "the log stops early" });
        }
        Ok(())
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn created(&self) -> &pb::GameCreated {
        &self.created
    }

    pub fn created_millis(&self) -> i64 {
        self.created_millis
    }

    /// When the last event was made, in Unix milliseconds: where a remote bot's time to move
    /// starts.
    pub fn last_millis(&self) -> i64 {
        self.last_millis
    }

    /// The sequence number of the last event.
    pub fn sequence(&self) -> u64 {
        self.sequence
    }

    pub fn seats(&self) -> &[Occupant] {
        &self.seats
    }

    pub fn ended(&self) -> Option<&pb::GameEnded> {
        self.ended.as_ref()
    }

    /// The least time between one bot action and the next, in milliseconds (0: none).
    pub fn bot_pace_millis(&self) -> u32 {
        self.created.options.as_ref().map_or(0, |o| o.bot_pace_millis)
    }

    /// The game's time control, if it has one.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.clocks.as_ref().map(Clocks::control)
    }

    /// Each clocked seat's time left at the start of the current turn (for a per-move clock,
    /// the whole allowance); empty without a time control.
    pub fn clocks(&self) -> Vec<(Seat, i64)> {
        let Some(clocks) = &self.clocks else { return Vec::new() };
        (0..self.game.players()).filter_map(|s| clocks.remaining(usize::from(s)).map(|left| (Seat(s), left))).collect()
    }

    /// The seat whose clock runs now and when it runs out (Unix milliseconds): only while the
    /// game is active and an open seat of a clocked game is to act.
    pub fn deadline(&self) -> Option<(Seat, i64)> {
        let seat = self.seat_to_act()?;
        Some((seat, self.clocks.as_ref()?.deadline(seat.index())?))
    }

    pub fn faults(&self) -> u64 {
        self.faults
    }

    /// Every action so far, who took it and what it scored.
    /// Every chance outcome and action so far. It holds every hidden tile: for engines and
    /// analysis, never for a seat's view.
    pub fn steps(&self) -> &[game::Step] {
        &self.steps
    }

    /// The game's seed (hidden from viewers until the game ends).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn history(&self) -> &[(Seat, game::Action, u32)] {
        &self.history
    }

    pub fn status(&self) -> Status {
        if self.ended.is_some() {
            Status::Finished
        } else if self.seats.iter().any(|s| matches!(s, Occupant::Open { name: None })) {
            Status::Waiting
        } else {
            Status::Active
        }
    }

    /// The seat to act, if any, while the game is on.
    pub fn to_move(&self) -> Option<Seat> {
        match self.game.turn() {
            Turn::Seat { seat } if self.ended.is_none() => Some(seat),
            _ => None,
        }
    }

    /// The seat that may act now: the seat to move, once every seat is taken. A game waiting for
    /// players has not started: nobody acts in it, bots included, and no clock runs (its deal
    /// is in the log from the start, but the first move waits for the last seat).
    pub fn seat_to_act(&self) -> Option<Seat> {
        self.to_move().filter(|_| self.status() == Status::Active)
    }

    /// Folds one stored event in, or says why it does not fit.
    pub fn apply(&mut self, event: &pb::Event) -> Result<(), ReplayError> {
        let sequence = event.sequence;
        if sequence != self.sequence + 1 {
            return Err(ReplayError::Sequence { sequence, expected: self.sequence + 1 });
        }
        let payload = event.payload.as_ref().ok_or(ReplayError::Unexpected { sequence, what: "an empty event" })?;
        if let Some(expected) = self.expected.first() {
            if expected != payload {
                return Err(mismatch(sequence, expected, payload));
            }
            self.expected.remove(0);
            self.fold_derived(payload);
        } else {
            self.fold_input(sequence, event.unix_millis, payload)?;
        }
        self.sequence = sequence;
        self.last_millis = event.unix_millis;
        if let Some(clocks) = &mut self.clocks {
            clocks.passed(event.unix_millis);
        }
        Ok(())
    }

    fn fold_derived(&mut self, payload: &Payload) {
        if let Payload::GameEnded(ended) = payload {
            self.ended = Some(ended.clone());
        }
    }

    fn fold_input(&mut self, sequence: u64, at: i64, payload: &Payload) -> Result<(), ReplayError> {
        let malformed = |error| ReplayError::Malformed { sequence, error };
        let illegal = |error| ReplayError::Illegal { sequence, error };
        if self.ended.is_some() && !matches!(payload, Payload::BotFaulted(_)) {
            return Err(ReplayError::Unexpected { sequence, what: "an event after the end" });
        }
        if self.owed_move.is_some() && !matches!(payload, Payload::ActionApplied(_)) {
            return Err(ReplayError::Unexpected { sequence, what: "anything but the move owed after a timeout" });
        }
        match payload {
            Payload::GameCreated(_) => return Err(ReplayError::Unexpected { sequence, what: "a second GameCreated" }),
            Payload::SeatJoined(joined) => {
                let seat = self.seats.get_mut(joined.seat as usize);
                match seat {
                    Some(Occupant::Open { name: name @ None }) => *name = Some(joined.name.clone()),
                    _ => return Err(ReplayError::Unexpected { sequence, what: "a join of a seat that is not open" }),
                }
            }
            Payload::ActionApplied(applied) => {
                let seat =
                    Seat(u8::try_from(applied.seat).map_err(|_| malformed(FieldError::new("seat", "too large")))?);
                let action = convert::stored_action(applied.action.as_ref(), &self.game).map_err(malformed)?;
                if let Some(owed) = self.owed_move {
                    self.check_auto_move(sequence, owed, seat, action)?;
                }
                let effects = self.game.apply(seat, action).map_err(illegal)?;
                if effects.scored() != applied.points {
                    let rebuilt = format!("{} points", effects.scored());
                    return Err(ReplayError::Mismatch {
                        sequence,
                        stored: format!("{} points", applied.points),
                        rebuilt,
                    });
                }
                self.owed_move = None;
                if let Some(clocks) = &mut self.clocks {
                    clocks.charge(seat.index(), at, true);
                }
                self.history.push((seat, action, applied.points));
                self.steps.push(game::Step::Act(seat, action));
                self.expect_after(&effects);
            }
            Payload::LeadDrawn(_) | Payload::Dealt(_) | Payload::TileDrawn(_) => {
                let chance = convert::chance_from_payload(payload, &self.game)
                    .map_err(malformed)?
                    .ok_or(ReplayError::Unexpected { sequence, what: "a chance event of the other game" })?;
                // The payload is rebuilt from the seat that drew, read before the draw, and the
                // game after it: no copy of the whole state (a Streets board is kilobytes).
                let drawer = self.game.drawing_seat();
                self.game.apply_chance(chance.clone()).map_err(illegal)?;
                let rebuilt = convert::chance_payload(&chance, drawer, &self.game);
                if &rebuilt != payload {
                    return Err(mismatch(sequence, &rebuilt, payload));
                }
                self.steps.push(game::Step::Chance(chance));
                self.expect_end();
            }
            Payload::BotFaulted(_) => self.faults += 1,
            Payload::SeatResigned(resigned) => {
                let seat = u8::try_from(resigned.seat).ok().filter(|&s| s < self.game.players());
                let seat = seat.ok_or(malformed(FieldError::new("seat_resigned.seat", "no such seat")))?;
                self.concede(Seat(seat), "resigned");
            }
            Payload::SeatTimedOut(timed_out) => self.fold_timeout(sequence, at, timed_out)?,
            Payload::GameAbandoned(_) => {
                if self.status() != Status::Waiting {
                    return Err(ReplayError::Unexpected {
                        sequence,
                        what: "an abandonment of a game that has started",
                    });
                }
                self.abandoned = true;
                self.expected.push(Payload::GameEnded(self.end_payload("abandoned")));
            }
            Payload::RoundEnded(_) | Payload::GameEnded(_) => {
                return Err(ReplayError::Unexpected { sequence, what: "a result no move led to" });
            }
        }
        Ok(())
    }

    /// A seat's side gives up the game (it resigned, or its clock ran out under FORFEIT): the
    /// end follows, the other sides winning.
    fn concede(&mut self, seat: Seat, reason: &str) {
        self.resigned = Some(seat);
        self.expected.push(Payload::GameEnded(self.end_payload(reason)));
    }

    /// Checks a stored timeout against the clocks: the seat was to act, its deadline had passed
    /// by the event's time, and the policy is the game's. Then applies the policy.
    fn fold_timeout(&mut self, sequence: u64, at: i64, timed_out: &pb::SeatTimedOut) -> Result<(), ReplayError> {
        let unexpected = |what| ReplayError::Unexpected { sequence, what };
        let (seat, deadline) = self.deadline().ok_or(unexpected("a timeout with no clock running"))?;
        if timed_out.seat != u32::from(seat.0) {
            return Err(unexpected("a timeout of a seat that was not to act"));
        }
        if at < deadline {
            return Err(unexpected("a timeout before the deadline"));
        }
        let policy = self.time_control().map(|c| c.policy).ok_or(unexpected("a timeout with no clock running"))?;
        let rebuilt =
            pb::SeatTimedOut { seat: timed_out.seat, policy: convert::timeout_policy_to_proto(policy) as i32 };
        if &rebuilt != timed_out {
            return Err(mismatch(sequence, &Payload::SeatTimedOut(rebuilt), &Payload::SeatTimedOut(*timed_out)));
        }
        if let Some(clocks) = &mut self.clocks {
            clocks.charge(seat.index(), at, false);
        }
        match policy {
            TimeoutPolicy::AutoMove => self.owed_move = Some(seat),
            TimeoutPolicy::Forfeit => self.concede(seat, "timed_out"),
        }
        Ok(())
    }

    /// The action played for a seat that timed out must be its first legal action.
    fn check_auto_move(&self, sequence: u64, owed: Seat, seat: Seat, action: game::Action) -> Result<(), ReplayError> {
        let first = self.game.legal_actions().first().copied();
        if seat != owed || first != Some(action) {
            return Err(ReplayError::Mismatch {
                sequence,
                stored: format!("seat {} plays {action}", seat.0),
                rebuilt: format!("seat {} plays {}", owed.0, first.map_or_else(|| "nothing".into(), |a| a.to_string())),
            });
        }
        Ok(())
    }

    /// After an action: the round's reckoning if it ended one, then the end of the game.
    fn expect_after(&mut self, effects: &game::Effects) {
        if let game::Effects::Straight(straight::Effects { round: Some(round), .. }) = effects {
            self.expected.push(Payload::RoundEnded(round_payload(round, &self.game)));
        }
        self.expect_end();
    }

    fn expect_end(&mut self) {
        if self.game.is_over() && self.ended.is_none() {
            self.expected.push(Payload::GameEnded(self.end_payload("played_out")));
        }
    }

    fn end_payload(&self, reason: &str) -> pb::GameEnded {
        let (penalties, hands) = match &self.game {
            Game::Streets(g) => match g.outcome() {
                Some(o) => (o.penalties.iter().map(|&p| i64::from(p)).collect(), o.hands.clone()),
                None => (Vec::new(), self.game.hands()),
            },
            Game::Straight(_) => (Vec::new(), self.game.hands()),
        };
        let winners = match self.resigned {
            _ if self.abandoned => Vec::new(),
            Some(resigned) => self.winners_without(resigned),
            None => self.game.winners(),
        };
        pb::GameEnded {
            winners: winners.iter().map(|s| u32::from(s.0)).collect(),
            scores: self.game.scores(),
            penalties,
            hands: convert::hands_to_proto(hands),
            reason: reason.to_owned(),
        }
    }

    /// After a resignation: the best-scoring seats of the other sides.
    fn winners_without(&self, resigned: Seat) -> Vec<Seat> {
        let side = |seat: Seat| match &self.game {
            Game::Straight(g) => g.options().side(seat),
            Game::Streets(_) => seat.index(),
        };
        let scores = self.game.scores();
        let others: Vec<Seat> = (0..self.game.players()).map(Seat).filter(|&s| side(s) != side(resigned)).collect();
        let best = others.iter().map(|&s| scores[side(s)]).max().unwrap_or(0);
        others.into_iter().filter(|&s| scores[side(s)] == best).collect()
    }

    /// The events a seat's action causes, folded in; the game is unchanged if the action is
    /// illegal.
    pub fn perform(&mut self, seat: Seat, action: game::Action, now: i64) -> Result<Vec<pb::Event>, game::GameError> {
        let mut events = Vec::new();
        self.play(seat, action, now, &mut events)?;
        Ok(events)
    }

    /// Records the clock of the seat to act running out, if its deadline has passed by `now`,
    /// and what the game's policy makes of it: the seat's first legal action played for it, or
    /// its side's defeat.
    pub fn time_out(&mut self, now: i64) -> Result<Vec<pb::Event>, TimeoutError> {
        let (seat, deadline) = self.deadline().ok_or(TimeoutError::NotRunning)?;
        let policy = self.time_control().ok_or(TimeoutError::NotRunning)?.policy;
        if now < deadline {
            return Err(TimeoutError::Early { deadline });
        }
        let first = self.game.legal_actions().first().copied();
        let auto_move = match policy {
            TimeoutPolicy::AutoMove => Some(first.ok_or(game_over(&self.game))?),
            TimeoutPolicy::Forfeit => None,
        };
        let payload =
            pb::SeatTimedOut { seat: u32::from(seat.0), policy: convert::timeout_policy_to_proto(policy) as i32 };
        let mut events = Vec::new();
        self.record(Payload::SeatTimedOut(payload), now, &mut events);
        match auto_move {
            Some(action) => self.play(seat, action, now, &mut events)?,
            None => self.drain_expected(now, &mut events),
        }
        Ok(events)
    }

    /// Records a seat's action and what follows it; nothing changes if the action is illegal.
    fn play(
        &mut self,
        seat: Seat,
        action: game::Action,
        now: i64,
        events: &mut Vec<pb::Event>,
    ) -> Result<(), game::GameError> {
        if self.ended.is_some() {
            return Err(game_over(&self.game));
        }
        let mut probe = self.game.clone();
        let effects = probe.apply(seat, action)?;
        let applied = pb::ActionApplied {
            seat: u32::from(seat.0),
            action: Some(convert::action_to_proto(action)),
            points: effects.scored(),
        };
        self.record(Payload::ActionApplied(applied), now, events);
        self.settle(now, events)
    }

    /// Claims a seat (the lowest open one if `seat` is `None`).
    pub fn join(&mut self, seat: Option<u32>, name: &str, now: i64) -> Result<(Seat, pb::Event), JoinError> {
        if self.ended.is_some() {
            return Err(JoinError::Over);
        }
        let open = |o: &Occupant| matches!(o, Occupant::Open { name: None });
        let index = match seat {
            Some(s) => match self.seats.get(s as usize) {
                None => return Err(JoinError::NoSuchSeat(s)),
                Some(o) if !open(o) => return Err(JoinError::Taken(s)),
                Some(_) => s as usize,
            },
            None => self.seats.iter().position(open).ok_or(JoinError::Full)?,
        };
        let payload = Payload::SeatJoined(pb::SeatJoined { seat: index as u32, name: name.to_owned() });
        let mut events = Vec::new();
        self.record(payload, now, &mut events);
        Ok((Seat(index as u8), events.remove(0)))
    }

    /// A seat gives up; the game ends.
    pub fn resign(&mut self, seat: Seat, now: i64) -> Result<Vec<pb::Event>, game::GameError> {
        if self.ended.is_some() {
            return Err(game_over(&self.game));
        }
        let mut events = Vec::new();
        self.record(Payload::SeatResigned(pb::SeatResigned { seat: u32::from(seat.0) }), now, &mut events);
        self.drain_expected(now, &mut events);
        Ok(events)
    }

    /// Calls off a game that has not started (some seat is still open): a `GameAbandoned`
    /// event with `reason`, then the end of the game with no winners. Cancelling a game and
    /// giving up on one nobody joined are this same ending.
    pub fn abandon(&mut self, reason: &str, now: i64) -> Result<Vec<pb::Event>, AbandonError> {
        match self.status() {
            Status::Finished => return Err(AbandonError::Over),
            Status::Active => return Err(AbandonError::Started),
            Status::Waiting => {}
        }
        let mut events = Vec::new();
        self.record(Payload::GameAbandoned(pb::GameAbandoned { reason: reason.to_owned() }), now, &mut events);
        self.drain_expected(now, &mut events);
        Ok(events)
    }

    /// Records that a bot failed to choose (the fallback action is performed separately).
    pub fn fault(&mut self, fault: pb::BotFaulted, now: i64) -> pb::Event {
        let mut events = Vec::new();
        self.record(Payload::BotFaulted(fault), now, &mut events);
        events.remove(0)
    }

    /// Appends one event made here and folds it in. Events made here always fold.
    fn record(&mut self, payload: Payload, now: i64, out: &mut Vec<pb::Event>) {
        let event = envelope(&self.id, self.sequence + 1, now, payload);
        if let Err(error) = self.apply(&event) {
            unreachable!("an event made by the log must fold into it: {error}");
        }
        out.push(event);
    }

    fn drain_expected(&mut self, now: i64, out: &mut Vec<pb::Event>) {
        while let Some(payload) = self.expected.first().cloned() {
            self.record(payload, now, out);
        }
    }

    /// Records what follows a move: derived results, then chance outcomes dealt by round from
    /// the seed (each round's deal and its boneyard's order from the seed and the round, so
    /// games of one seed share their tiles however they are played), until a seat is to act or
    /// the game is over.
    fn settle(&mut self, now: i64, out: &mut Vec<pb::Event>) -> Result<(), game::GameError> {
        loop {
            self.drain_expected(now, out);
            if self.game.turn() != Turn::Chance || self.ended.is_some() {
                return Ok(());
            }
            let Some(chance) = clack_rules::chance::by_round(self.seed, &self.game) else { return Ok(()) };
            let mut after = self.game.clone();
            after.apply_chance(chance.clone())?;
            let payload = convert::chance_to_payload(&chance, &self.game, &after);
            self.record(payload, now, out);
        }
    }
}

/// A new game's `GameCreated`, with one seat for each player (all open if none are given).
fn creation(
    options: game::Options,
    table: Table,
    seats: Vec<pb::SeatSpec>,
    seed: u64,
    fork: Option<pb::Fork>,
) -> Result<pb::GameCreated, FieldError> {
    let players = usize::from(options.players());
    let seats = if seats.is_empty() { vec![open_seat(); players] } else { seats };
    if seats.len() != players {
        return Err(FieldError::new("seats", format!("give one seat for each of the {players} players, or none")));
    }
    Ok(pb::GameCreated {
        kind: convert::kind_to_proto(options.kind()) as i32,
        options: Some(pb::GameOptions {
            time_control: table.clock.map(convert::time_control_to_proto),
            bot_pace_millis: table.bot_pace_millis,
            ..convert::options_to_proto(options)
        }),
        seats,
        seed: Some(seed),
        rules_version: RULES_VERSION.to_owned(),
        fork,
    })
}

/// The parent game as it stood at a fork point, rebuilt from the events the fork embeds; refused
/// unless those are the parent's events 1 to `sequence` and the parent still had a move to make.
fn fork_start(fork: &pb::Fork) -> Result<GameLog, String> {
    let mut events = fork.events.iter();
    let first = events.next().ok_or("the fork holds none of its parent's events")?;
    if first.game_id != fork.game_id {
        return Err(format!("the embedded events are of game {}, not {}", first.game_id, fork.game_id));
    }
    let mut parent = GameLog::from_creation(first).map_err(|e| e.to_string())?;
    for event in events {
        parent.apply(event).map_err(|e| format!("the parent's log does not replay: {e}"))?;
    }
    if parent.sequence != fork.sequence {
        return Err(format!("the fork holds the parent's events up to {}, not {}", parent.sequence, fork.sequence));
    }
    let over = parent.ended.is_some() || parent.resigned.is_some() || parent.abandoned || parent.game.is_over();
    if over {
        return Err(format!("the game is over after event {}: fork at an earlier event", fork.sequence));
    }
    if let Some(redeal) = &fork.redeal {
        if !parent.expected.is_empty() || !matches!(parent.game.turn(), Turn::Seat { .. }) {
            return Err(format!("no seat is to move after event {}: re-deal at a seat's turn", fork.sequence));
        }
        let (game, steps) = crate::redeal::rebuild(parent.game.options(), &parent.steps, redeal)?;
        parent.game = game;
        parent.steps = steps;
    }
    Ok(parent)
}

fn game_over(game: &Game) -> game::GameError {
    match game {
        Game::Straight(_) => straight::IllegalAction::GameOver.into(),
        Game::Streets(_) => clack_rules::streets::IllegalAction::GameOver.into(),
    }
}

fn mismatch(sequence: u64, expected: &Payload, stored: &Payload) -> ReplayError {
    ReplayError::Mismatch { sequence, stored: format!("{stored:?}"), rebuilt: format!("{expected:?}") }
}

fn open_seat() -> pb::SeatSpec {
    pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat {})) }
}

fn occupant(spec: &pb::SeatSpec) -> Result<Occupant, FieldError> {
    match &spec.occupant {
        None | Some(pb::seat_spec::Occupant::Open(_)) => Ok(Occupant::Open { name: None }),
        Some(pb::seat_spec::Occupant::Bot(bot)) if bot.bot_id.is_empty() || bot.version.is_empty() => {
            Err(FieldError::new("seats.bot", "a bot seat needs bot_id and version"))
        }
        Some(pb::seat_spec::Occupant::Bot(bot)) => {
            Ok(Occupant::Bot { bot_id: bot.bot_id.clone(), version: bot.version.clone() })
        }
    }
}

/// A Straight Dominoes round's reckoning as an event payload (scores as they stand in `game`).
pub fn round_payload(round: &straight::RoundResult, game: &Game) -> pb::RoundEnded {
    let end = match round.end {
        straight::RoundEnd::Domino { .. } => pb::RoundEnd::Domino,
        straight::RoundEnd::Blocked => pb::RoundEnd::Blocked,
        straight::RoundEnd::TargetReached => pb::RoundEnd::TargetReached,
    };
    pb::RoundEnded {
        round: round.round,
        end: end as i32,
        winner: round.winner.map(|s| u32::from(s.0)),
        points: round.points,
        hands: convert::hands_to_proto(round.hands.iter().copied()),
        scores: game.scores(),
    }
}

/// Wraps a payload in its envelope.
pub fn envelope(game_id: &str, sequence: u64, unix_millis: i64, payload: Payload) -> pb::Event {
    pb::Event { game_id: game_id.to_owned(), sequence, unix_millis, payload: Some(payload) }
}
