"""The Connect 4 AI (ai/connect4): levels, search correctness, forced wins from real games, STEAL.

Forced-win positions come from the logged official games (tests/data/conformance/connect4.zip): a few
plies before each game's end, with the eventual winner to move.  Each test first checks, with the
engine alone (no AI code), that the position really is a forced win in that many turns.
"""
from __future__ import annotations

import io
import random
import time

import pytest

from ai.connect4 import LEVELS, book, make_player, search_speed
from ai.connect4.bitboard import BOARD, CELLS, COLS, ROWS, from_rows, has_four, to_rows, win_cells
from ai.connect4.search import WIN, Searcher
from ai.player import SearchInfo
from engines.connect4 import STEAL, Connect4
from tests.conformance_data import logged_games


def replay(outputs) -> Connect4:
    game = Connect4()
    for out in outputs:
        game.push(game.parse_output(str(out)))
    return game


def logged_position(index: int, plies: int) -> Connect4:
    return replay(t.output for t in logged_games("connect4")[index].turns[:plies])


def winning_moves(game: Connect4) -> list[int]:
    """Moves that win at once, found by the engine alone."""
    out = []
    for mv in game.legal_moves():
        game.push(mv)
        o = game.outcome()
        game.pop()
        if o is not None and o.winner == game.current_player():
            out.append(mv)
    return out


def wins_in_two(game: Connect4, mv) -> bool:
    """After `mv`, every reply of the opponent leaves the mover an immediate win (or `mv` wins)."""
    me = game.current_player()
    game.push(mv)
    try:
        o = game.outcome()
        if o is not None:
            return o.winner == me
        for reply in game.legal_moves():
            game.push(reply)
            try:
                if game.outcome() is not None or not winning_moves(game):
                    return False
            finally:
                game.pop()
        return True
    finally:
        game.pop()


def random_position(rng: random.Random, plies: int) -> Connect4:
    """A position after `plies` random drops that never complete a four, block the opponent's
    immediate threat and do not play under it (so that deep, undecided positions come quickly)."""
    while True:
        game = Connect4()
        while len(game.move_stack) < plies:
            drops = [m for m in game.legal_moves() if m != STEAL and m not in winning_moves(game)]
            safe = []
            for m in drops:
                game.push(m)
                if not winning_moves(game):
                    safe.append(m)
                game.pop()
            if not safe:
                break
            game.push(rng.choice(safe))
        if len(game.move_stack) == plies:
            return game


# (logged game index, plies played): the winner of that game is to move and wins on this turn
WIN_IN_ONE = [(0, 17), (1, 31), (3, 30), (5, 34), (9, 52), (16, 51), (19, 59)]
# ... or wins on its next turn whatever the opponent does (and cannot win at once)
WIN_IN_TWO = [(0, 15), (4, 5), (6, 17), (6, 15), (7, 6), (7, 4), (8, 61), (13, 60)]


# ---------------------------------------------------------------------- the interface


def test_every_level_is_described_and_named():
    assert sorted(LEVELS) == [1, 2, 3, 4, 5, 6]
    assert all(isinstance(text, str) and text for text in LEVELS.values())
    for level in LEVELS:
        assert make_player(level).name == f"connect4 level {level}"
    with pytest.raises(ValueError):
        make_player(7)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_every_level_plays_legal_moves_and_leaves_the_game_unchanged(level):
    rng = random.Random(level)
    positions = [Connect4(), replay([4]), random_position(rng, 20), random_position(rng, 50)]
    for game in positions:
        before = (game.to_text(), list(game.move_stack))
        mv = make_player(level, seed=1).choose(game, time.monotonic() + 0.2)
        assert game.is_legal(mv)
        assert (game.to_text(), list(game.move_stack)) == before


def test_the_same_seed_gives_the_same_moves():
    game = replay([4, 4, 3])
    for level in (1, 2, 3):
        moves = {make_player(level, seed=5).choose(game) for _ in range(3)}
        assert len(moves) == 1


def test_progress_is_reported_while_searching():
    infos: list[SearchInfo] = []
    mv = make_player(6, think_ms=300).choose(replay(book.BENCH_LINES[2]), None, infos.append)
    assert infos and all(isinstance(i, SearchInfo) for i in infos)
    assert infos[-1].depth >= 4 and infos[-1].nodes > 0 and infos[-1].best == str(mv)


def test_level6_answers_inside_the_deadline():
    game = replay(book.BENCH_LINES[3])
    player = make_player(6)
    for budget in (0.03, 0.06):
        t = time.monotonic()
        mv = player.choose(game, t + budget)
        assert time.monotonic() - t < budget + 0.05  # the search checks the clock every 256 nodes
        assert game.is_legal(mv)


def test_search_speed_for_bench():
    nodes, seconds = search_speed(0.2)
    assert nodes > 0 and seconds >= 0.2


