//! A review labels a decision only as far as its measurement supports: the label is the
//! mildest its loss's 95% interval allows, and a decision whose interval does not settle a label
//! gets more worlds, on a schedule fixed in advance.

mod support;

use clack_engine::player::Level;
use clack_engine::review::{DecisionReview, EXTRA_WORLDS, Label, STRAIGHT_POINTS, STRAIGHT_WIN, STREETS_POINTS};
use clack_rules::game::Options;
use clack_rules::streets::{self, DominoSet};

/// The lower bound of a label's band of loss.
fn lower_bound(label: Label, bounds: [f64; 3]) -> f64 {
    match label {
        Label::Best | Label::Good => 0.0,
        Label::Inaccuracy => bounds[0],
        Label::Mistake => bounds[1],
        Label::Blunder => bounds[2],
    }
}

fn reviewed(options: Options, seed: u64, level: Level) -> Vec<DecisionReview> {
    let steps = support::play_until(options, seed, |_, _| false);
    clack_engine::review(options, &steps, level, seed, |_, _| {}).expect("reviews").decisions
}

/// One game of every configuration a server reviews: two, three and four players of Straight
/// Dominoes (four alone and in teams), Streets and Avenues with two and three players on the
/// double-nine set and with two on the double-twelve. The three- and four-player Straight games
/// play to 100 rather than 250, to keep the test short; their decisions are the same kind.
fn every_configuration() -> Vec<(Options, u64)> {
    let short = |options: Options| match options {
        Options::Straight(mut o) => {
            o.target = 100;
            Options::Straight(o)
        }
        other => other,
    };
    let double_twelve =
        Options::Streets(streets::Options { set: DominoSet::DoubleTwelve, ..streets::Options::default() });
    vec![
        (support::straight(2, false), 11),
        (short(support::straight(3, false)), 14),
        (short(support::straight(4, false)), 15),
        (support::straight(4, true), 12),
        (support::streets(2), 13),
        (support::streets(3), 16),
        (double_twelve, 17),
    ]
}

#[test]
fn every_label_is_supported_by_its_interval_in_every_configuration() {
    let (mut labelled, mut extended, mut trees, mut paired) = (0, 0, 0, 0);
    for (options, seed) in every_configuration() {
        let level = Level::Fast;
        let decisions = reviewed(options, seed, level);
        assert!(decisions.iter().any(|d| d.label != Label::Best), "{options:?}: nothing but best moves");
        for d in decisions {
            let (loss, bounds) = match options {
                Options::Streets(_) => (d.loss, STREETS_POINTS),
                Options::Straight(_) if d.endgame => (d.win_loss, STRAIGHT_WIN),
                Options::Straight(_) => (d.loss, STRAIGHT_POINTS),
            };
            if d.label >= Label::Inaccuracy {
                labelled += 1;
                let low = loss.mean - 1.96 * loss.stderr;
                assert!(low >= lower_bound(d.label, bounds), "{d:?}: the interval does not support {}", d.label.name());
                assert!(low > 0.0, "{d:?}: a label whose interval reaches zero loss");
            }
            let first = level.budget().worlds;
            let two_players = matches!(options, Options::Straight(o) if o.players == 2);
            if two_players && !d.endgame && d.label != Label::Best && d.worlds > 0 {
                // The tree chose; the loss against its choice is measured on paired worlds (an
                // exact loss, with no worlds, was measured by exhausting the round).
                assert!(!d.tree && d.worlds >= first, "{d:?}: a two-player loss not measured pair by pair");
                paired += 1;
            }
            if d.tree {
                let teams = matches!(options, Options::Straight(o) if o.teams && o.sides() == 2);
                assert!(teams, "{d:?}: a loss measured by the tree outside team play");
                assert!(d.worlds <= level.budget().tree_iterations, "{d:?}");
                trees += 1;
                continue;
            }
            assert!(d.worlds <= first * (1 + EXTRA_WORLDS.iter().sum::<u32>()), "{d:?}");
            extended += usize::from(d.worlds > first);
        }
    }
    assert!(labelled > 10, "only {labelled} decisions labelled inaccuracy or worse");
    assert!(extended > 0, "no decision needed more worlds");
    assert!(trees > 10, "only {trees} decisions measured by the tree");
    assert!(paired > 10, "only {paired} two-player decisions measured pair by pair");
}

#[test]
fn the_same_review_twice_labels_the_same() {
    let options = support::straight(2, false);
    let a = reviewed(options, 21, Level::Fast);
    let b = reviewed(options, 21, Level::Fast);
    assert_eq!(a, b);
}
