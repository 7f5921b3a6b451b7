"""Any player spec (ai/tools/specs.py) as a CodinGame bot on stdin/stdout, e.g. the yardsticks:

    python -m ai.tools.bot paper-soccer mcts
    python -m ai.tools.bot connect4 mcts:decisive=1
    python -m ai.tools.bot cultist-wars greedy

Each turn's deadline is 60% of the game's CodinGame limit (`ai.bot.MARGIN`), as `termarena bot` keeps
(`--margin` changes the share); a spec's own budget (`ms`, `iterations`) can only make it shorter."""
from __future__ import annotations

import argparse

from ai.bot import MARGIN, run_bot
from ai.tools.specs import checked_player
from engines import resolve_game_id
from engines.base import EngineError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.tools.bot", description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("spec")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--margin", type=float, default=MARGIN, help="the share of each turn's limit to use")
    args = ap.parse_args(argv)
    try:
        game_id = resolve_game_id(args.game)
        player = checked_player(game_id, args.spec, args.seed)
    except (ValueError, EngineError) as e:  # one line on stderr, which a referee keeps: not a traceback
        ap.error(str(e))
    return run_bot(game_id, player.choose, margin=args.margin)


if __name__ == "__main__":
    raise SystemExit(main())
