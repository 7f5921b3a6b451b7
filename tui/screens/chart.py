"""The advantage chart of a whole game, for the replay: a key shows it; the first time, every move is
judged by the analysis search in a process of the chart's own, the chart and the move list filling in
as verdicts arrive.  The verdicts are `termarena analyse`'s (the same function, the same node budget:
CHART_NODES None is the game's own), so the chart, the move list's marks and the command agree.
Choosing a column jumps to that move.

`[` and `]` jump to the previous and next marked move (inaccuracy or worse).  While the chart is shown
the screen has the class `charted`, so its stylesheet can give the chart room on a wide terminal.

A screen mixes in `ChartHost`, adds `CHART_BINDINGS`, puts an `AdvantageChart` in its side panel,
sets `chart_moves` (the whole game) and implements `jump_to(ply)` and `ply`."""
from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual import work
from textual.worker import get_current_worker

from tui.core.opponents import HINT_LEVEL, AIOpponent
from tui.widgets.advantage_chart import AdvantageChart
from tui.widgets.move_list import MoveList
from tui.widgets.status import MessageLine

CHART_BINDINGS = [
    Binding("c", "toggle_chart", "chart", id="replay.chart",
            tooltip="the advantage chart: who was ahead after each move, mistakes marked; click to jump"),
    Binding("left_square_bracket", "jump_mark(-1)", "previous mark", key_display="[", show=False,
            id="replay.previous_mark", tooltip="jump to the previous inaccuracy, mistake or blunder"),
    Binding("right_square_bracket", "jump_mark(1)", "next mark", key_display="]", show=False,
            id="replay.next_mark", tooltip="jump to the next inaccuracy, mistake or blunder"),
]
WAIT_S = 0.1
CHART_NODES: int | None = None  # nodes per position (None: the game's ANALYSIS_NODES, as `analyse`); tests lower it


class ChartProgress(Message):
    def __init__(self, search, done: bool) -> None:
        super().__init__()
        self.search, self.done = search, done


class ChartHost:
    chart_moves: list[str] = []
    _chart_ai: AIOpponent | None = None
    _chart_search = None

    def action_toggle_chart(self) -> None:
        chart = self.query_one(AdvantageChart)
        chart.display = not chart.display
        self.set_class(chart.display, "charted")
        if chart.display and self._chart_search is None:
            self._chart_ai = AIOpponent(nodes=CHART_NODES)
            self._chart_search = self._chart_ai.start(self.session, HINT_LEVEL, "chart", moves=self.chart_moves)
            self._wait_for_chart(self._chart_ai, self._chart_search)
        self.show_chart()

    def show_chart(self) -> None:
        """Draw the chart and the move list's marks for the verdicts so far and the move shown."""
        verdicts = self._chart_search.verdicts if self._chart_search is not None else []
        self.query_one(AdvantageChart).show(verdicts, len(self.chart_moves), self.ply, self.session.start_ply)
        moves = self.query_one(MoveList)
        moves.labels = {v.ply: v.label for v in verdicts if v.label}

    def action_jump_mark(self, direction: int) -> None:
        """To the nearest marked move before (-1) or after (1) the move shown; says why when there is none."""
        chart = self.query_one(AdvantageChart)
        if not chart.display:
            self.action_toggle_chart()
        marks = chart.marked_plies()
        ahead = [ply for ply in marks if ply > self.ply] if direction > 0 else [ply for ply in marks if ply < self.ply]
        if ahead:
            self.jump_to(ahead[0] if direction > 0 else ahead[-1])
            return
        done = len(chart.verdicts) >= len(self.chart_moves)
        where = "after" if direction > 0 else "before"
        shown = self.session.start_ply + self.ply  # the game's number of the move shown
        self.query_one(MessageLine).say(
            f"No inaccuracy, mistake or blunder {where} move {shown}" if done
            else f"None marked {where} move {shown} yet: the chart is still analysing", error=True)

    @work(thread=True, exclusive=True, group="chart", exit_on_error=False)
    def _wait_for_chart(self, ai: AIOpponent, search) -> None:
        worker = get_current_worker()
        for events in ai.follow(search, lambda: worker.is_cancelled, WAIT_S):
            self.post_message(ChartProgress(search, any(ev.kind in ("done", "error") for ev in events)))

    def on_chart_progress(self, message: ChartProgress) -> None:  # (by name: a mixin gets no @on)
        if message.search is not self._chart_search:
            return
        if message.done and self._chart_ai is not None:
            self._chart_ai.close()
        self.show_chart()
        self.query_one(MoveList).show(self.session, self.board_cls, replay=True)

    def on_advantage_chart_jump(self, message: AdvantageChart.Jump) -> None:
        self.jump_to(message.ply)

    def on_unmount(self) -> None:
        if self._chart_ai is not None:
            self._chart_ai.close()
