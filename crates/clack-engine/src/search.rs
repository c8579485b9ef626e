//! Perfect-information search of a Straight Dominoes round in one sampled world.
//!
//! In a world every hand is known and the boneyard is drawn in a fixed order, so the rest of
//! the round is a game without chance: each side in turn takes the move best for it. With two
//! sides (two players, or four in two teams, partners playing for one side) that is minimax on
//! the difference of the sides' gains, searched here by alpha-beta with the moves that score
//! most tried first, deepening one move at a time: a line cut short at the depth is valued by a
//! greedy playout of the rest, and an iteration that reaches the round's end on every line is
//! exact. The search visits at most its budget of positions and answers with its deepest
//! finished iteration. The budget counts positions, not time, so a world is searched the same
//! way on every machine.
//!
//! This is where bridge and skat programs get their strength from sampled worlds
//! (perfect-information Monte Carlo): the value of a move in a world is what best play makes of
//! it there, not what a fixed policy does. Measured on random 2-player rounds, a world with up
//! to about 20 tiles left in hands and boneyard is solved exactly in a few hundred positions
//! (the median; thousands at the 90th percentile); a fresh deal of 28 needs millions, so early
//! in a round the search looks a few moves ahead and the playouts value the rest. Its known
//! flaw, strategy fusion (a search may play differently in worlds the player cannot tell
//! apart), is averaged over many worlds.

use crate::lean::{self, Buffer, Move, Phase};
use crate::rng::Rng;

/// Beyond any margin a round can have.
const INFINITY: i32 = 1 << 20;

/// One world of a round: its position on the lean state, and the order its boneyard will be
/// drawn in.
#[derive(Clone, Debug)]
pub(crate) struct World {
    pub state: lean::Straight,
    /// Canonical tile indices, first drawn first.
    order: Vec<u8>,
}

impl World {
    /// A world whose boneyard is drawn in `order` (canonical tile indices, first drawn first).
    pub(crate) fn new(state: lean::Straight, order: Vec<u8>) -> World {
        World { state, order }
    }

    /// A world whose boneyard is drawn in an order shuffled by `rng`.
    pub(crate) fn shuffled(state: lean::Straight, rng: &mut Rng) -> World {
        let mut order: Vec<u8> = state.boneyard().iter().map(|t| t.index()).collect();
        rng.shuffle(&mut order);
        World { state, order }
    }
}

/// A search of one world, within a budget of positions.
pub(crate) struct Search<'a> {
    order: &'a [u8],
    nodes: u64,
    limit: u64,
    /// One list of moves for each depth, reused.
    buffers: Vec<Buffer>,
    /// Whether the iteration under way has valued a line by a playout before the round's end.
    cut: bool,
}

/// More moves than any round can hold: the deepest iteration there is.
const MAX_DEPTH: u32 = 128;

/// The seed of the greedy playouts that value a line cut at its depth. One fixed seed keeps a
/// search a function of its world alone.
const LEAF_SEED: u64 = 0x5EA2_C4ED;

