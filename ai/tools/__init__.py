"""Tuning and build tools, apart from what the app and the bot import (a test checks they never load
any of this, nor a game's own tools):

- `specs`: players from `kind:key=value,...` strings (`level:6,nodes=3000`, `ab:...`, `mcts:...`).
- `arena`: colour-swapped in-process games between two specs: `python -m ai.tools.arena GAME A B`.
- `bot`: any spec as a CodinGame bot: `python -m ai.tools.bot GAME SPEC`.
- `mcts`: the plain UCT yardstick of the alpha-beta levels, one implementation for every game.
- `openspiel_mcts`: OpenSpiel's own MCTS on our games, an outside yardstick (needs `open_spiel`), on
  `int_actions` (a game as integer actions).
- `calibrate`: fits a game's CALIBRATION (the analysis' win chances).

What the tools need of each game (openings, the bare search as an `ab:` player, the yardstick's
position, OpenSpiel's actions) is the `tools` module of its AI package, ai/<game>/tools.py; a game's
own build tools live there too (e.g. ai/connect4/build_book.py, ai/paper_soccer/fit_value.py).
"""
