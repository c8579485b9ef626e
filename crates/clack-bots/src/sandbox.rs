//! The hardened Rhai engine every bot runs in.
//!
//! It starts from `Engine::new_raw()` (no module resolver, no printing to stdout) with only the
//! standard package and the view's read-only record type ([`crate::view::Record`]), and sets
//! every limit: operations, call depth, expression depth, string, array and map sizes, variables,
//! functions, no modules, no `eval`, `import` or `export`. `print` and `debug` go to a capped
//! buffer for the bot's author. A deadline per decision is enforced through `on_progress`, which
//! Rhai calls between operations. The deadline and the output buffer are per thread: a decision
//! runs start to finish on one thread, so many decisions can share one engine.
//!
//! The deadline is read on the thread's own CPU clock, not the wall clock. It bounds the work a
//! decision may cost the server, and a bot must not be faulted for time it was not given: the
//! ladder plays on a thread under the idle scheduling policy, which any other work on the machine
//! preempts, and by the wall clock its scripts ran past 100 ms whenever the machine was busy, so
//! a loaded server rated its bots by how heavy they were rather than how well they played.

use std::cell::{Cell, RefCell};
use std::time::Duration;

use rhai::packages::{Package, StandardPackage};
use rhai::{Dynamic, Engine};

/// The limits a bot runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rhai operations per decision.
    pub operations: u64,
    /// CPU time per decision, on the deciding thread's own clock.
    pub deadline: Duration,
    /// Bytes of source.
    pub script_size: usize,
    /// Bytes of `print`/`debug` output kept per decision.
    pub output: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { operations: 500_000, deadline: Duration::from_millis(100), script_size: 64 * 1024, output: 4 * 1024 }
    }
}

thread_local! {
    static DEADLINE: Cell<Option<Duration>> = const { Cell::new(None) };
    static OUTPUT: RefCell<String> = const { RefCell::new(String::new()) };
    static OUTPUT_CAP: Cell<usize> = const { Cell::new(0) };
    static DEADLINE_HIT: Cell<bool> = const { Cell::new(false) };
    static OPERATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Builds the engine with every limit set.
pub fn engine(limits: &Limits) -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(StandardPackage::new().as_shared_module());
    crate::view::register(&mut engine);
    engine
        .set_max_operations(limits.operations)
        .set_max_call_levels(32)
        // Never (0, 0): deep nesting would then overflow the stack and abort the process.
        .set_max_expr_depths(64, 32)
        .set_max_string_size(16 * 1024)
        .set_max_array_size(4 * 1024)
        .set_max_map_size(1024)
        .set_max_variables(256)
        .set_max_functions(64)
        .set_max_modules(0)
        .set_max_strings_interned(256);
    // No code from strings, and no module system at all.
    for symbol in ["eval", "import", "export"] {
        engine.disable_symbol(symbol);
    }
    engine.on_print(capture);
    engine.on_debug(|text, _, _| capture(text));
    // Reading a thread's CPU clock is a system call, dearer than a Rhai operation: look every 256
    // operations, which still stops a script within microseconds of its deadline.
    engine.on_progress(|operations| {
        // The count is the decision's cost in operations, the same on every machine.
        OPERATIONS.with(|count| count.set(operations));
        if operations % 256 != 0 {
            return None;
        }
        let late = DEADLINE.with(|d| d.get().is_some_and(|deadline| thread_cpu_time() >= deadline));
        if late {
            DEADLINE_HIT.with(|hit| hit.set(true));
            Some(Dynamic::UNIT)
        } else {
            None
        }
    });
    engine
}

/// The CPU time this thread has used: time it spends preempted or asleep does not count.
pub fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    // The clock counts up from the thread's start, so both fields are never negative.
    Duration::new(u64::try_from(now.tv_sec).unwrap_or(0), u32::try_from(now.tv_nsec).unwrap_or(0))
}

fn capture(text: &str) {
    let cap = OUTPUT_CAP.with(Cell::get);
    OUTPUT.with(|out| {
        let mut out = out.borrow_mut();
        if out.len() < cap {
            let room = cap - out.len();
            let mut end = text.len().min(room);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            out.push_str(&text[..end]);
            out.push('\n');
        }
    });
}

/// What a guarded run left besides its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The deadline stopped it.
    pub deadline: bool,
    /// What it printed, capped.
    pub output: String,
    /// The Rhai operations it used.
    pub operations: u64,
}

/// Runs `f` under a deadline with output capture on this thread; returns its result, and
/// whether the deadline stopped it, what it printed and the operations it used.
pub fn guarded<T>(limits: &Limits, f: impl FnOnce() -> T) -> (T, Run) {
    DEADLINE.with(|d| d.set(Some(thread_cpu_time() + limits.deadline)));
    DEADLINE_HIT.with(|hit| hit.set(false));
    OPERATIONS.with(|count| count.set(0));
    OUTPUT_CAP.with(|cap| cap.set(limits.output));
    OUTPUT.with(|out| out.borrow_mut().clear());
    let result = f();
    DEADLINE.with(|d| d.set(None));
    let deadline = DEADLINE_HIT.with(Cell::get);
    let output = OUTPUT.with(|out| std::mem::take(&mut *out.borrow_mut()));
    (result, Run { deadline, output, operations: OPERATIONS.with(Cell::get) })
}
