//! Reading JSON lines exports: games one after another, each starting with its event of
//! sequence 1 (`gameCreated`).
//!
//! The input is streamed, never held whole: it is read in chunks of whole lines (about
//! [`CHUNK`] bytes each), and worker threads each take a chunk, read its lines
//! ([`line::read_into`]) and replay the games that start and end inside it. A chunk hands back what it could not
//! finish on its own: the events before its first game start (the end of a game from an earlier
//! chunk) and its last game (which may go on in the next one). The calling thread stitches
//! these together in chunk order and replays the games that straddle a cut, so every game is
//! read whole and counted once. Chunks are cut at the same places whatever the number of
//! threads, and their totals are merged in file order, so the result does not depend on it.

use std::io::Read;
use std::sync::{Arc, Mutex, mpsc};

use clack_proto::v1 as pb;

use crate::line;
use crate::summary::Analysis;

/// A line that is not an event, or events that are not whole games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct InputError {
    /// 1-based line number, counted from the start of the input.
    pub line: u64,
    pub message: String,
}

impl InputError {
    fn new(line: u64, message: impl Into<String>) -> InputError {
        InputError { line, message: message.into() }
    }
}

/// The size a chunk is filled to before it is cut at its last line end: large enough that the
/// games straddling cuts are few, small enough that the chunks in flight take little memory.
pub const CHUNK: usize = 4 << 20;

/// Calls `each` with every game in `text`, in order, on the calling thread.
pub fn for_each_game(text: &str, each: impl FnMut(&[pb::Event])) -> Result<(), InputError> {
    for_each_game_in(text.as_bytes(), each)
}

/// Calls `each` with every game read from `input`, in order, on the calling thread.
pub fn for_each_game_in(input: impl Read, mut each: impl FnMut(&[pb::Event])) -> Result<(), InputError> {
    let mut games = Games::new(false);
    for chunk in Chunks::new(input) {
        games.read(&chunk?, &mut each)?;
    }
    games.finish(&mut each);
    Ok(())
}

/// Analyses every game in `text` on `threads` threads, reporting bytes read to `progress`.
pub fn analyze_text(text: &str, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<Analysis, InputError> {
    analyze_input(text.as_bytes(), threads, progress)
}

/// Analyses every game read from `input` on `threads` worker threads, reporting the bytes done
/// so far to `progress`.
pub fn analyze_input(
    input: impl Read + Send,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Analysis, InputError> {
    let threads = threads.max(1);
    // A few chunks queued per worker keep every worker busy; the bound keeps memory small.
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<Chunk>(threads * 2);
    // Shared by the workers only: when the last one stops, the channel closes and the reader
    // stops too, even part way (after an error, nobody reads the rest).
    let chunk_rx = Arc::new(Mutex::new(chunk_rx));
    let (piece_tx, piece_rx) = mpsc::channel::<Piece>();
    // Chunk buffers go back to the reader once read: filling a fresh one made the kernel find
    // and zero new pages for every chunk, a tenth of the time on a file of long games.
    let (spent_tx, spent_rx) = mpsc::channel::<Vec<u8>>();
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || send_chunks(Chunks::recycling(input, spent_rx), &chunk_tx));
        for _ in 0..threads {
            let (chunk_rx, piece_tx, spent_tx) = (Arc::clone(&chunk_rx), piece_tx.clone(), spent_tx.clone());
            scope.spawn(move || work(&chunk_rx, &piece_tx, &spent_tx));
        }
        drop((chunk_rx, piece_tx, spent_tx));
        let stitched = Stitcher::default().run(&piece_rx, progress);
        // If the stitcher stopped early, the workers stop at their next piece, and then the reader.
        drop(piece_rx);
        let read = reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        // A read error ends the input, so every piece before it was stitched: an error in one of
        // those comes first in the file.
        let analysis = stitched?;
        read.map(|()| analysis)
    })
}

