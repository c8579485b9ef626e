//! Conversions between the rules' types and the protobuf messages of `clack.v1`.
//!
//! Everything that comes from a client is checked here, field by field, and a bad field is
//! reported by its path (`action.straight.tile`), so the server can answer INVALID_ARGUMENT with
//! a message that names it. Conversions of what the server itself wrote (stored events) report
//! [`FieldError`] too; replay turns those into data loss.

use clack_proto::v1 as pb;
use clack_rules::game::{self, Game, Kind};
use clack_rules::straight::{self, Arm, BlockedScoring, SpinnerRule, WireAction, WireKind};
use clack_rules::streets::{self, DominoSet, Spot};
use clack_rules::{Seat, Tile, TileSet};

use crate::clock::{Allowance, TimeControl, TimeoutPolicy};

/// A field that does not hold an acceptable value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError { field: field.into(), message: message.into() }
    }
}

pub fn tile_to_proto(tile: Tile) -> pb::Tile {
    pb::Tile { low: u32::from(tile.lo()), high: u32::from(tile.hi()) }
}

pub fn tile_from_proto(tile: Option<&pb::Tile>, field: &str) -> Result<Tile, FieldError> {
    let tile = tile.ok_or_else(|| FieldError::new(field, "a tile is required"))?;
    let half = |n: u32| u8::try_from(n).ok().filter(|&n| n <= clack_rules::tile::MAX_PIPS);
    match (half(tile.low), half(tile.high)) {
        (Some(a), Some(b)) => Tile::new(a, b).ok_or_else(|| FieldError::new(field, "not a tile")),
        _ => Err(FieldError::new(field, "each half must be a number from 0 to 12")),
    }
}

pub fn tiles_to_proto(set: TileSet) -> Vec<pb::Tile> {
    set.iter().map(tile_to_proto).collect()
}

/// Hands in seat order (the first is seat 0), every tile shown.
pub fn hands_to_proto(hands: impl IntoIterator<Item = TileSet>) -> Vec<pb::Hand> {
    hands
        .into_iter()
        .enumerate()
        .map(|(seat, tiles)| pb::Hand { seat: seat as u32, tiles: tiles_to_proto(tiles), count: tiles.len() as u32 })
        .collect()
}

pub fn tiles_from_proto(tiles: &[pb::Tile], field: &str) -> Result<TileSet, FieldError> {
    tiles.iter().map(|t| tile_from_proto(Some(t), field)).collect()
}

pub fn kind_to_proto(kind: Kind) -> pb::GameKind {
    match kind {
        Kind::Straight => pb::GameKind::Straight,
        Kind::Streets => pb::GameKind::Streets,
    }
}

/// A game kind used as a filter: `None` for unspecified.
pub fn kind_filter(value: i32, field: &str) -> Result<Option<Kind>, FieldError> {
    match pb::GameKind::try_from(value) {
        Ok(pb::GameKind::Unspecified) => Ok(None),
        Ok(pb::GameKind::Straight) => Ok(Some(Kind::Straight)),
        Ok(pb::GameKind::Streets) => Ok(Some(Kind::Streets)),
        Err(_) => Err(FieldError::new(field, format!("unknown game kind {value}"))),
    }
}

fn enum_value<E: TryFrom<i32>>(value: i32, field: &str) -> Result<E, FieldError> {
    E::try_from(value).map_err(|_| FieldError::new(field, format!("unknown value {value}")))
}

fn small(value: Option<u32>, default: u8, field: &str) -> Result<u8, FieldError> {
    value.map_or(Ok(default), |v| u8::try_from(v).map_err(|_| FieldError::new(field, "too large")))
}

/// Resolves requested options: unset fields take the rules file's defaults; the result is
/// validated by the rules.
pub fn options_from_proto(options: Option<&pb::GameOptions>) -> Result<game::Options, FieldError> {
    use pb::game_options::Rules;
    let rules = options.and_then(|o| o.rules.as_ref());
    let options = match rules {
        None => return Err(FieldError::new("options", "choose a game: set options.straight or options.streets")),
        Some(Rules::Straight(o)) => game::Options::Straight(straight_options(o)?),
        Some(Rules::Streets(o)) => game::Options::Streets(streets_options(o)?),
    };
    Game::new(options).map_err(|e| FieldError::new("options", e.to_string()))?;
    Ok(options)
}