impl<'a> Search<'a> {
    pub(crate) fn new(world: &'a World, limit: u64) -> Search<'a> {
        Search { order: &world.order, nodes: 0, limit, buffers: Vec::new(), cut: false }
    }

    /// The positions visited so far (a playout counts one for each tile it had left to play).
    #[cfg(test)]
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The margin each of `moves` (legal for the seat to move in `state`) earns its side to the
    /// end of the round: its gain less the other side's.
    ///
    /// The search deepens one move at a time. An iteration of depth `d` looks `d` moves ahead,
    /// each side taking its best, and values a line still short of the round's end by a greedy
    /// playout of the rest (depth 1 is what a playout after each move gives). An iteration that
    /// reaches the round's end on every line is exact, and the last. The answer is that of the
    /// deepest iteration finished within the budget; `None` if not even the first finished, and
    /// then the caller keeps its own playouts' values.
    pub(crate) fn root(&mut self, state: &lean::Straight, moves: &[Move]) -> Option<Vec<i32>> {
        let mut answer = None;
        for depth in 1..=MAX_DEPTH {
            self.cut = false;
            let Some(values) = self.iteration(state, moves, depth) else { break };
            answer = Some(values);
            if !self.cut {
                break;
            }
        }
        answer
    }

    /// Each of `moves` valued `depth` moves ahead (itself the first).
    fn iteration(&mut self, state: &lean::Straight, moves: &[Move], depth: u32) -> Option<Vec<i32>> {
        let Phase::Turn(seat) = state.phase() else { return None };
        let side = state.options().side(seat);
        let mut values = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = state.clone();
            child.apply(m);
            let gained = gain(state, &child, side);
            values.push(gained + self.after_move(child, side, (-INFINITY, INFINITY), (0, depth - 1))?);
        }
        Some(values)
    }

    /// The value for `side`, which just moved, of `state`: its gain less the other side's to
    /// the end of the round, within (`alpha`, `beta`), with `depth` moves left to look at.
    fn after_move(
        &mut self,
        mut state: lean::Straight,
        side: usize,
        (alpha, beta): (i32, i32),
        (ply, depth): (usize, u32),
    ) -> Option<i32> {
        draw_in_order(self.order, &mut state);
        match state.phase() {
            Phase::Turn(next) if state.options().side(next) == side => self.negamax(state, alpha, beta, (ply, depth)),
            Phase::Turn(_) => Some(-self.negamax(state, -beta, -alpha, (ply, depth))?),
            _ => Some(0),
        }
    }

    /// The side to move's gain less the other side's, from `state` to the end of the round.
    fn negamax(&mut self, state: lean::Straight, mut alpha: i32, beta: i32, (ply, depth): (usize, u32)) -> Option<i32> {
        self.visit(1)?;
        let Phase::Turn(seat) = state.phase() else { return Some(0) };
        let side = state.options().side(seat);
        if depth == 0 {
            return self.leaf(state, side);
        }
        let moves = self.ordered(&state, ply);
        let mut best = -INFINITY;
        for &m in &moves[..] {
            let mut child = state.clone();
            child.apply(m);
            let gained = gain(&state, &child, side);
            let window = (alpha - gained, beta - gained);
            let value = gained + self.after_move(child, side, window, (ply + 1, depth - 1))?;
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// `state` valued for `side` (to move) by a greedy playout of the round's rest, counted as
    /// one position for each tile left in hands and boneyard (a bound on its moves but passes).
    fn leaf(&mut self, state: lean::Straight, side: usize) -> Option<i32> {
        self.cut = true;
        let hands: u32 = (0..state.options().players).map(|s| state.hand(clack_rules::Seat(s)).len() as u32).sum();
        self.visit(u64::from(hands) + state.boneyard().len() as u64)?;
        Some(playout(self.order, state, side, &mut Rng::new(LEAF_SEED)))
    }

    /// Counts `n` positions; `None` once the budget is passed, which unwinds the whole iteration.
    fn visit(&mut self, n: u64) -> Option<()> {
        self.nodes += n;
        (self.nodes <= self.limit).then_some(())
    }

    /// The legal moves of `state`, those that score most (then the heaviest tiles) first:
    /// alpha-beta cuts most when the best move comes first, and in this game it usually scores.
    fn ordered(&mut self, state: &lean::Straight, ply: usize) -> Vec<Move> {
        if self.buffers.len() <= ply {
            self.buffers.resize(ply + 1, lean::buffer());
        }
        let len = state.legal_actions_into(&mut self.buffers[ply]);
        let mut moves: Vec<(u32, Move)> =
            self.buffers[ply][..len].iter().map(|&m| (state.scored(m) * 64 + m.pips(), m)).collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.0));
        moves.into_iter().map(|(_, m)| m).collect()
    }
}

