"""Who may knock at a host, and how often: wrong join codes per address, and connections without a code yet.

A join code is a password anyone who reaches the port can guess at, so guesses are rationed per address:
the first FREE_FAILURES wrong codes are answered at once; after that each code from the address waits
(1, 2, 4, 8 s) before it is even checked, so neither answer comes sooner; LOCK_AFTER wrong codes within
WINDOW_S refuse the address for LOCK_S (about ten guesses per address every ten minutes, where a word
from a dictionary fell to 400 in half a second).  The table of addresses is capped; an IPv6 address
counts by its /64, the block one machine is usually given, so a host's many addresses are one.

Connections that have not given the code hold no seat and no watcher slot, only a pending slot: at most
PENDING in all and PENDING_PER_ADDRESS from one address.  When they are full the OLDEST pending
connection gives way, not the new one: a stranger's idle connections, however many and however often
renewed, can delay a real joiner (who sends the code at once) but not keep them out.

Pure: times come from the `now` given (tests pass their own clock).
"""
from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Callable, Generic, Hashable, TypeVar


@dataclass(frozen=True)
class GateLimits:
    auth_s: float = 10.0  # from connecting to HELLO with the code; then the connection is closed
    free_failures: int = 3  # wrong codes from an address answered without a wait
    delay_s: float = 1.0  # then this wait before its next code is checked, doubling each time...
    max_delay_s: float = 8.0  # ...up to this
    lock_after: int = 10  # wrong codes within window_s that refuse the address...
    window_s: float = 600.0
    lock_s: float = 600.0  # ...for this long
    max_addresses: int = 4096  # addresses remembered (the least recently failing is forgotten first)
    pending: int = 32  # connections without a code yet, in all
    pending_per_address: int = 4


def address_key(address: str) -> str:
    """The unit failures and pending slots are counted by: an IPv4 address, or an IPv6 /64."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class _Record:
    __slots__ = ("failures", "locked_until")

    def __init__(self, size: int) -> None:
        self.failures: deque[float] = deque(maxlen=size)  # the times of the last wrong codes
        self.locked_until = -math.inf


class Gate:
    """Wrong join codes per address: how long to wait before checking the next one, and lockouts."""

    def __init__(self, limits: GateLimits = GateLimits(), now: Callable[[], float] = time.monotonic) -> None:
        self.limits, self._now = limits, now
        self._table: OrderedDict[str, _Record] = OrderedDict()

    def __len__(self) -> int:
        return len(self._table)

    def locked_for(self, key: str) -> float:
        """Seconds the address stays refused (0: it is not)."""
        record = self._table.get(key)
        return 0.0 if record is None else max(0.0, record.locked_until - self._now())

    def delay(self, key: str) -> float:
        """Seconds to wait before checking a code from the address."""
        extra = self._recent(key) - self.limits.free_failures
        if extra < 0:
            return 0.0
        return min(self.limits.delay_s * 2 ** min(extra, 30), self.limits.max_delay_s)

    def failed(self, key: str) -> bool:
        """Count a wrong code; True when it locks the address out."""
        record = self._table.get(key)
        if record is None:
            record = self._table[key] = _Record(self.limits.lock_after)
            while len(self._table) > self.limits.max_addresses:
                self._table.popitem(last=False)
        self._table.move_to_end(key)
        now = self._now()
        record.failures.append(now)
        if self._recent(key) >= self.limits.lock_after:
            record.locked_until = now + self.limits.lock_s
            record.failures.clear()  # after the lock, the count starts again
            return True
        return False

    def _recent(self, key: str) -> int:
        record = self._table.get(key)
        if record is None:
            return 0
        since = self._now() - self.limits.window_s
        while record.failures and record.failures[0] <= since:
            record.failures.popleft()
        return len(record.failures)


Item = TypeVar("Item", bound=Hashable)


class Pending(Generic[Item]):
    """Connections without a code yet, oldest first, bounded in all and per address (see the module)."""

    def __init__(self, total: int, per_key: int) -> None:
        self.total, self.per_key = total, per_key
        self._items: OrderedDict[Item, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def add(self, item: Item, key: str) -> list[Item]:
        """Take `item` in; returns the older ones that give way to it (the caller closes them)."""
        out = []
        same = [other for other, k in self._items.items() if k == key]
        for other in same[: max(0, len(same) + 1 - self.per_key)]:
            out.append(other)
            del self._items[other]
        while len(self._items) + 1 > self.total:
            out.append(self._items.popitem(last=False)[0])
        self._items[item] = key
        return out

    def remove(self, item: Item) -> None:
        self._items.pop(item, None)
