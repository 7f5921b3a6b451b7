"""Chess clocks: `--clock MIN+INC` parsed strictly, the seat to move's clock runs, the increment is added,
a fallen flag ends the game with reason `timeout`, and the clocks go into the save file and come back."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engines.savefile import dump, parse
from tui.core.clock import ClockError, GameClock, clock_from_header, parse_clock, read_left, show_time
from tui.core.session import Session
from tui.core.specs import parse_spec

from tests.helpers.app import game_screen, make_app, session, status, wait_until
from tests.helpers.hostile import parsed_or_refused


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_clock_settings_read_minutes_and_increment():
    assert parse_clock("5+3").base_s == 300 and parse_clock("5+3").increment_s == 3
    assert parse_clock("0.5+2").base_s == 30 and parse_clock("0.5+2").text == "0.5+2"
    assert parse_clock("3").increment_s == 0


@pytest.mark.parametrize("text", ["", "+3", "0+1", "5+", "-1+2", "1e3+0", "５+3", "1_0+0", "5+3+1", "99999+0", "nan"])
def test_bad_clock_settings_are_refused(text):
    with pytest.raises(ClockError):
        parse_clock(text)


@given(st.text(max_size=30))
def test_any_text_is_a_clock_or_one_clear_error(text):
    spec = parsed_or_refused(parse_clock, text, ClockError)
    if spec is not None:
        assert spec.base_s > 0 and spec.increment_s >= 0


def test_only_the_seat_to_move_loses_time_and_the_mover_gains_the_increment():
    now = FakeTime()
    clock = GameClock(parse_clock("1+2"), now=now)
    clock.run(0)
    now.t += 10
    assert clock.left(0) == 50 and clock.left(1) == 60
    clock.moved(0, 1)
    now.t += 5
    assert clock.left(0) == 52 and clock.left(1) == 55
    assert clock.fallen() is None
    now.t += 100
    assert clock.fallen() == 1 and clock.left(1) == 0


def test_a_seat_without_a_clock_never_runs_one():
    now = FakeTime()
    clock = GameClock(parse_clock("1+0"), clocked=(True, False), now=now)
    clock.run(1)
    now.t += 1000
    assert clock.left(1) is None and clock.fallen() is None and clock.left(0) == 60


def test_a_fallen_flag_ends_the_game_on_time_and_refuses_the_late_move():
    now = FakeTime()
    s = Session("c4", [parse_spec("human"), parse_spec("human")], clock=GameClock(parse_clock("0.5+0"), now=now))
    s.play("4")
    now.t += 31
    with pytest.raises(Exception):
        s.play("4")
    out = s.outcome()
    assert out.reason == "timeout" and out.winner == 0
    assert s.result_words(("Red", "Yellow")) == ("Red wins", "Yellow ran out of time")


def test_clocks_are_saved_as_header_keys_and_resumed():
    now = FakeTime()
    s = Session("c4", [parse_spec("human"), parse_spec("ai:2")],
                clock=GameClock(parse_clock("2+1"), clocked=(True, False), now=now))
    now.t += 30.04
    s.play("4")
    text = dump(s.to_saved(), s.game)
    assert "clock = 2+1\n" in text and "clock_left = 91.0 -\n" in text
    saved, _ = parse(text)
    clock = clock_from_header(saved.extra, (True, False), now)
    assert clock.left(0) == pytest.approx(91.0) and clock.left(1) is None
    with pytest.raises(ClockError):
        clock_from_header({"clock": "2+1", "clock_left": "1 2 3"}, (True, True))


def test_a_long_clock_with_increments_is_written_and_read_back():
    # 24 hours and an hour a move: after a few moves more than 100,000 seconds are left
    clock = GameClock(parse_clock("1440+3600"), left=(100_800.0, 86_400.0), now=lambda: 0.0)
    back = clock_from_header(clock.header(), (True, True), lambda: 0.0)
    assert (back.left(0), back.left(1)) == (100_800.0, 86_400.0)
    assert read_left(clock.left_words()[0]) == 100_800.0
    with pytest.raises(ClockError):
        read_left("99999999")  # beyond any clock


def test_time_is_shown_in_minutes_and_tenths_when_low():
    assert show_time(125) == "2:05" and show_time(3725) == "1:02:05" and show_time(9.96) == "0:09.9"


async def test_the_clock_ticks_in_the_status_panel_warns_and_the_flag_ends_the_game():
    now = FakeTime()
    app = make_app("c4", "human", "human", clock=parse_clock("0.5+2"), clock_now=now)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "0:30" in status(app)
        await pilot.press("4")
        await pilot.pause()
        now.t += 25
        await wait_until(pilot, lambda: "0:05.0" in status(app))
        assert "0:32" in status(app)  # Red's 30 s plus the 2 s increment
        now.t += 6
        await wait_until(pilot, lambda: session(app).is_over())
        assert session(app).outcome().reason == "timeout"
        shown = str(game_screen(app).query_one("#message").render())
        assert "Yellow ran out of time" in shown
        assert type(app.screen).__name__ == "GameOverScreen"


async def test_a_saved_game_resumes_its_clocks(tmp_path):
    now = FakeTime()
    s = Session("c4", [parse_spec("human"), parse_spec("human")], clock=GameClock(parse_clock("1+0"), now=now))
    now.t += 20
    s.play("4")
    path = tmp_path / "clocked.txt"
    path.write_text(dump(s.to_saved(), s.game))
    app = make_app("c4", load=str(path), clock_now=now)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        clock = session(app).clock
        assert clock.left(0) == pytest.approx(40.0) and clock.running == 1
        now.t += 15
        assert clock.left(1) == pytest.approx(45.0)
