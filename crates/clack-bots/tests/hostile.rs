//! The hostile corpus (`tests/hostile`) and the example bots (`bots/`), run through the sandbox.
//! Every hostile script must end in a compile error or a fault, on a 2 MiB thread stack (the
//! size of the server's blocking threads), without a panic; every example bot must choose legal
//! actions without a fault.

use std::path::{Path, PathBuf};

use clack_bots::{Bot, Limits, sandbox};
use clack_rules::game::{Game, Options, Turn};
use clack_rules::{Dealer, Kind, Seat};

fn scripts(dir: &str) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rhai"))
        .collect();
    files.sort();
    files.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).expect("read"))).collect()
}

/// A game of `kind` a few moves in, with a seat to move.
fn position(kind: Kind) -> (Game, Seat) {
    let mut game = Game::new(Options::default_for(kind)).expect("valid");
    let mut dealer = Dealer::from_seed(3);
    let mut moves = 0;
    loop {
        match game.turn() {
            Turn::Chance => {
                let chance = game.sample_chance(&mut dealer).expect("chance");
                game.apply_chance(chance).expect("fits");
            }
            Turn::Seat { seat } if moves >= 6 => return (game, seat),
            Turn::Seat { seat } => {
                let action = game.legal_actions()[0];
                game.apply(seat, action).expect("legal");
                moves += 1;
            }
            Turn::Over => panic!("the game ended early"),
        }
    }
}

/// Runs `f` on a thread with a 2 MiB stack.
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(2 << 20).spawn(f).expect("thread").join().expect("no panic")
}

#[test]
fn every_hostile_script_ends_in_a_compile_error_or_a_fault() {
    let corpus = scripts("tests/hostile");
    assert!(corpus.len() >= 20, "the corpus holds {} scripts", corpus.len());
    for (path, source) in corpus {
        let name = path.file_name().expect("name").to_string_lossy().into_owned();
        let outcome = small_stack(move || {
            let limits = Limits { deadline: std::time::Duration::from_millis(50), ..Limits::default() };
            let engine = sandbox::engine(&limits);
            match Bot::compile(&engine, &limits, &source) {
                Err(error) => format!("compile: {error}"),
                Ok(bot) => {
                    let mut outcomes = Vec::new();
                    for kind in [Kind::Straight, Kind::Streets] {
                        let (game, seat) = position(kind);
                        let decision = bot.decide(&engine, &limits, &game, seat, &[]);
                        assert!(decision.output.len() <= limits.output + 200, "output is capped");
                        match decision.choice {
                            Ok(index) => panic!("{}: a hostile script chose {index}", path.display()),
                            Err(fault) => outcomes.push(format!("{}: {}", fault.reason, fault.detail)),
                        }
                    }
                    outcomes.join(" / ")
                }
            }
        });
        eprintln!("{name}: {outcome}");
    }
}

#[test]
fn the_deadline_stops_a_script_that_stays_under_the_operation_limit() {
    let limits =
        Limits { operations: u64::MAX / 2, deadline: std::time::Duration::from_millis(30), ..Limits::default() };
    let engine = sandbox::engine(&limits);
    let bot = Bot::compile(&engine, &limits, "fn choose(view) { loop { } }").expect("compiles");
    let (game, seat) = position(Kind::Straight);
    let decision = bot.decide(&engine, &limits, &game, seat, &[]);
    assert_eq!(decision.choice.map_err(|f| f.reason), Err("deadline"));
    assert!(decision.elapsed < std::time::Duration::from_secs(2));
}

/// The deadline is counted on the thread's CPU clock: time the thread does not run (here asleep,
/// on a busy machine preempted) is not the bot's. By the wall clock this decision would be late.
#[test]
fn time_the_deciding_thread_does_not_run_is_not_counted_against_the_deadline() {
    let limits = Limits { deadline: std::time::Duration::from_millis(50), ..Limits::default() };
    let engine = sandbox::engine(&limits);
    let (result, run) = sandbox::guarded(&limits, || {
        std::thread::sleep(std::time::Duration::from_millis(120));
        engine.eval::<i64>("let n = 0; for i in 0..2000 { n += i; } n")
    });
    assert_eq!(result.map_err(|e| e.to_string()), Ok(1_999_000));
    assert!(!run.deadline, "the deadline counted time the thread was asleep");
    assert!(run.operations > 2_000, "the script ran past several clock readings: {}", run.operations);
}

