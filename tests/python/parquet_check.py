"""Reads the Parquet tables written by `clack export --format parquet` with pyarrow and pandas
and checks them against the JSON lines export they were made from.

Usage: python3 parquet_check.py TABLE_DIR EXPORT.jsonl...
Exits non-zero, saying what differs, if a row count or a value disagrees.
"""

import json
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq


def read_exports(paths):
    games = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                event = json.loads(line)
                games.setdefault(event["gameId"], []).append(event)
    return games


def expected_tables(games):
    game_rows, seat_rows, move_rows, round_rows = [], [], [], []
    for game_id, events in games.items():
        created = events[0]["gameCreated"]
        ended = next(e["gameEnded"] for e in events if "gameEnded" in e)
        options = created["options"]
        teams = options.get("straight", {}).get("teams", False)
        moves = [e for e in events if "actionApplied" in e]
        rounds = [e["roundEnded"] for e in events if "roundEnded" in e]
        game_rows.append({
            "game_id": game_id,
            "moves": len(moves),
            "winners": ",".join(str(w) for w in ended.get("winners", [])),
            "first_seat": moves[0]["actionApplied"].get("seat", 0) if moves else None,
        })
        for seat, _ in enumerate(created["seats"]):
            side = seat % 2 if teams else seat
            seat_rows.append({"game_id": game_id, "seat": seat, "score": int(ended["scores"][side])})
        for e in moves:
            move_rows.append({"game_id": game_id, "sequence": int(e["sequence"]),
                              "points": e["actionApplied"].get("points", 0)})
        for r in rounds:
            round_rows.append({"game_id": game_id, "round": r["round"], "points": r.get("points", 0)})
    return [pd.DataFrame(rows) for rows in (game_rows, seat_rows, move_rows, round_rows)]


def check(name, got, want, keys, columns):
    failures = []
    if len(got) != len(want):
        failures.append(f"{name}: {len(got)} rows, the export has {len(want)}")
        return failures
    merged = want.merge(got, on=keys, how="left", suffixes=("_want", "_got"), indicator=True)
    missing = merged[merged["_merge"] != "both"]
    if len(missing):
        failures.append(f"{name}: {len(missing)} rows of the export are missing, e.g. {missing.iloc[0].to_dict()}")
    for column in columns:
        a, b = merged[f"{column}_want"], merged[f"{column}_got"]
        differ = merged[~((a == b) | (a.isna() & b.isna()))]
        if len(differ):
            failures.append(f"{name}.{column}: {len(differ)} values differ, e.g. {differ.iloc[0].to_dict()}")
    return failures


def main():
    table_dir, exports = Path(sys.argv[1]), sys.argv[2:]
    games_want, seats_want, moves_want, rounds_want = expected_tables(read_exports(exports))
    tables = {name: pq.read_table(table_dir / f"{name}.parquet").to_pandas()
              for name in ("games", "seats", "moves", "rounds")}
    failures = []
    failures += check("games", tables["games"], games_want, ["game_id"], ["moves", "winners", "first_seat"])
    failures += check("seats", tables["seats"], seats_want, ["game_id", "seat"], ["score"])
    failures += check("moves", tables["moves"], moves_want, ["game_id", "sequence"], ["points"])
    failures += check("rounds", tables["rounds"], rounds_want, ["game_id", "round"], ["points"])
    # The question docs/analysis.md answers: how much is the first mover's seat worth?
    first = tables["games"].merge(tables["seats"], left_on=["game_id", "first_seat"], right_on=["game_id", "seat"])
    if len(first) != len(tables["games"]):
        failures.append(f"the first mover's seat joins {len(first)} of {len(tables['games'])} games")
    for failure in failures:
        print(failure)
    counts = {name: len(table) for name, table in tables.items()}
    print(f"checked {counts}: {'FAILED' if failures else 'ok'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
