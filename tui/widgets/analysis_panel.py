"""The analysis panel: an evaluation bar (seat 1's share on the left, in its colour), the best moves with
their evaluations, the verdict on the move made from the position (where it is known), and the search's
progress through its node budget while it runs.  Hidden while analysis is off."""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ai.analysis import PROVEN, win_probability
from tui.widgets.advantage_chart import MARKS
from engines import get_game

BAR_WIDTH = 20


def eval_words(game_id: str, score: float) -> str:
    """A score from the mover's side as words: the win probability, or the proven result."""
    if score >= PROVEN:
        return "wins"
    if score <= -PROVEN:
        return "loses"
    return f"{100 * win_probability(game_id, score):.0f}%"


def eval_bar(p_first: float, styles: tuple[str, str], width: int = BAR_WIDTH, ascii_style: bool = False) -> Text:
    """A bar split at seat 0's win probability: seat 0's part first, in its colour."""
    filled = round(max(0.0, min(1.0, p_first)) * width)
    bar = Text()
    bar.append(("#" if ascii_style else "█") * filled, styles[0])
    bar.append(("." if ascii_style else "░") * (width - filled), styles[1])
    return bar


def nodes_words(nodes: int) -> str:
    return f"{nodes // 1000}k" if nodes >= 10_000 else str(nodes)


class AnalysisPanel(Static):
    DEFAULT_CSS = """
    AnalysisPanel { height: auto; display: none; }
    """

    def show_waiting(self) -> None:
        self.update(Text("Analysis: starting…", "dim"))

    def show_lines(self, game_id: str, mover: int, board_cls, info, lines, done: bool,
                   line: tuple[str, ...] = (), verdict=None, budget: int = 0) -> None:
        """`info` (SearchInfo) and `lines` ((move, score) best first) from the side to move, `mover`;
        `line`: the best move and the best replies after it; `verdict` (ai.analysis.MoveVerdict): the
        move made from here, as `termarena analyse` and the chart judge it; `budget`: the nodes the
        search is given (its progress while it runs)."""
        text = Text(no_wrap=True, overflow="ellipsis")
        shown = get_game(game_id).output_to_player  # the moves in the player's notation, as the move list
        if lines:
            p = win_probability(game_id, lines[0][1])
            p_first = p if mover == 0 else 1.0 - p
            text.append(f"{100 * p_first:3.0f}% ", board_cls.side_styles[0])
            text.append_text(eval_bar(p_first, board_cls.side_styles, width=BAR_WIDTH - 8,
                                      ascii_style=self.app.settings.board_style == "ascii"))
        else:
            text.append("Analysis", "bold")
        if done and info is not None:
            text.append(f" ✓{nodes_words(info.nodes)}", "dim")
        elif not lines:  # searching: how far through its node budget
            searched = info.nodes if info is not None else 0
            text.append(f" {nodes_words(searched)} of {nodes_words(budget)} nodes" if budget else " …", "dim")
        for n, (move, score) in enumerate(lines, 1):
            text.append(f"\n{n}. ", "dim")
            text.append(f"{shown(move):<12}", "bold" if n == 1 else "")
            text.append(f" {eval_words(game_id, score)}")
        if verdict is not None and lines and verdict.move == lines[0][0]:
            text.append("\nplayed: the best move", "dim")  # its row is the first
        elif verdict is not None:
            text.append("\nplayed ", "dim")
            text.append(f"{shown(verdict.move):<8}")  # its chance under the best moves'
            text.append(f" {eval_words(game_id, verdict.score)}")
            if verdict.label in MARKS:  # on a line of its own: the side panel is 27 columns wide
                wide, _narrow, style = MARKS[verdict.label]
                text.append(f"\n{wide} {verdict.label}: -{100 * (verdict.best_eval - verdict.eval):.0f}%", style)
        if len(line) > 1:
            text.append("\nline ", "dim")
            text.append(" ".join(f"{n}.{shown(move)}" for n, move in enumerate(line, 1)))
        if not lines:
            text.append("\nsearching…", "dim")
        self.update(text)
