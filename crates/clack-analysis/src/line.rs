//! A fast reader for one line of the JSON lines export, straight into a `clack.v1.Event`.
//!
//! The generic proto3 JSON reader (`clack_log::json::from_line`, pbjson) accepts every form the
//! mapping allows: a 64-bit number as a string or a number, an enum by name or by value, the
//! proto field names beside the JSON ones. To do that it first buffers each number and tries it
//! as a string, building an error it then throws away; over millions of lines that was a tenth
//! of `clack analyze`. This reader knows the form Clack writes (JSON names, every field, enums by
//! name) and reads each value once, in one pass, with no buffering.
//!
//! It accepts a subset of what the generic reader accepts and reads it into the same event:
//! objects only where a message is expected (never an array), the JSON field names only, each at
//! most once, no unknown fields, no `null` for a field of a oneof, numbers in either form read as
//! pbjson reads them (a string by the type's `FromStr`, a JSON integer within range), enums by
//! name only, keys without escapes. [`read`] falls back to the generic reader for any line this
//! one refuses, so together they read exactly what the generic reader reads, into the same
//! events, and refuse what it refuses with its error. The tests check this on real exports and
//! on damaged copies of their lines.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};

/// Reads one line of the export: by the fast reader, or, for a line it refuses, by the generic
/// proto3 JSON reader, whose error is the one returned when both refuse.
pub fn read(line: &str) -> Result<pb::Event, serde_json::Error> {
    fast(line).or_else(|_| clack_log::json::from_line(line))
}

/// Reads one line by the fast reader alone; an error here only means "not in Clack's own form".
pub fn fast(line: &str) -> Result<pb::Event, serde_json::Error> {
    serde_json::from_str::<Event>(line).map(|e| e.0)
}

/// A number read as pbjson reads one: a JSON integer in range, or a string by `FromStr`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Num<T>(T);

impl<'de, T> Deserialize<'de> for Num<T>
where
    T: FromStr + TryFrom<u64> + TryFrom<i64>,
    <T as FromStr>::Err: fmt::Display,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Num<T>, D::Error> {
        struct Number<T>(PhantomData<T>);
        impl<T> Visitor<'_> for Number<T>
        where
            T: FromStr + TryFrom<u64> + TryFrom<i64>,
            <T as FromStr>::Err: fmt::Display,
        {
            type Value = Num<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer or a string holding one")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num<T>, E> {
                T::try_from(v).map(Num).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num<T>, E> {
                T::try_from(v).map(Num).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Num<T>, E> {
                v.parse().map(Num).map_err(E::custom)
            }
        }
        deserializer.deserialize_any(Number(PhantomData))
    }
}

/// A field of a oneof: present means set, and `null` is refused (pbjson reads a `null` as unset
/// but then refuses a second field of the oneof after it only in some orders; those lines go to
/// the generic reader).
#[derive(Debug)]
struct One<T>(Option<T>);

impl<T> Default for One<T> {
    fn default() -> One<T> {
        One(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for One<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<One<T>, D::Error> {
        T::deserialize(deserializer).map(|v| One(Some(v)))
    }
}

/// An enum field by its proto name only (`GAME_KIND_STREETS`), as a newtype over its value.
macro_rules! named {
    ($name:ident, $proto:ty) => {
        #[derive(Clone, Copy, Debug, Default)]
        struct $name(i32);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                struct Name;
                impl Visitor<'_> for Name {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("a name of ", stringify!($proto)))
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        <$proto>::from_str_name(v).map(|e| $name(e as i32)).ok_or_else(|| E::custom("unknown name"))
                    }
                }
                deserializer.deserialize_str(Name)
            }
        }
    };
}

named!(GameKind, pb::GameKind);
named!(SpinnerRule, pb::SpinnerRule);
named!(BlockedScoring, pb::BlockedScoring);
named!(DominoSet, pb::DominoSet);
named!(TimeoutPolicy, pb::TimeoutPolicy);
named!(Arm, pb::Arm);
named!(StraightKind, pb::straight_action::Kind);
named!(StreetsKind, pb::streets_action::Kind);
named!(RoundEnd, pb::RoundEnd);

