"""A host that tells different peers different things is caught by checkpoints."""

from __future__ import annotations

import json
from typing import Any

from engine.core.model import canonical_json
from tests.engine.attacks.common import Never
from tests.engine.harness import make_table, play


async def test_equivocating_host_is_caught_by_checkpoints() -> None:
    h = await make_table(3)
    host_key = h.bundles[0].sign
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    from engine.protocol.envelope import entry_hash, entry_signed_bytes

    private = ec.derive_private_key(host_key.private, ec.SECP256R1())
    held: dict[str, Any] = {}

    def resign(entry: dict[str, Any]) -> None:
        r, s = decode_dss_signature(
            private.sign(
                entry_signed_bytes("room-1", "game-1", entry["seq"], entry_hash(entry)),
                ec.ECDSA(hashes.SHA256()),
            )
        )
        entry["hsig"] = (r.to_bytes(32, "big") + s.to_bytes(32, "big")).hex()

    def swap_two_seals_for_p2(sender: str, to: str, message: str) -> str | None:
        data = json.loads(message)
        if sender != "p0" or to != "p2" or data.get("k") != "entry":
            return message
        entry = data["e"]
        if entry["msg"]["body"].get("t") != "action" or "done" in held:
            return message
        if entry["msg"]["body"]["action"].get("type") != "seal":
            return message
        if "first" not in held:
            held["first"] = entry
            return None
        first = held.pop("first")
        held["done"] = True
        second = dict(entry, seq=first["seq"], prev=first["prev"])
        resign(second)
        first = dict(first, seq=second["seq"] + 1, prev=entry_hash(second))
        resign(first)
        h.bus.endpoints["p2"].queue.put_nowait(
            ("p0", canonical_json({"k": "entry", "e": second}).decode())
        )
        return canonical_json({"k": "entry", "e": first}).decode()

    h.bus.tamper = swap_two_seals_for_p2
    await play(h, 3)
    assert any(e.peer == "p0" and "equivocation" in e.reason for p in h.peers for e in p.errors)
    assert any(p.halted for p in h.peers), "a peer that saw the proof stops following the host"
    await h.bus.close()


async def test_checkpoints_go_between_the_hosts_guests_only() -> None:
    """The host's own checkpoints would repeat the entries it sent, and one sent to it could show
    it only its own signature: checkpoints go from each guest to each other guest, each way."""
    h = await make_table(4)
    sent: list[tuple[str, str]] = []

    def note(sender: str, to: str, message: str) -> str:
        if json.loads(message).get("k") == "checkpoint":
            sent.append((sender, to))
        return message

    h.bus.tamper = note
    await play(h, 4)
    assert all(p.table.stage == "done" and not p.errors for p in h.peers), [
        p.errors for p in h.peers
    ]
    assert not [pair for pair in sent if "p0" in pair], "the host neither sends nor is sent one"
    guests = ("p1", "p2", "p3")
    pairs = {(a, b) for a in guests for b in guests if a != b}
    assert set(sent) == pairs, set(sent) ^ pairs
    counts = {pair: sent.count(pair) for pair in pairs}
    assert len(set(counts.values())) == 1, counts  # each guest checkpoints to each other alike
    await h.bus.close()


async def test_a_player_cannot_frame_the_host_with_a_replayed_signature() -> None:
    """A checkpoint claims one entry's hash and host signature under another number: the
    signature covers ``(seq, hash)`` together, so the claim proves nothing."""
    h = await make_table(3, players={i: Never() for i in range(3)})
    await play(h, 3)
    log = h.peers[2].table.log
    second = log[2]
    fake = {"k": "checkpoint", "seq": 1, "hash": h.peers[2].table.hashes[2]}
    fake |= {"hsig": second["hsig"], "host": "p0"}
    h.peers[2].transport.broadcast(canonical_json(fake).decode())
    await h.settle()
    assert not any(p.halted for p in h.peers), "the table goes on"
    assert not any(e.peer == "p0" for p in h.peers[:2] for e in p.errors), "the host is not blamed"
    assert any(e.peer == "p2" and "checkpoint" in e.reason for e in h.peers[0].errors)
    await h.bus.close()


async def test_a_player_cannot_frame_the_host_with_an_earlier_games_entries() -> None:
    """The same table plays a second game with the same keys: an entry of the first game, or its
    checkpoint, replayed at the same number carries a valid host signature of another entry —
    but the host signs the game with the entry, so it proves nothing in this game."""
    first = await make_table(3)
    await play(first, 3)
    second = await make_table(3, bundles=first.bundles, game="game-2")
    await play(second, 3)
    seq = 5
    old = first.peers[0].table.log[seq]
    assert len(second.peers[0].table.log) > seq
    assert second.peers[0].table.hashes[seq] != first.peers[0].table.hashes[seq]
    cheat = second.peers[2]
    checkpoint = {"k": "checkpoint", "seq": seq, "hash": first.peers[0].table.hashes[seq]}
    checkpoint |= {"hsig": old["hsig"], "host": "p0"}
    cheat.transport.broadcast(canonical_json(checkpoint).decode())
    cheat.transport.broadcast(canonical_json({"k": "entry", "e": old}).decode())
    await second.settle()
    honest = second.peers[:2]
    assert not any(p.halted for p in honest), [p.halted for p in honest]
    assert not any(e.peer == "p0" for p in honest for e in p.errors), "the host is not blamed"
    for peer in honest:
        reasons = [e.reason for e in peer.errors if e.peer == "p2"]
        assert any("checkpoint" in r for r in reasons) and any("conflicting" in r for r in reasons)
    await first.bus.close()
    await second.bus.close()
