"""Per-phase timers: a game may give one phase (the spell assembly, say) its own time limit."""

from __future__ import annotations

from engine.protocol.players import Waiting
from tests.engine.harness import make_table


async def test_a_phase_timer_overrides_the_table_timer() -> None:
    h = await make_table(3, players={2: Waiting()})
    await h.peers[0].start({"seats": 3, "timers": {"seal": 5}}, timer=30)
    await h.settle()
    table = h.peers[0].table
    assert table.obligations() == {2: "action"}
    assert table.timer_for("action") == 5
    assert table.timer_for("keys") == 60  # automatic crypto steps get at least a minute
    await h.advance(0.1)  # timers count from when a peer first sees the obligation
    await h.advance(4)
    assert table.obligations() == {2: "action"}, "not yet: 4 s of 5"
    await h.advance(2)
    assert table.rules.decision(table.state).phase != "seal"
    # The next phase has no timer of its own: the table timer (30 s) applies.
    assert table.obligations().get(2) == "action"
    assert table.timer_for("action") == 30
    await h.advance(0.1)
    await h.advance(20)
    assert table.obligations().get(2) == "action"
    await h.bus.close()


async def test_the_longest_timer_covers_every_phase_and_the_crypto_floor() -> None:
    h = await make_table(3, players={2: Waiting()})
    await h.peers[0].start({"seats": 3, "timers": {"seal": 95, "odd": "x"}}, timer=30)
    await h.settle()
    table = h.peers[0].table
    assert table.longest_timer() == 95  # a phase's own timer, longer than the others
    table.config = {"seats": 3, "timers": {"seal": 5}}
    assert table.longest_timer() == 60  # the crypto steps' floor
    table.timer = 75
    assert table.longest_timer() == 75
    await h.bus.close()
