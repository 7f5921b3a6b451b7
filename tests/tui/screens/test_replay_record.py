"""Replaying a recorded game as a player would: `termarena replay FILE` opens on the replay; stepping shows
both bots' answers, times and stderr for the turn on the board; `f` jumps to the turn where the bot timed
out, with the final reason in words; `?` lists the replay's keys; the load screen opens it too; a wide
terminal gets a wider panel."""
from __future__ import annotations

import shutil
from pathlib import Path

from tests.helpers.app import SIZE, make_app, wait_until
from tui.core.storage import load_game
from tui.screens.help import KeysScreen
from tui.screens.load import LoadScreen
from tui.screens.replay import ReplayScreen
from tui.widgets.record_panel import RecordPanel
from tests.helpers.paths import ROOT

V2 = ROOT / "tests" / "data" / "saves" / "v2"
TIMEOUT = V2 / "connect4-recorded-timeout.txt"


def replay_app(path: Path = TIMEOUT):
    saved, _ = load_game(path)
    return make_app(replay=saved, replay_title=path.stem)


def panel(screen) -> str:
    return str(screen.query_one("#record-text").render())


def info(screen) -> str:
    return str(screen.query_one("#replay-info").render())


async def test_stepping_a_recorded_replay_shows_each_turns_stderr_and_times():
    app = replay_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.ply == 0 and replay.last == 6
        assert "Recorded: 6 turns" in panel(replay)
        await pilot.press("right")
        text = panel(replay)
        assert "Turn 1 Red" in text and "answer '0' in 456 ms" in text and "Yellow: no answer yet" in text
        assert "Red stderr (2)\n hello\n turn 1: playing 0" in text
        # the waiting bot's lines of that turn, escaped: no raw control character reaches the screen
        assert "Yellow stderr (2)\n hello\n tab\\there \\x1b[2J [final] \\\\ back\\x20" in text
        assert "\x1b" not in text
        await pilot.press("right")
        text = panel(replay)
        assert "Turn 2 Yellow" in text and "in 5 ms" in text and "Red: 456 ms on turn 1" in text
        assert "Yellow stderr (1)\n turn 1: playing 0" in text and "Red stderr: nothing" in text
        await pilot.press("left")
        assert "Turn 1 Red" in panel(replay)


async def test_f_jumps_to_the_turn_the_bot_timed_out_with_the_reason_in_words_and_is_in_the_help():
    app = replay_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        replay = app.screen
        assert replay.check_action("go_fault", ()) is True
        await pilot.press("f")
        assert replay.ply == 6 and replay.session.ply == 5 and replay.session.is_over()
        text = panel(replay)
        assert "Turn 6 Yellow\nno answer after 100 ms" in text
        assert "Yellow stderr (1)\n turn 3: about to sleep" in text
        assert "Yellow's bot: no answer within 100 ms" in " ".join(text.split())
        assert "turn 6: the game's end" in info(replay) and "Red wins: Out of time" in info(replay)
        assert replay.check_action("go_fault", ()) is False and replay.check_action("step", (1,)) is False
        await pilot.press("left")  # the last move: the game is not over yet on the board
        assert replay.ply == 5 and not replay.session.is_over() and "Turn 5 Red" in panel(replay)
        await pilot.press("end")
        assert replay.ply == 6
        await pilot.press("question_mark")  # the help lists the key with what it does
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen)
        assert dict(app.screen.key_rows)["f"] == "jump to the turn where a bot timed out, crashed or was refused"
        await pilot.press("escape")
        assert app.screen is replay


async def test_a_game_that_ended_normally_has_no_fault_turn_and_leaving_ends_the_command():
    app = replay_app(V2 / "lines-of-action-recorded.txt")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        replay = app.screen
        assert replay.fault is None and replay.last == 30 and replay.check_action("go_fault", ()) is False
        await pilot.press("end")
        assert "Turn 30 White" in panel(replay) and "White wins" in info(replay)
        await pilot.press("escape")  # `termarena replay FILE` has no page under the replay: it ends
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running


async def test_the_load_screen_replays_a_recorded_game(_saves_in_a_temporary_folder):
    shutil.copy(TIMEOUT, _saves_in_a_temporary_folder / TIMEOUT.name)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l")
        load = app.screen
        assert isinstance(load, LoadScreen)
        await wait_until(pilot, lambda: load.loaded)
        assert "recorded: 6 turns" in str(load.query_one("#load-facts").render())
        await pilot.press("v")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.query(RecordPanel)
        await pilot.press("right")
        assert "Turn 1 Red" in panel(replay)


async def test_a_wide_terminal_gets_a_wider_side_panel():
    widths = []
    for size in (SIZE, (140, 40)):
        app = replay_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            widths.append(app.screen.query_one("#side").size.width)
    assert widths[0] < 30 and widths[1] >= 55

