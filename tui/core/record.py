"""`--record DIR` of `referee` and `match`: each refereed game written to DIR as a save file of format 2,
with its turn-by-turn record (answers, times, both bots' stderr: engines/record.py).

Files are named after the game, the moment the run started, the game's number in the run and its seed
(`connect4-20261126-130501-game0-seed7.txt`) and never written over one another: a name that is taken
gets `-2`, `-3`, ...  Each file is written atomically (tui.core.storage.atomic_write)."""
from __future__ import annotations

import datetime as _dt
from pathlib import Path

from engines import get_game
from engines.referee import MatchResult
from engines.savefile import SavedGame, dump
from tui.core.storage import (SUFFIX, StorageError, atomic_write, check_saves_dir, numbered_names,
                              remove_stale_temps, shown)


def recorded_save(result: MatchResult, date: str) -> tuple[SavedGame, object]:
    """The save of a refereed game and its final position (the moves replayed from the seed's start)."""
    game = get_game(result.game).new(result.seed)
    for move in result.moves:
        game.play(move)
    saved = SavedGame(game=result.game, moves=list(result.moves), seed=result.seed,
                      players=(result.seats[0], result.seats[1]), date=date,
                      result=result.outcome.result(), reason=result.outcome.reason.value,
                      detail=result.error or "", record=list(result.record or []))
    return saved, game


class RecordFolder:
    """Where one run's games go; `write` is safe from several threads (each game has its own name)."""

    def __init__(self, folder: str | Path, started: _dt.datetime | None = None) -> None:
        self.folder = Path(folder).expanduser()
        self.started = started or _dt.datetime.now()
        self.written: list[Path] = []

    def check(self) -> str | None:
        """Why games cannot be written there, in one line, or None; when they can, the temporaries of
        writes killed in an earlier run are removed."""
        problem = check_saves_dir(self.folder)
        if problem is None:
            remove_stale_temps(self.folder)
        return problem

    def write(self, result: MatchResult, index: int) -> Path:
        saved, final = recorded_save(result, _dt.datetime.now().isoformat(timespec="seconds"))  # the game's end
        text = dump(saved, final)
        stem = f"{result.game}-{self.started:%Y%m%d-%H%M%S}-game{index}-seed{result.seed}"
        for path in numbered_names(self.folder, stem):
            try:
                atomic_write(path, text, replace=False)
            except FileExistsError:
                continue
            except OSError as e:
                raise StorageError(f"could not record game {index} in {shown(path)}: {e.strerror or e}") from None
            self.written.append(path)
            return path
        raise StorageError(f"could not record game {index}: every name {shown(stem)}-N{SUFFIX} is taken")
