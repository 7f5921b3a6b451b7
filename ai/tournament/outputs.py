"""Output formats of the tournament loop that need no terminal: JSON and the arena's games file.

Each follows ai.tournament.loop.OutputFormat (`on_game`, `on_end`) and writes to a stream it is given
(the command owns the stream).  The tables for people are tui.core.match's.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TextIO

from ai.tournament.loop import GameReport, Standings
from ai.tournament.stats import Score, elo_with_error


class JsonLines:
    """`referee --json`: one object per game, on one line, as each game ends (SPEC.md)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def on_game(self, report: GameReport, standings: Standings) -> None:
        self.stream.write(json.dumps(report.result.to_json()) + "\n")
        self.stream.flush()

    def on_end(self, standings: Standings) -> None:
        pass


class MatchJson:
    """`match --json`: the whole tournament as one object, once it is over (SPEC.md)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def on_game(self, report: GameReport, standings: Standings) -> None:
        pass

    def on_end(self, standings: Standings) -> None:
        self.stream.write(json.dumps(to_json(standings)) + "\n")


class GamesFile:
    """The arena's `--games FILE`: each game as one line, the winner's seat (or -) and every move from
    the start, tab-separated (training data), flushed as it comes."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def on_game(self, report: GameReport, standings: Standings) -> None:
        winner = report.result.outcome.winner
        self.stream.write("\t".join(["-" if winner is None else str(winner), *report.result.moves]) + "\n")
        self.stream.flush()

    def on_end(self, standings: Standings) -> None:
        pass


MAX_GAMES_FILE_BYTES = 256 << 20  # a file of games lines larger than this is refused, not read


def read_games_file(path: str | Path) -> bytes:
    """The bytes of a file of games lines (or a record); ValueError when it is not a regular file (a FIFO
    or a device would block the open, or never end) or is larger than MAX_GAMES_FILE_BYTES."""
    if not os.path.isfile(path):
        raise ValueError("not a regular file")
    with open(path, "rb") as stream:
        raw = stream.read(MAX_GAMES_FILE_BYTES + 1)
    if len(raw) > MAX_GAMES_FILE_BYTES:
        raise ValueError(f"larger than {MAX_GAMES_FILE_BYTES} bytes")
    return raw


def read_games_line(line: str) -> tuple[int | None, list[str]] | None:
    """A line `GamesFile` writes: (the winner's seat, None for a draw; the moves), or None when it is not one."""
    winner, *moves = line.split("\t")
    if winner not in ("0", "1", "-") or not moves:
        return None
    return (None if winner == "-" else int(winner)), moves


def _seat_json(sc: Score) -> dict:
    return {"wins": sc.wins, "draws": sc.draws, "losses": sc.losses, "score": round(sc.fraction, 4)}


def to_json(t: Standings) -> dict:
    pairs = []
    for (a, b), sc in t.scores.items():
        elo, err = elo_with_error(sc)
        pairs.append({"a": t.names[a], "b": t.names[b], "wins": sc.wins, "draws": sc.draws,
                      "losses": sc.losses, "score": sc.fraction, "elo": round(elo, 1),
                      "elo_error": None if err == float("inf") else round(err, 1),
                      "errors": sc.errors[:10]})
    players = [{"name": name, "as_seat_0": _seat_json(t.by_seat[(n, 0)]),
                "as_seat_1": _seat_json(t.by_seat[(n, 1)]), "answer_times": t.times[n].summary()}
               for n, name in enumerate(t.names)]
    out = {"game": t.game, "players": list(t.names), "pairs": pairs, "by_player": players,
           "games": [dict(r.to_json(), pairing=p.index, opening=p.opening_index) for p, r in t.games]}
    if t.openings:
        out["openings"] = t.openings
    if t.sprt is not None:
        out["sprt"] = t.sprt.to_json()
    return out


class EachGame:
    """An output that hands each game to a function as it ends: a recorder, a progress line."""

    def __init__(self, on_game) -> None:
        self.on_game_fn = on_game  # on_game(report, standings)

    def on_game(self, report: GameReport, standings: Standings) -> None:
        self.on_game_fn(report, standings)

    def on_end(self, standings: Standings) -> None:
        pass
