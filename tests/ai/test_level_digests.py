"""Every AI level of every game still plays what it played when these digests were recorded.

For each game and level 1..6, one seeded player (`make_player(level, seed=level)`) chooses a move on
each position below, in order (the player keeps its tables from one position to the next, as the bot
does), and the moves with the last progress report of each search (depth, nodes, and the score, or
only its sign for a proven result) are hashed.  `think_ms` is far beyond any search here, so only the
levels' depth and node budgets bind and the moves are the same on any machine; Lines of Action's
level 6 has no node budget of its own, so it gets one (`nodes=`).  A change to the player layer
(levels, noise, deadlines, progress reports) must leave every digest as it is; a change meant to
alter play records new digests, and says so.

The positions: the start, then positions reached by seeded random legal moves (quiet ones, and one
later position per game), written out as move texts so that they do not depend on the engines' move
order or random policies.
"""
from __future__ import annotations

import hashlib

import pytest

from ai.levels import ai_module
from engines import get_game

THINK_MS = 10_000_000  # no search here comes near it: the depth and node budgets bind
CULTIST_WARS_MAP = 7
EXTRA = {("lines-of-action", 6): {"nodes": 15_000}}  # the level is bound by the clock alone otherwise

POSITIONS: dict[str, tuple[tuple[str, ...], ...]] = {
    "connect4": (
        (),
        ('2', 'STEAL', '1', '4', '1', '7', '7', '7'),
        ('3', 'STEAL', '8', '2', '5', '7', '1', '0', '7', '4', '8', '3', '3', '7', '8', '8', '7', '6', '2',
         '3'),
        ('3', 'STEAL', '8', '2', '5', '7', '1', '0', '7', '4', '8', '3', '3', '7', '8', '8', '7', '6', '2',
         '3', '2', '8', '6', '0', '1', '2', '0', '4', '0', '4', '7', '6', '6', '6'),
    ),
    "paper-soccer": (
        (),
        ('2', '4', '70', '2', '0', '3', '657', '6'),
        ('0', '0', '0', '2', '7', '16', '3', '42', '4', '1', '4', '64', '4', '6', '4', '77', '7', '5', '3',
         '4'),
        ('3', '5', '7', '5', '3', '2', '00', '3', '66', '413', '2', '703', '1', '0', '27', '7', '4', '7',
         '0', '0', '5', '5', '7', '0'),
    ),
    "lines-of-action": (
        (),
        ('c1e3', 'a3c5', 'e1g3', 'a5d5', 'g1c5', 'h6f8', 'e8g6', 'h2g1', 'e3h3', 'h5f3'),
        ('b8b6', 'a3c5', 'b6e6', 'h2h8', 'd1d3', 'c5f2', 'd8d6', 'a7d4', 'c1b2', 'd4a7', 'e6b3', 'h6f8',
         'e8e6', 'h8f6', 'd6d4', 'h3e3', 'e6e3', 'f8e7', 'd3d1', 'h7f5', 'b2a3', 'a4b5', 'e3f4', 'h4h6',
         'e1e3', 'f5h3', 'f4h4', 'h6f4', 'c8e8', 'b5e2'),
        ('d8b6', 'a4c6', 'f1d3', 'h6d6', 'b6e3', 'a2c2', 'g8f7', 'c6e8', 'e1g3', 'a6c6', 'c8e6', 'h3f5',
         'e3g5', 'h5f3', 'd3e2', 'a7c5', 'e6c4', 'c2g6', 'g5e3', 'h7g8', 'd1d3', 'g8h7', 'b1a2', 'a5a8',
         'c1a1', 'h4f4', 'e3c1', 'a3c1', 'c4e4', 'a8e4', 'g3h4', 'd6d8', 'e2b2', 'g6g4', 'f8g7', 'e8b8'),
    ),
    "cultist-wars": (
        (),
        ('0 MOVE 0 2', 'WAIT', '0 MOVE 0 1', '1 MOVE 12 4', '0 MOVE 0 0', 'WAIT', '0 MOVE 1 0', 'WAIT',
         'WAIT', '1 MOVE 12 3', '0 MOVE 0 0', '1 MOVE 12 4', '0 MOVE 0 1', 'WAIT', 'WAIT', '1 CONVERT 10',
         'WAIT', '10 SHOOT 1', '0 MOVE 0 2', '10 SHOOT 7'),
        ('0 MOVE 0 2', '1 MOVE 12 2', '0 MOVE 0 1', '1 MOVE 12 3', '0 MOVE 0 2', 'WAIT', '0 MOVE 1 2',
         '1 MOVE 12 4', '0 MOVE 1 1', '1 CONVERT 10', 'WAIT', '10 SHOOT 9', '0 MOVE 0 1', '10 SHOOT 12',
         'WAIT', '10 SHOOT 9', '0 MOVE 1 1', '10 SHOOT 8', '0 MOVE 1 2', '10 SHOOT 6', '0 MOVE 2 2',
         '1 CONVERT 11', '0 MOVE 1 2', '11 MOVE 12 6', 'WAIT', '10 SHOOT 9', 'WAIT', '11 SHOOT 1',
         '0 MOVE 1 1', '11 SHOOT 13', '0 MOVE 1 0', '10 SHOOT 13', '0 MOVE 1 1', '1 MOVE 12 3', '0 MOVE 1 0',
         '10 SHOOT 8', '0 MOVE 1 1', '10 MOVE 12 4', 'WAIT', '11 MOVE 11 6', '0 MOVE 1 2', '10 SHOOT 12',
         'WAIT', '11 SHOOT 13', '0 MOVE 2 2', '11 MOVE 12 6', '0 MOVE 2 1', '11 SHOOT 7', '0 MOVE 2 0',
         '11 SHOOT 10'),
        ('0 MOVE 0 2', 'WAIT', '0 MOVE 0 3', '1 MOVE 12 4', 'WAIT', 'WAIT', 'WAIT', '1 CONVERT 10', 'WAIT',
         '1 MOVE 12 3', '0 MOVE 0 4', '10 MOVE 12 4', '0 MOVE 0 3', '10 SHOOT 1', 'WAIT', '10 SHOOT 8',
         'WAIT', 'WAIT', '0 MOVE 0 4', '10 SHOOT 13', '0 MOVE 0 5', '10 SHOOT 1', '0 MOVE 0 6', '10 SHOOT 9',
         'WAIT', '10 MOVE 11 4', 'WAIT', '10 MOVE 12 4', '0 MOVE 0 5', 'WAIT', '0 MOVE 0 4', '10 SHOOT 13',
         '0 MOVE 0 3', '10 SHOOT 12', '0 MOVE 0 4', '10 SHOOT 9', 'WAIT', '10 SHOOT 12', 'WAIT',
         '10 MOVE 12 3', '0 MOVE 1 4', '10 MOVE 12 2', '0 MOVE 0 4', '10 MOVE 12 3', 'WAIT', '10 SHOOT 11',
         '0 MOVE 1 4', '10 SHOOT 9', 'WAIT', 'WAIT', '0 MOVE 2 4', '10 SHOOT 13', 'WAIT', '10 SHOOT 6',
         '0 MOVE 2 5', '10 SHOOT 6', 'WAIT', '10 SHOOT 13', 'WAIT', '10 MOVE 12 4'),
    ),
}

