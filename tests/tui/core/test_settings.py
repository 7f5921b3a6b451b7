"""Settings: kept in the XDG config folder across restarts, applied at once; a broken file is reported,
moved aside and replaced by the defaults, never a crash."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from tests.helpers.app import SIZE, make_app, wait_until
from tui.core.settings import Settings, dump_settings, load_settings, parse_settings, settings_path
from tui.screens.settings import SettingsScreen


def test_the_file_is_in_the_xdg_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_path() == tmp_path / "termarena" / "settings.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/path")  # the XDG rule: ignored
    assert settings_path().parent.parent.name == ".config"


def test_settings_round_trip_through_the_file():
    s = Settings(theme="nord", board_style="ascii", palette="colour-blind", opponent="ai:5", clock="0.5+2",
                 autosave=False)
    assert parse_settings(dump_settings(s)) == s


@pytest.mark.parametrize("text", [
    "board_style = 'curly'\n", "opponent = 'cmd:rm -rf /'\n", "clock = '5+'\n", "autosave = 'yes'\n",
    "theme = 7\n", "unknown = 1\n", "this is not toml", "clock = '99999+1'\n", "palette = ['x']\n",
    # nested deeper than tomllib's recursion reaches (it raised RecursionError, the app did not start)
    pytest.param("x = " + "[" * 30_000, id="30000-open-arrays"),
    pytest.param("theme = " + "{a = " * 10_000, id="10000-inline-tables"),
    pytest.param("x = " + "[" * 3000 + "]" * 3000 + "\n", id="3000-closed-arrays"),
    pytest.param("x = " + "[{a = " * 2000, id="2000-arrays-of-tables"),
    pytest.param("palette = " + "[" * 200 + "'x'" + "]" * 200 + "\n", id="200-arrays"),
])
def test_a_bad_file_gives_the_defaults_is_moved_aside_and_reported(tmp_path, text):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    loaded = load_settings(path)
    assert loaded.settings == Settings()
    assert loaded.problem is not None and "\n" not in loaded.problem and str(path) in loaded.problem
    assert parse_settings(path.read_text()) == Settings()  # the defaults were written in its place
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("settings.bad-")]


def test_a_fifo_or_a_huge_file_is_not_read(tmp_path):
    fifo = tmp_path / "settings.toml"
    os.mkfifo(fifo)
    assert load_settings(fifo).problem is not None  # returns at once: a FIFO is never opened
    huge = tmp_path / "big" / "settings.toml"
    huge.parent.mkdir()
    huge.write_bytes(b"#" * 10_000_000)
    assert load_settings(huge).problem is not None


@hsettings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_no_bytes_in_the_file_make_loading_fail(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("cfg") / "settings.toml"
    path.write_bytes(data)
    loaded = load_settings(path)  # never raises
    assert isinstance(loaded.settings, Settings)


async def test_theme_and_settings_persist_across_a_restart():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        assert isinstance(app.screen, SettingsScreen)
        screen = app.screen
        screen.query_one("#board_style").value = "ascii"
        screen.query_one("#opponent").value = "ai:5"
        screen.query_one("#clock").value = "5+3"
        await pilot.press("ctrl+s")
        assert app.settings.board_style == "ascii"
        app.theme = "nord"  # as Textual's "Theme" command of the palette does
        await pilot.pause()
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        assert again.theme == "nord"
        assert (again.settings.board_style, again.settings.opponent, again.settings.clock) == ("ascii", "ai:5", "5+3")
        await pilot.press("1")  # a new game's setup offers the opponent of the settings
        assert str(again.screen.query_one("#level1").value) == "5"


async def test_a_corrupt_settings_file_is_told_and_the_app_starts_with_the_defaults():
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"board_style = \xff\xfe\n[[[")
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app._notifications)
        note = next(iter(app._notifications))
        assert "broken" in note.message and app.settings == Settings()
        assert app.screen.query_one("#board").ascii_style is False


async def test_a_settings_file_nested_too_deep_is_set_aside_and_the_app_starts():
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("theme = " + "[" * 20_000)
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app._notifications)
        (note,) = app._notifications
        assert "nested too deep" in note.message and "\n" not in note.message and app.settings == Settings()
    assert [p.name for p in path.parent.iterdir() if p.name.startswith("settings.bad-")]


toml_pieces = st.sampled_from(["[", "]", "{", "}", "a = ", "=", ",", "'x'", '"', "1", "true", "\n", " ", ".",
                               "theme", "[[t]]\n", "[t]\n", "#"])


@hsettings(max_examples=80, deadline=None)
@given(st.lists(toml_pieces, max_size=60).map("".join), st.integers(0, 3000))
def test_any_toml_like_text_gives_settings_or_one_line(tmp_path_factory, text, depth):
    """Settings text near TOML (tables, arrays, nesting of any depth): the settings, or the defaults and
    one line; never an exception."""
    path = tmp_path_factory.mktemp("cfg") / "settings.toml"
    path.write_text(text + "[" * depth)
    loaded = load_settings(path)
    assert isinstance(loaded.settings, Settings)
    assert loaded.problem is None or "\n" not in loaded.problem


async def test_a_bad_clock_is_refused_in_the_dialog_and_nothing_changes():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        app.screen.query_one("#clock").value = "soon"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        assert "MIN+INC" in str(app.screen.query_one("#settings-error").render())
        await pilot.press("escape")
        assert app.settings == Settings()


async def test_the_settings_clock_runs_in_a_new_game():
    from tests.helpers.app import session
    from tui.core.settings import save_settings

    save_settings(Settings(clock="0.5+2"), settings_path())
    app = make_app("c4")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        clock = session(app).clock
        assert clock is not None and clock.spec.base_s == 30 and clock.spec.increment_s == 2
