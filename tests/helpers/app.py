"""Shared helpers of the app tests: build the app as the command line does, wait for it, read it."""
from __future__ import annotations

import asyncio
import time

from ai.compile_ahead import Progress
from tui.app import create_app
from tui.core.specs import parse_spec

SIZE = (80, 24)


def specs(*texts: str):
    return [parse_spec(t) for t in texts]


def make_app(game=None, p1="human", p2="human", seed=None, **options):
    options.setdefault("ai_think_ms", 50)
    return create_app(game, specs(p1, p2) if game else None, seed, **options)


async def wait_until(pilot, condition, timeout: float = 30.0, step: float = 0.005) -> None:
    """Let the app run until `condition()` holds (the AI and bots answer asynchronously)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(step)  # the app runs meanwhile (a pilot pause would force a redraw each time)
    await pilot.pause()


def message(app) -> str:
    """The text of the game screen's message line."""
    return str(app.screen.query_one("#message").render())


def status(app) -> str:
    return str(app.screen.query_one("#status").render())


def game_screen(app):
    from tui.screens.game import GameScreen

    for screen in reversed(app.screen_stack):
        if isinstance(screen, GameScreen):
            return screen
    raise AssertionError("no game screen")


def session(app):
    return game_screen(app).session


async def click(pilot, widget, offset) -> None:
    """A left click where `pilot.click` would make it, with one wait at the end instead of one per
    mouse event (the same events, forwarded the same way: much faster for games played by clicks)."""
    from textual.events import Click, MouseDown, MouseUp
    from textual.geometry import Offset

    app = pilot.app
    x, y = widget.region.offset + Offset(*offset)
    args = dict(widget=widget, x=x, y=y, delta_x=0, delta_y=0, button=1, shift=False, meta=False, ctrl=False,
                screen_x=x, screen_y=y)
    app.mouse_position = Offset(x, y)
    for event in (MouseDown(**args), MouseUp(**args), Click(**args, chain=1)):
        app.screen._forward_event(event)
    await pilot.pause()


def screen_text(app) -> str:
    """The whole screen as the terminal would show it (every widget, modal screens over the ones
    below), as plain text: what `export_screenshot` draws, without the SVG."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)


async def open_load_screen(pilot, key: str = "ctrl+o"):
    """Open the load screen with `key` and wait until it has listed the saves."""
    from tui.screens.load import LoadScreen

    await pilot.press(key)
    screen = pilot.app.screen
    assert isinstance(screen, LoadScreen)
    await wait_until(pilot, lambda: screen.loaded)
    return screen


async def highlight(pilot, screen, name: str) -> None:
    """Highlight the load screen's entry of the save NAME.txt."""
    index = next(i for i, e in enumerate(screen.entries) if e.path.stem == name)
    screen.query_one("#saves").highlighted = index
    await pilot.pause()


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector).render())


class FakeAhead:
    """An ai.compile_ahead.CompileAhead whose progress the test reports (`app.follow_compile_ahead`)."""

    def __init__(self) -> None:
        self.progress = Progress()
        self._reported: Progress | None = None

    def report(self, progress: Progress) -> None:
        self._reported = progress

    def poll(self) -> bool:
        if self._reported is None:
            return False
        self.progress, self._reported = self._reported, None
        return True

    def close(self) -> None:
        pass
