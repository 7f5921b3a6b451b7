"""The text table `termarena analyse` prints: one row a move, then each side's count of labels."""
from __future__ import annotations

from ai.analysis import LABELS, GameAnalysis
from engines.visible import visible

PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def analysis_table(analysis: GameAnalysis, players: tuple[str, str]) -> str:
    """Win probabilities as percentages from the mover's side; the best move only where it differs.
    The players' names and the moves come from the file: their control characters are escaped."""
    rows = [("ply", "side", "move", "win%", "best", "best%", "label")]
    for v in analysis.moves:
        rows.append((str(v.ply), f"p{v.seat + 1}", visible(v.move), f"{100 * v.eval:.0f}",
                     "" if v.best == v.move else v.best, "" if v.best == v.move else f"{100 * v.best_eval:.0f}",
                     v.label or ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {0, 3, 5}
    lines = ["  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in rows]
    for seat, name in enumerate(players):
        counts = [sum(1 for v in analysis.moves if v.seat == seat and v.label == label) for label in LABELS]
        lines.append(f"p{seat + 1} {visible(name)}: " + ", ".join(f"{n} {PLURAL[label] if n != 1 else label}"
                                                        for n, label in zip(counts, LABELS)))
    return "\n".join(lines) + "\n"
