"""Games logged from the official CodinGame referees (a copy of the public sample in
../shared/conformance/data), read for golden tests that replay them in-process."""
from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "conformance"


@dataclass(frozen=True)
class Turn:
    seat: int
    input: tuple[str, ...]
    output: str


@dataclass(frozen=True)
class LoggedGame:
    game: str
    index: int
    seed: int
    turns: tuple[Turn, ...]
    winner: int | None
    scores: tuple[int, int]
    reason: str  # the log's reason word
    n_turns: int


@dataclass(frozen=True)
class Probe:
    game: str
    id: int
    game_index: int
    turn: int
    seat: int
    text: str
    expect: str  # "ok" or "invalid"
    mode: str  # "end" (rejected, game ends), "replay" (same effect as logged), "free" (accepted)
    kind: str
    winner: int | None = None
    scores: tuple[int, int] | None = None


@lru_cache(maxsize=None)
def logged_games(game: str) -> tuple[LoggedGame, ...]:
    out = []
    with zipfile.ZipFile(DATA / f"{game}.zip") as z:
        for entry in json.loads(z.read("index.json"))["games"]:
            vec = json.loads(z.read("games/%04d.json" % entry["i"]))
            res = vec["result"]
            out.append(LoggedGame(
                game=game, index=entry["i"], seed=vec["seed"],
                turns=tuple(Turn(t["seat"], tuple(t["input"]), t["output"]) for t in vec["turns"]),
                winner=res["winner"], scores=tuple(res["scores"]), reason=res["log_reason"],
                n_turns=res["turns"]))
    return tuple(out)


@lru_cache(maxsize=None)
def probes(game: str) -> tuple[Probe, ...]:
    with zipfile.ZipFile(DATA / f"{game}.zip") as z:
        raw = json.loads(z.read("probes.json"))
    out = []
    for p in raw:
        res = p.get("result") or {}
        out.append(Probe(game=game, id=p["id"], game_index=p["game"], turn=p["turn"], seat=p["seat"],
                         text=p["text"], expect=p["expect"], mode=p["mode"], kind=p["kind"],
                         winner=res.get("winner"), scores=tuple(res["scores"]) if res else None))
    return tuple(out)