fn straight_options(o: &pb::StraightOptions) -> Result<straight::Options, FieldError> {
    let d = straight::Options::default();
    let spinner = match enum_value(o.spinner, "options.straight.spinner")? {
        pb::SpinnerRule::Unspecified => d.spinner,
        pb::SpinnerRule::FirstTile => SpinnerRule::FirstTile,
        pb::SpinnerRule::FirstDouble => SpinnerRule::FirstDouble,
        pb::SpinnerRule::None => SpinnerRule::None,
    };
    let blocked_scoring = match enum_value(o.blocked_scoring, "options.straight.blocked_scoring")? {
        pb::BlockedScoring::Unspecified => d.blocked_scoring,
        pb::BlockedScoring::Net => BlockedScoring::Net,
        pb::BlockedScoring::Opponents => BlockedScoring::Opponents,
    };
    Ok(straight::Options {
        players: small(o.players, d.players, "options.straight.players")?,
        teams: o.teams.unwrap_or(d.teams),
        boneyard_reserve: small(o.boneyard_reserve, d.boneyard_reserve, "options.straight.boneyard_reserve")?,
        spinner,
        spinner_sides_open_immediately: o.spinner_sides_open_immediately.unwrap_or(d.spinner_sides_open_immediately),
        may_draw_when_able: o.may_draw_when_able.unwrap_or(d.may_draw_when_able),
        blocked_scoring,
        target: o.target.unwrap_or(d.target),
        finish_round_at_target: o.finish_round_at_target.unwrap_or(d.finish_round_at_target),
    })
}

fn streets_options(o: &pb::StreetsOptions) -> Result<streets::Options, FieldError> {
    let d = streets::Options::default();
    let set = match enum_value(o.set, "options.streets.set")? {
        pb::DominoSet::Unspecified => d.set,
        pb::DominoSet::DoubleNine => DominoSet::DoubleNine,
        pb::DominoSet::DoubleTwelve => DominoSet::DoubleTwelve,
    };
    Ok(streets::Options {
        set,
        players: small(o.players, d.players, "options.streets.players")?,
        may_pass_when_able: o.may_pass_when_able.unwrap_or(d.may_pass_when_able),
    })
}

/// Options with every field set, as stored in `GameCreated`.
pub fn options_to_proto(options: game::Options) -> pb::GameOptions {
    use pb::game_options::Rules;
    let rules = match options {
        game::Options::Straight(o) => Rules::Straight(pb::StraightOptions {
            players: Some(u32::from(o.players)),
            teams: Some(o.teams),
            boneyard_reserve: Some(u32::from(o.boneyard_reserve)),
            spinner: match o.spinner {
                SpinnerRule::FirstTile => pb::SpinnerRule::FirstTile,
                SpinnerRule::FirstDouble => pb::SpinnerRule::FirstDouble,
                SpinnerRule::None => pb::SpinnerRule::None,
            } as i32,
            spinner_sides_open_immediately: Some(o.spinner_sides_open_immediately),
            may_draw_when_able: Some(o.may_draw_when_able),
            blocked_scoring: match o.blocked_scoring {
                BlockedScoring::Net => pb::BlockedScoring::Net,
                BlockedScoring::Opponents => pb::BlockedScoring::Opponents,
            } as i32,
            target: Some(o.target),
            finish_round_at_target: Some(o.finish_round_at_target),
        }),
        game::Options::Streets(o) => Rules::Streets(pb::StreetsOptions {
            set: match o.set {
                DominoSet::DoubleNine => pb::DominoSet::DoubleNine,
                DominoSet::DoubleTwelve => pb::DominoSet::DoubleTwelve,
            } as i32,
            players: Some(u32::from(o.players)),
            may_pass_when_able: Some(o.may_pass_when_able),
        }),
    };
    pb::GameOptions { rules: Some(rules), time_control: None, bot_pace_millis: 0 }
}