/// Gives a drawing seat of `state` the next tile of `order` still in the boneyard.
fn draw_in_order(order: &[u8], state: &mut lean::Straight) {
    while let Phase::Drawing(_) = state.phase() {
        let boneyard = state.boneyard();
        let Some(tile) = order.iter().filter_map(|&i| clack_rules::Tile::from_index(i)).find(|&t| boneyard.contains(t))
        else {
            return;
        };
        state.draw_tile(tile);
    }
}

/// `side`'s gain less the other side's to the end of the round when `state` is played out by
/// the greedy policy (ties broken by `rng`), its boneyard drawn in `order`.
pub(crate) fn playout(order: &[u8], mut state: lean::Straight, side: usize, rng: &mut Rng) -> i32 {
    let start = state.clone();
    state.play_round_drawing(lean::Policy::Greedy, rng, &mut lean::buffer(), |state, _| {
        let before = state.boneyard().len();
        draw_in_order(order, state);
        state.boneyard().len() < before
    });
    gain(&start, &state, side)
}

/// `side`'s points gained less the other side's, from `before` to `after` (two sides).
pub(crate) fn gain(before: &lean::Straight, after: &lean::Straight, side: usize) -> i32 {
    let (b, a) = (before.scores(), after.scores());
    let delta = |s: usize| a[s] as i32 - b[s] as i32;
    delta(side) - delta(1 - side)
}

#[cfg(test)]
mod tests {
    use clack_rules::game::{Game, Options, Turn};
    use clack_rules::{Dealer, Tile, straight};

    use super::draw_in_order as draw_in_order_lean;
    use super::*;

