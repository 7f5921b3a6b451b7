"""Outside text shown or written by termarena never carries a character a terminal would act on."""
from __future__ import annotations

import unicodedata

from hypothesis import given, strategies as st

from engines.visible import visible

ACTING = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def acts(text: str) -> bool:
    return any(unicodedata.category(ch) in ACTING for ch in text)


@given(st.text(), st.none() | st.integers(0, 200))
def test_nothing_that_acts_on_a_terminal_is_left(text, limit):
    shown = visible(text, limit)
    assert not acts(shown)
    assert limit is None or len(shown) <= max(limit, 1)


@given(st.text(), st.none() | st.integers(1, 200))
def test_it_is_idempotent(text, limit):
    once = visible(text, limit)
    assert visible(once, limit) == once


@given(st.text(alphabet=st.characters(blacklist_categories=tuple(ACTING))))
def test_printable_text_is_left_as_it_is(text):
    assert visible(text) == text


def test_the_attacks_seen_in_the_wild_are_shown_not_obeyed():
    osc52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
    assert visible(osc52) == "\\x1b]52;c;cm0gLXJmIH4=\\x07"
    assert visible("a\x1b[8mhidden") == "a\\x1b[8mhidden"
    assert visible("\x9b2J") == "\\x9b2J"
    assert visible("evil\u202etxt.exe") == "evil\\u202etxt.exe"
    assert visible("two\nlines\r") == "two\\x0alines\\x0d"
    assert visible("x" * 10, 5) == "xxxx…"
