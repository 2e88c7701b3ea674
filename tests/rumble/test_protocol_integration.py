"""«Схватка» through the real fair-play table: in-process peers, mental-poker deck, audit.

Known gap (see docs/rumble-rules-map.md, «What the table must support»): once the discard has
returned to the deck, a slot that was revealed publicly earlier can be dealt again, and the table
cannot yet open it; until it can, this test is expected to fail at that point.
"""

from __future__ import annotations

from engine.games.rumble import RumbleRules
from tests.engine.harness import make_table


async def test_a_two_win_match_plays_to_an_audited_end_through_the_table() -> None:
    seats = 3
    h = await make_table(seats, rules=RumbleRules(), room="room-r", game="game-r")
    bus, peers = h.bus, h.peers
    await peers[0].start({"seats": seats, "mode": "two_wins"}, timer=30)
    await bus.settle()
    try:
        assert all(peer.errors == [] for peer in peers), [p.errors for p in peers]
        assert {peer.table.digest() for peer in peers} == {peers[0].table.digest()}
        state = peers[0].table.state
        assert state["need"]["kind"] == "terminal"
        assert state["g"]["winners"]
        assert all(peer.table.result == {"ok": True, "blame": {}} for peer in peers)
        # The discard went back into the deck at least once, secretly re-shuffled by the table.
        assert {"e": "reshuffle"} in state["g"]["log"]
    finally:
        await bus.close()
