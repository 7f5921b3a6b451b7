"""The load generator plays real games against a real server (in this process, over loopback TLS):
every game it starts ends, every move is acknowledged and timed, watchers follow games, nothing is
refused.  Bounded by counts (20 games, one each pair), never by time."""
from __future__ import annotations

import dataclasses

from tests.helpers.server import running_server
from tui.core.server.lobby import ServerLimits
from tui.tools.load_server import run_load


async def test_twenty_games_at_once_all_end_with_every_move_timed(tmp_path):
    limits = dataclasses.replace(ServerLimits(), connections=100)
    async with running_server(tmp_path, limits) as (server, port):
        report = await run_load(port, 20, watchers=4, rounds=1)
        assert report.errors == []
        assert report.finished == 20
        assert report.moves > 20 * 4 and len(report.latencies) == report.moves
        assert server.games == {} and len(server.store.finished(None, 100)) == 20
        assert any("games a second" in line for line in report.lines())
