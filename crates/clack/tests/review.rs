//! `ReplayService.ReviewGame` over real gRPC: a finished game's review streams progress and then
//! the review; the engine's own seat has lost nothing at its own level; the review is kept and
//! sent again at once; a bad level or an unfinished game is refused.

mod support;

use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_store::Durability;
use support::{Server, spectate, straight_options};
use tonic::Code;

fn engine_seat(level: &str) -> pb::SeatSpec {
    pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat {
            bot_id: format!("engine:{level}"),
            version: String::new(),
        })),
    }
}

/// Every reply of one ReviewGame call.
async fn review(
    replay: &mut clack_proto::v1::replay_service_client::ReplayServiceClient<tonic::transport::Channel>,
    game_id: &str,
    level: &str,
) -> Result<Vec<pb::ReviewGameResponse>, tonic::Status> {
    let request = pb::ReviewGameRequest { game_id: game_id.into(), level: level.into(), kept_only: false };
    let mut stream = replay.review_game(request).await?.into_inner();
    let mut replies = Vec::new();
    while let Some(reply) = stream.message().await? {
        replies.push(reply);
    }
    Ok(replies)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_streamed_and_kept() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut games, mut replay) = (server.games().await, server.replay().await);
    let open = pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat::default())) };
    let waiting = games
        .create_game(pb::CreateGameRequest {
            options: Some(straight_options(2, 60)),
            seats: vec![engine_seat("fast"), open],
            seed: Some(2),
        })
        .await
        .expect("create")
        .into_inner()
        .game_id;
    let refused = review(&mut replay, &waiting, "fast").await.expect_err("not finished");
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");

    let created = pb::CreateGameRequest {
        options: Some(straight_options(2, 60)),
        seats: vec![engine_seat("fast"), engine_seat("default")],
        seed: Some(3),
    };
    let game = games.create_game(created).await.expect("create").into_inner().game_id;
    let started = Instant::now();
    while spectate(&mut games, &game).await.status != pb::GameStatus::Finished as i32 {
        assert!(started.elapsed() < Duration::from_secs(120), "the engine game did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let kept_only = |level: &str| pb::ReviewGameRequest { game_id: game.clone(), level: level.into(), kept_only: true };
    let none = replay.review_game(kept_only("fast")).await.expect_err("nothing kept yet");
    assert_eq!(none.code(), Code::NotFound, "{none:?}");
    let replies = review(&mut replay, &game, "fast").await.expect("review");
    let (last, progress) = replies.split_last().expect("replies");
    assert!(!progress.is_empty(), "progress comes before the review");
    assert!(progress.iter().all(|r| matches!(r.body, Some(pb::review_game_response::Body::Progress(_)))));
    let Some(pb::review_game_response::Body::Review(made)) = &last.body else { panic!("the review comes last") };
    assert_eq!(made.level, "fast");
    let engine = made.seats.iter().find(|s| s.seat == 0).expect("seat 0");
    assert!(engine.decisions > 0);
    assert_eq!(engine.loss.as_ref().expect("loss").mean, 0.0, "engine:fast loses nothing at its own level");
    assert_eq!(engine.labels[0], engine.decisions, "every decision of engine:fast is its best");
    let log = replay.get_log(pb::GetLogRequest { game_id: game.clone() }).await.expect("log").into_inner().events;
    for decision in &made.decisions {
        let event = &log[decision.sequence as usize - 1];
        assert!(
            matches!(&event.payload, Some(Payload::ActionApplied(a)) if a.seat == decision.seat),
            "decision at {} is an action of seat {}",
            decision.sequence,
            decision.seat
        );
    }
    assert!(made.chances.iter().any(|c| c.kind == "deal"));

    let again = review(&mut replay, &game, "fast").await.expect("review again");
    assert_eq!(again.len(), 1, "a kept review is sent at once");
    assert_eq!(again[0], *last);
    let mut kept = replay.review_game(kept_only("fast")).await.expect("kept").into_inner();
    assert_eq!(kept.message().await.expect("reply").as_ref(), Some(last));
    // Listings say which games are reviewed, and at which levels; so does a restarted server.
    let listed = |games: Vec<pb::GameSummary>| {
        games.into_iter().find(|g| g.game_id == game).map(|g| g.reviewed).expect("the game is listed")
    };
    let page = games.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner();
    assert_eq!(listed(page.games), vec!["fast".to_owned()]);
    server.stop().await;
    let server = Server::restart(dir.path()).await;
    let mut games = server.games().await;
    let mut replay = server.replay().await;
    let page = games.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner();
    assert_eq!(listed(page.games), vec!["fast".to_owned()], "the marks outlive a restart");

    let refused = review(&mut replay, &game, "wizard").await.expect_err("no such level");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("level"), "{}", refused.message());
    server.stop().await;
}
