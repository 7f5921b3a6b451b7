"""The database writer thread: jobs queued while it commits are committed together (one transaction,
one fsync), each is resolved only once committed, and a failing job fails alone."""
from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from tui.core.server.store import DB_NAME, Store


async def test_jobs_that_wait_are_committed_together_and_a_failing_one_alone(tmp_path):
    store = Store(tmp_path)
    writer = store.writer
    inside, release = threading.Event(), threading.Event()

    def hold(db):  # keeps the thread inside a transaction while the others queue
        inside.set()
        return release.wait(20)

    blocked = writer.submit(hold)
    await asyncio.to_thread(inside.wait, 20)
    rows = [writer.submit(lambda db, i=i: db.execute("INSERT INTO moves VALUES (1, ?, 'm', 1, 1)", (i,)))
            for i in range(50)]
    bad = writer.submit(lambda db: db.execute("INSERT INTO moves VALUES (1, 0, 'again', 1, 1)"))  # ply 0 twice
    await asyncio.sleep(0)
    assert not any(f.done() for f in rows)  # nothing is told before it is committed
    release.set()
    await asyncio.gather(blocked, *rows)
    with pytest.raises(sqlite3.IntegrityError):
        await bad
    assert writer.commits == 2  # the blocking job's transaction, then the 51 others in one
    assert [m.text for m in store.moves(1)] == ["m"] * 50  # the failed job undid nothing but itself
    store.close()
    reopened = sqlite3.connect(tmp_path / DB_NAME)
    assert reopened.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 50


async def test_a_claim_race_gives_a_name_to_one_holder_only(tmp_path):
    store = Store(tmp_path)
    won = await asyncio.gather(store.claim("alice", "a" * 48), store.claim("ALICE", "b" * 48))
    assert sorted(won) == [False, True]
    store.close()
