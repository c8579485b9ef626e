//! How much each caller may use, so that no client can take the server from the others.
//!
//! Quotas are counted per account, or, for anonymous clients of an open server, per client
//! address (see [`Principal::quota_key`]). Rates (requests, match games) are GCRA limiters from
//! `governor`, which answer how long to wait; a refusal then carries that wait as a gRPC
//! `RetryInfo`. Counts (live games, bots, versions) are checked by whoever keeps the things
//! counted, against the numbers here; waiting helps with live games (they end), so their refusal
//! carries no wait, since nobody can say when.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::error::{Error, Result};
use crate::who::access::Principal;

/// The numbers; 0 turns a quota off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quotas {
    /// Unfinished games one caller has created and not yet seen end.
    pub live_games: usize,
    /// Bots one caller owns.
    pub bots: usize,
    /// Versions kept of one bot.
    pub versions_per_bot: usize,
    /// Games one caller's matches may play per minute.
    pub match_games_per_minute: u32,
    /// Games one `RunMatch` call may ask for.
    pub match_games_per_call: u32,
    /// Requests one caller may make per second (bursts of up to a second's worth).
    pub requests_per_second: u32,
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            live_games: 100,
            bots: 50,
            versions_per_bot: 100,
            match_games_per_minute: 1_000,
            match_games_per_call: 200,
            requests_per_second: 5_000,
        }
    }
}

impl Quotas {
    /// No quota at all (for load tests).
    pub fn unlimited() -> Quotas {
        Quotas {
            live_games: 0,
            bots: 0,
            versions_per_bot: 0,
            match_games_per_minute: 0,
            match_games_per_call: 0,
            requests_per_second: 0,
        }
    }
}

/// Checks a count against its quota (0: no quota).
pub fn within(quota: usize, have: usize, what: &str, who: &Principal) -> Result<()> {
    if quota == 0 || have < quota {
        return Ok(());
    }
    Err(Error::ResourceExhausted(format!("{who} has {have} {what}, the most this server allows")))
}

/// What a quota limits, for counting denials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    Requests,
    MatchGames,
    MatchGamesPerCall,
    LiveGames,
    Bots,
    Versions,
}

impl Counted {
    const ALL: [Counted; 6] = [
        Counted::Requests,
        Counted::MatchGames,
        Counted::MatchGamesPerCall,
        Counted::LiveGames,
        Counted::Bots,
        Counted::Versions,
    ];

    /// The name metrics give it.
    pub fn label(self) -> &'static str {
        match self {
            Counted::Requests => "requests",
            Counted::MatchGames => "match_games",
            Counted::MatchGamesPerCall => "match_games_per_call",
            Counted::LiveGames => "live_games",
            Counted::Bots => "bots",
            Counted::Versions => "versions_per_bot",
        }
    }
}

/// The rate limiters, one state per caller, and how many requests each quota refused.
pub struct Meter {
    quotas: Quotas,
    denied: [AtomicU64; Counted::ALL.len()],
    requests: Option<DefaultKeyedRateLimiter<String>>,
    match_games: Option<DefaultKeyedRateLimiter<String>>,
    clock: DefaultClock,
}

impl std::fmt::Debug for Meter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meter").field("quotas", &self.quotas).finish_non_exhaustive()
    }
}

fn limiter(quota: Option<Quota>) -> Option<DefaultKeyedRateLimiter<String>> {
    quota.map(DefaultKeyedRateLimiter::keyed)
}

impl Meter {
    pub fn new(quotas: Quotas) -> Meter {
        let per_second = NonZeroU32::new(quotas.requests_per_second).map(Quota::per_second);
        let per_minute = NonZeroU32::new(quotas.match_games_per_minute).map(Quota::per_minute);
        Meter {
            quotas,
            requests: limiter(per_second),
            match_games: limiter(per_minute),
            clock: DefaultClock::default(),
            denied: Default::default(),
        }
    }

    /// Refusals so far, by quota.
    pub fn denials(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        Counted::ALL.iter().zip(&self.denied).map(|(counted, n)| (counted.label(), n.load(Ordering::Relaxed)))
    }

    fn counted<T>(&self, counted: Counted, result: Result<T>) -> Result<T> {
        if result.is_err() {
            self.denied[counted as usize].fetch_add(1, Ordering::Relaxed);
        }
        result
    }

    /// Checks a count of `who`'s against its quota ([`within`]), counting a refusal.
    pub fn within(&self, counted: Counted, have: usize, what: &str, who: &Principal) -> Result<()> {
        let quota = match counted {
            Counted::LiveGames => self.quotas.live_games,
            Counted::Bots => self.quotas.bots,
            Counted::Versions => self.quotas.versions_per_bot,
            // Rates are checked by their own methods.
            Counted::Requests | Counted::MatchGames | Counted::MatchGamesPerCall => 0,
        };
        self.counted(counted, within(quota, have, what, who))
    }

