"""What a `termarena train` run is started with (its `settings.json`): apart from the loop so that the
command line reads its defaults without importing the players."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass


MAX_NODES = 10_000_000  # a search's nodes, as the command line bounds them


@dataclass(frozen=True)
class TrainSettings:
    game: str
    games: int = 2000  # self-play games a generation
    seed: int = 0
    start: str = ""  # the first champion: a weight file or net:NAME ("" = none: the first net from scratch)
    window: int = 3  # generations whose games a fit reads, this one and those before it
    gate_games: int = 400  # at most, colour-swapped pairs
    gate_nodes: int = 10_000
    elo0: float = 0.0
    elo1: float = 20.0
    pool: tuple[str, ...] = ()  # player specs, {net} = the champion's file ("" = the game's pool)
    gate_with: str = ""  # level fields both gate players add (KEY=V,...), e.g. another search
    search_target: float = 0.0  # how far a labelled position's target moves from its result to a search's value
    tree_targets: bool = False  # every position labelled, and the root turns the search looked below
    label_nodes: int = 0  # nodes of the labelling search (0: the gate's)

    @property
    def labelling_nodes(self) -> int:
        return self.label_nodes or self.gate_nodes

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1) + "\n"