    /// The mover's side's best margin to the end of the round on the rules' own state, the
    /// boneyard drawn in `order`: a plain negamax written apart from the search, to check it.
    fn negamax(game: &Game, order: &[u8]) -> i32 {
        let Turn::Seat { seat } = game.turn() else { return 0 };
        let side = |g: &Game, s| match g {
            Game::Straight(g) => g.options().side(s),
            Game::Streets(_) => 0,
        };
        let me = side(game, seat);
        game.legal_actions()
            .into_iter()
            .map(|action| {
                let mut next = game.clone();
                next.apply(seat, action).expect("legal");
                draw_in_order(&mut next, order);
                let (b, a) = (game.scores(), next.scores());
                let gained = ((a[me] - b[me]) - (a[1 - me] - b[1 - me])) as i32;
                match next.turn() {
                    Turn::Seat { seat: other } if side(&next, other) == me => gained + negamax(&next, order),
                    Turn::Seat { .. } => gained - negamax(&next, order),
                    _ => gained,
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// Draws for a drawing seat of `game` the next tile of `order` still in the boneyard.
    fn draw_in_order(game: &mut Game, order: &[u8]) {
        while game.drawing_seat().is_some() {
            let boneyard = game.boneyard();
            let tile = order.iter().filter_map(|&i| Tile::from_index(i)).find(|&t| boneyard.contains(t));
            let chance = game.draw_chance(tile.expect("a tile to draw"));
            game.apply_chance(chance).expect("fits");
        }
    }

    /// Positions late in the first round of random two-sided games (at most ten tiles in hands and
    /// boneyard; one at least still to draw where the deal left a boneyard, which four hands of
    /// the double-six do not), each with the order its boneyard is drawn in.
    fn late_positions(options: straight::Options) -> Vec<(Game, Vec<u8>)> {
        let mut found = Vec::new();
        for seed in 0..2000u64 {
            let mut game = Game::new(Options::Straight(options)).expect("valid");
            let mut dealer = Dealer::from_seed(seed);
            while game.turn() == Turn::Chance {
                let chance = game.sample_chance(&mut dealer).expect("the lead draw and the deal");
                game.apply_chance(chance).expect("fits");
            }
            let mut order: Vec<u8> = game.boneyard().iter().map(|t| t.index()).collect();
            Rng::new(seed).shuffle(&mut order);
            while let Turn::Seat { seat } = game.turn() {
                let tiles: usize = game.hands().iter().map(|h| h.len()).sum();
                let Game::Straight(state) = &game else { unreachable!() };
                let drawable = state.drawable();
                if tiles + drawable <= 10 && (drawable > 0 || options.players == 4) && game.legal_actions().len() > 1 {
                    found.push((game.clone(), order.clone()));
                    break;
                }
                let legal = game.legal_actions();
                game.apply(seat, legal[dealer.index(legal.len())]).expect("legal");
                draw_in_order(&mut game, &order);
            }
            if found.len() == 20 {
                break;
            }
        }
        found
    }

    #[test]
    fn with_room_enough_the_search_is_exact_draws_included() {
        for options in [
            straight::Options { players: 2, ..straight::Options::default() },
            straight::Options { players: 2, may_draw_when_able: true, ..straight::Options::default() },
            straight::Options { players: 4, teams: true, ..straight::Options::default() },
        ] {
            let positions = late_positions(options);
            assert!(positions.len() >= 10, "only {} positions", positions.len());
            for (game, order) in positions {
                let Game::Straight(state) = &game else { unreachable!() };
                let world = World { state: lean::Straight::from_state(state), order: order.clone() };
                let moves: Vec<Move> = state.legal_actions().into_iter().map(Move::of).collect();
                let values = Search::new(&world, u64::MAX).root(&world.state, &moves).expect("searched");
                let best = values.iter().copied().max().expect("moves");
                assert_eq!(best, negamax(&game, &order), "{options:?}");
            }
        }
    }

    #[test]
    fn a_search_past_its_budget_answers_nothing() {
        let options = straight::Options { players: 2, ..straight::Options::default() };
        let positions = late_positions(options);
        for (game, order) in &positions {
            let Game::Straight(state) = game else { unreachable!() };
            let world = World { state: lean::Straight::from_state(state), order: order.clone() };
            let moves: Vec<Move> = state.legal_actions().into_iter().map(Move::of).collect();
            let mut search = Search::new(&world, 2);
            assert_eq!(search.root(&world.state, &moves), None, "not even one move ahead fits in two positions");
            // It stops at the first position, or the first playout, past its budget.
            assert!(search.nodes() > 2 && search.nodes() <= 2 + 1 + 28, "{}", search.nodes());
        }
    }

    #[test]
    fn a_search_cut_short_answers_its_deepest_finished_iteration() {
        let options = straight::Options { players: 2, ..straight::Options::default() };
        for (game, order) in late_positions(options) {
            let Game::Straight(state) = &game else { unreachable!() };
            let world = World { state: lean::Straight::from_state(state), order };
            let moves: Vec<Move> = state.legal_actions().into_iter().map(Move::of).collect();
            let depth_one: Vec<i32> = moves
                .iter()
                .map(|&m| {
                    let mut next = world.state.clone();
                    next.apply(m);
                    let side = world.state.options().side(match world.state.phase() {
                        Phase::Turn(seat) => seat,
                        _ => unreachable!(),
                    });
                    gain(&world.state, &next, side) + after_move_playout(&world, next, side)
                })
                .collect();
            // Exactly what the first iteration costs: on these positions the second, looking
            // further on every line the first cut short, costs more and does not finish.
            let mut first = Search::new(&world, u64::MAX);
            first.iteration(&world.state, &moves, 1).expect("unbounded");
            let values = Search::new(&world, first.nodes()).root(&world.state, &moves);
            assert_eq!(values, Some(depth_one));
        }
    }

    /// `side`'s margin from `state`, just after its move, by the world's draws and a playout.
    fn after_move_playout(world: &World, mut state: lean::Straight, side: usize) -> i32 {
        draw_in_order_lean(&world.order, &mut state);
        playout(&world.order, state, side, &mut Rng::new(LEAF_SEED))
    }
}
