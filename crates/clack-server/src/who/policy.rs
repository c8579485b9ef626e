//! Who may do what: the server's whole authorization model, decided here and nowhere else.
//!
//! | what | open server | closed server |
//! | --- | --- | --- |
//! | health, reflection | anyone | anyone |
//! | read a finished game (ReplayService) | anyone | anyone |
//! | create, join, play, watch, list games; list bots, see their statistics; upload a new bot; validate; run matches | anyone | accounts |
//! | upload a new version of a bot, read its source and output, run one of its decisions in a finished game again (ExplainDecision) | the bot's owner | the bot's owner |
//! | retire a bot or a version | the bot's owner, an admin | the bot's owner, an admin |
//! | cancel a game before it starts | its creator, an admin | its creator, an admin |
//! | manage accounts and keys (AdminService) | admins | admins |
//!
//! An owner is an account, or, for what an anonymous client created on an open server, whoever
//! presents the owner token it was given. The games a match plays are created by whoever ran the
//! match (`RunMatch`), and are theirs like games they created. Seat tokens are separate: they say which seat a request
//! plays, never who may do anything else. A denial names what is owned by whom, never a secret.
//!
//! This module knows nothing of the network or the store: it is given who asks and what they
//! want, and answers yes or the error to send.

use crate::error::{Error, Result};
use crate::who::access::{Identity, Mode, Owner, Principal};

/// What a request wants to do.
#[derive(Clone, Copy, Debug)]
pub enum Action<'a> {
    /// Anything the AdminService does.
    Administer,
    /// An ordinary call: create, join, play, watch, list, upload a new bot, validate, match.
    Use,
    /// Read a finished game through the ReplayService.
    ReadFinished,
    /// Upload a new version of an existing bot.
    UploadVersion {
        bot: &'a str,
        owner: &'a Owner,
    },
    /// Read a bot's source and what it printed.
    ReadSource {
        bot: &'a str,
        owner: &'a Owner,
    },
    /// Run one of a bot's decisions again: it shows the bot's view (its hand) and what it
    /// printed, which are its owner's.
    ExplainDecision {
        bot: &'a str,
        owner: &'a Owner,
    },
    /// Hold a remote bot's connection: its seats' tokens come over it.
    ConnectBot {
        bot: &'a str,
        owner: &'a Owner,
    },
    RetireBot {
        bot: &'a str,
        owner: &'a Owner,
    },
    CancelGame {
        game: &'a str,
        owner: &'a Owner,
    },
}

fn closed() -> Error {
    Error::Unauthenticated(format!(
        "this server serves accounts only: send an API key as `{}: <key>`",
        crate::who::access::KEY_HEADER
    ))
}

/// Whether `caller` may do `action` on a server in `mode`.
pub fn check(mode: Mode, caller: &Identity, action: Action<'_>) -> Result<()> {
    let who = &caller.who;
    let anonymous = matches!(who, Principal::Anonymous { .. });
    if anonymous && mode == Mode::Closed && !matches!(action, Action::ReadFinished) {
        return Err(closed());
    }
    let token = caller.owner_token.as_deref();
    let denied = |what: &str, owner: &Owner, allowed: &str| {
        Error::PermissionDenied(format!(
            "{what} is owned by {}; only {allowed} may do that, and you are {who}",
            owner_name(owner)
        ))
    };
    match action {
        Action::Use | Action::ReadFinished => Ok(()),
        Action::Administer if who.is_admin() => Ok(()),
        Action::Administer => {
            Err(Error::PermissionDenied(format!("managing accounts and keys needs an admin's key, and you are {who}")))
        }
        Action::UploadVersion { bot, owner }
        | Action::ReadSource { bot, owner }
        | Action::ExplainDecision { bot, owner }
        | Action::ConnectBot { bot, owner } => {
            if owner.is(who, token) {
                Ok(())
            } else {
                Err(denied(&format!("bot {bot}"), owner, "its owner"))
            }
        }
        Action::RetireBot { bot, owner } => {
            let allowed = owner.is(who, token) || who.is_admin();
            if allowed { Ok(()) } else { Err(denied(&format!("bot {bot}"), owner, "its owner or an admin")) }
        }
        Action::CancelGame { game, owner } => {
            let allowed = owner.is(who, token) || who.is_admin();
            if allowed { Ok(()) } else { Err(denied(&format!("game {game}"), owner, "its creator or an admin")) }
        }
    }
}

/// Whether `caller` may do `action`, for calls that answer less rather than refuse.
pub fn allows(mode: Mode, caller: &Identity, action: Action<'_>) -> bool {
    check(mode, caller, action).is_ok()
}

fn owner_name(owner: &Owner) -> String {
    match owner {
        Owner::Account(name) => format!("account {name}"),
        Owner::Token(_) => "the anonymous client that holds its owner token".to_owned(),
        Owner::Nobody => "nobody (it was made before owners were recorded)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::who::auth;

    fn account(name: &str, admin: bool) -> Identity {
        Identity { who: Principal::Account { name: name.into(), admin }, owner_token: None }
    }

    fn anonymous(token: Option<&str>) -> Identity {
        Identity { who: Principal::Anonymous { addr: None }, owner_token: token.map(str::to_owned) }
    }

    #[test]
    fn a_closed_server_turns_anonymous_clients_away_except_from_finished_games() {
        assert!(matches!(check(Mode::Closed, &anonymous(None), Action::Use), Err(Error::Unauthenticated(_))));
        assert!(check(Mode::Closed, &anonymous(None), Action::ReadFinished).is_ok());
        assert!(check(Mode::Open, &anonymous(None), Action::Use).is_ok());
        assert!(check(Mode::Closed, &account("ada", false), Action::Use).is_ok());
    }

    #[test]
    fn only_owners_touch_their_bots_and_admins_may_retire_them() {
        let owner = Owner::Account("ada".into());
        let upload = Action::UploadVersion { bot: "b", owner: &owner };
        let retire = Action::RetireBot { bot: "b", owner: &owner };
        assert!(check(Mode::Open, &account("ada", false), upload).is_ok());
        let denied = check(Mode::Open, &account("bob", false), upload);
        match denied {
            Err(Error::PermissionDenied(message)) => {
                assert!(message.contains("bot b is owned by account ada"), "{message}");
                assert!(message.contains("you are account bob"), "{message}");
            }
            other => panic!("expected a denial, got {other:?}"),
        }
        assert!(check(Mode::Open, &account("root", true), upload).is_err(), "admins do not write others' bots");
        assert!(check(Mode::Open, &account("root", true), retire).is_ok());
        assert!(check(Mode::Open, &anonymous(None), retire).is_err());
    }

    #[test]
    fn an_owner_token_proves_ownership_and_is_never_shown() {
        let owner = Owner::Token(auth::hash("the-token"));
        let read = Action::ReadSource { bot: "b", owner: &owner };
        assert!(check(Mode::Open, &anonymous(Some("the-token")), read).is_ok());
        match check(Mode::Open, &anonymous(Some("wrong-token")), read) {
            Err(Error::PermissionDenied(message)) => {
                assert!(!message.contains("the-token") && !message.contains("wrong-token"), "{message}");
            }
            other => panic!("expected a denial, got {other:?}"),
        }
    }

    #[test]
    fn only_admins_administer() {
        assert!(check(Mode::Open, &account("root", true), Action::Administer).is_ok());
        assert!(matches!(
            check(Mode::Open, &account("ada", false), Action::Administer),
            Err(Error::PermissionDenied(_))
        ));
        assert!(check(Mode::Open, &anonymous(None), Action::Administer).is_err());
    }
}
