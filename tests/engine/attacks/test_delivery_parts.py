"""A seat delivers its keys to every receiver it owes in one entry, a sealed box per receiver.
A dishonest giver's malformed entry — a receiver named twice or not at all, a part nobody is
owed, slots that are not the owed ones, an oversized box — is refused whole, naming it, and
changes nothing; its honest entry afterwards still goes in. A part for a receiver who has left
since the entry was posted is passed over, and the other parts stand."""

from __future__ import annotations

from typing import Any

import pytest

from engine.protocol.peer import Peer
from tests.engine.attacks.common import Never, digests, signed, wire
from tests.engine.harness import Harness, make_table, play


class HoldsDeliveries(Peer):
    """Keeps its deliveries to itself (kept in ``held``) until a test sends them."""

    held: list[dict[str, Any]]

    async def _post(self, body: dict[str, Any]) -> None:
        if body.get("t") == "deliver":
            self.__dict__.setdefault("held", []).append(body)
            return
        await super()._post(body)


async def holding_table() -> tuple[Harness, dict[str, Any]]:
    """Three seats that never move; seat 2 owes its deliveries and holds them back."""
    h = await make_table(3, peer_class={2: HoldsDeliveries}, players={i: Never() for i in range(3)})
    await play(h, 3)
    host = h.peers[0]
    owed = host.table.pending_deliveries()
    assert {giver for giver, _ in owed} == {2}, owed
    (honest,) = h.peers[2].held  # type: ignore[attr-defined]
    assert sorted(part["to"] for part in honest["parts"]) == [0, 1], "one entry for both"
    return h, honest


async def post(h: Harness, body: dict[str, Any]) -> None:
    envelope = await signed(h, 2, body)
    h.peers[2].transport.send("p0", wire({"k": "post", "m": envelope}))
    await h.settle()


def malformed(honest: dict[str, Any]) -> list[dict[str, Any]]:
    first, second = honest["parts"]
    return [
        {"t": "deliver", "parts": []},
        {"t": "deliver", "parts": first},
        {"t": "deliver", "parts": [first, first]},
        {"t": "deliver", "parts": [first, second, first]},
        {"t": "deliver", "parts": ["x", second]},
        {"t": "deliver", "parts": [{**first, "to": [0]}, second]},
        {"t": "deliver", "parts": [{**first, "to": 2}, second]},  # to itself
        {"t": "deliver", "parts": [{**first, "to": 7}]},
        {"t": "deliver", "parts": [{**first, "slots": [*first["slots"], 99]}, second]},
        {"t": "deliver", "parts": [{**first, "slots": [str(s) for s in first["slots"]]}]},
        {"t": "deliver", "parts": [{**first, "slots": [1, "1", None]}, second]},
        {"t": "deliver", "parts": [first, {**second, "box": "00" * 20_000}]},
        {"t": "deliver", "parts": [{**first, "box": None}]},
        {"t": "deliver", "to": first["to"], "slots": first["slots"], "box": first["box"]},
    ]


@pytest.mark.parametrize("case", range(14))
async def test_a_malformed_delivery_is_refused_whole_and_the_honest_one_still_goes_in(
    case: int,
) -> None:
    h, honest = await holding_table()
    before = digests(h)
    body = malformed(honest)[case]
    await post(h, body)
    host = h.peers[0]
    assert any(e.peer == "p2" for e in host.errors), body
    assert digests(h) == before and not host.halted
    assert host.table.pending_deliveries(), "nothing of it was given"
    await post(h, honest)
    assert not host.table.pending_deliveries()
    assert len(digests(h)) == 1
    for peer in h.peers[:2]:  # each receiver opened its own box and learned its cards
        hand = peer.table.state["hands"][peer.seat]
        assert hand and set(hand) <= set(peer.knowledge.cards)
        assert not [e for e in peer.errors if "undecipherable" in str(e) or "wrong key" in str(e)]
    await h.bus.close()


async def test_a_part_for_a_seat_that_left_meanwhile_is_passed_over() -> None:
    h, honest = await holding_table()
    host = h.peers[0]
    await host.host_command("kick", 1)  # seat 1 is out before seat 2's entry is sequenced
    await h.settle()
    assert 1 in host.table.out
    boxes = len(host.table.boxes)
    await post(h, honest)
    assert not host.table.pending_deliveries()
    assert [(g, r) for g, r, _ in host.table.boxes[boxes:]] == [(2, 0)]
    assert not any(e.peer == "p2" for e in host.errors)
    assert len(digests(h)) == 1
    await h.bus.close()
