"""Golden tests: games played by the official referees' own code, replayed through our engines.

Every line the referee sent each seat must be what `bot_input` gives, byte for byte; every logged
output must be accepted; the result and scores must match; every probe the referee rejected must
be rejected and scored as a forfeit, every probe it accepted must be accepted.
"""
from __future__ import annotations

import pytest

from engines import GAME_IDS, get_game
from engines.base import InvalidOutput
from tests.helpers.conformance_data import logged_games, probes

GAME_CASES = [pytest.param(g, lg.index, id=f"{g}-{lg.index}") for g in GAME_IDS for lg in logged_games(g)]
PROBE_CASES = [pytest.param(g, p.id, id=f"{g}-p{p.id}-{p.kind}") for g in GAME_IDS for p in probes(g)]


def _replay_until(game_id: str, index: int, stop: int | None = None):
    lg = logged_games(game_id)[index]
    cls = get_game(game_id)
    state = cls.new(lg.seed)
    seen = [False, False]
    turns = lg.turns if stop is None else lg.turns[:stop]
    for k, turn in enumerate(turns):
        assert state.outcome() is None, f"turn {k}: game over early: {state.outcome()}"
        assert state.current_player() == turn.seat, f"turn {k}: wrong player to move"
        got = state.bot_input(first=not seen[turn.seat])
        seen[turn.seat] = True
        assert got == list(turn.input), f"turn {k}: input differs"
        state.play(turn.output)
    return lg, state, seen


@pytest.mark.parametrize("game_id,index", GAME_CASES)
def test_logged_game_replays_exactly(game_id, index):
    lg, state, _ = _replay_until(game_id, index)
    out = state.outcome()
    assert out is not None, "the logged game is over, ours is not"
    assert (out.winner, out.scores) == (lg.winner, lg.scores)
    assert state.ply == lg.n_turns


@pytest.mark.parametrize("game_id,pid", PROBE_CASES)
def test_probe_is_judged_like_the_referee(game_id, pid):
    p = probes(game_id)[pid]
    lg, state, seen = _replay_until(game_id, p.game_index, stop=p.turn)
    assert state.current_player() == p.seat
    if p.expect == "invalid":
        with pytest.raises(InvalidOutput):
            state.parse_output(p.text)
        out = state.forfeit(p.seat, "invalid", p.text)
        assert (out.winner, out.scores) == (p.winner, p.scores)
    else:
        move = state.parse_output(p.text)
        if p.mode == "replay":
            assert move == state.parse_output(lg.turns[p.turn].output)
