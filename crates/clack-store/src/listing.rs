//! Listing games a page at a time: the query, the page, the cursor between pages and its opaque
//! token, and the keys of the on-disk index that serves them.
//!
//! Games are listed newest created first; ties (games created in the same millisecond) go by
//! game id, larger first. A page ends at a [`Cursor`]: the creation time and id of its last game,
//! so the next page starts just after it whatever was created or finished meanwhile. The token a
//! client carries is the cursor and the filter it was made for, versioned and checksummed: a
//! token that was altered, truncated or made for another filter is refused, never read as an
//! empty page.
//!
//! This module knows summaries' kind, status and creation time, nothing of the rules or the
//! network.

use clack_proto::v1 as pb;

/// What one listing call wants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListQuery {
    /// `GameKind` value; 0 for every kind.
    pub kind: i32,
    /// `GameStatus` value; 0 for every status.
    pub status: i32,
    /// Start after this game; `None` for the first page.
    pub after: Option<Cursor>,
    /// The most games wanted.
    pub limit: usize,
}

/// Where a page ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub created_unix_millis: i64,
    pub game_id: String,
}

/// One page of a listing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Page {
    pub games: Vec<pb::GameSummary>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<Cursor>,
}

/// Why a page token was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("is not a token this server gave out")]
    Malformed,
    #[error("was made for another kind or status filter")]
    OtherFilter,
}

/// The first characters of every token; a later format gets another.
const TOKEN_VERSION: &str = "p1";

impl Cursor {
    pub fn of(summary: &pb::GameSummary) -> Cursor {
        Cursor { created_unix_millis: summary.created_unix_millis, game_id: summary.game_id.clone() }
    }

    /// The token a client carries to the next page of a listing with this filter.
    pub fn to_token(&self, kind: i32, status: i32) -> String {
        let mut body = vec![filter_byte(status), filter_byte(kind)];
        body.extend_from_slice(&self.created_unix_millis.to_be_bytes());
        body.extend_from_slice(self.game_id.as_bytes());
        body.extend_from_slice(&checksum(&body).to_be_bytes());
        format!("{TOKEN_VERSION}{}", hex::encode(body))
    }

    /// Reads a token back, checking that it is whole and made for this filter.
    pub fn from_token(token: &str, kind: i32, status: i32) -> Result<Cursor, TokenError> {
        let hex = token.strip_prefix(TOKEN_VERSION).ok_or(TokenError::Malformed)?;
        let bytes = hex::decode(hex).map_err(|_| TokenError::Malformed)?;
        let split = bytes.len().checked_sub(4).filter(|&n| n >= 10).ok_or(TokenError::Malformed)?;
        let (body, sum) = bytes.split_at(split);
        if checksum(body).to_be_bytes() != sum {
            return Err(TokenError::Malformed);
        }
        let (filter, rest) = body.split_at(2);
        let (created, id) = rest.split_at(8);
        let game_id = String::from_utf8(id.to_vec()).map_err(|_| TokenError::Malformed)?;
        let created = <[u8; 8]>::try_from(created).map_err(|_| TokenError::Malformed)?;
        if filter != [filter_byte(status), filter_byte(kind)] {
            return Err(TokenError::OtherFilter);
        }
        Ok(Cursor { created_unix_millis: i64::from_be_bytes(created), game_id })
    }
}

/// A kind or status as one byte of an index key (every value the protocol defines is small).
pub(crate) fn filter_byte(value: i32) -> u8 {
    u8::try_from(value).unwrap_or(u8::MAX)
}

/// FNV-1a: enough to catch a token that was edited or cut short; tokens are not secrets.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5_u32, |hash, &b| (hash ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// Index keys start with this byte.
pub(crate) const INDEX: u8 = b'i';

/// The index keys of a game: one under each of (its status or any) × (its kind or any), so that
/// every filter is one ordered range. Within a range keys sort by creation time, then game id.
pub(crate) fn index_keys(summary: &pb::GameSummary) -> Vec<Vec<u8>> {
    let (status, kind) = (filter_byte(summary.status), filter_byte(summary.kind));
    let mut keys = Vec::with_capacity(4);
    for s in [status, 0] {
        for k in [kind, 0] {
            let key = index_key(s, k, summary.created_unix_millis, &summary.game_id);
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    keys
}

pub(crate) fn index_key(status: u8, kind: u8, created: i64, game_id: &str) -> Vec<u8> {
    let mut key = Vec::with_capacity(11 + game_id.len());
    key.extend_from_slice(&[INDEX, status, kind]);
    // Flipping the sign bit makes the big-endian bytes of an i64 sort as the numbers do.
    key.extend_from_slice(&((created as u64) ^ (1 << 63)).to_be_bytes());
    key.extend_from_slice(game_id.as_bytes());
    key
}

/// The range of index keys a query reads, newest last: from the start of its filter up to (not
/// including) its cursor, or to the end of the filter on the first page.
pub(crate) fn index_range(query: &ListQuery) -> (Vec<u8>, Vec<u8>) {
    let (status, kind) = (filter_byte(query.status), filter_byte(query.kind));
    let start = vec![INDEX, status, kind];
    let end = match &query.after {
        Some(cursor) => index_key(status, kind, cursor.created_unix_millis, &cursor.game_id),
        None => vec![INDEX, status, kind, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    };
    (start, end)
}

/// The game id at the end of an index key.
pub(crate) fn index_game_id(key: &[u8]) -> Option<&str> {
    key.get(11..).and_then(|id| std::str::from_utf8(id).ok())
}

/// Whether a summary passes a query's filter (for backends without an index).
pub(crate) fn wanted(query: &ListQuery, summary: &pb::GameSummary) -> bool {
    (query.kind == 0 || summary.kind == query.kind) && (query.status == 0 || summary.status == query.status)
}

/// Whether `summary` sorts before `cursor` in listing order (so comes after it on a later page).
pub(crate) fn after_cursor(query: &ListQuery, summary: &pb::GameSummary) -> bool {
    query.after.as_ref().is_none_or(|c| {
        (summary.created_unix_millis, summary.game_id.as_str()) < (c.created_unix_millis, c.game_id.as_str())
    })
}
