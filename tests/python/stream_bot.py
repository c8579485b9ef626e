#!/usr/bin/env python3
"""A complete Clack bot in Python over GameService.Play: one stream per seat.

It creates a two-player game, takes both seats, and plays each on its own Play stream: the
server pushes every event the seat may see and, when the seat is to act, a Turn with its legal
actions; the bot answers with an index into them. To show resuming, each seat drops its stream
after a few moves and reconnects with the last sequence it saw: nothing is missed or repeated.
Exit status 0 means the game finished, both seats saw every event once, and the log verified.

    python3 tests/python/stream_bot.py --addr 127.0.0.1:50051 --game streets
"""
import argparse
import queue
import sys
import threading

import grpc

from play import KeyInterceptor, compile_stubs, read_key, seat_auth


def play_seat(stub, games, game_id, token, seen, drop_every):
    """Plays one seat to the end of the game; returns the sequences it saw, in order."""
    moves = 0
    while True:
        outbox = queue.Queue()
        hello = games.PlayHello(game_id=game_id, after_sequence=seen[-1] if seen else 0)
        outbox.put(games.PlayRequest(hello=hello))
        replies = stub.Play(iter(outbox.get, None), metadata=seat_auth(token))
        dropped = False
        for reply in replies:
            kind = reply.WhichOneof("message")
            if kind == "event":
                seen.append(reply.event.sequence)
            elif kind == "turn":
                # The bot: the last legal action (Straight: a play before drawing or passing).
                move = games.PlayMove(turn_sequence=reply.turn.sequence, index=len(reply.turn.actions) - 1)
                outbox.put(games.PlayRequest(move=move))
                moves += 1
                if moves % drop_every == 0:
                    replies.cancel()  # drop the stream; the loop reconnects from seen[-1]
                    dropped = True
                    break
            elif kind == "rejected":
                sys.exit(f"move refused: {reply.rejected.message}")
        outbox.put(None)
        if not dropped:
            return seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--addr", required=True)
    parser.add_argument("--game", choices=["straight", "streets"], default="straight")
    parser.add_argument("--key-file", help="an account's API key (default: $CLACK_KEY)")
    args = parser.parse_args()
    types, games, games_grpc, replay, replay_grpc = compile_stubs(None)
    key = read_key(args.key_file)
    channel = grpc.insecure_channel(args.addr)
    if key:
        channel = grpc.intercept_channel(channel, KeyInterceptor(key))
    stub = games_grpc.GameServiceStub(channel)

    rules = types.StraightOptions(players=2, target=100) if args.game == "straight" else None
    options = types.GameOptions(straight=rules) if rules else types.GameOptions(streets=types.StreetsOptions(players=2))
    game_id = stub.CreateGame(games.CreateGameRequest(options=options, seed=7)).game_id
    tokens = [stub.JoinGame(games.JoinGameRequest(game_id=game_id, seat=s, name=f"py-{s}")).seat_token for s in (0, 1)]

    seen = [[], []]
    threads = [threading.Thread(target=play_seat, args=(stub, games, game_id, tokens[s], seen[s], 5 + s))
               for s in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    view = stub.GetView(games.GetViewRequest(game_id=game_id)).view
    for seat in (0, 1):
        if seen[seat] != list(range(1, view.sequence + 1)):
            sys.exit(f"seat {seat} missed or repeated events across reconnections")
    verified = replay_grpc.ReplayServiceStub(channel).Verify(replay.VerifyRequest(game_id=game_id))
    if view.status != games.GAME_STATUS_FINISHED or not verified.ok:
        sys.exit(f"the game did not finish and verify: {verified.detail}")
    print(f"python stream bot: {args.game} game {game_id} finished, {view.sequence} events, verified")


if __name__ == "__main__":
    main()
