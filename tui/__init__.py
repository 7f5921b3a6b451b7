"""termarena's face: the Textual app, its screens and board widgets, and the typer command line."""
