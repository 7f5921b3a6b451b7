"""Map generation of Cultist Wars, bit for bit as the official referee draws it from the game seed.

The referee seeds `java.util.SplittableRandom` with the game seed (`E.random`) and builds the board
in `Board(false)`: the two leaders at (0,3) and (12,3), then the neutrals (`initLaymen`), then the
obstacles (`initExtraObstacles`).  Every later draw from that generator only picks sprite images,
so the map is all the game seed decides.

SplittableRandom arithmetic (JDK 8 and 17 agree):
    nextSeed:   s <- s + 0x9E3779B97F4A7C15 (mod 2^64)
    nextInt():  mix32(nextSeed())
    nextInt(b): r = nextInt(); m = b-1; pow2 -> r & m, else reject while u + m - (u % b) overflows an int
    nextDouble: (mix64(nextSeed()) >>> 11) * 2^-53
"""
from __future__ import annotations

from dataclasses import dataclass

WIDTH = 13
HEIGHT = 7
LEADER_TILES = ((0, 3), (12, 3))
NEUTRAL_BOUND = 5  # neutrals are drawn in columns 1..5 and mirrored to 7..11
OBSTACLE_CHANCE = 0.2

_M64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class SplittableRandom:
    """`java.util.SplittableRandom(seed)` with the draws the map generator uses."""

    def __init__(self, seed: int) -> None:
        self.seed = seed & _M64

    def _next_seed(self) -> int:
        self.seed = (self.seed + _GOLDEN_GAMMA) & _M64
        return self.seed

    @staticmethod
    def _mix32(z: int) -> int:
        """The signed 32-bit int Java's mix32 returns."""
        z = ((z ^ (z >> 33)) * 0x62A9D9ED799705F5) & _M64
        r = (((z ^ (z >> 28)) * 0xCB24D0A5C88C35B3) & _M64) >> 32
        return r - (1 << 32) if r >= (1 << 31) else r

    @staticmethod
    def _mix64(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def next_int(self, bound: int | None = None) -> int:
        r = self._mix32(self._next_seed())
        if bound is None:
            return r
        if bound <= 0:
            raise ValueError("bound must be positive")
        m = bound - 1
        if bound & m == 0:
            return r & m
        u = (r & 0xFFFFFFFF) >> 1  # r >>> 1
        while True:
            r = u % bound
            # Java tests `u + m - r < 0`, i.e. the int sum overflowed.
            if u + m - r < (1 << 31):
                return r
            u = (self._mix32(self._next_seed()) & 0xFFFFFFFF) >> 1

    def next_double(self) -> float:
        return (self._mix64(self._next_seed()) >> 11) * (1.0 / (1 << 53))


@dataclass(frozen=True)
class GeneratedMap:
    """What the game seed decides: obstacle tiles and the starting tiles of neutrals 2..13."""

    seed: int
    obstacles: frozenset[tuple[int, int]]
    neutrals: tuple[tuple[int, int], ...]  # index i is unit id i + 2

    def rows(self) -> list[str]:
        """The map as the referee sends it: `.` floor, `x` obstacle, top row first."""
        return ["".join("x" if (x, y) in self.obstacles else "." for x in range(WIDTH)) for y in range(HEIGHT)]


def _draw_neutrals(rng: SplittableRandom) -> list[tuple[int, int]]:
    taken = set(LEADER_TILES)
    left = []
    for _ in range(6):
        # Java evaluates tiles[x][y] left to right: x is drawn first.
        while True:
            x = rng.next_int(NEUTRAL_BOUND) + 1
            y = rng.next_int(HEIGHT)
            if (x, y) not in taken:
                break
        taken.add((x, y))
        left.append((x, y))
    return left + [(WIDTH - 1 - x, y) for x, y in left]


def _all_floor_reachable(obstacles: set[tuple[int, int]]) -> bool:
    """`allCellsAreReachable`: every floor tile connects to (0,3); units do not block."""
    start = LEADER_TILES[0]
    seen = {start}
    stack = [start]
    while stack:
        x, y = stack.pop()
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if 0 <= nx < WIDTH and 0 <= ny < HEIGHT and (nx, ny) not in obstacles and (nx, ny) not in seen:
                seen.add((nx, ny))
                stack.append((nx, ny))
    return len(seen) == WIDTH * HEIGHT - len(obstacles)


def _draw_obstacles(rng: SplittableRandom, units: set[tuple[int, int]]) -> set[tuple[int, int]]:
    while True:
        obstacles: set[tuple[int, int]] = set()
        for col in range((WIDTH - 1) // 2):
            for row in range(HEIGHT):
                # `tile.getUnit() == null && nextDouble() < 0.2`: no draw on a tile that holds a unit.
                if (col, row) not in units and rng.next_double() < OBSTACLE_CHANCE:
                    obstacles.add((col, row))
                    obstacles.add((WIDTH - 1 - col, row))
        if _all_floor_reachable(obstacles):
            return obstacles


def generate_map(seed: int) -> GeneratedMap:
    """The map the official referee builds for game seed `seed` (a Java long)."""
    rng = SplittableRandom(seed)
    neutrals = _draw_neutrals(rng)
    obstacles = _draw_obstacles(rng, set(LEADER_TILES) | set(neutrals))
    return GeneratedMap(seed, frozenset(obstacles), tuple(neutrals))
