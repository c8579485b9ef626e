//! A fast reader for one line of the JSON lines export, straight into a `clack.v1.Event`.
//!
//! The generic proto3 JSON reader (`clack_log::json::from_line`, pbjson) accepts every form the
//! mapping allows: a 64-bit number as a string or a number, an enum by name or by value, the
//! proto field names beside the JSON ones, `null` for a default. It reads through serde's
//! visitors, which scan every key and value twice and buffer each number to try it as a string.
//! Over millions of lines that was most of `clack analyze`. This reader knows the form Clack
//! writes (JSON names in declaration order, enums by name) and reads it byte by byte, in one
//! pass, into the protobuf event itself.
//!
//! It accepts a subset of what the generic reader accepts, and reads that subset into the same
//! events: objects only where a message is expected, the JSON field names only, each at most
//! once, no unknown fields, at most one field of a oneof, no `null`, integers in either form but
//! only as plain digits (`-` first for a signed field, no leading zero, within the field's
//! range), enums by name, keys and enum names without escapes (string values have theirs
//! decoded), at most [`DEPTH`] events nested in forks.
//! Anything else it refuses without saying why, and [`read`] hands the line to the generic
//! reader, whose error is the one a user sees. So together they read exactly what the generic
//! reader reads. The tests check this on real exports and on damaged copies of their lines.

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;

/// Reads one line of the export: by the fast reader, or, for a line it refuses, by the generic
/// proto3 JSON reader, whose error is the one returned when both refuse.
pub fn read(line: &str) -> Result<pb::Event, serde_json::Error> {
    let mut event = pb::Event::default();
    read_into(line, &mut event).map(|()| event)
}

/// Reads one line into `event`, which must be a default one: the reader fills it where it lies
/// (an event is a few hundred bytes, and moving each one out of the reader and into its game
/// was a twelfth of reading a file of long games). After an error `event` holds anything.
pub fn read_into(line: &str, event: &mut pb::Event) -> Result<(), serde_json::Error> {
    if !fast_into(line, event) {
        *event = clack_log::json::from_line(line)?;
    }
    Ok(())
}

/// Reads one line by the fast reader alone; `None` only means "not in Clack's own form".
pub fn fast(line: &str) -> Option<pb::Event> {
    let mut event = pb::Event::default();
    fast_into(line, &mut event).then_some(event)
}

/// The fast reader into a default `event`; `false` only means "not in Clack's own form".
fn fast_into(line: &str, event: &mut pb::Event) -> bool {
    let mut reader = Reader { text: line, at: 0, depth: 0 };
    event_into(&mut reader, event).is_some() && {
        reader.space();
        reader.at == line.len()
    }
}

/// How many events may nest (a fork's events, holding a fork's events, ...) before the fast
/// reader leaves the line to the generic one, which has its own limit.
const DEPTH: u32 = 64;

/// A position in one line. Every method returns `None` when the text is not in the form it
/// reads, and may then have moved anywhere: a refused line is never read further.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    depth: u32,
}

/// Reads an object whose keys are the given JSON names, each at most once, running the
/// expression beside a key on its value (read through the reader named first, which the
/// expressions use). Each key is matched against the names, quotes included, in the order given,
/// which is the order Clack writes them: a key is usually found by its first comparison, and
/// never scanned on its own. A key that matches no name (an unknown field, a proto name, a key
/// written with escapes) refuses the line.
macro_rules! fields {
    ($r:ident, $($json:literal => $read:expr),+ $(,)?) => {{
        let mut seen = 0u32;
        $r.object(|$r| {
            let mut bit = 1u32;
            $(
                // A name already seen is not compared again: a second instance of its key
                // then matches nothing, and the line is refused as it must be.
                if seen & bit == 0 && $r.key(concat!("\"", $json, "\"")) {
                    seen |= bit;
                    $read;
                    return Some(());
                }
                bit <<= 1;
            )+
            let _ = bit;
            None
        })
    }};
}

