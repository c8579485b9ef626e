#!/usr/bin/env python3
"""A Clack client in Python (grpcio), using nothing but the public contract in proto/.

It compiles the .proto files with grpcio-tools at start, creates a game, claims every seat,
and plays it to the end: each seat to move asks for its legal actions and plays the one that
scores most (Straight Dominoes) or the first (Streets and Avenues). Along the way it checks
that a request without a seat token is refused, then verifies the finished game through the
replay service. A spectator watches the game live from its first event, and the finished game is
watched again from the store. Every call about the game carries its id as `x-clack-game` metadata,
which a proxy in front of several shards routes by. Exit status 0 means every check passed.

With an account's API key (the CLACK_KEY environment variable, or --key-file), every call carries
it as `x-clack-key` metadata, and the client also checks that the server, being closed, refuses a
call without it.

    python3 tests/python/play.py --addr 127.0.0.1:50051 --game straight
    CLACK_KEY=clack_... python3 tests/python/play.py --addr 127.0.0.1:50051 --game streets
"""
import argparse
import importlib
import os
import sys
import tempfile
import threading

import grpc
from grpc_tools import protoc

PROTO_FILES = ["types", "events", "game_service", "replay_service", "bot_service"]


PROTO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "proto"))


def compile_stubs(proto_root=None):
    proto_root = proto_root or PROTO_ROOT
    out = tempfile.mkdtemp(prefix="clack-stubs-")
    files = [f"clack/v1/{name}.proto" for name in PROTO_FILES]
    code = protoc.main(["protoc", f"-I{proto_root}", f"--python_out={out}", f"--grpc_python_out={out}", *files])
    if code != 0:
        sys.exit(f"protoc failed with {code}")
    sys.path.insert(0, out)
    return (
        importlib.import_module("clack.v1.types_pb2"),
        importlib.import_module("clack.v1.game_service_pb2"),
        importlib.import_module("clack.v1.game_service_pb2_grpc"),
        importlib.import_module("clack.v1.replay_service_pb2"),
        importlib.import_module("clack.v1.replay_service_pb2_grpc"),
    )


def seat_auth(token):
    return [("authorization", f"Bearer {token}")]


class KeyInterceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
                     grpc.StreamStreamClientInterceptor):
    """Adds the account's API key to every call, beside whatever metadata the call has."""

    def __init__(self, key):
        self.key = key

    def _with_key(self, details):
        metadata = list(details.metadata or []) + [("x-clack-key", self.key)]
        return details._replace(metadata=metadata)

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._with_key(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._with_key(details), request)

    def intercept_stream_stream(self, continuation, details, requests):
        return continuation(self._with_key(details), requests)


def read_key(path):
    if path:
        with open(path) as file:
            return file.read().strip()
    return os.environ.get("CLACK_KEY", "").strip()


def watch_all(client, games, game_id, metadata, into):
    """Collects a spectator's events until the game ends (or the stream does)."""
    try:
        for response in client.Watch(games.WatchRequest(game_id=game_id, from_sequence=1), metadata=metadata):
            into.append(response.event)
            if response.event.HasField("game_ended"):
                return
    except grpc.RpcError as error:
        into.append(error)


def expect_refused(call, code, what):
    try:
        call()
    except grpc.RpcError as error:
        if error.code() != code:
            sys.exit(f"{what}: expected {code}, got {error.code()}")
        return
    sys.exit(f"{what} was accepted")


