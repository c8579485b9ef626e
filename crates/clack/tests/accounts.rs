//! Accounts, API keys, ownership and quotas, over real sockets: a server that strangers share.
//! Every denial is checked twice: the status, and that nothing changed.

#![allow(clippy::unwrap_used)] // a test that cannot set up fails, and says where

mod support;

use std::time::Duration;

use clack_proto::v1 as pb;
use clack_server::{Limits, Mode, Quotas};
use support::{Server, keyed, owned, straight_options};
use tonic::{Code, Request};
use tonic_types::StatusExt;

const ADMIN_KEY: &str = "an-admin-key-long-enough-for-the-test-0001";
const GREEDY: &str = include_str!("../../../bots/straight-greedy.rhai");
const DEFENDER: &str = include_str!("../../../bots/straight-defender.rhai");
const STREETS: &str = include_str!("../../../bots/streets-greedy.rhai");

fn closed() -> Limits {
    Limits { mode: Mode::Closed, ..Limits::default() }
}

fn upload(name: &str, source: &str) -> pb::UploadBotRequest {
    pb::UploadBotRequest { name: name.into(), kind: pb::GameKind::Straight as i32, source: source.into() }
}

/// A new account with one key; returns the key.
async fn account(server: &Server, name: &str) -> String {
    let request = pb::CreateAccountRequest { name: name.into(), admin: false, with_key: true };
    let reply = server.admin().await.create_account(keyed(request, ADMIN_KEY)).await.expect("account");
    reply.into_inner().key
}

fn code<T: std::fmt::Debug>(result: Result<T, tonic::Status>) -> Code {
    result.expect_err("the call is refused").code()
}

#[tokio::test]
async fn another_account_can_neither_overwrite_retire_nor_read_a_bot() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_limited(dir.path(), closed(), Some(ADMIN_KEY)).await;
    let (ada, bob) = (account(&server, "ada").await, account(&server, "bob").await);
    let mut bots = server.bots().await;
    let uploaded = bots.upload_bot(keyed(upload("greedy", GREEDY), &ada)).await.unwrap().into_inner();
    assert_eq!(uploaded.owner, "ada");
    assert!(uploaded.owner_token.is_empty(), "an account's bot needs no owner token");

    let overwrite = bots.upload_bot(keyed(upload("greedy", DEFENDER), &bob)).await;
    let denied = overwrite.expect_err("bob may not add a version");
    assert_eq!(denied.code(), Code::PermissionDenied);
    assert!(denied.message().contains("bot greedy is owned by account ada"), "{}", denied.message());
    assert!(!denied.message().contains(&bob), "a denial never echoes the key");
    let retire = pb::RetireBotRequest { bot_id: "greedy".into(), version: None };
    assert_eq!(code(bots.retire_bot(keyed(retire.clone(), &bob)).await), Code::PermissionDenied);
    let validate = pb::ValidateBotRequest { bot_id: "greedy".into(), version: None, games: 1 };
    assert_eq!(code(bots.validate_bot(keyed(validate, &bob)).await), Code::PermissionDenied);
    assert_eq!(code(bots.retire_bot(Request::new(retire.clone())).await), Code::Unauthenticated);

    let get = pb::GetBotRequest { bot_id: "greedy".into(), version: None };
    let seen_by_bob = bots.get_bot(keyed(get.clone(), &bob)).await.unwrap().into_inner();
    assert!(seen_by_bob.source.is_empty(), "only the owner reads the source");
    let summary = seen_by_bob.bot.expect("everyone sees the summary");
    assert_eq!((summary.versions.len(), summary.retired, summary.owner.as_str()), (1, false, "ada"), "nothing changed");
    let seen_by_ada = bots.get_bot(keyed(get, &ada)).await.unwrap().into_inner();
    assert_eq!(seen_by_ada.source, GREEDY);

    bots.retire_bot(keyed(retire, ADMIN_KEY)).await.expect("an admin may retire any bot");
    server.stop().await;
}

#[tokio::test]
async fn on_an_open_server_the_owner_token_of_the_first_upload_proves_ownership() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_limited(dir.path(), Limits::default(), None).await;
    let mut bots = server.bots().await;
    let uploaded = bots.upload_bot(upload("mine", GREEDY)).await.unwrap().into_inner();
    let token = uploaded.owner_token;
    assert_eq!(token.len(), 64, "a fresh owner token");
    assert_eq!(uploaded.owner, "anonymous");

    assert_eq!(code(bots.upload_bot(upload("mine", DEFENDER)).await), Code::PermissionDenied);
    assert_eq!(code(bots.upload_bot(owned(upload("mine", DEFENDER), "guessed")).await), Code::PermissionDenied);
    let get = pb::GetBotRequest { bot_id: "mine".into(), version: None };
    assert!(bots.get_bot(get.clone()).await.unwrap().into_inner().source.is_empty());

    let second = bots.upload_bot(owned(upload("mine", DEFENDER), &token)).await.unwrap().into_inner();
    assert!(second.owner_token.is_empty(), "the token is shown once, at the first upload");
    assert_eq!(bots.get_bot(owned(get, &token)).await.unwrap().into_inner().source, DEFENDER);
    let retire = pb::RetireBotRequest { bot_id: "mine".into(), version: None };
    assert_eq!(code(bots.retire_bot(retire.clone()).await), Code::PermissionDenied);
    bots.retire_bot(owned(retire, &token)).await.expect("the owner retires it");
    server.stop().await;
}

