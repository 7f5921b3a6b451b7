"""Positions from the official referees' logged games (tests/data/conformance), and what they hold,
checked by brute force with the engine alone (no AI code), so the AI tests cannot agree with an AI bug."""
from __future__ import annotations

from engines import get_game
from tests.helpers.conformance_data import logged_games


def logged_position(game_id: str, index: int, back: int):
    """Game `index` of the game's logged sample, `back` turns before its end."""
    logged = logged_games(game_id)[index]
    game = get_game(game_id).new(logged.seed)
    for turn in logged.turns[:len(logged.turns) - back]:
        game.play(turn.output)
    return game


def moves_to_try(game) -> list:
    """Every move with a different effect (Paper Soccer's legal_moves() may be a subset: its turns by
    effect are not)."""
    if game.id == "paper-soccer":
        turns = game.legal_turns_by_effect(20_000)
        assert len(turns) <= 20_000
        return turns
    return game.legal_moves()


def mover_wins(game, seat: int) -> bool:
    out = game.outcome()
    return out is not None and out.winner == seat


def winning_moves(game) -> list:
    """The moves that win at once."""
    seat = game.current_player()
    out = []
    for m in moves_to_try(game):
        game.push(m)
        if mover_wins(game, seat):
            out.append(m)
        game.pop()
    return out


def wins_within(game, seat: int, plies: int) -> bool:
    """Does `seat` win by force within `plies` plies?  Plain minimax over the engine."""
    if game.outcome() is not None:
        return mover_wins(game, seat)
    if plies == 0:
        return False
    mine = game.current_player() == seat
    for m in moves_to_try(game):
        game.push(m)
        won = wins_within(game, seat, plies - 1)
        game.pop()
        if won == mine:
            return mine
    return not mine


def safe_moves(game) -> list:
    """Moves that neither lose at once nor leave the opponent a win at once."""
    seat = game.current_player()
    out = []
    for m in moves_to_try(game):
        game.push(m)
        if game.outcome() is None:
            if not winning_moves(game):
                out.append(m)
        elif mover_wins(game, seat):
            out.append(m)
        game.pop()
    return out
