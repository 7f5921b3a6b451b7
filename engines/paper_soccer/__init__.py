"""Paper Soccer, exactly as the CodinGame referee (jdermont/CodinGame-paper-soccer) plays it.

Geometry (rules §1-2)
---------------------
Points are numbered like the referee: a field point (x, y), x = 0..8 left to right, y = 0..10 top
to bottom, is ``x*11 + y`` (0..98); the six goal nodes are 99..104: (3,-1) (4,-1) (5,-1) on top
(seat 1's goal, where seat 0 scores) and (3,11) (4,11) (5,11) at the bottom (seat 0's goal).
Directions are the referee's digits: 0=N 1=NE 2=E 3=SE 4=S 5=SW 6=W 7=NW, N towards y=-1.  Players
see and type them as keypad digits (``KEYPAD``: 8=N 9=NE 6=E 3=SE 2=S 1=SW 4=W 7=NW).

Representation
--------------
* ``_pm``: a list of 105 small ints, one per point: bit d is set when the edge from that point in
  direction d is drawn (pre-drawn lines included).  An edge is therefore stored twice, once at each
  end.  A step is legal when the neighbour exists and the bit is clear; the point reached is a
  bounce point when its mask was non-zero before the ball arrived; the ball is blocked when its mask
  equals ``FULL[p]`` (every adjacency drawn).  No separate free counts are needed: the mask is the
  incremental count.
* ``_ball``, ``_turn`` (player turns since the start of the game; seat to move = turn % 2).
* ``move_stack`` holds the turn strings; ``_undo`` holds the ball before each of them, so ``pop``
  re-walks the string from there and clears exactly the bits the turn set.

Moves
-----
A move is a whole turn: the digit string (str) the player prints, e.g. ``"61"``.  It continues
through bounce points and ends at the first non-bounce point, on a goal node, or where the ball is
stuck (a legal, losing move).

How many turns there are, and what ``legal_moves()`` returns
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Late in a game a bounce chain can wind through many touched points, and the number of distinct turn
strings explodes.  Measured: in random games that pick uniformly among whole turns (the shared
property tests), the median position has 16 turn strings, p99 about 730, the largest seen about
200 000 (1000 games); in random games built step by step (closer to how people play), a quarter of
positions have more than 20 000, and some have more than 10 million (counting them took minutes).
Deduplicating by effect does not save it (some positions have more than 20 000 distinct effects
too).  So:

* ``legal_moves()`` is exact, every legal turn string in lexicographic order, whenever there are at
  most ``MOVE_LIST_LIMIT`` (20 000) of them; beyond that it returns ``bounded_turns()``: about
  ``BOUNDED_LIST_SIZE`` (2 000) turns, one per effect, shortest first, plus a goal-scoring turn if
  one exists, sorted.  Either way the list is deterministic (a function of the position), every
  entry is legal, and it costs at most about 0.2 s.  ``legal_moves_complete()`` tells which case
  holds.  ``is_legal()`` and ``parse_output()`` check the turn itself, never the list.
* ``iter_legal_moves()`` yields every turn string lazily, however many; ``count_legal_moves(cap)``
  counts them.
* ``legal_turns_by_effect(cap)`` gives one string (the lexicographically smallest) per distinct
  effect (edges drawn plus final point), searched depth-first with memo on (point, edges drawn so
  far in the turn); two turns with one effect lead to the same position.
* ``scoring_turn()`` finds a turn into the goal the mover attacks, if any; ``random_turn(rng)``
  builds a random turn step by step (a cheap playout policy: ~5 000 games/s against ~600 games/s
  for uniform choice over ``legal_moves()``).
* For an AI the natural unit in dense positions is the step: ``free_directions``, ``TurnBuilder``.

Helpers for the UI
------------------
* geometry: ``point_xy(p)``, ``xy_point(x, y)`` (None if no such point), ``neighbour(p, d)``,
  ``goal_of(seat)`` (the goal nodes `seat` defends), ``attacked_goal(seat)``, ``direction_between(a, b)``;
* position: ``ball()``, ``drawn_edges()`` (all drawn edges, pre-drawn included, as pairs of (x, y)),
  ``player_edges()`` (without the pre-drawn ones), ``edge_owners()`` (edge -> seat for the edges of
  the moves on the stack), ``is_bounce_point(p)``, ``is_blocked_point(p)``, ``free_directions(p)``,
  ``step_is_legal(p, d)``, ``turn_points(move)`` (the points a turn string visits from the ball);
* ``TurnBuilder(game)``: builds a turn one direction at a time for a human player (``step(d)``,
  ``back()``, ``legal_steps()``, ``ended``, ``move``), drawing on a scratch copy of the pitch.

Position text
-------------
Comment lines (``#``) with an ASCII diagram, then ``key = value`` lines: ``game``, ``turn``,
``to_move``, ``ball = x,y``, ``last_move`` (the previous turn string, ``-`` before the first turn;
the referee sends it to the player to move) and one ``edge = x,y x,y`` line per player-drawn edge
(the 40 pre-drawn lines are implied).
"""
from .game import (  # noqa: F401  (the package's public names, as when it was one module)
    MSG_BOUNDARY,
    MSG_CHARS,
    MSG_EMPTY,
    MSG_EXISTING,
    MSG_FINISH,
    MSG_PREMATURE,
    PaperSoccer,
)
from .geometry import (  # noqa: F401
    ADJ,
    BOTTOM_GOAL,
    BOUNDED_LIST_SIZE,
    CENTRE,
    DIGITS,
    DIRECTION_NAMES,
    DXY,
    EDGE_BIT,
    FULL,
    HEIGHT,
    INITIAL_PM,
    KEYPAD,
    MAX_TURNS,
    MOVE_LIST_LIMIT,
    NB,
    N_EDGES,
    N_FIELD,
    N_POINTS,
    OPP,
    PREDRAWN,
    TOP_GOAL,
    WIDTH,
    XY,
    attacked_goal,
    direction_between,
    goal_of,
    neighbour,
    point_xy,
    xy_point,
)
from .reader import PaperSoccerReader  # noqa: F401
from .turn import TurnBuilder  # noqa: F401