/// A message read from a JSON object only (serde's derive would also take an array), each of
/// its JSON field names at most once, no other key; a missing field keeps its default.
macro_rules! message {
    ($name:ident { $($field:ident: $ty:ty = $json:literal),* $(,)? } $(oneof($($one:ident),+))?) => {
        #[derive(Debug, Default)]
        struct $name {
            $($field: $ty),*
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                struct Fields;
                impl<'de> Visitor<'de> for Fields {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("an object, ", stringify!($name)))
                    }
                    #[allow(unused_mut)] // an empty message has no field to set
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<$name, A::Error> {
                        #[derive(Default)]
                        struct Seen {
                            $($field: bool),*
                        }
                        let mut value = $name::default();
                        let mut seen = Seen::default();
                        while let Some(key) = map.next_key::<&'de str>()? {
                            match key {
                                $($json => {
                                    if std::mem::replace(&mut seen.$field, true) {
                                        return Err(de::Error::duplicate_field($json));
                                    }
                                    value.$field = map.next_value()?;
                                })*
                                other => return Err(de::Error::unknown_field(other, &[])),
                            }
                        }
                        let _ = &mut seen;
                        $(
                            if [$(value.$one.0.is_some()),+].iter().filter(|&&set| set).count() > 1 {
                                return Err(de::Error::custom("two fields of one oneof"));
                            }
                        )?
                        Ok(value)
                    }
                }
                deserializer.deserialize_map(Fields)
            }
        }
    };
}

message!(Tile { low: Num<u32> = "low", high: Num<u32> = "high" });
message!(Hand { seat: Num<u32> = "seat", tiles: Vec<Tile> = "tiles", count: Num<u32> = "count" });
message!(OpenSeat {});
message!(BotSeat { bot_id: String = "botId", version: String = "version" });
message!(SeatSpec { open: One<OpenSeat> = "open", bot: One<BotSeat> = "bot" } oneof(open, bot));
message!(StraightOptions {
    players: Option<Num<u32>> = "players",
    teams: Option<bool> = "teams",
    boneyard_reserve: Option<Num<u32>> = "boneyardReserve",
    spinner: SpinnerRule = "spinner",
    spinner_sides_open_immediately: Option<bool> = "spinnerSidesOpenImmediately",
    may_draw_when_able: Option<bool> = "mayDrawWhenAble",
    blocked_scoring: BlockedScoring = "blockedScoring",
    target: Option<Num<u32>> = "target",
    finish_round_at_target: Option<bool> = "finishRoundAtTarget",
});
message!(StreetsOptions {
    set: DominoSet = "set",
    players: Option<Num<u32>> = "players",
    may_pass_when_able: Option<bool> = "mayPassWhenAble",
});
message!(FischerClock { initial_millis: Num<u64> = "initialMillis", increment_millis: Num<u64> = "incrementMillis" });
message!(TimeControl {
    per_move_millis: One<Num<u64>> = "perMoveMillis",
    fischer: One<FischerClock> = "fischer",
    on_timeout: TimeoutPolicy = "onTimeout",
} oneof(per_move_millis, fischer));
message!(GameOptions {
    straight: One<StraightOptions> = "straight",
    streets: One<StreetsOptions> = "streets",
    time_control: Option<TimeControl> = "timeControl",
} oneof(straight, streets));
message!(Fork { game_id: String = "gameId", sequence: Num<u64> = "sequence", events: Vec<Event> = "events" });
message!(GameCreated {
    kind: GameKind = "kind",
    options: Option<GameOptions> = "options",
    seats: Vec<SeatSpec> = "seats",
    seed: Option<Num<u64>> = "seed",
    rules_version: String = "rulesVersion",
    fork: Option<Fork> = "fork",
});
message!(SeatJoined { seat: Num<u32> = "seat", name: String = "name" });
message!(LeadDrawn { tiles: Vec<Tile> = "tiles", leader: Num<u32> = "leader" });
message!(Dealt { round: Num<u32> = "round", hands: Vec<Hand> = "hands", first: Option<Num<u32>> = "first" });
message!(TileDrawn { seat: Num<u32> = "seat", tile: Option<Tile> = "tile" });
message!(Avenue { column: Num<i32> = "column", row: Num<i32> = "row" });
message!(Street { gap: Num<i32> = "gap", half_row: Num<i32> = "halfRow" });
message!(Spot { avenue: One<Avenue> = "avenue", street: One<Street> = "street" } oneof(avenue, street));
message!(StraightAction {
    kind: StraightKind = "kind",
    tile: Option<Tile> = "tile",
    arm: Arm = "arm",
    matched: Option<Num<u32>> = "matched",
});
message!(StreetsAction {
    kind: StreetsKind = "kind",
    tile: Option<Tile> = "tile",
    spot: Option<Spot> = "spot",
    first: Option<Num<u32>> = "first",
});
message!(Action { straight: One<StraightAction> = "straight", streets: One<StreetsAction> = "streets" } oneof(straight, streets));
message!(ActionApplied { seat: Num<u32> = "seat", action: Option<Action> = "action", points: Num<u32> = "points" });
message!(BotFaulted {
    seat: Num<u32> = "seat",
    bot_id: String = "botId",
    version: String = "version",
    reason: String = "reason",
    detail: String = "detail",
});
message!(RoundEnded {
    round: Num<u32> = "round",
    end: RoundEnd = "end",
    winner: Option<Num<u32>> = "winner",
    points: Num<u32> = "points",
    hands: Vec<Hand> = "hands",
    scores: Vec<Num<i64>> = "scores",
});
message!(SeatResigned { seat: Num<u32> = "seat" });
message!(SeatTimedOut { seat: Num<u32> = "seat", policy: TimeoutPolicy = "policy" });
message!(GameEnded {
    winners: Vec<Num<u32>> = "winners",
    scores: Vec<Num<i64>> = "scores",
    penalties: Vec<Num<i64>> = "penalties",
    hands: Vec<Hand> = "hands",
    reason: String = "reason",
});
message!(GameAbandoned { reason: String = "reason" });

