//! How events are stored: a live game's events one record each, without what their key says,
//! and a finished game's whole log as one sealed record.
//!
//! A live record is the protobuf `Event` with its game id and sequence left out (both are in
//! its key). A sealed record is one byte of format and the length of what follows uncompressed,
//! then zstd over a protobuf message whose only
//! field is the game's events in order, each again without game id and sequence (the sequence of
//! the n-th is n), and with its time given as milliseconds since the event before: a small
//! number instead of a large one repeated with every event.
//!
//! zstd rather than lz4: on real game logs its records are about a third smaller than lz4's, and
//! a game still decompresses in tens of microseconds (see docs/benchmarks.md, "Storage").

use clack_proto::v1 as pb;
use prost::Message;
use prost::encoding::{WireType, encode_key, encode_varint};

use crate::StoreError;

/// The first byte of a sealed record: then the length of the encoded [`SealedLog`] as a varint,
/// then zstd over it.
const ZSTD_LOG: u8 = 1;

/// zstd's level for sealing. Sealing happens once a game; higher levels cost more time at the end
/// of every game for a few percent (measured in the `seal` bench).
const LEVEL: i32 = 9;

/// A sealed log as encoded before compression.
#[derive(Clone, PartialEq, prost::Message)]
struct SealedLog {
    #[prost(message, repeated, tag = "1")]
    events: Vec<pb::Event>,
}

/// A live record: the event without game id and sequence.
pub(crate) fn live_value(event: &pb::Event) -> Vec<u8> {
    let mut buf = Vec::with_capacity(event.encoded_len());
    if event.unix_millis != 0 {
        prost::encoding::int64::encode(3, &event.unix_millis, &mut buf);
    }
    if let Some(payload) = &event.payload {
        payload.encode(&mut buf);
    }
    buf
}

/// A live record read back under its key.
pub(crate) fn from_live(value: &[u8], game_id: &str, sequence: u64) -> Result<pb::Event, StoreError> {
    let mut event = pb::Event::decode(value)?;
    event.game_id = game_id.to_owned();
    event.sequence = sequence;
    Ok(event)
}

/// Seals a whole log, given as live records in sequence order from 1.
pub(crate) fn seal<'a>(values: impl IntoIterator<Item = &'a [u8]>) -> Result<Vec<u8>, StoreError> {
    let mut log = Vec::new();
    let mut previous = 0;
    for value in values {
        let mut event = pb::Event::decode(value)?;
        let millis = event.unix_millis;
        event.unix_millis = millis.wrapping_sub(previous);
        previous = millis;
        encode_key(1, WireType::LengthDelimited, &mut log);
        encode_varint(event.encoded_len() as u64, &mut log);
        event.encode_raw(&mut log);
    }
    // The log's length goes first, so that a read decompresses into one buffer of the right size.
    let mut sealed = vec![ZSTD_LOG];
    encode_varint(log.len() as u64, &mut sealed);
    let compressed = compress(&log).map_err(|e| StoreError::Backend(format!("cannot compress a log: {e}")))?;
    sealed.extend_from_slice(&compressed);
    Ok(sealed)
}

/// zstd over a log, with the frame's content checksum (xxHash64, 4 bytes): without it a changed
/// byte of compressed data can decompress into a log that still decodes, and damage would show
/// only as a game that does not replay, or not at all. With it, decompression refuses the record.
/// Records sealed before the checksum was added still read: the decoder checks it only when the
/// frame carries one.
fn compress(log: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut compressor = zstd::bulk::Compressor::new(LEVEL)?;
    compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    compressor.compress(log)
}

/// The largest log a sealed record may hold once decompressed: far above any game (a long one is
/// tens of KB), far below what would hurt to allocate.
const MAX_LOG: u64 = 64 << 20;

/// What each thread keeps between reads of sealed logs: a zstd context (making one costs about as
/// much as decompressing a small game) and the buffer the log is decompressed into.
#[derive(Default)]
struct Decompressing {
    context: Option<zstd::bulk::Decompressor<'static>>,
    log: Vec<u8>,
}

thread_local! {
    static DECOMPRESSING: std::cell::RefCell<Decompressing> = std::cell::RefCell::default();
}

/// The largest decompression buffer a thread keeps between reads.
const KEPT_BUFFER: usize = 1 << 20;

/// The events of a sealed log from sequence `from` on.
pub(crate) fn unseal(sealed: &[u8], game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
    let Some((&ZSTD_LOG, mut rest)) = sealed.split_first() else {
        return Err(StoreError::Corrupt(format!("the sealed log of {game_id} has an unknown format")));
    };
    let length = prost::encoding::decode_varint(&mut rest)?;
    // The length comes from the disk: a damaged one must be refused, not allocated.
    if length > MAX_LOG {
        return Err(StoreError::Corrupt(format!("the sealed log of {game_id} claims {length} bytes")));
    }
    let mut events = DECOMPRESSING.with_borrow_mut(|decompressing| {
        let Decompressing { context, log } = decompressing;
        let context = match context {
            Some(context) => context,
            None => context.insert(
                zstd::bulk::Decompressor::new()
                    .map_err(|e| StoreError::Backend(format!("cannot start a zstd decompressor: {e}")))?,
            ),
        };
        log.clear();
        log.reserve(length as usize);
        context
            .decompress_to_buffer(rest, log)
            .map_err(|e| StoreError::Corrupt(format!("the sealed log of {game_id} does not decompress: {e}")))?;
        let events = SealedLog::decode(log.as_slice())?.events;
        // A buffer grown by an unusually long game is not kept for ever.
        if log.capacity() > KEPT_BUFFER {
            *log = Vec::new();
        }
        Ok::<_, StoreError>(events)
    })?;
    let mut millis = 0i64;
    for event in &mut events {
        millis = millis.wrapping_add(event.unix_millis);
        event.unix_millis = millis;
    }
    let skip = (from.max(1) - 1).min(events.len() as u64) as usize;
    events.drain(..skip);
    for (i, event) in events.iter_mut().enumerate() {
        event.game_id = game_id.to_owned();
        event.sequence = (skip + i + 1) as u64;
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: u64) -> pb::Event {
        let name = format!("player {n}");
        let payload = pb::event::Payload::SeatJoined(pb::SeatJoined { seat: (n % 4) as u32, name });
        pb::Event { unix_millis: 1_700_000_000_000 + n as i64 * 250, payload: Some(payload), ..Default::default() }
    }

    /// Every single changed byte of a sealed record either makes it unreadable or leaves the log
    /// exactly as it was (a changed length that still fits the buffer): never a different log.
    #[test]
    fn a_changed_byte_anywhere_is_refused_or_harmless() {
        let events: Vec<pb::Event> = (1..=60).map(event).collect();
        let values: Vec<Vec<u8>> = events.iter().map(live_value).collect();
        let sealed = seal(values.iter().map(Vec::as_slice)).expect("seal");
        let original = unseal(&sealed, "g", 1).expect("unseal");
        assert_eq!(original.len(), events.len());
        let mut refused = 0;
        for at in 0..sealed.len() {
            let mut damaged = sealed.clone();
            damaged[at] ^= 0xff;
            match unseal(&damaged, "g", 1) {
                Err(_) => refused += 1,
                Ok(read) => assert_eq!(read, original, "a changed byte at {at} of {} was hidden", sealed.len()),
            }
        }
        assert!(refused >= sealed.len() - 2, "only the length's bytes may change harmlessly: {refused}");
    }
}
