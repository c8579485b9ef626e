//! The gRPC services, one file each ([`game`], [`replay`], [`bots`], [`admin`]): learn who asks
//! and whether they may ([`Gate`]), read and check the request, call the room that owns the
//! answer, shape the reply. They stay thin: nothing here knows the rules, keeps state or decides
//! who may do what (that is [`crate::who::policy`]); every error goes through
//! `Status::from(Error)`.

use std::pin::Pin;
use std::sync::Arc;

use tokio_stream::Stream;
use tonic::{Request, Response, Status};

use crate::bots::library::Asker;
use crate::error::Error;
use crate::games::hub::Hub;
use crate::games::shard::{self, ShardName};
use crate::who::access::{Access, Identity};
use crate::who::policy::{self, Action};
use crate::who::quota::Meter;

mod admin;
mod bots;
mod game;
mod replay;

pub use admin::AdminApi;
pub use bots::BotApi;
pub use game::GameApi;
pub use replay::ReplayApi;

type Reply<T> = Result<Response<T>, Status>;
type EventStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

/// Where every request comes in: who sent it (its key), whether it may do what it asks, and
/// whether it is within its request rate.
#[derive(Debug, Clone)]
pub struct Gate {
    pub access: Arc<Access>,
    pub meter: Arc<Meter>,
    /// The shard this server is, to refuse calls about other shards' games.
    pub shard: ShardName,
}

impl Gate {
    pub fn new(hub: &Hub) -> Gate {
        Gate { access: hub.access().clone(), meter: hub.meter().clone(), shard: hub.shard() }
    }

    /// The id of the game a request is about, once it is well formed, agrees with the
    /// `x-clack-game` header and names a game of this shard.
    pub fn game<'a, T>(&self, request: &Request<T>, id: &'a str) -> Result<&'a str, Error> {
        let id = shard::game_id(id)?;
        shard::check_route(self.shard, request.metadata(), id)?;
        Ok(id)
    }

    /// The id of the match a request is about, once it is well formed and agrees with the
    /// `x-clack-game` header. A lone server's match lives on its shard, as a game does; a
    /// cluster's (`shared`) is in the shared database, and any shard answers for it.
    pub fn match_id<'a, T>(&self, request: &Request<T>, id: &'a str, shared: bool) -> Result<&'a str, Error> {
        let id = shard::game_id(id)?;
        match shard::check_route(self.shard, request.metadata(), id) {
            Err(Error::OtherShard { .. }) if shared => Ok(id),
            checked => checked.map(|()| id),
        }
    }

    /// Lets a request in to do `action`, or says why not.
    ///
    /// On a cluster's shard, a key this shard has not heard of yet (made through another shard a
    /// moment ago) is looked up in the shared database before the caller is told it is not
    /// valid. The returned future holds no reference to the request, so that it stays `Send`
    /// for streaming calls.
    pub fn admit<'a, T>(
        &'a self,
        request: &Request<T>,
        action: Action<'a>,
    ) -> impl std::future::Future<Output = Result<Identity, Error>> + Send + 'a {
        let addr = request.remote_addr().map(|a| a.ip());
        let caller = match self.access.unknown_key(request.metadata()) {
            None => Asking::Known(self.access.identify(request.metadata(), addr)),
            Some(key_id) => Asking::Unknown(key_id, request.metadata().clone()),
        };
        async move {
            let identity = match caller {
                Asking::Known(identity) => identity?,
                Asking::Unknown(key_id, metadata) => {
                    self.access.learn_key(&key_id).await?;
                    self.access.identify(&metadata, addr)?
                }
            };
            policy::check(self.access.mode(), &identity, action)?;
            self.meter.request(&identity.who)?;
            Ok(identity)
        }
    }

    fn asker<'a>(&'a self, identity: &'a Identity) -> Asker<'a> {
        Asker { identity, mode: self.access.mode(), meter: &self.meter }
    }
}

/// Who a request comes from, as far as this shard can tell without waiting.
enum Asking {
    /// Identified from memory (or refused).
    Known(Result<Identity, Error>),
    /// A key id this shard has not heard of, with the request's metadata to try again with.
    Unknown(String, tonic::metadata::MetadataMap),
}
