//! `GameService.Play` over real sockets: whole games played on one stream per seat, refused moves
//! answered on the stream, a dropped stream resumed without a gap or a repeat, a second stream
//! taking a seat over; and the friendlier unary calls (the token alone names the seat, `Act` by
//! notation).

mod support;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::play_move::Choice;
use clack_proto::v1::play_response::Message;
use clack_store::Durability;
use support::{Server, authed, new_game, straight_options, streets_options};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// One seat's open Play stream.
struct Seat {
    moves: mpsc::Sender<pb::PlayRequest>,
    replies: Streaming<pb::PlayResponse>,
}

async fn open(client: &mut GameServiceClient<Channel>, game_id: &str, token: &str, after: u64) -> Seat {
    let (moves, outbound) = mpsc::channel(16);
    let hello = pb::PlayHello { game_id: game_id.into(), seat: None, after_sequence: after };
    moves.send(pb::PlayRequest { message: Some(pb::play_request::Message::Hello(hello)) }).await.expect("queued");
    let replies = client.play(authed(ReceiverStream::new(outbound), token)).await.expect("play").into_inner();
    Seat { moves, replies }
}

fn play(turn_sequence: u64, choice: Choice) -> pb::PlayRequest {
    pb::PlayRequest {
        message: Some(pb::play_request::Message::Move(pb::PlayMove { turn_sequence, choice: Some(choice) })),
    }
}

/// What a seat saw over a whole game.
#[derive(Debug, Default)]
struct Seen {
    sequences: Vec<u64>,
    turns: usize,
    foreign_tiles: usize,
}

/// Plays a seat to the end of the game on its stream, choosing each turn's action with `pick`.
async fn play_out(mut seat: Seat, me: u32, pick: impl Fn(&pb::Turn) -> Choice) -> Seen {
    let mut seen = Seen::default();
    while let Some(reply) = seat.replies.next().await {
        match reply.expect("the stream stays healthy").message.expect("a message") {
            Message::Event(event) => {
                seen.foreign_tiles += foreign_tiles(&event, me);
                seen.sequences.push(event.sequence);
            }
            Message::Turn(turn) => {
                seen.turns += 1;
                seat.moves.send(play(turn.sequence, pick(&turn))).await.expect("sent");
            }
            Message::Rejected(rejected) => panic!("a legal move was refused: {rejected:?}"),
        }
    }
    seen
}

