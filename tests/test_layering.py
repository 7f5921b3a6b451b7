"""Data flows one way, tui -> ai -> engines, and the engines stay pure (only the referee starts processes)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def full_imports(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (function bodies too), relative imports resolved
    against its package: `from .game import X` in engines/cultist_wars/reader.py is
    engines.cultist_wars.game (and engines.cultist_wars.game.X, in case X is a module)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            prefix = ".".join(base + ([node.module] if node.module else []))
            out.add(prefix)
            out.update(f"{prefix}.{a.name}" for a in node.names)
    return out


def imported_modules(path: Path) -> set[str]:
    """The top-level packages `path` imports (relative and function-level imports counted)."""
    return {name.split(".")[0] for name in full_imports(path)}


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


def test_relative_imports_are_resolved_to_their_package():
    reader = ROOT / "engines" / "cultist_wars" / "game.py"
    assert "engines.cultist_wars.reader" in full_imports(reader)


def test_no_import_cycle_among_the_projects_modules():
    """Relative and function-level imports count: a cycle hidden inside a function is still a cycle."""
    modules = {module_name(p): p for pkg in ("engines", "ai", "tui") for p in files(pkg)}

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None
    edges = {m: set() for m in modules}
    for m, path in modules.items():
        for name in full_imports(path):
            target = owner(name)
            # a package importing its own submodules (or a module its package) is not a cycle
            if target and target != m and not target.startswith(m + ".") and not m.startswith(target + "."):
                edges[m].add(target)
    seen: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(m: str, path: list[str]) -> None:
        seen[m] = 1
        for t in sorted(edges[m]):
            if seen.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(t):] + [m, t]))
            if t not in seen:
                visit(t, path + [m])
        seen[m] = 2
    for m in sorted(modules):
        if m not in seen:
            visit(m, [])
