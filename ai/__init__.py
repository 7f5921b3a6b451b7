"""Search and evaluation for the four games, on the engines' protocol; levels per game."""