DIGESTS: dict[tuple[str, int], str] = {
    ("connect4", 1): "f6b64289de19ce77",
    ("connect4", 2): "889090b12817e54e",
    ("connect4", 3): "192f17fd937e83bf",
    ("connect4", 4): "ee46093c8bdc3e6d",
    ("connect4", 5): "17acb02dd8df7c1a",
    ("connect4", 6): "d3922ad2be38b130",
    ("lines-of-action", 1): "19f033345fd8bdae",
    ("lines-of-action", 2): "5b6ff2c03fa54176",
    ("lines-of-action", 3): "519a54a6cff6d736",
    ("lines-of-action", 4): "e005a29f34bafa43",
    ("lines-of-action", 5): "6ba82e65b74a1381",
    ("lines-of-action", 6): "0dcd6243d0fbf345",
    ("paper-soccer", 1): "b239a3999d95d18d",
    ("paper-soccer", 2): "31e97f882ec5bf35",
    ("paper-soccer", 3): "d8c4c79c2861c8ff",
    ("paper-soccer", 4): "b71f27746ee52726",
    ("paper-soccer", 5): "ae9ff42081f00820",
    ("paper-soccer", 6): "ae28c29f5b1f5fd3",  # value:selfplay; 150,000 nodes; the start searched (nothing loads)
    ("cultist-wars", 1): "f8619be3ba74f21d",
    ("cultist-wars", 2): "e0e5a20fff27cc40",
    ("cultist-wars", 3): "2d832b79a8484fb2",
    ("cultist-wars", 4): "9107cf6a9376a405",
    ("cultist-wars", 5): "44e56f82d484c31b",
    ("cultist-wars", 6): "f8c2b55219dd1786",
}


def position(game_id: str, moves: tuple[str, ...]):
    game = get_game(game_id).new(CULTIST_WARS_MAP if game_id == "cultist-wars" else None)
    for text in moves:
        game.play(text)
    return game


def figures(info) -> tuple | None:
    """What a progress report says, with proven results reduced to their sign (their exact
    numbers are a display convention)."""
    if info is None:
        return None
    score = info.score
    if score is not None:
        score = ("win" if score > 0 else "loss") if abs(score) >= 1e5 else round(score, 3)
    return info.depth, info.nodes, score


def play_level(game_id: str, level: int) -> list[tuple]:
    player = ai_module(game_id).make_player(level, think_ms=THINK_MS, seed=level,
                                            **EXTRA.get((game_id, level), {}))
    out = []
    for moves in POSITIONS[game_id]:
        game = position(game_id, moves)
        infos: list = []
        move = player.choose(game, None, infos.append)
        out.append((game.move_to_str(move), figures(infos[-1] if infos else None)))
    return out


def digest(records: list[tuple]) -> str:
    return hashlib.sha1(repr(records).encode()).hexdigest()[:16]


SLOW = {(game_id, 6) for game_id, _ in DIGESTS}  # level 6 searches longest (Paper Soccer: seconds)


@pytest.mark.parametrize("game_id,level", [pytest.param(*key, marks=[pytest.mark.slow] if key in SLOW else [])
                                           for key in sorted(DIGESTS)])
def test_every_level_plays_the_recorded_moves(game_id, level):
    records = play_level(game_id, level)
    assert digest(records) == DIGESTS[game_id, level], records
