"""A game seen through stable integer actions, as OpenSpiel wants it (ai/tools/openspiel_mcts.py).

Each game's tools module (ai/<game>/tools.py) subclasses `IntActions` as `OpenSpielActions`, setting
`NUM_ACTIONS` (OpenSpiel's num_distinct_actions), `MAX_LENGTH` (its max_game_length, in decisions)
and the encoding; its docstring says what the numbers mean.  Nothing here needs OpenSpiel.
"""
from __future__ import annotations

from typing import ClassVar

from engines.base import Game


class IntActions:
    """One engine position seen through integer actions; `__deepcopy__` is OpenSpiel's clone."""

    NUM_ACTIONS: ClassVar[int]
    MAX_LENGTH: ClassVar[int]
    # True where one CodinGame turn is several decisions of the same player (`mid_turn` tells when)
    multi_step: ClassVar[bool] = False

    def __init__(self, g: Game):
        self.g = g

    def __deepcopy__(self, memo) -> "IntActions":
        return type(self)(self.g.copy())

    def player(self) -> int:
        return self.g.current_player()

    def outcome(self):
        return self.g.outcome()

    def mid_turn(self) -> bool:
        return False

    def legal(self) -> list[int]:
        return sorted(self.encode(m) for m in self.g.legal_moves())

    def apply(self, action: int) -> None:
        self.g.push(self.decode(action))

    def action_str(self, action: int) -> str:
        return self.g.move_to_str(self.decode(action))

    def turn_output(self, actions: list[int], start: Game) -> str:
        return start.move_to_str(self.decode(actions[0]))

    def encode(self, move) -> int:
        raise NotImplementedError

    def decode(self, action: int):
        raise NotImplementedError
