//! Matches between bots, without a server: N games with seats rotated, results per entrant, and
//! Elo ratings. Used by `clack arena` and by the server's `RunMatch`, which plays each game itself
//! (through its event log, so that the game is stored) and hands the result back to
//! [`Match::record`]: the seat rotation, the statistics and the ratings are kept here either way.
//! [`play_game`] plays one game of a match and hands back its record too, for a caller that
//! reviews the games (`clack audit`).
//!
//! Matches are *duplicate*: the games of one rotation of the seats share one seed, so every
//! entrant plays every deal from every seat. Chance is dealt by round
//! ([`clack_rules::chance::by_round`], as in the server's games): each round's deal and the
//! order of its boneyard come from the seed and the round, so the whole sequence of tiles
//! repeats across the rotation, not just the first deal. Win shares are averaged per deal
//! before their interval is taken: the deals are independent, the games of one deal are not.

use std::time::Duration;

use std::time::Instant;

use clack_engine::Level;
use clack_rules::Seat;
use clack_rules::game::{Action, Game, Options, Step, Turn};
use rhai::Engine;

use crate::{Bot, Limits, Played};

/// Who plays for an entrant.
#[derive(Clone, Debug)]
pub enum Player {
    Script(Bot),
    /// Clack's engine at a level (`engine:default`).
    Engine(Level),
    /// The omniscient player ([`clack_engine::omniscient`]): it sees every hand and the
    /// boneyard's order, so it is a measuring instrument for `clack arena`, never a seat of a
    /// server. Where it does not play (three or four sides, Streets and Avenues), every
    /// decision faults.
    Omniscient,
    /// A seer ([`clack_engine::seer`]): an engine level that sees every other hand but not the
    /// boneyard's order. A measuring instrument for `clack arena` too, never a seat of a server.
    Seer(Level),
    /// A program outside this process (a server's remote bot). The server plays the games of
    /// such an entrant as live games and hands their results to [`Match::record`]; a match
    /// played here cannot ask it anything, and records each of its decisions as a fault.
    Elsewhere,
}

/// One bot in a match.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// How the report names it (for example `name@version`).
    pub label: String,
    pub player: Player,
    /// Its rating before the match.
    pub rating: f64,
}

/// What one entrant did over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    pub label: String,
    pub games: u32,
    pub wins: u32,
    pub mean_score: f64,
    /// Half-width of the 95% confidence interval of the mean score.
    pub score_ci95: f64,
    pub faults: u64,
    pub decisions: u64,
    pub mean_decision: Duration,
    /// The median decision, to within 9% ([`Timings`]).
    pub median_decision: Duration,
    pub slowest_decision: Duration,
    /// Rating after the match.
    pub rating: f64,
    /// The share of games won (a shared win counts as a share), averaged per deal.
    pub win_share: f64,
    /// Half-width of the 95% confidence interval of the win share, from the per-deal shares.
    pub win_ci95: f64,
}

/// How the games of a match are dealt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Deals {
    /// The games of one rotation of the seats share a seed: every entrant plays every deal from
    /// every seat, and the luck of the deal cancels out of the standings.
    #[default]
    Duplicate,
    /// Every game has its own seed (seats still rotate). For measuring what duplicate deals save.
    Independent,
}

/// Elo's K factor per pairwise result.
const K: f64 = 16.0;

/// A match in progress, played one game at a time, so that a server can let other work run
/// between its games.
#[derive(Debug)]
pub struct Match {
    options: Options,
    entrants: Vec<Entrant>,
    seed: u64,
    deals: Deals,
    played: u32,
    scores: Vec<Vec<f64>>,
    /// Each entrant's win share in each deal played so far.
    deal_wins: Vec<Vec<f64>>,
    standings: Vec<Standing>,
    total_time: Vec<Duration>,
    timings: Vec<Timings>,
}

impl Match {
    /// A match of `options` between `entrants` (one per seat); game `i` is dealt from `seed + i`.
    pub fn new(options: Options, entrants: Vec<Entrant>, seed: u64) -> Match {
        let n = entrants.len();
        let standings = entrants
            .iter()
            .map(|e| Standing { label: e.label.clone(), rating: e.rating, ..Standing::default() })
            .collect();
        Match {
            options,
            entrants,
            seed,
            deals: Deals::Duplicate,
            played: 0,
            scores: vec![Vec::new(); n],
            deal_wins: vec![Vec::new(); n],
            standings,
            total_time: vec![Duration::ZERO; n],
            timings: vec![Timings::default(); n],
        }
    }

