"""The command palette's game commands (ctrl+p): the game screen's own key actions, offered by name.

Built from GameScreen.BINDINGS, so a command is exactly what its key does, and it is offered only
where the key would work now (`check_action`), e.g. no undo while there is nothing to undo."""
from __future__ import annotations

from textual.command import DiscoveryHit, Hit, Hits, Provider

# The palette's names of the game screen's actions (those worth running by name).
COMMANDS = {
    "new_game": "New game",
    "save": "Save the game",
    "load": "Load a saved game",
    "undo": "Undo",
    "redo": "Redo",
    "hint": "Hint: what would the AI play?",
    "type_move": "Type a move",
    "help": "Help: every key",
    "toggle_log": "Show or hide the bot log",
    "toggle_analysis": "Analysis on/off: evaluation bar and best moves",
}


class GameCommands(Provider):
    def _available(self) -> list[tuple[str, str, str]]:
        """(name, help, action) of the commands that apply now, in the game screen's words."""
        from tui.screens.game import GameScreen

        screen = self.screen
        if not isinstance(screen, GameScreen):
            return []
        out, seen = [], set()
        for b in screen.BINDINGS:
            action = b.action.split("(")[0]
            if action not in COMMANDS or action in seen:
                continue
            seen.add(action)
            if screen.check_action(action, ()) is not True:
                continue
            example = getattr(screen.board_cls, "move_example", "") or "the move a bot would print"
            out.append((COMMANDS[action], (b.tooltip or b.description).format(example=example), action))
        return out

    def _run(self, action: str):
        screen = self.screen
        return lambda: screen.run_action(action)

    async def discover(self) -> Hits:
        for name, help_text, action in self._available():
            yield DiscoveryHit(name, self._run(action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, action in self._available():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), self._run(action), help=help_text)