/// The longest allowance a clock may have: a week. It keeps deadlines far from overflow.
const MAX_CLOCK_MILLIS: u64 = 7 * 24 * 60 * 60 * 1000;

fn clock_millis(value: u64, field: &str, zero_allowed: bool) -> Result<i64, FieldError> {
    if value == 0 && !zero_allowed {
        return Err(FieldError::new(field, "must be at least 1 millisecond"));
    }
    if value > MAX_CLOCK_MILLIS {
        return Err(FieldError::new(field, format!("at most {MAX_CLOCK_MILLIS} (a week)")));
    }
    Ok(value as i64)
}

/// The longest pace a game's bots may be given: ten seconds between bot actions.
pub const MAX_BOT_PACE_MILLIS: u32 = 10_000;

/// How a table runs, beside the rules: the open seats' clocks and the pace of its bots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub clock: Option<TimeControl>,
    /// The least time between one bot action and the next (0: none).
    pub bot_pace_millis: u32,
}

/// The requested (or stored) table settings: the time control and the bots' pace.
pub fn table_from_proto(options: Option<&pb::GameOptions>) -> Result<Table, FieldError> {
    let clock = time_control_from_proto(options)?;
    let bot_pace_millis = options.map_or(0, |o| o.bot_pace_millis);
    if bot_pace_millis > MAX_BOT_PACE_MILLIS {
        let message = format!("at most {MAX_BOT_PACE_MILLIS} milliseconds");
        return Err(FieldError::new("options.bot_pace_millis", message));
    }
    Ok(Table { clock, bot_pace_millis })
}

/// The requested (or stored) time control, if any; an unspecified policy is AUTO_MOVE.
pub fn time_control_from_proto(options: Option<&pb::GameOptions>) -> Result<Option<TimeControl>, FieldError> {
    use pb::time_control::Clock;
    let Some(control) = options.and_then(|o| o.time_control.as_ref()) else { return Ok(None) };
    let allowance = match &control.clock {
        None => {
            let message = "set per_move_millis or fischer (or leave time_control out)";
            return Err(FieldError::new("options.time_control.clock", message));
        }
        Some(Clock::PerMoveMillis(millis)) => {
            Allowance::PerMove { millis: clock_millis(*millis, "options.time_control.per_move_millis", false)? }
        }
        Some(Clock::Fischer(f)) => Allowance::Fischer {
            initial: clock_millis(f.initial_millis, "options.time_control.fischer.initial_millis", false)?,
            increment: clock_millis(f.increment_millis, "options.time_control.fischer.increment_millis", true)?,
        },
    };
    let policy = match enum_value(control.on_timeout, "options.time_control.on_timeout")? {
        pb::TimeoutPolicy::Unspecified | pb::TimeoutPolicy::AutoMove => TimeoutPolicy::AutoMove,
        pb::TimeoutPolicy::Forfeit => TimeoutPolicy::Forfeit,
    };
    Ok(Some(TimeControl { allowance, policy }))
}

pub fn timeout_policy_to_proto(policy: TimeoutPolicy) -> pb::TimeoutPolicy {
    match policy {
        TimeoutPolicy::AutoMove => pb::TimeoutPolicy::AutoMove,
        TimeoutPolicy::Forfeit => pb::TimeoutPolicy::Forfeit,
    }
}

/// A time control with every field set, as stored in `GameCreated`.
pub fn time_control_to_proto(control: TimeControl) -> pb::TimeControl {
    use pb::time_control::Clock;
    let clock = match control.allowance {
        Allowance::PerMove { millis } => Clock::PerMoveMillis(millis as u64),
        Allowance::Fischer { initial, increment } => {
            Clock::Fischer(pb::FischerClock { initial_millis: initial as u64, increment_millis: increment as u64 })
        }
    };
    pb::TimeControl { clock: Some(clock), on_timeout: timeout_policy_to_proto(control.policy) as i32 }
}

fn arm_to_proto(arm: Arm) -> pb::Arm {
    match arm {
        Arm::West => pb::Arm::West,
        Arm::East => pb::Arm::East,
        Arm::North => pb::Arm::North,
        Arm::South => pb::Arm::South,
    }
}