    /// The same match dealt as `deals` says.
    pub fn dealt(mut self, deals: Deals) -> Match {
        self.deals = deals;
        self
    }

    /// The next game to play: its seed and which entrant takes each seat (rotated by one seat
    /// from the last game). With duplicate deals the games of one rotation share a seed: one
    /// deal, every seat.
    pub fn next_game(&self) -> NextGame {
        let n = self.entrants.len();
        let game_index = self.played;
        // Seat s is played by entrant (s + game_index) mod n.
        let seats = (0..n).map(|seat| (seat + game_index as usize) % n).collect();
        let deal = match self.deals {
            Deals::Duplicate => u64::from(game_index) / n as u64,
            Deals::Independent => u64::from(game_index),
        };
        NextGame { index: game_index, seed: self.seed.wrapping_add(deal), seats }
    }

    /// The entrants, in the order they were given.
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// Plays the next game, seats rotated by one from the last.
    pub fn play_next(&mut self, engine: &Engine, limits: &Limits) {
        let next = self.next_game();
        let (result, _) = play_game((engine, limits), self.options, &self.entrants, &next);
        self.record(&next, &result);
    }

    /// Counts a game played as `next` said (by [`Match::play_next`], or by a caller that plays
    /// the game its own way) into the standings and ratings.
    pub fn record(&mut self, next: &NextGame, result: &GameResult) {
        let n = self.entrants.len();
        let mut final_scores = vec![0.0; n];
        for seat in 0..n {
            let who = next.seats[seat];
            let standing = &mut self.standings[who];
            standing.games += 1;
            standing.faults += result.faults[seat];
            standing.decisions += result.decisions[seat];
            self.total_time[who] += result.time[seat];
            if let Some(timings) = result.timings.get(seat) {
                self.timings[who].merge(timings);
            }
            let won = result.winners.contains(&Seat(seat as u8));
            if won {
                standing.wins += 1;
            }
            let share = if won { 1.0 / result.winners.len() as f64 } else { 0.0 };
            let first_of_deal = (next.index as usize).is_multiple_of(n);
            match self.deal_wins[who].last_mut() {
                Some(last) if !first_of_deal => *last += share / n as f64,
                _ => self.deal_wins[who].push(share / n as f64),
            }
            final_scores[who] = result.scores[seat];
            self.scores[who].push(result.scores[seat]);
        }
        update_ratings(&mut self.standings, &final_scores);
        self.played += 1;
    }

    /// The games counted so far.
    pub fn played(&self) -> u32 {
        self.played
    }

    /// Each entrant's results so far, in the order of the entrants.
    pub fn standings(&self) -> Vec<Standing> {
        let mut standings = self.standings.clone();
        for (who, standing) in standings.iter_mut().enumerate() {
            let (mean, ci) = mean_ci95(&self.scores[who]);
            standing.mean_score = mean;
            standing.score_ci95 = ci;
            // A deal not yet played from every seat is left out: its share would be partial.
            let full = self.played as usize / self.entrants.len();
            let (share, share_ci) = mean_ci95(&self.deal_wins[who][..full.min(self.deal_wins[who].len())]);
            standing.win_share = share;
            standing.win_ci95 = share_ci;
            standing.mean_decision = if standing.decisions == 0 {
                Duration::ZERO
            } else {
                self.total_time[who] / u32::try_from(standing.decisions).unwrap_or(u32::MAX)
            };
            standing.median_decision = self.timings[who].median();
            standing.slowest_decision = self.timings[who].slowest;
        }
        standings
    }
}

/// Plays `games` games of `options` between `entrants` (one per seat), rotating seats every game,
/// dealt from `seed` as `deals` says. `progress` is told after each game.
pub fn play_match(
    (engine, limits): (&Engine, &Limits),
    options: Options,
    entrants: &[Entrant],
    (games, seed, deals): (u32, u64, Deals),
    mut progress: impl FnMut(u32),
) -> Vec<Standing> {
    let mut played = Match::new(options, entrants.to_vec(), seed).dealt(deals);
    for game_index in 0..games {
        played.play_next(engine, limits);
        progress(game_index + 1);
    }
    played.standings()
}

