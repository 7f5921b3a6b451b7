"""Resign and abort in server games (lobby revision 2), and presence: a player may resign at any time and
the ratings move; a game may be aborted before both sides have moved, with no result and no rating
moved; a player hears of the opponent's connection going and coming back.  What the server sends stays
within what a client of the first lobby understands (END only for time, PEER away|back)."""
from __future__ import annotations

import asyncio

from tests.helpers.server import Peer, WAIT_S, login, resume, running_server, start_game
from tui.core.net.protocol import VERBS as GAME_VERBS
from tui.core.server.protocol import LOBBY_VERBS

# what a client of the first lobby (revision 1) decodes: the verbs of then, END only for time
FIRST_LOBBY = {verb: LOBBY_VERBS[verb] for verb in ("LOBBY", "OFFER", "GONE", "PLAYER", "GAME", "RATING", "LISTED",
                                                    "START", "OVER", "SAVE", "DATA", "NO")}


async def seated(port: int, **options) -> tuple[Peer, Peer, int]:
    """(the player who moves first, the other, the game id), once both are welcomed."""
    a, b, game_id = await start_game(port, **options)
    welcome = [await p.expect("WELCOME") for p in (a, b)]
    return (a, b, game_id) if welcome[0].words[2] == "1" else (b, a, game_id)


async def rest_of(peer: Peer) -> list[bytes]:
    """Every line the server sent `peer` until OVER (raw, to be read as an older client would)."""
    lines = []
    while True:
        line = await asyncio.wait_for(peer.reader.readline(), WAIT_S)
        assert line, "closed before OVER"
        lines.append(line)
        if line.startswith(b"OVER "):
            return lines


def understood_by_the_first_lobby(lines: list[bytes]) -> None:
    from tui.core.net.protocol import decode

    for line in lines:
        msg = decode(line, {**GAME_VERBS, **FIRST_LOBBY})
        assert msg.verb != "END" or msg.words[1] == "timeout", msg


async def test_a_resignation_ends_the_game_for_everyone_and_moves_the_ratings(tmp_path):
    async with running_server(tmp_path) as (server, port):
        first, second, game_id = await seated(port)
        watcher = await login(port, "carol")
        watcher.send("WATCH", game_id)
        await watcher.expect("WELCOME")
        first.send("MOVE", 1, text="4")
        await second.expect("MOVE")
        first.send("RESIGN")
        ends = await asyncio.gather(*(rest_of(p) for p in (first, second, watcher)))
        for lines in ends:
            understood_by_the_first_lobby(lines)
            assert lines[-1].split() == [b"OVER", str(game_id).encode(), b"0-1", b"resign"]  # the first resigned
        ratings = {r.words[1]: float(r.words[2]) for r in await watcher.listed("ratings", "c4")}
        assert ratings[second.name] > ratings[first.name]
        first.send("MOVE", 2, text="5")
        assert "not playing" in (await first.expect("NO")).text
        history = await watcher.listed("history", "-")
        assert [g.words[6:] for g in history] == [("0-1", "resign")]
        [row] = await watcher.listed("games", str(game_id))  # one game by its id, over or not: its players
        assert row.words[4:] == (first.name, second.name, "0-1", "resign")
        first.send("FETCH", game_id)
        assert (await first.expect("SAVE", "NO")).verb == "SAVE"


async def test_an_abort_before_both_moved_ends_with_no_result_and_no_rating(tmp_path):
    async with running_server(tmp_path) as (server, port):
        first, second, game_id = await seated(port)
        first.send("MOVE", 1, text="4")
        await second.expect("MOVE")
        second.send("ABORT")  # the second has not moved yet: still possible
        for lines in await asyncio.gather(rest_of(first), rest_of(second)):
            understood_by_the_first_lobby(lines)
            assert lines[-1].split()[2:] == [b"*", b"abort"]
        assert await first.listed("ratings", "c4") == []
        assert [g.words[6:] for g in await first.listed("history", "-")] == [("*", "abort")]
        first.send("FETCH", game_id)
        assert "aborted" in (await first.expect("NO")).text
        assert not server.games and not server.playing  # both may seek again


async def test_after_both_moved_a_game_is_resigned_not_aborted(tmp_path):
    async with running_server(tmp_path) as (server, port):
        first, second, game_id = await seated(port, rated=False)
        for number, (mover, other) in enumerate(((first, second), (second, first)), 1):
            mover.send("MOVE", number, text="4")
            await other.expect("MOVE")
        first.send("ABORT")
        assert "resigned, not aborted" in (await first.expect("NO")).text
        lobby = await login(port, "dave")
        lobby.send("RESIGN")
        assert "not playing" in (await lobby.expect("NO")).text
        second.send("RESIGN")
        assert (await first.expect("OVER")).words[1:] == ("1-0", "resign")


async def test_the_opponent_hears_a_player_leave_and_come_back(tmp_path):
    async with running_server(tmp_path) as (server, port):
        first, second, game_id = await seated(port)
        first.send("MOVE", 1, text="4")
        await second.expect("MOVE")
        token = second.token
        second.close()
        assert (await first.expect("PEER")).words == ("away",)
        again = await resume(port, token)
        assert (await first.expect("PEER")).words == ("back",)
        await again.expect("WELCOME")
        first.close()
        assert (await again.expect("PEER")).words == ("away",)
        again.close()
        back = await resume(port, first.token)  # who comes to a game whose opponent is away hears it (at
        # once, or as the server notices the close if that comes later)
        await back.expect("WELCOME")
        assert (await back.expect("PEER")).words == ("away",)


async def test_a_client_of_the_first_lobby_is_told_the_revision_it_ignores(tmp_path):
    async with running_server(tmp_path) as (server, port):
        peer = await Peer.connect(port)
        peer.send("HELLO", "termarena", 1, "lobby", "eve")
        assert (await peer.expect("LOBBY")).words[0] == "2"
