"""Named in $TERMARENA_EXTRA_GAMES: importing it registers tic-tac-toe, as a game defined outside
termarena would register itself."""
from tests.helpers.tictactoe import register_game

register_game()
