"""`termarena train`'s Paper Soccer hooks: whom a generation's self-play pits against whom, and the gate's
players at a fixed node budget."""
from __future__ import annotations

import pytest

from ai.paper_soccer import training


def test_the_champion_plays_at_three_budgets_with_noise_and_beside_level_6_s_own_value_and_its_elders():
    players = training.pool("net:selfplay3", ["net:selfplay1", "net:selfplay2", "net:dist1", "net:selfplay1"])
    own = [p for p in players if p.endswith("net=net:selfplay3")]
    assert {p.split(",")[1] for p in own} == {"nodes=1500", "nodes=4000", "nodes=10000"}
    assert any("epsilon" in p for p in own) and "level:6,nodes=4000" in players
    # the newest three earlier champions, not every one, as the pool's first player of a net
    elders = [p for p in players if "net=" in p and p not in own]
    assert elders == [f"level:6,nodes=4000,net={n}" for n in ("net:selfplay2", "net:dist1", "net:selfplay1")]


def test_without_a_champion_the_pool_is_self_play_s_own_and_a_template_needs_one():
    from ai.paper_soccer.selfplay import POOL

    assert training.pool(None, []) == POOL
    assert training.pool("net:dist1", ["net:selfplay1"], ("level:3", "level:6,nodes=50,net={net}")) == \
        ("level:3", "level:6,nodes=50,net=net:dist1", "level:6,nodes=50,net=net:selfplay1")
    with pytest.raises(ValueError, match="no champion"):
        training.pool(None, [], ("level:6,net={net}",))


def test_the_gate_s_players_search_the_same_nodes():
    assert training.player(None, 10_000) == "level:6,nodes=10000"
    assert training.player("runs/gen-002.net", 500) == "level:6,nodes=500,net=runs/gen-002.net"
    # another search for both sides; the nodes and the net stay the gate's own
    assert training.player("a.net", 500, "best_first=1,wide=50") == "level:6,nodes=500,best_first=1,wide=50,net=a.net"
    with pytest.raises(ValueError, match="the gate sets net itself"):
        training.player("a.net", 500, "net=b.net")