/// Every pair of entrants plays an Elo "game" decided by their final scores.
fn update_ratings(standings: &mut [Standing], scores: &[f64]) {
    let n = standings.len();
    let before: Vec<f64> = standings.iter().map(|s| s.rating).collect();
    for a in 0..n {
        let mut delta = 0.0;
        for b in (0..n).filter(|&b| b != a) {
            let expected = 1.0 / (1.0 + 10f64.powf((before[b] - before[a]) / 400.0));
            let actual = match scores[a].partial_cmp(&scores[b]) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            };
            delta += K * (actual - expected);
        }
        standings[a].rating = before[a] + delta / (n - 1).max(1) as f64;
    }
}

/// Mean and the half-width of its 95% confidence interval (normal approximation).
pub fn mean_ci95(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (variance / n).sqrt())
}

/// The next game of a match: which one, its seed, and the entrant (an index into the entrants)
/// at each seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextGame {
    pub index: u32,
    pub seed: u64,
    pub seats: Vec<usize>,
}

/// What happened in one game, seat by seat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameResult {
    pub winners: Vec<Seat>,
    /// Each seat's final score (its side's, with teams).
    pub scores: Vec<f64>,
    pub faults: Vec<u64>,
    pub decisions: Vec<u64>,
    pub time: Vec<Duration>,
    /// How long each seat's decisions took, one by one (empty where not timed here).
    pub timings: Vec<Timings>,
}

/// How long decisions took: a histogram of eight buckets to each doubling of the time (so a
/// median read from it is within 9%), and the slowest exactly. A fixed size, however many
/// decisions a long match or the ladder counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Timings {
    buckets: [u64; Timings::BUCKETS],
    pub slowest: Duration,
}

impl Default for Timings {
    fn default() -> Timings {
        Timings { buckets: [0; Timings::BUCKETS], slowest: Duration::ZERO }
    }
}

impl Timings {
    /// Eight a doubling from 1 µs: the last bucket starts at 2^31 µs, past half an hour.
    const BUCKETS: usize = 256;

    fn bucket(time: Duration) -> usize {
        let micros = time.as_secs_f64() * 1e6;
        if micros < 1.0 { 0 } else { ((micros.log2() * 8.0) as usize + 1).min(Timings::BUCKETS - 1) }
    }

    pub fn record(&mut self, time: Duration) {
        self.buckets[Timings::bucket(time)] += 1;
        self.slowest = self.slowest.max(time);
    }

    pub fn merge(&mut self, other: &Timings) {
        for (mine, theirs) in self.buckets.iter_mut().zip(&other.buckets) {
            *mine += theirs;
        }
        self.slowest = self.slowest.max(other.slowest);
    }

    /// The upper edge of the bucket that holds the median decision (zero if none was timed).
    pub fn median(&self) -> Duration {
        let total: u64 = self.buckets.iter().sum();
        let mut seen = 0;
        for (b, &count) in self.buckets.iter().enumerate() {
            seen += count;
            if count > 0 && 2 * seen >= total {
                return Duration::from_secs_f64(2f64.powf(b as f64 / 8.0) / 1e6).min(self.slowest);
            }
        }
        Duration::ZERO
    }
}

impl GameResult {
    /// A game of `players` seats with nothing counted yet.
    pub fn new(players: usize) -> GameResult {
        GameResult {
            winners: Vec::new(),
            scores: vec![0.0; players],
            faults: vec![0; players],
            decisions: vec![0; players],
            time: vec![Duration::ZERO; players],
            timings: vec![Timings::default(); players],
        }
    }

    /// Takes the winners and each seat's final score from a game that is over.
    pub fn finish(&mut self, game: &Game) {
        self.winners = game.winners();
        let scores = game.scores();
        for seat in 0..self.scores.len() {
            let side = match game {
                Game::Straight(g) => g.options().side(Seat(seat as u8)),
                Game::Streets(_) => seat,
            };
            self.scores[seat] = scores.get(side).copied().unwrap_or(0) as f64;
        }
    }
}

