"""The persistent league (`termarena league`): an SQLite file of players and finished games (db), ratings
derived from the games (ratings), the choice of who plays next (pairing), games as pure jobs (jobs) and
the run that plays and stores them (run).  No Textual here: the CLI draws the table."""

DEFAULT_DB = "league.db"  # here: the command line names it without loading SQLite
