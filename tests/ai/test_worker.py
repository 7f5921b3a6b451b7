"""The AI worker process: searches come back with a legal move, progress arrives, cancel is immediate."""
from __future__ import annotations

import signal

import pytest

from ai.worker import SearchProcess, SearchRequest
from engines import get_game

pytestmark = pytest.mark.slow  # the AI's worker process (the app tests start it too)


def test_a_search_returns_a_legal_move_for_the_position_sent():
    with SearchProcess() as sp:
        sid = sp.start(SearchRequest("connect4", ("4", "4", "3"), level=2))
        ev = sp.wait(sid, timeout=60)
        assert ev.kind == "done", ev.error
        g = get_game("connect4").new()
        for m in ("4", "4", "3"):
            g.play(m)
        g.play(ev.move)  # raises if illegal


def test_a_bad_request_comes_back_as_an_error_not_a_dead_worker():
    with SearchProcess() as sp:
        sid = sp.start(SearchRequest("connect4", ("4", "99"), level=1))
        ev = sp.wait(sid, timeout=60)
        assert ev.kind == "error" and "99" in ev.error
        sid = sp.start(SearchRequest("connect4", (), level=1))
        assert sp.wait(sid, timeout=60).kind == "done"


def test_cancel_stops_a_long_search_at_once_and_the_next_search_works():
    with SearchProcess() as sp:
        # an analysis of 100 million nodes: it is still searching when cancelled
        sid = sp.start(SearchRequest("connect4", ("4", "4"), level=6, analyse="position", nodes=100_000_000))
        first = next((ev for _ in range(600) for ev in sp.events(0.1)), None)  # a minute at most
        assert first is not None and (first.search_id, first.kind) == (sid, "info")
        worker = sp._proc
        sp.cancel()
        # at once: when cancel returns, the worker has been killed, not asked to finish its search
        assert worker.exitcode == -signal.SIGKILL and sp.current is None
        sid = sp.start(SearchRequest("connect4", ("4",), level=1))
        assert sp.wait(sid, timeout=60).kind == "done"


def test_starting_a_new_search_drops_the_old_ones_events():
    with SearchProcess() as sp:
        old = sp.start(SearchRequest("connect4", (), level=6, think_ms=60_000))
        new = sp.start(SearchRequest("connect4", ("0",), level=1))
        ev = sp.wait(new, timeout=60)
        assert ev.search_id == new != old and ev.kind == "done"


def test_the_worker_starts_even_when_the_app_has_replaced_stdout_and_stderr(monkeypatch):
    """Textual swaps sys.stdout/stderr for objects without a file descriptor while the app runs."""
    import io
    import sys

    class Captured(io.StringIO):
        def fileno(self):
            return -1

    monkeypatch.setattr(sys, "stdout", Captured())
    monkeypatch.setattr(sys, "stderr", Captured())
    with SearchProcess() as sp:
        sid = sp.start(SearchRequest("connect4", ("4",), level=1))
        assert sp.wait(sid, timeout=60).kind == "done"


def test_an_analysis_reports_its_progress_then_analyses_verdict_and_a_game_analysis_one_verdict_a_move():
    with SearchProcess() as sp:
        sid = sp.start(SearchRequest("connect4", ("4", "4"), level=6, analyse="position", nodes=3_000, played="5"))
        events = []
        while not events or events[-1].kind not in ("done", "error"):
            events.extend(sp.events(0.5))
        infos = [ev for ev in events if ev.kind == "info"]
        assert events[-1].kind == "done" and infos
        progress = [ev.info.nodes for ev in infos if not ev.lines]  # while it searches: no moves yet
        assert progress and progress == sorted(progress) and progress[-1] <= infos[-1].info.nodes
        judged = [ev for ev in infos if ev.lines]
        assert judged and all(len(ev.lines) <= 3 for ev in judged)
        assert events[-1].move == judged[-1].lines[0][0]
        assert {ev.verdict["move"] for ev in judged} == {"5"} and judged[-1].verdict["ply"] == 3
        assert judged[-1].verdict["best_eval"] >= judged[-1].verdict["eval"]
        sid = sp.start(SearchRequest("connect4", ("4", "STEAL", "3"), level=6, think_ms=50, analyse="game"))
        verdicts = []
        while True:
            batch = list(sp.events(0.5))
            verdicts += [ev.verdict for ev in batch if ev.verdict]
            if any(ev.kind in ("done", "error") for ev in batch):
                break
        assert [v["move"] for v in verdicts] == ["4", "STEAL", "3"] and [v["ply"] for v in verdicts] == [1, 2, 3]