    pub fn quotas(&self) -> &Quotas {
        &self.quotas
    }

    /// Counts one request of `who`.
    pub fn request(&self, who: &Principal) -> Result<()> {
        let Some(limiter) = &self.requests else { return Ok(()) };
        let checked = limiter.check_key(&who.quota_key()).map_err(|not_until| Error::RetryLater {
            message: format!(
                "{who} is over this server's limit of {} requests a second",
                self.quotas.requests_per_second
            ),
            after: not_until.wait_time_from(self.clock.now()),
        });
        self.counted(Counted::Requests, checked)
    }

    /// Checks the ceiling per call, then counts `games` match games of `who`. Both are quotas
    /// (RESOURCE_EXHAUSTED, counted as denials): the request is well formed, and another server
    /// could take it.
    pub fn match_games(&self, who: &Principal, games: u32) -> Result<()> {
        let ceiling = self.quotas.match_games_per_call;
        if ceiling > 0 && games > ceiling {
            let message = format!("{games} games are more than this server's {ceiling} games per match call");
            return self.counted(Counted::MatchGamesPerCall, Err(Error::ResourceExhausted(message)));
        }
        let (Some(limiter), Some(n)) = (&self.match_games, NonZeroU32::new(games)) else { return Ok(()) };
        let per_minute = self.quotas.match_games_per_minute;
        let exhausted = |after| Error::RetryLater {
            message: format!("{who} is over this server's limit of {per_minute} match games a minute"),
            after,
        };
        let checked = match limiter.check_key_n(&who.quota_key(), n) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(exhausted(not_until.wait_time_from(self.clock.now()))),
            // More games than a whole minute's worth: no wait makes room for them.
            Err(_) => Err(Error::ResourceExhausted(format!(
                "{games} games are more than this server's {per_minute} match games a minute"
            ))),
        };
        self.counted(Counted::MatchGames, checked)
    }

    /// Forgets callers that have not been seen for a while, so the limiters do not grow without
    /// end.
    pub fn forget_idle(&self) {
        for limiter in [&self.requests, &self.match_games].into_iter().flatten() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// How often [`Meter::forget_idle`] runs.
pub const FORGET_EVERY: Duration = Duration::from_secs(60);

#[cfg(test)]
mod tests {
    use super::*;

    fn ada() -> Principal {
        Principal::Account { name: "ada".into(), admin: false }
    }

    #[test]
    fn a_caller_over_its_request_rate_is_told_how_long_to_wait() {
        let meter = Meter::new(Quotas { requests_per_second: 2, ..Quotas::default() });
        assert!(meter.request(&ada()).is_ok());
        assert!(meter.request(&ada()).is_ok());
        match meter.request(&ada()) {
            Err(Error::RetryLater { after, .. }) => assert!(after > Duration::ZERO && after <= Duration::from_secs(1)),
            other => panic!("expected a wait, got {other:?}"),
        }
        let bob = Principal::Account { name: "bob".into(), admin: false };
        assert!(meter.request(&bob).is_ok(), "another caller has its own quota");
    }

    #[test]
    fn match_games_are_capped_per_call_and_per_minute() {
        let meter = Meter::new(Quotas { match_games_per_minute: 10, match_games_per_call: 8, ..Quotas::default() });
        assert!(matches!(meter.match_games(&ada(), 9), Err(Error::ResourceExhausted(_))));
        assert!(meter.match_games(&ada(), 8).is_ok());
        assert!(matches!(meter.match_games(&ada(), 8), Err(Error::RetryLater { .. })));
        let denied: Vec<_> = meter.denials().filter(|(_, n)| *n > 0).collect();
        assert_eq!(denied, [("match_games", 1), ("match_games_per_call", 1)], "each quota counts its own refusals");
    }

    #[test]
    fn count_quotas_count_their_refusals() {
        let meter = Meter::new(Quotas { bots: 2, ..Quotas::default() });
        assert!(meter.within(Counted::Bots, 1, "bots", &ada()).is_ok());
        assert!(meter.within(Counted::Bots, 2, "bots", &ada()).is_err());
        assert!(meter.within(Counted::Bots, 3, "bots", &ada()).is_err());
        let bots = meter.denials().find(|(quota, _)| *quota == "bots");
        assert_eq!(bots, Some(("bots", 2)));
    }

    #[test]
    fn zero_turns_a_quota_off() {
        let meter = Meter::new(Quotas::unlimited());
        for _ in 0..10_000 {
            assert!(meter.request(&ada()).is_ok());
        }
        assert!(within(0, 1_000, "bots", &ada()).is_ok());
        assert!(matches!(within(2, 2, "bots", &ada()), Err(Error::ResourceExhausted(_))));
    }
}
