//! Shards: which server a game lives on, and `ListGames` over every shard.
//!
//! A game id carries its shard's name (`<shard>_<uuid v7>`), so that a proxy can route a call by
//! the id alone (the `x-clack-game` header) and a server can tell at once whether a game is its
//! own. A game lives on exactly one shard; the proxy never moves one. `ListGames` asks every
//! shard for a page and merges them newest first, with a page token that keeps a cursor per
//! shard. This module knows nothing of how a shard lists its games: it calls [`Hub::list`] on this
//! shard and `ListGames` (scoped to the shard) on the others, and treats their page tokens as
//! opaque.
//!
//! **The cursor.** Each shard is asked for a page (its own [`Hub::list`], the others'
//! `ListGames` with `x-clack-scope: shard`, the caller's key passed on); the pages are merged
//! newest first by the UUID part of the ids, and the page token holds one cursor per shard: the
//! shard's own (opaque) page token of the page it is in, and the last game of that shard already
//! returned (or, if it gave nothing to the page, the page's last game). The next page re-reads
//! each shard from its cursor and drops games at or before that game, so games created in between
//! never appear twice, nor out of order on a later page; a shard added between two pages starts
//! from its beginning. A peer that does not answer fails the call with its status and name,
//! rather than a page that silently lacks its games. With a shared database the listing is one
//! query over the cluster's game index ([`crate::games::index`]) and this fan-out is not used.

use clack_log::convert::FieldError;
use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use prost::Message;
use tonic::metadata::MetadataMap;
use tonic::transport::{Channel, Endpoint};

use crate::error::{Error, Result};
use crate::games::hub::Hub;

/// The metadata a client sends on every call about a game: the game's id, for the proxy.
pub const GAME_HEADER: &str = "x-clack-game";
/// Metadata that asks a server for its own games only (`shard`): how shards ask each other.
pub const SCOPE_HEADER: &str = "x-clack-scope";
const API_KEY_HEADER: &str = "x-clack-key";
/// Longest shard name: with the separator and a UUID, an id stays within 64 characters.
const MAX_NAME: usize = 20;

/// A shard's name: 1 to 20 lowercase ASCII letters, digits and inner hyphens (`a`, `eu1`,
/// `clack-0`). It never holds `_`, which separates it from the rest of a game id.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ShardName {
    bytes: [u8; MAX_NAME],
    len: u8,
}

impl ShardName {
    pub fn new(name: &str) -> Result<ShardName, String> {
        let allowed = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-';
        let ok = (1..=MAX_NAME).contains(&name.len())
            && name.bytes().all(allowed)
            && !name.starts_with('-')
            && !name.ends_with('-');
        if !ok {
            return Err(format!("shard name {name:?}: 1 to {MAX_NAME} lowercase letters, digits and inner hyphens"));
        }
        let mut bytes = [0; MAX_NAME];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        Ok(ShardName { bytes, len: name.len() as u8 })
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored (checked in `new`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// A new game id on this shard: ids of one shard sort by creation time (UUID v7).
    pub fn new_game_id(&self) -> String {
        format!("{}_{}", self.as_str(), uuid::Uuid::now_v7())
    }
}

impl Default for ShardName {
    /// `main`: a server that is the only shard.
    fn default() -> ShardName {
        ShardName::new("main").unwrap_or(ShardName { bytes: [0; MAX_NAME], len: 0 })
    }
}

impl std::fmt::Debug for ShardName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for ShardName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The shard a game id names, if it names one (ids made before shards have none).
pub fn shard_of(game_id: &str) -> Option<&str> {
    game_id.split_once('_').map(|(shard, _)| shard).filter(|shard| ShardName::new(shard).is_ok())
}

/// The part of a game id that orders games created in the same millisecond across shards (its
/// UUID v7).
fn id_order(game_id: &str) -> &str {
    game_id.split_once('_').map_or(game_id, |(_, rest)| rest)
}

/// Where a game stands in the listing of every shard: by creation time, then by id. This is each
/// shard's own order (the store lists by creation time, then id, and one shard's ids differ only
/// after their common prefix), so merging shards never reorders what a shard gave.
fn order(game: &pb::GameSummary) -> (i64, &str) {
    (game.created_unix_millis, id_order(&game.game_id))
}

/// Checks that a request about `game_id` reached the right shard: the `x-clack-game` header,
/// when sent, must name the same game, and the game must be this shard's.
pub fn check_route(here: ShardName, metadata: &MetadataMap, game_id: &str) -> Result<()> {
    if let Some(value) = metadata.get(GAME_HEADER) {
        let header = value.to_str().map_err(|_| FieldError::new(GAME_HEADER, "must be the game's id"))?;
        if header != game_id {
            let message = format!("names game {header:?}, but the request is about game {game_id:?}");
            return Err(FieldError::new(GAME_HEADER, message).into());
        }
    }
    match shard_of(game_id) {
        Some(owner) if owner != here.as_str() => {
            Err(Error::OtherShard { game: game_id.to_owned(), owner: owner.to_owned(), here: here.to_string() })
        }
        _ => Ok(()),
    }
}

/// Another shard, as `--peers` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peer {
    pub name: String,
    pub url: String,
}

/// A peer's address must be a whole `http://` or `https://` URL with a host: a bare word parses
/// as a relative URI, which tonic would take and fail on at the first call.
fn check_url(url: &str) -> Result<(), String> {
    let uri: http::Uri = url.parse().map_err(|e| format!("{e}"))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err("expected http:// or https://".into());
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err("no host".into());
    }
    Endpoint::from_shared(url.to_owned()).map(drop).map_err(|e| e.to_string())
}

