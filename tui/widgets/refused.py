"""Which binding a key would have run, had it not been hidden or dimmed (`check_action` not True): the
board and the game screen say why such a key does nothing instead of staying silent."""
from __future__ import annotations

from textual.actions import ActionError, parse
from textual.binding import NoBinding
from textual.dom import DOMNode


def refused_action(node: DOMNode, key: str) -> tuple[str, tuple[object, ...]] | None:
    """(action, parameters) of `node`'s binding of `key` that check_action refuses now; None when the
    key is not one of `node`'s or one of its bindings runs."""
    try:
        bindings = node._bindings.get_bindings_for_key(key)
    except NoBinding:
        return None
    refused = None
    for binding in bindings:
        try:
            _, action, parameters = parse(binding.action)
        except ActionError:
            continue
        if node.check_action(action, parameters):
            return None  # this binding runs
        refused = refused or (action, parameters)
    return refused
