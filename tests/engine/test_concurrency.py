"""A peer's entry points never interleave, even when crypto really suspends (as WebCrypto does)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from engine.fairness.backends.base import KeyPair
from engine.fairness.backends.native import NativeBackend
from tests.engine.harness import make_table, play


class SuspendingBackend(NativeBackend):
    """The native backend, but every operation yields to the event loop first."""

    async def sign(self, key: KeyPair, data: bytes) -> bytes:
        await asyncio.sleep(0)
        return await super().sign(key, data)

    async def verify(self, public: bytes, data: bytes, signature: bytes) -> bool:
        await asyncio.sleep(0)
        return await super().verify(public, data, signature)

    async def mult_many(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        await asyncio.sleep(0)
        return await super().mult_many(pairs)


async def test_ticks_and_messages_racing_do_not_fork_the_log() -> None:
    h = await make_table(3, backend=SuspendingBackend())
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            for peer in h.peers:
                await peer.tick()
            await asyncio.sleep(0)

    ticking = asyncio.ensure_future(ticker())
    try:
        await play(h, 3)
        for _ in range(50):
            await h.settle()
            if all(p.table.stage == "done" for p in h.peers):
                break
    finally:
        stop.set()
        await ticking
    assert all(not p.errors for p in h.peers), [e for p in h.peers for e in p.errors][:3]
    assert {p.table.digest() for p in h.peers} == {h.peers[0].table.digest()}
    assert all(p.table.result == {"ok": True, "blame": {}} for p in h.peers)
    await h.bus.close()