/// The envelope, read by hand so that its payload goes straight into the event's oneof.
#[derive(Debug, Default)]
struct Event(pb::Event);

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Event, D::Error> {
        struct Envelope;
        impl<'de> Visitor<'de> for Envelope {
            type Value = Event;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object, Event")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Event, A::Error> {
                const ENVELOPE: [&str; 3] = ["gameId", "sequence", "unixMillis"];
                let mut event = pb::Event::default();
                let mut seen = [false; 3];
                while let Some(key) = map.next_key::<&'de str>()? {
                    let field = match key {
                        "gameId" => 0,
                        "sequence" => 1,
                        "unixMillis" => 2,
                        _ => {
                            if event.payload.is_some() {
                                return Err(de::Error::duplicate_field("payload"));
                            }
                            event.payload = Some(payload(key, &mut map)?);
                            continue;
                        }
                    };
                    if std::mem::replace(&mut seen[field], true) {
                        return Err(de::Error::duplicate_field(ENVELOPE[field]));
                    }
                    match field {
                        0 => event.game_id = map.next_value()?,
                        1 => event.sequence = map.next_value::<Num<u64>>()?.0,
                        _ => event.unix_millis = map.next_value::<Num<i64>>()?.0,
                    }
                }
                Ok(Event(event))
            }
        }
        deserializer.deserialize_map(Envelope)
    }
}

