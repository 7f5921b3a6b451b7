"""A test bot for any game: plays the first legal move the engine lists; `crash` / `junk` / `silent`
misbehave.

Usage: first_move_bot.py GAME [first|crash|junk|silent]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engines import get_game  # noqa: E402


def main() -> None:
    game_id, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "first")
    reader = get_game(game_id).input_reader()

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
        print(f"turn {turn}: thinking", file=sys.stderr, flush=True)
        if mode == "crash" and turn >= 2:
            print("about to crash", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "silent":
            continue
        if mode == "junk":
            print("hello", flush=True)
            continue
        move = game.legal_moves()[0]
        print(game.move_to_str(move), flush=True)
        reader.played(move)


if __name__ == "__main__":
    main()
