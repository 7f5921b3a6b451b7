"""Textual's Footer, rebuilt only when the keys it shows change, at most once per refresh.

The stock footer rebuilds all its keys on every `refresh_bindings()`, and one move refreshes the
bindings several times (board input on and off, undo available...).  Rebuilding restyles every key,
which made each move visibly slower.  Here, when the same keys are shown and only some became
enabled or disabled (dimmed), those keys are updated in place; the footer is rebuilt only when
keys appear or disappear.
"""
from __future__ import annotations

from textual.dom import NoScreen
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class GameFooter(Footer):
    def __init__(self, *args, **kwargs) -> None:
        # ctrl+p (the command palette) is listed in the help instead: 80 columns have no room for it
        kwargs.setdefault("show_command_palette", False)
        super().__init__(*args, **kwargs)

    _refresh_pending = False
    _layout: tuple | None = None  # (key, action, description) of the keys shown, in order

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or self._refresh_pending:
            return
        if self.is_attached and screen is self.screen:
            self._refresh_pending = True
            self.call_after_refresh(self._refresh_keys)

    async def _refresh_keys(self) -> None:
        self._refresh_pending = False
        if not self.is_attached:
            return  # its screen was switched away meanwhile
        try:
            active = self.screen.active_bindings
        except NoScreen:
            return
        shown = [(key, a.binding.action, a.binding.description, a.enabled)
                 for key, a in active.items() if a.binding.show]
        layout = tuple(entry[:3] for entry in shown)
        if layout != self._layout:
            self._layout = layout
            await self.recompose()
            return
        enabled = {action: on for _, action, _, on in shown}
        for key in self.query(FooterKey):
            on = enabled.get(key.action, True)
            if key._disabled == on:  # FooterKey keeps its state in `_disabled` and the -disabled class
                key._disabled = not on
                key.set_class(not on, "-disabled")
                key.refresh()

    def redraw_keys(self) -> None:
        """Show the keys again even if they are the same keys (the app's key display changed)."""
        self._layout = None
        if self.is_attached:
            self.call_later(self._refresh_keys)  # in the footer's own context, where it composes its keys