/// Reads chunks and queues them for the workers, until the input ends or fails.
fn send_chunks(chunks: Chunks<impl Read>, out: &mpsc::SyncSender<Chunk>) -> Result<(), InputError> {
    for chunk in chunks {
        if out.send(chunk?).is_err() {
            // The stitcher stopped at an error; nobody needs the rest.
            return Ok(());
        }
    }
    Ok(())
}

/// A worker: reads chunks until there are none, hands back what each holds, and returns each
/// chunk's buffer to the reader.
fn work(chunks: &Mutex<mpsc::Receiver<Chunk>>, out: &mpsc::Sender<Piece>, spent: &mpsc::Sender<Vec<u8>>) {
    loop {
        // The lock is held only while waiting for the next chunk, never while reading one.
        let next = chunks.lock().map_or(None, |rx| rx.recv().ok());
        let Some(chunk) = next else { return };
        let mut analysis = Analysis::default();
        let mut games = Games::new(chunk.index > 0);
        let result = games.read(&chunk, &mut |game| analysis.add_game(game));
        let piece = Piece {
            index: chunk.index,
            bytes: chunk.text.len() as u64,
            head: std::mem::take(&mut games.head),
            head_line: games.head_line,
            analysis,
            tail: games.started.then(|| std::mem::take(&mut games.game)),
            error: result.err(),
        };
        // The reader may have stopped; then the buffer is simply dropped.
        let _ = spent.send(chunk.text);
        if out.send(piece).is_err() {
            return;
        }
    }
}

/// Whole lines of the input, with the number of the first.
struct Chunk {
    index: usize,
    first_line: u64,
    text: Vec<u8>,
}

/// The input cut into chunks of whole lines (the last one may lack its line end).
struct Chunks<R> {
    input: R,
    index: usize,
    line: u64,
    /// The start of a line that the last chunk cut off.
    rest: Vec<u8>,
    done: bool,
    /// Buffers of chunks already read, to fill again.
    spent: Option<mpsc::Receiver<Vec<u8>>>,
}

impl<R: Read> Chunks<R> {
    fn new(input: R) -> Chunks<R> {
        Chunks { input, index: 0, line: 1, rest: Vec::new(), done: false, spent: None }
    }

    /// Chunks whose buffers are taken, when there are any, from those sent back on `spent`.
    fn recycling(input: R, spent: mpsc::Receiver<Vec<u8>>) -> Chunks<R> {
        Chunks { spent: Some(spent), ..Chunks::new(input) }
    }

    /// An empty buffer for the next chunk: a spent one if there is one, else a new one.
    fn buffer(&self) -> Vec<u8> {
        match self.spent.as_ref().and_then(|spent| spent.try_recv().ok()) {
            Some(mut text) => {
                text.clear();
                text
            }
            None => Vec::with_capacity(CHUNK + CHUNK / 2),
        }
    }

    /// Fills `text` to at least `CHUNK` bytes and past a line end, or to the end of the input.
    fn fill(&mut self, text: &mut Vec<u8>) -> std::io::Result<()> {
        // `text` starts with the rest of a cut line, which holds no line end.
        let mut line_end = false;
        while !(line_end && text.len() >= CHUNK) {
            let start = text.len();
            let want = (CHUNK + CHUNK / 4).saturating_sub(start).max(CHUNK / 4);
            if (&mut self.input).take(want as u64).read_to_end(text)? == 0 {
                self.done = true;
                return Ok(());
            }
            line_end = line_end || memchr::memchr(b'\n', &text[start..]).is_some();
        }
        Ok(())
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = Result<Chunk, InputError>;

    fn next(&mut self) -> Option<Result<Chunk, InputError>> {
        if self.done && self.rest.is_empty() {
            return None;
        }
        let mut text = self.buffer();
        text.append(&mut self.rest);
        if !self.done
            && let Err(error) = self.fill(&mut text)
        {
            self.done = true;
            return Some(Err(InputError::new(self.line, format!("cannot read: {error}"))));
        }
        if let Some(end) = memchr::memrchr(b'\n', &text).filter(|_| !self.done) {
            self.rest = text.split_off(end + 1);
        }
        if text.is_empty() {
            return None;
        }
        let chunk = Chunk { index: self.index, first_line: self.line, text };
        self.index += 1;
        self.line += line_ends(&chunk.text);
        Some(Ok(chunk))
    }
}

/// The number of line ends in `text`. memchr's vector search: counting byte by byte was a
/// twentieth of `clack analyze`.
fn line_ends(text: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', text).count() as u64
}

/// The lines of `text`, as `text.split('\n')` gives them, found by memchr's vector search
/// (the standard library's byte search was a twentieth of reading a file of long games).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len()));
    let mut start = 0;
    ends.map(move |end| {
        // Line ends are ASCII, so both ends of the slice are character boundaries.
        let line = &text[start..end];
        start = end + 1;
        line
    })
}

