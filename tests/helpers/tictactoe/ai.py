"""Tic-tac-toe's AI package: the shared player (ai/base_player.py) on a plain alpha-beta search, and the
facts every AI package exports (levels, calibration, ladder, OpenSpiel's name of the game)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ai.base_player import Level, SearchPlayer, level_descriptions

from .engine import LINES

WIN = 100  # a win p plies ahead scores WIN - p
LEVEL_TABLE = {n: Level(f"alpha-beta to depth {n}" + (", noisy" if n < 4 else ""), depth=n, cap_ms=1000,
                        temperature=(4 - n) * 20.0 if n < 4 else 0.0) for n in range(1, 7)}
LEVELS = level_descriptions(LEVEL_TABLE)
CALIBRATION = (0.0, 0.5)
LADDER = ((100, 50),) * 5
OPENSPIEL_GAME = "tic_tac_toe"


@dataclass
class Found:
    move: int
    score: int
    depth: int
    nodes: int
    scores: dict = field(default_factory=dict)
    proven: bool = False


def _open_lines(game, seat: int) -> int:
    mine, theirs = str(seat), str(1 - seat)
    return sum(1 for line in LINES if all(game.cell(i) != theirs for i in line)) - \
        sum(1 for line in LINES if all(game.cell(i) != mine for i in line))


class TicTacToePlayer(SearchPlayer):
    game_id = "tictactoe"
    levels = LEVEL_TABLE
    win = WIN
    proven = WIN - 10

    def search(self, game, *, t0, stop, deadline, all_scores, report) -> Found:
        game = game.copy()
        depth = self.cfg.depth or 9
        nodes = 0

        def negamax(d: int, ply: int, alpha: int, beta: int) -> int:
            nonlocal nodes
            nodes += 1
            out = game.outcome()
            if out is not None:
                return 0 if out.winner is None else -(WIN - ply)  # the side to move has lost
            if d == 0:
                return _open_lines(game, game.current_player())
            best = -WIN
            for m in game.legal_moves():
                game.push(m)
                best = max(best, -negamax(d - 1, ply + 1, -beta, -alpha))
                game.pop()
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best

        scores = {}
        for m in game.legal_moves():
            game.push(m)
            scores[m] = -negamax(depth - 1, 1, -WIN, WIN)
            game.pop()
        move = max(scores, key=scores.get)
        report(depth, nodes, scores[move], move, time.monotonic() - t0)
        return Found(move, scores[move], depth, nodes, scores, abs(scores[move]) >= self.proven or depth >= 9)


make_player = TicTacToePlayer


def search_speed(seconds: float = 2.0) -> tuple[int, float]:
    from .engine import TicTacToe

    start, nodes = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        nodes += TicTacToePlayer(6).search(TicTacToe.new(), t0=time.monotonic(), stop=0, deadline=None,
                                           all_scores=True, report=lambda *a: None).nodes
    return nodes, time.perf_counter() - start
