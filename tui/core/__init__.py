"""What the app and the command line share that has no UI: the game session, saves and the autosave,
player specs, the opponents (AI worker, bot processes) and `termarena match`.  Nothing here imports
Textual (a test checks), so the headless commands load none of it."""
