"""`termarena online` in the app (Pilot), against a server on loopback: the lobby shows a player's seek,
accepting it opens the `join` game screen, the server's moves arrive there, a finished game is fetched."""
from __future__ import annotations

import pytest

from tests.helpers.app import make_app, message, wait_until
from tests.helpers.server import login, resume, running_server
from tui.core.net import NetPlan
from textual.widgets import DataTable

from tui.screens.lobby import LobbyScreen, OnlineGameScreen, shown_row
from tui.widgets.status import StatusPanel


async def test_the_lobby_accepts_a_seek_and_plays_it_on_the_join_screen(tmp_path):
    async with running_server(tmp_path / "data") as (server, port):
        bob = await login(port, "bob")
        bob.send("SEEK", "connect4", "5+3", "rated")
        app = make_app(net=NetPlan("online", "127.0.0.1", port, "alice"), autosave=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.offers)
            lobby = app.screen
            assert [row[1] for row in lobby.offers.values()] == ["bob"]
            lobby.command(f"accept {next(iter(lobby.offers))}")
            await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
            await bob.expect("START")
            welcome = await bob.expect("WELCOME")
            session = app.screen.session
            if welcome.words[2] == "1":  # bob moves first: his move shows in the app
                bob.send("MOVE", 1, text="4")
            else:  # the app's side moves first: its move goes through the server to bob
                assert session.human_to_move()
                app.screen.link.send_move(1, "4")
            await wait_until(pilot, lambda: session.ply == 1)
            assert (await bob.expect("MOVE")).text == "4"
            assert session.notation == ["4"]
            # the side panel: this keyboard's side is "you", the other one bob (not "human" and a name)
            await wait_until(pilot, lambda: "bob" in str(app.screen.query_one(StatusPanel).render()))
            sides = str(app.screen.query_one(StatusPanel).render()).splitlines()[1:3]
            mine = int(welcome.words[2]) % 2  # bob's seat is welcome's (1-based): the app plays the other
            assert " you" in sides[mine] and " bob" in sides[1 - mine] and "human" not in " ".join(sides)
            await pilot.press("ctrl+q")  # quitting does not end a server's game: the question says so
            question = str(app.screen.query_one(".dialog-text").render())
            assert "goes on on the server" in question and "cannot go on" not in question
            await pilot.press("n")
            assert isinstance(app.screen, OnlineGameScreen)


async def accepted(pilot, app, bob):
    """The app accepts bob's seek (opened now): its game screen and bob's WELCOME."""
    bob.send("SEEK", "connect4", "5+3", "rated")
    await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.offers)
    app.screen.command(f"accept {next(iter(app.screen.offers))}")
    await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
    await bob.expect("START")
    return app.screen, await bob.expect("WELCOME")


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
async def test_ctrl_x_aborts_before_both_moved_then_resigns_and_the_opponent_comes_and_goes(tmp_path):
    async with running_server(tmp_path / "data") as (server, port):
        bob = await login(port, "bob")
        app = make_app(net=NetPlan("online", "127.0.0.1", port, "alice"), autosave=False)
        async with app.run_test(size=(100, 30)) as pilot:
            game, _ = await accepted(pilot, app, bob)
            await wait_until(pilot, lambda: "bob" in [spec.text for spec in game.session.specs])  # named
            assert game.check_action("give_up", ("abort",)) and not game.check_action("give_up", ("resign",))
            await pilot.press("ctrl+x")
            await wait_until(pilot, lambda: "Abort this game?" in getattr(app.screen, "question", ""))
            await pilot.press("y")
            assert (await bob.expect("OVER")).words[2:] == ("abort",)
            await wait_until(pilot, lambda: game.aborted)
            assert "aborted" in message(app)
            status = str(game.query_one(StatusPanel).render())
            assert "Game over: aborted" in status and "to move" not in status  # nobody is to move any more
            await pilot.press("escape")  # an aborted game is left at once
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            app.screen.command("history")
            await wait_until(pilot, lambda: app.screen.kind == "history" and app.screen.rows)
            table = app.screen.query_one(DataTable)
            assert [str(c) for c in table.get_row_at(0)][6:] == ["none", "abort"]  # words, not PGN's `*`

            game, welcome = await accepted(pilot, app, bob)
            session = game.session
            for number in (1, 2):  # one move each
                if (welcome.words[2] == "1") == (number == 1):
                    bob.send("MOVE", number, text="4")
                else:
                    await wait_until(pilot, lambda: session.human_to_move())
                    game.link.send_move(number, "5")
                await wait_until(pilot, lambda: session.ply == number)
            theirs = game.board_cls.side_names[1 - game.link.seat]
            bob.close()
            await wait_until(pilot, lambda: f"{theirs} left" in message(app))
            bob = await resume(port, bob.token)
            await wait_until(pilot, lambda: f"{theirs} is back" in message(app))
            assert game.check_action("give_up", ("resign",)) and not game.check_action("give_up", ("abort",))
            await pilot.press("ctrl+x")
            await wait_until(pilot, lambda: "Resign this game?" in getattr(app.screen, "question", ""))
            await pilot.press("y")
            over = await bob.expect("OVER")
            assert over.words[1:] == ("1-0" if game.link.seat == 1 else "0-1", "resign")
            await wait_until(pilot, lambda: session.is_over())
            assert "resigned" in session.result_words(game.board_cls.side_names)[1]


async def test_a_bug_met_while_following_the_server_is_said_not_a_silent_freeze(tmp_path, monkeypatch):
    from tui.core.server.client import OnlineClient

    def broken(self, msg):
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(OnlineClient, "_handle", broken)
    async with running_server(tmp_path / "data") as (server, port):
        app = make_app(net=NetPlan("online", "127.0.0.1", port, "alice"), autosave=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "a bug of ours" in str(
                app.screen.query_one("#lobby-status").render()))


def test_a_game_under_way_reads_playing_in_the_games_list():
    row = ("7", "connect4", "5+3", "rated", "alice", "bob", "*", "-")
    assert shown_row("games", row)[6:] == ("playing", "")
    assert shown_row("history", row[:6] + ("1-0", "resign"))[6:] == ("1-0", "resign")
    assert shown_row("players", ("alice", "online")) == ("alice", "online")