def test_the_bot_answers_the_referee_protocol():
    from ai.bot import run_bot

    game = replay([4])
    text = "\n".join(game.bot_input(first=True)) + "\n"
    out = io.StringIO()
    player = make_player(6)
    assert run_bot("connect4", player.choose, stdin=io.BytesIO(text.encode()), stdout=out) == 0
    answer = out.getvalue().strip()
    assert game.parse_output(answer) in game.legal_moves()


# ---------------------------------------------------------------------- forced wins from real games


@pytest.mark.parametrize("index,plies", WIN_IN_ONE)
def test_level6_takes_a_win_in_one_from_real_play(index, plies):
    game = logged_position(index, plies)
    assert winning_moves(game), "not a win in one"
    mv = make_player(6).choose(game, time.monotonic() + 0.5)
    assert mv in winning_moves(game)


@pytest.mark.parametrize("index,plies", WIN_IN_TWO)
def test_level6_keeps_a_forced_win_in_two_from_real_play(index, plies):
    game = logged_position(index, plies)
    assert not winning_moves(game) and any(wins_in_two(game, m) for m in game.legal_moves()), \
        "not a forced win in two"
    mv = make_player(6, think_ms=1000).choose(game)
    assert wins_in_two(game, mv)


def test_level1_takes_a_win_and_usually_blocks():
    win_game = logged_position(0, 17)
    assert all(make_player(1, seed=s).choose(win_game) in winning_moves(win_game) for s in range(20))
    # the opponent threatens to win: level 1 blocks most of the time, but not always
    game = replay([4, 0, 4, 0, 4])
    blocks = sum(make_player(1, seed=s).choose(game) == 4 for s in range(60))
    assert 30 <= blocks <= 55


# ---------------------------------------------------------------------- the search


def test_winning_cells_match_a_brute_force_check():
    rng = random.Random(3)
    for _ in range(25):
        game = random_position(rng, rng.randrange(5, 45))
        cur, mask = from_rows(game.board(), str(game.current_player()))
        for chips in (cur, cur ^ mask):
            brute = 0
            for c in range(COLS):
                for h in range(ROWS):
                    bit = 1 << (c * 8 + h)
                    if not mask & bit and has_four(chips | bit):
                        brute |= bit
            assert win_cells(chips) & (BOARD ^ mask) == brute
        assert to_rows(cur, mask, str(game.current_player())) == game.board()


def minimax(game: Connect4, memo: dict | None = None) -> int:
    """Game value for the side to move by plain minimax over the engine: 1 win, 0 draw, -1 loss."""
    memo = {} if memo is None else memo
    key = (game.key(), game.current_player())
    if key in memo:
        return memo[key]
    best = -1
    for mv in game.legal_moves():
        game.push(mv)
        o = game.outcome()
        v = (0 if o.winner is None else 1) if o is not None else -minimax(game, memo)
        game.pop()
        if v > best:
            best = v
            if best == 1:
                break
    memo[key] = best
    return best


# Endgames (7 to 10 empty cells, no immediate win for the side to move) from safe random play, with
# their values for the side to move as plain minimax over the engine (`minimax` above) computed them.
GOLDEN_ENDGAMES = [
    ("70016006324576407728537733075666558624433038524844588", -1),
    ("26286844132248875056126044775580043311146808110076652", 1),
    ("31774318127027076500237811456553322330025466055681126687", -1),
    ("203521158173173212655052275507733271686667860600043388", 1),
    ("153112707177307140024800545444042778231555588283182823", -1),
    ("7014777386534218442004880331405686671767814185353316555", 1),
    ("7251462661183343883744478175253555171478337522186600286", 1),
    ("40641705684866058273574233333600144346622557825211152", 0),
    ("8508675331767427740146331040556005318431138617670446558", -1),
    ("661664107865415235700823887702134337877188663453141554", 0),
    ("58072261563486266224005577656817855771038014423338328714", 0),
    ("2062827526376855414356331423462277433475566015077811884", 0),
]


@pytest.mark.parametrize("moves,value", GOLDEN_ENDGAMES)
def test_the_endgame_solver_finds_the_game_value_and_a_move_that_keeps_it(moves, value):
    game = replay(moves)
    cur, mask = from_rows(game.board(), str(game.current_player()))
    res = Searcher().search(cur, mask)
    assert res.proven
    assert (0 if abs(res.score) < WIN else (1 if res.score > 0 else -1)) == value
    game.push(res.move)
    o = game.outcome()
    assert ((0 if o.winner is None else 1) if o is not None else -minimax(game)) == value


def test_the_endgame_solver_agrees_with_plain_minimax_on_fresh_positions():
    rng = random.Random(11)
    for _ in range(2):
        game = random_position(rng, CELLS - rng.randrange(5, 8))
        cur, mask = from_rows(game.board(), str(game.current_player()))
        res = Searcher().search(cur, mask)
        assert res.proven
        assert (0 if abs(res.score) < WIN else (1 if res.score > 0 else -1)) == minimax(game), game.to_text()


