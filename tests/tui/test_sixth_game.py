"""A sixth game defined only in the tests (tic-tac-toe, tests/helpers/tictactoe) and registered through
the registry as any game defined outside termarena would be: it plays end to end through `referee`,
`bot`, `match`, `analyse`, save files and the app, with no edit to any shared module.  The processes
these commands start (bots, the AI worker) learn the game from $TERMARENA_EXTRA_GAMES."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engines import get_game
from engines.savefile import SavedGame, dump, parse, result_text
from tests.helpers.app import SIZE, make_app, session, wait_until
from tests.helpers.app import open_load_screen, text_of
from tui.core.storage import load_game, save_game
from tui.screens.dialogs import GameOverScreen
from tui.screens.game import GameScreen
from tui.screens.replay import ReplayScreen
from tui.screens.save import SaveScreen

# X takes the top row while O lets it: O's 8 (not 2) is the blunder, X wins on move 5
BLUNDER = ["0", "4", "1", "8", "2"]


def termarena(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tui", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def replayed(moves) -> object:
    game = get_game("ttt").new()
    for move in moves:
        game.play(move)
    return game


@pytest.mark.slow  # real bot processes
def test_referee_plays_it_between_two_bot_processes_and_the_record_replays(tictactoe):
    done = termarena("referee", "ttt", "--p1", "ai:6", "--p2", "ai:1", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    final = replayed(out["moves"])
    assert out["game"] == tictactoe and final.outcome() is not None
    assert (out["winner"], out["reason"]) == (final.outcome().winner, final.outcome().reason)


@pytest.mark.slow  # termarena as a real process
def test_the_bot_answers_the_referees_input_and_takes_a_win_in_one(tictactoe):
    game = replayed(["0", "4", "1", "8"])  # X to move: 2 completes the top row
    done = termarena("bot", "ttt", "--level", "6", stdin="\n".join(game.bot_input(first=True)) + "\n")
    assert done.returncode == 0, done.stderr
    game.play(done.stdout.strip())
    assert game.outcome().winner == 0


@pytest.mark.slow  # real bot processes
def test_a_match_plays_colour_swapped_games(tictactoe):
    done = termarena("match", "ttt", "ai:1", "ai:6", "-n", "2", "--json")
    assert done.returncode == 0, done.stderr
    pair = json.loads(done.stdout)["pairs"][0]
    assert pair["wins"] + pair["draws"] + pair["losses"] == 2 and pair["errors"] == []


@pytest.mark.slow  # termarena as a real process
def test_a_save_round_trips_and_analyse_labels_the_blunder(tictactoe, tmp_path):
    final = replayed(BLUNDER)
    result, reason = result_text(final)
    path = tmp_path / "ttt.txt"
    save_game(path, SavedGame(game="ttt", moves=BLUNDER, players=("ai:6", "ai:1"), result=result, reason=reason),
              final)
    saved, loaded = load_game(path)
    assert (saved.game, saved.moves, saved.result) == (tictactoe, BLUNDER, "1-0") and loaded.key() == final.key()
    assert parse(dump(saved, loaded))[0].moves == BLUNDER
    done = termarena("analyse", str(path), "--json", "--think-ms", "500")
    assert done.returncode == 0, done.stderr
    labels = {m["ply"]: m["label"] for m in json.loads(done.stdout)["moves"]}
    assert labels[4] == "blunder" and labels[5] is None


async def test_the_app_plays_it_against_the_ai_then_saves_and_loads_it(tictactoe):
    app = make_app("ttt", p1="human", p2="ai:6")
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        while not s.is_over():
            await wait_until(pilot, lambda: s.is_over() or s.human_to_move())
            if not s.is_over():  # corners first, then the rest: keys 1-9 are the cells
                free = next(k for k in (0, 2, 6, 8, 1, 3, 5, 7, 4) if s.game.cell(k) == ".")
                await pilot.press(str(free + 1))
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        headline = str(app.screen.query_one("#result-headline").render())
        assert headline in ("Noughts wins", "Draw")  # the engine's side names; level 6 never loses
        moves = list(s.notation)
        await pilot.press("escape", "ctrl+s")
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        load = await open_load_screen(pilot)
        assert load.selected().game == tictactoe and load.selected().turns == len(moves)
        assert "X" in text_of(load, "#load-preview")  # the board module's preview
        await pilot.press("enter")  # a finished game opens in replay
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.length == len(moves)
