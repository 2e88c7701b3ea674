"""Sealed choices and reveal keys: a changed commitment or a wrong key is refused and forfeits."""

from __future__ import annotations

from typing import Any

from engine.protocol.peer import Peer
from tests.engine.attacks.common import digests
from tests.engine.harness import make_table, play, waiting_on


class ChangedCommitment(Peer):
    """Opens its seal with another slot than the one it committed to."""

    def _complete(self, action: dict[str, Any]) -> dict[str, Any]:
        done = super()._complete(action)
        for item in done.get("open", []):
            hand = self.table.state["hands"][self.seat]
            item["item"] = next(s for s in hand if s != item["item"])
        return done


async def test_changed_commitment_is_refused_and_the_seat_forfeits_its_seal() -> None:
    h = await make_table(3, peer_class={1: ChangedCommitment})
    await play(h, 3)
    assert any(
        e.peer == "p1" and "does not match the commitment" in e.reason for e in h.peers[0].errors
    )
    await h.advance(100, steps=10)
    assert h.peers[0].table.stage == "done"
    assert h.peers[0].table.state["opened"][1] is None
    assert len(digests(h)) == 1
    await h.bus.close()


class WrongRevealKey(Peer):
    """Publishes a wrong key for the public reveal, then sulks."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        body = await super()._obligation_body(owed)
        if owed == "keys":
            body["keys"] = {s: format(int(k, 16) ^ 1, "064x") for s, k in body["keys"].items()}
        return body


async def test_wrong_reveal_key_is_refused_then_timeout_forfeits_the_seat() -> None:
    h = await make_table(3, peer_class={2: WrongRevealKey})
    await play(h, 3)
    assert any(e.peer == "p2" and "does not match" in e.reason for e in h.peers[0].errors)
    assert h.peers[0].table.state["phase"] == "reveal"
    await h.advance(100, steps=10)
    table = h.peers[0].table
    assert 2 in table.blame and "withheld keys" in table.blame[2]
    assert table.stage == "done"
    assert table.result is not None and 2 in table.result["blame"]
    assert len(digests(h)) == 1
    await h.bus.close()


class Withholder(Peer):
    """Never reveals its key for the public reveal."""

    async def _act_once(self) -> bool:
        if self.seat is not None and self.table.obligations().get(self.seat) == "keys":
            return False
        return await super()._act_once()


async def test_withheld_reveal_times_out_into_a_forfeit_and_the_game_goes_on() -> None:
    h = await make_table(4, peer_class={3: Withholder})
    await play(h, 4)
    assert waiting_on(h.peers[0]) == {3: "keys"}
    await h.advance(100, steps=10)
    table = h.peers[0].table
    assert table.out.get(3, "").startswith("timed out")
    assert 3 in table.recovered, "escrow recovered the departed seat's keys"
    assert table.stage == "done" and table.state["top"] is not None
    await h.bus.close()
