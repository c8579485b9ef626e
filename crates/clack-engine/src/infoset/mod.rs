//! What one seat knows, and the worlds it cannot tell apart.
//!
//! An [`InfoSet`] is built from a game's record and a seat. It keeps the seat's own hand and
//! what was public in the current deal (every placement, every draw and by whom, every pass and
//! discard), and it turns what draws and passes reveal into the counting model of [`count`]: a
//! seat that drew (unless drawing is always allowed) or passed held nothing that fitted at that
//! moment. [`InfoSet::sample`] returns complete positions (other hands and boneyard) drawn
//! uniformly among the chance histories that fit everything the seat saw;
//! [`InfoSet::sample_replayed`] does the same and shows, on the way, every choice the other
//! seats made in that history, for [`crate::inference`] to weigh the world by.
//!
//! Architecture invariant: an information set never holds another seat's real tiles. The
//! position it keeps is the real one with the hidden tiles put back in a fixed, meaningless
//! order as soon as it is built; whatever the engine computes afterwards can only depend on the
//! seat's own knowledge.

mod count;

use clack_rules::game::{Action, Chance, Game, Options};
use clack_rules::{Seat, Tile, TileSet, straight, streets};

use crate::EngineError;
use crate::record::{self, Step};
use crate::rng::Rng;
use count::{Item, MAX_SLOTS, Model, Placement};

/// One seat's knowledge of a game, and the hidden worlds consistent with it.
#[derive(Debug)]
pub struct InfoSet {
    seat: Seat,
    /// The game just before the current deal: everything in it is public (a finished round's
    /// hands are shown at its end).
    before_deal: Game,
    /// The hand this seat was dealt, and (Streets) the seat dealt to play first.
    dealt: TileSet,
    first: Option<Seat>,
    /// The steps since the deal as this seat saw them.
    since: Vec<Seen>,
    position: Game,
    others: Vec<Seat>,
    lines: Vec<Line>,
    hidden: TileSet,
    model: Model,
}

/// The tiles another seat drew in a sampled history, in the order it drew them.
type Draws = std::collections::VecDeque<Tile>;

/// A step since the deal, as the seat saw it: another seat's draw hides its tile.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seen {
    Act(Seat, Action),
    Draw(Seat, Option<Tile>),
}

/// What the seat knows of another seat in the current deal.
#[derive(Debug)]
struct Line {
    /// The slots each epoch holds: the deal and the draws between two revealing moments.
    epochs: Vec<u8>,
    /// The tiles that would have fitted at each moment the seat showed it held none.
    moments: Vec<TileSet>,
    /// Tiles the seat played or discarded, with the epochs they may have come from and the
    /// slots of their last epoch made before they left.
    exits: Vec<Exit>,
    /// The epoch of each of its draws, in order.
    draws: Vec<usize>,
    /// The tiles it was dealt: the first slots of epoch 0.
    dealt: usize,
}

#[derive(Debug)]
struct Exit {
    tile: Tile,
    lo: usize,
    hi: usize,
    room: u8,
}

impl Line {
    fn new(dealt: usize) -> Line {
        Line { epochs: vec![dealt as u8], moments: Vec::new(), exits: Vec::new(), draws: Vec::new(), dealt }
    }

    /// The first epoch a tile may have entered this hand in: after every moment it would have
    /// fitted.
    fn first_epoch(&self, tile: Tile) -> usize {
        self.moments.iter().rposition(|fits| fits.contains(tile)).map_or(0, |j| j + 1)
    }

    fn moment(&mut self, fits: TileSet) {
        self.moments.push(fits);
        self.epochs.push(0);
    }

    fn draw(&mut self) {
        let last = self.epochs.len() - 1;
        self.epochs[last] += 1;
        self.draws.push(last);
    }

    fn exit(&mut self, tile: Tile) {
        let hi = self.epochs.len() - 1;
        self.exits.push(Exit { tile, lo: self.first_epoch(tile), hi, room: self.epochs[hi] });
    }