#[tokio::test]
async fn a_revoked_key_stops_working_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_limited(dir.path(), closed(), Some(ADMIN_KEY)).await;
    let key = account(&server, "ada").await;
    let mut games = server.games().await;
    let list = || pb::ListGamesRequest::default();
    games.list_games(keyed(list(), &key)).await.expect("a valid key works");

    let mut admin = server.admin().await;
    let accounts = admin.list_accounts(keyed(pb::ListAccountsRequest {}, ADMIN_KEY)).await.unwrap().into_inner();
    let ada = accounts.accounts.iter().find(|a| a.name == "ada").expect("ada is listed");
    let key_id = ada.keys[0].key_id.clone();
    assert!(key.contains(&key_id) && !format!("{accounts:?}").contains(&key), "listings show ids, never keys");
    admin.revoke_key(keyed(pb::RevokeKeyRequest { key_id }, ADMIN_KEY)).await.expect("revoked");

    assert_eq!(code(games.list_games(keyed(list(), &key)).await), Code::Unauthenticated);
    assert_eq!(code(admin.list_accounts(keyed(pb::ListAccountsRequest {}, &key)).await), Code::Unauthenticated);
    let fresh = admin.create_key(keyed(pb::CreateKeyRequest { account: "ada".into() }, ADMIN_KEY)).await.unwrap();
    games.list_games(keyed(list(), &fresh.into_inner().key)).await.expect("a new key works");
    server.stop().await;
}

#[tokio::test]
async fn a_closed_server_refuses_anonymous_calls_but_shows_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_limited(dir.path(), closed(), Some(ADMIN_KEY)).await;
    let key = account(&server, "ada").await;
    let mut games = server.games().await;
    let create = || pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: Vec::new(), seed: Some(1) };
    let refused = games.create_game(create()).await.expect_err("anonymous");
    assert_eq!(refused.code(), Code::Unauthenticated);
    assert!(refused.message().contains("x-clack-key"), "{}", refused.message());
    assert_eq!(code(server.bots().await.list_bots(pb::ListBotsRequest::default()).await), Code::Unauthenticated);
    assert_eq!(
        code(server.admin().await.list_accounts(keyed(pb::ListAccountsRequest {}, &key)).await),
        Code::PermissionDenied
    );

    let id = games.create_game(keyed(create(), &key)).await.unwrap().into_inner().game_id;
    let mut tokens = Vec::new();
    for seat in 0..2 {
        let join = pb::JoinGameRequest { game_id: id.clone(), seat: Some(seat), name: "p".into() };
        tokens.push(games.join_game(keyed(join, &key)).await.unwrap().into_inner().seat_token);
    }
    let mut resign = Request::new(pb::ResignRequest { game_id: id.clone(), seat: Some(0) });
    resign.metadata_mut().insert("authorization", format!("Bearer {}", tokens[0]).parse().unwrap());
    resign.metadata_mut().insert("x-clack-key", key.parse().unwrap());
    games.resign(resign).await.expect("the seat resigns");

    let mut replay = server.replay().await;
    let log = replay.get_log(pb::GetLogRequest { game_id: id.clone() }).await.expect("finished games are public");
    assert!(log.into_inner().events.len() > 3);
    let verified = replay.verify(pb::VerifyRequest { game_id: id }).await.unwrap().into_inner();
    assert!(verified.ok, "{}", verified.detail);
    server.stop().await;
}

