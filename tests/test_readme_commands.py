"""The README's first code block is the contract with a new user: two commands, and CI runs the second."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def first_code_block() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    assert block, "README.md has no fenced code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_starts_with_exactly_two_commands_install_and_play_then_install_and_test():
    lines = first_code_block()
    assert len(lines) == 2
    play, test = lines
    assert ".venv" in play and "pip install" in play and play.rstrip().endswith("termarena")
    assert ".venv" in test and "pip install" in test and "pytest" in test


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert first_code_block()[1] in ci