fn arm_from_proto(value: i32, field: &str) -> Result<Option<Arm>, FieldError> {
    Ok(match enum_value(value, field)? {
        pb::Arm::Unspecified => None,
        pb::Arm::West => Some(Arm::West),
        pb::Arm::East => Some(Arm::East),
        pb::Arm::North => Some(Arm::North),
        pb::Arm::South => Some(Arm::South),
    })
}

pub fn spot_to_proto(spot: Spot) -> pb::Spot {
    let at = match spot {
        Spot::Avenue { column, row } => pb::spot::At::Avenue(pb::Avenue { column, row }),
        Spot::Street { gap, half_row } => pb::spot::At::Street(pb::Street { gap, half_row }),
    };
    pb::Spot { at: Some(at) }
}

fn spot_from_proto(spot: Option<&pb::Spot>, field: &str) -> Result<Spot, FieldError> {
    match spot.and_then(|s| s.at.as_ref()) {
        Some(pb::spot::At::Avenue(a)) => Ok(Spot::Avenue { column: a.column, row: a.row }),
        Some(pb::spot::At::Street(s)) => Ok(Spot::Street { gap: s.gap, half_row: s.half_row }),
        None => Err(FieldError::new(field, "set avenue or street")),
    }
}

/// The stored form of an action: every field resolved.
pub fn action_to_proto(action: game::Action) -> pb::Action {
    use pb::straight_action::Kind as S;
    use pb::streets_action::Kind as T;
    let game = match action {
        game::Action::Straight(a) => {
            let (kind, tile, arm, matched) = match a {
                straight::Action::Lead { tile } => (S::Lead, Some(tile), None, None),
                straight::Action::Play { tile, arm, matched } => (S::Play, Some(tile), Some(arm), Some(matched)),
                straight::Action::Draw => (S::Draw, None, None, None),
                straight::Action::Pass => (S::Pass, None, None, None),
            };
            pb::action::Game::Straight(pb::StraightAction {
                kind: kind as i32,
                tile: tile.map(tile_to_proto),
                arm: arm.map_or(pb::Arm::Unspecified, arm_to_proto) as i32,
                matched: matched.map(u32::from),
            })
        }
        game::Action::Streets(a) => {
            let (kind, tile, spot, first) = match a {
                streets::Action::Place { tile, spot, first } => (T::Place, Some(tile), Some(spot), Some(first)),
                streets::Action::Discard { tile } => (T::Discard, Some(tile), None, None),
                streets::Action::Pass => (T::Pass, None, None, None),
            };
            pb::action::Game::Streets(pb::StreetsAction {
                kind: kind as i32,
                tile: tile.map(tile_to_proto),
                spot: spot.map(spot_to_proto),
                first: first.map(u32::from),
            })
        }
    };
    pb::Action { game: Some(game) }
}

/// Why a requested action names no single action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The request itself is malformed.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// Well formed, but not allowed now (the rules' own reason).
    #[error(transparent)]
    Illegal(#[from] game::GameError),
}

/// Reads a client's action against the game it is meant for. A Straight Dominoes play may leave
/// out its arm and matched number when only one end fits; the result is the full action.
pub fn action_from_proto(action: Option<&pb::Action>, game: &Game, seat: Seat) -> Result<game::Action, ActionError> {
    let wrong = |field: &str| FieldError::new(field, format!("this game is {}", describe(game.kind())));
    match (action.and_then(|a| a.game.as_ref()), game) {
        (None, _) => Err(FieldError::new("action", "set action.straight or action.streets").into()),
        (Some(pb::action::Game::Straight(a)), Game::Straight(state)) => straight_action(a, state, seat),
        (Some(pb::action::Game::Streets(a)), Game::Streets(_)) => Ok(game::Action::Streets(streets_action(a)?)),
        (Some(pb::action::Game::Straight(_)), _) => Err(wrong("action.straight").into()),
        (Some(pb::action::Game::Streets(_)), _) => Err(wrong("action.streets").into()),
    }
}