#[tokio::test]
async fn a_game_belongs_to_its_creator_who_may_cancel_it_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_limited(dir.path(), Limits::default(), Some(ADMIN_KEY)).await;
    let (ada, bob) = (account(&server, "ada").await, account(&server, "bob").await);
    let mut games = server.games().await;
    let create = || pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: Vec::new(), seed: Some(1) };
    let created = games.create_game(keyed(create(), &ada)).await.unwrap().into_inner();
    let cancel = pb::CancelGameRequest { game_id: created.game_id.clone() };
    let denied = games.cancel_game(keyed(cancel.clone(), &bob)).await.expect_err("not bob's");
    assert_eq!(denied.code(), Code::PermissionDenied);
    assert!(denied.message().contains("owned by account ada"), "{}", denied.message());
    assert_eq!(support::spectate(&mut games, &created.game_id).await.status, pb::GameStatus::Waiting as i32);
    games.cancel_game(keyed(cancel.clone(), &ada)).await.expect("the creator cancels");
    let view = support::spectate(&mut games, &created.game_id).await;
    assert_eq!(view.status, pb::GameStatus::Finished as i32);
    assert!(view.winners.is_empty());
    assert_eq!(code(games.cancel_game(keyed(cancel, &ada)).await), Code::FailedPrecondition);

    // Anonymous creators get an owner token; a game that has started cannot be cancelled.
    let anonymous = games.create_game(create()).await.unwrap().into_inner();
    assert_eq!(anonymous.owner_token.len(), 64);
    let cancel = pb::CancelGameRequest { game_id: anonymous.game_id.clone() };
    assert_eq!(code(games.cancel_game(cancel.clone()).await), Code::PermissionDenied);
    for seat in 0..2 {
        let join = pb::JoinGameRequest { game_id: anonymous.game_id.clone(), seat: Some(seat), name: "p".into() };
        games.join_game(join).await.unwrap();
    }
    assert_eq!(code(games.cancel_game(owned(cancel, &anonymous.owner_token)).await), Code::FailedPrecondition);
    let unknown = pb::CancelGameRequest { game_id: "no-such-game".into() };
    assert_eq!(code(games.cancel_game(keyed(unknown, &ada)).await), Code::NotFound);
    server.stop().await;
}

#[tokio::test]
async fn each_quota_is_reached_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let quotas = Quotas {
        live_games: 2,
        bots: 1,
        versions_per_bot: 1,
        match_games_per_minute: 6,
        match_games_per_call: 5,
        requests_per_second: 0,
    };
    let server = Server::start_limited(dir.path(), Limits { quotas, ..Limits::default() }, Some(ADMIN_KEY)).await;
    let (ada, bob) = (account(&server, "ada").await, account(&server, "bob").await);
    let mut games = server.games().await;
    let create = || pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: Vec::new(), seed: Some(1) };
    for _ in 0..2 {
        games.create_game(keyed(create(), &ada)).await.expect("within the quota");
    }
    let third = games.create_game(keyed(create(), &ada)).await.expect_err("over the quota");
    assert_eq!(third.code(), Code::ResourceExhausted);
    assert!(third.message().contains("account ada has 2 unfinished games"), "{}", third.message());
    games.create_game(keyed(create(), &bob)).await.expect("bob has his own quota");

    let mut bots = server.bots().await;
    let first = bots.upload_bot(keyed(upload("one", GREEDY), &ada)).await.unwrap().into_inner();
    assert_eq!(code(bots.upload_bot(keyed(upload("two", GREEDY), &ada)).await), Code::ResourceExhausted);
    assert_eq!(code(bots.upload_bot(keyed(upload("one", DEFENDER), &ada)).await), Code::ResourceExhausted);

    let entrant = || pb::MatchEntrant { bot_id: first.bot_id.clone(), version: Some(first.version.clone()) };
    let matched = |games| pb::RunMatchRequest {
        options: Some(straight_options(2, 50)),
        entrants: vec![entrant(), entrant()],
        games,
        seed: Some(1),
    };
    let over = bots.run_match(keyed(matched(6), &ada)).await.expect_err("over the ceiling per call");
    assert_eq!(over.code(), Code::ResourceExhausted, "the ceiling per call is a quota like the others");
    assert!(
        over.message().contains("6 games are more than this server's 5 games per match call"),
        "{}",
        over.message()
    );
    bots.run_match(keyed(matched(5), &ada)).await.expect("within the minute's games");
    let later = bots.run_match(keyed(matched(5), &ada)).await.expect_err("over the minute's games");
    assert_eq!(later.code(), Code::ResourceExhausted);
    let wait = later.get_details_retry_info().and_then(|r| r.retry_delay).expect("a RetryInfo detail");
    assert!(wait > Duration::ZERO && wait <= Duration::from_secs(60), "{wait:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_caller_over_its_request_rate_is_told_when_to_retry() {
    let dir = tempfile::tempdir().unwrap();
    let quotas = Quotas { requests_per_second: 5, ..Quotas::default() };
    let server = Server::start_limited(dir.path(), Limits { quotas, ..Limits::default() }, Some(ADMIN_KEY)).await;
    let ada = account(&server, "ada").await;
    let mut games = server.games().await;
    let mut refused = None;
    for _ in 0..20 {
        if let Err(status) = games.list_games(keyed(pb::ListGamesRequest::default(), &ada)).await {
            refused = Some(status);
            break;
        }
    }
    let refused = refused.expect("twenty calls at once are over five a second");
    assert_eq!(refused.code(), Code::ResourceExhausted);
    let wait = refused.get_details_retry_info().and_then(|r| r.retry_delay).expect("a RetryInfo detail");
    assert!(wait <= Duration::from_secs(1), "{wait:?}");
    tokio::time::sleep(wait).await;
    games.list_games(keyed(pb::ListGamesRequest::default(), &ada)).await.expect("after the wait the call goes through");
    server.stop().await;
}

