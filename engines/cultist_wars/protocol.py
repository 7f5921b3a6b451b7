"""Actions and the referee's reading of a player's output line.

`Move` is the action value the engine works with: `Move("WAIT")`, `Move("MOVE", unit, x, y)`,
`Move("SHOOT", unit, target=t)`, `Move("CONVERT", unit, target=t)`.  It is what the player asked
for, not what the referee resolves it to (see `rules.resolve`).

`parse_action` is `Player.getAction` + `Action.parseAction` of the referee, Java semantics included:
    tokens = line.trim().split(" ")        Java trim strips chars <= ' '; split drops trailing ""
    1 token:  exactly "WAIT", else "<tok> is not a valid action"
    else:     Command.valueOf(tokens[1])   case-sensitive MOVE/SHOOT/CONVERT (WAIT there is invalid)
              Integer.parseInt(tokens[0]), then tokens[2] (and tokens[3] for MOVE); extra tokens ignored
Validity against the position (`Board.checkActionValidity`) is in rules.py.
"""
from __future__ import annotations

from typing import NamedTuple

from engines import textread
from engines.base import InvalidOutput
from engines.visible import visible

WAIT, MOVE, SHOOT, CONVERT = "WAIT", "MOVE", "SHOOT", "CONVERT"
COMMANDS = (MOVE, SHOOT, CONVERT, WAIT)  # the Java enum Action.Command

class Move(NamedTuple):
    """One player action.  Unused fields are -1."""

    kind: str
    unit: int = -1
    x: int = -1
    y: int = -1
    target: int = -1

    def __str__(self) -> str:
        return move_to_text(self)


WAIT_MOVE = Move(WAIT)


def move_to_text(move: Move) -> str:
    """The output a bot prints for `move`."""
    if move.kind == MOVE:
        return f"{move.unit} MOVE {move.x} {move.y}"
    if move.kind in (SHOOT, CONVERT):
        return f"{move.unit} {move.kind} {move.target}"
    return WAIT


def java_trim(s: str) -> str:
    """`String.trim()`: strips every char <= U+0020 at both ends (and nothing else)."""
    start, end = 0, len(s)
    while start < end and s[start] <= " ":
        start += 1
    while end > start and s[end - 1] <= " ":
        end -= 1
    return s[start:end]


def java_split_space(s: str) -> list[str]:
    """`String.split(" ")`: no match gives [s]; trailing empty strings are dropped."""
    if " " not in s:
        return [s]
    parts = s.split(" ")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def java_parse_int(s: str) -> int:
    """`Integer.parseInt(s)`; raises InvalidOutput with Java's NumberFormatException text."""
    try:
        return textread.java_parse_int(s)
    except ValueError:
        raise InvalidOutput(f'For input string: "{visible(s, 40)}"') from None


def _token(tokens: list[str], i: int) -> str:
    if i >= len(tokens):
        raise InvalidOutput(f"Index {i} out of bounds for length {len(tokens)} (missing argument)")
    return tokens[i]


def parse_action(line: str) -> Move:
    """The action an output line means, or InvalidOutput with the referee's reason (syntax only)."""
    tokens = java_split_space(java_trim(line))
    if len(tokens) == 0:
        raise InvalidOutput("Index 0 out of bounds for length 0 (empty output)")
    if len(tokens) == 1:
        if tokens[0] == WAIT:
            return WAIT_MOVE
        raise InvalidOutput(f"{visible(tokens[0], 40)} is not a valid action")
    command = tokens[1]
    if command not in COMMANDS:
        raise InvalidOutput(f"No enum constant model.Action.Command.{visible(command, 40)} "
                            "(expected WAIT, or id MOVE x y / id SHOOT target / id CONVERT target)")
    if command == WAIT:
        raise InvalidOutput(f"{visible(tokens[0], 40)} {visible(tokens[1], 40)} is not a valid action")
    unit = java_parse_int(tokens[0])
    first = java_parse_int(_token(tokens, 2))
    if command == MOVE:
        return Move(MOVE, unit, first, java_parse_int(_token(tokens, 3)))
    return Move(command, unit, target=first)


def recorded_text(line: str) -> str:
    """How an accepted output is recorded: the line Java-trimmed (extra tokens kept, they are harmless)."""
    return java_trim(line)
