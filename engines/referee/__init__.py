"""The referee that hosts bot processes: the one part of `engines/` that starts processes."""
from engines.referee.match import MatchResult, TurnEvent, run_match  # noqa: F401
from engines.referee.process import (  # noqa: F401
    BotCrashed, BotError, BotFlooded, BotProcess, BotTimeout,
)
