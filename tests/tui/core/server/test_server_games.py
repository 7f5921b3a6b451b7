"""Two players meet in the server's lobby over TLS and play whole games through its protocol (random
legal moves, clocks running), a watcher follows every move, ratings change, the save is downloadable."""
from __future__ import annotations

import asyncio
import base64
import random

import pytest

from engines.savefile import parse
from tests.helpers.server import Peer, Side, login, running_server, start_game


async def play_whole_game(data, game: str, seed: int) -> None:
    async with running_server(data) as (server, port):
        a, b, game_id = await start_game(port, game)
        watcher = await login(port, "carol")
        games = await watcher.listed("games")
        assert [int(g.words[0]) for g in games] == [game_id]
        watcher.send("WATCH", game_id)
        await watcher.expect("START")
        sides = await asyncio.gather(Side(a, random.Random(seed)).follow(), Side(b, random.Random(seed + 1)).follow(),
                                     Side(watcher).follow())
        moves = sides[0].moves
        assert sides[0].game.is_over()
        assert sides[1].moves == moves and sides[2].moves == moves  # the watcher saw every move
        result = sides[0].over.words[1]
        assert {s.over.words[1] for s in sides} == {result}

        ratings = {r.words[1]: float(r.words[2]) for r in await watcher.listed("ratings", game)}
        assert set(ratings) == {"alice", "bob"}
        if result != "1/2-1/2":
            winner = sides[0].peer.name if (result == "1-0") == (sides[0].seat == 0) else sides[1].peer.name
            loser = ({"alice", "bob"} - {winner}).pop()
            assert ratings[winner] > ratings[loser]

        history = await a.listed("history", "alice")
        assert [(int(g.words[0]), g.words[6]) for g in history] == [(game_id, result)]
        a.send("FETCH", game_id)
        size = int((await a.expect("SAVE")).words[1])
        text = b""
        while len(text) < size:
            text += base64.b64decode((await a.expect("DATA")).words[0])
        saved, final = parse(text.decode())
        assert saved.moves == moves and saved.result == result and final.is_over()
        assert {saved.players[0], saved.players[1]} == {"alice", "bob"} and "clock" in saved.extra
        for p in (a, b, watcher):
            p.close()


async def test_connect4_whole_game_over_tls_with_a_watcher_and_ratings(tmp_path):
    await play_whole_game(tmp_path, "connect4", 1)


@pytest.mark.parametrize("game", ["paper-soccer", "cultist-wars", "lines-of-action"])
async def test_the_other_games_whole_over_tls(tmp_path, game):
    await play_whole_game(tmp_path, game, 2)


async def test_an_illegal_or_early_move_is_refused_and_the_game_goes_on(tmp_path):
    async with running_server(tmp_path) as (server, port):
        a, b, game_id = await start_game(port)
        welcome = [await p.expect("WELCOME") for p in (a, b)]
        first, second = (a, b) if welcome[0].words[2] == "1" else (b, a)
        second.send("MOVE", 1, text="0")
        assert (await second.expect("REFUSED")).text == "it is not your turn"
        first.send("MOVE", 1, text="banana")
        assert "illegal move" in (await first.expect("REFUSED")).text
        first.send("MOVE", 1, text="3")
        assert (await second.expect("MOVE")).text == "3"
        second.send("UNDO", "ASK")
        assert (await second.expect("UNDO")).words == ("NO",)
        # column 4 (the wire's "3") filled, then once more: refused in the player's numbers, as the app
        # says a refusal (the referee's own reason quotes its column "3")
        for number in range(2, 8):
            (second if number % 2 == 0 else first).send("MOVE", number, text="3")
            for peer in (first, second):  # each hears every move played, its own too
                while (await peer.expect("MOVE")).words != (str(number),):
                    pass
        second.send("MOVE", 8, text="3")
        assert (await second.expect("REFUSED")).text == (
            "illegal move '4': Chosen column is already filled: wrong action \"4\" (Already filled column)")


async def test_a_clock_that_falls_ends_the_game_and_rates_it(tmp_path):
    async with running_server(tmp_path) as (server, port):
        a, b, game_id = await start_game(port, clock="0.005")  # 0.3 s each: whoever is to move loses
        ends = await asyncio.gather(*(p.expect("END") for p in (a, b)))
        assert ends[0].words[1] == "timeout"
        over = await a.expect("OVER")
        assert over.words[2] == "timeout"
        assert len(await a.listed("ratings", "connect4")) == 2


async def test_a_casual_game_changes_no_rating(tmp_path):
    async with running_server(tmp_path) as (server, port):
        a, b, game_id = await start_game(port, clock="0.005", rated=False)
        await a.expect("OVER")
        assert await a.listed("ratings", "connect4") == []


async def test_lobby_lists_seeks_and_players_and_a_cancelled_seek_is_gone(tmp_path):
    async with running_server(tmp_path) as (server, port):
        a, b = await login(port, "alice"), await login(port, "bob")
        a.send("SEEK", "c4", "3+2", "casual")
        offer = await b.expect("OFFER")
        assert offer.words[1:] == ("alice", "connect4", "3+2", "casual")
        assert [m.words[1] for m in await b.listed("seeks")] == ["alice"]
        assert [m.words[0] for m in await b.listed("players")] == ["alice", "bob"]
        a.send("CANCEL")
        assert (await b.expect("GONE")).words == offer.words[:1]
        b.send("ACCEPT", offer.words[0])
        assert "not open" in (await b.expect("NO")).text
        a.send("SEEK", "chess", "3+2", "casual")
        assert "chess" in (await a.expect("NO")).text
        a.send("SEEK", "c4", "-1", "casual")
        assert (await a.expect("NO")).text


async def test_a_taken_name_is_refused_and_the_token_gets_it_back(tmp_path):
    async with running_server(tmp_path) as (server, port):
        a = await login(port, "alice")
        other = await Peer.connect(port)
        other.send("HELLO", "termarena", 1, "lobby", "ALICE")
        assert "taken" in (await other.expect("BYE")).text
        wrong = await Peer.connect(port)
        wrong.send("HELLO", "termarena", 1, "resume", "0" * 48)
        assert "unknown resume token" in (await wrong.expect("BYE")).text
        again = await Peer.connect(port)
        again.send("HELLO", "termarena", 1, "resume", a.token)
        assert (await again.expect("LOBBY")).words[1] == "alice"
        assert "replaced" in (await a.expect("BYE")).text


async def test_the_lobby_hears_of_the_oldest_seeks_and_a_newer_one_takes_a_place_that_frees(tmp_path, monkeypatch):
    from tui.core.server import lobby

    monkeypatch.setattr(lobby, "SHOWN_SEEKS", 2)  # as with 100, the rows of a list
    async with running_server(tmp_path) as (server, port):
        a, b, c, d = [await login(port, n) for n in ("alice", "bob", "carol", "dave")]
        for p in (a, b, c):
            p.send("SEEK", "c4", "3+2", "casual")
        own = await c.expect("OFFER")
        while own.words[1] != "carol":  # carol's own seek is told to her though the lobby's list is full
            own = await c.expect("OFFER")
        told = [await d.expect("OFFER") for _ in range(2)]
        assert [m.words[1] for m in told] == ["alice", "bob"]
        assert [m.words[1] for m in await d.listed("seeks")] == ["alice", "bob"]
        a.send("CANCEL")
        assert (await d.expect("GONE")).words[0] == told[0].words[0]
        assert (await d.expect("OFFER")).words[1:3] == ("carol", "connect4")  # it takes alice's place
        d.send("ACCEPT", own.words[0])
        assert (await c.expect("START")).words[1] == "play"
