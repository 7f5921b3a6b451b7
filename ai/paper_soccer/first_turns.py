"""Each seat's first turn from the standard start, searched offline: the turns level 6 plays there while
the compiled tree loads (otherwise it searches them: in pure Python that scored +16 +- 17 Elo over 1,600
games, see the README).

Why a table for nine positions: a bot process loads the compiled tree (the `fast` extra) in a thread,
about half a second of the interpreter, and a pure-Python search beside that thread gets a tenth of its
usual nodes, since the loading holds the interpreter's lock.  Against an opponent that answers in a few
milliseconds, a level-6 bot searched its first four to six turns that way (400-1,000 nodes, some with
no depth finished); at 5,000 nodes a turn it lost all 40 games against such an engine, where the same bot
with the tree loaded before its first input won 17.  With its first turn from this table, a bot gives that
turn (CodinGame's longest) to the loading (`PaperSoccerPlayer.quick_move`): against that engine it then
searched no turn in Python in 23 games of 40, and one to six in the others.

`TABLE` maps the turns played from the start ("" for the start itself, then each of the eight first turns
of seat 0) to the turns of the position with their scores (the mover's side, the search's units), best
first: those within 3 of the best (level 6's tie noise) of a multipv search by level 6 with the compiled
tree at 1,500,000 nodes (depth 13), as `python -m ai.paper_soccer.build_first_turns` prints them (20 s).
"""
from __future__ import annotations

from functools import cache

from engines.paper_soccer import PaperSoccer

TABLE: dict[str, tuple[tuple[str, int], ...]] = {
    '': (('0', 19), ('1', 19), ('7', 19)),
    '0': (('1', 2), ('0', 0), ('2', 0), ('5', 0), ('6', 0), ('7', 0)),
    '1': (('3', 3), ('1', 0), ('2', 0), ('6', 0), ('7', 0)),
    '2': (('2', 16),),
    '3': (('4', 19),),
    '4': (('3', 8), ('4', 8)),
    '5': (('4', 19),),
    '6': (('6', 16),),
    '7': (('0', 0), ('1', 0), ('2', 0), ('6', 0)),
}


def position(line: str) -> PaperSoccer:
    """The position after `line`, the turns of a key of `TABLE`."""
    game = PaperSoccer()
    for turn in line:  # a first turn from the centre is one step: one character
        game.push(turn)
    return game


@cache
def _lines_by_key() -> dict:
    return {position(line).key(): line for line in TABLE}


def lookup(game) -> tuple[tuple[str, int], ...]:
    """The table's turns of this position with their scores, best first; () when it is not in the table."""
    if len(game.move_stack) > 1:  # every position of the table is within one turn of the start
        return ()
    line = _lines_by_key().get(game.key())
    return TABLE[line] if line is not None else ()
