"""Player specs as SPEC.md defines them: `human`, `ai` / `ai:N`, `cmd:COMMAND` or any other string."""
from __future__ import annotations

from dataclasses import dataclass

from ai.levels import DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL  # noqa: F401  (re-exported to the CLI and screens)
from tui.core.python_module import module_argv


SERVED_ENV = "TERMARENA_SERVED"  # set by `termarena serve` for the apps it starts: no external bot there


class SpecError(ValueError):
    pass


@dataclass(frozen=True)
class PlayerSpec:
    kind: str  # "human", "ai", "cmd", or "net" (a person playing over the network: never parsed from text)
    level: int | None = None
    command: str | None = None
    text: str = ""

    @property
    def label(self) -> str:
        if self.kind == "ai":
            return f"ai:{self.level}"
        if self.kind == "cmd":
            return f"cmd:{self.command}"
        return "human"  # also "net": a saved network game loads as a game between two people here


REMOTE = PlayerSpec("net", text="remote")


def parse_spec(text: str) -> PlayerSpec:
    raw = text.strip()
    low = raw.lower()
    if low == "human":
        return PlayerSpec("human", text=raw)
    if low == "ai" or low.startswith("ai:"):
        level_text = raw[3:] if ":" in raw else str(DEFAULT_LEVEL)
        try:
            level = int(level_text)
        except ValueError:
            raise SpecError(f"bad AI level in {text!r}: want ai:N with N from {MIN_LEVEL} to {MAX_LEVEL}") from None
        if not MIN_LEVEL <= level <= MAX_LEVEL:
            raise SpecError(f"AI level {level} is out of range: want {MIN_LEVEL} to {MAX_LEVEL}")
        return PlayerSpec("ai", level=level, text=raw)
    command = raw[4:] if low.startswith("cmd:") else raw
    if not command.strip():
        raise SpecError(f"empty bot command in {text!r}")
    return PlayerSpec("cmd", command=command, text=raw)


def bot_argv(game_id: str, spec: PlayerSpec, think_ms: int | None = None,
             seed: int | None = None) -> list[str] | str:
    """The process that plays `spec` in a refereed game: the built-in bot for AI levels (`seed`: the
    seed of its own randomness, 0..2^64-1; random if None)."""
    if spec.kind == "ai":
        # `python -m ai.bot` is `termarena bot` without the command line's imports: a faster start
        argv = module_argv("ai.bot", game_id, "--level", str(spec.level))
        if think_ms is not None:
            argv += ["--think-ms", str(think_ms)]
        if seed is not None:
            argv += ["--seed", str(seed)]
        return argv
    if spec.kind == "cmd":
        return spec.command
    raise SpecError("a human cannot sit in a headless game; use `termarena play` for that")
