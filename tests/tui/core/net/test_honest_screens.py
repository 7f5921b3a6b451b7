"""Network screens offer only what can be done (issue 26 item 9): a watcher gets no move key, a joiner
whose host left sees its clocks stop and is offered a save, the host sees its watchers.  Loopback only."""
from __future__ import annotations

from tests.helpers.app import message, screen_text, status
from tests.helpers.net import client_app, host_app, listening, net_session, until
from tui.core.clock import parse_clock


def footer(app) -> str:
    return screen_text(app).splitlines()[-1]


async def test_the_watcher_is_offered_no_move_and_the_host_counts_its_watchers():
    from tui.commands import GameCommands
    from tui.screens.help import HelpScreen

    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        watcher = client_app(port, "watch")
        async with watcher.run_test(size=(80, 24)) as wp:
            await until(wp, lambda: net_session(watcher) is not None and "1 watcher connected" in status(host))
            screen = watcher._net_screen
            await wp.pause()
            assert "drop" not in footer(watcher) and "1-9" not in footer(watcher)
            assert screen.board.check_action("drop", (0,)) is False
            assert [name for name, _, _ in GameCommands(screen)._available()
                    if name in ("Type a move", "Hint: what would the AI play?", "Undo")] == []
            await wp.press("4")  # a move key says why it does nothing
            assert message(watcher) == "You are watching: the players make the moves"
            await wp.press("question_mark")
            assert isinstance(watcher.screen, HelpScreen)
            rows = dict(watcher.screen.key_rows)
            assert "1-9" not in str(rows) and ":" not in rows and "H" not in rows
        await until(hp, lambda: "watcher" not in status(host))  # the watcher left


async def test_when_the_host_leaves_the_joiners_clock_stops_and_saving_is_offered():
    host = host_app(clock=parse_clock("5+0"))
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        joiner = client_app(port)
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(joiner) is not None and host.net_link.connected)
            await hp.press("4")
            js = net_session(joiner)
            await until(jp, lambda: js.ply == 1 and js.clock.running == 1)
            host.net_link.close()  # what the host's app does on its way out
            screen = joiner._net_screen
            await until(jp, lambda: screen._lost is not None)
            assert js.clock.running is None  # stopped: only the host kept time
            assert screen.board.closed and screen.check_action("save", ("shown",)) is True
            await jp.pause()
            assert "save" in footer(joiner) and "drop" not in footer(joiner)
            await jp.press("5")
            assert message(joiner).startswith("Disconnected (the host closed the connection")
            assert js.ply == 1
