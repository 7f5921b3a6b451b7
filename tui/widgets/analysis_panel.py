"""The analysis panel: an evaluation bar (seat 1's share on the left, in its colour) and the best moves
with their evaluations, as the analysis search deepens.  Hidden while analysis is off."""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ai.analysis import PROVEN, win_probability
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
                   line: tuple[str, ...] = ()) -> None:
        """`info` (SearchInfo) and `lines` ((move, score) best first) from the side to move, `mover`;
        `line`: the best move and the best replies after it."""
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
        if info is not None:
            text.append(f" {'✓' if done else '…'}{nodes_words(info.nodes)}", "dim")
        for n, (move, score) in enumerate(lines, 1):
            text.append(f"\n{n}. ", "dim")
            text.append(f"{shown(move):<12}", "bold" if n == 1 else "")
            text.append(f" {eval_words(game_id, score)}")
        if len(line) > 1:
            text.append("\nline ", "dim")
            text.append(" ".join(f"{n}.{shown(move)}" for n, move in enumerate(line, 1)))
        if not lines:
            text.append("\nthinking…", "dim")
        self.update(text)
