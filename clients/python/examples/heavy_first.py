"""A remote bot for Straight Dominoes: it plays its heaviest tile, so that what it is caught
holding at the end of a round counts as little as possible.

    pip install ./clients/python
    python3 clients/python/examples/heavy_first.py --addr 127.0.0.1:50051 --name heavy-py
"""
import argparse

import clack_bot


def pips(notation):
    """The pips of the tile an action places ("6-4 east@5" has 10); 0 for a draw or a pass."""
    tile = notation.split(" ")[0]
    if "-" not in tile:
        return 0
    high, low = tile.split("-")
    return int(high) + int(low)


def choose(turn, seat):
    """The index of the legal action that places the most pips."""
    return max(range(len(turn.notation)), key=lambda i: pips(turn.notation[i]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--name", default="heavy-py")
    args = parser.parse_args()
    clack_bot.run(choose, name=args.name, game="straight", addr=args.addr)
