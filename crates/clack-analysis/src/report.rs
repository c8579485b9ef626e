//! The HTML report: one self-contained file (no scripts, no links out) with tables and SVG charts
//! drawn by `plotters`' SVG backend, from a [`Summary`].

use std::fmt::Write as _;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use crate::reviewed::LABELS;
use crate::stats::{Counts, Estimate};
use crate::summary::{GroupSummary, Summary};

/// A chart that could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the chart {title}: {message}")]
pub struct ChartError {
    title: String,
    message: String,
}

/// One bar: its label, its height and the half-width of its error bar.
struct Bar {
    label: String,
    value: f64,
    error: Option<f64>,
}

/// At most this many bars in a histogram; wider ranges are grouped into bins.
const MAX_BINS: usize = 40;

/// The whole report as an HTML document.
pub fn html(summary: &Summary, title: &str) -> Result<String, ChartError> {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\n<style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n<p>{} games analysed; {} logs did not replay and were left out.</p>\n",
        summary.games,
        summary.rejected,
        t = escape(title),
    );
    for rejection in &summary.first_rejections {
        let _ = writeln!(out, "<p class=\"bad\">{}</p>", escape(rejection));
    }
    for group in &summary.groups {
        group_section(&mut out, group)?;
    }
    if !summary.bots.is_empty() {
        bots_section(&mut out, summary)?;
    }
    if !summary.reviews.is_empty() {
        reviews_section(&mut out, summary);
    }
    out.push_str("</body></html>\n");
    Ok(out)
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1000px;margin:auto;padding:1em}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}\
th{background:#eee}code{font-size:85%}.bad{color:#a00}svg{display:block;margin:1em 0}";

fn group_section(out: &mut String, group: &GroupSummary) -> Result<(), ChartError> {
    let _ = write!(
        out,
        "<h2>{} ({} games)</h2>\n<p>Options: <code>{}</code></p>\n<table><tr><th>rounds per game</th><th>actions per game</th><th>ended</th></tr><tr><td>{}</td><td>{}</td><td>{}</td></tr></table>\n",
        escape(&group.kind),
        group.games,
        escape(&group.options.to_string()),
        estimate(&group.rounds),
        estimate(&group.length),
        escape(&counts_text(&group.finished_by)),
    );
    out.push_str("<table><tr><th>seat</th><th>win share</th><th>advantage</th><th>mean score</th></tr>\n");
    for seat in &group.seats {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{:+.3}</td><td>{}</td></tr>",
            seat.seat,
            estimate(&seat.win_share),
            seat.advantage,
            estimate(&seat.score)
        );
    }
    out.push_str("</table>\n");
    let seats: Vec<Bar> = group
        .seats
        .iter()
        .map(|s| Bar { label: format!("seat {}", s.seat), value: s.win_share.mean, error: Some(s.win_share.ci95) })
        .collect();
    out.push_str(&bar_chart("Win share by seat (95% CI)", "win share", &seats)?);
    out.push_str(&bar_chart("Game length", "games", &histogram(&group.length_histogram))?);
    out.push_str(&bar_chart("Final scores", "sides", &histogram(&group.score_histogram))?);
    if !group.round_ends.0.is_empty() {
        out.push_str(&bar_chart("How rounds end", "rounds", &named(&group.round_ends))?);
    }
    if !group.scoring_plays.0.is_empty() {
        let plays: Counts<i64> = Counts(group.scoring_plays.0.iter().map(|(&k, &v)| (i64::from(k), v)).collect());
        out.push_str(&bar_chart("Scoring plays by points", "plays", &histogram(&plays))?);
    }
    if let Some(blocks) = &group.blocks {
        let bars = [("closing", blocks.closing), ("dividing", blocks.dividing), ("shrinking", blocks.shrinking)]
            .map(|(label, e)| Bar { label: label.to_owned(), value: e.mean, error: Some(e.ci95) });
        out.push_str(&bar_chart("Block plays per game (95% CI)", "per game", &bars)?);
    }
    Ok(())
}

fn bots_section(out: &mut String, summary: &Summary) -> Result<(), ChartError> {
    out.push_str("<h2>Bot versions</h2>\n<table><tr><th>bot@version</th><th>games</th><th>win share</th><th>mean score</th><th>faults</th><th>decision ms</th></tr>\n");
    for bot in &summary.bots {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&bot.bot),
            bot.games,
            estimate(&bot.wins),
            estimate(&bot.score),
            escape(&counts_text(&bot.faults)),
            estimate(&bot.decision_ms)
        );
    }
    out.push_str("</table>\n");
    let short = |name: &str| name.chars().take(20).collect::<String>();
    let wins: Vec<Bar> = summary
        .bots
        .iter()
        .map(|b| Bar { label: short(&b.bot), value: b.wins.mean, error: Some(b.wins.ci95) })
        .collect();
    out.push_str(&bar_chart("Win share by bot version (95% CI)", "win share", &wins)?);
    let scores: Vec<Bar> = summary
        .bots
        .iter()
        .map(|b| Bar { label: short(&b.bot), value: b.score.mean, error: Some(b.score.ci95) })
        .collect();
    out.push_str(&bar_chart("Mean score by bot version (95% CI)", "score", &scores)?);
    Ok(())
}

