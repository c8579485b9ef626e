//! Reading JSON lines exports: games one after another, each starting with its event of
//! sequence 1 (`gameCreated`). The text is cut into one piece per thread at line starts; each
//! thread parses its piece and hands over whole games, so a game that straddles a cut is read
//! whole by the thread whose piece holds its first event.

use std::sync::atomic::{AtomicU64, Ordering};

use clack_log::json;
use clack_proto::v1 as pb;

use crate::summary::Analysis;

/// A line that is not an event, or events that are not whole games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct InputError {
    /// 1-based line number, counted from the start of the text.
    pub line: u64,
    pub message: String,
}

/// How often the progress callback is told, in bytes.
const PROGRESS_STEP: u64 = 1 << 20;

/// Calls `each` with every game in `text`, in order, on the calling thread.
pub fn for_each_game(text: &str, mut each: impl FnMut(&[pb::Event])) -> Result<(), InputError> {
    let mut reader = Reader::new(text, 0, text.len(), &|_| {});
    reader.run(&mut each)
}

/// Analyses every game in `text` on `threads` threads, reporting bytes read to `progress`.
pub fn analyze_text(text: &str, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<Analysis, InputError> {
    let cuts = cuts(text, threads.max(1));
    let done = AtomicU64::new(0);
    let tell = |bytes: u64| progress(done.fetch_add(bytes, Ordering::Relaxed) + bytes);
    let results: Vec<Result<Analysis, InputError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let (start, end) = (w[0], w[1]);
                let tell = &tell;
                scope.spawn(move || {
                    let mut analysis = Analysis::default();
                    Reader::new(text, start, end, tell).run(&mut |game| analysis.add_game(game))?;
                    Ok(analysis)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    let mut total = Analysis::default();
    for result in results {
        total.merge(result?);
    }
    Ok(total)
}

/// Byte offsets that cut `text` into `pieces` parts at line starts (first 0, last the length).
fn cuts(text: &str, pieces: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut cuts = vec![0];
    for i in 1..pieces {
        let guess = (text.len() * i / pieces).max(*cuts.last().unwrap_or(&0));
        let start = bytes[guess..].iter().position(|&b| b == b'\n').map_or(text.len(), |p| guess + p + 1);
        cuts.push(start);
    }
    cuts.push(text.len());
    cuts
}

/// Reads the games that start in `start..end` of `text` (reading past `end` to finish the last).
struct Reader<'a> {
    text: &'a str,
    start: usize,
    end: usize,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl<'a> Reader<'a> {
    fn new(text: &'a str, start: usize, end: usize, progress: &'a (dyn Fn(u64) + Sync)) -> Reader<'a> {
        Reader { text, start, end, progress }
    }

    fn run(&mut self, each: &mut dyn FnMut(&[pb::Event])) -> Result<(), InputError> {
        let first_line = self.text[..self.start].bytes().filter(|&b| b == b'\n').count() as u64 + 1;
        let mut game: Vec<pb::Event> = Vec::new();
        let mut seen_start = false;
        let mut offset = self.start;
        let mut reported = self.start;
        for (i, line) in self.text[self.start..].split('\n').enumerate() {
            let line_start = offset;
            offset += line.len() + 1;
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            let number = first_line + i as u64;
            let event = json::from_line(line).map_err(|e| InputError { line: number, message: e.to_string() })?;
            if event.sequence == 1 {
                if line_start >= self.end {
                    break;
                }
                if !game.is_empty() {
                    each(&game);
                    game.clear();
                }
                seen_start = true;
            } else if !seen_start {
                if self.start == 0 {
                    let message = "a game must start with its event of sequence 1 (gameCreated)".to_owned();
                    return Err(InputError { line: number, message });
                }
                // The end of a game that started in the piece before this one.
                continue;
            } else if game.last().is_some_and(|last| last.game_id != event.game_id) {
                let message = format!("game {} is interleaved with {}", event.game_id, game[0].game_id);
                return Err(InputError { line: number, message });
            }
            game.push(event);
            if offset.min(self.end) - reported >= PROGRESS_STEP as usize {
                (self.progress)((offset.min(self.end) - reported) as u64);
                reported = offset.min(self.end);
            }
        }
        if !game.is_empty() {
            each(&game);
        }
        (self.progress)((self.end - reported.min(self.end)) as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_on_line_starts() {
        let text = "aaaa\nbb\ncccccc\nd\n";
        let cuts = cuts(text, 3);
        assert_eq!(cuts.first(), Some(&0));
        assert_eq!(cuts.last(), Some(&text.len()));
        for &c in &cuts[1..cuts.len() - 1] {
            assert!(c == text.len() || text.as_bytes()[c - 1] == b'\n', "cut {c} is not at a line start");
        }
    }
}
