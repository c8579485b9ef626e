//! `clack analyze`'s numbers against summaries worked out by hand from four tiny games.
//!
//! The games (first or last legal action every turn, printed once and read by hand):
//! - t1, Streets and Avenues, 2 players, bots a (seat 0) and b (seat 1), seed 1, first action:
//!   55 actions, no placement scores, ends 0–0, both seats win. Bot a faults ("deadline") before
//!   turns 0 and 2.
//! - t2, the same table with b (seat 0) and a (seat 1), seed 2, last action: 55 actions, three
//!   placements score 1 each (closing: a dividing placement scores at least 2), ends 1–2, seat 1
//!   wins.
//! - s1, Straight Dominoes, 2 players, target 20, seed 3, first action: 17 actions, plays of 5
//!   and 10, one round ending in a domino, 50–10, seat 0 wins.
//! - s2, the same table, seed 4, last action: 18 actions, plays of 10 and 5, one round ending in a
//!   domino, 25–10, seat 0 wins.
//!
//! They are kept as they were played (`fixture/summary_games.jsonl`, made by `fixture::game`
//! and `game_with_faults` with the arguments above while the server still dealt each chance
//! event from the seed and the event's number), since the hand counts are of those games: a
//! game is now dealt by round, and the same seeds would deal other games. Stored games replay
//! as they were dealt, so these still do.

mod fixture;

use clack_analysis::stats::Estimate;
use clack_analysis::summary::{GroupSummary, Summary};
use clack_analysis::{Analysis, analyze_text, for_each_game, input, report};

/// The four games, t1, t2, s1 and s2, each its events in order.
fn games() -> Vec<Vec<clack_proto::v1::Event>> {
    let mut games: Vec<Vec<clack_proto::v1::Event>> = Vec::new();
    for line in include_str!("fixture/summary_games.jsonl").lines() {
        let event = clack_log::json::from_line(line).expect("an event");
        match games.last_mut() {
            Some(game) if game[0].game_id == event.game_id => game.push(event),
            _ => games.push(vec![event]),
        }
    }
    assert_eq!(games.len(), 4);
    games
}

fn summary(threads: usize) -> Summary {
    analyze_text(&fixture::export(&games()), threads, &|_| {}).expect("reads").summary()
}

fn close(e: Estimate, n: u64, mean: f64, ci95: f64) {
    assert_eq!(e.n, n, "{e:?}");
    assert!((e.mean - mean).abs() < 1e-9, "mean {} is not {mean}", e.mean);
    assert!((e.ci95 - ci95).abs() < 1e-9, "ci95 {} is not {ci95}", e.ci95);
}

fn group<'a>(summary: &'a Summary, kind: &str) -> &'a GroupSummary {
    summary.groups.iter().find(|g| g.kind == kind).expect("the group")
}

#[test]
fn streets_games_summary_matches_the_hand_count() {
    let summary = summary(1);
    assert_eq!((summary.games, summary.rejected), (4, 0));
    let g = group(&summary, "streets");
    assert_eq!(g.games, 2);
    assert_eq!(g.finished_by.0.get("played_out"), Some(&2));
    close(g.rounds, 2, 1.0, 0.0);
    close(g.length, 2, 55.0, 0.0);
    assert_eq!(g.length_histogram.0.get(&55), Some(&2));
    // Win shares: seat 0 has 1/2 (t1, a tie) and 0 (t2); sample variance 0.125, standard error
    // sqrt(0.125 / 2) = 0.25, so the half-width is 1.96 * 0.25 = 0.49.
    close(g.seats[0].win_share, 2, 0.25, 0.49);
    close(g.seats[1].win_share, 2, 0.75, 0.49);
    assert!((g.seats[0].advantage + 0.25).abs() < 1e-9);
    assert!((g.seats[1].advantage - 0.25).abs() < 1e-9);
    // Scores: seat 0 has 0 and 1 (variance 0.5, standard error 0.5), seat 1 has 0 and 2
    // (variance 2, standard error 1).
    close(g.seats[0].score, 2, 0.5, 0.98);
    close(g.seats[1].score, 2, 1.0, 1.96);
    assert_eq!(g.score_histogram.0.iter().map(|(&k, &v)| (k, v)).collect::<Vec<_>>(), vec![(0, 2), (1, 1), (2, 1)]);
    assert!(g.round_ends.0.is_empty() && g.scoring_plays.0.is_empty());
    // Closing: none in t1, three in t2: mean 1.5, values 0 and 3, variance 4.5, standard error 1.5.
    let blocks = g.blocks.expect("Streets counts blocks");
    close(blocks.closing, 2, 1.5, 1.96 * 1.5);
    close(blocks.dividing, 2, 0.0, 0.0);
}