/// Where a decision is taken: the game, the seat to move, and what happened before.
struct Moment<'a> {
    game: &'a Game,
    seat: Seat,
    history: &'a [Played],
    steps: &'a [Step],
    seed: u64,
}

/// The index of the action `player` chooses, how long it took, and whether it faulted.
fn choose(player: &Player, engine: &Engine, limits: &Limits, at: &Moment<'_>) -> (Result<usize, ()>, Duration) {
    let Moment { game, seat, history, steps, seed } = *at;
    match player {
        Player::Script(bot) => {
            let decision = bot.decide(engine, limits, game, seat, history);
            (decision.choice.map_err(|_| ()), decision.elapsed)
        }
        Player::Engine(level) => {
            timed(game, || clack_engine::player::decide(game.options(), steps, *level, seed).ok().map(|d| d.action))
        }
        Player::Omniscient => timed(game, || clack_engine::omniscient::decide(game, seed)),
        Player::Seer(level) => timed(game, || clack_engine::seer::decide(game, steps.len(), *level, seed)),
        Player::Elsewhere => (Err(()), Duration::ZERO),
    }
}

/// The index among `game`'s legal actions of the action `decide` takes (an error if it takes
/// none, or one not legal), and how long it took: for the players in this process.
fn timed(game: &Game, decide: impl FnOnce() -> Option<Action>) -> (Result<usize, ()>, Duration) {
    let started = Instant::now();
    let action = decide();
    let choice = action.and_then(|a| game.legal_actions().iter().position(|&l| l == a)).ok_or(());
    (choice, started.elapsed())
}

/// Plays one game of `options` between `entrants` to its end, seated and dealt as `next` says
/// (the next game of a [`Match`]): what happened seat by seat, and the game's record, chance
/// and actions, in the order they happened (for a review of the game).
pub fn play_game(
    (engine, limits): (&Engine, &Limits),
    options: Options,
    entrants: &[Entrant],
    next: &NextGame,
) -> (GameResult, Vec<Step>) {
    let seed = next.seed;
    let mut game = Game::new(options).unwrap_or_else(|_| unreachable!("options were validated by the caller"));
    let mut history: Vec<Played> = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut result = GameResult::new(entrants.len());
    loop {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                let Some(chance) = clack_rules::chance::by_round(seed, &game) else { break };
                if game.apply_chance(chance.clone()).is_err() {
                    break;
                }
                steps.push(Step::Chance(chance));
            }
            Turn::Seat { seat } => {
                let player = &entrants[next.seats[seat.index()]].player;
                let at = Moment { game: &game, seat, history: &history, steps: &steps, seed };
                let (choice, elapsed) = choose(player, engine, limits, &at);
                let s = seat.index();
                result.decisions[s] += 1;
                result.time[s] += elapsed;
                result.timings[s].record(elapsed);
                let legal = game.legal_actions();
                let index = choice.unwrap_or_else(|()| {
                    result.faults[s] += 1;
                    0
                });
                let Some(&action) = legal.get(index) else { break };
                let Ok(effects) = game.apply(seat, action) else { break };
                history.push(Played { seat, action, points: effects.scored() });
                steps.push(Step::Act(seat, action));
            }
        }
    }
    result.finish(&game);
    (result, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The median read from the histogram is within 9% of the true one, above it, and the
    /// slowest is exact; two halves merged read as the whole.
    #[test]
    fn timings_keep_the_median_within_nine_percent_and_the_slowest_exactly() {
        let times: Vec<Duration> = (1..=1001u64).map(|i| Duration::from_micros(i * i)).collect();
        let (mut whole, mut first, mut second) = (Timings::default(), Timings::default(), Timings::default());
        for (i, &t) in times.iter().enumerate() {
            whole.record(t);
            if i % 2 == 0 { first.record(t) } else { second.record(t) }
        }
        first.merge(&second);
        assert_eq!(first, whole);
        assert_eq!(whole.slowest, Duration::from_micros(1001 * 1001));
        let median = Duration::from_micros(501 * 501).as_secs_f64();
        let read = whole.median().as_secs_f64();
        assert!(read >= median && read <= median * 1.09, "{read} against {median}");
        assert_eq!(Timings::default().median(), Duration::ZERO);
    }
}
