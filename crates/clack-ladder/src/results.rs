//! Results between players, summed pair by pair over deals.

/// One game of a deal: the player at each seat, the side each seat plays for, and the seats that
/// won (with teams, both seats of the winning side; a shared win names every winner).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealGame {
    pub players: Vec<usize>,
    pub sides: Vec<usize>,
    pub winners: Vec<usize>,
}

/// Every pair's score and number of deals, and each player's games and wins; players are
/// indices, added with [`Results::add_player`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    players: usize,
    /// `score[i][j]`: what `i` scored against `j`, summed over deals (a deal scores 0 to 1).
    score: Vec<Vec<f64>>,
    /// `deals[i][j]`: deals in which `i` and `j` met on different sides.
    deals: Vec<Vec<f64>>,
    games: Vec<u64>,
    /// Win shares summed over games (a shared win counts as a share).
    wins: Vec<f64>,
}

impl Results {
    /// Results among `players` players who have not played yet.
    pub fn new(players: usize) -> Results {
        let mut results = Results::default();
        for _ in 0..players {
            results.add_player();
        }
        results
    }

    /// Adds a player; its index is the number of players before it.
    pub fn add_player(&mut self) -> usize {
        for row in self.score.iter_mut().chain(self.deals.iter_mut()) {
            row.push(0.0);
        }
        self.players += 1;
        self.score.push(vec![0.0; self.players]);
        self.deals.push(vec![0.0; self.players]);
        self.games.push(0);
        self.wins.push(0.0);
        self.players - 1
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Folds in the games of one deal. Every pair of players who met on different sides gets the
    /// deal's mean score between them; a player seated twice in a game counts once per seat in
    /// that mean, and plays one game.
    pub fn add_deal(&mut self, games: &[DealGame]) {
        let mut pair: Vec<Vec<(f64, u32)>> = vec![vec![(0.0, 0); self.players]; self.players];
        for game in games {
            let won = |seat: usize| game.winners.iter().any(|&w| game.sides.get(w) == game.sides.get(seat));
            let winning_sides = {
                let mut sides: Vec<usize> = game.winners.iter().filter_map(|&w| game.sides.get(w).copied()).collect();
                sides.sort_unstable();
                sides.dedup();
                sides.len().max(1)
            };
            for (seat, &player) in game.players.iter().enumerate() {
                // A player in two seats of a game (both partner seats of a side) played one game.
                if game.players.iter().position(|&p| p == player) == Some(seat) {
                    self.games[player] += 1;
                    if won(seat) {
                        self.wins[player] += 1.0 / winning_sides as f64;
                    }
                }
                for (other, &opponent) in game.players.iter().enumerate() {
                    if game.sides[seat] == game.sides[other] || player == opponent {
                        continue;
                    }
                    let score = match (won(seat), won(other)) {
                        (true, false) => 1.0,
                        (false, true) => 0.0,
                        _ => 0.5,
                    };
                    let cell = &mut pair[player][opponent];
                    cell.0 += score;
                    cell.1 += 1;
                }
            }
        }
        for (i, row) in pair.iter().enumerate() {
            for (j, &(score, met)) in row.iter().enumerate() {
                if met > 0 {
                    self.score[i][j] += score / f64::from(met);
                    self.deals[i][j] += 1.0;
                }
            }
        }
    }

    /// What `i` scored against `j`, and in how many deals.
    pub fn between(&self, i: usize, j: usize) -> (f64, f64) {
        (self.score[i][j], self.deals[i][j])
    }

    /// Games a player played.
    pub fn games(&self, player: usize) -> u64 {
        self.games[player]
    }

    /// A player's share of games won.
    pub fn win_share(&self, player: usize) -> f64 {
        if self.games[player] == 0 { 0.0 } else { self.wins[player] / self.games[player] as f64 }
    }
}
