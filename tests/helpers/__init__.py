"""What several test modules share (builders, fakes, process checks), so that no test module imports
another; per-package fixtures stay in the conftest.py files."""
