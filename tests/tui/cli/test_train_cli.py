"""`termarena train`: each generation leaves its games, its net and its gate in the run folder, a rerun
goes on from the last file written, a gate's winner becomes the champion, and every bad setting is one
line before a game starts."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers.cli import run_cli

pytest.importorskip("numpy")  # the fitter's (the `fast` extra brings it)

# cheap players: level 2 and 3 play the self-play games, level 6 at 40 nodes the gate
FAST = ("--games", "4", "--gate-games", "2", "--gate-nodes", "40", "-j", "1", "--pool", "level:2", "--pool", "level:3")


def train(monkeypatch, capsys, folder, *args) -> tuple[int, str]:
    return run_cli(monkeypatch, capsys, "train", "ps", "--dir", str(folder), *args)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A run folder after one generation of FAST, as the command leaves it (played once for the module)."""
    from tui.core.training import TrainSettings, open_run

    run = open_run(tmp_path_factory.mktemp("played") / "run",
                   TrainSettings("paper-soccer", games=4, gate_games=2, gate_nodes=40, pool=("level:2", "level:3")))
    run.say = lambda line: None
    run.generation(1, jobs=1)
    return run.folder


def copy_of(played, tmp_path):
    import shutil

    return Path(shutil.copytree(played, tmp_path / "run"))


def logged(folder) -> list[str]:
    return (folder / "log.txt").read_text().splitlines()


@pytest.mark.slow  # whole generations: games, a fit, a gate
def test_each_generation_leaves_games_net_and_gate_and_a_rerun_goes_on_from_there(tmp_path, monkeypatch, capsys):
    run = tmp_path / "run"
    code, err = train(monkeypatch, capsys, run, *FAST)
    assert code in (0, None), err
    assert {p.name for p in run.iterdir()} == {"settings.json", "log.txt", "gen-001.games", "gen-001.net",
                                               "gen-001.gate"}
    assert len((run / "gen-001.games").read_text().splitlines()) == 4
    assert (run / "gen-001.net").read_text().startswith("# Paper Soccer's small neural value (termarena train)")
    gate = json.loads((run / "gen-001.gate").read_text())
    assert gate["wins"] + gate["draws"] + gate["losses"] == 2 and gate["sprt"] == "inconclusive"
    lines = logged(run)
    assert len(lines) == 3 and "gate against level 6 at 40 nodes" in lines[2] and "kept out" in lines[2]
    assert all(line in err for line in (x[17:] for x in lines))  # each step said as it ends
    assert "generation 1: self-play, 4/4 games" in err  # and its progress, in the same words

    code, err = train(monkeypatch, capsys, run, *FAST)  # nothing left to do
    assert code in (0, None) and len(logged(run)) == 3

    code, err = train(monkeypatch, capsys, run, *FAST, "--generations", "2")
    assert code in (0, None), err
    lines = logged(run)
    assert len(lines) == 6 and "of 8 games" in lines[4]  # the fit reads both generations' games
    first, second = ((run / f"gen-00{g}.games").read_text() for g in (1, 2))
    assert first != second and len(second.splitlines()) == 4  # generation 2's games are seeded after 1's


@pytest.mark.slow  # whole generations: games, a fit, a gate
def test_a_step_cut_short_is_done_again_and_nothing_before_it(played, tmp_path, monkeypatch, capsys):
    run = copy_of(played, tmp_path)
    games, net = ((run / f"gen-001.{s}").read_text() for s in ("games", "net"))
    (run / "gen-001.gate").unlink()  # as if a signal had ended the gate
    (run / "gen-002.games.part").write_text("half a game\n")  # and a later step's leftovers
    # the run's own settings go on where the command names none (FAST's 4 games by levels 2 and 3)
    code, err = train(monkeypatch, capsys, run, "--generations", "2", "-j", "1")
    assert code in (0, None), err
    lines = logged(run)
    assert [line.split(": ")[1].split()[0] for line in lines[3:]] == ["gate", "4", "fitted", "gate"]
    assert "4 self-play games (4 decided) between 2 players" in lines[4]
    assert (run / "gen-001.games").read_text() == games and (run / "gen-001.net").read_text() == net
    assert not (run / "gen-002.games.part").exists() and "half a game" not in (run / "gen-002.games").read_text()


