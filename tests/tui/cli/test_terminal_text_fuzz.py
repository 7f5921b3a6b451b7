"""Fuzzing the places the command line and the app put other people's text: whatever a bot prints, a save
file's header says or a player spec holds, what reaches the terminal has no character a terminal acts
on (line breaks of termarena's own layout aside), holds the text escaped, and reads no markup."""
from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given, settings, strategies as st
from rich.console import Console

from ai.analysis import GameAnalysis, MoveVerdict
from ai.tournament import AnswerTimes, Score
from ai.tournament.loop import Standings
from engines.visible import is_hidden, visible
from tui.app import file_bots_question
from tui.cli.games import stderr_line
from tui.core.analysis_text import analysis_table
from tui.core.match import print_table
from tui.core.specs import PlayerSpec
from tui.core.storage import SaveEntry, shown
from tui.plain import plain
from tui.screens.load import entry_label
from tui.widgets.status import describe_spec

ATTACKS = ["\x1b]52;c;cm0gLXJmIH4=\x07", "\x1b]0;title\x07", "\x1b[2J", "\x1b[8m", "\x9b2J", "\u202e", "\x85",
           "\u2028", "\r", "\n", "\x00", "[/x]", "[link=file:///etc/passwd]", "[bold]"]
outside = st.text() | st.lists(st.sampled_from(ATTACKS) | st.text(max_size=5), max_size=6).map("".join)
FAST = settings(max_examples=60, deadline=None)


def hidden(text: str) -> list[str]:
    return [ch for ch in text.replace("\n", "") if is_hidden(ch)]


def rendered(renderable) -> str:
    """What a Rich console prints for `renderable` on a terminal that is not one (no colour codes of its
    own, so any control character would be the outside text's)."""
    out = io.StringIO()
    Console(file=out, width=2000, color_system=None, force_terminal=False, highlight=False).print(renderable)
    return out.getvalue()


@FAST
@given(st.integers(0, 1), outside)
def test_referee_v_prints_a_stderr_line_escaped_and_as_it_is(seat, line):
    assert rendered(stderr_line(seat, line)) == f"p{seat + 1}: {visible(line)}\n"


@FAST
@given(outside)
def test_plain_text_in_the_app_keeps_its_line_breaks_escapes_the_rest_and_reads_no_markup(text):
    out = rendered(plain(text))
    assert hidden(out) == [] and out.count("\n") == text.count("\n") + 1
    assert all(visible(line) in out for line in text.split("\n"))


@FAST
@given(outside, outside, outside, outside, outside)
def test_the_load_screen_shows_a_saves_players_date_and_name_escaped(p1, p2, date, name, error):
    entry = SaveEntry(Path(f"/saves/{name.replace('/', '')}.txt"), "connect4", (p1, p2), date, "*", "", 2, "")
    out = rendered(entry_label(entry))
    assert hidden(out) == [] and visible(p1) in out and visible(p2) in out
    out = rendered(entry_label(SaveEntry.failed(entry.path, error or "?")))
    assert hidden(out) == []


@FAST
@given(outside, outside, outside)
def test_analyse_prints_players_and_moves_escaped(p1, p2, move):
    verdict = MoveVerdict(ply=1, move=move, seat=0, eval=0.5, best="4", best_eval=0.6, label=None, score=0.0)
    out = analysis_table(GameAnalysis("connect4", [verdict]), (p1, p2))
    assert hidden(out) == [] and f"p1 {visible(p1)}: " in out and f"p2 {visible(p2)}: " in out


@FAST
@given(outside, outside)
def test_the_question_before_a_files_bots_start_shows_each_command_whole_and_escaped(first, second):
    specs = [PlayerSpec("cmd", command=first), PlayerSpec("cmd", command=second)]
    question = file_bots_question(specs, [0, 1])
    assert hidden(question) == []
    assert f"p1 = {visible(first)}\n" in question and f"p2 = {visible(second)}\n" in question


@FAST
@given(outside)
def test_a_bots_name_in_the_status_and_a_file_name_in_messages_are_escaped(text):
    assert hidden(describe_spec(PlayerSpec("cmd", command=text))) == []
    assert hidden(shown(text)) == []


@FAST
@given(outside, outside, outside)
def test_match_tables_show_player_specs_and_errors_escaped(a, b, error):
    specs = [PlayerSpec("cmd", command=a), PlayerSpec("cmd", command=b)]
    t = Standings("connect4", [s.label for s in specs], {(0, 1): Score(1, 0, 1, [error])}, [],
                         {(n, s): Score() for n in (0, 1) for s in (0, 1)}, [AnswerTimes(), AnswerTimes()])
    out = io.StringIO()
    print_table(t, Console(file=out, width=2000, color_system=None, force_terminal=False))
    text = out.getvalue()
    assert hidden(text) == [] and visible(f"cmd:{a}") in text and visible(error) in text
