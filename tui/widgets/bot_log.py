"""A collapsible panel with what the external bots print on stderr (their debug output), shown with its
control characters escaped (`\x1b`) and never read as markup."""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Collapsible, RichLog

from engines.visible import visible


class BotLog(Collapsible):
    DEFAULT_CSS = """
    BotLog { height: auto; max-height: 9; }
    BotLog RichLog { height: 6; }
    """

    def __init__(self, **kwargs) -> None:
        self._log = RichLog(max_lines=500, wrap=True, markup=False, highlight=False, min_width=10)
        self._log.can_focus = False  # the board keeps the keyboard; `L` opens and closes the log
        super().__init__(self._log, title="Bot stderr (L)", collapsed=True, **kwargs)
        self.lines = 0

    def on_mount(self) -> None:
        for title in self.query("CollapsibleTitle"):
            title.can_focus = False

    def add(self, label: str, line: str, style: str = "") -> None:
        text = Text()
        text.append(f"{label}: ", style or "dim")
        text.append(visible(line))
        self._log.write(text)
        self.lines += 1
        self.title = f"Bot stderr (L): {self.lines} lines"