/// Parses `name=url,name=url` (each name a valid shard name, each once).
pub fn parse_peers(list: &str) -> Result<Vec<Peer>, String> {
    let mut peers: Vec<Peer> = Vec::new();
    for item in list.split(',').map(str::trim).filter(|item| !item.is_empty()) {
        let (name, url) = item.split_once('=').ok_or_else(|| format!("peer {item:?}: expected name=url"))?;
        ShardName::new(name)?;
        check_url(url).map_err(|e| format!("peer {name}: bad url {url:?}: {e}"))?;
        if peers.iter().any(|p| p.name == name) {
            return Err(format!("peer {name} is named twice"));
        }
        peers.push(Peer { name: name.to_owned(), url: url.to_owned() });
    }
    Ok(peers)
}

/// This shard and the others, for `ListGames`.
#[derive(Debug, Clone)]
pub struct Shards {
    here: ShardName,
    /// The other shards, sorted by name; empty when this server is the only shard.
    peers: Vec<(String, GameServiceClient<Channel>)>,
}

/// Where one shard's listing stands, inside a fan-out page token.
#[derive(Clone, PartialEq, Message)]
struct Cursor {
    #[prost(string, tag = "1")]
    shard: String,
    /// The shard's own page token for the page holding `after` (opaque to us).
    #[prost(string, tag = "2")]
    token: String,
    /// The last game of this shard already returned; empty before the first.
    #[prost(string, tag = "3")]
    after: String,
    /// Every game of this shard has been returned.
    #[prost(bool, tag = "4")]
    done: bool,
    /// When `after` was created: with its id, where the listing stands.
    #[prost(int64, tag = "5")]
    after_created: i64,
}

impl Cursor {
    /// Whether `game` comes after this cursor in the listing (was not returned yet).
    fn before(&self, game: &pb::GameSummary) -> bool {
        self.after.is_empty() || order(game) < (self.after_created, id_order(&self.after))
    }

    fn moved_to(&mut self, game: &pb::GameSummary) {
        self.after.clone_from(&game.game_id);
        self.after_created = game.created_unix_millis;
    }
}

#[derive(Clone, PartialEq, Message)]
struct PageToken {
    #[prost(message, repeated, tag = "1")]
    cursors: Vec<Cursor>,
}

/// Games one shard offers for the next page, newest first, each with the shard page it is on:
/// the shard's next `size` games, or all it has left. Fewer than `size` with more left would
/// be wrong: a game of this shard not offered could be newer than another shard's offered game.
struct Offer {
    games: Vec<(pb::GameSummary, String)>,
    /// The next page token of the last page read: more games wait there.
    more: bool,
}

