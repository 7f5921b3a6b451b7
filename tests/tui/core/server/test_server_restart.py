"""A real server process killed with SIGKILL mid-game, restarted on the same data folder: the players
come back with their tokens and the game goes on from every move they had seen, to its end."""
from __future__ import annotations

import asyncio
import os
import random
import signal

import pytest

from tests.helpers.server import Side, give_certificate, resume, server_process, start_game


@pytest.mark.slow
async def test_sigkill_mid_game_then_restart_resumes_with_no_move_lost(tmp_path):
    give_certificate(tmp_path)
    async with server_process(tmp_path) as (proc, ports):
        port = ports["tls"]
        a, b, game_id = await start_game(port, "lines-of-action")
        sides = [Side(a, random.Random(1), stop_after=9), Side(b, random.Random(2), stop_after=9)]
        await asyncio.gather(*(s.follow() for s in sides))
        seen = sides[0].moves
        assert len(seen) >= 9 and sides[1].moves[:9] == seen[:9]
        os.kill(proc.pid, signal.SIGKILL)
        await proc.wait()
    async with server_process(tmp_path) as (proc, ports):
        port = ports["tls"]
        back = [await resume(port, p.token) for p in (a, b)]
        for peer in back:
            assert int((await peer.expect("START")).words[0]) == game_id
        sides = [Side(back[0], random.Random(3)), Side(back[1], random.Random(4))]
        await asyncio.gather(*(s.follow() for s in sides))
        assert sides[0].moves[:len(seen)] == seen  # every move seen before the kill is there
        assert sides[0].moves == sides[1].moves and sides[0].game.is_over()
        assert sides[0].over.words[0] == str(game_id)
        proc.send_signal(signal.SIGTERM)
        assert await proc.wait() == 0
