"""The server's protocol: the game protocol `host` speaks (tui.core.net.protocol, same version, same
line rules and limits) plus the verbs of the lobby (README "Server").

A connection starts with HELLO, whose role word says what it wants:

    HELLO termarena 1 lobby <name>      claim a new name: the server answers LOBBY with a resume token
    HELLO termarena 1 resume <token>    come back as the name the token was given to (after a drop or
                                        a restart of the server): a game in progress follows at once

`play` and `watch` (what `join` sends) are refused with a word on `termarena online`.  After LOBBY the
lobby verbs below and, in a game, the game verbs (MOVE, UNDO, BYE) are understood.  A game starts with
START <game id> play|watch, then the game protocol's WELCOME, MOVEs and CLOCK, exactly as from a host;
it ends with OVER (a player may RESIGN, or ABORT before both sides moved: LOBBY's revision says whether
the server knows these; the opponent's connection going and coming is PEER away|back).  Lists (LIST) come as rows, closed by LISTED <what> <rows>.  A download (FETCH) comes
as SAVE <game id> <bytes> then DATA lines of base64, so a save file's own lines travel unchanged.
"""
from __future__ import annotations

import re

from engines.numbers import quote
from tui.core.net.protocol import VERBS as GAME_VERBS, ProtocolError

LOBBY_ROLES = ("lobby", "resume")
# LOBBY's first word: what this server's lobby understands besides the first one's verbs.  A client sends
# a verb of a later revision only to a server that said it has it; what the server sends older clients
# understand too (a game resigned or aborted ends for them with OVER, as every game does).
REVISION = 2  # 1: the first lobby; 2: RESIGN, ABORT, LIST games <id>, and PEER away|back about the opponent
ABORT_BEFORE = 2  # moves: a game may be aborted until both sides have moved
ABORTED = "abort"  # the reason of an aborted game, whose result is `*` (none)
LIST_KINDS = ("seeks", "players", "games", "history", "ratings")
RATED = ("rated", "casual")
MAX_NAME = 20
TOKEN_BYTES = 24  # a resume token: 192 random bits, as 48 hex digits
MAX_ROWS = 100  # rows of one list
DATA_CHARS = 144  # base64 characters of one DATA line (a multiple of 4: each line decodes alone)

LOBBY_VERBS: dict[str, tuple[int, str]] = {
    # client -> server
    "SEEK": (3, "no"),      # SEEK <game> <clock> rated|casual: open a seek (one at a time)
    "CANCEL": (0, "no"),    # CANCEL: withdraw one's seek
    "ACCEPT": (1, "no"),    # ACCEPT <seek id>: play the seek's author; the game STARTs for both
    "WATCH": (1, "no"),     # WATCH <game id>: follow a game in progress
    "LEAVE": (0, "no"),     # LEAVE: stop watching
    "LIST": (2, "no"),      # LIST seeks|players|games|history|ratings <game, name, game id (games) or ->
    "FETCH": (1, "no"),     # FETCH <game id>: a finished game's save file
    "RESIGN": (0, "no"),    # RESIGN: give up the game one plays (revision 2)
    "ABORT": (0, "no"),     # ABORT: end it with no result, before both sides have moved (revision 2)
    # server -> client
    "LOBBY": (3, "no"),     # LOBBY <revision> <name> <token>: in, as <name>; keep the token to come back
    "OFFER": (5, "no"),     # OFFER <seek id> <name> <game> <clock> rated|casual: a seek is open
    "GONE": (1, "no"),      # GONE <seek id>: withdrawn or accepted
    "PLAYER": (2, "no"),    # PLAYER <name> <game id|->: online, and in which game
    "GAME": (8, "no"),      # GAME <id> <game> <clock> rated|casual <p1> <p2> <result> <reason|->
    "RATING": (6, "no"),    # RATING <game> <name> <rating> <mu> <sigma> <games>
    "LISTED": (2, "no"),    # LISTED <what> <rows>: the end of a list
    "START": (2, "no"),     # START <game id> play|watch: the game protocol follows (WELCOME ...)
    "OVER": (3, "no"),      # OVER <game id> <result> <reason>: that game ended; back in the lobby
    "SAVE": (2, "no"),      # SAVE <game id> <bytes>: a save file follows as DATA lines
    "DATA": (1, "no"),      # DATA <base64>
    "NO": (0, "required"),  # NO <why>: a lobby request refused (the connection stays)
}
VERBS: dict[str, tuple[int, str]] = {**GAME_VERBS, **LOBBY_VERBS}

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,%d}" % (MAX_NAME - 1))
_TOKEN = re.compile(r"[0-9a-f]{%d}" % (2 * TOKEN_BYTES))


def check_name(word: str) -> str:
    """A player's name: 1 to MAX_NAME ASCII letters, digits, `_`, `.`, `-`, starting with a letter or digit
    (no look-alike letters, no control codes: it is shown on other players' screens)."""
    if not _NAME.fullmatch(word):
        raise ProtocolError(f"the name {quote(word[:MAX_NAME + 1])} is not 1 to {MAX_NAME} letters, digits, _ . -")
    return word


GUEST_PREFIX = "guest-"  # the names of the ssh front's guests: nobody claims one, guests play casual games only


def is_guest(name: str) -> bool:
    return name.lower().startswith(GUEST_PREFIX)


def check_token(word: str) -> str:
    if not _TOKEN.fullmatch(word):
        raise ProtocolError("a resume token is 48 hex digits")
    return word
