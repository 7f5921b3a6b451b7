"""`termarena online` in the app (Pilot), against a server on loopback: the lobby shows a player's seek,
accepting it opens the `join` game screen, the server's moves arrive there, a finished game is fetched."""
from __future__ import annotations

from tests.helpers.app import make_app, wait_until
from tests.helpers.server import login, running_server
from tui.core.net import NetPlan
from tui.screens.lobby import LobbyScreen, OnlineGameScreen


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
