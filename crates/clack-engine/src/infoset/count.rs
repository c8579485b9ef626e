//! Counting and sampling the chance histories that fit what one seat saw.
//!
//! Every tile another seat has held this round entered its hand at one *slot*: the deal (seven
//! slots) or one of its draws (one slot each). A tile that seat played or discarded (an *exit*) is
//! known; a tile it still holds is hidden, and so is the boneyard. A history places every tile in
//! a slot, and it fits what was seen when no tile sat in a hand at a moment its seat showed it
//! held nothing that fitted (a draw or a pass), and every exit left from a slot filled before it.
//!
//! Slots between two such moments are alike for a hidden tile, so they are merged into *epochs*:
//! a hidden tile may lie in any epoch after the last moment whose fitting tiles include it. An
//! exit may lie in an epoch from that same bound up to the epoch it left from, and within its last
//! epoch only in the slots made before it left. Each deal (a set of hands) and each draw being
//! equally likely, all fitting histories are equally likely, so the engine samples uniformly
//! among them: a history is counted by
//!
//! - for the exits of each seat, taken in the order they left: how many free slots each could
//!   have come from (the slots before its departure, less those earlier exits of the same epoch
//!   took);
//! - for the hidden tiles: which epoch (or the boneyard) each lies in, and then the orders of the
//!   hidden tiles within each epoch's remaining slots (a factorial per epoch).
//!
//! The count is a sum over choices, computed by memoised recursion over the remaining capacity of
//! every epoch; tiles that may lie anywhere come last and are counted in closed form (a
//! multinomial). Sampling then walks the same choices, each taken with probability proportional
//! to the histories it leaves, which makes every fitting history equally likely.

use std::collections::HashMap;

use clack_rules::Tile;

use crate::EngineError;
use crate::rng::Rng;

/// Epochs (of every other seat) plus the boneyard that one model can hold.
pub(crate) const MAX_SLOTS: usize = 48;

type Caps = [u8; MAX_SLOTS];

/// Where a tile may lie.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Item {
    /// The hidden tile, or `None` for an exit (whose place does not change the position now).
    pub tile: Option<Tile>,
    /// For an exit: the other seat's index and the exit's number among that seat's exits.
    pub exit: Option<(usize, usize)>,
    /// Each epoch (slot index) it may lie in, with the number of that epoch's slots it may use
    /// (all of them for a hidden tile; those before its departure for an exit).
    pub choices: Vec<(usize, u8)>,
}

/// Where one sampled history put things.
#[derive(Debug)]
pub(crate) struct Placement {
    /// The slot of each item, in item order.
    pub items: Vec<usize>,
    /// Each free tile with its slot.
    pub free: Vec<(Tile, usize)>,
}

/// The counting model of one information set.
#[derive(Debug)]
pub(crate) struct Model {
    /// The capacity of each slot: an epoch of a seat, or (the last) the boneyard.
    caps: Vec<u8>,
    /// Which seat (index into the caller's list of other seats) each slot belongs to, and
    /// which of its epochs it is; `None` for the boneyard.
    owners: Vec<Option<usize>>,
    epochs: Vec<Option<usize>>,
    /// Exits first (sorted per seat by departure), then hidden tiles with few choices.
    items: Vec<Item>,
    exits: usize,
    /// Hidden tiles that may lie in any slot: counted by a multinomial, placed by a shuffle.
    free: Vec<Tile>,
    /// Counts already made, by item and capacities left. Its keys are small and hashed millions
    /// of times a decision: foldhash instead of the standard SipHash, which a profile gave 9% of
    /// a team decision (a memo needs no defence against chosen keys).
    memo: HashMap<(u16, Caps), f64, foldhash::fast::FixedState>,
    factorial: Vec<f64>,
}

impl Model {
    pub(crate) fn new(
        caps: Vec<u8>,
        owners: Vec<Option<usize>>,
        epochs: Vec<Option<usize>>,
        items: Vec<Item>,
        free: Vec<Tile>,
    ) -> Result<Model, EngineError> {
        if caps.len() > MAX_SLOTS {
            return Err(EngineError::TooComplex(format!("{} epochs and boneyard", caps.len())));
        }
        let exits = items.iter().take_while(|item| item.tile.is_none()).count();
        let total: usize = caps.iter().map(|&c| usize::from(c)).sum();
        if total != items.len() + free.len() {
            return Err(EngineError::Inconsistent(format!("{total} slots for {} tiles", items.len() + free.len())));
        }
        let factorial = (0..=total.max(1)).scan(1.0f64, |f, n| {
            if n > 0 {
                *f *= n as f64;
            }
            Some(*f)
        });
        Ok(Model { caps, owners, epochs, items, exits, free, memo: HashMap::default(), factorial: factorial.collect() })
    }

