"""Two apps, one host and one joiner, play over a real TCP connection on loopback; a watcher follows."""
from __future__ import annotations

import asyncio
import time

import pytest

from engines.savefile import dump, parse
from tests.helpers.app import message
from tests.helpers.whole_games import WHOLE_GAMES
from tests.helpers.net import client_app, host_app, hosted_game, listening, net_session, until


async def arrived(condition, timeout: float = 20.0) -> None:
    """Wait for a move to reach both apps without a redraw each time (a whole game is many moves)."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the move did not arrive"
        await asyncio.sleep(0.005)


@pytest.mark.slow  # three apps, a whole game
async def test_two_apps_play_a_whole_connect4_game_and_a_watcher_sees_every_move():
    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        joiner, watcher = client_app(port), client_app(port, "watch")
        async with joiner.run_test(size=(80, 24)) as jp, watcher.run_test(size=(80, 24)) as wp:
            await until(jp, lambda: net_session(joiner) is not None and host.net_link.connected)
            await until(wp, lambda: net_session(watcher) is not None)
            hs, js = net_session(host), net_session(joiner)
            for n, (pilot, key) in enumerate([(hp, "1"), (jp, "2")] * 3 + [(hp, "1")], 1):
                await pilot.press(key)
                await until(jp, lambda: js.ply == n and hs.ply == n and net_session(watcher).ply == n)
            assert hs.outcome().winner == 0 and js.outcome().winner == 0
            assert net_session(watcher).notation == hs.notation == js.notation == ["0", "1"] * 3 + ["0"]
            assert net_session(watcher).outcome().winner == 0
            for app in (host, joiner, watcher):  # every side can save the game: it loads as a game at one keyboard
                saved, final = parse(dump(net_session(app).to_saved(), net_session(app).game))
                assert saved.moves == hs.notation and saved.players == ("human", "human") and final.outcome()


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_the_joiner_drops_and_rejoins_and_gets_the_game_so_far():
    host = host_app()
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        first = client_app(port)
        async with first.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: host.net_link.connected)
            await hp.press("5")
            await until(jp, lambda: net_session(first).ply == 1)
            await jp.press("3")
            await until(hp, lambda: net_session(host).ply == 2)
        # the joiner's app is gone (a closed terminal, a lost connection): the host says so and waits
        await until(hp, lambda: not host.net_link.connected and "away" in str(
            host.screen.query_one("#thinking").render()))
        await hp.press("5")
        await until(hp, lambda: net_session(host).ply == 3)
        second = client_app(port)
        async with second.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(second) is not None and net_session(second).ply == 3)
            assert net_session(second).notation == ["4", "2", "4"]
            assert "joined" in message(host) or "back" in message(host)
            await jp.press("1")
            await until(hp, lambda: net_session(host).notation == ["4", "2", "4", "0"])


async def test_a_flag_falls_on_the_host_and_both_sides_see_the_game_end_on_time():
    from tui.core.clock import parse_clock

    now = [100.0]
    host = host_app(clock=parse_clock("0.5+0"), clock_now=lambda: now[0])
    async with host.run_test(size=(80, 24)) as hp:
        port = await listening(hp)
        now[0] += 1000  # nobody's clock runs before the opponent joins
        joiner = client_app(port)
        async with joiner.run_test(size=(80, 24)) as jp:
            await until(jp, lambda: net_session(joiner) is not None and host.net_link.connected)
            assert net_session(host).clock.left(0) == 30.0
            await hp.press("5")
            await until(jp, lambda: net_session(joiner).ply == 1)
            now[0] += 31  # the joiner (Yellow) thinks too long
            await until(jp, lambda: net_session(joiner).is_over())
            for app in (host, joiner):
                out = net_session(app).outcome()
                assert out.reason == "timeout" and out.winner == 0
            await jp.press("3")  # too late: nothing is played
            assert net_session(host).ply == 1


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_undo_needs_the_other_sides_agreement():
    async with hosted_game() as (host, hp, joiner, jp):
        await hp.press("5")
        await until(jp, lambda: net_session(joiner).ply == 1)
        await jp.press("u")
        assert "no move to take back" in message(joiner)
        await jp.press("3")
        await until(hp, lambda: net_session(host).ply == 2)
        await jp.press("u")  # the joiner asks; the host refuses
        await until(hp, lambda: type(host.screen).__name__ == "ConfirmScreen")
        await jp.press("u")  # one request at a time
        assert "asked already" in message(joiner)
        await hp.press("n")
        await until(jp, lambda: "said no" in message(joiner))
        assert net_session(host).ply == 2
        await jp.press("u")  # asks again; the host agrees: back to the joiner's turn
        await until(hp, lambda: type(host.screen).__name__ == "ConfirmScreen")
        await hp.press("y")
        await until(jp, lambda: net_session(joiner).notation == ["4"] and net_session(host).notation == ["4"])
        await hp.press("u")  # the host asks; the joiner agrees: back to the host's turn
        await until(jp, lambda: type(joiner.screen).__name__ == "ConfirmScreen")
        await jp.press("y")
        await until(jp, lambda: net_session(joiner).ply == 0 and net_session(host).ply == 0)


# the two long games are slow (one move after another through both apps); Paper Soccer's 5 turns stay quick
@pytest.mark.parametrize("game", [pytest.param(g, marks=[pytest.mark.slow] if len(moves) > 10 else [])
                                  for g, moves in WHOLE_GAMES.items()])
async def test_a_whole_game_of_each_kind_is_played_over_tcp(game):
    """Each game's notation travels both ways (digit strings, `3 MOVE 4 5` with spaces, `b1d3`), refereed
    by the host's engine and checked by the joiner's, to the same end on both sides."""
    async with hosted_game(game) as (host, hp, joiner, jp):
        hs, js = net_session(host), net_session(joiner)
        assert js.game.key() == hs.game.key()  # the same map (Cultist Wars: the seed went across)
        for n, text in enumerate(WHOLE_GAMES[game], 1):
            mover = host if hs.to_move() == 0 else joiner
            mover._net_screen.board.choose(text)
            await arrived(lambda: hs.ply == n and js.ply == n)
        assert js.notation == hs.notation == WHOLE_GAMES[game]
        assert hs.is_over() and js.outcome() == hs.outcome()
        for app, pilot in ((host, hp), (joiner, jp)):  # both show the game-over dialog
            await until(pilot, lambda: type(app.screen).__name__ == "GameOverScreen")


async def test_a_host_in_seat_2_lets_the_joiner_move_first_and_refuses_moves_out_of_turn():
    async with hosted_game(seat=1) as (host, hp, joiner, jp):
        assert net_session(joiner).specs[0].kind == "human" and net_session(host).specs[1].kind == "human"
        await hp.press("5")  # not the host's turn: nothing happens
        await jp.press("5")
        await until(hp, lambda: net_session(host).notation == ["4"])
        await jp.press("5")  # not the joiner's turn now: checked locally, nothing is sent
        await hp.press("6")
        await until(jp, lambda: net_session(joiner).notation == ["4", "5"])


@pytest.mark.slow  # two hosts in turn: over 1 s
async def test_a_joiner_whose_host_restarted_with_another_game_stops_following_it():
    async with hosted_game() as (first, hp, joiner, jp):
        await hp.press("5")
        await until(jp, lambda: net_session(joiner).ply == 1)
        link = first.net_link  # the host dies without a word (killed): its sockets are just gone
        link._server.close()
        link.player.writer.transport.abort()
        await until(jp, lambda: "trying again" in message(joiner))
        async with host_app(port=link.port, seed=6).run_test(size=(80, 24)):
            await until(jp, lambda: "another game" in message(joiner))
            assert net_session(joiner).notation == ["4"]
