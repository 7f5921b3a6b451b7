"""Widgets of the game screen: the boards, the status panel, the move list, the bot log."""
