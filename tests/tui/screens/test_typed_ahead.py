"""Keys typed faster than the app draws are not lost: `:5⏎` arriving at once (a fast typist; an ssh
connection delivering a burst) plays the move, and ctrl+s then a name then Enter saves under that name.

Textual hands each key to the widget focused when the key arrives, so the keys of a burst after the one
that opens a dialog used to go to the board underneath, or to the dialog before its input had the
focus, and were dropped (Enter then submitted an empty input: nothing happened, nothing was said)."""
from __future__ import annotations

import pytest
from textual.events import Key

from engines import get_game
from tests.helpers.app import SIZE, make_app, message, session, wait_until
from tui.screens.game import GameScreen

NAMES = {":": "colon", "\r": "enter", " ": "space", "\x13": "ctrl+s"}


def burst(app, keys: str) -> None:
    """Every key of `keys` handed to the app before it handles the first, as the terminal's driver does
    with the keys of one read (Pilot.press waits for each key to be handled, which hides the problem)."""
    for char in keys:
        name = NAMES.get(char, char)
        app.post_message(Key(name, None if name == "ctrl+s" else char))


@pytest.mark.parametrize("game_id", ["connect4", "lines-of-action", "paper-soccer", "cultist-wars"])
async def test_a_move_typed_in_one_burst_after_the_colon_is_played(game_id):
    cls = get_game(game_id)
    app = make_app(game_id, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        move = cls.output_to_player(session(app).game.move_to_str(session(app).game.legal_moves()[-1]))
        burst(app, f":{move}\r")
        await wait_until(pilot, lambda: session(app).ply == 1, timeout=5)
        assert cls.output_to_player(session(app).notation[0]) == move
        assert isinstance(app.screen, GameScreen)  # the prompt closed with the move


async def test_a_name_typed_in_one_burst_after_ctrl_s_is_the_saves_name(_saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    app = make_app("c4", moves=["3"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "\x13my game\r")
        await wait_until(pilot, lambda: (folder / "my game.txt").is_file(), timeout=5)
        assert isinstance(app.screen, GameScreen) and "Saved to" in message(app)
