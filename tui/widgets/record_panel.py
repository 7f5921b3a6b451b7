"""The replay's panel for a recorded game (`referee`/`match --record`): for the turn on the board, who was
asked, what it answered and how long it took, the other bot's latest answer time, and what each bot
printed on stderr while the turn ran.  Bot text is shown escaped (engines.record.escape), so a control
character a bot printed is seen as `\\x1b`, never sent to the terminal."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from engines.base import quote
from engines.record import TurnRecord, escape, last_answers


def turn_text(record: list[TurnRecord], step: int, names: tuple[str, str], styles: tuple[str, str],
              failed: bool) -> Text:
    """The panel's text at `step` (0: before the first turn); `failed`: this turn ended the game."""
    text = Text()
    if step == 0:
        text.append(f"Recorded: {len(record)} turns with each bot's answer, time and stderr. "
                    "→ shows the first.", "dim")
        return text
    if step > len(record):
        text.append(f"Turn {step} was not recorded.", "dim")
        return text
    turn = record[step - 1]
    mover = turn.seat
    text.append(f"Turn {turn.turn} ", "bold")
    text.append(names[mover], f"bold {styles[mover]}")
    if turn.output is None:
        text.append(f"\nno answer after {turn.ms} ms", "bold red")
    else:
        text.append(f"\nanswer {quote(turn.output, 60)}", "bold red" if failed else "")
        text.append(f" in {turn.ms} ms" + (" (refused)" if failed else ""), "bold red" if failed else "dim")
    other = last_answers(record, step)[1 - mover]
    text.append("\n" + names[1 - mover], styles[1 - mover])
    text.append(f": {other.ms} ms on turn {other.turn}" if other is not None else ": no answer yet", "dim")
    for seat in (mover, 1 - mover):
        lines = turn.stderr[seat]
        text.append(f"\n{names[seat]} stderr", f"bold {styles[seat]}")
        text.append(f" ({len(lines)})" if lines else ": nothing", "dim")
        for line in lines:
            text.append("\n " + escape(line))
    return text


class RecordPanel(VerticalScroll):
    """Scrolls (↑ ↓, the mouse) when a turn's stderr is longer than the panel."""

    DEFAULT_CSS = """
    RecordPanel { height: 2fr; margin-top: 1; }
    RecordPanel > Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="record-text")

    def show(self, text: Text) -> None:
        self.query_one("#record-text", Static).update(text)
        self.scroll_home(animate=False)
