"""The tuning tools (ai/tools): player specs, the MCTS yardstick on every game, the arena and the tool
bot; and that the app's and the bot's players never load any of them."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ai.tools.arena import run
from ai.tools.specs import make_player, parse_spec
from engines import GAME_IDS, get_game
from tests.helpers.real_play import logged_position, mover_wins
from tests.helpers.players import CASES


def test_specs_are_kind_and_keyed_values():
    assert parse_spec("level:5") == ("level", {"level": 5})
    assert parse_spec("level:5,nodes=600,ms=80") == ("level", {"level": 5, "nodes": 600, "ms": 80})
    assert parse_spec("mcts:c=1.4,solve=0") == ("mcts", {"c": 1.4, "solve": 0})
    assert parse_spec("greedy") == ("greedy", {})
    assert parse_spec("ab:weights=x") == ("ab", {"weights": "x"})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_level_spec_is_the_level_with_its_fields_replaced(game_id):
    player = make_player(game_id, "level:5,nodes=600,ms=80", seed=1)
    assert player.level == 5 and player.cfg.nodes == 600 and player.think_ms == 80
    with pytest.raises(ValueError):
        make_player(game_id, "nonsense:1")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_mcts_yardstick_plays_legal_moves_and_takes_a_win_in_1(game_id):
    case = CASES[game_id]
    game = logged_position(game_id, *case.midgame)
    before = game.to_text()
    assert game.is_legal(make_player(game_id, "mcts:iterations=30", seed=1).choose(game))
    assert game.to_text() == before
    for index, back in case.win_in_1[:2]:
        game = logged_position(game_id, index, back)
        seat = game.current_player()
        game.push(make_player(game_id, "mcts:iterations=30", seed=1).choose(game))
        assert mover_wins(game, seat), (index, back)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_bare_search_plays_legal_moves(game_id):
    game = logged_position(game_id, *CASES[game_id].midgame)
    assert game.is_legal(make_player(game_id, "ab:nodes=300", seed=1).choose(game))


def test_the_arena_plays_colour_swapped_pairs_and_keeps_the_games(capsys, tmp_path):
    kept = tmp_path / "games.txt"
    score = run("connect4", "level:1", "level:3", 2, jobs=1, quiet=True, games_out=str(kept))
    assert score.games == 2
    assert "level:1 vs level:3" in capsys.readouterr().out
    lines = kept.read_text().splitlines()
    assert len(lines) == 2
    for line in lines:  # each line replays from the start to the result it names
        winner, *moves = line.split("\t")
        game = get_game("connect4").new()
        for move in moves:
            game.play(move)
        out = game.outcome()
        assert out is not None and winner == ("-" if out.winner is None else str(out.winner))


def test_another_arena_seed_plays_other_games_and_the_same_seed_the_same_ones(tmp_path, capsys):
    # a second run of a match adds games instead of replaying the first run's (node budgets: no clock)
    def games(seed, name):
        kept = tmp_path / name
        run("connect4", "level:2", "level:2", 4, jobs=1, quiet=True, games_out=str(kept), seed=seed)
        return kept.read_text().splitlines()

    first = games(0, "a.txt")
    assert games(0, "b.txt") == first
    other = games(1, "c.txt")
    assert len(other) == 4 and not set(other) & set(first)


@pytest.mark.parametrize("game, spec, says", [
    ("ps", "level:3,seed=1", "a player's seed comes from the game it plays"),
    ("ps", "level:9", "out of range"),
    ("ps", "level:3,colour=1", "colour"),
    ("ps", "level:6,net={missing}", "No such file"),
    ("chess", "level:1", "unknown game 'chess'"),
], ids=["seed", "level", "field", "net", "game"])
def test_the_arena_refuses_a_bad_player_in_one_line_before_a_game(tmp_path, capsys, game, spec, says):
    from ai.tools.arena import main

    with pytest.raises(SystemExit) as end:
        main([game, spec.format(missing=tmp_path / "none.net"), "level:2", "-n", "2", "-j", "1"])
    err = capsys.readouterr().err
    assert end.value.code == 2 and says in err and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("python -m ai.tools.arena: error: ")


def test_the_tool_bot_refuses_a_bad_player_in_one_line(capsys):
    from ai.tools.bot import main

    with pytest.raises(SystemExit) as end:
        main(["ps", "level:9"])
    err = capsys.readouterr().err
    assert end.value.code == 2 and "level 9 is out of range" in err and "Traceback" not in err


def test_calibrate_scores_the_same_positions_on_forked_processes_as_in_this_one(tmp_path, capsys):
    """Its games go through the tournament's runner (ai.tournament.runners.in_processes): two workers
    give the very (score, result) pairs one does, in the order the games end."""
    from ai.tools.calibrate import main

    got = []
    for jobs in (1, 2):
        out = tmp_path / f"pairs{jobs}.json"
        assert main(["connect4", "--games", "2", "--nodes", "50", "--every", "6", "-j", str(jobs),
                     "--pairs", str(out)]) == 0
        got.append(sorted(map(tuple, json.loads(out.read_text()))))
    assert got[0] == got[1] and got[0]
    assert "game 2/2" in capsys.readouterr().out


def test_calibrate_from_played_games_scores_their_positions_with_the_changed_search(tmp_path):
    """`--from` replays the games of a `--games` file, scores every `--every`-th position with the analysis
    search as `--with` changes it and pairs each score with the game's result for the side to move."""
    from ai.analysis import PROVEN, analysis_player, evaluate
    from ai.tools.calibrate import main

    games = tmp_path / "games.txt"
    assert run("paper-soccer", "level:2", "level:3", 2, jobs=1, quiet=True, games_out=str(games)) is not None
    out = tmp_path / "pairs.json"
    assert main(["ps", "--from", str(games), "--games", "1", "--nodes", "300", "--every", "3",
                 "--with", "value=learned", "--pairs", str(out)]) == 0
    winner, *moves = games.read_text().splitlines()[0].split("\t")
    judge = analysis_player("paper-soccer", nodes=300, changes={"value": "learned"})
    assert judge.cfg.value == "learned"
    want, game = [], get_game("paper-soccer").new()
    for move in moves:
        if game.ply % 3 == 0:
            ev = evaluate(game, judge, all_scores=False)
            if abs(ev.score) < PROVEN:  # a proven result's probability is not fitted
                want.append([ev.score, 1.0 if int(winner) == game.current_player() else 0.0])
        game.play(move)
    assert json.loads(out.read_text()) == want and want


