"""Host failover: the host goes silent mid-game; the next peer in join order sequences the rest."""

from __future__ import annotations

from typing import Any

from engine.core.model import Action, Knowledge, Rules
from engine.protocol.players import RandomBot
from engine.protocol.transport import InProcessBus
from tests.engine.harness import make_table, play


async def test_silent_host_is_replaced_and_the_game_finishes() -> None:
    h = await make_table(4)

    def cut_host_after_seal(sender: str, to: str, message: str) -> str | None:
        if '"t":"seal"' in message.replace('"type":"seal"', '"t":"seal"'):
            h.bus.disconnect("p0")
        return message

    h.bus.tamper = cut_host_after_seal
    await play(h, 4, timer=30)
    h.bus.tamper = None
    survivors = h.peers[1:]
    assert all(p.table.stage == "play" for p in survivors)
    assert all(p.host == "p0" for p in survivors)
    for _ in range(40):
        await h.advance(5)
        if all(p.table.stage == "done" for p in survivors):
            break
    assert all(p.host == "p1" for p in survivors), [p.host for p in survivors]
    assert {p.table.digest() for p in survivors} == {survivors[0].table.digest()}
    for peer in survivors:
        assert peer.table.stage == "done", peer.table.stage
        result = peer.table.result
        assert result is not None
        # Only the silent host's seat is blamed, and for going silent, not for cheating.
        assert set(result["blame"]) == {0}, result
        assert result["blame"][0].startswith("timed out"), result
        assert set(peer.table.out) == {0}
    await h.bus.close()


class LeavesAtItsBid:
    """Plays as a random bot until its own bid is asked for; then its tab closes (the host's
    connection drops and it posts nothing), so nobody has a post waiting on the host."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.bus: InProcessBus | None = None

    async def choose(
        self, rules: Rules[Any], state: Any, seat: int, knowledge: Knowledge, legal: list[Action]
    ) -> Action | None:
        if rules.decision(state).phase == "bid":
            assert self.bus is not None
            self.bus.disconnect("p0")
            return None
        return await self.inner.choose(rules, state, seat, knowledge, legal)


async def test_a_host_gone_on_its_own_turn_is_voted_out_when_its_timer_runs_out() -> None:
    leaver = LeavesAtItsBid(0)
    h = await make_table(4, players={0: leaver})
    leaver.bus = h.bus
    await play(h, 4, timer=30)
    survivors = h.peers[1:]
    assert all(p.host == "p0" for p in survivors)
    assert all(not p.pending.posts and not p.outbox for p in survivors)
    for _ in range(40):
        await h.advance(5)
        if all(p.table.stage == "done" for p in survivors):
            break
    assert all(p.host == "p1" for p in survivors), [p.host for p in survivors]
    assert {p.table.digest() for p in survivors} == {survivors[0].table.digest()}
    for peer in survivors:
        result = peer.table.result
        assert peer.table.stage == "done" and result is not None, peer.table.stage
        assert set(result["blame"]) == {0}, result
        assert result["blame"][0].startswith("timed out"), result
    await h.bus.close()