impl<'a> Reader<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Skips JSON whitespace. Clack writes none, so the usual case is one byte looked at: every
    /// byte above the space is not whitespace.
    #[inline]
    fn space(&mut self) {
        while let Some(&byte) = self.bytes().get(self.at) {
            if byte > b' ' || !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                return;
            }
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.bytes().get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// Consumes `bytes` if the text goes on with them right here (no whitespace skipped).
    fn literal(&mut self, bytes: &[u8]) -> Option<()> {
        self.bytes()[self.at..].starts_with(bytes).then(|| self.at += bytes.len())
    }

    /// Consumes `word` if the text goes on with it.
    fn word(&mut self, word: &str) -> Option<()> {
        self.space();
        self.literal(word.as_bytes())
    }

    /// A string without escapes or control characters, as the slice between its quotes.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let text = self.plain()?;
        // The very next byte, not the next after whitespace: a tab or a line end inside a
        // string is a control character, which JSON refuses.
        (self.next()? == b'"').then_some(text)
    }

    /// The run of plain characters from here up to the next quote, backslash or control
    /// character, which is left unread. The stoppers are ASCII, so the run is whole characters.
    fn plain(&mut self) -> Option<&'a str> {
        let start = self.at;
        let length = self.bytes()[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        self.at = start + length;
        self.text.get(start..self.at)
    }

    /// The next byte, read as it is (no whitespace skipped).
    fn next(&mut self) -> Option<u8> {
        let byte = *self.bytes().get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    /// A string value with its escapes decoded (Clack escapes what a user wrote: a name, a
    /// fault's detail). A lone surrogate or an unknown escape is left to the generic reader.
    fn owned(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let first = self.plain()?;
        // Most strings have no escapes: one run, copied once.
        if self.literal(b"\"").is_some() {
            return Some(first.to_owned());
        }
        let mut out = String::from(first);
        loop {
            out.push_str(self.plain()?);
            match self.next()? {
                b'"' => return Some(out),
                b'\\' => out.push(self.escape()?),
                _ => return None,
            }
        }
    }

    /// The character an escape stands for, the reader just past its backslash.
    fn escape(&mut self) -> Option<char> {
        Some(match self.next()? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                if !(0xD800..0xDC00).contains(&unit) {
                    // A lone low surrogate is not a character: `from_u32` refuses it.
                    return char::from_u32(unit);
                }
                // A high surrogate must be followed by an escaped low one.
                if !self.bytes()[self.at..].starts_with(b"\\u") {
                    return None;
                }
                self.at += 2;
                let low = self.hex4()?;
                if !(0xDC00..0xE000).contains(&low) {
                    return None;
                }
                char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
            }
            _ => return None,
        })
    }

    /// Four hexadecimal digits.
    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes().get(self.at..self.at + 4)?;
        let value = digits.iter().try_fold(0u32, |n, &d| Some(n << 4 | char::from(d).to_digit(16)?))?;
        self.at += 4;
        Some(value)
    }

    /// Whether the next key is `quoted` (a name in its quotes); if so, reads it and its colon.
    fn key(&mut self, quoted: &str) -> bool {
        let matched = self.bytes()[self.at..].starts_with(quoted.as_bytes());
        matched && {
            self.at += quoted.len();
            self.eat(b':').is_some()
        }
    }

    /// Calls `field` at each key of an object (after any whitespace before it); `field` reads
    /// the key, its colon and its value.
    fn object(&mut self, mut field: impl FnMut(&mut Reader<'a>) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            self.space();
            field(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// An array, each element read by `element`.
    fn array<T>(&mut self, mut element: impl FnMut(&mut Reader<'a>) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        if self.eat(b']').is_some() {
            return Some(items);
        }
        loop {
            items.push(element(self)?);
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(items);
                }
                _ => return None,
            }
        }
    }

    /// Plain decimal digits, no leading zero (but "0" itself), as a u64.
    fn digits(&mut self) -> Option<u64> {
        let bytes = &self.bytes()[self.at..];
        let mut n = 0u64;
        let mut count = 0;
        while let Some(digit) = bytes.get(count).map(|d| d.wrapping_sub(b'0')).filter(|d| *d < 10) {
            // Nineteen digits always fit in a u64; only the twentieth can overflow.
            n = if count < 19 {
                n * 10 + u64::from(digit)
            } else {
                n.checked_mul(10)?.checked_add(u64::from(digit))?
            };
            count += 1;
        }
        if count == 0 || (count > 1 && bytes[0] == b'0') {
            return None;
        }
        self.at += count;
        Some(n)
    }

    /// An unsigned integer, bare or in a string, within `T`'s range.
    fn uint<T: TryFrom<u64>>(&mut self) -> Option<T> {
        T::try_from(self.maybe_quoted(Reader::digits)?).ok()
    }

    /// A value read by `read`, bare or between quotes (a 64-bit number is written in a
    /// string). No whitespace inside the quotes: the generic reader's `FromStr` refuses it.
    fn maybe_quoted<T>(&mut self, read: impl FnOnce(&mut Reader<'a>) -> Option<T>) -> Option<T> {
        let quoted = self.peek()? == b'"';
        self.at += usize::from(quoted);
        let value = read(self)?;
        if quoted && self.next()? != b'"' {
            return None;
        }
        Some(value)
    }

    /// A signed integer, bare or in a string, within `T`'s range ("-0" is left to the generic
    /// reader).
    fn int<T: TryFrom<i64>>(&mut self) -> Option<T> {
        let n = self.maybe_quoted(|r| {
            let negative = r.bytes().get(r.at) == Some(&b'-');
            r.at += usize::from(negative);
            let magnitude = r.digits()?;
            match negative {
                false => i64::try_from(magnitude).ok(),
                true if magnitude == 0 => None,
                true => 0i64.checked_sub_unsigned(magnitude),
            }
        })?;
        T::try_from(n).ok()
    }

    fn boolean(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' => self.word("true").map(|()| true),
            _ => self.word("false").map(|()| false),
        }
    }

    /// An enum by its proto name, as its number.
    fn name<E: Into<i32>>(&mut self, from_name: fn(&str) -> Option<E>) -> Option<i32> {
        from_name(self.string()?).map(Into::into)
    }

    /// An empty message, `{}`.
    fn empty(&mut self) -> Option<()> {
        self.object(|_| None)
    }
}

