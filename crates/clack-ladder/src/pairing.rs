//! Who plays the next deal: the players whose games would teach the most. A game between two
//! players narrows their ratings in proportion to how uncertain they are and to how open the
//! game is: `p (1 - p) (v_a + v_b)`, with `p` the chance one beats the other and `v` each
//! rating's variance. So a new version, whose rating is wide open, is scheduled at once, and a
//! pairing whose result is a foregone conclusion (a random bot against the engine) is left for
//! last, however uncertain its players. Every third deal seats an anchor with the player it
//! would teach the most, so that every rating stays tied to the fixed scale.

/// A player as the scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub rating: f64,
    pub ci95: f64,
    pub anchor: bool,
}

/// How often an anchor takes a seat whatever the gains say: every this many deals.
const ANCHOR_EVERY: u64 = 3;

/// What a game between `a` and `b` would teach.
fn gain(a: &Candidate, b: &Candidate) -> f64 {
    let p = 1.0 / (1.0 + 10f64.powf((b.rating - a.rating) / 400.0));
    let variance = |c: &Candidate| (c.ci95 / 1.96).powi(2);
    p * (1.0 - p) * (variance(a) + variance(b))
}

/// The players of the next deal, one per seat, or `None` when there are too few players or no
/// player whose rating is not fixed. `round` is the number of deals scheduled before; with it
/// the choice is the same for the same state.
pub fn next_table(candidates: &[Candidate], seats: usize, round: u64) -> Option<Vec<usize>> {
    if seats < 2 || candidates.len() < seats || candidates.iter().all(|c| c.anchor) {
        return None;
    }
    let pairs = (0..candidates.len()).flat_map(|a| (a + 1..candidates.len()).map(move |b| (a, b)));
    let anchors_turn = round.is_multiple_of(ANCHOR_EVERY) && candidates.iter().any(|c| c.anchor);
    let (a, b) = pairs
        .filter(|&(a, b)| !(candidates[a].anchor && candidates[b].anchor))
        .filter(|&(a, b)| !anchors_turn || candidates[a].anchor || candidates[b].anchor)
        .max_by(|&(a, b), &(c, d)| {
            gain(&candidates[a], &candidates[b])
                .total_cmp(&gain(&candidates[c], &candidates[d]))
                .then((c, d).cmp(&(a, b)))
        })?;
    let mut table = vec![a, b];
    while table.len() < seats {
        let taught = |i: usize| table.iter().map(|&t| gain(&candidates[i], &candidates[t])).sum::<f64>();
        let next = (0..candidates.len())
            .filter(|i| !table.contains(i))
            .max_by(|&x, &y| taught(x).total_cmp(&taught(y)).then(y.cmp(&x)))?;
        table.push(next);
    }
    Some(table)
}