#[tokio::test]
async fn retired_versions_play_no_matches_and_bots_sit_only_at_their_own_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_limited(dir.path(), Limits::default(), None).await;
    let mut bots = server.bots().await;
    let greedy = bots.upload_bot(upload("greedy", GREEDY)).await.unwrap().into_inner();
    let streets =
        pb::UploadBotRequest { name: "builder".into(), kind: pb::GameKind::Streets as i32, source: STREETS.into() };
    let streets = bots.upload_bot(streets).await.unwrap().into_inner();

    let bot_seat = |bot: &pb::UploadBotResponse| pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat {
            bot_id: bot.bot_id.clone(),
            version: bot.version.clone(),
        })),
    };
    let mut games = server.games().await;
    let wrong = pb::CreateGameRequest {
        options: Some(straight_options(2, 50)),
        seats: vec![bot_seat(&streets), pb::SeatSpec::default()],
        seed: Some(1),
    };
    let refused = games.create_game(wrong).await.expect_err("a Streets bot at a Straight table");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(
        refused.message().contains("seats[0]") && refused.message().contains("plays streets"),
        "{}",
        refused.message()
    );

    let retire = pb::RetireBotRequest { bot_id: "greedy".into(), version: Some(greedy.version.clone()) };
    bots.retire_bot(owned(retire, &greedy.owner_token)).await.expect("retired");
    let entrant = pb::MatchEntrant { bot_id: "greedy".into(), version: Some(greedy.version.clone()) };
    let request = pb::RunMatchRequest {
        options: Some(straight_options(2, 50)),
        entrants: vec![entrant.clone(), entrant],
        games: 2,
        seed: None,
    };
    let refused = bots.run_match(request).await.expect_err("a retired version");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(refused.message().contains("retired"), "{}", refused.message());
    let seated =
        pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: vec![bot_seat(&greedy)], seed: Some(1) };
    assert_eq!(code(games.create_game(seated).await), Code::FailedPrecondition, "nor takes a seat");
    server.stop().await;
}

/// An anonymous owner is one identity: what a client makes while sending its owner token is
/// owned under that same token, so one secret covers every bot and game it made; a new token
/// comes only when it sends none, and tokens given out before stay valid.
#[tokio::test]
async fn an_anonymous_owner_is_one_token_for_everything_it_makes() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_limited(dir.path(), Limits::default(), None).await;
    let (mut bots, mut games) = (server.bots().await, server.games().await);
    let first = bots.upload_bot(upload("first", GREEDY)).await.unwrap().into_inner();
    let token = first.owner_token.clone();
    assert_eq!(token.len(), 64, "a client that sent no token gets one");
    let second = bots.upload_bot(owned(upload("second", DEFENDER), &token)).await.unwrap().into_inner();
    assert!(second.owner_token.is_empty(), "no second secret to keep");
    let create = pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: Vec::new(), seed: Some(1) };
    let game = games.create_game(owned(create.clone(), &token)).await.unwrap().into_inner();
    assert!(game.owner_token.is_empty(), "the game is owned under the token sent");
    // The one token retires the second bot and cancels the game: both are its.
    let retire = pb::RetireBotRequest { bot_id: second.bot_id.clone(), version: None };
    assert_eq!(code(bots.retire_bot(retire.clone()).await), Code::PermissionDenied);
    bots.retire_bot(owned(retire, &token)).await.expect("the token's owner retires its second bot");
    let cancel = pb::CancelGameRequest { game_id: game.game_id.clone() };
    games.cancel_game(owned(cancel, &token)).await.expect("the token's owner cancels its game");
    // A token made before still works for what it owns; another client's token owns nothing here.
    let other = games.create_game(create.clone()).await.unwrap().into_inner().owner_token;
    assert!(other.len() == 64 && other != token);
    let retire_first = pb::RetireBotRequest { bot_id: first.bot_id.clone(), version: None };
    assert_eq!(code(bots.retire_bot(owned(retire_first.clone(), &other)).await), Code::PermissionDenied);
    bots.retire_bot(owned(retire_first, &token)).await.expect("still the owner of the first bot");
    // Something that is not a token is refused, not made an identity of its own.
    let refused = games.create_game(owned(create, "guessable")).await.expect_err("not a token");
    assert_eq!(refused.code(), Code::Unauthenticated);
    assert!(!refused.message().contains("guessable"), "{}", refused.message());
    server.stop().await;
}
