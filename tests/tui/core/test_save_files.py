"""Save files that must keep loading: the versioned reference files (tests/data/saves/v1: a finished game,
an unfinished game with a redo line and a position file per game) and the example saves shipped in
saves/, each checked for what its comment says is interesting.  Also the session <-> save round trip
and the command line's --load / --saves-dir options.  No Textual here: fast."""
from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest

from engines import get_game
from engines.savefile import SavedGame, dump, parse
from tui.app import specs_for_saved
from tui.core.session import Session
from tui.core.specs import parse_spec
from tui.core.storage import list_saves, load_game
from tests.helpers.paths import ROOT

V1 = ROOT / "tests" / "data" / "saves" / "v1"
EXAMPLES = ROOT / "saves"

# file: (moves, redo moves, result, reason, seat to move (None: over), players, seed)
V1_FACTS = {
    "connect4-finished.txt": (23, 0, "1-0", "connected", None, ("human", "ai:4"), None),
    "connect4-unfinished.txt": (7, 3, "*", "", 1, ("ai:5", "human"), 12345),
    "connect4-position.txt": (0, 0, "*", "", 0, ("human", "human"), None),
    "lines-of-action-finished.txt": (11, 0, "1-0", "connected", None, ("human", "human"), None),
    "lines-of-action-unfinished.txt": (7, 3, "*", "", 1, ("ai:5", "human"), 12345),
    "lines-of-action-position.txt": (0, 0, "*", "", 0, ("human", "human"), None),
    "cultist-wars-finished.txt": (15, 0, "1-0", "elimination", None, ("ai:2", "human"), 1),
    "cultist-wars-unfinished.txt": (7, 3, "*", "", 1, ("ai:5", "human"), 12345),
    "cultist-wars-position.txt": (0, 0, "*", "", 0, ("human", "human"), None),
    "paper-soccer-finished.txt": (25, 0, "1-0", "goal", None, ("ai:1", "ai:6"), None),
    "paper-soccer-unfinished.txt": (7, 3, "*", "", 1, ("ai:5", "human"), 12345),
    "paper-soccer-position.txt": (0, 0, "*", "", 0, ("human", "human"), None),
}
PLIES_BEFORE_THE_POSITION = 6  # the position files hold the position after 6 plies of a game


def test_every_reference_file_is_listed_here():
    assert {p.name for p in V1.glob("*.txt")} == set(V1_FACTS)


@pytest.mark.parametrize("name", sorted(V1_FACTS))
def test_a_format_1_file_still_loads_with_its_facts(name):
    moves, redo, result, reason, to_move, players, seed = V1_FACTS[name]
    saved, final = load_game(V1 / name)
    assert (len(saved.moves), len(saved.redo), saved.result, saved.reason) == (moves, redo, result, reason)
    assert saved.players == players and saved.seed == seed
    out = final.outcome()
    if to_move is None:
        assert out is not None and ("1-0" if out.winner == 0 else "0-1") == result and out.reason == reason
    else:
        assert out is None and final.current_player() == to_move
    if name.endswith("position.txt"):
        assert saved.start is not None and final.ply == 0
        counters = [line for line in final.to_text().splitlines()
                    if line.split(" = ")[0] in ("turn_index", "turns_played", "turn")]
        assert counters == [f"{counters[0].split(' = ')[0]} = {PLIES_BEFORE_THE_POSITION}"]
    # resume it as the app does: same position, same redo line, same players
    specs, note = specs_for_saved(saved.players, bool(saved.moves), None)
    session = Session(saved.game, specs, saved.seed, start=saved.start, moves=saved.moves, redo=saved.redo)
    assert session.game.key() == final.key() and session.redo_moves == saved.redo and note == ""
    assert [s.label for s in session.specs] == list(players)
    # and written again by today's code, it reads back the same
    again, state = parse(dump(session.to_saved(saved.date), session.game))
    assert (again.moves, again.redo, again.result, again.start) == (saved.moves, saved.redo, saved.result, saved.start)
    assert state.key() == final.key()


# ---------------------------------------------------------------------------- the shipped examples


def example(name: str):
    path = EXAMPLES / name
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[1].startswith("# "), "an example says what is interesting in a comment"
    return load_game(path)


def test_every_example_loads_and_says_why_it_is_interesting():
    entries = [e for e in list_saves(EXAMPLES) if not e.path.name.startswith("autosave")]
    assert {e.game for e in entries} == {"connect4", "lines-of-action", "cultist-wars", "paper-soccer"}
    for e in entries:
        assert e.error is None, e.error
        assert e.path.read_text(encoding="utf-8").splitlines()[1].startswith("# ")


def lines_of_four_through(row: int, col: int) -> int:
    from engines.connect4 import COLS, ROWS

    count = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for back in range(4):
            r0, c0 = row - back * dr, col - back * dc
            cells = [(r0 + k * dr, c0 + k * dc) for k in range(4)]
            count += all(0 <= r < ROWS and 0 <= c < COLS for r, c in cells)
    return count