/// Tiles of another seat's hand that an event shows to seat `me`.
fn foreign_tiles(event: &pb::Event, me: u32) -> usize {
    match &event.payload {
        Some(pb::event::Payload::Dealt(dealt)) => {
            dealt.hands.iter().enumerate().filter(|(seat, _)| *seat as u32 != me).map(|(_, h)| h.tiles.len()).sum()
        }
        Some(pb::event::Payload::TileDrawn(drawn)) if drawn.seat != me => usize::from(drawn.tile.is_some()),
        _ => 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_are_played_on_one_stream_per_seat() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    for (options, by_notation) in [(straight_options(2, 100), false), (streets_options(2), true)] {
        let (game, tokens) = new_game(&mut client, options, 7).await;
        let mut tasks = Vec::new();
        for (me, token) in tokens.iter().enumerate() {
            let seat = open(&mut client, &game, token, 0).await;
            tasks.push(tokio::spawn(play_out(seat, me as u32, move |turn: &pb::Turn| {
                if by_notation {
                    Choice::Notation(turn.notation[0].clone())
                } else {
                    Choice::Index(turn.actions.len() as u32 - 1)
                }
            })));
        }
        let mut all = Vec::new();
        for task in tasks {
            all.push(task.await.expect("seat task"));
        }
        let view = support::spectate(&mut client, &game).await;
        assert_eq!(view.status, pb::GameStatus::Finished as i32);
        for seen in &all {
            let expected: Vec<u64> = (1..=view.sequence).collect();
            assert_eq!(seen.sequences, expected, "every event once, in order");
            assert!(seen.turns > 0);
            assert_eq!(seen.foreign_tiles, 0, "a seat never sees another hand while the game is on");
        }
        let verified = server.replay().await.verify(pb::VerifyRequest { game_id: game }).await.expect("verify");
        assert!(verified.into_inner().ok);
    }
    server.stop().await;
}

/// Reads the seat's stream until its turn comes.
async fn next_turn(seat: &mut Seat) -> pb::Turn {
    loop {
        match seat.replies.next().await.expect("open").expect("ok").message.expect("message") {
            Message::Turn(turn) => return turn,
            Message::Rejected(rejected) => panic!("unexpected refusal {rejected:?}"),
            Message::Event(_) => {}
        }
    }
}

/// The next message, which must be a refusal: a refused move changes nothing, so no event comes
/// before it.
async fn next_rejection(seat: &mut Seat) -> pb::Rejected {
    match seat.replies.next().await.expect("open").expect("ok").message.expect("message") {
        Message::Rejected(rejected) => rejected,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_moves_are_answered_on_the_stream_and_the_turn_stands() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 100), 11).await;
    let to_move = support::spectate(&mut client, &game).await.to_move.expect("a seat to move");
    let mut seat = open(&mut client, &game, &tokens[to_move as usize], 0).await;
    let turn = next_turn(&mut seat).await;

    seat.moves.send(play(turn.sequence, Choice::Index(999))).await.expect("sent");
    let rejected = next_rejection(&mut seat).await;
    assert_eq!((rejected.code, rejected.turn_sequence), (Code::InvalidArgument as i32, turn.sequence));
    assert!(rejected.message.contains("move.index"), "{}", rejected.message);
    seat.moves.send(play(turn.sequence - 1, Choice::Index(0))).await.expect("sent");
    assert_eq!(next_rejection(&mut seat).await.code, Code::Aborted as i32, "a stale turn");
    seat.moves.send(play(turn.sequence, Choice::Notation("nonsense".into()))).await.expect("sent");
    let rejected = next_rejection(&mut seat).await;
    assert_eq!(rejected.code, Code::InvalidArgument as i32);
    assert!(rejected.message.contains("notation"), "{}", rejected.message);
    let hand = support::spectate(&mut client, &game).await.sequence;
    assert_eq!(hand, turn.sequence, "nothing was played");

    // The turn still stands: a legal move by its full form is taken.
    seat.moves.send(play(turn.sequence, Choice::Action(turn.actions[0]))).await.expect("sent");
    loop {
        match seat.replies.next().await.expect("open").expect("ok").message.expect("message") {
            Message::Event(event) if event.sequence > turn.sequence => break,
            Message::Event(_) => {}
            other => panic!("expected the move's events, got {other:?}"),
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_resumes_without_gap_or_repeat_and_a_second_stream_takes_over() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 100), 5).await;
    // Seat 1 plays its whole game on one stream; seat 0 drops its stream now and then.
    let steady = open(&mut client, &game, &tokens[1], 0).await;
    let steady = tokio::spawn(play_out(steady, 1, |turn: &pb::Turn| Choice::Index(turn.actions.len() as u32 - 1)));
    let mut sequences = Vec::new();
    let mut seat = open(&mut client, &game, &tokens[0], 0).await;
    let mut moves = 0;
    loop {
        let Some(reply) = seat.replies.next().await else { break };
        match reply.expect("ok").message.expect("message") {
            Message::Event(event) => sequences.push(event.sequence),
            Message::Turn(turn) => {
                seat.moves.send(play(turn.sequence, Choice::Index(0))).await.expect("sent");
                moves += 1;
                if moves % 3 == 0 {
                    // Drop the stream and come back from the last event seen.
                    drop(seat);
                    let last = sequences.last().copied().unwrap_or(0);
                    seat = open(&mut client, &game, &tokens[0], last).await;
                }
            }
            Message::Rejected(rejected) => panic!("{rejected:?}"),
        }
    }
    steady.await.expect("steady seat");
    let end = support::spectate(&mut client, &game).await.sequence;
    assert_eq!(sequences, (1..=end).collect::<Vec<u64>>(), "no gap, no repeat across reconnections");
    assert!(moves >= 3, "the stream was dropped at least once");

    // Takeover: a second stream for a seat ends the first one.
    let (game, tokens) = new_game(&mut client, straight_options(2, 100), 6).await;
    let mut first = open(&mut client, &game, &tokens[0], 0).await;
    first.replies.next().await.expect("an event").expect("ok");
    let _second = open(&mut client, &game, &tokens[0], 0).await;
    let ended = loop {
        match first.replies.next().await {
            Some(Ok(_)) => continue,
            Some(Err(status)) => break status,
            None => panic!("the first stream ended without a status"),
        }
    };
    assert_eq!(ended.code(), Code::FailedPrecondition);
    assert!(ended.message().contains("taken over seat 0"), "{}", ended.message());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_alone_names_the_seat_and_act_takes_a_notation() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 100), 3).await;
    let to_move = support::spectate(&mut client, &game).await.to_move.expect("a seat to move");
    let token = &tokens[to_move as usize];
    let legal = pb::ListLegalActionsRequest { game_id: game.clone(), seat: None };
    let legal = client.list_legal_actions(authed(legal, token)).await.expect("legal").into_inner();
    assert!(!legal.actions.is_empty(), "the token's seat is to move");
    let view = client.get_view(authed(pb::GetViewRequest { game_id: game.clone(), seat: None }, token)).await;
    assert_eq!(view.expect("view").into_inner().view.expect("view").viewer_seat, Some(to_move));

    let other = 1 - to_move;
    let mismatch = pb::ListLegalActionsRequest { game_id: game.clone(), seat: Some(other) };
    let refused = client.list_legal_actions(authed(mismatch, token)).await.expect_err("another seat");
    assert_eq!(refused.code(), Code::PermissionDenied);

    let both = pb::ActRequest {
        game_id: game.clone(),
        expected_sequence: legal.sequence,
        action: legal.actions.first().cloned(),
        notation: legal.notation[0].clone(),
        ..Default::default()
    };
    assert_eq!(client.act(authed(both, token)).await.expect_err("both").code(), Code::InvalidArgument);
    let by_notation = pb::ActRequest {
        game_id: game.clone(),
        expected_sequence: legal.sequence,
        notation: legal.notation[0].clone(),
        ..Default::default()
    };
    let acted = client.act(authed(by_notation, token)).await.expect("by notation").into_inner();
    assert!(acted.sequence > legal.sequence);
    server.stop().await;
}

