"""Searches `first_turns.TABLE` again and prints it (an offline tool; the `fast` extra, 20 s):

    python -m ai.paper_soccer.build_first_turns [--nodes 1500000]
"""
from __future__ import annotations

import argparse

from ai.paper_soccer.first_turns import position
from ai.paper_soccer.player import PaperSoccerPlayer

NODES = 1_500_000


def search_table(nodes: int = NODES) -> dict[str, tuple[tuple[str, int], ...]]:
    """The table, searched again (the compiled tree: `fast` extra)."""
    table = {}
    for line in ["", *(str(d) for d in range(8))]:
        player = PaperSoccerPlayer(6)
        player.searcher.fast = True
        scores = player.searcher.search(position(line), node_limit=nodes, multipv=True).scores
        best = max(scores.values())
        # a turn more than level 6's tie noise below the best is one its search would not play
        table[line] = tuple(sorted(((t, v) for t, v in scores.items() if v >= best - player.cfg.tie_noise),
                                   key=lambda tv: (-tv[1], tv[0])))
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.paper_soccer.build_first_turns",
                                 description="Searches the first-turn table again and prints it.")
    ap.add_argument("--nodes", type=int, default=NODES)
    args = ap.parse_args(argv)
    for line, turns in search_table(args.nodes).items():
        print(f"    {line!r}: {turns!r},")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