/// The value of a payload field named `key`, which may not be `null`.
fn payload<'de, A: MapAccess<'de>>(key: &str, map: &mut A) -> Result<Payload, A::Error> {
    Ok(match key {
        "gameCreated" => Payload::GameCreated(map.next_value::<GameCreated>()?.into()),
        "seatJoined" => Payload::SeatJoined(map.next_value::<SeatJoined>()?.into()),
        "leadDrawn" => Payload::LeadDrawn(map.next_value::<LeadDrawn>()?.into()),
        "dealt" => Payload::Dealt(map.next_value::<Dealt>()?.into()),
        "tileDrawn" => Payload::TileDrawn(map.next_value::<TileDrawn>()?.into()),
        "actionApplied" => Payload::ActionApplied(map.next_value::<ActionApplied>()?.into()),
        "botFaulted" => Payload::BotFaulted(map.next_value::<BotFaulted>()?.into()),
        "roundEnded" => Payload::RoundEnded(map.next_value::<RoundEnded>()?.into()),
        "seatResigned" => Payload::SeatResigned(pb::SeatResigned { seat: map.next_value::<SeatResigned>()?.seat.0 }),
        "gameEnded" => Payload::GameEnded(map.next_value::<GameEnded>()?.into()),
        "gameAbandoned" => {
            Payload::GameAbandoned(pb::GameAbandoned { reason: map.next_value::<GameAbandoned>()?.reason })
        }
        "seatTimedOut" => {
            let t = map.next_value::<SeatTimedOut>()?;
            Payload::SeatTimedOut(pb::SeatTimedOut { seat: t.seat.0, policy: t.policy.0 })
        }
        other => return Err(de::Error::unknown_field(other, &[])),
    })
}

// From here on, the read messages become the protobuf ones, field by field.

fn tiles(tiles: Vec<Tile>) -> Vec<pb::Tile> {
    tiles.into_iter().map(pb::Tile::from).collect()
}

fn hands(hands: Vec<Hand>) -> Vec<pb::Hand> {
    hands.into_iter().map(|h| pb::Hand { seat: h.seat.0, tiles: tiles(h.tiles), count: h.count.0 }).collect()
}

fn numbers<T>(values: Vec<Num<T>>) -> Vec<T> {
    values.into_iter().map(|n| n.0).collect()
}

impl From<Tile> for pb::Tile {
    fn from(t: Tile) -> pb::Tile {
        pb::Tile { low: t.low.0, high: t.high.0 }
    }
}

impl From<GameCreated> for pb::GameCreated {
    fn from(c: GameCreated) -> pb::GameCreated {
        pb::GameCreated {
            kind: c.kind.0,
            options: c.options.map(pb::GameOptions::from),
            seats: c.seats.into_iter().map(pb::SeatSpec::from).collect(),
            seed: c.seed.map(|s| s.0),
            rules_version: c.rules_version,
            fork: c.fork.map(|f| pb::Fork {
                game_id: f.game_id,
                sequence: f.sequence.0,
                events: f.events.into_iter().map(|e| e.0).collect(),
            }),
        }
    }
}

impl From<SeatSpec> for pb::SeatSpec {
    fn from(s: SeatSpec) -> pb::SeatSpec {
        use pb::seat_spec::Occupant;
        // Two fields of a oneof were refused while reading (`message!`).
        let occupant = match (s.open.0, s.bot.0) {
            (Some(_), _) => Some(Occupant::Open(pb::OpenSeat {})),
            (None, Some(b)) => Some(Occupant::Bot(pb::BotSeat { bot_id: b.bot_id, version: b.version })),
            (None, None) => None,
        };
        pb::SeatSpec { occupant }
    }
}

impl From<GameOptions> for pb::GameOptions {
    fn from(o: GameOptions) -> pb::GameOptions {
        use pb::game_options::Rules;
        let rules = match (o.straight.0, o.streets.0) {
            (Some(s), _) => Some(Rules::Straight(pb::StraightOptions {
                players: s.players.map(|n| n.0),
                teams: s.teams,
                boneyard_reserve: s.boneyard_reserve.map(|n| n.0),
                spinner: s.spinner.0,
                spinner_sides_open_immediately: s.spinner_sides_open_immediately,
                may_draw_when_able: s.may_draw_when_able,
                blocked_scoring: s.blocked_scoring.0,
                target: s.target.map(|n| n.0),
                finish_round_at_target: s.finish_round_at_target,
            })),
            (None, Some(s)) => Some(Rules::Streets(pb::StreetsOptions {
                set: s.set.0,
                players: s.players.map(|n| n.0),
                may_pass_when_able: s.may_pass_when_able,
            })),
            (None, None) => None,
        };
        pb::GameOptions { rules, time_control: o.time_control.map(pb::TimeControl::from) }
    }
}

