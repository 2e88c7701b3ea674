"""The shuffled deck: duplicated or foreign cards and wrong slot keys are named."""

from __future__ import annotations

from typing import Any

from engine.fairness import curve
from engine.protocol.peer import Peer
from tests.engine.attacks.common import Never, digests
from tests.engine.harness import make_table, play


class DuplicateCard(Peer):
    """Publishes a pass-1 deck with one card twice."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        body = await super()._obligation_body(owed)
        if owed == "pass1":
            deck = body["decks"]["main"]
            deck[1] = deck[0]
        return body


async def test_duplicated_card_in_a_shuffle_is_refused_and_named() -> None:
    h = await make_table(3, peer_class={1: DuplicateCard})
    await play(h, 3)
    assert any(e.peer == "p1" and "duplicated" in e.reason for e in h.peers[0].errors)
    assert all(len(d.pass1) == 1 for d in h.peers[0].table.decks.values())
    await h.advance(100, steps=10)
    assert h.peers[0].table.stage == "halted"
    assert 1 in h.peers[0].table.blame
    await h.bus.close()


class ForeignCard(Peer):
    """Swaps one card of its pass-1 deck for a point that is no card of the game."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        body = await super()._obligation_body(owed)
        if owed == "pass1":
            body["decks"]["main"][0] = format(curve.hash_to_x(b"foreign card"), "064x")
        return body


async def test_foreign_card_is_named_by_the_audit() -> None:
    h = await make_table(3, peer_class={2: ForeignCard})
    await play(h, 3)
    await h.advance(100, steps=10)
    table = h.peers[0].table
    assert table.stage == "done"
    assert table.result is not None and 2 in table.result["blame"]
    assert set(table.result["blame"]) == {2}
    await h.bus.close()


class WrongSlotKey(Peer):
    """Sends a wrong key in its private deliveries."""

    def _key_to_send(self, slot: int, key: int) -> int:
        return key % (curve.N - 1) + 1


async def test_wrong_slot_key_is_proved_by_the_receiver_and_the_game_goes_on() -> None:
    h = await make_table(3, peer_class={1: WrongSlotKey})
    await play(h, 3)
    await h.advance(100, steps=10)
    table = h.peers[0].table
    assert "wrong key" in table.blame.get(1, "")
    assert 1 in table.out and 1 in table.recovered
    assert table.stage == "done"
    for peer in (h.peers[0], h.peers[2]):
        hand = table.state["hands"][peer.seat]
        assert set(hand) <= set(peer.knowledge.cards), "keys recovered from escrow"
    await h.bus.close()


async def test_a_groundless_deck_complaint_blames_its_author_and_the_game_goes_on() -> None:
    h = await make_table(3, players={i: Never() for i in range(3)})
    await play(h, 3)
    liar = h.peers[2]
    slot = liar.table.state["hands"][2][0]
    await liar._post(liar._deck_complaint(slot))
    await h.settle()
    table = h.peers[0].table
    assert 2 in table.blame and "no card" in table.blame[2]
    assert table.stage == "play", "the game goes on without the liar"
    assert len(digests(h)) == 1
    await h.bus.close()
