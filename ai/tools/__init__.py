"""Tuning and build tools, apart from what the app and the bot import (a test checks they never load
any of this):

- `specs`: players from `kind:key=value,...` strings (`level:6,nodes=3000`, `ab:...`, `mcts:...`).
- `arena`: colour-swapped in-process games between two specs: `python -m ai.tools.arena GAME A B`.
- `bot`: any spec as a CodinGame bot: `python -m ai.tools.bot GAME SPEC`.
- `mcts`: the plain UCT yardstick of the alpha-beta levels, one implementation for the four games.
- `openspiel_mcts`: OpenSpiel's own MCTS on our games, an outside yardstick (needs `open_spiel`).
- `connect4`, `paper_soccer`, `lines_of_action`, `cultist_wars`: what the tools need of each game
  (openings, the bare search as an `ab:` player, the yardstick's position).
- `connect4_book`: computes ai/connect4/opening_book.py; `connect4_speed`: the search's speed digest.
- `paper_soccer_value`: fits Paper Soccer's learned value (ai/paper_soccer/value.txt) to game results.
"""
