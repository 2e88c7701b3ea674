"""Openings: a seat opens only what it committed, as it committed it, for its own seat; cards
are shown only after the move is in the log, so the host learns nothing from a post it refuses."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from engine.core.model import canonical_json
from engine.protocol.peer import Peer
from engine.protocol.players import Waiting
from tests.engine.attacks.common import digests
from tests.engine.harness import make_table, play
from tests.engine.race_game import StoneRules


class SealsAForgedMove(Peer):
    """Seals a dict that speaks for another seat or for the table, then opens it face down at
    the top level of its own move, hoping the table merges it into the move."""

    forged: ClassVar[dict[str, Any]] = {}

    def _complete(self, action: dict[str, Any]) -> dict[str, Any]:
        if action.get("type") == "seal" and action.get("seal"):
            action["seal"] = [self.forged]
        return super()._complete(action)

    async def _choose(self) -> dict[str, Any] | None:
        if self.table.state["phase"] == "open":
            return self._complete({"type": "open", "seat": self.seat, "index": 0})
        return await super()._choose()


class SealsAnotherSeatsMove(SealsAForgedMove):
    forged: ClassVar[dict[str, Any]] = {
        "type": "open",
        "seat": 0,
        "open": [{"index": 0, "slot": 1, "card": "void"}],
    }


class SealsAFakeCard(SealsAForgedMove):
    forged: ClassVar[dict[str, Any]] = {"slot": 1, "card": "void"}


async def test_an_opening_cannot_make_another_seats_move_or_a_card() -> None:
    for cheat in (SealsAnotherSeatsMove, SealsAFakeCard):
        h = await make_table(3, peer_class={1: cheat})
        await play(h, 3)
        errors = h.peers[0].errors
        assert any(e.peer == "p1" and "committed item" in e.reason for e in errors), errors
        await h.advance(100, steps=10)
        table = h.peers[0].table
        assert table.stage == "done"
        opened = [e["msg"]["body"] for e in table.log if e["msg"]["body"].get("t") == "action"]
        assert not any("index" in b["action"] and b["action"]["seat"] == 1 for b in opened)
        assert table.state["opened"][1] is None, "the cheat's seal stayed shut"
        assert len(digests(h)) == 1
        await h.bus.close()


class OpensWithAnotherItem(Peer):
    """Opens its seal with a different item and a made-up card."""

    def _complete(self, action: dict[str, Any]) -> dict[str, Any]:
        done = super()._complete(action)
        for item in done.get("open", []):
            item["card"] = "void"
        return done


async def test_an_opening_that_carries_its_own_card_is_refused() -> None:
    h = await make_table(3, peer_class={2: OpensWithAnotherItem})
    await play(h, 3)
    reasons = [e.reason for e in h.peers[0].errors if e.peer == "p2"]
    assert any("index, the nonce and the item only" in r for r in reasons)
    assert h.peers[0].table.state["opened"][2] is None, "nothing of it was opened"
    await h.bus.close()


async def test_the_host_learns_no_card_from_a_post_it_refuses() -> None:
    h = await make_table(3, rules=StoneRules(), players={i: Waiting() for i in range(3)})
    await h.peers[0].start({"seats": 3, "timers": {"scramble": 5}}, timer=30)
    await h.settle()
    seen: list[dict[str, Any]] = []

    def spy(sender: str, to: str, message: str) -> str | None:
        data = json.loads(message)
        if to == "p0" and data.get("k") == "post":
            seen.append(data["m"]["body"])
        return message

    h.bus.tamper = spy
    peers = h.peers[1:]
    moves = [p.rules.legal_actions(p.table.state, p.seat, p.knowledge)[0] for p in peers]
    # Both play at the same step: one is logged first and the other is refused as stale.
    for peer, move in zip(peers, moves, strict=True):
        await peer._post({"t": "action", "action": peer._complete(dict(move))})
    await h.settle()
    refused = [p for p in peers if p.refused]
    assert len(refused) == 1, "exactly one crossing play came back"
    actions = [b for b in seen if b["t"] == "action"]
    assert actions and all("keys" not in canonical_json(b).decode() for b in actions)
    shown = [b for b in seen if b["t"] == "cardkeys"]
    assert len(shown) == 1, "only the logged play's author showed its card"
    assert refused[0].seat is not None
    assert len(digests(h)) == 1
    await h.bus.close()


class OpensABadDictInAList(SealsAForgedMove):
    """Seals a dict whose slot is no slot number, then opens it in an ``open`` list."""

    forged: ClassVar[dict[str, Any]] = {"slot": "x", "nested": {"deep": [1, 2]}}

    async def _choose(self) -> dict[str, Any] | None:
        if self.table.state["phase"] == "open":
            return self._complete({"type": "open", "seat": self.seat, "open": [{"index": 0}]})
        return await Peer._choose(self)


async def test_a_sealed_dict_opened_in_a_list_is_refused_not_a_crash() -> None:
    h = await make_table(3, peer_class={2: OpensABadDictInAList})
    await play(h, 3)  # settle raises if any receiver died
    assert any(e.peer == "p2" and "slot number" in e.reason for e in h.peers[0].errors)
    await h.advance(100, steps=10)
    assert h.peers[0].table.stage == "done"
    assert len(digests(h)) == 1
    await h.bus.close()