def test_the_search_weighs_steal_against_every_drop():
    cur, mask = from_rows(replay([4]).board(), "1")
    res = Searcher().search(cur, mask, steal=True, max_depth=3, multipv=True)
    assert set(res.scores) == set(range(COLS)) | {STEAL}


def test_level3_beats_level1():
    score = 0.0
    for k in range(2):
        game = Connect4()
        players = [make_player(3, seed=k), make_player(1, seed=100 + k)]
        if k % 2:
            players.reverse()
        while game.outcome() is None:
            game.push(players[game.current_player()].choose(game))
        o = game.outcome()
        strong_seat = 0 if k % 2 == 0 else 1
        score += 0.5 if o.winner is None else float(o.winner == strong_seat)
    assert score == 2


# ---------------------------------------------------------------------- STEAL and the opening book


def decode_key(key: int) -> tuple[int, int]:
    """(cur, mask) from a position key cur + mask (per column: a height h gives values 2^h-1 .. 2^(h+1)-2)."""
    cur = mask = 0
    for c in range(COLS):
        v = (key >> (8 * c)) & 0xFF
        h = (v + 1).bit_length() - 1
        col_mask = (1 << h) - 1
        mask |= col_mask << (8 * c)
        cur |= (v - col_mask) << (8 * c)
    return cur, mask


def test_the_steal_decision_is_the_better_searched_answer_for_every_first_column():
    assert sorted(book.REPLY) == list(range(COLS))
    for c, (answer, steal_score, drop_score) in book.REPLY.items():
        assert (answer == STEAL) == (steal_score > drop_score)
        mirror_answer = book.REPLY[COLS - 1 - c][0]
        assert mirror_answer == (STEAL if answer == STEAL else COLS - 1 - answer)
    # player 0 opens where player 1's better answer is worst for player 1
    worst = min(max(s, d) for _, s, d in book.REPLY.values())
    assert max(book.REPLY[book.FIRST_MOVE][1:]) == worst


def test_level6_opens_and_answers_the_first_chip_from_the_table():
    player = make_player(6)
    assert player.choose(Connect4(), time.monotonic() + 0.05) == book.FIRST_MOVE
    for c in range(COLS):
        game = replay([c])
        assert player.choose(game, time.monotonic() + 0.05) == book.REPLY[c][0]


def test_level6_spends_the_first_turn_warming_its_table_for_the_next():
    # the book answers the first turn at once; the rest of the turn's time searches the position after
    # the book move, so the next turn's search starts from a filled table
    player = make_player(6)
    game = Connect4()
    t = time.monotonic()
    assert player.choose(game, t + 0.3) == book.FIRST_MOVE
    assert 0.2 < time.monotonic() - t < 0.35
    assert len(player.searcher.tt) > 1000
    assert game.to_text() == Connect4().to_text()


def test_level6_searches_until_the_bots_deadline():
    # under the referee's clock (the bot passes 60% of the limit) level 6 used to stop starting new
    # depths after 45% of that, i.e. answer in ~30 ms of a 100 ms turn
    game = replay(book.BENCH_LINES[2])  # a middle game (not solved in that time)
    t = time.monotonic()
    make_player(6).choose(game, t + 0.15)
    assert time.monotonic() - t > 0.12


# From games lost to a public CodinGame bot (UCT MCTS, 80 ms a move), level 6 second: the bot opened in
# column 3 and level 6 stole it.  Here level 6 played 1 after a depth-6 search (scored +104); 1 loses by
# force (the bot's 4 leaves only losing moves), which a search sees from depth 7; 3 is the deep choice.
LOST_LINE = ["3", "STEAL", "5", "2", "1", "3", "3", "2", "1", "2", "2", "1", "5"]


def test_the_move_that_lost_to_the_mcts_bot_is_a_forced_loss():
    game = replay(LOST_LINE + ["1", "4"])
    cur, mask = from_rows(game.board(), str(game.current_player()))
    res = Searcher().search(cur, mask, max_depth=8)
    assert res.proven and res.score <= -WIN


def test_level6_avoids_the_line_lost_to_the_mcts_bot():
    game = replay(LOST_LINE)
    assert make_player(6).choose(game, time.monotonic() + 0.3) == 3


def test_book_moves_are_legal_and_mirror_images_agree():
    assert book.LINES
    for key, mv in book.LINES.items():
        cur, mask = decode_key(key)
        assert cur + mask == key and 1 <= mask.bit_count() <= 4
        assert 0 <= mv < COLS and not (mask >> (8 * mv + ROWS - 1)) & 1
        assert book.lookup(cur, mask, False) == mv
        if (book.mirror(cur), book.mirror(mask)) != (cur, mask):  # a symmetric position has two answers
            assert book.lookup(book.mirror(cur), book.mirror(mask), False) == COLS - 1 - mv
