"""A Clack remote bot in Python: register it, hold its connection, play every seat it is offered.

The server offers a remote bot its seats (ordinary games, matches, ladder games) over one
long-lived `BotService.ConnectBot` stream, each with its seat token; the bot plays each seat over
`GameService.Play`, where the server pushes the events the seat may see and, when it is to act, a
`Turn` with its legal actions. This module does all of that; the author writes one function,
`choose(turn, seat)`, that returns an index into `turn.actions` (or `turn.notation`, the same
actions in text).

    import clack_bot
    clack_bot.run(lambda turn, seat: 0, name="first-legal", game="straight")

Ownership: on a server open to anonymous clients, the first registration of a name answers with
an owner token, the only proof that the bot is yours; `run` keeps it in `token_file` (created
with mode 0600) and sends it from then on. On a closed server pass an account's API key as `key`
(or set CLACK_KEY).
"""

import os
import queue
import threading

import grpc

from clack.v1 import bot_service_pb2 as bots_pb
from clack.v1 import bot_service_pb2_grpc as bots_grpc
from clack.v1 import game_service_pb2 as games_pb
from clack.v1 import game_service_pb2_grpc as games_grpc
from clack.v1 import types_pb2

__all__ = ["run", "Seat"]

KINDS = {"straight": types_pb2.GAME_KIND_STRAIGHT, "streets": types_pb2.GAME_KIND_STREETS}


class Seat:
    """One offered seat while it is played: its game, its number, and what it has seen."""

    def __init__(self, stub, offer, metadata):
        self.game_id = offer.game_id
        self.seat = offer.seat
        self.match_id = offer.match_id
        self.events = []
        self._stub = stub
        self._metadata = metadata

    def view(self):
        """The seat's whole view now (its hand, the board, the scores): one GetView call."""
        request = games_pb.GetViewRequest(game_id=self.game_id, seat=self.seat)
        return self._stub.GetView(request, metadata=self._metadata).view


def _owner_metadata(key, token):
    if key:
        return [("x-clack-key", key)]
    return [("x-clack-owner-token", token)] if token else []


def _register(bots, name, game, version, key, token_file):
    token = None
    if not key and token_file and os.path.exists(token_file):
        with open(token_file, encoding="ascii") as f:
            token = f.read().strip()
    request = bots_pb.RegisterRemoteBotRequest(name=name, kind=KINDS[game], version=version)
    registered = bots.RegisterRemoteBot(request, metadata=_owner_metadata(key, token))
    if registered.owner_token:
        token = registered.owner_token
        if token_file:
            fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(token)
    return registered, _owner_metadata(key, token)


def _play(games, offer, choose, key, on_error):
    """Plays one offered seat to the end of its game on its own Play stream."""
    metadata = [("authorization", f"Bearer {offer.seat_token}"), ("x-clack-game", offer.game_id)]
    if key:
        metadata.append(("x-clack-key", key))
    seat = Seat(games, offer, metadata)
    outbox = queue.Queue()
    outbox.put(games_pb.PlayRequest(hello=games_pb.PlayHello(game_id=offer.game_id, seat=offer.seat)))
    try:
        for reply in games.Play(iter(outbox.get, None), metadata=metadata):
            kind = reply.WhichOneof("message")
            if kind == "event":
                seat.events.append(reply.event)
            elif kind == "turn":
                index = choose(reply.turn, seat)
                outbox.put(games_pb.PlayRequest(move=games_pb.PlayMove(turn_sequence=reply.turn.sequence, index=index)))
            elif kind == "rejected":
                on_error(f"game {offer.game_id}: move refused: {reply.rejected.message}")
    except grpc.RpcError as error:
        on_error(f"game {offer.game_id}: {error.code().name}: {error.details()}")
    finally:
        outbox.put(None)


def run(choose, *, name, game="straight", version="v1", addr=None, key=None,
        token_file=".clack-owner-token", on_error=print, stop=None):
    """Registers `name` at `version` as a remote bot of `game` ("straight" or "streets"),
    connects it and plays every seat offered, each on its own thread, until the connection
    ends or `stop` (a threading.Event) is set. `choose(turn, seat)` returns an index into
    `turn.actions`; if it raises or is too slow, the server records a fault and plays the
    first legal action for it."""
    addr = addr or os.environ.get("CLACK_ADDR", "127.0.0.1:50051")
    key = key or os.environ.get("CLACK_KEY")
    channel = grpc.insecure_channel(addr)
    bots = bots_grpc.BotServiceStub(channel)
    games = games_grpc.GameServiceStub(channel)
    registered, owner = _register(bots, name, game, version, key, token_file)
    request = bots_pb.ConnectBotRequest(bot_id=registered.bot_id, version=registered.version)
    connection = bots.ConnectBot(request, metadata=owner)
    if stop is not None:
        threading.Thread(target=lambda: stop.wait() and connection.cancel(), daemon=True).start()
    try:
        for message in connection:
            if message.WhichOneof("message") == "offer":
                args = (games, message.offer, choose, key, on_error)
                threading.Thread(target=_play, args=args, daemon=True).start()
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.CANCELLED:
            raise
    finally:
        channel.close()