@pytest.mark.parametrize("data, says", [
    (b"not a game\n", "line 1: not a game"),
    (b"1\t4\n\xff\n", "utf-8"),
    (None, "not a regular file"),  # a FIFO: opened, it would wait for a writer forever
])
def test_calibrate_refuses_a_file_that_is_not_games_in_one_line(tmp_path, capsys, data, says):
    import os

    from ai.tools.calibrate import main

    bad = tmp_path / "bad.txt"
    if data is None:
        os.mkfifo(bad)
    else:
        bad.write_bytes(data)
    with pytest.raises(SystemExit) as stop:
        main(["ps", "--from", str(bad), "--games", "2"])
    assert stop.value.code == 2 and says in capsys.readouterr().err


@pytest.mark.slow  # the tool bot as a real process
def test_the_tool_bot_answers_the_referee():
    game = get_game("cultist-wars").new(7)
    stdin = "".join(line + "\n" for line in game.bot_input(first=True))
    out = subprocess.run([sys.executable, "-m", "ai.tools.bot", "cw", "greedy", "--seed", "1"], input=stdin,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    game.play(out.stdout.strip())


@pytest.mark.slow  # a fresh interpreter
def test_the_bot_and_every_level_leave_the_tools_unloaded():
    code = """
import sys, time
import ai.bot
from ai.levels import make_player
from engines import GAME_IDS, get_game
for game_id in GAME_IDS:
    game = get_game(game_id).new(7)
    for level in range(1, 7):
        make_player(game_id, level).choose(game, time.monotonic() + 0.05)
print(sorted(m for m in sys.modules if m == "ai.tools" or m.startswith("ai.tools.") or m.endswith(".tools")))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
