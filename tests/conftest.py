"""Session-wide settings for the tests."""
import os

# Paper Soccer searches that may choose keep to the pure-Python tree, in the tests and in the bots they
# start: the compiled tree (the `fast` extra) gives the same answers (tests/ai/test_paper_soccer_compiled.py
# checks that), and loading it in the background of every test process would only slow the suite.
os.environ["TERMARENA_PURE_PYTHON"] = "1"
