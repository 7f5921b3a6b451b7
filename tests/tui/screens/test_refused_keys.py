"""Every key a game screen binds, in each of the four games, in its replay and in host/join/watch: a key
that cannot act in the state the game is in says why, in one line of its own (issue 26: "every refused
key says why in one line").  The keys come from the screen's and the board's BINDINGS, so a key added
later is walked too; a key is refused when every binding of it is hidden or dimmed (`check_action` not
True)."""
from __future__ import annotations

import contextlib

import pytest

from tests.helpers.app import SIZE, game_screen, make_app, message, session, wait_until
from tests.helpers.net import client_app, host_app, listening, net_session, until
from tests.helpers.paths import FIRST_MOVE_BOT, PY
from tests.helpers.whole_games import WHOLE_GAMES
from tui.screens.dialogs import GameOverScreen
from tui.screens.replay import ReplayScreen
from tui.widgets.refused import refused_action
from tui.widgets.status import MessageLine

GAMES = {"connect4": ["0", "1"] * 3 + ["0"], **WHOLE_GAMES}
SEED = 5  # the Cultist Wars map the whole games were found on


def keys_of(node) -> list[str]:
    """One key of each action `node` binds (`u,ctrl+z`, or the three key sets of Paper Soccer's steps,
    run one action: one refusal)."""
    first: dict[str, str] = {}
    for binding in node.BINDINGS:
        first.setdefault(binding.action, binding.key.split(",")[0].strip())
    return list(first.values())


def refused_keys(screen) -> list[str]:
    """The keys of the board (when it takes keys) and of the screen that would do nothing now."""
    board = screen.board if screen.board.can_focus else None
    out = []
    for key in dict.fromkeys((keys_of(board) if board else []) + keys_of(screen)):
        node = board if board is not None and key in board._bindings.key_to_bindings else screen
        if refused_action(node, key) is not None:
            out.append(key)
    return out


async def assert_each_refused_key_says_why(pilot, screen) -> list[str]:
    """Press each refused key: each leaves a reason of one line on the message line.  Returns the keys."""
    keys = refused_keys(screen)
    assert keys, "no refused key in this state: the state is not what the test meant"
    for key in keys:
        screen.query_one(MessageLine).say("")
        await pilot.press(key)
        assert pilot.app.screen is screen, f"{key} opened {pilot.app.screen}"
        said = message(pilot.app)
        assert said and "\n" not in said, (key, said)
        assert said != "Not available now", (key, said)  # the words of no reason
    return keys


@pytest.mark.slow  # a whole flow over 0.6 s: the inner loop keeps its faster neighbours here
@pytest.mark.parametrize("game", list(GAMES))
async def test_every_refused_key_says_why_on_your_turn_after_the_game_and_in_its_replay(game):
    app = make_app(game, "human", "human", SEED)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        # your turn at the start: nothing to undo, redo or retry, no bot log, no result yet
        assert {"u", "r", "g"} <= set(await assert_each_refused_key_says_why(pilot, screen))
        for move in GAMES[game]:
            screen.board.choose(move)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")
        await assert_each_refused_key_says_why(pilot, screen)  # over: no move, no hint
        app.show_replay(session(app).to_saved(), "of this game")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.ply == 0
        assert {"left", "home", "f"} <= set(await assert_each_refused_key_says_why(pilot, replay))
        await pilot.press("end")
        assert {"right", "end", "p"} <= set(await assert_each_refused_key_says_why(pilot, replay))


@pytest.mark.parametrize("game", list(GAMES))
async def test_every_refused_key_says_why_while_the_other_side_moves(game):
    """The first side is an external bot that never answers: the second side's keys wait."""
    app = make_app(game, f"cmd:{PY} {FIRST_MOVE_BOT} {game} silent", "human", SEED, bot_time_limits=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: game_screen(app)._bot_waiting is not None)
        await assert_each_refused_key_says_why(pilot, game_screen(app))


@contextlib.asynccontextmanager
async def network_screen(role: str):
    """A Connect 4 network game's screen: the host waiting for its opponent, the joiner whose host has
    gone, or a watcher."""
    host = host_app()
    async with host.run_test(size=SIZE) as hp:
        port = await listening(hp)
        if role == "host":
            yield hp, host._net_screen
            return
        client = client_app(port, "watch" if role == "watch" else "join")
        async with client.run_test(size=SIZE) as cp:
            await until(cp, lambda: net_session(client) is not None)
            screen = client._net_screen
            if role == "join":
                await hp.press("4")
                await until(cp, lambda: net_session(client).ply == 1)
                host.net_link.close()
                await until(cp, lambda: screen._lost is not None)
            yield cp, screen


# 0.35-0.65 s each: the inner loop keeps the first case
@pytest.mark.parametrize("role", ["host", *(pytest.param(r, marks=pytest.mark.slow) for r in ("join", "watch"))])
async def test_every_refused_key_of_a_network_game_says_why(role):
    async with network_screen(role) as (pilot, screen):
        await pilot.pause()
        await assert_each_refused_key_says_why(pilot, screen)
