"""Outside yardsticks for the top AI level: independent bots our level 6 is measured against.

- `openspiel_mcts`: OpenSpiel's own MCTS (`open_spiel.python.algorithms.mcts.MCTSBot`, random rollouts)
  playing our four games wrapped as OpenSpiel Python games, as a CodinGame-protocol bot:
  `python -m ai.yardsticks.openspiel_mcts GAME`.  Needs the optional dependency
  (`pip install termarena[yardstick]`, i.e. `open_spiel`); nothing else in termarena imports it.
"""
