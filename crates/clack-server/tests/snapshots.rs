//! Reads are answered from the last committed state: a view or a list of legal actions never
//! waits for a move whose flush is still running, and never shows that move before it is
//! durable. The store is the memory one with a flush that can be held shut, because this test
//! is about the order of commits and reads, not about the disk.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use clack_proto::v1 as pb;
use clack_server::games::actor::Caller;
use clack_server::{Hub, Limits};
use clack_store::{Durability, Durable, FlushHook, MemoryStore};

/// A gate the store's flush waits at while it is shut.
#[derive(Default)]
struct Gate {
    shut: Mutex<bool>,
    opened: Condvar,
}

impl Gate {
    fn set_shut(&self, shut: bool) {
        *self.shut.lock().unwrap_or_else(PoisonError::into_inner) = shut;
        self.opened.notify_all();
    }

    fn pass(&self) {
        let shut = self.shut.lock().unwrap_or_else(PoisonError::into_inner);
        let _open = self.opened.wait_while(shut, |shut| *shut).unwrap_or_else(PoisonError::into_inner);
    }
}

fn straight_for_two() -> pb::CreateGameRequest {
    let rules = pb::StraightOptions { players: Some(2), ..Default::default() };
    let options = pb::GameOptions {
        time_control: None,
        rules: Some(pb::game_options::Rules::Straight(rules)),
        bot_pace_millis: 0,
    };
    pb::CreateGameRequest { options: Some(options), seats: Vec::new(), seed: Some(7) }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_do_not_wait_for_a_move_being_flushed_nor_show_it() {
    let gate = Arc::new(Gate::default());
    let at_gate = gate.clone();
    let store = FlushHook { inner: MemoryStore::new(), hook: Box::new(move || at_gate.pass()) };
    let durable = Durable::new(Arc::new(store), Durability::Batched).expect("writer");
    let hub = Hub::open(durable, None, Limits::default()).await.expect("hub");
    let id = hub
        .create(straight_for_two(), &clack_server::who::access::Identity::anonymous())
        .await
        .expect("created")
        .game_id;
    let mut tokens = Vec::new();
    for seat in 0..2 {
        tokens.push(hub.join(&id, Some(seat), format!("p{seat}")).await.expect("joined").seat_token);
    }
    let spectator = Caller { seat: None, token: None };
    let before = hub.view(&id, spectator.clone()).await.expect("view");
    let mover = before.to_move.expect("a seat to move") as u8;
    let caller = Caller { seat: Some(mover), token: Some(tokens[usize::from(mover)].clone()) };
    let legal = hub.legal(&id, caller.clone()).await.expect("legal");
    let action = legal.actions.first().cloned();

    gate.set_shut(true);
    let acting = tokio::spawn({
        let (hub, id, caller) = (hub.clone(), id.clone(), caller.clone());
        async move { hub.act(&id, caller, legal.sequence, clack_server::games::actor::Move::Proto(action), false).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!acting.is_finished(), "the move waits for its flush");
    let during = tokio::time::timeout(Duration::from_secs(2), hub.view(&id, spectator.clone()))
        .await
        .expect("a view is answered while the move is being flushed")
        .expect("view");
    assert_eq!(during.sequence, before.sequence, "the view does not show a move that is not durable");
    let still = tokio::time::timeout(Duration::from_secs(2), hub.legal(&id, caller))
        .await
        .expect("legal actions are answered while the move is being flushed")
        .expect("legal");
    assert_eq!(still.actions.len(), legal.actions.len());

    gate.set_shut(false);
    let acted = acting.await.expect("task").expect("the move lands once flushed");
    let after = hub.view(&id, spectator).await.expect("view");
    assert_eq!(after.sequence, acted.sequence, "after the commit, reads show the move");
    assert!(after.sequence > before.sequence);
}
