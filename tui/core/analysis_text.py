"""What `termarena analyse` prints: the text table (one row a move, then each side's count of labels) and
the JSON object, both with the moves in the game's player notation (as the app shows them)."""
from __future__ import annotations

from ai.analysis import LABELS, GameAnalysis, analysis_json
from engines import get_game
from engines.visible import visible
from tui.core.words import counted

PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def analysis_table(analysis: GameAnalysis, players: tuple[str, str]) -> str:
    """Win probabilities as percentages from the mover's side; the best move only where it differs.
    The players' names and the moves come from the file: their control characters are escaped."""
    shown = get_game(analysis.game).output_to_player
    # `turn`: the app's "Turn 7" and the move list's 7, counted from the game's first turn when the file
    # starts from a position (the JSON keeps the contract's `ply` and adds `turn`)
    rows = [("turn", "side", "move", "win%", "best", "best%", "label")]
    for v in analysis.moves:
        differs = v.best != v.move
        rows.append((str(analysis.turn(v.ply)), f"p{v.seat + 1}", visible(shown(v.move)), f"{100 * v.eval:.0f}",
                     visible(shown(v.best)) if differs else "", f"{100 * v.best_eval:.0f}" if differs else "",
                     v.label or ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {0, 3, 5}
    lines = ["  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in rows]
    for seat, name in enumerate(players):
        counts = [sum(1 for v in analysis.moves if v.seat == seat and v.label == label) for label in LABELS]
        lines.append(f"p{seat + 1} {visible(name)}: " + ", ".join(counted(n, label, PLURAL[label])
                                                        for n, label in zip(counts, LABELS)))
    return "\n".join(lines) + "\n"


def analysis_object(analysis: GameAnalysis) -> dict:
    """The `analyse --json` object: `move` and `best` in the player's notation (SPEC, "Notation"), and
    for bot authors `move_protocol` and `best_protocol` in CodinGame's, as the save file and a bot write
    them.  `seat` stays the 0-based index; `turn` is the game's number of the move (the text's column:
    `ply` plus the turns before a position the file starts from)."""
    shown = get_game(analysis.game).output_to_player
    out = analysis_json(analysis)
    for entry in out["moves"]:
        entry["turn"] = analysis.turn(entry["ply"])
        entry["move_protocol"], entry["best_protocol"] = entry["move"], entry["best"]
        entry["move"], entry["best"] = shown(entry["move"]), shown(entry["best"])
    return out