    /// The number of fitting histories (up to a factor that is the same for all of them).
    pub(crate) fn histories(&mut self) -> f64 {
        let caps = self.start();
        self.count(0, &caps)
    }

    /// A uniformly chosen fitting history, as the slot of every item (in item order) and of every
    /// free tile.
    pub(crate) fn sample(&mut self, rng: &mut Rng) -> Result<Placement, EngineError> {
        let mut caps = self.start();
        if self.count(0, &caps) <= 0.0 {
            return Err(EngineError::Inconsistent("no deal fits what this seat saw".into()));
        }
        let mut placement = Placement { items: Vec::with_capacity(self.items.len()), free: Vec::new() };
        for i in 0..self.items.len() {
            let weights: Vec<f64> = (0..self.items[i].choices.len())
                .map(|c| {
                    let (slot, room) = self.items[i].choices[c];
                    self.weight(i, &caps, slot, room)
                })
                .collect();
            let total: f64 = weights.iter().sum();
            let mut target = rng.unit() * total;
            let mut chosen = None;
            for (k, w) in weights.iter().enumerate() {
                if *w > 0.0 {
                    chosen = Some(k);
                    if target < *w {
                        break;
                    }
                    target -= w;
                }
            }
            let chosen = chosen.ok_or_else(|| EngineError::Inconsistent("a tile has no place".into()))?;
            let (slot, _) = self.items[i].choices[chosen];
            caps[slot] -= 1;
            placement.items.push(slot);
        }
        // The tiles that may lie anywhere fill what is left, in a random order.
        let mut free = self.free.clone();
        rng.shuffle(&mut free);
        let mut next = free.into_iter();
        for (slot, cap) in caps.iter().enumerate().take(self.caps.len()) {
            placement.free.extend(next.by_ref().take(usize::from(*cap)).map(|tile| (tile, slot)));
        }
        Ok(placement)
    }

    /// The seat (index into the other seats) a slot belongs to; `None` for the boneyard.
    pub(crate) fn owner(&self, slot: usize) -> Option<usize> {
        self.owners[slot]
    }

    /// The epoch (of its seat) a slot is; `None` for the boneyard.
    pub(crate) fn epoch(&self, slot: usize) -> Option<usize> {
        self.epochs[slot]
    }

    /// Slots in the model, the boneyard included.
    pub(crate) fn slots(&self) -> usize {
        self.caps.len()
    }

    pub(crate) fn items(&self) -> &[Item] {
        &self.items
    }

    fn start(&self) -> Caps {
        let mut caps = [0u8; MAX_SLOTS];
        caps[..self.caps.len()].copy_from_slice(&self.caps);
        caps
    }

    /// The histories that follow from putting item `i` in `slot`.
    fn weight(&mut self, i: usize, caps: &Caps, slot: usize, room: u8) -> f64 {
        if caps[slot] == 0 {
            return 0.0;
        }
        let mut factor = 1.0;
        if i < self.exits {
            // Earlier exits of this epoch took some of the slots before this one's departure.
            let used = self.caps[slot] - caps[slot];
            if room <= used {
                return 0.0;
            }
            factor = f64::from(room - used);
        }
        let mut next = *caps;
        next[slot] -= 1;
        if i + 1 == self.exits {
            factor *= self.orders(&next);
        }
        factor * self.count(i + 1, &next)
    }

    /// Orders of the hidden tiles within the epochs' remaining slots.
    fn orders(&self, caps: &Caps) -> f64 {
        self.owners
            .iter()
            .zip(caps)
            .filter(|(owner, _)| owner.is_some())
            .map(|(_, &c)| self.factorial[usize::from(c)])
            .product()
    }

    /// Histories that complete items `i..` with `caps` left.
    fn count(&mut self, i: usize, caps: &Caps) -> f64 {
        if i == self.items.len() {
            return self.multinomial(caps);
        }
        let key = (i as u16, *caps);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let total = (0..self.items[i].choices.len())
            .map(|c| {
                let (slot, room) = self.items[i].choices[c];
                self.weight(i, caps, slot, room)
            })
            .sum();
        self.memo.insert(key, total);
        total
    }

    /// Ways to share the free tiles among the slots left: |free|! / Π cap!.
    fn multinomial(&self, caps: &Caps) -> f64 {
        let left: usize = caps.iter().map(|&c| usize::from(c)).sum();
        if left != self.free.len() {
            return 0.0;
        }
        let denominator: f64 = caps.iter().map(|&c| self.factorial[usize::from(c)]).product();
        self.factorial[left] / denominator
    }
}
