//! The engine's lean Straight Dominoes state against the rules crate: random games under every
//! option, the same choices made in both, must list the same legal actions in the same order,
//! preview the same points, and leave the same position after every step (hands, boneyard, ends,
//! count, scores, turn, passes, round ends and the end of the game). The greedy playout on the
//! lean state must also take exactly the actions the same policy takes on the rules' state.
//! The guarded policy must take a lay the rules' state values best against the reply.

use clack_engine::lean::{self, Phase, Straight};
use clack_engine::rng::Rng;
use clack_rules::straight::{self, Action, BlockedScoring, Chance, ChanceKind, Options, SpinnerRule, State, ToMove};
use clack_rules::{Dealer, TileSet};

/// Every combination of the options that change play, at 2, 3 and 4 players (teams at 4), with
/// small targets so that whole matches are short.
fn variants() -> Vec<Options> {
    let mut all = Vec::new();
    for (players, teams) in [(2, false), (3, false), (4, false), (4, true)] {
        for spinner in [SpinnerRule::FirstTile, SpinnerRule::FirstDouble, SpinnerRule::None] {
            for flags in 0..16u8 {
                let options = Options {
                    players,
                    teams,
                    spinner,
                    spinner_sides_open_immediately: flags & 1 != 0,
                    may_draw_when_able: flags & 2 != 0,
                    blocked_scoring: if flags & 4 != 0 { BlockedScoring::Opponents } else { BlockedScoring::Net },
                    finish_round_at_target: flags & 8 != 0,
                    boneyard_reserve: match players {
                        2 => (flags % 3) * 2,
                        3 => flags % 2,
                        _ => 0,
                    },
                    target: [50, 100, 150][usize::from(flags % 3)],
                };
                options.validate().expect("valid options");
                all.push(options);
            }
        }
    }
    all
}

/// A game after the draw for the lead, waiting for its first deal.
fn before_deal(options: Options, dealer: &mut Dealer) -> State {
    let mut state = State::new(options).expect("valid");
    let draw = state.sample_chance(dealer).expect("lead draw");
    state.apply_chance(draw).expect("fits");
    state
}

/// Plays a whole game with random choices from `seed`, the rules and the lean state side by
/// side, comparing them at every step. Returns the number of seat actions.
fn play_both(options: Options, seed: u64) -> usize {
    let mut dealer = Dealer::from_seed(seed);
    let mut rules = before_deal(options, &mut dealer);
    let mut lean = Straight::from_state(&rules);
    assert_eq!(lean, Straight::new(options, rules.leader()));
    let mut buffer = lean::buffer();
    let mut actions = 0;
    loop {
        assert_eq!(lean, Straight::from_state(&rules), "seed {seed}, after {actions} actions");
        match rules.to_move() {
            ToMove::Seat { seat } => {
                assert_eq!(lean.phase(), Phase::Turn(seat));
                let legal = rules.legal_actions();
                let len = lean.legal_actions_into(&mut buffer);
                let listed: Vec<Action> = buffer[..len].iter().map(|m| m.action()).collect();
                assert_eq!(listed, legal.as_slice(), "seed {seed}: legal actions");
                for &action in &legal {
                    assert_eq!(lean::Move::of(action).action(), action);
                    let preview = rules.preview(seat, action).expect("legal");
                    assert_eq!(lean.scored(lean::Move::of(action)), preview.scored, "seed {seed}: {action}");
                }
                let action = legal[dealer.index(legal.len())];
                let before = rules.scores().to_vec();
                let effects = rules.apply(seat, action).expect("legal");
                lean.apply_action(action);
                actions += 1;
                if effects.round.is_none() && effects.outcome.is_none() {
                    let side = options.side(seat);
                    assert_eq!(lean.scores()[side], before[side] + effects.scored, "seed {seed}: {action} scored");
                }
            }
            ToMove::Chance { kind: ChanceKind::Deal } => {
                assert_eq!(lean.phase(), Phase::Deal);
                let Some(Chance::Deal { hands }) = rules.sample_chance(&mut dealer) else { panic!("a deal") };
                rules.apply_chance(Chance::Deal { hands }).expect("fits");
                lean.deal_hands(hands.map(lean::mask));
            }
            ToMove::Chance { kind: ChanceKind::Draw { seat } } => {
                assert_eq!(lean.phase(), Phase::Drawing(seat));
                let Some(Chance::Draw { tile }) = rules.sample_chance(&mut dealer) else { panic!("a draw") };
                rules.apply_chance(Chance::Draw { tile }).expect("fits");
                lean.draw_tile(tile);
            }
            ToMove::Chance { kind: ChanceKind::LeadDraw } => panic!("the lead was drawn"),
            ToMove::Over => {
                assert!(lean.is_over());
                assert_eq!(lean.scores(), rules.scores());
                assert_eq!(lean.winning_side(), rules.outcome().map(|o| o.winning_side));
                return actions;
            }
        }
    }
}

#[test]
fn random_games_match_the_rules_under_every_option() {
    let mut actions = 0;
    for (i, options) in variants().into_iter().enumerate() {
        for game in 0..6 {
            actions += play_both(options, (i * 100 + game) as u64);
        }
    }
    assert!(actions > 50_000, "{actions} actions compared");
}

#[test]
fn random_games_match_the_rules_with_the_default_options() {
    for players in 2..=4 {
        for seed in 0..150 {
            play_both(Options { players, ..Options::default() }, 10_000 + seed);
        }
    }
}