/// The engine's judgement of each player's play and luck, one table per judging level.
fn reviews_section(out: &mut String, summary: &Summary) {
    out.push_str("<h2>Engine reviews</h2>\n<p>Loss: points of margin lost per decision against the engine's best action. Luck: points won per game by the deal and the draws.</p>\n<table><tr><th>kind</th><th>judged by</th><th>player</th><th>games</th><th>decisions</th><th>best or good</th>");
    for label in LABELS {
        let _ = write!(out, "<th>{label}</th>");
    }
    out.push_str("<th>loss per decision</th><th>luck per game</th></tr>\n");
    for player in &summary.reviews {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>engine:{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td>",
            escape(&player.kind),
            escape(&player.level),
            escape(&player.player),
            player.games,
            player.decisions,
            100.0 * player.accuracy()
        );
        for label in LABELS {
            let _ = write!(out, "<td>{}</td>", player.labels.0.get(label).copied().unwrap_or(0));
        }
        let _ = writeln!(out, "<td>{}</td><td>{}</td></tr>", estimate(&player.loss), estimate(&player.luck));
    }
    out.push_str("</table>\n");
}

fn estimate(e: &Estimate) -> String {
    format!("{:.3} ± {:.3}", e.mean, e.ci95)
}

fn counts_text(counts: &Counts<String>) -> String {
    counts.0.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ")
}

fn named(counts: &Counts<String>) -> Vec<Bar> {
    counts.0.iter().map(|(k, &v)| Bar { label: k.clone(), value: v as f64, error: None }).collect()
}

/// Counts by value as bars, every value in the range shown (zero where none), grouped into at
/// most [`MAX_BINS`] bins of equal width.
fn histogram(counts: &Counts<i64>) -> Vec<Bar> {
    let (Some((&lo, _)), Some((&hi, _))) = (counts.0.first_key_value(), counts.0.last_key_value()) else {
        return Vec::new();
    };

    let width = ((hi - lo + 1) as usize).div_ceil(MAX_BINS).max(1) as i64;
    let bins = ((hi - lo) / width + 1) as usize;
    let mut values = vec![0u64; bins];
    for (&k, &v) in &counts.0 {
        values[((k - lo) / width) as usize] += v;
    }
    values
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let start = lo + i as i64 * width;
            let label = if width == 1 { start.to_string() } else { format!("{start}–{}", start + width - 1) };
            Bar { label, value: v as f64, error: None }
        })
        .collect()
}

/// A bar chart as an SVG element.
fn bar_chart(title: &str, y_label: &str, bars: &[Bar]) -> Result<String, ChartError> {
    let mut svg = String::new();
    draw(&mut svg, title, y_label, bars).map_err(|e| ChartError { title: title.to_owned(), message: e.to_string() })?;
    // The SVG's own XML declaration does not belong inside HTML.
    let start = svg.find("<svg").unwrap_or(0);
    Ok(svg[start..].to_owned())
}

fn draw(svg: &mut String, title: &str, y_label: &str, bars: &[Bar]) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(svg, (760, 300)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = bars.iter().map(|b| b.value + b.error.unwrap_or(0.0)).fold(0.0, f64::max);
    let bottom = bars.iter().map(|b| b.value - b.error.unwrap_or(0.0)).fold(0.0, f64::min);
    let top = if top > bottom { top * 1.1 } else { bottom + 1.0 };
    let n = bars.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d((0..n).into_segmented(), bottom..top)?;
    let label = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) => bars.get(*i).map(|b| b.label.clone()).unwrap_or_default(),
        _ => String::new(),
    };
    chart.configure_mesh().disable_x_mesh().y_desc(y_label).x_labels(n.min(20)).x_label_formatter(&label).draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(i, bar)| {
        let corners = [(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), bar.value)];
        Rectangle::new(corners, BLUE.mix(0.5).filled())
    }))?;
    chart.draw_series(bars.iter().enumerate().filter_map(|(i, bar)| {
        let e = bar.error?;
        Some(ErrorBar::new_vertical(
            SegmentValue::CenterOf(i),
            bar.value - e,
            bar.value,
            bar.value + e,
            BLACK.filled(),
            8,
        ))
    }))?;
    root.present()?;
    Ok(())
}

/// Text safe to put in HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_histogram_is_binned() {
        let counts = Counts((0..100i64).map(|k| (k, 1)).collect());
        let bars = histogram(&counts);
        assert!(bars.len() <= MAX_BINS);
        assert_eq!(bars.iter().map(|b| b.value).sum::<f64>(), 100.0);
        assert_eq!(bars[0].label, "0–2");
    }

    #[test]
    fn a_chart_is_svg_with_its_bars() {
        let bars = [
            Bar { label: "a".into(), value: 2.0, error: Some(0.5) },
            Bar { label: "b".into(), value: 1.0, error: None },
        ];
        let svg = bar_chart("T <x>", "y", &bars).expect("draws");
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("<rect"));
        assert!(svg.contains("T &lt;x&gt;"), "the title is escaped by the backend");
    }

    #[test]
    fn html_text_is_escaped() {
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
