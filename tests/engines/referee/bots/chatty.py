"""A bot that tells on stderr what it does each turn: chatty.py GAME [TURN HOW]

It reads each turn with the engine's own InputReader and plays the first legal move, writing
`turn N: playing M` on stderr just before the answer (and `hello` at its start).  On its turn TURN it
misbehaves: HOW is `sleep` (no answer, it waits), `garbage` (answers `hello`) or `crash` (exits 3).
"""
import sys
import time

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0])

from engines import get_game  # noqa: E402

game_id = sys.argv[1]
bad_turn, how = (int(sys.argv[2]), sys.argv[3]) if len(sys.argv) > 3 else (0, "")
reader = get_game(game_id).input_reader()
sys.stderr.write("hello\n")
sys.stderr.flush()


def readline():
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


turn = 0
while True:
    try:
        state = reader.read_turn(readline)
    except EOFError:
        break
    turn += 1
    move = state.move_to_str(state.legal_moves()[0])
    if turn == bad_turn:
        sys.stderr.write(f"turn {turn}: about to {how}\n")
        sys.stderr.flush()
        if how == "sleep":
            time.sleep(30)
        elif how == "crash":
            sys.exit(3)
        elif how == "garbage":
            move = "hello"
    sys.stderr.write(f"turn {turn}: playing {move}\n")
    sys.stderr.flush()
    print(move, flush=True)
    if move != "hello":
        reader.played(state.parse_output(move))
