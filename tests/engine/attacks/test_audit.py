"""The audit always ends: a seat that will not publish is named and rebuilt from its shares, and
the table reaches ``done``; the next game can start."""

from __future__ import annotations

from engine.protocol.peer import Peer
from tests.engine.attacks.common import digests
from tests.engine.harness import make_table, play


class NoAudit(Peer):
    """Plays the game but never publishes its secret at the audit."""

    async def _act_once(self) -> bool:
        if self.table.stage == "audit":
            return False
        return await super()._act_once()


async def test_a_seat_that_will_not_publish_is_named_and_the_audit_ends() -> None:
    h = await make_table(4, peer_class={2: NoAudit})
    await play(h, 4)
    table = h.peers[0].table
    assert table.stage == "audit"
    await h.advance(200, steps=10)
    assert table.stage == "done"
    assert 2 in table.blame and "audit" in table.blame[2]
    assert 2 in table.recovered, "its secret was rebuilt from the others' shares for the audit"
    assert table.result is not None and set(table.result["blame"]) == {2}
    assert len(digests(h, skip={"p2"})) == 1
    await h.bus.close()


async def test_with_too_few_shares_left_the_audit_still_ends_naming_the_silent_seats() -> None:
    h = await make_table(3, peer_class={1: NoAudit, 2: NoAudit})
    await play(h, 3)
    await h.advance(400, steps=20)
    table = h.peers[0].table
    assert table.stage == "done"
    assert table.result is not None and table.result["ok"] is False
    assert {1, 2} <= set(table.result["blame"])
    assert 0 not in table.result["blame"]
    await h.bus.close()


async def test_the_audit_rechecks_every_opening_the_log_accepted() -> None:
    h = await make_table(3)
    await play(h, 3)
    table = h.peers[0].table
    assert table.stage == "done" and table.result == {"ok": True, "blame": {}}
    assert table.opened_items, "the seals were opened"
    seat, index, nonce, _ = table.opened_items[0]
    table.opened_items[0] = (seat, index, nonce, {"slot": 999})
    result = await table.run_audit()
    assert seat in result["blame"] and "opening" in result["blame"][seat]
    await h.bus.close()