impl Shards {
    /// Connects (lazily) to every peer except this shard itself.
    pub fn new(here: ShardName, peers: &[Peer]) -> Result<Shards, String> {
        let mut clients = Vec::new();
        for peer in peers.iter().filter(|p| p.name != here.as_str()) {
            let endpoint = Endpoint::from_shared(peer.url.clone())
                .map_err(|e| format!("peer {}: {e}", peer.name))?
                .connect_timeout(std::time::Duration::from_secs(2))
                .timeout(std::time::Duration::from_secs(5));
            clients.push((peer.name.clone(), GameServiceClient::new(endpoint.connect_lazy())));
        }
        clients.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Shards { here, peers: clients })
    }

    pub fn here(&self) -> ShardName {
        self.here
    }

    /// Whether a `ListGames` with this metadata is answered from this shard alone.
    pub fn local_only(&self, metadata: &MetadataMap) -> bool {
        self.peers.is_empty() || metadata.get(SCOPE_HEADER).is_some_and(|v| v.as_bytes() == b"shard")
    }

    /// One page of every shard's games, newest first.
    pub async fn list(
        &self,
        hub: &Hub,
        request: &pb::ListGamesRequest,
        metadata: &MetadataMap,
    ) -> Result<pb::ListGamesResponse> {
        if request.page_size > 100 {
            return Err(FieldError::new("page_size", "at most 100").into());
        }
        let size = if request.page_size == 0 { 20 } else { request.page_size as usize };
        let mut cursors = self.cursors(&request.page_token)?;
        let mut offers = Vec::with_capacity(cursors.len());
        for cursor in &cursors {
            offers.push(self.offer(hub, request, metadata, cursor, size).await?);
        }
        let mut all: Vec<(usize, &pb::GameSummary, &String)> = offers
            .iter()
            .enumerate()
            .flat_map(|(i, offer)| offer.games.iter().map(move |(game, token)| (i, game, token)))
            .collect();
        all.sort_by(|a, b| order(b.1).cmp(&order(a.1)));
        let taken = all.len().min(size);
        let mut consumed = vec![0; cursors.len()];
        for &(i, game, token) in &all[..taken] {
            consumed[i] += 1;
            cursors[i].token.clone_from(token);
            cursors[i].moved_to(game);
        }
        // Every game newer than the page's last one has now been returned, from every shard:
        // a shard that gave nothing to this page continues after it too, so that games created
        // since the first page never show up out of order on a later one.
        let last = all[..taken].last().map(|(_, game, _)| *game);
        for (i, cursor) in cursors.iter_mut().enumerate() {
            cursor.done = consumed[i] == offers[i].games.len() && !offers[i].more;
            if let Some(last) = last.filter(|_| consumed[i] == 0) {
                cursor.moved_to(last);
            }
        }
        let games = all[..taken].iter().map(|(_, game, _)| (*game).clone()).collect();
        let next_page_token = if cursors.iter().all(|c| c.done) {
            String::new()
        } else {
            hex::encode(PageToken { cursors }.encode_to_vec())
        };
        Ok(pb::ListGamesResponse { games, next_page_token })
    }

    /// The cursors a page token holds, or fresh ones for every shard.
    fn cursors(&self, page_token: &str) -> Result<Vec<Cursor>> {
        let names = std::iter::once(self.here.to_string()).chain(self.peers.iter().map(|(name, _)| name.clone()));
        let fresh: Vec<Cursor> = names.map(|shard| Cursor { shard, ..Cursor::default() }).collect();
        if page_token.is_empty() {
            return Ok(fresh);
        }
        let bad = || FieldError::new("page_token", "give the next_page_token of the previous page");
        let decoded = hex::decode(page_token).ok().and_then(|bytes| PageToken::decode(bytes.as_slice()).ok());
        let decoded = decoded.ok_or_else(bad)?;
        // A shard added since the first page starts from its beginning; one removed is dropped.
        let cursors = fresh
            .into_iter()
            .map(|fresh| decoded.cursors.iter().find(|c| c.shard == fresh.shard).cloned().unwrap_or(fresh))
            .collect();
        Ok(cursors)
    }

    /// The games a shard offers past its cursor: `size` of them (see [`Offer`]), or all it has.
    async fn offer(
        &self,
        hub: &Hub,
        request: &pb::ListGamesRequest,
        metadata: &MetadataMap,
        cursor: &Cursor,
        size: usize,
    ) -> Result<Offer> {
        if cursor.done {
            return Ok(Offer { games: Vec::new(), more: false });
        }
        let mut token = cursor.token.clone();
        let mut games = Vec::with_capacity(size);
        loop {
            let page = pb::ListGamesRequest { page_size: size as u32, page_token: token.clone(), ..request.clone() };
            let page = self.list_one(hub, &cursor.shard, page, metadata).await?;
            // Games at or before the cursor were returned already (new games may have pushed
            // them down the shard's first page since).
            let mut fresh = page.games.into_iter().filter(|g| cursor.before(g));
            games.extend(fresh.by_ref().take(size - games.len()).map(|g| (g, token.clone())));
            // Games left on this page (the offer is full) are more, as is a next page.
            let more = fresh.next().is_some() || !page.next_page_token.is_empty();
            if games.len() == size || !more {
                return Ok(Offer { games, more });
            }
            token = page.next_page_token;
        }
    }

    /// One page of one shard's own games.
    async fn list_one(
        &self,
        hub: &Hub,
        shard: &str,
        request: pb::ListGamesRequest,
        metadata: &MetadataMap,
    ) -> Result<pb::ListGamesResponse> {
        if shard == self.here.as_str() {
            return hub.list(&request).await;
        }
        let Some((_, client)) = self.peers.iter().find(|(name, _)| name == shard) else {
            return Err(Error::Internal(format!("no client for shard {shard}")));
        };
        let mut call = tonic::Request::new(request);
        call.metadata_mut().insert(SCOPE_HEADER, tonic::metadata::MetadataValue::from_static("shard"));
        // The peer applies its own gate to the same caller.
        if let Some(key) = metadata.get(API_KEY_HEADER) {
            call.metadata_mut().insert(API_KEY_HEADER, key.clone());
        }
        let reply = client.clone().list_games(call).await;
        reply.map(tonic::Response::into_inner).map_err(|status| Error::Shard {
            shard: shard.to_owned(),
            code: status.code(),
            message: status.message().to_owned(),
        })
    }
}

