"""Games scripted move by move for the app tests and the snapshots (hot seat: no AI, the same every run)."""
from __future__ import annotations

# Seed 1: Red's leader walks to neutral 4 and converts it; the new cultist walks towards Blue's leader,
# who walks towards it, and shoots it four times (1+2+3+4 damage): Blue has no unit left after 15 turns.
ELIMINATION = ["0 CONVERT 4", "1 MOVE 1 3", "0 CONVERT 4", "1 MOVE 1 4", "4 SHOOT 1", "1 MOVE 2 4", "4 SHOOT 1",
               "1 MOVE 3 4", "4 SHOOT 1", "1 MOVE 3 4", "4 SHOOT 1", "1 MOVE 3 4", "4 SHOOT 1", "1 MOVE 3 4",
               "4 SHOOT 1"]

# Lines of Action: Black gathers its checkers while White spreads out of the way: Black connects on ply 11.
SHORT_GAME = ["g1e3", "h7h1", "e1e4", "a6c8", "e8e5", "h6f8", "d8d6", "c8g8", "b8f4", "f8h8", "f1e2"]

MID_GAME = {
    # game: (seed, moves already played, keys pressed then)
    "connect4": (None, ["4", "STEAL", "3", "3", "2", "5", "4", "4"], ["left"]),
    "lines-of-action": (None, SHORT_GAME[:6], ["enter"]),  # d1 selected: its destinations marked
    "paper-soccer": (None, ["0", "2", "4", "70", "5"], ["d"]),  # a bounce: the turn being built
    # cultist 4 aims at Blue's leader, from the cursor on Red's leader: the shot's preview
    "cultist-wars": (1, ELIMINATION[:8], ["tab", "down", *["right"] * 8, "f"]),
}