#[test]
fn straight_games_summary_matches_the_hand_count() {
    let summary = summary(1);
    let g = group(&summary, "straight");
    assert_eq!(g.games, 2);
    close(g.rounds, 2, 1.0, 0.0);
    // 17 and 18 actions: variance 0.5, standard error 0.5.
    close(g.length, 2, 17.5, 0.98);
    assert_eq!(g.round_ends.0.get("domino"), Some(&2));
    assert_eq!(g.scoring_plays.0.iter().map(|(&k, &v)| (k, v)).collect::<Vec<_>>(), vec![(5, 2), (10, 2)]);
    close(g.seats[0].win_share, 2, 1.0, 0.0);
    close(g.seats[1].win_share, 2, 0.0, 0.0);
    assert!((g.seats[0].advantage - 0.5).abs() < 1e-9);
    // Seat 0 scores 50 and 25: variance 312.5, standard error 12.5.
    close(g.seats[0].score, 2, 37.5, 1.96 * 12.5);
    close(g.seats[1].score, 2, 10.0, 0.0);
    assert_eq!(g.score_histogram.0.iter().map(|(&k, &v)| (k, v)).collect::<Vec<_>>(), vec![(10, 2), (25, 1), (50, 1)]);
    assert!(g.blocks.is_none());
}

#[test]
fn bot_versions_summary_matches_the_hand_count() {
    let summary = summary(1);
    assert_eq!(summary.bots.iter().map(|b| b.bot.as_str()).collect::<Vec<_>>(), vec!["a@v1", "b@v1"]);
    let (a, b) = (&summary.bots[0], &summary.bots[1]);
    assert_eq!((a.games, b.games), (2, 2));
    // a: seat 0 of t1 (share 1/2, score 0), seat 1 of t2 (share 1, score 2).
    close(a.wins, 2, 0.75, 0.49);
    close(a.score, 2, 1.0, 1.96);
    // b: seat 1 of t1 (share 1/2, score 0), seat 0 of t2 (share 0, score 1).
    close(b.wins, 2, 0.25, 0.49);
    close(b.score, 2, 0.5, 0.98);
    assert_eq!(a.faults.0.get("deadline"), Some(&2));
    assert!(b.faults.0.is_empty());
    // Every action comes 10 ms after the event before it; the 110 actions of the two games are
    // all bots'.
    assert_eq!(a.decision_ms.n + b.decision_ms.n, 110);
    close(a.decision_ms, a.decision_ms.n, 10.0, 0.0);
    close(b.decision_ms, b.decision_ms.n, 10.0, 0.0);
}

#[test]
fn the_summary_does_not_depend_on_how_the_input_is_split() {
    let one = serde_json::to_value(summary(1)).expect("json");
    for threads in [2, 3, 7] {
        assert_eq!(serde_json::to_value(summary(threads)).expect("json"), one, "{threads} threads");
    }
}