/// An event nested in a fork.
fn event(r: &mut Reader<'_>) -> Option<pb::Event> {
    let mut e = pb::Event::default();
    event_into(r, &mut e)?;
    Some(e)
}

fn event_into(r: &mut Reader<'_>, e: &mut pb::Event) -> Option<()> {
    r.depth += 1;
    if r.depth > DEPTH {
        return None;
    }
    fields!(r,
        "gameId" => e.game_id = r.owned()?,
        "sequence" => e.sequence = r.uint()?,
        "unixMillis" => e.unix_millis = r.int()?,
        "actionApplied" => one(&mut e.payload, Payload::ActionApplied(action_applied(r)?))?,
        "tileDrawn" => one(&mut e.payload, Payload::TileDrawn(tile_drawn(r)?))?,
        "dealt" => one(&mut e.payload, Payload::Dealt(dealt(r)?))?,
        "roundEnded" => one(&mut e.payload, Payload::RoundEnded(round_ended(r)?))?,
        "gameCreated" => one(&mut e.payload, Payload::GameCreated(game_created(r)?))?,
        "seatJoined" => one(&mut e.payload, Payload::SeatJoined(seat_joined(r)?))?,
        "leadDrawn" => one(&mut e.payload, Payload::LeadDrawn(lead_drawn(r)?))?,
        "gameEnded" => one(&mut e.payload, Payload::GameEnded(game_ended(r)?))?,
        "botFaulted" => one(&mut e.payload, Payload::BotFaulted(bot_faulted(r)?))?,
        "seatResigned" => one(&mut e.payload, Payload::SeatResigned(seat_resigned(r)?))?,
        "seatTimedOut" => one(&mut e.payload, Payload::SeatTimedOut(seat_timed_out(r)?))?,
        "gameAbandoned" => one(&mut e.payload, Payload::GameAbandoned(game_abandoned(r)?))?,
    )?;
    r.depth -= 1;
    Some(())
}