/// Reads an action written in the text notation (`field` names where the text came from).
pub fn action_from_notation(text: &str, game: &Game, seat: Seat, field: &str) -> Result<game::Action, ActionError> {
    use clack_rules::game::NotationError;
    match game.parse_action(seat, text) {
        Ok(action) => Ok(action),
        Err(NotationError::Straight(straight::WireError::Illegal(illegal))) => {
            Err(ActionError::Illegal(game::GameError::Straight(illegal)))
        }
        Err(error) => Err(FieldError::new(field, error.to_string()).into()),
    }
}

fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::Straight => "Straight Dominoes",
        Kind::Streets => "Streets and Avenues",
    }
}

fn straight_action(a: &pb::StraightAction, state: &straight::State, seat: Seat) -> Result<game::Action, ActionError> {
    use pb::straight_action::Kind as S;
    let tile = || tile_from_proto(a.tile.as_ref(), "action.straight.tile");
    let arm = arm_from_proto(a.arm, "action.straight.arm")?;
    let against = a
        .matched
        .map(|m| {
            u8::try_from(m)
                .ok()
                .filter(|&m| m <= 6)
                .ok_or_else(|| FieldError::new("action.straight.matched", "must be 0 to 6"))
        })
        .transpose()?;
    let action = match enum_value(a.kind, "action.straight.kind")? {
        S::Unspecified => return Err(FieldError::new("action.straight.kind", "say lead, play, draw or pass").into()),
        S::Lead => straight::Action::Lead { tile: tile()? },
        S::Draw => straight::Action::Draw,
        S::Pass => straight::Action::Pass,
        S::Play if state.layout().is_empty() => {
            return Err(game::GameError::from(straight::IllegalAction::NotLed).into());
        }
        S::Play => {
            let wire = WireAction { kind: WireKind::Tile, tile: Some(tile()?), arm, against };
            wire.to_action(state, seat).map_err(|e| match e {
                straight::WireError::Illegal(illegal) => ActionError::Illegal(illegal.into()),
                other => FieldError::new("action.straight.arm", other.to_string()).into(),
            })?
        }
    };
    Ok(game::Action::Straight(action))
}

fn streets_action(a: &pb::StreetsAction) -> Result<streets::Action, FieldError> {
    use pb::streets_action::Kind as T;
    let tile = || tile_from_proto(a.tile.as_ref(), "action.streets.tile");
    Ok(match enum_value(a.kind, "action.streets.kind")? {
        T::Unspecified => return Err(FieldError::new("action.streets.kind", "say place, discard or pass")),
        T::Pass => streets::Action::Pass,
        T::Discard => streets::Action::Discard { tile: tile()? },
        T::Place => {
            let tile = tile()?;
            let spot = spot_from_proto(a.spot.as_ref(), "action.streets.spot")?;
            let first = match a.first {
                Some(n) => u8::try_from(n).map_err(|_| FieldError::new("action.streets.first", "too large"))?,
                None if tile.is_double() => tile.lo(),
                None => {
                    return Err(FieldError::new("action.streets.first", "say which number goes north (or west)"));
                }
            };
            streets::Action::Place { tile, spot, first }
        }
    })
}

/// Reads a stored action (every field resolved).
pub fn stored_action(action: Option<&pb::Action>, game: &Game) -> Result<game::Action, FieldError> {
    use pb::straight_action::Kind as S;
    match (action.and_then(|a| a.game.as_ref()), game) {
        (Some(pb::action::Game::Straight(a)), Game::Straight(_)) => {
            let tile = || tile_from_proto(a.tile.as_ref(), "action.straight.tile");
            let action = match enum_value(a.kind, "action.straight.kind")? {
                S::Lead => straight::Action::Lead { tile: tile()? },
                S::Play => straight::Action::Play {
                    tile: tile()?,
                    arm: arm_from_proto(a.arm, "action.straight.arm")?
                        .ok_or_else(|| FieldError::new("action.straight.arm", "missing"))?,
                    matched: small(a.matched, u8::MAX, "action.straight.matched")?,
                },
                S::Draw => straight::Action::Draw,
                S::Pass => straight::Action::Pass,
                S::Unspecified => return Err(FieldError::new("action.straight.kind", "missing")),
            };
            Ok(game::Action::Straight(action))
        }
        (Some(pb::action::Game::Streets(a)), Game::Streets(_)) => Ok(game::Action::Streets(streets_action(a)?)),
        _ => Err(FieldError::new("action", "missing or for the other game")),
    }
}

