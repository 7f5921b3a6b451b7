"""Cultist Wars in the app: selecting units (Tab, clicks), targeting with the cursor, the preview of
what the referee will do before Enter plays it."""
from __future__ import annotations

import pytest

from engines.cultist_wars import CultistWars
from tests.helpers.app import SIZE, click, game_screen, make_app, message, session, wait_until
from tests.helpers.scripted_games import ELIMINATION
from tui.screens.dialogs import GameOverScreen
from tui.widgets.boards.cultist_wars import CultistWarsBoard

KEYS = {"MOVE": "m", "SHOOT": "f", "CONVERT": "c"}


async def act(pilot, board: CultistWarsBoard, text: str) -> None:
    """Play one action as a person would: Tab to the unit, click the target tile, the action's key, Enter."""
    words = text.split()
    unit, kind = int(words[0]), words[1]
    for _ in range(14):
        if board.selected == unit:
            break
        await pilot.press("tab")
    assert board.selected == unit
    if kind == "MOVE":
        where = (int(words[2]), int(words[3]))
    else:
        target = board.game.units()[int(words[2])]
        where = (target.x, target.y)
    if board.cursor != where:
        await click(pilot, board, board.tile_offset(*where))
    assert board.cursor == where
    await pilot.press(KEYS[kind])
    assert board.pending is not None and board.game.move_to_str(board.pending) == text
    await pilot.press("enter")


@pytest.mark.slow  # 15 actions, each by Tab, a click, its key and Enter
async def test_hot_seat_game_to_an_elimination():
    app = make_app("cw", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        assert isinstance(board, CultistWarsBoard)
        for text in ELIMINATION:
            await act(pilot, board, text)
        s = session(app)
        assert s.notation[:len(ELIMINATION)] == ELIMINATION
        if not s.is_over():  # the neutral moves are the referee's; the script expects this game
            raise AssertionError(f"the game goes on after {s.notation}")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Red wins" in str(app.screen.query_one("#result-headline").render())
        assert s.outcome().reason == "elimination"


async def test_a_shot_is_previewed_with_its_damage_before_enter_plays_it():
    app = make_app("cw", seed=1, moves=ELIMINATION[:8])
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        await pilot.press("tab")
        assert board.selected == 4
        leader = board.game.units()[1]
        await click(pilot, board, board.tile_offset(leader.x, leader.y))
        await pilot.press("f")
        preview = board.game.preview(board.pending)
        assert preview.hit_unit == 1 and preview.damage > 0
        assert f"hits unit 1 for {preview.damage}" in board.describe_preview()
        assert f"hits unit 1 for {preview.damage}" in str(board.render())  # drawn under the map
        assert session(app).ply == 8  # nothing played yet
        await pilot.press("escape")
        assert board.pending is None and session(app).ply == 8
        await pilot.press("w", "enter")
        assert session(app).notation[-1] == "WAIT"


async def test_illegal_actions_are_refused_with_the_referees_reason():
    app = make_app("cw", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        board = game_screen(app).board
        assert board.check_action("prepare", ("shoot",)) is False  # a leader cannot shoot
        await pilot.press("colon", *"1 MOVE 3 3", "enter")  # Blue's leader, on Red's turn
        assert session(app).ply == 0 and "1 MOVE 3 3" not in session(app).notation
        assert message(app).startswith("Illegal move")
        await click(pilot, board, board.tile_offset(6, 0))  # an empty tile
        await pilot.press("c")
        assert "No unit on (6,0)" in message(app) and board.pending is None


@pytest.mark.slow  # the AI's turns to the 150-turn limit
async def test_against_the_ai_the_last_turns_to_the_turn_limit():
    # 150 turns from the start would make a slow test: start ten turns before the end.
    near_end = CultistWars.new(1)
    for _ in range(140):
        near_end.play("WAIT")
    app = make_app("cw", "human", "ai:1", seed=1, start=near_end.to_text())
    async with app.run_test(size=SIZE) as pilot:
        s = session(app)
        while not s.is_over():
            await pilot.press("w", "enter")
            await wait_until(pilot, lambda: s.human_to_move() or s.is_over())
        assert s.game.turn == 150
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
