"""Plays one seat of a game logged by the official referee: replay.py GAME INDEX SEAT.

It reads each turn with the engine's own InputReader (so it consumes exactly one turn of input) and
answers the logged output of its seat, so a whole official game can be re-refereed by termarena.
"""
import sys

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0])

from engines import get_game  # noqa: E402
from tests.helpers.conformance_data import logged_games  # noqa: E402

game_id, index, seat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
logged = logged_games(game_id)[index]
mine = [t.output for t in logged.turns if t.seat == seat]
reader = get_game(game_id).input_reader()


def readline():
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


for output in mine:
    try:
        state = reader.read_turn(readline)
    except EOFError:
        break
    print(output, flush=True)
    reader.played(state.parse_output(output))