@pytest.mark.slow  # whole generations: games, a fit, a gate
def test_the_same_command_makes_the_same_net(tmp_path, monkeypatch, capsys):
    for name in ("a", "b"):
        assert train(monkeypatch, capsys, tmp_path / name, *FAST[:-4], "-j", "2", *FAST[-4:])[0] in (0, None)
    assert (tmp_path / "a" / "gen-001.net").read_text() == (tmp_path / "b" / "gen-001.net").read_text()


@pytest.mark.slow  # whole generations: games, a fit, a gate
def test_a_net_the_gate_accepts_becomes_the_champion_and_the_next_pool_plays_it(tmp_path, monkeypatch, capsys):
    run = tmp_path / "run"
    # a test that accepts almost anything (Elo >= -300: a pair of games that is not lost twice) promotes
    # the first net; {net} is the champion's file
    args = ("--start", "net:selfplay1", "--sprt", "-1000", "-300", "--games", "2", "--gate-games", "2",
            "--gate-nodes", "8", "-j", "1", "--pool", "level:6,nodes=8,net={net}", "--gate-with", "best_first=1")
    code, err = train(monkeypatch, capsys, run, *args, "--generations", "2")
    assert code in (0, None), err
    assert json.loads((run / "gen-001.gate").read_text())["sprt"] == "H1"
    assert "gate against the champion at 8 nodes (best_first=1)" in logged(run)[2]
    assert "the new champion" in logged(run)[2]
    # generation 2 started from generation 1's net; the champion is the last net promoted
    newest = 2 if json.loads((run / "gen-002.gate").read_text())["sprt"] == "H1" else 1
    assert (run / "champion.net").read_text() == (run / f"gen-00{newest}.net").read_text()
    assert f"from {run / 'gen-001.net'}" in (run / "gen-002.net").read_text().splitlines()[1]


@pytest.mark.slow  # whole generations: games, a fit, a gate
def test_another_run_s_settings_are_refused_and_a_folder_of_other_files_too(played, tmp_path, monkeypatch, capsys):
    run = copy_of(played, tmp_path)
    code, err = train(monkeypatch, capsys, run, *FAST, "--games", "6", "--seed", "3")
    assert code == 1 and "started with games 4, seed 0" in err and len(err.strip().splitlines()) == 1
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine\n")
    code, err = train(monkeypatch, capsys, other, *FAST)
    assert code == 1 and "not empty" in err and {p.name for p in other.iterdir()} == {"notes.txt"}


@pytest.mark.parametrize("args, code, says", [
    (("--sprt", "20", "0"), 2, "ELO0 (20) must be below ELO1"),
    (("--start", "{bad}"), 1, "net="),
    (("--start", "{missing}"), 1, "No such file"),
    (("--pool", "level:6,nodes=40,net={{net}}"), 1, "no champion net yet"),
    (("--pool", "level:9"), 1, "level 9 is out of range"),
    (("--gate-with", "colour=blue"), 1, "colour"),
    (("--gate-with", "wide=50,nodes=9"), 1, "the gate sets nodes itself"),
], ids=["sprt", "bad-net", "missing-net", "no-champion", "level", "gate-field", "gate-nodes"])
def test_a_bad_setting_is_one_line_and_starts_no_run(tmp_path, monkeypatch, capsys, args, code, says):
    bad = tmp_path / "bad.net"
    bad.write_bytes(b"\x1b[2J not a net\n")
    args = tuple(a.format(missing=tmp_path / "none.net", bad=bad) for a in args)
    run = tmp_path / "run"
    got, err = train(monkeypatch, capsys, run, "--games", "2", *args)
    assert got == code and says in err and len(err.strip().splitlines()) == 1, err
    assert "\x1b" not in err and "Traceback" not in err and not run.exists()