/// Groups events, line after line, into games.
struct Games {
    /// Whether events may come before the first game start (a chunk after the first: they end
    /// a game from an earlier chunk).
    headed: bool,
    head: Vec<pb::Event>,
    head_line: u64,
    game: Vec<pb::Event>,
    started: bool,
}

impl Games {
    fn new(headed: bool) -> Games {
        Games { headed, head: Vec::new(), head_line: 0, game: Vec::new(), started: false }
    }

    /// Reads the lines of `chunk`, calling `each` with every game that ends inside it.
    fn read(&mut self, chunk: &Chunk, each: &mut dyn FnMut(&[pb::Event])) -> Result<(), InputError> {
        let text = std::str::from_utf8(&chunk.text).map_err(|e| {
            let line = chunk.first_line + line_ends(&chunk.text[..e.valid_up_to()]);
            InputError::new(line, "not UTF-8 text")
        })?;
        for (i, line) in lines(text).enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            let number = chunk.first_line + i as u64;
            // Each event is read where it lies, at the end of the open game, and moved only
            // when it belongs elsewhere (a new game's start, or the head of a chunk).
            self.game.push(pb::Event::default());
            let last = self.game.len() - 1;
            if let Err(error) = line::read_into(line, &mut self.game[last]) {
                self.game.pop();
                return Err(InputError::new(number, error.to_string()));
            }
            self.place(number, each)?;
        }
        Ok(())
    }

    /// Puts the event just read, the open game's last, where it belongs: it starts a game
    /// (and `each` gets the one before), goes on with the open game, or, before any game
    /// start, joins the head.
    fn place(&mut self, number: u64, each: &mut dyn FnMut(&[pb::Event])) -> Result<(), InputError> {
        let Some((event, before)) = self.game.split_last() else { return Ok(()) };
        if event.sequence == 1 {
            if self.started {
                each(before);
                self.game.drain(..before.len());
            }
            self.started = true;
            return Ok(());
        }
        // Nothing before the event means no game has started yet: a started game always holds
        // its first event, and events before any start are moved to the head as they come.
        match before.first() {
            Some(first) if first.game_id != event.game_id => {
                let error = interleaved(number, event, first);
                self.game.pop();
                Err(error)
            }
            Some(_) => Ok(()),
            None if !self.headed => {
                self.game.pop();
                Err(InputError::new(number, "a game must start with its event of sequence 1 (gameCreated)"))
            }
            None => {
                if self.head.is_empty() {
                    self.head_line = number;
                }
                let event = self.game.pop().unwrap_or_default();
                follow(&mut self.head, number, event)
            }
        }
    }

    fn finish(&mut self, each: &mut dyn FnMut(&[pb::Event])) {
        if self.started {
            each(&self.game);
        }
    }
}

/// Appends an event to the game it continues, refusing one of another game.
fn follow(game: &mut Vec<pb::Event>, number: u64, event: pb::Event) -> Result<(), InputError> {
    if let Some(first) = game.first().filter(|first| first.game_id != event.game_id) {
        return Err(interleaved(number, &event, first));
    }
    game.push(event);
    Ok(())
}

fn interleaved(number: u64, event: &pb::Event, first: &pb::Event) -> InputError {
    InputError::new(number, format!("game {} is interleaved with {}", event.game_id, first.game_id))
}

