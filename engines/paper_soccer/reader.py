"""The bot's side of the Paper Soccer protocol: the pitch rebuilt from the referee's input."""
from __future__ import annotations

from typing import Callable, Hashable

from engines.base import Game, InputReader, quote
from engines.endings import describe
from engines.textread import LineSource

from .geometry import DIGITS, N_EDGES

# ------------------------------------------------------------------------------------ input reader

class PaperSoccerReader(InputReader):
    """Rebuilds the pitch from the referee's input: the bot sees only the opponent's last turn, so it
    plays its own turns in through `played`.

    Input no referee sends is refused with an InputError naming its line: a myId other than 0 or 1,
    a length that is not the move's, a move of other than the digits 0-7, `-` other than on seat 0's
    first turn of the game, a move while it is the bot's own turn or that is not legal on the pitch
    the bot knows, and a move after which the game is over.
    """

    def __init__(self, game_class: type[Game]) -> None:
        self.src = LineSource()
        self.game = game_class.new()  # the class is handed in by the game: importing it would be a cycle
        self.seat: int | None = None

    def read_turn(self, readline: Callable[[], str]) -> Game:
        src = self.src
        src.begin_turn(readline)
        if self.seat is None:
            self.seat = src.read_int("myId", 0, 1)
        length = src.read_int("opponentMoveLength", 1, N_EDGES)
        move = src.read_line("opponentMove")
        game = self.game
        if move == "-":
            if game.turn != 0 or self.seat != 0 or length != 1:
                raise src.error("opponentMove '-' (no move yet) comes only on the game's first turn, "
                                "to seat 0, with opponentMoveLength 1")
            return game
        if any(c not in DIGITS for c in move):
            raise src.error(f"expected opponentMove: the digits 0-7 or '-', got {quote(move)}")
        if len(move) != length:
            raise src.error(f"opponentMove has {len(move)} digits, opponentMoveLength said {length}")
        if game.current_player() == self.seat:
            raise src.error(f"an opponentMove on turn {game.turn}, which is seat {self.seat}'s own")
        if not game.is_legal(move):
            raise src.error(f"opponentMove {quote(move)} is not legal on the pitch the bot knows")
        game.push(move)
        if game.is_over():
            raise src.error(f"the game is over after opponentMove ({describe(game.outcome(), type(game))}): "
                            "no referee asks for a move")
        return game

    def played(self, move: Hashable) -> None:
        self.game.push(str(move))