#[test]
fn a_log_that_does_not_replay_is_left_out_and_named() {
    let mut games = games();
    let Some(clack_proto::v1::event::Payload::ActionApplied(applied)) = games[2].iter_mut().find_map(|e| {
        e.payload.as_mut().filter(|p| matches!(p, clack_proto::v1::event::Payload::ActionApplied(a) if a.points > 0))
    }) else {
        panic!("s1 has a scoring play")
    };
    applied.points += 1;
    let summary = analyze_text(&fixture::export(&games), 2, &|_| {}).expect("reads").summary();
    assert_eq!((summary.games, summary.rejected), (3, 1));
    assert!(summary.first_rejections[0].starts_with("game s1:"), "{:?}", summary.first_rejections);
    assert_eq!(group(&summary, "straight").games, 1);
}

#[test]
fn a_file_that_does_not_start_with_a_game_is_an_error_with_its_line() {
    let text = fixture::export(&games());
    let cut = text.split_once('\n').map(|(_, rest)| rest).expect("lines");
    let error = analyze_text(cut, 1, &|_| {}).expect_err("refused");
    assert_eq!(error.line, 1);
    let error = analyze_text("{\"gameId\":\n", 1, &|_| {}).expect_err("refused");
    assert_eq!(error.line, 1);
}

/// The fixture's games again and again, enough for several chunks of the streamed input.
fn long_export() -> String {
    let text = fixture::export(&games());
    text.repeat(3 * input::CHUNK / text.len() + 2)
}

#[test]
fn games_straddling_chunk_cuts_are_read_whole_on_any_number_of_threads() {
    let text = long_export();
    let mut one_by_one = Analysis::default();
    for_each_game(&text, |game| one_by_one.add_game(game)).expect("reads");
    let expected = serde_json::to_value(one_by_one.summary()).expect("json");
    let copies = text.len() / fixture::export(&games()).len();
    assert_eq!(expected["games"], 4 * copies as u64);
    assert_eq!(expected["rejected"], 0);
    for threads in [1, 2, 3] {
        let summary = analyze_text(&text, threads, &|_| {}).expect("reads").summary();
        assert_eq!(serde_json::to_value(summary).expect("json"), expected, "{threads} threads");
    }
}

#[test]
fn a_damaged_line_deep_in_a_long_export_is_named() {
    let text = long_export();
    let lines: Vec<&str> = text.lines().collect();
    // Past the first chunk, so that the line number is counted across cuts.
    let bad = lines.len() * 2 / 3;
    for (damage, message) in [("{\"gameId\":", "EOF"), ("{\"gameId\":\"x\",\"sequence\":\"7\"}", "interleaved")] {
        let mut damaged = lines.clone();
        damaged[bad] = damage;
        let damaged = damaged.join("\n");
        for threads in [1, 2] {
            let error = analyze_text(&damaged, threads, &|_| {}).expect_err("refused");
            assert_eq!(error.line, bad as u64 + 1, "{error}");
            assert!(error.to_string().contains(message), "{error}");
            let error = for_each_game(&damaged, |_| {}).expect_err("refused");
            assert_eq!(error.line, bad as u64 + 1, "{error}");
        }
    }
}

#[test]
fn an_export_that_is_not_utf8_is_refused_with_its_line() {
    let text = fixture::export(&games());
    let mut bytes = text.into_bytes();
    let third = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(1).map(|(i, _)| i + 5).expect("lines");
    bytes[third] = 0xff;
    let error = clack_analysis::analyze_input(&bytes[..], 2, &|_| {}).expect_err("refused");
    assert_eq!(error.line, 3, "{error}");
}

#[test]
fn the_report_is_one_self_contained_page_with_svg_charts() {
    let html = report::html(&summary(2), "Test <report>").expect("draws");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("Test &lt;report&gt;"));
    // Per group: win share, length, scores, then round ends and scoring plays (Straight) or
    // blocks (Streets); then the bots' wins and scores.
    assert_eq!(html.matches("<svg").count(), 3 + 2 + 3 + 1 + 2);
    // Nothing loads from elsewhere (the SVG namespace URI is a name, not a link).
    assert!(!html.contains("<script") && !html.contains("href=") && !html.contains("src="));
    assert!(!html.contains("<?xml"));
}

