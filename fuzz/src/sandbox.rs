//! The Rhai sandbox under arbitrary scripts.
//!
//! The bytes are a bot's source. Compiling it ends in a bot or a `CompileError`; a bot's
//! decision, run on a 2 MiB stack like the server's blocking threads, ends in an index into the
//! legal actions or a `Fault` with a known reason, keeps its output within the cap, and stops
//! near its deadline. A stack overflow aborts the process, which libFuzzer reports as a crash.
//!
//! "Near its deadline" is checked on the CPU time of the deciding thread, not on the wall
//! clock: a fuzzer that shares the machine, or is paused, sees wall-clock gaps that no script
//! caused (a run of 2026-12-01 stopped on "a decision ran 12.4 s" after such a pause, and the
//! input replayed in 1.1 s). The sandbox itself stops a script on the wall clock, so its CPU time
//! can only be less.

use std::sync::OnceLock;
use std::time::Duration;

use clack_bots::{Bot, Limits, sandbox};
use clack_rules::Seat;
use clack_rules::game::Game;
use rhai::Engine;

/// Small limits, so that each run is quick; the limits themselves are what is under test.
pub const LIMITS: Limits =
    Limits { operations: 20_000, deadline: Duration::from_millis(25), script_size: 64 * 1024, output: 1024 };

/// The reasons a `Fault` may give (clack_bots::Fault::reason).
const REASONS: [&str; 6] = ["operations", "deadline", "limit", "error", "bad_answer", "no_choose"];

/// How much CPU past its deadline a decision may use before it counts as a finding: generous,
/// because the fuzzer may run under AddressSanitizer.
const GRACE: Duration = Duration::from_secs(2);

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| sandbox::engine(&LIMITS))
}

/// A position of each game with a seat to move and a few moves of history.
fn positions() -> &'static [(Game, Seat)] {
    static POSITIONS: OnceLock<Vec<(Game, Seat)>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        crate::preset_options()
            .into_iter()
            .filter_map(|options| {
                let (log, _) = crate::played(options, 7, 5);
                log.to_move().map(|seat| (log.game().clone(), seat))
            })
            .collect()
    })
}

pub fn run(data: &[u8]) {
    let Some((&at, source)) = data.split_first() else { return };
    let Ok(source) = std::str::from_utf8(source) else { return };
    let (game, seat) = &positions()[usize::from(at) % positions().len()];
    std::thread::scope(|scope| {
        let decided = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn_scoped(scope, || decide(source, game, *seat))
            .expect("a thread");
        if decided.join().is_err() {
            panic!("the sandbox panicked");
        }
    });
}

fn decide(source: &str, game: &Game, seat: Seat) {
    let bot = match Bot::compile(engine(), &LIMITS, source) {
        Ok(bot) => bot,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let started = thread_cpu_time();
    let decision = bot.decide(engine(), &LIMITS, game, seat, &[]);
    let cpu = thread_cpu_time().saturating_sub(started);
    match decision.choice {
        Ok(index) => assert!(index < game.legal_actions().len(), "index {index} out of range"),
        Err(fault) => assert!(REASONS.contains(&fault.reason), "unknown fault reason {}", fault.reason),
    }
    assert!(decision.output.len() <= LIMITS.output + 1, "{} bytes of output kept", decision.output.len());
    assert!(cpu <= LIMITS.deadline + GRACE, "a decision used {cpu:?} of CPU ({:?} wall)", decision.elapsed);
}

/// The CPU time this thread has used (Linux's per-thread clock).
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec and the clock id is a constant Linux knows.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(now.tv_sec.unsigned_abs(), now.tv_nsec.unsigned_abs() as u32)
}
