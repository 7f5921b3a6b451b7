"""Whole games for the network tests, one of each kind besides Connect 4: found by random play from the
start of seed 5 (the map of the Cultist Wars game), the shortest of a few thousand tries."""

WHOLE_GAMES = {
    "paper-soccer": [
        "5", "5", "3", "3", "53",
    ],
    "lines-of-action": [
        "g1a1", "h5f7", "e8e6", "a4c4", "f1h3", "a7b6", "b1d3", "f7d7", "c1a3", "a2e6", "e1g3", "b6f6",
        "d1e2", "a5b4", "f8a8", "a6c8", "b8a7", "b4d6", "d8h8", "d6g3", "d3d1", "c8g8", "a7d7", "c4f7",
        "h3g2", "g8g5",
    ],
    "cultist-wars": [
        "WAIT", "1 MOVE 12 2", "0 MOVE 0 4", "1 MOVE 11 2", "0 MOVE 1 4", "1 MOVE 12 2", "WAIT",
        "1 MOVE 11 2", "0 MOVE 2 4", "WAIT", "0 MOVE 2 3", "WAIT", "0 MOVE 3 3", "WAIT", "0 MOVE 2 3",
        "1 MOVE 10 2", "0 MOVE 2 4", "WAIT", "WAIT", "1 MOVE 9 2", "0 MOVE 3 4", "1 MOVE 9 3", "0 MOVE 4 4",
        "1 MOVE 9 4", "0 CONVERT 7", "1 MOVE 8 4", "7 MOVE 6 4", "1 MOVE 8 3", "7 SHOOT 12", "1 MOVE 7 3",
        "7 SHOOT 8", "1 MOVE 6 3", "7 SHOOT 8", "1 MOVE 5 3", "0 MOVE 3 4", "WAIT", "7 SHOOT 1",
    ],
}
