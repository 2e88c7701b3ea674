"""Shuffle + deal of a 97-card deck for 3, 6 and 8 players per CPython backend.

Prints wall time per shuffle (both passes, every seat), per private deal of the whole deck, and per
audit, each also as a ratio to one native scalar multiplication measured in the same run, plus the
bytes and messages a shuffle puts on the wire. Then a mid-game re-shuffle of 60 revealed slots
(scattered over a 97-card deck, epoch 1) among 3 and 6 seats on the native backend: both passes,
the unmasking of every re-dealt slot, and the audit of the re-shuffle transcript. Last, a seat's
joint-dice hash chain (``CHAIN_LENGTH`` links): the one walk that gives its tip, and a preimage
after it, each against the same floor.
Run: ``python benchmarks/bench_fairness.py``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time

from engine.fairness import curve, sharing
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
from engine.fairness.randomness import HashChain
from engine.protocol.table_state import CHAIN_LENGTH

CARDS = [f"card-{i}" for i in range(97)]
RESHUFFLED = 60


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
    share = sharing_cost(seats)
    return {
        "shuffle": shuffle,
        "deal": deal,
        "audit": audit,
        "bytes": wire,
        "messages": 2 * seats,
        "share": share,
    }


def sharing_cost(seats: int) -> float:
    """Seconds one seat spends on the escrow sharing at a table of ``seats``: dealing its shares
    (``t`` base multiplications) and checking the ``seats − 1`` shares dealt to it. The seats do
    this at once, with their chain tips, so it adds this much to the set-up, not ``seats`` times."""
    t = sharing.threshold(seats)
    if not t:
        return 0.0
    start = time.perf_counter()
    secret = curve.scalar_from_bytes(b"bench-escrow")
    points, shares = sharing.deal(secret, t, [sharing.share_x(s) for s in range(1, seats)])
    for x, value in shares.items():
        assert sharing.verify_share(points, x, value)
    return time.perf_counter() - start


async def run_reshuffle(backend: CryptoBackend, seats: int) -> dict[str, float]:
    """A re-shuffle of ``RESHUFFLED`` revealed slots (every other slot first, then the rest)."""
    seeds = [ShuffleSeed(bytes([s + 1]) * 32) for s in range(seats)]
    layout = DeckLayout.from_rules({"main": CARDS})
    table = card_table("bench", "g", layout)
    slots = sorted((list(range(0, len(CARDS), 2)) + list(range(1, len(CARDS), 2)))[:RESHUFFLED])
    points = card_points("bench", "g", "main", CARDS)
    initial = [points[s] for s in slots]
    transcript = DeckTranscript(
        "main", slots[0], initial, [], [], [], epoch=1, slots=slots, seats=list(range(seats))
    )
    wire = 0
    start = time.perf_counter()
    current = initial
    for seed in seeds:
        current = await pass_one(backend, seed, "main", current, 1)
        transcript.pass1.append(current)
        wire += len(json.dumps({"t": "reshuffle1", "r": 1, "xs": _hex(current)}))
    for seat, seed in enumerate(seeds):
        current = await pass_two(backend, seed, "main", 0, current, slots=slots, epoch=1)
        commits = slot_commitments("bench", "g", seat, seed, 0, len(slots), slots=slots, epoch=1)
        transcript.pass2.append(current)
        transcript.commitments.append(commits)
        body = {"t": "reshuffle2", "r": 1, "xs": _hex(current), "commits": commits}
        wire += len(json.dumps(body))
    shuffle = time.perf_counter() - start
    start = time.perf_counter()
    items = [
        (x, [seed.slot_key(slot, 1) for seed in seeds])
        for slot, x in zip(slots, transcript.final, strict=True)
    ]
    cards = await unmask_many(backend, items, table)
    deal = time.perf_counter() - start
    assert sorted(c or "" for c in cards) == sorted(CARDS[s] for s in slots)
    start = time.perf_counter()
    await audit_deck(backend, "bench", "g", transcript, seeds)
    audit = time.perf_counter() - start
    return {"shuffle": shuffle, "deal": deal, "audit": audit, "bytes": wire, "messages": 2 * seats}


def _hex(xs: list[int]) -> list[str]:
    return [format(x, "064x") for x in xs]


async def main() -> None:
    floor = await native_floor()
    print(f"floor: one native P-256 scalar multiplication = {floor * 1e6:.1f} µs")
    print(
        f"{'backend':<13} {'seats':>5} {'shuffle s':>10} {'×floor':>8} {'deal 97 s':>10} "
        f"{'×floor':>8} {'audit s':>8} {'×floor':>8} {'bytes':>8} {'msgs':>5} {'share s':>8}"
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
                f" {r['share']:>8.4f}"
            )
    from engine.fairness.backends.native import NativeBackend

    native = NativeBackend()
    print(
        f"\nre-shuffle of {RESHUFFLED} revealed slots (native)\n"
        f"{'seats':>5} {'passes s':>9} {'×floor':>8} {'deal s':>8} {'×floor':>8} "
        f"{'audit s':>8} {'×floor':>8} {'bytes':>8} {'msgs':>5}"
    )
    for seats in (3, 6):
        r = await run_reshuffle(native, seats)
        print(
            f"{seats:>5} {r['shuffle']:>9.3f} {r['shuffle'] / floor:>8.0f} {r['deal']:>8.3f} "
            f"{r['deal'] / floor:>8.0f} {r['audit']:>8.3f} {r['audit'] / floor:>8.0f} "
            f"{r['bytes']:>8.0f} {r['messages']:>5.0f}"
        )
    walk, preimage = chain_costs()
    print(
        f"\nhash chain of {CHAIN_LENGTH} links: walk to the tip {walk * 1e3:.2f} ms"
        f" ({walk / floor:.0f}× floor); a preimage after it {preimage * 1e6:.1f} µs"
        f" ({preimage / floor:.2f}× floor)"
    )


def chain_costs(rounds: int = 20) -> tuple[float, float]:
    """Seconds for a fresh chain's tip (the whole walk), and for one preimage once walked."""
    walks, preimages = [], []
    for _ in range(rounds):
        chain = HashChain(secrets.token_bytes(32), CHAIN_LENGTH)
        start = time.perf_counter()
        chain.tip()
        walks.append(time.perf_counter() - start)
        start = time.perf_counter()
        for event in range(1, 201):
            chain.preimage(event)
        preimages.append((time.perf_counter() - start) / 200)
    return sorted(walks)[rounds // 2], sorted(preimages)[rounds // 2]


if __name__ == "__main__":
    from benchmarks import options  # here: the browser benchmark runs the source above in a page

    options.parser(__doc__).parse_args()  # --help, or a word it does not take
    asyncio.run(main())