impl From<TimeControl> for pb::TimeControl {
    fn from(t: TimeControl) -> pb::TimeControl {
        use pb::time_control::Clock;
        let clock = match (t.per_move_millis.0, t.fischer.0) {
            (Some(n), _) => Some(Clock::PerMoveMillis(n.0)),
            (None, Some(f)) => Some(Clock::Fischer(pb::FischerClock {
                initial_millis: f.initial_millis.0,
                increment_millis: f.increment_millis.0,
            })),
            (None, None) => None,
        };
        pb::TimeControl { clock, on_timeout: t.on_timeout.0 }
    }
}

impl From<SeatJoined> for pb::SeatJoined {
    fn from(j: SeatJoined) -> pb::SeatJoined {
        pb::SeatJoined { seat: j.seat.0, name: j.name }
    }
}

impl From<LeadDrawn> for pb::LeadDrawn {
    fn from(d: LeadDrawn) -> pb::LeadDrawn {
        pb::LeadDrawn { tiles: tiles(d.tiles), leader: d.leader.0 }
    }
}

impl From<Dealt> for pb::Dealt {
    fn from(d: Dealt) -> pb::Dealt {
        pb::Dealt { round: d.round.0, hands: hands(d.hands), first: d.first.map(|n| n.0) }
    }
}

impl From<TileDrawn> for pb::TileDrawn {
    fn from(d: TileDrawn) -> pb::TileDrawn {
        pb::TileDrawn { seat: d.seat.0, tile: d.tile.map(pb::Tile::from) }
    }
}

impl From<Spot> for pb::Spot {
    fn from(s: Spot) -> pb::Spot {
        use pb::spot::At;
        let at = match (s.avenue.0, s.street.0) {
            (Some(a), _) => Some(At::Avenue(pb::Avenue { column: a.column.0, row: a.row.0 })),
            (None, Some(s)) => Some(At::Street(pb::Street { gap: s.gap.0, half_row: s.half_row.0 })),
            (None, None) => None,
        };
        pb::Spot { at }
    }
}

impl From<Action> for pb::Action {
    fn from(a: Action) -> pb::Action {
        use pb::action::Game;
        let game = match (a.straight.0, a.streets.0) {
            (Some(s), _) => Some(Game::Straight(pb::StraightAction {
                kind: s.kind.0,
                tile: s.tile.map(pb::Tile::from),
                arm: s.arm.0,
                matched: s.matched.map(|n| n.0),
            })),
            (None, Some(s)) => Some(Game::Streets(pb::StreetsAction {
                kind: s.kind.0,
                tile: s.tile.map(pb::Tile::from),
                spot: s.spot.map(pb::Spot::from),
                first: s.first.map(|n| n.0),
            })),
            (None, None) => None,
        };
        pb::Action { game }
    }
}

impl From<ActionApplied> for pb::ActionApplied {
    fn from(a: ActionApplied) -> pb::ActionApplied {
        pb::ActionApplied { seat: a.seat.0, action: a.action.map(pb::Action::from), points: a.points.0 }
    }
}

impl From<BotFaulted> for pb::BotFaulted {
    fn from(f: BotFaulted) -> pb::BotFaulted {
        pb::BotFaulted { seat: f.seat.0, bot_id: f.bot_id, version: f.version, reason: f.reason, detail: f.detail }
    }
}

impl From<RoundEnded> for pb::RoundEnded {
    fn from(r: RoundEnded) -> pb::RoundEnded {
        pb::RoundEnded {
            round: r.round.0,
            end: r.end.0,
            winner: r.winner.map(|n| n.0),
            points: r.points.0,
            hands: hands(r.hands),
            scores: numbers(r.scores),
        }
    }
}

impl From<GameEnded> for pb::GameEnded {
    fn from(e: GameEnded) -> pb::GameEnded {
        pb::GameEnded {
            winners: numbers(e.winners),
            scores: numbers(e.scores),
            penalties: numbers(e.penalties),
            hands: hands(e.hands),
            reason: e.reason,
        }
    }
}
