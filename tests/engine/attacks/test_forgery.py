"""Forged, replayed, oversized, malformed and out-of-turn messages are refused and named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core.model import canonical_json
from engine.protocol.envelope import entry_hash, make_envelope
from engine.protocol.players import RandomBot
from tests.engine.attacks.common import Never, digests, host_signature, signed, started
from tests.engine.harness import make_table, play


async def test_forged_signature_names_the_sender() -> None:
    h = await make_table(3, players={0: Never(), 1: Never(), 2: Never()})
    await play(h, 3)
    before = digests(h)
    forger = h.peers[2]
    envelope = await make_envelope(
        h.backend,
        forger.bundle.sign,
        "room-1",
        "game-1",
        "p1",
        forger.table.head,
        {"t": "action", "action": {"type": "seal", "seat": 1, "commit": []}},
    )
    forger.transport.send("p0", canonical_json({"k": "post", "m": envelope}).decode())
    await h.settle()
    assert any(e.peer == "p2" and "bad signature" in e.reason for e in h.peers[0].errors)
    assert digests(h) == before
    await h.bus.close()


async def test_replay_from_another_room_and_of_a_logged_message() -> None:
    h = await started(3)
    host = h.peers[0]
    logged = host.table.log[3]["msg"]
    before = digests(h)
    h.peers[1].transport.send("p0", canonical_json({"k": "post", "m": logged}).decode())
    other_room = await make_envelope(
        h.backend, h.bundles[1].sign, "room-2", "game-1", "p1", host.table.head, logged["body"]
    )
    h.peers[1].transport.send("p0", canonical_json({"k": "post", "m": other_room}).decode())
    await h.settle()
    reasons = [e.reason for e in host.errors if e.peer == "p1"]
    # A logged message posted again is dropped unseen (peers forward posts, so copies are
    # normal); one from another room is refused and named.
    assert any("another room" in r for r in reasons)
    assert len(host.table.log) == len(h.peers[1].table.log)
    assert digests(h) == before
    await h.bus.close()


async def test_oversized_and_malformed_messages_are_refused() -> None:
    h = await started(3)
    before = digests(h)
    attacker = h.peers[2].transport
    attacker.send("p0", "x" * (600 * 1024))
    attacker.send("p0", "{not json")
    attacker.send("p0", json.dumps({"k": "post", "m": {"room": "room-1"}}))
    attacker.send("p1", json.dumps({"k": "entry", "e": {"seq": "one"}}))
    big = await signed(h, 2, {"t": "chain", "tip": "00" * 40_000})
    attacker.send("p0", canonical_json({"k": "post", "m": big}).decode())
    await h.settle()
    host_reasons = [e.reason for e in h.peers[0].errors if e.peer == "p2"]
    assert any("oversized" in r for r in host_reasons)
    assert any("not JSON" in r for r in host_reasons)
    assert any("wrong fields" in r for r in host_reasons)
    assert any("limit" in r for r in host_reasons)
    assert any(e.peer == "p2" for e in h.peers[1].errors)
    assert digests(h) == before
    await h.bus.close()


class BidsOnlyWhenTold:
    """Plays every phase at once except the bid, which it leaves to ``submit``."""

    def __init__(self) -> None:
        self.bot = RandomBot(5)

    async def choose(self, rules: Any, state: Any, seat: int, knowledge: Any, legal: Any) -> Any:
        if state["phase"] == "bid":
            return None
        return await self.bot.choose(rules, state, seat, knowledge, legal)


async def test_out_of_turn_action_is_refused_and_names_the_peer() -> None:
    h = await make_table(3, players={0: BidsOnlyWhenTold()})
    await play(h, 3)
    assert h.peers[0].table.state["phase"] == "bid"
    before = digests(h)
    rogue = await signed(h, 2, {"t": "action", "action": {"type": "bid", "seat": 2, "amount": 2}})
    h.peers[2].transport.send("p0", canonical_json({"k": "post", "m": rogue}).decode())
    await h.settle()
    assert any(e.peer == "p2" and "out of turn" in e.reason for e in h.peers[0].errors)
    assert digests(h) == before
    await h.peers[0].submit({"type": "bid", "seat": 0, "amount": 1})
    await h.settle()
    assert h.peers[0].table.stage == "done"
    await h.bus.close()


async def host_entry(
    swap: str = "", pause: dict[str, Any] | None = None
) -> tuple[bool, list[str], bool]:
    """The host broadcasts an entry of its own message (a pause), both parts signed by its key,
    one part forged or swapped as ``swap`` says; whether a guest took it, the guest's refusals
    naming the host, and whether the guests still agree with each other."""
    h = await make_table(3, players={0: Never(), 1: Never(), 2: Never()})
    await play(h, 3)
    host, guest = h.peers[0], h.peers[1]
    before = digests(h, skip={"p0"})
    envelope = await signed(h, 0, pause or {"t": "pause"})
    if swap in ("message signature forged", "both forged"):
        envelope["sig"] = "ab" * 64
    elif swap == "message signature of another message":
        envelope["sig"] = (await signed(h, 0, {"t": "resume"}))["sig"]
    seq = len(host.table.log)
    entry = {"seq": seq, "prev": host.table.head, "msg": envelope, "host": "p0"}
    digest = entry_hash(entry)
    if swap in ("entry signature of another number", "both forged"):
        entry["hsig"] = await host_signature(h, 0, seq + 1, digest)
    elif swap == "entry signature of another message":
        other = {**entry, "msg": await signed(h, 0, {"t": "resume"})}
        entry["hsig"] = await host_signature(h, 0, seq, entry_hash(other))
    else:
        entry["hsig"] = await host_signature(h, 0, seq, digest)
    host.transport.broadcast(canonical_json({"k": "entry", "e": entry}).decode())
    await h.settle()
    taken = len(guest.table.log) == seq + 1
    reasons = [e.reason for e in guest.errors if e.peer == "p0"]
    agree = len(digests(h, skip={"p0"})) == 1 and (taken or digests(h, skip={"p0"}) == before)
    await h.bus.close()
    return taken, reasons, agree


@pytest.mark.parametrize(
    "swap",
    [
        "message signature forged",
        "message signature of another message",
        "entry signature of another number",
        "entry signature of another message",
    ],
)
async def test_a_host_s_own_entry_needs_both_its_signatures(swap: str) -> None:
    """The host signs its own message and, as sequencer, the entry holding it: a guest checks
    both, and an entry with either part forged, or signed for another message or number, is
    refused and the host named (the entry's signature alone covers the message, but a guest
    that took such an entry would take what it refused before)."""
    taken, reasons, agree = await host_entry(swap)
    assert not taken and reasons and agree, (swap, reasons)
    taken, reasons, agree = await host_entry()
    assert taken and not reasons and agree


async def test_an_entry_with_both_parts_forged_is_refused_for_its_host_signature() -> None:
    """The two signatures are checked at once; a bad host signature is still the one reported
    (as when they were checked in turn), and the host named."""
    taken, reasons, agree = await host_entry("both forged")
    assert not taken and agree
    assert reasons and all("bad host signature" in r for r in reasons), reasons


async def test_an_entry_of_a_post_checked_early_still_needs_the_host_signature() -> None:
    """A guest checks a post's signature as it arrives and skips that check on its entry; the
    entry's own signature is checked all the same: forged, it is refused and the host named."""
    h = await make_table(3, players={0: Never(), 1: Never(), 2: Never()})
    await play(h, 3)
    host, guest = h.peers[0], h.peers[1]
    post = await signed(h, 2, {"t": "action", "action": {"type": "bid", "seat": 2, "amount": 1}})
    h.peers[2].transport.send("p1", canonical_json({"k": "post", "m": post}).decode())
    await h.settle()
    assert any(post["sig"] == p.envelope["sig"] for p in guest.pending.posts.values())
    seq = len(host.table.log)
    entry = {"seq": seq, "prev": host.table.head, "msg": post, "host": "p0"}
    entry["hsig"] = await host_signature(h, 0, seq + 1, entry_hash(entry))
    host.transport.send("p1", canonical_json({"k": "entry", "e": entry}).decode())
    await h.settle()
    assert len(guest.table.log) == seq
    assert any(e.peer == "p0" and "bad host signature" in e.reason for e in guest.errors)
    await h.bus.close()
