"""A small neural value for Paper Soccer (issue 28): one-hot edges and ball, one clipped-ReLU hidden layer
(or two).

The design the top CodinGame bots use, seen from the mover's side (seat 1's pitch mirrored top to
bottom, so the mover always attacks the top goal):

    inputs  (binary, N_INPUTS):  each drawn edge that is not a wall (EDGES: 316), the ball's point (99),
                                 the mover's danger points and the opponent's (99 each: `board.flood`);
            a net `with distances` also reads, per point, how many turns away the ball is from it
            (`board.turn_distances`, 1..9: QtPaperSoccer's net reads this map), one-hot: 105 * 10 more
    hidden  h_j = clamp(b1_j + sum of w1[i][j] over the inputs i that are on, 0, ONE)
    value   (b2 + sum_j w2_j * h_j) * UNITS // (ONE * ONE)        in hundredths of a logit

A net may have a second hidden layer of M units (`hidden2 M` in its file; the public engines' nets have
two), clipped like the first, its sums brought back from ONE * ONE to ONE units, rounded half up:

    hidden2 g_k = clamp((h2b_k + sum_j h2w[j][k] * h_j + ONE // 2) // ONE, 0, ONE)
    value   (b2 + sum_k w2_k * g_k) * UNITS // (ONE * ONE)

All integers (weights quantised: ONE = 1.0 in the hidden layers, w2 and h2w in 1/ONE, b2 and h2b in
1/(ONE * ONE)), so the pure-Python inference here, the numpy one of the fitter and the compiled leaf
(`compiled.net_value`) give the same value to the unit, whatever the order of the sums.  The weights are
package data as text (`format_net`/`parse_net`), never a pickle.

Pure Python sums the hidden layer SWAR-style: each input's row is one big integer with a LANE-bit lane
per hidden unit (each weight offset by OFFSET so that lanes never borrow), so a position costs one
big-integer addition per input that is on, then one shift and mask per hidden unit.  The second layer
likewise: one big-integer multiply-add per first-layer unit that is not 0 (its row of M lanes times
h_j), then one shift and mask per unit of the second layer.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ai.paper_soccer.shipped import shipped_text
from ai.paper_soccer.board import DIST_CAP, turn_distances
from engines.paper_soccer import EDGE_BIT, INITIAL_PM, NB, OPP
from engines.paper_soccer.geometry import HEIGHT, N_FIELD, N_POINTS, XY

ONE = 128  # 1.0 in the hidden layer's and the output weights' units
UNITS = 100  # the value's units a logit (the evaluation's: `value.py`)
MAX_WEIGHT = 2047  # |w1| and |b1| at most (16.0 in floats): LANE's arithmetic relies on it
LANE = 32
OFFSET = 1 << 12  # added to each w1 in a lane: > MAX_WEIGHT, so each lane's sum stays non-negative
LANE_MASK = (1 << LANE) - 1
MAX_HIDDEN = 256  # units in either hidden layer at most
MAX_BIAS2 = MAX_WEIGHT * ONE  # |h2b| at most (16.0, in ONE * ONE units)
OFFSET2 = 1 << 19  # added to each h2b in a lane: > MAX_BIAS2; a lane's sum stays under 2 ** 28 < 2 ** LANE


def _mirror_point(p: int) -> int:
    """Point p with the pitch turned top to bottom (seat 1's view: it attacks the top goal too)."""
    if p >= N_FIELD:
        return p + 3 if p < 102 else p - 3
    x, y = XY[p]
    return x * HEIGHT + (HEIGHT - 1 - y)


def _flip_point(p: int) -> int:
    """Point p with the pitch turned left to right (the same position for the value: training doubles)."""
    if p >= N_FIELD:
        return (101 + 99 - p) if p < 102 else (104 + 102 - p)
    x, y = XY[p]
    return (8 - x) * HEIGHT + y


MIRROR = tuple(_mirror_point(p) for p in range(N_POINTS))
FLIP = tuple(_flip_point(p) for p in range(N_POINTS))

# the undirected edges that are not walls, in a fixed order (by edge bit)
_edge_bits = sorted({EDGE_BIT[p * 8 + d] for p in range(N_POINTS) for d in range(8)
                     if NB[p * 8 + d] >= 0 and not INITIAL_PM[p] >> d & 1})
EDGES = len(_edge_bits)
_edge_index = {b: i for i, b in enumerate(_edge_bits)}
BALL0 = EDGES
MINE0 = BALL0 + N_FIELD
THEIRS0 = MINE0 + N_FIELD
N_INPUTS = THEIRS0 + N_FIELD
DIST0 = N_INPUTS  # a net with distances: input DIST0 + point * DIST_ROW + the point's turn distance
DIST_ROW = DIST_CAP + 1
N_INPUTS_DIST = DIST0 + N_POINTS * DIST_ROW


def _step_of(p: int, q: int) -> int:
    return next(p * 8 + d for d in range(8) if NB[p * 8 + d] == q)


def _edge_inputs(seat: int) -> tuple[int, ...]:
    """EDGE_IN[seat][p * 8 + d]: the input of the edge from p along d when p < its other end and it is
    not a wall, else -1 (each edge counted once, from its lower end)."""
    out = [-1] * (N_POINTS * 8)
    for p in range(N_POINTS):
        for d in range(8):
            q = NB[p * 8 + d]
            if q < 0 or q < p or INITIAL_PM[p] >> d & 1:
                continue
            if seat == 0:
                out[p * 8 + d] = _edge_index[EDGE_BIT[p * 8 + d]]
            else:
                out[p * 8 + d] = _edge_index[EDGE_BIT[_step_of(MIRROR[p], MIRROR[q])]]
    return tuple(out)


EDGE_IN = (_edge_inputs(0), _edge_inputs(1))
# per point, the directions of its steps that `EDGE_IN` counts, as a mask of pm[p]'s bits
COUNTED = tuple(sum(1 << d for d in range(8) if EDGE_IN[0][p * 8 + d] >= 0) for p in range(N_POINTS))
# STEP_IN[seat][s]: the input of the edge step s draws, from either end (-1: a wall or no step), for
# a search that keeps the edges' part of the hidden layer as it draws and takes back steps
STEP_IN = tuple(tuple(-1 if NB[s] < 0 else max(edge_in[s], edge_in[NB[s] * 8 + OPP[s & 7]])
                      for s in range(N_POINTS * 8)) for edge_in in EDGE_IN)


def inputs(pm, ball: int, stm: int, mine: int, theirs: int, distances: bool = False) -> list[int]:
    """The inputs that are on, in increasing order of point: the drawn edges, the ball, the mover's
    danger points (`mine`, bits of `board.flood`) and the opponent's (`theirs`); with `distances`, each
    point's turn distance from the ball."""
    edge_in = EDGE_IN[stm]
    view = MIRROR if stm else range(N_POINTS)
    on = []
    for p in range(N_POINTS):
        m = pm[p] & COUNTED[p]
        while m:
            b = m & -m
            m ^= b
            on.append(edge_in[p * 8 + b.bit_length() - 1])
    on.append(BALL0 + view[ball])
    for base, bits in ((MINE0, mine), (THEIRS0, theirs)):
        while bits:
            b = bits & -bits
            bits ^= b
            on.append(base + view[b.bit_length() - 1])
    if distances:
        d = turn_distances(pm, ball)
        on.extend(DIST0 + view[p] * DIST_ROW + d[p] for p in range(N_POINTS))
    return on


def flip_inputs(on: list[int]) -> list[int]:
    """The inputs of the same position turned left to right (training data, doubled)."""
    out = []
    for i in on:
        if i < EDGES:
            p, q = _EDGE_ENDS[i]
            out.append(_edge_index[EDGE_BIT[_step_of(FLIP[p], FLIP[q])]])
        elif i >= DIST0:
            p, d = divmod(i - DIST0, DIST_ROW)
            out.append(DIST0 + FLIP[p] * DIST_ROW + d)
        else:
            base = BALL0 if i < MINE0 else MINE0 if i < THEIRS0 else THEIRS0
            out.append(base + FLIP[i - base])
    return out


_EDGE_ENDS = {}
for _p in range(N_POINTS):
    for _d in range(8):
        _i = EDGE_IN[0][_p * 8 + _d]
        if _i >= 0:
            _EDGE_ENDS[_i] = (_p, NB[_p * 8 + _d])


@dataclass
class Net:
    """The weights as integers: w1[input][hidden], b1[hidden], w2[out], b2, where out is the last hidden
    layer's width; `distances`: the inputs include the turn distances (N_INPUTS_DIST rows, else N_INPUTS);
    with a second hidden layer, h2w[hidden][hidden2] and h2b[hidden2] (both empty without)."""

    w1: list[list[int]]
    b1: list[int]
    w2: list[int]
    b2: int
    distances: bool = False
    h2w: list[list[int]] = field(default_factory=list)
    h2b: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        hidden, hidden2 = len(self.b1), len(self.h2b)
        rows = self.n_inputs
        if not 1 <= hidden <= MAX_HIDDEN or hidden2 > MAX_HIDDEN:
            raise ValueError(f"a net's hidden layers have 1..{MAX_HIDDEN} units")
        out = hidden2 or hidden
        if len(self.w1) != rows or any(len(row) != hidden for row in self.w1) or len(self.w2) != out:
            raise ValueError(f"a net needs {rows} rows of {hidden} weights and {out} output weights")
        if any(abs(v) > MAX_WEIGHT for row in self.w1 for v in row) or any(abs(v) > MAX_WEIGHT for v in self.b1):
            raise ValueError(f"hidden-layer weights must be within -{MAX_WEIGHT}..{MAX_WEIGHT}")
        if hidden2 and (len(self.h2w) != hidden or any(len(row) != hidden2 for row in self.h2w)):
            raise ValueError(f"a second hidden layer needs {hidden} rows of {hidden2} weights")
        if not hidden2 and self.h2w:
            raise ValueError("second-layer weights without its biases")
        if any(abs(v) > MAX_WEIGHT for row in self.h2w for v in row) or any(abs(v) > MAX_BIAS2 for v in self.h2b):
            raise ValueError(f"second-layer weights must be within -{MAX_WEIGHT}..{MAX_WEIGHT}, "
                             f"its biases within -{MAX_BIAS2}..{MAX_BIAS2}")
        self._rows = [sum((v + OFFSET) << (LANE * j) for j, v in enumerate(row)) for row in self.w1]
        self._start = sum((v + OFFSET) << (LANE * j) for j, v in enumerate(self.b1))
        self._rows2 = [sum((v + OFFSET) << (LANE * k) for k, v in enumerate(row)) for row in self.h2w]
        self._start2 = sum((v + OFFSET2 + ONE // 2) << (LANE * k) for k, v in enumerate(self.h2b))

    @property
    def hidden(self) -> int:
        return len(self.b1)

    @property
    def hidden2(self) -> int:
        """The second hidden layer's units (0: none)."""
        return len(self.h2b)

    @property
    def n_inputs(self) -> int:
        return N_INPUTS_DIST if self.distances else N_INPUTS

    def value_of(self, on: list[int]) -> int:
        """The value of the inputs that are on (`inputs`)."""
        rows = self._rows
        acc = self._start
        for i in on:
            acc += rows[i]
        base = OFFSET * (len(on) + 1)  # what the offsets added to each lane (non-negative: no borrows)
        if self._rows2:
            return self._second(acc, base)
        out = self.b2
        for j, w in enumerate(self.w2):
            h = ((acc >> (LANE * j)) & LANE_MASK) - base
            if h > 0:
                out += w * (h if h < ONE else ONE)
        return out * UNITS // (ONE * ONE)

    def _second(self, acc: int, base: int) -> int:
        """`value_of` through the second hidden layer, from the first layer's lanes `acc` (less `base`)."""
        acc2 = self._start2
        total = 0  # the sum of the h_j: what OFFSET added to each lane of acc2
        for j, row in enumerate(self._rows2):
            h = ((acc >> (LANE * j)) & LANE_MASK) - base
            if h > 0:
                if h > ONE:
                    h = ONE
                acc2 += h * row
                total += h
        base2 = OFFSET2 + OFFSET * total
        out = self.b2
        for k, w in enumerate(self.w2):
            g = (((acc2 >> (LANE * k)) & LANE_MASK) - base2) // ONE
            if g > 0:
                out += w * (g if g < ONE else ONE)
        return out * UNITS // (ONE * ONE)

    def value(self, pm, ball: int, stm: int, mine: int, theirs: int) -> int:
        """The value of a position for its mover (see the module's docstring)."""
        return self.value_of(inputs(pm, ball, stm, mine, theirs, self.distances))


def format_net(net: Net, header: str) -> str:
    """A weight file: comment lines, `hidden N`, with a second hidden layer `hidden2 M`, `inputs with
    distances` for such a net, then b2, the output weights (M, else N), with a second layer its M biases
    (h2b) and one line of M weights per first-layer unit (h2w), then the N hidden biases and one line of N
    weights per input, each line named."""
    out = [f"# {line}" if line else "#" for line in header.splitlines()]
    out.append(f"hidden {net.hidden}")
    if net.hidden2:
        out.append(f"hidden2 {net.hidden2}")
    if net.distances:
        out.append("inputs with distances")
    out.append(f"b2 {net.b2}")
    out.append("w2 " + " ".join(map(str, net.w2)))
    if net.hidden2:
        out.append("h2b " + " ".join(map(str, net.h2b)))
        out.extend(f"h2w {' '.join(map(str, row))}" for row in net.h2w)
    out.append("b1 " + " ".join(map(str, net.b1)))
    out.extend(f"w1 {' '.join(map(str, row))}" for row in net.w1)
    return "\n".join(out) + "\n"


def parse_net(text: str) -> Net:
    """The net of a weight file (`format_net`); ValueError for anything else."""
    hidden = None
    hidden2 = 0
    b2 = None
    w2 = b1 = h2b = None
    w1: list[list[int]] = []
    h2w: list[list[int]] = []
    distances = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, rest = line.partition(" ")
        if name == "inputs" and rest == "with distances" and hidden is not None and b2 is None:
            distances = True
            continue
        values = [int(v) for v in rest.split()]
        width = {"w2": hidden2 or hidden, "b1": hidden, "w1": hidden, "h2b": hidden2, "h2w": hidden2}.get(name)
        if name in ("hidden", "hidden2") and not (len(values) == 1 and 1 <= values[0] <= MAX_HIDDEN):
            raise ValueError(f"`{name} N` takes one N of 1..{MAX_HIDDEN}")
        if name == "hidden" and hidden is None:
            hidden = values[0]
        elif hidden is None:
            raise ValueError("a net file starts with `hidden N`")
        elif name == "hidden2" and not hidden2 and not distances and b2 is w2 is b1 is None and not w1:
            hidden2 = values[0]
        elif name == "b2" and len(values) == 1:
            b2 = values[0]
        elif width and len(values) == width:
            if name == "w2":
                w2 = values
            elif name == "b1":
                b1 = values
            elif name == "h2b":
                h2b = values
            elif name == "h2w" and len(h2w) < hidden:
                h2w.append(values)
            elif name == "w1" and len(w1) < N_INPUTS_DIST:
                w1.append(values)
            else:
                raise ValueError(f"too many {name} lines")
        else:
            raise ValueError(f"unexpected line {name!r} (or the wrong count of numbers)")
    if b2 is None or w2 is None or b1 is None or (hidden2 and h2b is None):
        raise ValueError("a net file needs b2, w2 and b1" + (", and h2b with `hidden2`" if hidden2 else ""))
    return Net(w1, b1, w2, b2, distances, h2w, h2b or [])


_loaded: dict[str, Net] = {}
MAX_FILE_BYTES = 8 << 20


def load_net(name: str) -> Net:
    """A net shipped as package data (`net:NAME`, ai/paper_soccer/NAME.net) or the weight file at path
    `name`, read once."""
    if name not in _loaded:
        if name.startswith("net:"):
            text = shipped_text("net", name[4:], ".net")
        else:
            with open(name, encoding="ascii") as f:
                text = f.read(MAX_FILE_BYTES + 1)
            if len(text) > MAX_FILE_BYTES:
                raise ValueError(f"{name}: larger than {MAX_FILE_BYTES} bytes")
        _loaded[name] = parse_net(text)
    return _loaded[name]