def test_connect4_steal_opening():
    saved, game = example("connect4-steal-opening.txt")
    assert saved.moves == ["4", "STEAL"] and saved.result == "*"
    assert game.cell(6, 4) == "1" and sum(row.count("0") for row in game.board()) == 0  # Yellow's, in place
    assert game.current_player() == 0 and not game.can_steal() and game.steal_used
    assert lines_of_four_through(6, 4) == 7 and lines_of_four_through(6, 0) == 3


def test_lines_of_action_endgame_one_winning_move_and_two_losing_captures():
    saved, game = example("lines-of-action-endgame.txt")
    assert saved.moves == [] and saved.start is not None and game.current_player() == 0
    assert game.checker_counts() == (5, 7) and game.turns_played == 58
    wins, lose_at_once, lose_next = [], [], []
    for move in game.legal_moves():
        text = game.move_to_str(move)
        game.push(move)
        out = game.outcome()
        if out is not None:
            (wins if out.winner == 0 else lose_at_once).append(text)
        elif any(_wins_for(game, reply, 1) for reply in game.legal_moves()):
            lose_next.append(text)
        game.pop()
    assert len(game.legal_moves()) == 19
    assert wins == ["b5d3"] and sorted(lose_at_once) == ["c4c2", "e4c2"]
    assert len(lose_next) == 19 - 3  # every other move lets White connect at once


def _wins_for(game, move, seat: int) -> bool:
    game.push(move)
    out = game.outcome()
    game.pop()
    return out is not None and out.winner == seat


def walk_distance(game, a, b) -> int:
    free = {(x, y) for y, row in enumerate(game.tiles()) for x, t in enumerate(row) if t == "."}
    seen, todo = {a: 0}, deque([a])
    while todo:
        x, y = todo.popleft()
        for n in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if n in free and n not in seen:
                seen[n] = seen[(x, y)] + 1
                todo.append(n)
    return seen[b]


def test_cultist_wars_maze_seed():
    saved, game = example("cultist-wars-maze-seed-1326.txt")
    assert saved.seed == 1326 and saved.moves == [] and saved.start is None
    assert game.key() == get_game("cw").new(1326).key()  # the seed alone makes this map
    leaders = [(u.x, u.y) for u in game.units() if u.type == "leader"]
    assert leaders == [(0, 3), (12, 3)]
    rows = game.tiles()
    for x, y in leaders:
        free = [(nx, ny) for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                if 0 <= nx < 13 and 0 <= ny < 7 and rows[ny][nx] == "."]
        assert free == [(x, y + 1)]
    assert walk_distance(game, *leaders) == 28


def test_cultist_wars_open_field_seed():
    saved, game = example("cultist-wars-open-field-seed-1730.txt")
    assert saved.seed == 1730 and not game.obstacles()
    assert walk_distance(game, (0, 3), (12, 3)) == 12


def test_paper_soccer_bounce_chain_trap_only_one_turn_survives():
    saved, game = example("paper-soccer-bounce-trap.txt")
    assert saved.moves == [] and game.current_player() == 0 and game.turn == 22
    turns = game.legal_moves()
    assert game.legal_moves_complete() and len(turns) == 155
    assert sum(len(t) > 1 for t in turns) == 150 and max(turns, key=len) == "57470252505"
    kinds = {"blocked": [], "own_goal": [], "concede": [], "safe": []}
    for turn in turns:
        game.push(turn)
        out = game.outcome()
        if out is not None:
            assert out.winner == 1
            kinds[out.reason].append(turn)
        else:
            goal = game.scoring_turn()
            if goal is not None:  # a real goal for Blue: play it to be sure
                assert _wins_for(game, goal, 1)
            kinds["safe" if goal is None else "concede"].append(turn)
        game.pop()
    assert {k: len(v) for k, v in kinds.items()} == {"blocked": 52, "own_goal": 2, "concede": 100, "safe": 1}
    assert kinds["safe"] == ["301"]
    game.play("301")
    replies = game.legal_moves()
    assert len(replies) == 254 and not any(_wins_for(game, r, 1) for r in replies)


# ---------------------------------------------------------------------------- session <-> save


def test_a_session_saves_its_players_seed_moves_redo_and_result():
    s = Session("c4", [parse_spec("human"), parse_spec("ai:2")], seed=9)
    for m in ("4", "STEAL", "3", "3"):
        s.play(m)
    s.undo()  # back to my turn: the AI's 3 and my 3 go to the redo line
    saved = s.to_saved("2026-01-01T00:00:00")
    assert (saved.players, saved.seed, saved.moves, saved.redo, saved.result) == \
        (("human", "ai:2"), 9, ["4", "STEAL"], ["3", "3"], "*")
    loaded, state = parse(dump(saved, s.game))
    assert loaded.redo == ["3", "3"] and state.key() == s.game.key()


