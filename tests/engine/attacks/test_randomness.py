"""Joint randomness has no veto: a seat that withholds its preimage, or leaves at the roll,
changes nothing about the outcome and is blamed."""

from __future__ import annotations

import pytest

from engine.fairness.backends.native import NativeBackend
from engine.protocol.bundle import SecretBundle
from engine.protocol.peer import Peer
from tests.engine.attacks.common import digests
from tests.engine.harness import make_table, play


class LastRevealer(Peer):
    """Sees the roll coming and withholds its preimage (or leaves instead of posting it)."""

    leave = False

    async def _act_once(self) -> bool:
        table = self.table
        if self.seat is not None and table.obligations().get(self.seat) == "preimage":
            if self.leave and self._once(("leave-at-roll",)):
                await self._post({"t": "leave"})
                return True
            return False
        return await super()._act_once()


class LeavesAtTheRoll(LastRevealer):
    leave = True


async def honest_die(bundles: list[SecretBundle]) -> int:
    h = await make_table(4, bundles=bundles)
    await play(h, 4)
    die = h.peers[0].table.state["die"]
    await h.bus.close()
    return int(die)


@pytest.mark.parametrize("cheat", [LastRevealer, LeavesAtTheRoll])
async def test_the_last_revealer_cannot_change_the_roll(cheat: type[Peer]) -> None:
    bundles = [await SecretBundle.create(NativeBackend()) for _ in range(4)]
    expected = await honest_die(bundles)
    h = await make_table(4, bundles=bundles, peer_class={3: cheat})
    await play(h, 4)
    await h.advance(200, steps=10)
    table = h.peers[0].table
    assert table.state["die"] == expected, "the rebuilt preimage gives the same roll"
    assert 3 in table.out and 3 in table.blame, "withholding or leaving at the roll is blamed"
    assert 3 in table.recovered_chains
    assert table.stage == "done"
    assert len(digests(h, skip={"p3"})) == 1
    await h.bus.close()
