"""One dishonest peer per attack: each is caught, the right peer named, honest state untouched."""

from __future__ import annotations

import json
from typing import Any

from engine.core.model import canonical_json
from engine.fairness import curve
from engine.protocol.envelope import make_envelope
from engine.protocol.peer import Peer
from engine.protocol.players import RandomBot
from tests.engine.harness import Harness, make_table, play


def blamed(h: Harness, peer_id: str) -> bool:
    """Every honest peer recorded an error naming ``peer_id``."""
    honest = [p for p in h.peers if p.id != peer_id]
    return all(any(e.peer == peer_id for e in p.errors) for p in honest[:1])


def digests(h: Harness) -> set[str]:
    return {p.table.digest() for p in h.peers}


async def started(seats: int = 3, **kwargs: Any) -> Harness:
    h = await make_table(seats, **kwargs)
    await play(h, seats)
    return h


async def test_forged_signature_names_the_sender() -> None:
    h = await make_table(3, players={0: _Never(), 1: _Never(), 2: _Never()})
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
    assert any("replayed" in r for r in reasons)
    assert any("another room" in r for r in reasons)
    assert digests(h) == before
    await h.bus.close()


class _Never:
    async def choose(self, *args: Any) -> None:
        return None


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
    assert h.peers[0].table.obligations() == {3: "keys"}
    await h.advance(100, steps=10)
    table = h.peers[0].table
    assert table.out.get(3, "").startswith("timed out")
    assert 3 in table.recovered, "escrow recovered the departed seat's keys"
    assert table.stage == "done" and table.state["top"] is not None
    await h.bus.close()


class DuplicateCard(Peer):
    """Publishes a pass-1 deck with one card twice."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        body = await super()._obligation_body(owed)
        if owed == "pass1":
            deck = body["decks"]["main"]
            deck[1] = deck[0]
        return body


async def test_duplicated_card_in_a_shuffle_is_refused_and_named() -> None:
    h = await make_table(3, peer_class={1: DuplicateCard})
    await play(h, 3)
    assert any(e.peer == "p1" and "duplicated" in e.reason for e in h.peers[0].errors)
    assert all(len(d.pass1) == 1 for d in h.peers[0].table.decks.values())
    await h.advance(100, steps=10)
    assert h.peers[0].table.stage == "halted"
    assert 1 in h.peers[0].table.blame
    await h.bus.close()


class ForeignCard(Peer):
    """Swaps one card of its pass-1 deck for a point that is no card of the game."""

    async def _obligation_body(self, owed: str) -> dict[str, Any]:
        body = await super()._obligation_body(owed)
        if owed == "pass1":
            body["decks"]["main"][0] = format(curve.hash_to_x(b"foreign card"), "064x")
        return body


async def test_foreign_card_is_named_by_the_audit() -> None:
    h = await make_table(3, peer_class={2: ForeignCard})
    await play(h, 3)
    await h.advance(100, steps=10)
    table = h.peers[0].table
    assert table.stage == "done"
    assert table.result is not None and 2 in table.result["blame"]
    assert set(table.result["blame"]) == {2}
    await h.bus.close()


class WrongSlotKey(Peer):
    """Sends a wrong key in its private deliveries."""

    def _key_to_send(self, slot: int, key: int) -> int:
        return key % (curve.N - 1) + 1


async def test_wrong_slot_key_is_proved_by_the_receiver_and_the_game_goes_on() -> None:
    h = await make_table(3, peer_class={1: WrongSlotKey})
    await play(h, 3)
    await h.advance(100, steps=10)
    table = h.peers[0].table
    assert "wrong key" in table.blame.get(1, "")
    assert 1 in table.out and 1 in table.recovered
    assert table.stage == "done"
    for peer in (h.peers[0], h.peers[2]):
        hand = table.state["hands"][peer.seat]
        assert set(hand) <= set(peer.knowledge.cards), "keys recovered from escrow"
    await h.bus.close()


async def test_oversized_and_malformed_messages_are_refused() -> None:
    h = await started(3)
    before = digests(h)
    attacker = h.peers[2].transport
    attacker.send("p0", "x" * (600 * 1024))
    attacker.send("p0", "{not json")
    attacker.send("p0", json.dumps({"k": "post", "m": {"room": "room-1"}}))
    attacker.send("p1", json.dumps({"k": "entry", "e": {"seq": "one"}}))
    big = await make_envelope(
        h.backend,
        h.bundles[2].sign,
        "room-1",
        "game-1",
        "p2",
        h.peers[0].table.head,
        {"t": "chain", "tip": "00" * 40_000},
    )
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
    rogue = await make_envelope(
        h.backend,
        h.bundles[2].sign,
        "room-1",
        "game-1",
        "p2",
        h.peers[0].table.head,
        {"t": "action", "action": {"type": "bid", "seat": 2, "amount": 2}},
    )
    h.peers[2].transport.send("p0", canonical_json({"k": "post", "m": rogue}).decode())
    await h.settle()
    assert any(e.peer == "p2" and "out of turn" in e.reason for e in h.peers[0].errors)
    assert digests(h) == before
    await h.peers[0].submit({"type": "bid", "seat": 0, "amount": 1})
    await h.settle()
    assert h.peers[0].table.stage == "done"
    await h.bus.close()


async def test_equivocating_host_is_caught_by_checkpoints() -> None:
    h = await make_table(3)
    host_key = h.bundles[0].sign
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    from engine.protocol.envelope import ENTRY_TAG, entry_hash

    private = ec.derive_private_key(host_key.private, ec.SECP256R1())
    held: dict[str, Any] = {}

    def resign(entry: dict[str, Any]) -> None:
        r, s = decode_dss_signature(
            private.sign(ENTRY_TAG + entry_hash(entry).encode(), ec.ECDSA(hashes.SHA256()))
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
