//! Who plays the next deal: the player whose rating is least certain, against those nearest to
//! it in rating (the games that teach the most), with an anchor brought in at regular turns so
//! that every player stays tied to the fixed scale.

/// A player as the scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub rating: f64,
    pub ci95: f64,
    pub anchor: bool,
}

/// How often the nearest anchor takes a seat whatever the ratings say: every this many deals.
const ANCHOR_EVERY: u64 = 3;

/// The players of the next deal, one per seat, or `None` when there are too few players or no
/// player whose rating is not fixed. `round` is the number of deals scheduled before; with it
/// the choice is the same for the same state.
pub fn next_table(candidates: &[Candidate], seats: usize, round: u64) -> Option<Vec<usize>> {
    if seats == 0 || candidates.len() < seats {
        return None;
    }
    let focus = (0..candidates.len())
        .filter(|&i| !candidates[i].anchor)
        .max_by(|&a, &b| candidates[a].ci95.total_cmp(&candidates[b].ci95).then(b.cmp(&a)))?;
    let distance = |i: usize| (candidates[i].rating - candidates[focus].rating).abs();
    let mut others: Vec<usize> = (0..candidates.len()).filter(|&i| i != focus).collect();
    others.sort_by(|&a, &b| distance(a).total_cmp(&distance(b)).then(a.cmp(&b)));
    let mut table = vec![focus];
    if round.is_multiple_of(ANCHOR_EVERY)
        && let Some(&anchor) = others.iter().find(|&&i| candidates[i].anchor)
    {
        table.push(anchor);
    }
    for other in others {
        if table.len() == seats {
            break;
        }
        if !table.contains(&other) {
            table.push(other);
        }
    }
    Some(table)
}
