"""Host failover: the host goes silent mid-game; the next peer in join order sequences the rest."""

from __future__ import annotations

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