def check_watched(what, events, count):
    """A watch saw every event of the game, once, in order."""
    errors = [e for e in events if isinstance(e, grpc.RpcError)]
    if errors:
        sys.exit(f"{what} failed: {errors[0].code()} {errors[0].details()}")
    sequences = [event.sequence for event in events]
    if sequences != list(range(1, count + 1)):
        sys.exit(f"{what} saw sequences {sequences[:5]}... ({len(sequences)}) for {count} events")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--addr", required=True)
    parser.add_argument("--game", choices=["straight", "streets"], default="straight")
    parser.add_argument("--proto", default=PROTO_ROOT)
    parser.add_argument("--key-file", help="a file holding an account's API key (default: $CLACK_KEY)")
    args = parser.parse_args()
    types, games, games_grpc, replay, replay_grpc = compile_stubs(os.path.abspath(args.proto))
    key = read_key(args.key_file)

    plain = grpc.insecure_channel(args.addr)
    channel = grpc.intercept_channel(plain, KeyInterceptor(key)) if key else plain
    client = games_grpc.GameServiceStub(channel)
    replayer = replay_grpc.ReplayServiceStub(channel)

    if args.game == "straight":
        options = types.GameOptions(straight=types.StraightOptions(players=2, target=100))
    else:
        options = types.GameOptions(streets=types.StreetsOptions(players=2))
    if key:
        keyless = games_grpc.GameServiceStub(plain)
        expect_refused(lambda: keyless.CreateGame(games.CreateGameRequest(options=options)),
                       grpc.StatusCode.UNAUTHENTICATED, "a closed server's call without a key")
    created = client.CreateGame(games.CreateGameRequest(options=options, seed=2024))
    game_id = created.game_id
    about = [("x-clack-game", game_id)]
    watched = []
    watcher = threading.Thread(target=watch_all, args=(client, games, game_id, about, watched), daemon=True)
    watcher.start()
    tokens = []
    for seat in range(2):
        joined = client.JoinGame(games.JoinGameRequest(game_id=game_id, seat=seat, name=f"py-{seat}"),
                                 metadata=about)
        tokens.append(joined.seat_token)

    # A request for a seat without its token is refused.
    expect_refused(lambda: client.ListLegalActions(games.ListLegalActionsRequest(game_id=game_id, seat=0),
                                                   metadata=about),
                   grpc.StatusCode.UNAUTHENTICATED, "a request without a seat token")

    moves = 0
    while True:
        view = client.GetView(games.GetViewRequest(game_id=game_id), metadata=about).view
        if not view.HasField("to_move"):
            break
        seat = view.to_move
        metadata = seat_auth(tokens[seat]) + about
        legal = client.ListLegalActions(games.ListLegalActionsRequest(game_id=game_id, seat=seat), metadata=metadata)
        if not legal.actions:
            sys.exit(f"seat {seat} is to move but has no legal action")
        # Prefer a play over drawing or passing; the server fills in nothing we did not send.
        action = legal.actions[0]
        reply = client.Act(
            games.ActRequest(game_id=game_id, seat=seat, expected_sequence=legal.sequence, action=action,
                             view=games.ACT_VIEW_FULL),
            metadata=metadata,
        )
        if reply.sequence <= legal.sequence:
            sys.exit("the sequence did not advance")
        if not reply.HasField("view") or len(reply.view.hands) != 0:
            sys.exit("a full reply to Act must carry the seat's own view and no other hands")
        if reply.view.to_move != reply.to_move or reply.view.HasField("to_move") != reply.HasField("to_move"):
            sys.exit("the reply's seat to move disagrees with its view")
        moves += 1
        if moves > 20000:
            sys.exit("the game never ended")

    view = client.GetView(games.GetViewRequest(game_id=game_id), metadata=about).view
    if view.status != games.GAME_STATUS_FINISHED:
        sys.exit(f"unexpected status {view.status}")
    verified = replayer.Verify(replay.VerifyRequest(game_id=game_id), metadata=about)
    if not verified.ok:
        sys.exit(f"verify failed: {verified.detail}")
    lines = list(replayer.Export(replay.ExportRequest(game_id=game_id), metadata=about))
    if len(lines) != verified.events:
        sys.exit(f"export has {len(lines)} lines for {verified.events} events")
    watcher.join(timeout=30)
    check_watched("the live watch", watched, verified.events)
    again = [r.event for r in client.Watch(games.WatchRequest(game_id=game_id, from_sequence=1), metadata=about)]
    check_watched("the watch of the finished game", again, verified.events)
    print(f"python client: {args.game} game {game_id} finished after {moves} moves; "
          f"winners {list(view.winners)}, scores {list(view.scores)}, {verified.events} events verified")


if __name__ == "__main__":
    main()
