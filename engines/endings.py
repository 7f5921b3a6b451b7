"""Every sentence about how a game ended, made from its Outcome and the names of its sides.

An Outcome holds facts (the winner, the Termination, the seat at fault, the numbers); this module is
the one place that words them, for the app, the CLI, the JSON and save files alike:

* `headline`: "Red wins" or "draw";
* `describe`: the sentence for people, e.g. "Red connected four", "Yellow ran out of time",
  "Yellow's bot crashed: it exited with status 3";
* `fault_line`: a forfeit as the referee records it, the seat named by its label: `referee --json`'s
  `error` and a save's `detail`, e.g. "p2 (cmd:./bot): sent 'x': wrong action";
* `summary`: a saved result in a few words, e.g. "Red won (four in a row)".

A game declares its side names and the words of its own endings on its engine class (`side_names`,
`ending_words`); DEFAULT_WORDS says the rest.  Every sentence goes through engines.visible: a bot's
output, its stderr in a crash's cause and a save's detail are outside text.
"""
from __future__ import annotations

from engines.base import FORFEIT_REASONS, EndingWords, Game, Outcome, Termination, quote
from engines.visible import visible

T = Termination
DEFAULT_WORDS: dict[Termination, EndingWords] = {
    T.CONNECTED: EndingWords("connected", "{winner} connected its pieces"),
    T.BOARD_FULL: EndingWords("the board is full", "the board is full without a winner"),
    T.TURN_LIMIT: EndingWords("the turn limit was reached", "{turns} turns played without a result"),
    T.GOAL: EndingWords("a goal", "{winner} scored a goal"),
    T.OWN_GOAL: EndingWords("an own goal", "{loser} scored an own goal, so {winner} wins"),
    T.BLOCKED: EndingWords("blocked: no move left", "{loser} is blocked, so {winner} wins"),
    T.ELIMINATION: EndingWords("no piece left", "{winner} took all of {loser}'s pieces"),
    # a forfeit's sentence is made by `describe` from its seat, cause and output; these are its short words
    T.INVALID: EndingWords("an invalid move", "{loser} lost: an invalid move"),
    T.TIMEOUT: EndingWords("out of time", "{loser} ran out of time"),
    T.CRASH: EndingWords("the bot crashed", "{loser} lost: the bot crashed"),
    T.RESIGN: EndingWords("resigned", "{loser} resigned"),
}
# A forfeit with a cause: what the seat's bot did (`_did`).  Without one (a clock that fell, a save
# without a detail), the sentence of DEFAULT_WORDS says it.
_BOT_FAULT = {T.INVALID: "{side}'s bot: {did}", T.TIMEOUT: "{side}'s bot: {did}",
              T.CRASH: "{side}'s bot crashed: {did}", T.RESIGN: "{side} resigned: {did}"}
_NOBODY = "neither side"  # {winner}/{loser} of a draw: no game's words use it, so nothing can fail


def words(game: type[Game], reason: Termination | str) -> EndingWords:
    """`game`'s words for one way of ending."""
    reason = Termination(reason)
    return game.ending_words.get(reason) or DEFAULT_WORDS[reason]


def short(game: type[Game], reason: Termination | str) -> str:
    """A reason (the word saves and `referee --json` write) named in `game`'s words: "four in a row"."""
    return words(game, reason).short


def headline(out: Outcome, sides: tuple[str, str]) -> str:
    """Who won: "Red wins", or "draw" (`first_upper` starts a line with it)."""
    return "draw" if out.winner is None else f"{sides[out.winner]} wins"


def describe(out: Outcome, game: type[Game], sides: tuple[str, str] | None = None) -> str:
    """How the game ended, in one sentence naming the sides (`game.side_names` unless given)."""
    sides = sides or game.side_names
    fault = _fault(out)
    if fault is not None:
        did = _did(out)
        if visible(did).strip():  # blanks alone say nothing (and a save's header line drops them)
            text = _BOT_FAULT[out.reason].format(side=sides[fault], did=did)
        else:
            text = words(game, out.reason).sentence.format(loser=sides[fault], winner=sides[1 - fault])
        return visible(text)
    w = words(game, out.reason)
    by_loser = w.by_loser and out.winner is not None and out.mover == 1 - out.winner
    winner = _NOBODY if out.winner is None else sides[out.winner]
    loser = _NOBODY if out.winner is None else sides[1 - out.winner]
    turns = out.turns if out.turns is not None else game.max_turns
    text = (w.by_loser if by_loser else w.sentence).format(
        winner=winner, loser=loser, turns=turns, side0=sides[0], side1=sides[1], score0=out.scores[0],
        score1=out.scores[1])
    return visible(text)


def fault_line(out: Outcome, labels: tuple[str, str] | list[str]) -> str | None:
    """A forfeit as the referee records it (`referee --json`'s `error`, a save's `detail`): the seat at
    fault by number and label, then what it did; None for an ending without a cause (a clock that fell)."""
    fault, did = _fault(out), _did(out)
    if fault is None or not did:
        return None
    return visible(f"{seat_side(fault, labels[fault])}: {did}")


def cause_from_detail(detail: str, fault: int, labels: tuple[str, str]) -> str:
    """The cause in a save's `detail`, as `fault_line` wrote it (`labels`: the save's p1 and p2).  Read
    leniently: a detail written otherwise (by hand, by another program) is the cause as it stands."""
    # a save drops the space after the prefix when nothing follows; "seat N (label):" is how saves
    # written before seats were named p1/p2 put it
    for prefix in (f"{seat_side(fault, labels[fault])}:", f"seat {fault} ({labels[fault]}):"):
        if detail.startswith(prefix):
            return detail[len(prefix):].removeprefix(" ")
    return detail


def seat_word(seat: int) -> str:
    """A seat as every text for people names it: "p1" moves first (`--p1`, a save's `p1`); only JSON
    counts seats from 0."""
    return f"p{seat + 1}"


def seat_side(seat: int, label: str) -> str:
    """A seat as the referee names it, with who sat there: "p1 (cmd:./bot)"."""
    return f"{seat_word(seat)} ({label})"


def summary(result: str, reason: str, game: type[Game]) -> str:
    """A saved result in a few words: "Red won (four in a row)", "draw (the board is full)", "unfinished"."""
    sides = game.side_names
    if result == "*":
        return "unfinished"
    head = {"1-0": f"{sides[0]} won", "0-1": f"{sides[1]} won", "1/2-1/2": "draw"}.get(result, result)
    try:
        return visible(f"{head} ({short(game, reason)})" if reason else head)
    except ValueError:  # a reason this termarena does not know (save files are checked: only by hand)
        return visible(f"{head} ({reason.replace('_', ' ')})")


def first_upper(text: str) -> str:
    """`text` with its first letter in upper case, the rest as it is (a side's name stays as written)."""
    return text[:1].upper() + text[1:]


def _did(out: Outcome) -> str:
    """What the bot at fault did, as the referee tells it: "sent 'x': <the rule>" or the cause alone."""
    return out.cause if out.output is None else f"sent {quote(out.output)}: {out.cause}"


def _fault(out: Outcome) -> int | None:
    """The seat that forfeited: the one named, else the loser of a forfeit; None for another ending."""
    if out.reason not in FORFEIT_REASONS:
        return None
    if out.fault is not None:
        return out.fault
    return None if out.winner is None else 1 - out.winner
