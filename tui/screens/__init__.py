"""The app's screens: game picker, setup, the game itself, and the dialogs over it."""
