//! The fast line reader against the generic proto3 JSON reader (pbjson): on every kind of event
//! Clack writes, the fast reader reads the line itself into the same event, and on damaged
//! copies of those lines the two together accept exactly what pbjson accepts, into the same
//! event, and the fast reader alone never accepts anything pbjson refuses or reads differently.

mod fixture;

use clack_analysis::line;
use clack_log::{Allowance, GameLog, TimeControl, TimeoutPolicy, json};
use clack_proto::v1 as pb;
use clack_rules::Seat;
use clack_rules::game::Options;
use clack_rules::{straight, streets};
use fixture::{bot, game, game_with_faults, straight2, streets2};

/// Plays the first legal action until the game is over.
fn play_out(log: &mut GameLog, events: &mut Vec<pb::Event>, mut now: i64) {
    while let Some(seat) = log.to_move() {
        now += 7;
        let action = log.game().legal_actions()[0];
        events.extend(log.perform(seat, action, now).expect("legal"));
    }
}

fn open() -> pb::SeatSpec {
    pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat {})) }
}

/// A clocked game with open seats: joins (one name that needs escapes), then a timeout under
/// `policy` of the first seat to act, then play to the end.
fn clocked(id: &str, allowance: Allowance, policy: TimeoutPolicy) -> Vec<pb::Event> {
    let options = Options::Straight(straight::Options { players: 2, target: 30, ..straight::Options::default() });
    let control = TimeControl { allowance, policy };
    let (mut log, mut events) =
        GameLog::create_timed(id, options, Some(control), vec![open(), open()], 9, 1_000).expect("valid");
    events.push(log.join(None, "Zoë \"the\" \\ player\n", 1_001).expect("open").1);
    events.push(log.join(Some(1), "", 1_002).expect("open").1);
    events.extend(log.time_out(1_000_000_000).expect("late"));
    play_out(&mut log, &mut events, 1_000_000_000);
    events
}

/// Every kind of event and option Clack writes.
fn corpus() -> Vec<Vec<pb::Event>> {
    let mut games = vec![
        game_with_faults("t1", streets2(), vec![bot("a"), bot("b")], 1, false, &[(0, "deadline"), (3, "error")]),
        game("t2", streets2(), vec![bot("b"), bot("a")], 2, true),
        game("s1", straight2(20), Vec::new(), 3, false),
        game("s2", straight2(20), Vec::new(), 4, true),
    ];
    let big = Options::Streets(streets::Options {
        set: streets::DominoSet::DoubleTwelve,
        players: 4,
        may_pass_when_able: true,
    });
    games.push(game("t4", big, Vec::new(), 5, false));
    let teams = Options::Straight(straight::Options {
        players: 4,
        teams: true,
        // Four hands of seven take the whole set: nothing is left to hold back.
        boneyard_reserve: 0,
        spinner: straight::SpinnerRule::FirstDouble,
        spinner_sides_open_immediately: true,
        may_draw_when_able: true,
        blocked_scoring: straight::BlockedScoring::Opponents,
        target: 60,
        finish_round_at_target: true,
    });
    games.push(game("s4", teams, Vec::new(), 6, true));
    let reserve = Options::Straight(straight::Options {
        players: 3,
        boneyard_reserve: 2,
        target: 40,
        ..straight::Options::default()
    });
    games.push(game("s3", reserve, Vec::new(), 7, true));
    games.push(clocked("c1", Allowance::Fischer { initial: 5_000, increment: 100 }, TimeoutPolicy::AutoMove));
    games.push(clocked("c2", Allowance::PerMove { millis: 2_000 }, TimeoutPolicy::Forfeit));
    games.push(resigned());
    games.push(abandoned());
    let fork = forked("f1", &games[2], 6);
    games.push(forked("f2", &fork, 4));
    games.push(fork);
    games
}

fn resigned() -> Vec<pb::Event> {
    let (mut log, mut events) = GameLog::create("r1", streets2(), Vec::new(), 7, 1_000).expect("valid");
    events.extend(log.resign(Seat(1), 1_010).expect("on"));
    events
}

fn abandoned() -> Vec<pb::Event> {
    let (mut log, mut events) = GameLog::create("a1", streets2(), vec![open(), open()], 8, 1_000).expect("valid");
    events.extend(log.abandon("cancelled by owner \u{1F600}", 1_010).expect("waiting"));
    events
}

/// A fork of `parent` after its event `sequence`, played out.
fn forked(id: &str, parent: &[pb::Event], sequence: u64) -> Vec<pb::Event> {
    let (mut log, mut events) = GameLog::fork(id, parent, sequence, Vec::new(), 11, 5_000).expect("forks");
    play_out(&mut log, &mut events, 5_000);
    events
}

fn lines() -> Vec<String> {
    corpus().iter().flatten().map(json::to_line).collect()
}

#[test]
fn the_corpus_holds_every_kind_of_event() {
    let mut kinds = std::collections::BTreeSet::new();
    for event in corpus().iter().flatten() {
        let payload = event.payload.as_ref().expect("a payload");
        kinds.insert(format!("{payload:?}").split('(').next().unwrap_or_default().to_owned());
    }
    assert_eq!(kinds.len(), 12, "{kinds:?}");
}

#[test]
fn the_fast_reader_reads_every_line_clack_writes_into_the_same_event() {
    for (text, event) in lines().iter().zip(corpus().iter().flatten()) {
        let fast = line::fast(text).unwrap_or_else(|| panic!("the fast reader refuses {text}"));
        assert_eq!(&fast, event, "{text}");
        assert_eq!(json::from_line(text).expect("pbjson reads it"), fast);
    }
}