/// A whole match of greedy playouts on the rules' state, dealt and drawn by the engine's
/// generator as the engine dealt them: the set in canonical order shuffled, seven tiles a seat.
fn rules_greedy_match(mut state: State, rng: &mut Rng) -> (Vec<Action>, Vec<u32>) {
    let mut taken = Vec::new();
    loop {
        match state.to_move() {
            ToMove::Seat { seat } => {
                let action = lean::rules_greedy(&state, seat, rng);
                state.apply(seat, action).expect("legal");
                taken.push(action);
            }
            ToMove::Chance { kind: ChanceKind::Draw { .. } } => {
                let tile = rng.pick(state.boneyard()).expect("a tile to draw");
                state.apply_chance(Chance::Draw { tile }).expect("fits");
            }
            ToMove::Chance { .. } => {
                let mut tiles: Vec<_> = TileSet::full(6).iter().collect();
                rng.shuffle(&mut tiles);
                let mut hands = [TileSet::EMPTY; straight::MAX_PLAYERS];
                for (hand, chunk) in
                    hands.iter_mut().zip(tiles.chunks(straight::HAND_SIZE)).take(usize::from(state.options().players))
                {
                    *hand = chunk.iter().copied().collect();
                }
                state.apply_chance(Chance::Deal { hands }).expect("fits");
            }
            ToMove::Over => return (taken, state.scores().to_vec()),
        }
    }
}

/// The same match on the lean state.
fn lean_greedy_match(mut state: Straight, rng: &mut Rng) -> (Vec<Action>, Vec<u32>) {
    let mut buffer = lean::buffer();
    let mut taken = Vec::new();
    loop {
        match state.phase() {
            Phase::Turn(_) => {
                let chosen = state.policy(rng, &mut buffer);
                state.apply(chosen);
                taken.push(chosen.action());
            }
            Phase::Drawing(_) => assert!(state.draw(rng), "a tile to draw"),
            Phase::Deal => state.deal(rng),
            Phase::Over => return (taken, state.scores().to_vec()),
        }
    }
}

#[test]
fn greedy_playouts_take_the_actions_the_rules_state_took() {
    for (i, options) in variants().into_iter().enumerate().step_by(3) {
        for seed in 0..4u64 {
            // Start some matches mid-round, from a position the rules' dealer played into.
            let mut dealer = Dealer::from_seed(seed + 1000 * i as u64);
            let mut start = before_deal(options, &mut dealer);
            for _ in 0..seed * 3 {
                match start.to_move() {
                    ToMove::Seat { seat } => {
                        let legal = start.legal_actions();
                        start.apply(seat, legal[dealer.index(legal.len())]).expect("legal");
                    }
                    ToMove::Over => break,
                    ToMove::Chance { .. } => {
                        let chance = start.sample_chance(&mut dealer).expect("chance");
                        start.apply_chance(chance).expect("fits");
                    }
                }
            }
            let rules = rules_greedy_match(start.clone(), &mut Rng::new(seed));
            let lean = lean_greedy_match(Straight::from_state(&start), &mut Rng::new(seed));
            assert_eq!(lean, rules, "options {i}, seed {seed}");
        }
    }
}

/// What the guarded policy maximises, computed on the rules' state: a lay's points less the most
/// the next seat can score with a lay in reply if it is an opponent, then the tile's pips; `None`
/// for a draw or a pass.
fn guarded_key(state: &State, seat: clack_rules::Seat, action: Action) -> Option<(i64, u32)> {
    let (Action::Lead { tile } | Action::Play { tile, .. }) = action else { return None };
    let scored = i64::from(state.preview(seat, action).expect("legal").scored);
    let mut next = state.clone();
    next.apply(seat, action).expect("legal");
    let reply = match next.to_move() {
        ToMove::Seat { seat: other } if state.options().side(other) != state.options().side(seat) => next
            .legal_actions()
            .iter()
            .filter(|a| matches!(a, Action::Lead { .. } | Action::Play { .. }))
            .map(|&a| i64::from(next.preview(other, a).expect("legal").scored))
            .max()
            .unwrap_or(0),
        _ => 0,
    };
    Some((scored - reply, tile.pips()))
}

/// The guarded policy, on the lean state, takes a lay the rules' state values highest by
/// [`guarded_key`] at every decision of random games under every option (and a draw or a pass
/// only when nothing can be laid).
#[test]
fn the_guarded_policy_takes_the_best_lay_against_the_reply() {
    let mut checked = 0;
    for (i, options) in variants().into_iter().enumerate() {
        let mut dealer = Dealer::from_seed(50_000 + i as u64);
        let mut rules = before_deal(options, &mut dealer);
        let mut rng = Rng::new(i as u64);
        let mut buffer = lean::buffer();
        loop {
            match rules.to_move() {
                ToMove::Seat { seat } => {
                    let legal = rules.legal_actions();
                    let chosen = Straight::from_state(&rules).guarded_policy(&mut rng, &mut buffer).action();
                    let best = legal.iter().filter_map(|&a| guarded_key(&rules, seat, a)).max();
                    assert_eq!(guarded_key(&rules, seat, chosen), best, "{options:?}: {chosen} among {legal:?}");
                    checked += usize::from(legal.len() > 1);
                    let action = legal[dealer.index(legal.len())];
                    rules.apply(seat, action).expect("legal");
                }
                ToMove::Chance { .. } => {
                    let chance = rules.sample_chance(&mut dealer).expect("a chance event");
                    rules.apply_chance(chance).expect("fits");
                }
                ToMove::Over => break,
            }
        }
    }
    assert!(checked > 5_000, "{checked} choices checked");
}
