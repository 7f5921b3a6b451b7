"""Network screens offer only what can be done (issue 26 item 9): a watcher gets no move key, a joiner
whose host left sees its clocks stop and is offered a save, the host sees its watchers.  Loopback only."""
from __future__ import annotations

import pytest

from tests.helpers.app import message, screen_text, status
from tests.helpers.net import CODE, client_app, host_app, listening, net_session, until
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


async def test_the_joiner_and_the_watchers_see_how_many_watch():
    """Protocol version 2's WATCHERS: the joiner sees the count, a watcher the others (it counts itself)."""
    from tests.helpers.net import raw_peer

    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        joiner, watcher = client_app(port), client_app(port, "watch")
        async with joiner.run_test(size=(80, 24)) as jp, watcher.run_test(size=(80, 24)) as wp:
            await until(jp, lambda: "1 watcher connected" in status(joiner))
            await until(wp, lambda: "you are the only watcher" in status(watcher))
            async with raw_peer(port) as (reader, writer):  # a second watcher comes
                writer.write(f"HELLO termarena 2 watch {CODE}\n".encode())
                await until(jp, lambda: "2 watchers connected" in status(joiner))
                assert message(joiner) == "A watcher joined (2 watching)"
                await until(wp, lambda: "you and 1 other watcher" in status(watcher))
            await until(jp, lambda: "1 watcher connected" in status(joiner))  # and goes
            assert message(joiner) == "A watcher left (1 watching)"
            await until(wp, lambda: "you are the only watcher" in status(watcher))
        await until(hp, lambda: "watcher" not in status(host))


async def test_a_peer_of_protocol_version_1_is_never_sent_the_watcher_count():
    """An older client says HELLO in version 1: it is welcomed in version 1, and WATCHERS (which it would
    not know) never reaches it, while the count changes."""
    import asyncio

    from tests.helpers.net import raw_peer

    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        async with raw_peer(port) as (old, old_writer), raw_peer(port) as (_, new_writer):
            old_writer.write(f"HELLO termarena 1 play {CODE}\n".encode())
            assert (await asyncio.wait_for(old.readline(), 10)).startswith(b"WELCOME 1 play 2 connect4")
            new_writer.write(f"HELLO termarena 2 watch {CODE}\n".encode())
            await until(hp, lambda: "1 watcher connected" in status(host))
            await hp.press("4")  # a move after the watcher came: all the old peer gets is the game
            lines = []
            while not lines or not lines[-1].startswith(b"MOVE 1"):
                lines.append(await asyncio.wait_for(old.readline(), 10))
            assert not any(line.startswith(b"WATCHERS") for line in lines), lines


async def test_a_joiner_plays_with_a_host_of_protocol_version_1():
    """A host of version 1 refuses the HELLO of version 2: the joiner says HELLO again in version 1, is let
    in, and plays without a watcher count."""
    import asyncio

    hellos: list[bytes] = []

    async def old_host(reader, writer):
        hello = await reader.readline()
        hellos.append(hello)
        if not hello.startswith(b"HELLO termarena 1 "):
            writer.write(b"BYE protocol version 2 is not supported (this host speaks 1)\n")
        else:
            writer.write(b"WELCOME 1 play 2 connect4 5 - 1\nMOVE 1 4\n")
            await reader.read(10_000)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(old_host, "127.0.0.1", 0)
    async with server:
        joiner = client_app(server.sockets[0].getsockname()[1])
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(joiner) is not None and net_session(joiner).ply == 1)
            assert [h.split()[2] for h in hellos] == [b"2", b"1"]
            assert "watcher" not in status(joiner)
            assert joiner._net_screen._lost is None


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_the_joiner_is_told_whom_it_plays_and_the_game_over_panel_offers_no_new_game():
    from tests.helpers.net import hosted_game
    from tui.screens.dialogs import GameOverScreen

    async with hosted_game() as (host, hp, joiner, jp):
        await until(jp, lambda: message(joiner) == "Connected: you play Yellow")  # whom you play, once in
        js = net_session(joiner)
        for n, (pilot, key) in enumerate([(hp, "1"), (jp, "2")] * 3 + [(hp, "1")], 1):
            await pilot.press(key)
            await until(jp, lambda: js.ply == n)
        await until(jp, lambda: isinstance(joiner.screen, GameOverScreen))
        dialog = joiner.screen
        assert not dialog.query("#new") and dialog.focused.id == "close"
        await jp.press("n")  # the key leads back to the board, which says why
        assert message(joiner) == "A network game ends here: ctrl+q quits, ctrl+s saves it"
