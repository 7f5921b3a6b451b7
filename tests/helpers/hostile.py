"""Checks of the project's refusals: one short line, never a traceback, never a hang."""
from __future__ import annotations

import threading

MAX_MESSAGE = 300
PROMPTLY_S = 5.0  # a call that has not answered by then is blocked


def assert_clear(error: Exception) -> None:
    """The error's message is one line a person can read."""
    text = str(error)
    assert text and "\n" not in text and "\r" not in text and len(text) <= MAX_MESSAGE, text[:500]


def parsed_or_refused(parse, text, error):
    """What `parse(text)` returns, or None when it refused with `error` in one line (hostile-input fuzzing)."""
    try:
        return parse(text)
    except error as e:
        assert "\n" not in str(e)
        return None


def promptly(call, *args):
    """`call(*args)` in a thread: its result or exception, or a failure (not a hung suite) when it blocks."""
    out: dict = {}

    def run():
        try:
            out["value"] = call(*args)
        except BaseException as e:  # noqa: BLE001 (handed to the test)
            out["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(PROMPTLY_S)
    assert not thread.is_alive(), f"{call.__name__}{args} blocked for {PROMPTLY_S} s"
    if "error" in out:
        raise out["error"]
    return out["value"]
