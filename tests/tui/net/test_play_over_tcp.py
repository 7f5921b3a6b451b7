"""Two apps, one host and one joiner, play over a real TCP connection on loopback; a watcher follows."""
from __future__ import annotations

from tests.tui.helpers import message
from tests.tui.net.helpers import client_app, host_app, listening, net_session, until


async def test_two_apps_play_a_whole_connect4_game_and_a_watcher_sees_every_move():
    host = host_app()
    async with host.run_test(size=(100, 30)) as hp:
        port = await listening(hp)
        joiner, watcher = client_app(port), client_app(port, "watch")
        async with joiner.run_test(size=(100, 30)) as jp, watcher.run_test(size=(100, 30)) as wp:
            await until(jp, lambda: net_session(joiner) is not None and host.net_link.connected)
            await until(wp, lambda: net_session(watcher) is not None)
            hs, js = net_session(host), net_session(joiner)
            for n, (pilot, key) in enumerate([(hp, "1"), (jp, "2")] * 3 + [(hp, "1")], 1):
                await pilot.press(key)
                try:
                    await until(jp, lambda: js.ply == n and hs.ply == n and net_session(watcher).ply == n)
                except AssertionError:
                    raise AssertionError((n, hs.notation, js.notation, net_session(watcher).notation, message(host), message(joiner)))
            assert hs.outcome().winner == 0 and js.outcome().winner == 0
            assert net_session(watcher).notation == hs.notation == js.notation == ["0", "1"] * 3 + ["0"]
            assert net_session(watcher).outcome().winner == 0
