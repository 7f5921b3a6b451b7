"""Numbers given on the command line are bounded: a typo must give a one-line refusal (exit 2), never a
run that lasts for years or a traceback.  And an app that dies on an error exits non-zero."""
from __future__ import annotations

import pytest

from tests.helpers.cli import run_cli


@pytest.mark.parametrize("args", [
    ["bench", "c4", "--seconds", "inf"],
    ["bench", "c4", "--seconds", "nan"],
    ["bench", "c4", "--seconds", "0"],
    ["match", "c4", "ai:1", "ai:2", "--games", "99999999999999999999999999999"],
    ["match", "c4", "ai:1", "ai:2", "--jobs", "100000"],
    ["match", "c4", "ai:1", "ai:2", "--think-ms", "0"],
    ["match", "c4", "ai:1", "ai:2", "--think-ms", "-5"],
    ["referee", "c4", "--p1", "ai", "--p2", "ai", "--games", "0"],
    ["referee", "c4", "--p1", "ai", "--p2", "ai", "--games", "10000001"],
    ["play", "c4", "--p1", "ai:7"],
])
def test_out_of_range_numbers_are_refused_in_one_line(monkeypatch, capsys, args):
    code, err = run_cli(monkeypatch, capsys, *args)
    assert code == 2
    assert err.startswith("termarena: ") and err.count("\n") == 1 and "Traceback" not in err


def test_an_app_that_dies_on_an_error_exits_non_zero(monkeypatch):
    from tui import app as app_module
    from tui.screens.picker import PickerScreen

    def broken(self):
        raise RuntimeError("boom")

    monkeypatch.setattr(PickerScreen, "compose", broken)
    monkeypatch.setattr(app_module.TermArenaApp, "_offer_resume", lambda self: None)
    status = app_module.run_app(headless=True, size=(80, 24))
    assert status != 0


@pytest.mark.parametrize("args", [
    ["play", "cw", "--seed", str(2 ** 64)],
    ["referee", "cw", "--p1", "ai", "--p2", "ai", "--seed", str(2 ** 63 - 1), "--games", "2"],
    ["match", "cw", "ai:1", "ai:2", "--seed", str(-2 ** 63 - 1)],
    ["referee", "cw", "--p1", "ai", "--p2", "ai", "--seed", "9" * 5000],
])
def test_seeds_outside_what_the_referee_takes_are_refused(monkeypatch, capsys, args):
    code, err = run_cli(monkeypatch, capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "--seed" in err and len(err) < 300


@pytest.mark.parametrize("make", ["file", "read-only"])
def test_a_saves_dir_that_cannot_take_saves_is_refused_at_start(monkeypatch, capsys, tmp_path, make):
    target = tmp_path / "saves"
    if make == "file":
        target.write_text("not a folder")
    else:
        target.mkdir()
        monkeypatch.setattr("tempfile.mkstemp", lambda *a, **k: (_ for _ in ()).throw(PermissionError(13, "Permission denied")))
    code, err = run_cli(monkeypatch, capsys, "--saves-dir", str(target), "play", "c4")
    assert code == 2 and "--saves-dir" in err and err.count("\n") == 1


def test_prepare_without_a_usable_compiled_search_says_why_in_one_line(monkeypatch, capsys):
    from ai.paper_soccer import accelerator

    for name, value in (("_module", None), ("_failed", True), ("_seen", None),
                        ("error", "numba is not installed: pip install 'termarena[fast]'")):
        monkeypatch.setattr(accelerator, name, value)
    code, err = run_cli(monkeypatch, capsys, "prepare")
    assert code == 1 and err == "termarena: numba is not installed: pip install 'termarena[fast]'\n"