fn tile(r: &mut Reader<'_>) -> Option<pb::Tile> {
    if let Some(tile) = compact_tile(r) {
        return Some(tile);
    }
    let mut t = pb::Tile::default();
    fields!(r, "low" => t.low = r.uint()?, "high" => t.high = r.uint()?)?;
    Some(t)
}

/// A tile exactly as Clack writes it, `{"low":L,"high":H}`, read without the general object
/// machinery (a deal holds dozens of tiles, and the general reader took 300 instructions for
/// each); `None`, with the reader where it was, for any other form, which [`tile`] then reads.
fn compact_tile(r: &mut Reader<'_>) -> Option<pb::Tile> {
    let start = r.at;
    let tile = (|| {
        r.literal(b"{\"low\":")?;
        let low = r.digits()?;
        r.literal(b",\"high\":")?;
        let high = r.digits()?;
        r.literal(b"}")?;
        Some(pb::Tile { low: u32::try_from(low).ok()?, high: u32::try_from(high).ok()? })
    })();
    if tile.is_none() {
        r.at = start;
    }
    tile
}

fn tiles(r: &mut Reader<'_>) -> Option<Vec<pb::Tile>> {
    r.array(tile)
}

fn hand(r: &mut Reader<'_>) -> Option<pb::Hand> {
    let mut h = pb::Hand::default();
    fields!(r,
        "seat" => h.seat = r.uint()?,
        "tiles" => h.tiles = tiles(r)?,
        "count" => h.count = r.uint()?,
    )?;
    Some(h)
}

fn hands(r: &mut Reader<'_>) -> Option<Vec<pb::Hand>> {
    r.array(hand)
}

fn uints(r: &mut Reader<'_>) -> Option<Vec<u32>> {
    r.array(Reader::uint)
}

fn ints(r: &mut Reader<'_>) -> Option<Vec<i64>> {
    r.array(Reader::int)
}

fn game_created(r: &mut Reader<'_>) -> Option<pb::GameCreated> {
    let mut c = pb::GameCreated::default();
    fields!(r,
        "kind" => c.kind = r.name(pb::GameKind::from_str_name)?,
        "options" => c.options = Some(game_options(r)?),
        "seats" => c.seats = r.array(seat_spec)?,
        "seed" => c.seed = Some(r.uint()?),
        "rulesVersion" => c.rules_version = r.owned()?,
        "fork" => c.fork = Some(fork(r)?),
    )?;
    Some(c)
}

fn seat_spec(r: &mut Reader<'_>) -> Option<pb::SeatSpec> {
    use pb::seat_spec::Occupant;
    let mut s = pb::SeatSpec::default();
    fields!(r,
        "open" => one(&mut s.occupant, Occupant::Open(r.empty().map(|()| pb::OpenSeat {})?))?,
        "bot" => one(&mut s.occupant, Occupant::Bot(bot_seat(r)?))?,
    )?;
    Some(s)
}

fn bot_seat(r: &mut Reader<'_>) -> Option<pb::BotSeat> {
    let mut b = pb::BotSeat::default();
    fields!(r,
        "botId" => b.bot_id = r.owned()?,
        "version" => b.version = r.owned()?,
    )?;
    Some(b)
}

fn game_options(r: &mut Reader<'_>) -> Option<pb::GameOptions> {
    use pb::game_options::Rules;
    let mut o = pb::GameOptions::default();
    fields!(r,
        "botPaceMillis" => o.bot_pace_millis = r.uint()?,
        "straight" => one(&mut o.rules, Rules::Straight(straight_options(r)?))?,
        "streets" => one(&mut o.rules, Rules::Streets(streets_options(r)?))?,
        "timeControl" => o.time_control = Some(time_control(r)?),
    )?;
    Some(o)
}