def test_a_game_that_learns_nothing_is_refused(tmp_path, monkeypatch, capsys):
    code, err = run_cli(monkeypatch, capsys, "train", "c4", "--dir", str(tmp_path / "run"))
    assert code == 2 and "learns nothing from self-play" in err and not (tmp_path / "run").exists()


@pytest.mark.slow  # on a played generation (the module's fixture)
@pytest.mark.parametrize("name, make, says", [
    ("settings.json", "fifo", "not a run's settings"),
    ("settings.json", "junk", "not a run's settings"),
    ("gen-001.gate", "fifo", "not a gate's result"),
    ("gen-001.gate", "huge", "not a gate's result"),
    ("gen-001.games", "fifo", "not a file of games"),
], ids=["settings-fifo", "settings-junk", "gate-fifo", "gate-huge", "games-fifo"])
def test_a_run_folder_s_file_replaced_by_something_else_is_one_line_not_a_hang(played, tmp_path, monkeypatch, capsys,
                                                                              name, make, says):
    import os

    run = copy_of(played, tmp_path)
    target = run / name
    target.unlink()
    if name == "gen-001.games":  # the games step is done (its file is there): the fit opens it
        (run / "gen-001.net").unlink()
        (run / "gen-001.gate").unlink()
    if make == "fifo":
        os.mkfifo(target)
    elif make == "junk":
        target.write_text('["\x1b[2J"]\n')
    else:
        target.write_bytes(b"{" + b" " * (1 << 20))
    code, err = train(monkeypatch, capsys, run, *FAST)
    assert code == 1 and says in err and len(err.strip().splitlines()) == 1, err
    assert "\x1b" not in err and "Traceback" not in err


@pytest.mark.slow  # on a played generation (the module's fixture)
def test_a_log_that_is_not_a_regular_file_stops_the_run_in_one_line(played, tmp_path, monkeypatch, capsys):
    import os

    run = copy_of(played, tmp_path)
    (run / "log.txt").unlink()
    os.mkfifo(run / "log.txt")
    code, err = train(monkeypatch, capsys, run, *FAST, "--generations", "2")
    last = err.strip().splitlines()[-1]  # after the games' progress
    assert code == 1 and last.endswith("a FIFO (named pipe), not the run's log") and "Traceback" not in err, err
    assert (run / "gen-002.games").exists()  # the step's own file is written before its line


@pytest.mark.slow  # a whole generation: games, labels, a fit, a gate
def test_search_targets_label_every_third_position_and_move_the_fit_s_targets(tmp_path, monkeypatch, capsys):
    run = tmp_path / "run"
    code, err = train(monkeypatch, capsys, run, *FAST, "--search-target", "0.5")
    assert code in (0, None), err
    lines = logged(run)
    assert len(lines) == 4 and "positions valued by level 6's search at 40 nodes" in lines[1], lines
    assert "generation 1: search labels, 4/4 games" in err
    labelled = (run / "gen-001.labels").read_text().splitlines()
    assert len(labelled) == 4
    for line in labelled:
        labels = line.split("\t")[0].split()
        assert all((label == "-") == (i % 3 > 0) for i, label in enumerate(labels))  # every third, from the first
        assert all(0 <= float(label) <= 1 for label in labels[::3])
    assert "targets moved 0.5 of the way to a search's values where labelled" in (run / "gen-001.net").read_text()
    assert json.loads((run / "settings.json").read_text())["search_target"] == 0.5
    (run / "gen-001.net").unlink()  # the fit again: it opens the labels as they are
    (run / "gen-001.gate").unlink()
    (run / "gen-001.labels").unlink()
    os.mkfifo(run / "gen-001.labels")
    code, err = train(monkeypatch, capsys, run)
    # a labels step is done when its file is there: the fit refuses a FIFO in one line, no hang
    assert code == 1 and "not a file of search labels" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.slow  # a whole generation: games, labels, a fit, a gate
