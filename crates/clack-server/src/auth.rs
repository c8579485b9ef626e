//! Seat tokens: made at random when a seat is claimed, given to the player once, and kept only
//! as a SHA-256 hash. Requests for a seat carry the token as `authorization: Bearer <token>`.

use rand::RngExt;
use sha2::{Digest, Sha256};
use tonic::metadata::MetadataMap;

use crate::error::{Error, Result};

/// A fresh secret token: 32 random bytes, hex.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    hex::encode(bytes)
}

pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
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

/// Checks that `token` is the token of `seat`, given every seat's token hash.
pub fn authorize(hashes: &[Option<String>], seat: u8, token: Option<&str>) -> Result<()> {
    if usize::from(seat) >= hashes.len() {
        return Err(Error::NotFound(format!("there is no seat {seat} in this game")));
    }
    let token = token.ok_or_else(|| {
        Error::Unauthenticated(format!("seat {seat} needs its token: send `authorization: Bearer <seat token>`"))
    })?;
    let presented = hash(token);
    match hashes.iter().position(|h| h.as_deref() == Some(presented.as_str())) {
        Some(owner) if owner == usize::from(seat) => Ok(()),
        Some(owner) => Err(Error::PermissionDenied(format!("that token belongs to seat {owner}, not seat {seat}"))),
        None => Err(Error::Unauthenticated("the seat token is not valid for this game".to_owned())),
    }
}