fn straight_options(r: &mut Reader<'_>) -> Option<pb::StraightOptions> {
    let mut o = pb::StraightOptions::default();
    fields!(r,
        "players" => o.players = Some(r.uint()?),
        "teams" => o.teams = Some(r.boolean()?),
        "boneyardReserve" => o.boneyard_reserve = Some(r.uint()?),
        "spinner" => o.spinner = r.name(pb::SpinnerRule::from_str_name)?,
        "spinnerSidesOpenImmediately" => o.spinner_sides_open_immediately = Some(r.boolean()?),
        "mayDrawWhenAble" => o.may_draw_when_able = Some(r.boolean()?),
        "blockedScoring" => o.blocked_scoring = r.name(pb::BlockedScoring::from_str_name)?,
        "target" => o.target = Some(r.uint()?),
        "finishRoundAtTarget" => o.finish_round_at_target = Some(r.boolean()?),
    )?;
    Some(o)
}

fn streets_options(r: &mut Reader<'_>) -> Option<pb::StreetsOptions> {
    let mut o = pb::StreetsOptions::default();
    fields!(r,
        "set" => o.set = r.name(pb::DominoSet::from_str_name)?,
        "players" => o.players = Some(r.uint()?),
        "mayPassWhenAble" => o.may_pass_when_able = Some(r.boolean()?),
    )?;
    Some(o)
}

fn time_control(r: &mut Reader<'_>) -> Option<pb::TimeControl> {
    use pb::time_control::Clock;
    let mut t = pb::TimeControl::default();
    fields!(r,
        "perMoveMillis" => one(&mut t.clock, Clock::PerMoveMillis(r.uint()?))?,
        "fischer" => one(&mut t.clock, Clock::Fischer(fischer(r)?))?,
        "onTimeout" => t.on_timeout = r.name(pb::TimeoutPolicy::from_str_name)?,
    )?;
    Some(t)
}

fn fischer(r: &mut Reader<'_>) -> Option<pb::FischerClock> {
    let mut f = pb::FischerClock::default();
    fields!(r,
        "initialMillis" => f.initial_millis = r.uint()?,
        "incrementMillis" => f.increment_millis = r.uint()?,
    )?;
    Some(f)
}

fn fork(r: &mut Reader<'_>) -> Option<pb::Fork> {
    let mut f = pb::Fork::default();
    fields!(r,
        "gameId" => f.game_id = r.owned()?,
        "sequence" => f.sequence = r.uint()?,
        "events" => f.events = r.array(event)?,
        "redeal" => f.redeal = Some(redeal(r)?),
    )?;
    Some(f)
}

fn redeal(r: &mut Reader<'_>) -> Option<pb::Redeal> {
    let mut d = pb::Redeal::default();
    fields!(r,
        "seat" => d.seat = r.uint()?,
        "hands" => d.hands = hands(r)?,
        "draws" => d.draws = r.array(tile_drawn)?,
    )?;
    Some(d)
}

fn seat_joined(r: &mut Reader<'_>) -> Option<pb::SeatJoined> {
    let mut j = pb::SeatJoined::default();
    fields!(r, "seat" => j.seat = r.uint()?, "name" => j.name = r.owned()?)?;
    Some(j)
}

fn lead_drawn(r: &mut Reader<'_>) -> Option<pb::LeadDrawn> {
    let mut d = pb::LeadDrawn::default();
    fields!(r, "tiles" => d.tiles = tiles(r)?, "leader" => d.leader = r.uint()?)?;
    Some(d)
}

fn dealt(r: &mut Reader<'_>) -> Option<pb::Dealt> {
    let mut d = pb::Dealt::default();
    fields!(r,
        "round" => d.round = r.uint()?,
        "hands" => d.hands = hands(r)?,
        "first" => d.first = Some(r.uint()?),
    )?;
    Some(d)
}

fn tile_drawn(r: &mut Reader<'_>) -> Option<pb::TileDrawn> {
    let mut d = pb::TileDrawn::default();
    fields!(r, "seat" => d.seat = r.uint()?, "tile" => d.tile = Some(tile(r)?))?;
    Some(d)
}

fn action_applied(r: &mut Reader<'_>) -> Option<pb::ActionApplied> {
    let mut a = pb::ActionApplied::default();
    fields!(r,
        "seat" => a.seat = r.uint()?,
        "action" => a.action = Some(action(r)?),
        "points" => a.points = r.uint()?,
    )?;
    Some(a)
}