/// The event payload recording a chance outcome, from the game just before it (who draws) and
/// just after it (who leads, which round was dealt).
pub fn chance_to_payload(chance: &game::Chance, before: &Game, game: &Game) -> pb::event::Payload {
    chance_payload(chance, before.drawing_seat(), game)
}

/// [`chance_to_payload`] from the seat that drew (`before.drawing_seat()`) instead of the whole
/// game before the outcome, so that a replay need not keep a copy of it.
pub fn chance_payload(chance: &game::Chance, drawer: Option<Seat>, game: &Game) -> pb::event::Payload {
    use pb::event::Payload;
    match chance {
        game::Chance::Straight(straight::Chance::LeadDraw { tiles }) => {
            let drawn: Vec<Tile> = tiles.iter().flatten().copied().collect();
            let leader = match game {
                Game::Straight(g) => g.leader().0,
                Game::Streets(_) => 0,
            };
            Payload::LeadDrawn(pb::LeadDrawn {
                tiles: drawn.into_iter().map(tile_to_proto).collect(),
                leader: u32::from(leader),
            })
        }
        game::Chance::Straight(straight::Chance::Deal { hands }) => {
            let players = usize::from(game.players());
            let round = match game {
                Game::Straight(g) => g.round(),
                Game::Streets(_) => 1,
            };
            Payload::Dealt(pb::Dealt { round, hands: hands_to_proto(hands.iter().take(players).copied()), first: None })
        }
        game::Chance::Streets(streets::Chance::Deal { hands, first }) => Payload::Dealt(pb::Dealt {
            round: 1,
            hands: hands_to_proto(hands.iter().copied()),
            first: Some(u32::from(first.0)),
        }),
        game::Chance::Straight(straight::Chance::Draw { tile })
        | game::Chance::Streets(streets::Chance::Draw { tile }) => {
            let seat = drawer.map_or(0, |s| s.0);
            Payload::TileDrawn(pb::TileDrawn { seat: u32::from(seat), tile: Some(tile_to_proto(*tile)) })
        }
    }
}

/// Reads a stored chance event back into a chance outcome for `game`.
pub fn chance_from_payload(payload: &pb::event::Payload, game: &Game) -> Result<Option<game::Chance>, FieldError> {
    use pb::event::Payload;
    let chance = match (payload, game) {
        (Payload::LeadDrawn(d), Game::Straight(_)) => {
            let mut tiles = [None; straight::MAX_PLAYERS];
            for (slot, tile) in tiles.iter_mut().zip(&d.tiles) {
                *slot = Some(tile_from_proto(Some(tile), "lead_drawn.tiles")?);
            }
            game::Chance::Straight(straight::Chance::LeadDraw { tiles })
        }
        (Payload::Dealt(d), Game::Straight(_)) => {
            let mut hands = [TileSet::EMPTY; straight::MAX_PLAYERS];
            for (slot, hand) in hands.iter_mut().zip(&d.hands) {
                *slot = tiles_from_proto(&hand.tiles, "dealt.hands")?;
            }
            game::Chance::Straight(straight::Chance::Deal { hands })
        }
        (Payload::Dealt(d), Game::Streets(_)) => {
            let hands = d.hands.iter().map(|h| tiles_from_proto(&h.tiles, "dealt.hands")).collect::<Result<_, _>>()?;
            let first = Seat(small(d.first, 0, "dealt.first")?);
            game::Chance::Streets(streets::Chance::Deal { hands, first })
        }
        (Payload::TileDrawn(d), Game::Straight(_)) => game::Chance::Straight(straight::Chance::Draw {
            tile: tile_from_proto(d.tile.as_ref(), "tile_drawn.tile")?,
        }),
        (Payload::TileDrawn(d), Game::Streets(_)) => {
            game::Chance::Streets(streets::Chance::Draw { tile: tile_from_proto(d.tile.as_ref(), "tile_drawn.tile")? })
        }
        _ => return Ok(None),
    };
    Ok(Some(chance))
}
