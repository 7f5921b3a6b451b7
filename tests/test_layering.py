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


# ------------------------------------------------------------------ one place per game

def game_modules() -> set[str]:
    """The per-game packages (or modules) of every registered game, as engines/registry.py places them."""
    from engines import game_ids
    from engines.registry import entry

    out = set()
    for gid in game_ids():
        e = entry(gid)
        out.update(path.partition(":")[0] for path in (e.engine, e.ai, e.board) if path)
    return out


def game_names() -> tuple[set[str], set[str]]:
    """What names a game: (the ids and their aliases, the engine classes' names)."""
    from engines import game_aliases, game_ids, get_game

    return ({name for gid in game_ids() for name in (gid, *game_aliases(gid))},
            {get_game(gid).__name__ for gid in game_ids()})


def shared_files() -> list[Path]:
    """Every shipped module outside the per-game packages and the registry itself."""
    games = game_modules()

    def per_game(path: Path) -> bool:
        name = module_name(path)
        return any(name == g or name.startswith(g + ".") for g in games)
    return [p for pkg in ("engines", "ai", "tui") for p in files(pkg)
            if not per_game(p) and p != ROOT / "engines" / "registry.py"]


def test_the_scan_sees_every_game_and_their_packages():
    assert {"engines.connect4", "ai.connect4", "tui.widgets.boards.connect4"} <= game_modules()
    ids, classes = game_names()
    assert {"connect4", "c4", "lines-of-action", "loa"} <= ids and "Connect4" in classes
    assert ROOT / "ai" / "levels.py" in shared_files()
    assert ROOT / "ai" / "connect4" / "tools.py" not in shared_files()


@pytest.mark.parametrize("path", shared_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_module_names_a_game(path):
    """A game is found through the registry: shared code holds no per-game table, test or import (a
    string that is a game's id or alias, a name that is its engine class, an import of its packages)."""
    (ids, classes), games = game_names(), game_modules()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"line {node.lineno}: {node.value!r}" for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ids]
    found += [f"line {node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
              if getattr(node, "id", None) in classes or getattr(node, "attr", None) in classes]
    found += [f"imports {name}" for name in sorted(full_imports(path))
              if any(name == g or name.startswith(g + ".") for g in games)]
    assert not found, f"{path.relative_to(ROOT)} names a game: {found}"