#[test]
fn a_game_that_never_ended_is_left_out_and_named() {
    let mut games = games();
    games[3] = fixture::unfinished(&games[3]);
    let summary = analyze_text(&fixture::export(&games), 2, &|_| {}).expect("reads").summary();
    assert_eq!((summary.games, summary.rejected), (3, 1));
    assert_eq!(summary.first_rejections, ["game s2: the game never ended"]);
}

/// A review of a two-seat game made by hand: each decision is (seat, label index, loss), each
/// seat's luck is given; the seat totals count the labels as a review would.
fn review(level: &str, decisions: &[(u32, usize, f64)], luck: [f64; 2]) -> clack_proto::v1::GameReview {
    use clack_proto::v1 as pb;
    let estimate = |mean: f64| Some(pb::Estimate { mean, stderr: 0.0 });
    let seats = (0..2u32)
        .map(|seat| {
            let mut labels = vec![0u32; 5];
            for &(_, label, _) in decisions.iter().filter(|d| d.0 == seat) {
                labels[label] += 1;
            }
            let decisions = labels.iter().sum();
            pb::SeatReview { seat, decisions, loss: None, luck: estimate(luck[seat as usize]), labels }
        })
        .collect();
    let decisions = decisions
        .iter()
        .map(|&(seat, label, loss)| pb::DecisionReview {
            seat,
            loss: estimate(loss),
            label: label as i32 + 1,
            ..Default::default()
        })
        .collect();
    pb::GameReview { level: level.into(), decisions, seats, ..Default::default() }
}

#[test]
fn reviews_are_summed_per_player_kind_and_level_and_follow_their_games() {
    let games = games();
    let mut analysis = Analysis::default();
    // t1: a (seat 0) plays best then a blunder of 20; b one inaccuracy of 3; luck +4 / -4.
    let t1 = review("fast", &[(0, 0, 0.0), (0, 4, 20.0), (1, 2, 3.0)], [4.0, -4.0]);
    // t2: b (seat 0) one good move losing 1; a (seat 1) one best move; luck -2 / +2.
    let t2 = review("fast", &[(0, 1, 1.0), (1, 0, 0.0)], [-2.0, 2.0]);
    // s1 judged at another level: kept apart. s2's review comes with a log that does not
    // replay, so it is left out with it.
    let s1 = review("default", &[(0, 0, 0.0)], [1.0, -1.0]);
    let mut s2 = games[3].clone();
    s2.truncate(s2.len() - 1);
    analysis.add_reviewed_game(&games[0], Some(&t1));
    analysis.add_reviewed_game(&games[1], Some(&t2));
    analysis.add_reviewed_game(&games[2], Some(&s1));
    analysis.add_reviewed_game(&s2, Some(&s1));
    let summary = analysis.summary();
    assert_eq!(summary.rejected, 1);
    let names: Vec<_> =
        summary.reviews.iter().map(|r| (r.kind.as_str(), r.level.as_str(), r.player.as_str(), r.games)).collect();
    assert_eq!(
        names,
        vec![("straight", "default", "open seats", 2), ("streets", "fast", "a@v1", 2), ("streets", "fast", "b@v1", 2)]
    );
    let (a, b) = (&summary.reviews[1], &summary.reviews[2]);
    assert_eq!(a.decisions, 3);
    assert_eq!((a.labels.0.get("best"), a.labels.0.get("blunder")), (Some(&2), Some(&1)));
    close(a.loss, 3, 20.0 / 3.0, 1.96 * (400.0f64 / 3.0 / 3.0).sqrt());
    close(a.luck, 2, 3.0, 1.96);
    assert!((a.accuracy() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(b.decisions, 2);
    close(b.loss, 2, 2.0, 1.96);
    close(b.luck, 2, -3.0, 1.96);
    assert!((b.accuracy() - 0.5).abs() < 1e-12);
    // The page shows them.
    let page = report::html(&summary, "t").expect("report");
    assert!(page.contains("Engine reviews") && page.contains("a@v1") && page.contains("66.7%"), "{page}");
}