/// Damaged copies of a line: every character cut out, and typical edits of its values.
fn damaged(text: &str) -> Vec<String> {
    let mut out: Vec<String> =
        text.char_indices().map(|(i, c)| format!("{}{}", &text[..i], &text[i + c.len_utf8()..])).collect();
    let edits: &[(&str, &str)] = &[
        (":{", ":null"),
        (":{", ":[]"),
        (":\"", ":null"),
        (":[", ":null"),
        ("\"sequence\":\"", "\"sequence\":\"+"),
        ("\"sequence\":\"", "\"sequence\":\"-"),
        ("\"sequence\":\"", "\"sequence\":\" "),
        ("\"gameId\"", "\"game_id\""),
        ("\"gameId\"", "\"unknown\""),
        ("\"unixMillis\"", "\"unix_millis\""),
        (",\"", ",\"extra\":1,\""),
        ("\"seat\":", "\"seat\":\"1\",\"seat\":"),
        ("\"seat\":0", "\"seat\":\"0\""),
        ("\"seat\":1", "\"seat\":1.0"),
        ("\"seat\":1", "\"seat\":-1"),
        ("\"seat\":1", "\"seat\":4294967296"),
        ("\"low\":", "\"low\":null,\"x\":"),
        ("\"high\":", "\"high\":\"2\",\"y\":"),
        ("\"round\":1", "\"round\":\"1\""),
        ("\"round\":1", "\"round\":1e0"),
        ("KIND_PLACE", "KIND_place"),
        ("\"KIND_PLACE\"", "1"),
        ("\"GAME_KIND_STREETS\"", "2"),
        ("\"GAME_KIND_STREETS\"", "{\"GAME_KIND_STREETS\":null}"),
        ("\"open\":{}", "\"open\":{},\"bot\":null"),
        ("\"open\":{}", "\"bot\":null,\"open\":{}"),
        ("\"open\":{}", "\"open\":null"),
        ("\"avenue\":{", "\"street\":{\"gap\":0,\"halfRow\":0},\"avenue\":{"),
        ("\"seed\":\"", "\"seed\":null,\"z\":\""),
        ("\"seed\":\"", "\"seed\":\"1\",\"seed\":\""),
        ("\"teams\":false", "\"teams\":0"),
        ("\"teams\":false", "\"teams\":null"),
        ("\"winner\":", "\"winner\":null,\"w\":"),
        ("\"scores\":[\"", "\"scores\":[1,\""),
        ("\"scores\":[", "\"scores\":[null,"),
        ("\"dealt\":{", "\"dealt\":null,\"seatJoined\":{},\"dealt\":{"),
        ("\"dealt\":{", "\"seatResigned\":{},\"dealt\":{"),
        ("\"dealt\":{", "\"dealt\":[{"),
        ("{\"gameId\"", "[{\"gameId\""),
        ("{\"gameId\"", " {\"gameId\""),
        ("}", "} "),
        ("}", "}x"),
        ("\"name\":\"", "\"name\":\"\\u00e9\\ud800"),
        ("\"name\":\"", "\"name\":\"\\u00e9"),
        ("\"reason\":\"", "\"reason\":\"\\t"),
        ("\"botId\"", "\"bot\\u0049d\""),
        ("\"name\":\"", "\"name\":\"\\ud83d\\ude00\\/\\b\\u00E9"),
        ("\"name\":\"", "\"name\":\"\\udc00"),
        ("\"name\":\"", "\"name\":\"\\ud83d\\u0041"),
        ("\"name\":\"", "\"name\":\"\\u00"),
        ("\"name\":\"", "\"name\":\"\\q"),
        ("\"reason\":\"", "\"reason\":\"\\u0000\\\"\\\\"),
        ("\"detail\":\"", "\"detail\":\"\\r\\n\\f\\t"),
        ("\"gameId\":\"", "\"gameId\":\"\\u0063"),
        ("\"KIND_PLACE\"", "\"KIND_\\u0050LACE\""),
    ];
    for (from, to) in edits {
        if text.contains(from) {
            out.push(text.replacen(from, to, 1));
            out.push(text.replace(from, to));
        }
    }
    out
}

#[test]
fn on_damaged_lines_the_readers_together_accept_exactly_what_pbjson_accepts() {
    let mut checked = 0;
    let mut accepted = 0;
    let texts = lines();
    // Every line of the corpus is long; a sample of them keeps the test quick, every edit on all.
    for (i, text) in texts.iter().enumerate() {
        let copies = damaged(text);
        let copies = if i % 17 == 0 { copies } else { copies.into_iter().skip(text.chars().count()).collect() };
        for copy in copies {
            let generic = json::from_line(&copy);
            let fast = line::fast(&copy);
            if let Some(fast) = &fast {
                assert_eq!(generic.as_ref().ok(), Some(fast), "the fast reader reads {copy} differently");
            }
            let read = line::read(&copy);
            match (&read, &generic) {
                (Ok(read), Ok(generic)) => assert_eq!(read, generic, "{copy}"),
                (Err(read), Err(generic)) => assert_eq!(read.to_string(), generic.to_string(), "{copy}"),
                _ => panic!("read and pbjson disagree on {copy}: {read:?} / {generic:?}"),
            }
            checked += 1;
            accepted += usize::from(generic.is_ok());
        }
    }
    // Some damaged copies are still events (a snake_case name, a number as a string, ...).
    assert!(accepted > 0 && accepted < checked, "{accepted} of {checked}");
}