/// A game id as a client gives it: what `CreateGame` returned, checked before anything looks
/// it up.
pub(crate) fn game_id(id: &str) -> Result<&str, FieldError> {
    let ok =
        !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok { Ok(id) } else { Err(FieldError::new("game_id", "give the id CreateGame returned")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_names_are_short_lowercase_and_never_hold_the_separator() {
        for good in ["a", "eu1", "clack-0", "abcdefghij0123456789"] {
            assert_eq!(ShardName::new(good).map(|s| s.to_string()), Ok(good.to_owned()));
        }
        for bad in ["", "A", "a_b", "-a", "a-", "a.b", "abcdefghij0123456789x", "ü"] {
            assert!(ShardName::new(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ids_carry_their_shard_and_sort_by_creation_within_it() {
        let shard = ShardName::new("clack-1").expect("name");
        let first = shard.new_game_id();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let second = shard.new_game_id();
        assert_eq!(shard_of(&first), Some("clack-1"));
        assert!(first < second && id_order(&first) < id_order(&second));
        assert!(first.len() <= 64);
        // Ids from before shards name none; they belong to whichever server holds them.
        assert_eq!(shard_of("0190b6a2-7c1e-7d4a-9a43-1f2e3d4c5b6a"), None);
    }

    #[test]
    fn a_request_must_name_its_game_in_the_header_and_reach_its_shard() {
        let here = ShardName::new("a").expect("name");
        let mut metadata = MetadataMap::new();
        assert!(check_route(here, &metadata, "a_x").is_ok());
        assert!(check_route(here, &metadata, "legacy-id").is_ok());
        let other = check_route(here, &metadata, "b_x").expect_err("b's game");
        assert!(matches!(&other, Error::OtherShard { owner, .. } if owner == "b"), "{other:?}");
        metadata.insert(GAME_HEADER, "a_y".parse().expect("ascii"));
        let mismatch = check_route(here, &metadata, "a_x").expect_err("header and body disagree");
        assert!(matches!(mismatch, Error::InvalidArgument(_)), "{mismatch:?}");
        metadata.insert(GAME_HEADER, "a_x".parse().expect("ascii"));
        assert!(check_route(here, &metadata, "a_x").is_ok());
    }

    #[test]
    fn peers_parse_and_refuse_bad_lists() {
        let peers = parse_peers("a=http://127.0.0.1:1, b=http://h:2").expect("peers");
        assert_eq!(peers.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        for bad in ["a", "A=http://h:1", "a=http://h:1,a=http://h:2", "a=not a url", "a=notaurl", "a=ftp://h:1"] {
            assert!(parse_peers(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_peers(""), Ok(Vec::new()));
    }

    #[test]
    fn a_page_token_that_is_not_ours_is_refused() {
        let shards = Shards { here: ShardName::new("a").expect("name"), peers: Vec::new() };
        for bad in ["zz", "00ff", "not hex"] {
            assert!(matches!(shards.cursors(bad), Err(Error::InvalidArgument(_))), "{bad:?}");
        }
        assert_eq!(shards.cursors("").expect("fresh").len(), 1);
    }
}
