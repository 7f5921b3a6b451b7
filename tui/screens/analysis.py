"""Analysis of the position on the board, for the screens that show one (game, replay): a key toggles
it; while it is on, every change of position cancels the search of the old one and starts one on the
new, in the app's analysis process (not the AI's: a game against the AI goes on meanwhile).  The
search is `termarena analyse`'s (ai.analysis.analyse_position: the game's node budget, no clock), so
the panel's best move, evaluation and verdict on the move made from there are the command's and the
chart's.  The search's reports are awaited in a thread worker and posted as messages, so the UI never
waits.

A screen mixes in `AnalysisHost`, adds `ANALYSIS_BINDING` to its bindings and an `AnalysisPanel` to its
layout, and calls `refresh_analysis()` whenever its position changes."""
from __future__ import annotations

from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.worker import get_current_worker

from ai.analysis import analysis_nodes
from tui.core.opponents import HINT_LEVEL
from tui.widgets.analysis_panel import AnalysisPanel

ANALYSIS_BINDING = Binding("A", "toggle_analysis", "analysis", show=False, id="game.analysis",
                           tooltip="analysis on/off: evaluation bar, best moves, the best line marked on the board")
WAIT_S = 0.1


class AnalysisReport(Message):
    def __init__(self, search, event) -> None:
        super().__init__()
        self.search, self.event = search, event


class AnalysisHost:
    """Mixed into a Screen that has `session`, `board` and `board_cls`."""

    analysis_on: bool = False
    analysed_ply: int | None = None  # the position of the latest analysis started

    def action_toggle_analysis(self) -> None:
        self.analysis_on = not self.analysis_on
        self.query_one(AnalysisPanel).display = self.analysis_on
        self.refresh_analysis()

    def on_unmount(self) -> None:  # called besides the screen's own (Textual walks the classes)
        self.app.analyst.cancel()

    def refresh_analysis(self) -> None:
        """The position changed (or analysis was toggled): drop the old search, start one if on."""
        analyst = self.app.analyst
        analyst.cancel()
        self.workers.cancel_group(self, "analysis")
        self.board.show_analysis(None)
        if not self.analysis_on or self.session.is_over():
            if self.analysis_on:
                self.query_one(AnalysisPanel).update("Analysis: the game is over here")
            return
        try:  # the move made from here (a replay, a redo line) is judged as `termarena analyse` judges it
            search = analyst.start(self.session, HINT_LEVEL, "analysis", played=next(iter(self.session.redo_moves), None))
        except Exception as e:  # the process could not start: say so, in the panel
            self.query_one(AnalysisPanel).update(f"Analysis failed: {e}")
            return
        self.analysed_ply = search.ply
        self.query_one(AnalysisPanel).show_waiting()
        self._wait_for_analysis(search)

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _wait_for_analysis(self, search) -> None:
        worker = get_current_worker()
        for events in self.app.analyst.follow(search, lambda: worker.is_cancelled, WAIT_S):
            for ev in events:
                self.post_message(AnalysisReport(search, ev))

    def on_analysis_report(self, message: AnalysisReport) -> None:  # (by name: a mixin gets no @on)
        analyst, search, ev = self.app.analyst, message.search, message.event
        if search is not analyst.search or search.ply != self.session.ply:
            return  # a position that is gone
        panel = self.query_one(AnalysisPanel)
        if ev.kind == "error":
            analyst.finished()
            panel.update(f"Analysis failed: {ev.error}")
            return
        done = ev.kind == "done"
        if done:
            analyst.finished()
        panel.show_lines(self.session.game_id, search.seat, self.board_cls, search.info, search.lines, done,
                         search.line, search.verdicts[-1] if search.verdicts else None,
                         analyst.nodes or analysis_nodes(self.session.game_id))
        if search.lines:
            best = search.lines[0][0]
            self.board.show_analysis(best, search.line if search.line[:1] == (best,) else (best,))
