//! An omniscient player: it sees every hand and the order the boneyard will be drawn in.
//!
//! It is a measuring instrument, never a player: no server seats it, in rated play or in users'
//! games, and only `clack arena` can. It bounds what any player who cannot see the hidden tiles
//! can reach, so the distance from `engine:fast` to it is the room there is, and how much of it
//! each level closes is a measure of the levels (docs/engine.md, "The limit, measured").
//!
//! It plays two-sided Straight Dominoes (two players, or four in teams): for each legal move it
//! searches the true round ([`crate::search`]) within its budget, to the round's end where the
//! budget allows, else as deep as it allows, lines cut short valued by a greedy playout of the
//! true world. Games with three or four sides, and Streets and Avenues, it does not play.

use clack_rules::chance::draw_order;
use clack_rules::game::{Action, Game, Turn};

use crate::lean::{self, Move};
use crate::search::{Search, World};

/// Positions the search of the true round may visit for one decision.
const BUDGET: u64 = 200_000;

/// The move of the seat to move in `game`, whose chance is dealt from `seed` by round
/// ([`clack_rules::chance::by_round`]); `None` where it does not play (see the module's note).
pub fn decide(game: &Game, seed: u64) -> Option<Action> {
    let Game::Straight(state) = game else { return None };
    if state.options().sides() != 2 {
        return None;
    }
    if !matches!(game.turn(), Turn::Seat { .. }) {
        return None;
    }
    let legal = state.legal_actions();
    if let [only] = legal.as_slice() {
        return Some(Action::Straight(*only));
    }
    let order = draw_order(seed, game).iter().map(|t| t.index()).collect();
    let world = World::new(lean::Straight::from_state(state), order);
    let moves: Vec<Move> = legal.iter().map(|&a| Move::of(a)).collect();
    let values = Search::new(&world, BUDGET).root(&world.state, &moves)?;
    let best = values.iter().enumerate().max_by_key(|&(i, &v)| (v, std::cmp::Reverse(i))).map(|(i, _)| i)?;
    Some(Action::Straight(legal[best]))
}
