"""Data flows one way, tui -> ai -> engines, and the engines stay pure (only the referee starts processes)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def files(package: str):
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", files("engines"), ids=lambda p: str(p.relative_to(ROOT)))
def test_engines_import_neither_ai_nor_tui_nor_textual(path):
    assert not imported_modules(path) & {"ai", "tui", "textual", "rich", "typer"}


@pytest.mark.parametrize("path", [p for p in files("engines") if "referee" not in p.parts],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_engines_outside_the_referee_do_no_io(path):
    assert not imported_modules(path) & {"subprocess", "socket", "selectors", "threading", "pickle", "shutil"}
    assert "open(" not in path.read_text(encoding="utf-8").replace("is_open(", "")


@pytest.mark.parametrize("path", files("ai"), ids=lambda p: str(p.relative_to(ROOT)))
def test_ai_does_not_import_the_ui(path):
    assert not imported_modules(path) & {"tui", "textual"}


@pytest.mark.parametrize("package", ["engines", "ai", "tui"])
def test_nothing_unpickles_or_evals(package):
    for path in files(package):
        text = path.read_text(encoding="utf-8")
        found = re.search(r"(?<![\w.])(eval|exec)\(|pickle\.loads?\(|marshal\.loads?\(", text)
        assert found is None, f"{path}: {found.group(0) if found else ''}"