def test_a_forfeit_is_saved_as_the_result_and_restored_on_load():
    s = Session("c4", [parse_spec("cmd:./bot"), parse_spec("human")], seed=1)
    s.play("4")
    s.forfeit(0, "timeout", "no answer within 100 ms")
    saved = s.to_saved()
    assert (saved.result, saved.reason) == ("0-1", "timeout")
    assert saved.detail == "p1 (cmd:./bot): no answer within 100 ms"  # as `referee --record` writes it
    loaded, _ = parse(dump(saved, s.game))
    again = Session("c4", [parse_spec("human"), parse_spec("human")], loaded.seed, moves=loaded.moves)
    assert again.restore_forfeit(loaded)
    assert again.outcome() == s.outcome()
    assert again.result_words()[1] == "Red's bot: no answer within 100 ms"


# ---------------------------------------------------------------------------- the command line


@pytest.fixture
def cli(monkeypatch):
    """Runs `termarena ...` with the app replaced by a recorder of what it would have been given."""
    from typer.testing import CliRunner

    import tui.app
    from tui.cli import app

    calls = []
    monkeypatch.setattr(tui.app, "run_app", lambda **kw: calls.append(kw))

    def run(*args):
        result = CliRunner().invoke(app, list(args))
        return result, (calls[-1] if calls else None)

    return run


def test_play_defaults_and_explicit_players_override_the_file(cli, tmp_path):
    result, kw = cli("play", "c4")
    assert result.exit_code == 0 and [s.label for s in kw["specs"]] == ["human", "ai:3"]
    assert kw["overrides"] is None and kw["saves"] is None
    path = V1 / "connect4-unfinished.txt"
    result, kw = cli("play", "c4", "--load", str(path), "--p2", "ai:1", "--saves-dir", str(tmp_path))
    assert result.exit_code == 0 and kw["load"] == str(path) and kw["saves"] == str(tmp_path)
    assert kw["overrides"][0] is None and kw["overrides"][1].label == "ai:1"


def test_saves_dir_on_the_root_command(cli, tmp_path):
    result, kw = cli("--saves-dir", str(tmp_path))
    assert result.exit_code == 0 and kw == {"saves": str(tmp_path)}
    result, kw = cli("--saves-dir", str(tmp_path), "play", "loa")
    assert kw["saves"] == str(tmp_path)


def test_an_explicit_bot_cannot_join_a_loaded_game_with_moves(cli):
    result, kw = cli("play", "c4", "--load", str(V1 / "connect4-unfinished.txt"), "--p1", "cmd:./mybot")
    assert result.exit_code == 2 and kw is None
    # typer draws the error in a box that wraps with the terminal's width: compare the words only
    words = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert "cannot join" in words and "only understands a game from its start" in words
    # a position file has no moves: a bot can start from it
    result, kw = cli("play", "c4", "--load", str(V1 / "connect4-position.txt"), "--p1", "cmd:./mybot")
    assert result.exit_code == 0 and kw["overrides"][0].kind == "cmd"


def test_the_app_reads_the_saves_folder_from_the_option_then_the_environment(tmp_path, monkeypatch):
    from tui.app import create_app

    monkeypatch.setenv("TERMARENA_SAVES", str(tmp_path / "env"))
    assert create_app().saves_folder == tmp_path / "env"
    assert create_app(saves=str(tmp_path / "opt")).saves_folder == tmp_path / "opt"


def test_a_save_gets_the_usual_file_mode_not_a_private_temporary_ones(tmp_path):
    import os

    from tui.core.storage import save_game

    umask = os.umask(0o022)
    os.umask(umask)
    s = Session("c4", [parse_spec("human"), parse_spec("human")], seed=1)
    save_game(tmp_path / "g.txt", s.to_saved(), s.game)
    assert (tmp_path / "g.txt").stat().st_mode & 0o777 == 0o666 & ~umask
    (tmp_path / "g.txt").chmod(0o640)  # and a file saved again keeps the mode it had
    save_game(tmp_path / "g.txt", s.to_saved(), s.game)
    assert (tmp_path / "g.txt").stat().st_mode & 0o777 == 0o640


def test_saved_games_of_every_game_round_trip_through_a_session():
    for gid, moves in (("connect4", ["4", "4"]), ("lines-of-action", ["b1d3"]), ("cultist-wars", ["WAIT"]),
                       ("paper-soccer", ["0", "2"])):
        s = Session(gid, [parse_spec("human"), parse_spec("human")], seed=3)
        for m in moves:
            s.play(m)
        loaded, state = parse(dump(s.to_saved(), s.game))
        assert loaded.moves == s.notation and state.key() == s.game.key() and loaded.seed == 3
        assert isinstance(loaded, SavedGame)


@pytest.mark.parametrize("name, mark", [("connect4-steal-opening.txt", "○"), ("lines-of-action-endgame.txt", "●"),
                                        ("cultist-wars-maze-seed-1326.txt", "▓"),
                                        ("paper-soccer-bounce-trap.txt", "●")])
def test_the_load_screens_preview_draws_each_game_small(name, mark):
    from tui.widgets.preview import position_preview

    _, game = load_game(EXAMPLES / name)
    text = position_preview(game).plain
    assert mark in text and "= " not in text  # drawn, not the position text it falls back to
    assert len(text.splitlines()) <= 15 and max(len(line) for line in text.splitlines()) <= 30
