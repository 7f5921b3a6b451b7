"""A test bot for any game: plays the first legal move the engine lists, telling on stderr what it does
(`hello` at its start, `turn N: playing MOVE` before each answer); `crash` / `junk` / `silent` / `sleep`
misbehave from its turn TURN on (default: 2 for crash, 1 for the others), after saying
`turn N: about to MODE` on stderr: exit with status 3, answer `hello`, never answer, sleep 30 s.

Usage: first_move_bot.py GAME [first|crash|junk|silent|sleep] [TURN]
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engines import get_game  # noqa: E402


def main() -> None:
    game_id, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "first")
    bad_turn = int(sys.argv[3]) if len(sys.argv) > 3 else (2 if mode == "crash" else 1)
    reader = get_game(game_id).input_reader()
    print("hello", file=sys.stderr, flush=True)

    def readline() -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    turn = 0
    while True:
        try:
            game = reader.read_turn(readline)
        except EOFError:
            return
        turn += 1
        if mode != "first" and turn >= bad_turn:
            print(f"turn {turn}: about to {mode}", file=sys.stderr, flush=True)
            if mode == "crash":
                sys.exit(3)
            if mode == "junk":
                print("hello", flush=True)
            if mode == "sleep":
                time.sleep(30)
            continue
        move = game.legal_moves()[0]
        print(f"turn {turn}: playing {game.move_to_str(move)}", file=sys.stderr, flush=True)
        print(game.move_to_str(move), flush=True)
        reader.played(move)


if __name__ == "__main__":
    main()
