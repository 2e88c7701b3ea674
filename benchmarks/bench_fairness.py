"""Shuffle + deal of a 97-card deck for 3, 6 and 8 players per CPython backend.

Prints wall time per shuffle (both passes, every seat), per private deal of the whole deck, and per
audit, each also as a ratio to one native scalar multiplication measured in the same run, plus the
bytes and messages a shuffle puts on the wire. Run: ``python benchmarks/bench_fairness.py``.
"""

from __future__ import annotations

import asyncio
import json
import time

from engine.fairness import curve
from engine.fairness.backends import available_backends, self_test
from engine.fairness.backends.base import CryptoBackend
from engine.fairness.deck import (
    DeckLayout,
    DeckTranscript,
    ShuffleSeed,
    audit_deck,
    card_points,
    card_table,
    pass_one,
    pass_two,
    slot_commitments,
    unmask_many,
)

CARDS = [f"card-{i}" for i in range(97)]


async def native_floor() -> float:
    """Seconds for one native scalar multiplication (median of a batch)."""
    from engine.fairness.backends.native import NativeBackend

    backend = NativeBackend()
    x = curve.hash_to_x(b"floor")
    samples = []
    for i in range(200):
        k = curve.scalar_from_bytes(b"floor", str(i).encode())
        start = time.perf_counter()
        await backend.mult_many([(k, x)])
        samples.append(time.perf_counter() - start)
    return sorted(samples)[len(samples) // 2]


async def run(backend: CryptoBackend, seats: int) -> dict[str, float]:
    """One shuffle, one deal of every slot, one audit."""
    seeds = [ShuffleSeed(bytes([s + 1]) * 32) for s in range(seats)]
    layout = DeckLayout.from_rules({"main": CARDS})
    table = card_table("bench", "g", layout)
    transcript = DeckTranscript("main", 0, card_points("bench", "g", "main", CARDS), [], [], [])
    wire = 0
    start = time.perf_counter()
    current = transcript.initial
    for seed in seeds:
        current = await pass_one(backend, seed, "main", current)
        transcript.pass1.append(current)
        wire += len(json.dumps([format(x, "064x") for x in current]))
    for seat, seed in enumerate(seeds):
        current = await pass_two(backend, seed, "main", 0, current)
        commits = slot_commitments("bench", "g", seat, seed, 0, len(CARDS))
        transcript.pass2.append(current)
        transcript.commitments.append(commits)
        wire += len(json.dumps([format(x, "064x") for x in current])) + len(json.dumps(commits))
    shuffle = time.perf_counter() - start
    start = time.perf_counter()
    items = [(transcript.final[s], [seed.slot_key(s) for seed in seeds]) for s in range(len(CARDS))]
    cards = await unmask_many(backend, items, table)
    deal = time.perf_counter() - start
    assert sorted(c or "" for c in cards) == sorted(CARDS)
    start = time.perf_counter()
    await audit_deck(backend, "bench", "g", transcript, seeds)
    audit = time.perf_counter() - start
    return {"shuffle": shuffle, "deal": deal, "audit": audit, "bytes": wire, "messages": 2 * seats}


async def main() -> None:
    floor = await native_floor()
    print(f"floor: one native P-256 scalar multiplication = {floor * 1e6:.1f} µs")
    print(
        f"{'backend':<13} {'seats':>5} {'shuffle s':>10} {'×floor':>8} {'deal 97 s':>10} "
        f"{'×floor':>8} {'audit s':>8} {'×floor':>8} {'bytes':>8} {'msgs':>5}"
    )
    for backend in available_backends():
        if not await self_test(backend):
            print(f"{backend.name}: failed the self-test, skipped")
            continue
        for seats in (3, 6, 8):
            r = await run(backend, seats)
            print(
                f"{backend.name:<13} {seats:>5} {r['shuffle']:>10.3f} {r['shuffle'] / floor:>8.0f} "
                f"{r['deal']:>10.3f} {r['deal'] / floor:>8.0f} {r['audit']:>8.3f} "
                f"{r['audit'] / floor:>8.0f} {r['bytes']:>8.0f} {r['messages']:>5.0f}"
            )


if __name__ == "__main__":
    asyncio.run(main())
