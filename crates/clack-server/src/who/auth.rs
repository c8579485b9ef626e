//! Secrets: made at random, given to their holder once, kept only as SHA-256 hashes and compared
//! in constant time. Seat tokens (made when a seat is claimed) travel as
//! `authorization: Bearer <token>`; API keys and owner tokens ([`crate::who::access`]) use the same
//! hashing.

use rand::RngExt;
use sha2::{Digest, Sha256};
use tonic::metadata::MetadataMap;

use crate::error::{Error, Result};

/// A fresh secret token: 32 random bytes, hex.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    hex::encode(bytes)
}

/// Whether `text` has the form of a token [`new_token`] makes (a client's own secret for its
/// anonymous owner must be as hard to guess).
pub fn is_token(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// What is kept of a seat's token: its SHA-256 digest.
pub type TokenHash = [u8; 32];

pub fn hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// A stored hash (hex, as [`store_form`] wrote it); `None` if the record is not one.
pub fn parse_stored(value: &[u8]) -> Option<TokenHash> {
    let mut hash = [0; 32];
    hex::decode_to_slice(value, &mut hash).ok()?;
    Some(hash)
}

/// How a hash is kept in the store: hex, readable with any tool.
pub fn store_form(hash: &TokenHash) -> Vec<u8> {
    hex::encode(hash).into_bytes()
}

/// Compares two hashes in time that does not depend on where they differ.
pub fn same(a: &TokenHash, b: &TokenHash) -> bool {
    a.iter().zip(b).fold(0u8, |differ, (x, y)| differ | (x ^ y)) == 0
}

/// The bearer token of a request, if it has one.
pub fn bearer(metadata: &MetadataMap) -> Option<String> {
    let value = metadata.get("authorization")?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer "))?;
    Some(token.trim().to_owned())
}

/// The store key of a seat's token hash.
pub fn token_key(game_id: &str, seat: u8) -> String {
    format!("token/{game_id}/{seat:02}")
}

/// The seat whose token this is, for a request that names no seat.
pub fn seat_of_token(hashes: &[Option<TokenHash>], token: Option<&str>) -> Result<u8> {
    let token = token.ok_or_else(|| {
        Error::Unauthenticated("name a seat's token: send `authorization: Bearer <seat token>`".to_owned())
    })?;
    let presented = hash(token);
    let seat = hashes.iter().position(|h| h.as_ref().is_some_and(|h| same(h, &presented)));
    let seat = seat.ok_or_else(|| Error::Unauthenticated("the seat token is not valid for this game".to_owned()))?;
    u8::try_from(seat).map_err(|_| Error::Internal("a seat number past 255".to_owned()))
}

/// Checks that `token` is the token of `seat`, given every seat's token hash.
pub fn authorize(hashes: &[Option<TokenHash>], seat: u8, token: Option<&str>) -> Result<()> {
    if usize::from(seat) >= hashes.len() {
        return Err(Error::NotFound(format!("there is no seat {seat} in this game")));
    }
    let token = token.ok_or_else(|| {
        Error::Unauthenticated(format!("seat {seat} needs its token: send `authorization: Bearer <seat token>`"))
    })?;
    let presented = hash(token);
    match hashes.iter().position(|h| h.as_ref().is_some_and(|h| same(h, &presented))) {
        Some(owner) if owner == usize::from(seat) => Ok(()),
        Some(owner) => Err(Error::PermissionDenied(format!("that token belongs to seat {owner}, not seat {seat}"))),
        None => Err(Error::Unauthenticated("the seat token is not valid for this game".to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_stored_as_hex_and_read_back() {
        let hash = hash("abc");
        let stored = store_form(&hash);
        assert_eq!(stored, b"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "SHA-256 of abc");
        assert_eq!(parse_stored(&stored), Some(hash));
        assert_eq!(parse_stored(b"not a hash"), None);
        assert_eq!(parse_stored(&stored[1..]), None, "one digit short");
    }

    #[test]
    fn a_token_opens_its_own_seat_only() {
        let hashes = [Some(hash("zero")), None, Some(hash("two"))];
        assert!(authorize(&hashes, 0, Some("zero")).is_ok());
        assert!(matches!(authorize(&hashes, 2, Some("zero")), Err(Error::PermissionDenied(_))));
        assert!(matches!(authorize(&hashes, 1, Some("nobody's")), Err(Error::Unauthenticated(_))));
        assert!(matches!(authorize(&hashes, 0, None), Err(Error::Unauthenticated(_))));
        assert!(matches!(authorize(&hashes, 3, Some("zero")), Err(Error::NotFound(_))));
    }

    #[test]
    fn a_token_alone_names_its_seat() {
        let hashes = [Some(hash("zero")), None, Some(hash("two"))];
        assert_eq!(seat_of_token(&hashes, Some("two")).ok(), Some(2));
        assert!(matches!(seat_of_token(&hashes, Some("one")), Err(Error::Unauthenticated(_))));
        assert!(matches!(seat_of_token(&hashes, None), Err(Error::Unauthenticated(_))));
    }
}