/// A hello that claims events the game does not have yet is refused at once (OUT_OF_RANGE,
/// naming the last sequence), not left open with nothing sent while the seat's clock runs; one
/// at the last sequence is offered its turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_past_the_last_event_is_out_of_range() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 100), 5).await;
    let view = support::spectate(&mut client, &game).await;
    let (last, to_move) = (view.sequence, view.to_move.expect("a seat to act") as usize);
    let (moves, outbound) = mpsc::channel(1);
    let hello = pb::PlayHello { game_id: game.clone(), seat: None, after_sequence: last + 5 };
    moves.send(pb::PlayRequest { message: Some(pb::play_request::Message::Hello(hello)) }).await.expect("queued");
    let refused = match client.play(authed(ReceiverStream::new(outbound), &tokens[to_move])).await {
        Err(status) => status,
        Ok(replies) => {
            let first = tokio::time::timeout(std::time::Duration::from_secs(10), replies.into_inner().next()).await;
            first.expect("an answer, not silence").expect("the stream ends").expect_err("an error")
        }
    };
    assert_eq!(refused.code(), Code::OutOfRange, "{refused:?}");
    assert!(refused.message().contains(&format!("last event, {last}")), "{}", refused.message());
    let mut seat = open(&mut client, &game, &tokens[to_move], last).await;
    assert_eq!(next_turn(&mut seat).await.sequence, last, "at the last sequence, the turn comes");
    drop(moves);
    server.stop().await;
}