fn action(r: &mut Reader<'_>) -> Option<pb::Action> {
    use pb::action::Game;
    let mut a = pb::Action::default();
    fields!(r,
        "streets" => one(&mut a.game, Game::Streets(streets_action(r)?))?,
        "straight" => one(&mut a.game, Game::Straight(straight_action(r)?))?,
    )?;
    Some(a)
}

fn straight_action(r: &mut Reader<'_>) -> Option<pb::StraightAction> {
    let mut a = pb::StraightAction::default();
    fields!(r,
        "kind" => a.kind = r.name(pb::straight_action::Kind::from_str_name)?,
        "tile" => a.tile = Some(tile(r)?),
        "arm" => a.arm = r.name(pb::Arm::from_str_name)?,
        "matched" => a.matched = Some(r.uint()?),
    )?;
    Some(a)
}

fn streets_action(r: &mut Reader<'_>) -> Option<pb::StreetsAction> {
    let mut a = pb::StreetsAction::default();
    fields!(r,
        "kind" => a.kind = r.name(pb::streets_action::Kind::from_str_name)?,
        "tile" => a.tile = Some(tile(r)?),
        "spot" => a.spot = Some(spot(r)?),
        "first" => a.first = Some(r.uint()?),
    )?;
    Some(a)
}

fn spot(r: &mut Reader<'_>) -> Option<pb::Spot> {
    use pb::spot::At;
    let mut s = pb::Spot::default();
    fields!(r,
        "avenue" => one(&mut s.at, At::Avenue(avenue(r)?))?,
        "street" => one(&mut s.at, At::Street(street(r)?))?,
    )?;
    Some(s)
}

fn avenue(r: &mut Reader<'_>) -> Option<pb::Avenue> {
    let mut a = pb::Avenue::default();
    fields!(r, "column" => a.column = r.int()?, "row" => a.row = r.int()?)?;
    Some(a)
}

fn street(r: &mut Reader<'_>) -> Option<pb::Street> {
    let mut s = pb::Street::default();
    fields!(r, "gap" => s.gap = r.int()?, "halfRow" => s.half_row = r.int()?)?;
    Some(s)
}

fn bot_faulted(r: &mut Reader<'_>) -> Option<pb::BotFaulted> {
    let mut f = pb::BotFaulted::default();
    fields!(r,
        "seat" => f.seat = r.uint()?,
        "botId" => f.bot_id = r.owned()?,
        "version" => f.version = r.owned()?,
        "reason" => f.reason = r.owned()?,
        "detail" => f.detail = r.owned()?,
    )?;
    Some(f)
}

fn round_ended(r: &mut Reader<'_>) -> Option<pb::RoundEnded> {
    let mut e = pb::RoundEnded::default();
    fields!(r,
        "round" => e.round = r.uint()?,
        "end" => e.end = r.name(pb::RoundEnd::from_str_name)?,
        "winner" => e.winner = Some(r.uint()?),
        "points" => e.points = r.uint()?,
        "hands" => e.hands = hands(r)?,
        "scores" => e.scores = ints(r)?,
    )?;
    Some(e)
}

fn seat_resigned(r: &mut Reader<'_>) -> Option<pb::SeatResigned> {
    let mut s = pb::SeatResigned::default();
    fields!(r, "seat" => s.seat = r.uint()?)?;
    Some(s)
}

fn seat_timed_out(r: &mut Reader<'_>) -> Option<pb::SeatTimedOut> {
    let mut t = pb::SeatTimedOut::default();
    fields!(r,
        "seat" => t.seat = r.uint()?,
        "policy" => t.policy = r.name(pb::TimeoutPolicy::from_str_name)?,
    )?;
    Some(t)
}

fn game_ended(r: &mut Reader<'_>) -> Option<pb::GameEnded> {
    let mut e = pb::GameEnded::default();
    fields!(r,
        "winners" => e.winners = uints(r)?,
        "scores" => e.scores = ints(r)?,
        "penalties" => e.penalties = ints(r)?,
        "hands" => e.hands = hands(r)?,
        "reason" => e.reason = r.owned()?,
    )?;
    Some(e)
}