/// What a worker made of one chunk.
struct Piece {
    index: usize,
    bytes: u64,
    /// The events before the chunk's first game start, which end a game of an earlier chunk.
    head: Vec<pb::Event>,
    head_line: u64,
    /// The games that start and end inside the chunk.
    analysis: Analysis,
    /// The chunk's last game, which may go on in the next chunk; `None` if no game starts in it.
    tail: Option<Vec<pb::Event>>,
    error: Option<InputError>,
}

/// Puts the pieces back in file order and finishes the games that straddle cuts.
#[derive(Default)]
struct Stitcher {
    total: Analysis,
    /// The game that the pieces so far leave open.
    open: Vec<pb::Event>,
    waiting: std::collections::BTreeMap<usize, Piece>,
    next: usize,
    bytes: u64,
}

impl Stitcher {
    /// Takes every piece; returns the totals, or the first error in file order.
    fn run(mut self, pieces: &mpsc::Receiver<Piece>, progress: &(dyn Fn(u64) + Sync)) -> Result<Analysis, InputError> {
        for piece in pieces {
            self.waiting.insert(piece.index, piece);
            while let Some(piece) = self.waiting.remove(&self.next) {
                self.next += 1;
                self.bytes += piece.bytes;
                self.add(piece)?;
                progress(self.bytes);
            }
        }
        if !self.open.is_empty() {
            self.total.add_game(&self.open);
        }
        Ok(self.total)
    }

    fn add(&mut self, piece: Piece) -> Result<(), InputError> {
        if let Some(first) = piece.head.first() {
            match self.open.first() {
                None => {
                    let message = "a game must start with its event of sequence 1 (gameCreated)";
                    return Err(InputError::new(piece.head_line, message));
                }
                Some(open) if open.game_id != first.game_id => return Err(interleaved(piece.head_line, first, open)),
                Some(_) => self.open.extend(piece.head),
            }
        }
        if let Some(error) = piece.error {
            return Err(error);
        }
        if let Some(tail) = piece.tail {
            if !self.open.is_empty() {
                self.total.add_game(&self.open);
            }
            self.total.merge(piece.analysis);
            self.open = tail;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(text: &str) -> Vec<Chunk> {
        Chunks::new(text.as_bytes()).collect::<Result<_, _>>().expect("reads")
    }

    #[test]
    fn chunks_are_whole_lines_numbered_from_one() {
        let line = format!("{}\n", "x".repeat(1000));
        let text = line.repeat(3 * CHUNK / line.len()) + "last";
        let chunks = chunks(&text);
        assert!(chunks.len() >= 3, "{} chunks", chunks.len());
        let mut line = 1;
        for (i, chunk) in chunks.iter().enumerate() {
            assert_eq!((chunk.index, chunk.first_line), (i, line));
            let whole = chunk.text.ends_with(b"\n") || i == chunks.len() - 1;
            assert!(whole, "chunk {i} ends inside a line");
            line += line_ends(&chunk.text);
        }
        let joined: Vec<u8> = chunks.into_iter().flat_map(|c| c.text).collect();
        assert_eq!(joined, text.as_bytes());
    }

    #[test]
    fn a_line_longer_than_a_chunk_stays_whole() {
        let text = format!("a\n{}\nb\n", "y".repeat(2 * CHUNK));
        let chunks = chunks(&text);
        assert!(chunks.iter().all(|c| c.text.ends_with(b"\n")));
        let joined: Vec<u8> = chunks.into_iter().flat_map(|c| c.text).collect();
        assert_eq!(joined, text.as_bytes());
    }

    #[test]
    fn lines_are_what_split_gives() {
        for text in ["", "\n", "a", "a\n", "a\nb", "\n\na\r\n\nbé\n", "x\ny\n\n"] {
            assert_eq!(lines(text).collect::<Vec<_>>(), text.split('\n').collect::<Vec<_>>(), "{text:?}");
        }
    }

    #[test]
    fn an_empty_input_has_no_chunks() {
        assert!(chunks("").is_empty());
    }
}