    /// The slots of each epoch in the order they were filled: the deal's first, then draws.
    fn slot_count(&self) -> usize {
        self.epochs.iter().map(|&c| usize::from(c)).sum()
    }

    /// The indices (among this seat's slots, deal first and then draws) of the slots of
    /// `epoch`, in the order they were filled.
    fn positions(&self, epoch: usize) -> impl Iterator<Item = usize> + '_ {
        let deal = if epoch == 0 { 0..self.dealt } else { 0..0 };
        let draws = self.draws.iter().enumerate().filter(move |&(_, &d)| d == epoch).map(|(i, _)| self.dealt + i);
        deal.chain(draws)
    }
}

impl InfoSet {
    /// What `seat` knows after `steps` of a game with `options`.
    pub fn new(options: Options, steps: &[Step], seat: Seat) -> Result<InfoSet, EngineError> {
        let deal = record::last_deal(steps).ok_or(EngineError::NotDealt)?;
        let mut game = record::replay(options, &steps[..deal])?;
        let before_deal = game.clone();
        record::apply(&mut game, &steps[deal], deal)?;
        if seat.0 >= game.players() {
            return Err(EngineError::NoSuchSeat(seat.0));
        }
        let dealt = game.hand(seat);
        let first = match &steps[deal] {
            Step::Chance(Chance::Streets(streets::Chance::Deal { first, .. })) => Some(*first),
            _ => None,
        };
        let others: Vec<Seat> = (0..game.players()).map(Seat).filter(|&s| s != seat).collect();
        let mut lines: Vec<Line> = others.iter().map(|&s| Line::new(game.hand(s).len())).collect();
        let mut since = Vec::new();
        for (offset, step) in steps[deal + 1..].iter().enumerate() {
            let line_of = |s: Seat| others.iter().position(|&o| o == s);
            match step {
                Step::Act(actor, action) => {
                    if let Some(k) = line_of(*actor) {
                        if let Some(fits) = reveals(&game, *action) {
                            lines[k].moment(fits);
                        }
                        if let Some(tile) = leaves_hand(*action) {
                            lines[k].exit(tile);
                        }
                    }
                    since.push(Seen::Act(*actor, *action));
                }
                Step::Chance(chance) => {
                    let drawer = game.drawing_seat().ok_or_else(|| EngineError::Record {
                        step: deal + 1 + offset,
                        reason: "a chance step that is not a draw, within a deal".into(),
                    })?;
                    match line_of(drawer) {
                        Some(k) => {
                            lines[k].draw();
                            since.push(Seen::Draw(drawer, None));
                        }
                        None => since.push(Seen::Draw(drawer, drawn(chance))),
                    }
                }
            }
            record::apply(&mut game, step, deal + 1 + offset)?;
        }
        let hidden = others.iter().fold(game.boneyard(), |all, &s| all.union(game.hand(s)));
        let model = model(&game, &lines, hidden)?;
        // Forget where the hidden tiles really are: put them back in tile order.
        let mut rest = hidden.iter();
        let hands: Vec<TileSet> = (0..game.players())
            .map(|s| match s == seat.0 {
                true => game.hand(seat),
                false => rest.by_ref().take(game.hand(Seat(s)).len()).collect(),
            })
            .collect();
        let position = game.redeal(&hands, rest.collect()).map_err(|e| EngineError::Inconsistent(e.to_string()))?;
        Ok(InfoSet { seat, before_deal, dealt, first, since, position, others, lines, hidden, model })
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The position as this seat sees it. The other hands and the boneyard hold the hidden tiles
    /// in a fixed order that means nothing; only their sizes are real.
    pub fn position(&self) -> &Game {
        &self.position
    }

    /// The tiles this seat cannot see: the other hands and the boneyard.
    pub fn hidden(&self) -> TileSet {
        self.hidden
    }

    /// Whether only one world fits: nothing is hidden, or every hidden tile lies in the one
    /// place (a hand or the boneyard) that still holds tiles.
    pub fn is_certain(&self) -> bool {
        let places = self.others.iter().filter(|&&s| !self.position.hand(s).is_empty()).count()
            + usize::from(!self.position.boneyard().is_empty());
        places <= 1
    }

    /// The number of chance histories that fit (up to a factor common to all of them).
    pub fn histories(&mut self) -> f64 {
        self.model.histories()
    }

    /// A complete position drawn uniformly among the chance histories that fit what this seat
    /// saw.
    pub fn sample(&mut self, rng: &mut Rng) -> Result<Game, EngineError> {
        let placement = self.model.sample(rng)?;
        let mut hands: Vec<TileSet> = (0..self.position.players()).map(|_| TileSet::EMPTY).collect();
        hands[self.seat.index()] = self.position.hand(self.seat);
        let mut boneyard = TileSet::EMPTY;
        for (tile, slot) in self.hidden_tiles(&placement) {
            match self.model.owner(slot) {
                Some(k) => hands[self.others[k].index()].insert(tile),
                None => boneyard.insert(tile),
            }
        }
        self.position.redeal(&hands, boneyard).map_err(|e| EngineError::Inconsistent(e.to_string()))
    }

    /// A whole chance history drawn uniformly among those that fit: the game's steps from the
    /// start, with the current deal and every hidden draw filled in. Replaying it through the
    /// rules is legal at every step and ends in a position [`InfoSet::sample`] could give.
    pub fn sample_history(&mut self, prefix: &[Step], rng: &mut Rng) -> Result<Vec<Step>, EngineError> {
        let slots = self.sample_slots(rng)?;
        self.history(prefix, &slots)
    }

    /// A world drawn as [`InfoSet::sample`] draws it (a uniform chance history, played to now),
    /// after showing `choice` every move another seat chose in that history: the position it
    /// chose in (with that seat to move) and the move. Straight Dominoes only (`None` for Streets).
    /// [`crate::inference`] weighs the world by how likely those choices were.
    pub fn sample_replayed(
        &mut self,
        rng: &mut Rng,
        mut choice: impl FnMut(&crate::lean::Straight, crate::lean::Move),
    ) -> Result<Option<Game>, EngineError> {
        let Game::Straight(before) = &self.before_deal else { return Ok(None) };
        let mut state = crate::lean::Straight::from_state(before);
        let slots = self.sample_slots(rng)?;
        let (hands, mut draws) = self.dealt_hands(&slots)?;
        let mut dealt = [0u32; 4];
        for (mask, hand) in dealt.iter_mut().zip(&hands) {
            *mask = crate::lean::mask(*hand);
        }
        state.deal_hands(dealt);
        for seen in &self.since {
            match *seen {
                Seen::Act(seat, Action::Straight(action)) => {
                    let chosen = crate::lean::Move::of(action);
                    if seat != self.seat {
                        choice(&state, chosen);
                    }
                    state.apply(chosen);
                }
                Seen::Draw(seat, known) => state.draw_tile(self.drawn_tile(seat, known, &mut draws)?),
                Seen::Act(..) => return Ok(None),
            }
        }
        let hands: Vec<TileSet> = (0..self.position.players()).map(|s| state.hand(Seat(s))).collect();
        self.position.redeal(&hands, state.boneyard()).map(Some).map_err(|e| EngineError::Inconsistent(e.to_string()))
    }

    /// The tile `seat` drew: the one this seat saw, or the next of the sampled `draws`.
    fn drawn_tile(&self, seat: Seat, known: Option<Tile>, draws: &mut [Draws]) -> Result<Tile, EngineError> {
        let k = self.others.iter().position(|&o| o == seat);
        match (known, k) {
            (Some(tile), _) => Ok(tile),
            (None, Some(k)) => {
                draws[k].pop_front().ok_or_else(|| EngineError::Inconsistent("a draw has no tile".into()))
            }
            (None, None) => Err(EngineError::Inconsistent("this seat's own draw is unknown".into())),
        }
    }

    /// Each other seat's slots in the order they were filled, each holding its tile, drawn
    /// uniformly among the chance histories that fit.
    fn sample_slots(&mut self, rng: &mut Rng) -> Result<Vec<Vec<Option<Tile>>>, EngineError> {
        let placement = self.model.sample(rng)?;
        let mut slots: Vec<Vec<Option<Tile>>> = self.lines.iter().map(|l| vec![None; l.slot_count()]).collect();
        let exits_by_item =
            placement.items.iter().zip(self.model.items()).filter_map(|(&slot, item)| item.exit.map(|e| (e, slot)));
        for ((k, x), slot) in exits_by_item {
            let epoch = self.model.epoch(slot).unwrap_or_default();
            let line = &self.lines[k];
            let exit = &line.exits[x];
            let room = if epoch == exit.hi { usize::from(exit.room) } else { usize::from(line.epochs[epoch]) };
            let open: Vec<usize> = line.positions(epoch).take(room).filter(|&p| slots[k][p].is_none()).collect();
            let at = *open
                .get(rng.below(open.len()))
                .ok_or_else(|| EngineError::Inconsistent("an exit has no slot".into()))?;
            slots[k][at] = Some(exit.tile);
        }
        let mut by_slot: Vec<Vec<Tile>> = vec![Vec::new(); self.model.slots()];
        for (tile, slot) in self.hidden_tiles(&placement) {
            by_slot[slot].push(tile);
        }
        for (slot, mut tiles) in by_slot.into_iter().enumerate() {
            let (Some(k), Some(epoch)) = (self.model.owner(slot), self.model.epoch(slot)) else { continue };
            rng.shuffle(&mut tiles);
            let open: Vec<usize> = self.lines[k].positions(epoch).filter(|&p| slots[k][p].is_none()).collect();
            for (p, tile) in open.into_iter().zip(tiles) {
                slots[k][p] = Some(tile);
            }
        }
        Ok(slots)
    }

    /// Every seat's hand at the deal and each other seat's draws in order, for `slots`.
    fn dealt_hands(&self, slots: &[Vec<Option<Tile>>]) -> Result<(Vec<TileSet>, Vec<Draws>), EngineError> {
        let players = self.before_deal.players();
        let mut hands = vec![TileSet::EMPTY; usize::from(players)];
        hands[self.seat.index()] = self.dealt;
        let mut draws: Vec<std::collections::VecDeque<Tile>> = Vec::new();
        for (k, &other) in self.others.iter().enumerate() {
            let dealt = self.lines[k].dealt;
            let tiles: Option<Vec<Tile>> = slots[k].iter().copied().collect();
            let tiles = tiles.ok_or_else(|| EngineError::Inconsistent("a slot was left empty".into()))?;
            hands[other.index()] = tiles[..dealt].iter().copied().collect();
            draws.push(tiles[dealt..].iter().copied().collect());
        }
        Ok((hands, draws))
    }

    /// The steps of a history whose other seats' slots hold `slots`.
    fn history(&self, prefix: &[Step], slots: &[Vec<Option<Tile>>]) -> Result<Vec<Step>, EngineError> {
        let (hands, mut draws) = self.dealt_hands(slots)?;
        let deal = match &self.before_deal {
            Game::Straight(_) => {
                let mut fixed = [TileSet::EMPTY; straight::MAX_PLAYERS];
                fixed[..hands.len()].copy_from_slice(&hands);
                Chance::Straight(straight::Chance::Deal { hands: fixed })
            }
            Game::Streets(_) => Chance::Streets(streets::Chance::Deal { hands, first: self.first.unwrap_or(Seat(0)) }),
        };
        let deal_at = record::last_deal(prefix).ok_or(EngineError::NotDealt)?;
        let mut steps = prefix[..deal_at].to_vec();
        steps.push(Step::Chance(deal));
        for seen in &self.since {
            let step = match *seen {
                Seen::Act(seat, action) => Step::Act(seat, action),
                Seen::Draw(seat, known) => {
                    Step::Chance(self.before_deal.draw_chance(self.drawn_tile(seat, known, &mut draws)?))
                }
            };
            steps.push(step);
        }
        Ok(steps)
    }

    /// Every hidden tile with its slot.
    fn hidden_tiles(&self, placement: &Placement) -> Vec<(Tile, usize)> {
        let items =
            placement.items.iter().zip(self.model.items()).filter_map(|(&slot, item)| item.tile.map(|t| (t, slot)));
        items.chain(placement.free.iter().copied()).collect()
    }
}

fn drawn(chance: &Chance) -> Option<Tile> {
    match chance {
        Chance::Straight(straight::Chance::Draw { tile }) | Chance::Streets(streets::Chance::Draw { tile }) => {
            Some(*tile)
        }
        _ => None,
    }
}
/// The tiles that fitted when a seat took `action`, if the action shows it held none of them.
fn reveals(game: &Game, action: Action) -> Option<TileSet> {
    match (game, action) {
        (Game::Straight(g), Action::Straight(straight::Action::Draw)) if !g.options().may_draw_when_able => {
            Some(g.fitting_tiles())
        }
        (Game::Straight(g), Action::Straight(straight::Action::Pass)) => Some(g.fitting_tiles()),
        (Game::Streets(g), Action::Streets(streets::Action::Pass | streets::Action::Discard { .. }))
            if !g.options().may_pass_when_able =>
        {
            Some(g.placeable(g.options().set.tiles()))
        }
        _ => None,
    }
}

/// The tile an action takes out of its seat's hand, face up.
fn leaves_hand(action: Action) -> Option<Tile> {
    match action {
        Action::Straight(straight::Action::Lead { tile } | straight::Action::Play { tile, .. }) => Some(tile),
        Action::Streets(streets::Action::Place { tile, .. } | streets::Action::Discard { tile }) => Some(tile),
        _ => None,
    }
}

/// The counting model: one slot per epoch that holds slots, then the boneyard.
fn model(game: &Game, lines: &[Line], hidden: TileSet) -> Result<Model, EngineError> {
    let mut caps = Vec::new();
    let mut owners = Vec::new();
    let mut epochs = Vec::new();
    // slot_of[k][e]: the slot of epoch e of other seat k, if that epoch holds any.
    let mut slot_of: Vec<Vec<Option<usize>>> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let slots = line
            .epochs
            .iter()
            .enumerate()
            .map(|(e, &cap)| {
                (cap > 0).then(|| {
                    caps.push(cap);
                    owners.push(Some(k));
                    epochs.push(Some(e));
                    caps.len() - 1
                })
            })
            .collect();
        slot_of.push(slots);
    }
    let boneyard = caps.len();
    caps.push(game.boneyard().len() as u8);
    owners.push(None);
    epochs.push(None);
    if caps.len() > MAX_SLOTS {
        return Err(EngineError::TooComplex(format!("{} epochs", caps.len())));
    }
    let mut items = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        for (x, exit) in line.exits.iter().enumerate() {
            let choices: Vec<(usize, u8)> = (exit.lo..=exit.hi)
                .filter_map(|e| {
                    let room = if e == exit.hi { exit.room } else { line.epochs[e] };
                    slot_of[k][e].filter(|_| room > 0).map(|slot| (slot, room))
                })
                .collect();
            items.push(Item { tile: None, exit: Some((k, x)), choices });
        }
    }
    let every: Vec<usize> = (0..caps.len()).filter(|&s| caps[s] > 0).collect();
    let mut restricted = Vec::new();
    let mut free = Vec::new();
    for tile in hidden {
        let mut choices = Vec::new();
        for (k, line) in lines.iter().enumerate() {
            let first = line.first_epoch(tile);
            choices.extend((first..line.epochs.len()).filter_map(|e| slot_of[k][e].map(|s| (s, caps[s]))));
        }
        if caps[boneyard] > 0 {
            choices.push((boneyard, caps[boneyard]));
        }
        if choices.len() == every.len() {
            free.push(tile);
        } else {
            restricted.push(Item { tile: Some(tile), exit: None, choices });
        }
    }
    restricted.sort_by_key(|item| item.choices.len());
    items.extend(restricted);
    Model::new(caps, owners, epochs, items, free)
}