fn game_abandoned(r: &mut Reader<'_>) -> Option<pb::GameAbandoned> {
    let mut a = pb::GameAbandoned::default();
    fields!(r, "reason" => a.reason = r.owned()?)?;
    Some(a)
}

/// Sets a oneof, which must not be set yet (a second field of one oneof is left to the generic
/// reader).
fn one<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.is_none().then(|| *slot = Some(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(text: &str) -> Reader<'_> {
        Reader { text, at: 0, depth: 0 }
    }

    #[test]
    fn integers_are_plain_digits_in_range_bare_or_quoted() {
        assert_eq!(reader("7").uint::<u32>(), Some(7));
        assert_eq!(reader("\"18446744073709551615\"").uint::<u64>(), Some(u64::MAX));
        assert_eq!(reader("18446744073709551616").uint::<u64>(), None);
        assert_eq!(reader("4294967296").uint::<u32>(), None);
        assert_eq!(reader("-9223372036854775808").int::<i64>(), Some(i64::MIN));
        assert_eq!(reader("\"-12\"").int::<i32>(), Some(-12));
        for refused in ["07", "-0", "\"+1\"", "\" 1\"", "\"1 \"", "\"\"", "-", "x", "\"1"] {
            assert_eq!(reader(refused).int::<i64>(), None, "{refused}");
        }
        assert_eq!(reader("-1").uint::<u32>(), None);
    }

    #[test]
    fn keys_and_names_with_escapes_are_left_to_the_generic_reader() {
        assert_eq!(reader("\"plain é\"").string(), Some("plain é"));
        assert_eq!(reader("\"a\\\"b\"").string(), None);
        assert_eq!(reader("\"a\tb\"").string(), None);
        assert_eq!(reader("\"a\t\"").string(), None);
        assert_eq!(reader("\"open").string(), None);
    }

    #[test]
    fn string_values_have_their_escapes_decoded() {
        let decoded = |text: &str| reader(text).owned();
        assert_eq!(decoded(r#""Zoë \"the\" \\ \/ \b\f\n\r\t""#).as_deref(), Some("Zoë \"the\" \\ / \u{8}\u{c}\n\r\t"));
        assert_eq!(decoded(r#""\u00e9\u0041\ud83d\ude00""#).as_deref(), Some("éA😀"));
        for refused in [
            r#""\ud800""#,
            r#""\ud800\u0041""#,
            r#""\udc00""#,
            r#""\x41""#,
            r#""\u00g0""#,
            r#""\u+0e9""#,
            "\"a\tb\"",
            "\"open",
        ] {
            assert_eq!(decoded(refused), None, "{refused}");
        }
    }

    #[test]
    fn events_nest_in_forks_only_so_deep() {
        let nested = |depth: usize| {
            let mut line = String::from("{}");
            for _ in 1..depth {
                line = format!("{{\"gameCreated\":{{\"fork\":{{\"events\":[{line}]}}}}}}");
            }
            line
        };
        assert!(fast(&nested(DEPTH as usize)).is_some());
        assert!(fast(&nested(DEPTH as usize + 1)).is_none());
    }

    #[test]
    fn a_re_dealt_fork_is_read_whole() {
        let tile = |low, high| pb::Tile { low, high };
        let redeal = pb::Redeal {
            seat: 1,
            hands: vec![pb::Hand { seat: 0, tiles: vec![tile(0, 1), tile(2, 5)], count: 2 }],
            draws: vec![pb::TileDrawn { seat: 0, tile: Some(tile(3, 3)) }],
        };
        let fork = pb::Fork { game_id: "g".into(), sequence: 4, events: Vec::new(), redeal: Some(redeal) };
        let created = pb::GameCreated { fork: Some(fork), ..pb::GameCreated::default() };
        let event = pb::Event { payload: Some(pb::event::Payload::GameCreated(created)), ..pb::Event::default() };
        let line = serde_json::to_string(&event).expect("encodes");
        assert!(line.contains("redeal"), "{line}");
        assert_eq!(fast(&line), Some(event));
    }
}
