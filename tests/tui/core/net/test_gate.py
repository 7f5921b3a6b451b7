"""The host's door, without sockets: wrong codes per address (waits, then a lockout) and pending slots,
on a clock the test moves."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from tui.core.net.gate import Gate, GateLimits, Pending, address_key


def test_wrong_codes_are_free_then_slowed_then_the_address_is_locked_out_for_a_while():
    now = [0.0]
    gate = Gate(GateLimits(), lambda: now[0])
    waits = []
    for _ in range(10):
        waits.append(gate.delay("a"))
        locked = gate.failed("a")
    assert waits == [0, 0, 0, 1, 2, 4, 8, 8, 8, 8] and locked
    assert gate.locked_for("a") == 600 and gate.locked_for("b") == 0 and gate.delay("b") == 0
    now[0] += 599
    assert gate.locked_for("a") == 1
    now[0] += 1
    assert gate.locked_for("a") == 0 and gate.delay("a") == 0  # the count starts again after the lock


def test_old_failures_leave_the_window():
    now = [0.0]
    gate = Gate(GateLimits(), lambda: now[0])
    for _ in range(9):
        gate.failed("a")
        now[0] += 60
    assert gate.delay("a") == 8  # nine in ten minutes: slowed, not locked
    now[0] += 600
    assert gate.delay("a") == 0 and not gate.failed("a")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 15), st.floats(0, 120)), max_size=300))
def test_no_address_gets_more_than_ten_codes_checked_in_a_window(knocks):
    now = [0.0]
    limits = GateLimits()
    gate = Gate(limits, lambda: now[0])
    checked: dict[str, list[float]] = {}
    for who, step in knocks:
        now[0] += step
        key = f"10.0.0.{who}"
        assert 0 <= gate.delay(key) <= limits.max_delay_s
        if gate.locked_for(key):
            continue
        checked.setdefault(key, []).append(now[0])
        gate.failed(key)
        assert sum(t > now[0] - limits.window_s for t in checked[key]) <= limits.lock_after


def test_the_table_of_addresses_is_capped_and_forgets_the_least_recent_first():
    gate = Gate(GateLimits(max_addresses=100), lambda: 0.0)
    for _ in range(9):
        gate.failed("192.0.2.1")
    assert gate.delay("192.0.2.1") == 8
    for n in range(10_000):  # a stranger with many addresses
        gate.failed(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
        assert len(gate) <= 100
    assert gate.delay("192.0.2.1") == 0  # forgotten: the table holds the last 100 only
    for _ in range(3):
        gate.failed("10.0.39.15")  # the last address of the 10,000: remembered with its first failure
    assert gate.delay("10.0.39.15") == 2


def test_ipv6_addresses_count_by_their_64_block_and_mapped_ipv4_as_ipv4():
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:2") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7" == address_key("192.0.2.7")
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("?") == "?"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=200))
def test_pending_slots_are_bounded_and_the_newest_connection_always_keeps_its_slot(keys):
    pending = Pending(total=5, per_key=2)
    live: dict[int, str] = {}
    for n, k in enumerate(keys):
        for gone in pending.add(n, str(k)):
            assert gone < n  # only older ones give way
            del live[gone]
        live[n] = str(k)
        assert n in live and len(pending) == len(live) <= 5
        assert all(list(live.values()).count(v) <= 2 for v in live.values())
        if n % 3 == 0:  # some say their code and leave the pending slots
            pending.remove(n)
            del live[n]
