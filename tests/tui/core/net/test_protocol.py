"""The wire protocol's codec: any bytes are a message or one clear ProtocolError, what is encoded decodes
back, no text can smuggle a second line, and the rate limit holds a flood back."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tests.helpers.hostile import parsed_or_refused
from tui.core.net.protocol import VERBS, Message, ProtocolError, RateLimit, decode, encode


@given(st.binary(max_size=300))
def test_any_bytes_decode_to_a_known_message_or_a_protocol_error(raw):
    msg = parsed_or_refused(decode, raw, ProtocolError)
    if msg is not None:
        assert msg.verb in VERBS and all(w and " " not in w for w in msg.words)
        assert msg.text.isprintable()


@given(st.text(min_size=1, max_size=150).filter(lambda t: t.strip()))
def test_a_move_s_text_travels_on_one_line_and_comes_back_as_sent(text):
    line = encode("MOVE", 7, text=text)
    assert line.count(b"\n") == 1
    try:
        msg = decode(line)
    except ProtocolError:
        assert not " ".join(text.split()).isprintable()  # control characters are refused, never passed on
        return
    assert msg == Message("MOVE", ("7",), " ".join(text.split()))


@pytest.mark.parametrize("line, why", [
    (b"MOVE  4\n", "single spaces"),
    (b"CLOCK 1 2\n", "needs 3 words"),
    (b"PEER away now\n", "got more"),
    (b"move 1 4\n", "unknown message"),
])
def test_malformed_lines_are_refused_with_the_reason(line, why):
    with pytest.raises(ProtocolError, match=why):
        decode(line)


def test_a_word_that_would_break_the_line_is_never_encoded():
    with pytest.raises(ValueError):
        encode("HELLO", "termarena", 1, "play", "code\nBYE")


def test_the_rate_limit_lets_a_burst_through_then_a_steady_rate():
    t = [0.0]
    limit = RateLimit(per_s=10, burst=30, now=lambda: t[0])
    assert sum(limit.allow() for _ in range(10_000)) == 30
    t[0] += 1.0
    assert sum(limit.allow() for _ in range(100)) == 10