def test_tree_targets_label_every_position_and_fit_the_positions_after_its_searched_turns(tmp_path, monkeypatch,
                                                                                         capsys):
    run = tmp_path / "run"
    # labels deeper than the gate: at 600 nodes alpha-beta finishes its first depths (turns to value);
    # two games, one of them fitted
    fast = [{"4": "2"}.get(a, a) for a in FAST]
    code, err = train(monkeypatch, capsys, run, *fast, "--search-target", "1", "--tree-targets", "--label-nodes", "600")
    assert code in (0, None), err
    lines = logged(run)
    assert " turns of them, valued by level 6's search at 600 nodes" in lines[1], lines
    assert "gate against level 6 at 40 nodes" in lines[3], lines
    labelled = {}  # a game's moves -> its labels
    for line in (run / "gen-001.labels").read_text().splitlines():
        shown, *game = line.split("\t")
        labelled[tuple(game[1:])] = shown.split()
    assert len(labelled) == 2 and all("-" not in labels for labels in labelled.values())  # every position
    turns = sum(label.count(",") for labels in labelled.values() for label in labels)
    assert turns > sum(map(len, labelled.values())) and f"and {turns} turns of them" in lines[1]
    net = (run / "gen-001.net").read_text()
    assert "targets moved 1 of the way to a search's values" in net and "after the root turns" in net
    # of two games the fit takes the second in the moves' order (the first is held out): its positions
    # and the positions after its valued turns, each also turned left to right
    fitted_game = labelled[sorted(labelled)[1]]
    positions = len(fitted_game) + sum(label.count(",") for label in fitted_game)
    fitted = int(lines[2].split("fitted on ")[1].split()[0])
    assert positions - 2 <= fitted / 2 <= positions, (positions, fitted)  # a turn ending the game gives none
    kept = json.loads((run / "settings.json").read_text())
    assert kept["tree_targets"] is True and kept["label_nodes"] == 600


def test_tree_targets_need_a_search_target(tmp_path, monkeypatch, capsys):
    code, err = train(monkeypatch, capsys, tmp_path / "run", "--tree-targets")
    assert code == 2 and "--search-target" in err and not (tmp_path / "run").exists(), err


def test_a_search_target_is_a_share(tmp_path, monkeypatch, capsys):
    code, err = train(monkeypatch, capsys, tmp_path / "run", "--search-target", "1.5")
    assert code == 2 and "--search-target" in err and not (tmp_path / "run").exists()


@pytest.mark.parametrize("share", ['"half"', "1.5", "true"])
def test_a_run_whose_settings_give_a_search_target_that_is_no_share_is_refused(tmp_path, monkeypatch, capsys, share):
    run = tmp_path / "run"
    run.mkdir()
    (run / "settings.json").write_text('{"game": "paper-soccer", "search_target": %s}\n' % share)
    code, err = train(monkeypatch, capsys, run)
    assert code == 1 and "not a run's settings" in err and "search_target" in err, err
    assert {p.name for p in run.iterdir()} == {"settings.json"}


@pytest.mark.parametrize("setting", ['"tree_targets": 1', '"label_nodes": -5', '"label_nodes": 2.5',
                                     '"label_nodes": true'])
def test_a_run_whose_settings_give_tree_targets_or_label_nodes_of_another_kind_is_refused(tmp_path, monkeypatch,
                                                                                          capsys, setting):
    run = tmp_path / "run"
    run.mkdir()
    (run / "settings.json").write_text('{"game": "paper-soccer", %s}\n' % setting)
    code, err = train(monkeypatch, capsys, run)
    assert code == 1 and "not a run's settings" in err and setting.split('"')[1] in err, err