#[test]
fn a_decision_counts_its_operations_the_same_every_time_and_stops_at_the_limit() {
    let limits = Limits { operations: 5_000, deadline: std::time::Duration::from_secs(20), ..Limits::default() };
    let engine = sandbox::engine(&limits);
    let (game, seat) = position(Kind::Straight);
    let counting = Bot::compile(&engine, &limits, "fn choose(view) { let n = 0; for i in 0..100 { n += i; } 0 }");
    let counting = counting.expect("compiles");
    let first = counting.decide(&engine, &limits, &game, seat, &[]);
    assert_eq!(first.choice, Ok(0));
    assert!(first.operations > 100 && first.operations < limits.operations, "{}", first.operations);
    assert_eq!(counting.decide(&engine, &limits, &game, seat, &[]).operations, first.operations);
    let looping = Bot::compile(&engine, &limits, "fn choose(view) { loop { } }").expect("compiles");
    let stopped = looping.decide(&engine, &limits, &game, seat, &[]);
    assert_eq!(stopped.choice.map_err(|f| f.reason), Err("operations"));
    assert!(stopped.operations >= limits.operations, "{}", stopped.operations);
}

#[test]
fn the_view_reads_as_json_as_a_script_reads_it() {
    let (game, seat) = position(Kind::Straight);
    let json = clack_bots::view::to_json(&clack_bots::view::view(&game, seat, &[]));
    assert_eq!(json["seat"], u64::from(seat.0));
    assert_eq!(json["game"], "straight");
    let legal = json["legal"].as_array().expect("legal");
    assert_eq!(legal.len(), game.legal_actions().len());
    // A record reads as the map it stands for.
    assert!(legal.iter().all(|entry| entry["kind"].is_string() && entry["text"].is_string()), "{legal:?}");
    let hand = json["hand"].as_array().map_or(0, Vec::len) as u64;
    assert!(hand > 0 && json["hand_sizes"][usize::from(seat.0)] == hand, "{json}");
}

#[test]
fn what_a_bot_prints_is_kept_for_its_author() {
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    let bot =
        Bot::compile(&engine, &limits, r#"fn choose(view) { print("legal: " + view.legal.len()); 0 }"#).expect("ok");
    let (game, seat) = position(Kind::Streets);
    let decision = bot.decide(&engine, &limits, &game, seat, &[]);
    assert_eq!(decision.choice, Ok(0));
    assert!(decision.output.starts_with("legal: "), "{}", decision.output);
}

#[test]
fn the_example_bots_choose_legal_actions_all_game_long() {
    for (path, source) in scripts("bots") {
        let name = path.file_name().expect("name").to_string_lossy().into_owned();
        let kind = if name.starts_with("straight") { Kind::Straight } else { Kind::Streets };
        // The operation limit is the default; the wall-clock deadline is far off, because a
        // debug build on a busy machine can take longer than 100 ms over a decision that a
        // release build makes in microseconds (the deadline has its own test above).
        let limits = Limits { deadline: std::time::Duration::from_secs(60), ..Limits::default() };
        let engine = sandbox::engine(&limits);
        let bot = Bot::compile(&engine, &limits, &source).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut game = Game::new(Options::default_for(kind)).expect("valid");
        let mut dealer = Dealer::from_seed(11);
        let mut decisions = 0;
        while game.turn() != Turn::Over && decisions < 2_000 {
            match game.turn() {
                Turn::Chance => {
                    let chance = game.sample_chance(&mut dealer).expect("chance");
                    game.apply_chance(chance).expect("fits");
                }
                Turn::Seat { seat } => {
                    let decision = bot.decide(&engine, &limits, &game, seat, &[]);
                    let index = decision.choice.unwrap_or_else(|f| panic!("{name} faulted: {} {}", f.reason, f.detail));
                    let action = game.legal_actions()[index];
                    game.apply(seat, action).expect("legal");
                    decisions += 1;
                }
                Turn::Over => {}
            }
        }
        assert!(decisions > 10, "{name} played");
    }
}
