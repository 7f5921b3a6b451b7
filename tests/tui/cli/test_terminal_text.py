"""Other people's text on the terminal: a bot's stderr and refused answer, a save file's header, moves and
name.  Wherever termarena shows it (referee -v, analyse, replay, the load screen and its questions, the
bot log, the game-over dialog) or writes it (records, saves, the autosave), no ESC, BEL or C1 control
from it arrives: it is shown escaped (`\\x1b`), whole, and never read as Rich markup."""
from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys

import pytest

from engines.referee import run_match
from engines.visible import visible
from tests.helpers.app import make_app, session, wait_until
from tests.helpers.terminal_text import (ANSWER, BOT, CONCEAL, HOSTILE_LINES, OSC52, acting, clean_bytes,
                                     hostile_bot, hostile_save)
from tests.helpers.app import highlight, open_load_screen, text_of
from tui.core.storage import load_game
from tui.screens.dialogs import ConfirmScreen, GameOverScreen
from tui.screens.replay import ReplayScreen

WIDE = (160, 50)  # no line is cut short: what is checked is on the screen


def termarena(*args: str) -> subprocess.CompletedProcess:
    """The command as a user runs it, output as bytes through pipes (so Rich adds no colour codes of
    its own: every ESC in the output would be the attacker's)."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    env["COLUMNS"] = "1000"  # no wrapping inside the escaped words
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True, timeout=120, env=env)


# ---------------------------------------------------------------------------- the command line


@pytest.mark.slow  # termarena and its bots as real processes
def test_referee_v_shows_a_bots_stderr_and_refused_answer_escaped_and_never_as_markup(tmp_path):
    done = termarena("referee", "c4", "--p1", hostile_bot(), "--p2", "ai:1", "--seed", "1", "-v", "--json",
                     "--record", str(tmp_path))
    out, err = clean_bytes(done.stdout), clean_bytes(done.stderr)
    assert done.returncode == 0, err
    lines = err.splitlines()
    for hostile in HOSTILE_LINES:  # every line, in order, before the result
        assert f"p1: {visible(hostile)}" in lines
    assert lines.index("p1: [/x]") < next(i for i, line in enumerate(lines) if line.startswith("game 0 "))
    assert "p1: [link=file:///etc/passwd]x[/link]" in lines  # a bracket is a bracket, not a link
    assert visible(ANSWER) in err  # the refused answer, quoted escaped
    result = json.loads(out)
    assert result["reason"] == "invalid" and visible(ANSWER) in result["error"]
    [record] = tmp_path.glob("*.txt")  # the file termarena wrote: the words kept exactly, escaped
    saved, _ = load_game(record)
    clean_bytes(record.read_bytes())
    assert HOSTILE_LINES == [line for turn in saved.record for line in turn.stderr[0]]
    assert saved.record[-1].output == ANSWER and visible(ANSWER) in saved.detail


@pytest.mark.slow  # real bot processes
def test_a_crashed_bots_last_words_are_quoted_escaped():
    result = run_match("connect4", [[sys.executable, str(BOT), "crash"], [sys.executable, str(BOT)]], seed=1)
    assert result.outcome.reason == "crash" and result.outcome.winner == 1
    assert acting(result.error) == [] and visible("eight-bit \x9b2J") in result.error


@pytest.mark.slow  # termarena as a real process
def test_analyse_shows_the_saves_players_and_moves_escaped(tmp_path):
    path = hostile_save(tmp_path)
    saved, _ = load_game(path)
    done = termarena("analyse", str(path), "--think-ms", "20")
    assert done.returncode == 0, done.stderr
    table = clean_bytes(done.stdout)
    clean_bytes(done.stderr)
    assert f"p1 {visible(saved.players[0])}: " in table and f"p2 {visible(saved.players[1])}: " in table
    done = termarena("analyse", str(path), "--think-ms", "20", "--json")
    assert done.returncode == 0, done.stderr
    assert [m["ply"] for m in json.loads(clean_bytes(done.stdout))["moves"]] == [1, 2]


@pytest.mark.slow  # termarena as a real process
def test_replay_and_analyse_name_a_hostile_file_escaped_in_their_one_line_refusal(tmp_path):
    evil = tmp_path / "evil\x1b]0;name\x07.txt"
    evil.write_text(f"# termarena save\nformat = 1\ngame = connect4\nresult = {OSC52}\n")
    for command in ("replay", "analyse"):
        done = termarena(command, str(evil))
        err = clean_bytes(done.stderr)
        assert done.returncode != 0 and clean_bytes(done.stdout) == ""
        assert "evil\\x1b]0;name\\x07.txt" in err and "\\x1b]52;c;" in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------------------- the app


def svg_text(shot: str) -> str:
    return shot.replace("&#160;", " ")


def screen_is_clean(app) -> str:
    """The whole screen as it would be drawn (dialogs over their page): nothing that acts on a terminal."""
    shot = app.export_screenshot()
    assert acting(shot) == [], [line for line in shot.splitlines() if acting(line)][:3]
    return shot


async def test_the_load_screen_and_its_question_show_a_hostile_save_escaped_and_whole(
        _saves_in_a_temporary_folder):
    folder = _saves_in_a_temporary_folder
    hostile_save(folder, "hostile")
    hostile_save(folder, "position", moves=())  # no moves: its bots could be started, after a question
    (folder / "evil\x1b]0;name\x07.txt").write_text("not a save\n")
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        load = await open_load_screen(pilot, "l")
        await highlight(pilot, load, "hostile")
        shot = screen_is_clean(app)
        facts = text_of(load, "#load-facts")
        assert f"cmd:python3 bot.py {visible(CONCEAL)}; rm -rf ~" in facts and "\\x1b[2Jhuman\\x9b" in facts
        assert "evil\\x1b]0;name\\x07" in svg_text(shot)  # the listed file name
        await highlight(pilot, load, "position")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        screen_is_clean(app)
        question = text_of(app.screen, ".dialog-text")
        # the whole command, its end not concealed, is what the question is about
        assert f"p1 = python3 bot.py {visible(CONCEAL)}; rm -rf ~\n" in question
        assert "p2 = \\x1b[2Jhuman\\x9b\n" in question
        await pilot.press("n")
        await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert [s.kind for s in session(app).specs] == ["ai", "ai"]


@pytest.mark.slow  # a real bot process
async def test_the_bot_log_and_the_game_over_dialog_show_a_bots_text_escaped(_saves_in_a_temporary_folder):
    app = make_app("c4", p1="human", p2=hostile_bot())
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("L")  # the bot log open, so that it draws every line
        await pilot.press("5")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        game = app.screen_stack[-2]
        log = game.query_one("#bot-log")
        await wait_until(pilot, lambda: log.lines >= len(HOSTILE_LINES))
        screen_is_clean(app)
        shown = "".join(seg.text for strip in log._log.lines for seg in strip)  # (the narrow log wraps)
        for hostile in HOSTILE_LINES:
            assert f"Yellow: {visible(hostile)}" in shown
        assert visible(ANSWER) in text_of(app.screen, "#result-reason")


async def test_the_replay_of_a_hostile_file_shows_its_players_and_name_escaped(_saves_in_a_temporary_folder):
    saved, _ = load_game(hostile_save(_saves_in_a_temporary_folder, result="0-1"))
    app = make_app(replay=saved, replay_title="evil\x1b]0;name\x07")
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        shot = screen_is_clean(app)
        assert "\\x1b[2Jhum" in text_of(app.screen, "#status") and "evil\\x1b]0;name\\x07" in svg_text(shot)


@pytest.mark.slow  # termarena as a real process on a pseudo-terminal
def test_replay_in_a_real_terminal_writes_none_of_the_files_sequences(tmp_path):
    """`termarena replay` on a pseudo-terminal: the app draws with escape sequences of its own, but none
    of the file's (its name's OSC 0, its header's OSC 52, C1 CSI, CSI 8m) reaches the terminal; the
    escaped forms are drawn instead."""
    path = hostile_save(tmp_path, "evil\x1b]0;name\x07", result="0-1")
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="140", LINES="40", TERMARENA_SAVES=str(tmp_path))
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(sys.executable, [sys.executable, "-m", "tui", "replay", str(path)], env)
    drawn, status = bytearray(), None
    try:
        while b"evil\\x1b]0;name\\x07" not in drawn or b"\\x1b[2Jhum" not in drawn:
            ready, _, _ = select.select([fd], [], [], 30)
            assert ready, f"the replay was not drawn: {bytes(drawn[-500:])!r}"
            drawn += os.read(fd, 65536)
        os.write(fd, b"q")  # leaves the replay, which ends the command
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal's other end closed: the app is gone
                break
            if not chunk:
                break
            drawn += chunk
        status = os.waitpid(pid, 0)[1]
    finally:
        if status is None:  # a failed check: the app must not outlive the test
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    assert status == 0
    for sequence in (b"\x1b]52;", b"\x1b]0;name", b"\x1b]0;pwned", b"\x1b]0;title", b"\xc2\x9b", CONCEAL.encode()):
        assert sequence not in drawn
